//! The subscription's quantity follows the billable products within one job-loop pass as each
//! product passes its free days; a pass with nothing changed writes nothing to Stripe.

use payback_domain::{Clock, DAY_MS};
use payback_server::jobs;
use payback_testkit::{Backend, TestApp, per_backend};

use super::support::{billed, subscribe, summary};

/// One pass of the job loop, `billing_quantity` due in it (every 30 s).
async fn job_pass(app: &TestApp) {
    app.clock.advance(30_000);
    let reports = jobs::run_due(&app.state, "billing-test").await.unwrap();
    let ran = reports
        .iter()
        .find(|report| report.job.name() == "billing_quantity")
        .expect("the quantity job ran in the pass");
    assert!(ran.outcome.is_ok(), "{:?}", ran.outcome);
}

async fn quantity_follows_products_past_their_free_days(backend: Backend) {
    let billed = billed(backend).await;
    let (app, stripe) = (&billed.app, &billed.stripe);
    let owner = app.signup_verified("founder@example.com").await;
    // An API key does not idle out while the clock jumps over days.
    let key = app.api_key(&owner).await;
    // Products made on days 0, 10 and 20; subscribed on day 1 with none billable yet.
    let start = app.clock.now();
    app.create_product(&key, "one").await;
    app.clock.advance(DAY_MS);
    let subscription = subscribe(&billed, &owner, "indie").await;
    assert_eq!(stripe.subscription(&subscription).quantity, 1);
    app.clock.set(start.plus_millis(10 * DAY_MS));
    app.create_product(&key, "two").await;
    app.clock.set(start.plus_millis(20 * DAY_MS));
    app.create_product(&key, "three").await;
    let item_updates = || stripe.requests_to("/v1/subscription_items/").len();

    // Nothing billable yet: quantity 1 as Stripe holds it, nothing written.
    job_pass(app).await;
    assert_eq!(item_updates(), 0);

    // Day 30: the first product joins the bill, still one: nothing written.
    app.clock.set(start.plus_millis(30 * DAY_MS));
    job_pass(app).await;
    assert_eq!(item_updates(), 0);
    assert_eq!(summary(app, &key).await["billable_products"], 1);

    // Day 40: the second joins, quantity 2 at Stripe within the pass.
    app.clock.set(start.plus_millis(40 * DAY_MS));
    job_pass(app).await;
    assert_eq!(item_updates(), 1);
    assert_eq!(stripe.subscription(&subscription).quantity, 2);
    let update = &stripe.requests_to("/v1/subscription_items/")[0];
    assert_eq!(
        update.path,
        format!(
            "/v1/subscription_items/{}",
            stripe.subscription(&subscription).item_id
        )
    );
    assert_eq!(update.form(), vec![("quantity".to_owned(), "2".to_owned())]);
    assert!(
        update
            .header("idempotency-key")
            .is_some_and(|key| !key.is_empty())
    );
    // The pinned API version, never the account's default: the item's shape is basil's.
    assert_eq!(
        update.header("stripe-version"),
        Some(payback_connectors::billing::API_VERSION)
    );
    assert_eq!(payback_connectors::billing::API_VERSION, "2025-03-31.basil");
    // Unchanged: another pass writes nothing.
    job_pass(app).await;
    assert_eq!(item_updates(), 1);

    // Day 50: all three.
    app.clock.set(start.plus_millis(50 * DAY_MS));
    job_pass(app).await;
    assert_eq!(item_updates(), 2);
    assert_eq!(stripe.subscription(&subscription).quantity, 3);
    let seen = summary(app, &key).await;
    assert_eq!(
        (
            seen["billable_products"].as_i64(),
            seen["quantity"].as_i64()
        ),
        (Some(3), Some(3))
    );
}

per_backend!(quantity_follows_products_past_their_free_days);
