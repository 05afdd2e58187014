//! A self-hosted server without billing settings bills nobody: every workspace has the top
//! plan, active, without a trial, every gate open; checkout, portal and webhook answer 503.

use payback_domain::DAY_MS;
use payback_testkit::{Backend, TestApp, per_backend};
use serde_json::{Value, json};

use super::support::{WEBHOOK_SECRET, deliver_signed, now_secs, summary};

async fn without_billing_settings_nothing_is_gated(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let owner = app.signup_verified("founder@example.com").await;
    app.create_product(&owner.token, "shop").await;
    // Long after any trial would have ended.
    app.clock.advance(400 * DAY_MS);
    // Sessions end after 7 idle days: sign in again after the jump.
    let owner = app.login(&owner.email).await;
    let seen = summary(&app, &owner.token).await;
    assert_eq!(seen["billing_available"], false);
    assert_eq!(seen["plan"], "growth");
    assert_eq!(seen["plan_status"], "active");
    assert_eq!(seen["trial_ends_at"], Value::Null);
    assert_eq!(seen["trial_days_left"], Value::Null);
    assert_eq!(seen["limits"], json!({"history_days": 3650}));
    let csv = app
        .get("/products/shop/export/events.csv", Some(&owner.token))
        .await;
    assert_eq!(csv.status, 200, "{}", csv.text);

    for reply in [
        app.post(
            "/billing/checkout",
            Some(&owner.token),
            json!({"plan": "growth"}),
        )
        .await,
        app.post("/billing/portal", Some(&owner.token), json!({}))
            .await,
        deliver_signed(
            &app,
            &json!({"id": "evt_1", "type": "invoice.paid", "created": 1}),
            WEBHOOK_SECRET,
            now_secs(&app),
        )
        .await,
    ] {
        assert_eq!(reply.status, 503, "{}", reply.text);
        assert!(reply.text.contains("not configured"), "{}", reply.text);
    }
    // The plan is still checked first.
    let refused = app
        .post(
            "/billing/checkout",
            Some(&owner.token),
            json!({"plan": "free"}),
        )
        .await;
    assert_eq!(refused.status, 400, "{}", refused.text);
}

per_backend!(without_billing_settings_nothing_is_gated);
