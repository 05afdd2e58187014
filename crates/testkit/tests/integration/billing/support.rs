//! What the billing tests share: the app configured to bill through the fake, signed
//! deliveries, and a log captured per test.

use std::sync::Arc;

pub use crate::log_capture::LogCapture;
use payback_domain::Clock;
use payback_server::Config;
use payback_testkit::fakes::stripe_billing::{FakeStripeBilling, signature_header};
use payback_testkit::{Backend, FakeSource, Reply, Session, TestApp};
use serde_json::{Value, json};

pub const KEY: &str = "sk_test_51PaybackBillingKeyNeverShown";
pub const WEBHOOK_SECRET: &str = "whsec_PaybackBillingSecretNeverShown";
pub const PRICE_INDIE: &str = "price_1IndieMonthly";
pub const PRICE_GROWTH: &str = "price_1GrowthMonthly";

/// The app billing through its fake Stripe.
pub struct Billed {
    pub app: TestApp,
    pub stripe: FakeStripeBilling,
}

/// An app billing through a fresh fake, its webhook secret set.
pub async fn billed(backend: Backend) -> Billed {
    billed_with(backend, Some(WEBHOOK_SECRET)).await
}

pub async fn billed_with(backend: Backend, webhook_secret: Option<&str>) -> Billed {
    spawn(backend, webhook_secret, Vec::new(), |_| {}).await
}

/// [`billed`] with `more` settings.
pub async fn billed_configured(backend: Backend, more: impl FnOnce(&mut Config)) -> Billed {
    spawn(backend, Some(WEBHOOK_SECRET), Vec::new(), more).await
}

/// [`billed`] with `sources` registered as their kinds' connectors.
pub async fn billed_reading(backend: Backend, sources: Vec<FakeSource>) -> Billed {
    spawn(backend, Some(WEBHOOK_SECRET), sources, |_| {}).await
}

async fn spawn(
    backend: Backend,
    webhook_secret: Option<&str>,
    sources: Vec<FakeSource>,
    more: impl FnOnce(&mut Config),
) -> Billed {
    let stripe = FakeStripeBilling::spawn(KEY, &[PRICE_INDIE, PRICE_GROWTH]).await;
    let base = stripe.base_url();
    let secret = webhook_secret.map(str::to_owned);
    let app = TestApp::spawn_custom(
        backend,
        move |config| {
            config.billing_stripe_key = Some(KEY.into());
            config.billing_webhook_secret = secret.map(Into::into);
            config.billing_price_indie = Some(PRICE_INDIE.to_owned());
            config.billing_price_growth = Some(PRICE_GROWTH.to_owned());
            config.billing_api_url = base;
            more(config);
        },
        move |state| {
            for source in sources {
                state.sources.register(source.kind(), Arc::new(source));
            }
        },
    )
    .await;
    Billed { app, stripe }
}

/// The app's clock in Stripe's unit (epoch seconds).
pub fn now_secs(app: &TestApp) -> i64 {
    app.clock.now().millis() / 1_000
}

/// Posts `event` to the webhook signed with `secret` at `timestamp`.
pub async fn deliver_signed(app: &TestApp, event: &Value, secret: &str, timestamp: i64) -> Reply {
    let payload = event.to_string();
    let header = signature_header(secret, timestamp, &payload);
    post_webhook(app, Some(&header), payload).await
}

/// Posts `event` signed as Stripe signs it now; it must be acknowledged.
pub async fn deliver(app: &TestApp, event: &Value) {
    let reply = deliver_signed(app, event, WEBHOOK_SECRET, now_secs(app)).await;
    assert_eq!(reply.expect(200), &json!({"ok": true}));
}

/// Posts a raw body to the webhook with `signature` (if any) as `Stripe-Signature`.
pub async fn post_webhook(app: &TestApp, signature: Option<&str>, body: String) -> Reply {
    let mut request = app
        .client
        .post(app.url("/billing/webhook"))
        .header("content-type", "application/json")
        .body(body);
    if let Some(signature) = signature {
        request = request.header("Stripe-Signature", signature);
    }
    Reply::read(request.send().await.unwrap()).await
}

pub async fn summary(app: &TestApp, token: &str) -> Value {
    app.get("/billing", Some(token)).await.expect(200).clone()
}

/// Checkout through `owner` for `plan`; answers the session the fake made.
pub async fn checkout(billed: &Billed, owner: &Session, plan: &str) -> String {
    let reply = billed
        .app
        .post(
            "/billing/checkout",
            Some(&owner.token),
            json!({ "plan": plan }),
        )
        .await;
    let url = reply.expect(200)["url"].as_str().unwrap().to_owned();
    let session = billed
        .stripe
        .checkouts()
        .into_iter()
        .find(|session| session.url == url)
        .expect("the url is the fake's session's");
    session.id
}

/// Checkout for `plan`, paid at Stripe, and Stripe's two events delivered: answers the
/// subscription's id.
pub async fn subscribe(billed: &Billed, owner: &Session, plan: &str) -> String {
    let session = checkout(billed, owner, plan).await;
    let subscription = billed.stripe.complete_checkout(&session);
    let now = now_secs(&billed.app);
    let completed =
        billed
            .stripe
            .checkout_completed_event(&format!("evt_done_{session}"), &session, now);
    deliver(&billed.app, &completed).await;
    let created = billed.stripe.subscription_event(
        &format!("evt_created_{subscription}"),
        "customer.subscription.created",
        &subscription,
        now,
    );
    deliver(&billed.app, &created).await;
    subscription
}
