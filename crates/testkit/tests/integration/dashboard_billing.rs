//! The billing page in headless Chromium (`e2e/dashboard-billing.mjs`): reached from the
//! settings, it shows the trial, the products and which are billable, sends the browser to the
//! Checkout session's url and to the billing portal's. Afterwards the session the fake Stripe
//! received is checked here: the Indie price, quantity 1, the workspace's one customer.

use payback_testkit::browser::{run_browser_script_with_env, spawn_on_wall_clock};
use payback_testkit::fakes::stripe_billing::FakeStripeBilling;
use payback_testkit::{Backend, per_backend};

const EMAIL: &str = "billing@example.com";
const KEY: &str = "sk_test_DashboardBillingKey";
const PRICE_INDIE: &str = "price_dash_indie";
const PRICE_GROWTH: &str = "price_dash_growth";

async fn billing_page(backend: Backend) {
    let stripe = FakeStripeBilling::spawn(KEY, &[PRICE_INDIE, PRICE_GROWTH]).await;
    let origin = stripe.base_url();
    let api_url = origin.clone();
    let app = spawn_on_wall_clock(
        backend,
        move |config| {
            config.billing_stripe_key = Some(KEY.into());
            config.billing_webhook_secret = Some("whsec_dashboard".into());
            config.billing_price_indie = Some(PRICE_INDIE.to_owned());
            config.billing_price_growth = Some(PRICE_GROWTH.to_owned());
            config.billing_api_url = api_url;
        },
        |_| {},
    )
    .await;
    let owner = app.signup_verified(EMAIL).await;
    app.create_product(&owner.token, "shop").await;
    app.create_product(&owner.token, "studio").await;
    let env = [
        ("PAYBACK_E2E_EMAIL", EMAIL.to_owned()),
        (
            "PAYBACK_E2E_PRODUCTS",
            "Product shop,Product studio".to_owned(),
        ),
        ("PAYBACK_E2E_STRIPE", origin),
    ];
    run_browser_script_with_env(&app, "dashboard-billing", &env).await;

    let customers = stripe.customers();
    assert_eq!(customers.len(), 1, "one customer for the workspace");
    assert_eq!(customers[0].email.as_deref(), Some(EMAIL));
    let checkouts = stripe.checkouts();
    assert_eq!(checkouts.len(), 1);
    assert_eq!(checkouts[0].price, PRICE_INDIE);
    assert_eq!(checkouts[0].quantity, 1);
    assert_eq!(checkouts[0].customer, customers[0].id);
    assert_eq!(
        checkouts[0].client_reference_id.as_deref(),
        Some(owner.account_id.as_str())
    );
    let portals = stripe.portals();
    assert_eq!(portals.len(), 1);
    assert_eq!(portals[0].customer, customers[0].id);
}

per_backend!(billing_page);
