//! `POST /billing/webhook`: signatures checked as Stripe documents them (missing, wrong, stale:
//! 400 and nothing changes), a body that is not JSON refused, the subscription's states as its
//! events say (active, past due, canceled), redeliveries and events older than the last applied
//! one changing nothing, other types and unknown customers acknowledged and ignored, and no
//! secret in any answer or log line.

use payback_testkit::fakes::stripe_billing::{FakeStripeBilling, signature_header};
use payback_testkit::{Backend, per_backend};
use serde_json::{Value, json};

use super::support::{
    KEY, LogCapture, WEBHOOK_SECRET, billed, checkout, deliver, deliver_signed, now_secs,
    post_webhook, summary,
};

/// The parts of the summary the webhook changes.
fn state_of(summary: &Value) -> Value {
    json!({
        "plan": summary["plan"],
        "stored_plan": summary["stored_plan"],
        "plan_status": summary["plan_status"],
        "subscribed": summary["subscribed"],
        "trial_days_left": summary["trial_days_left"],
        "plan_period_end": summary["plan_period_end"],
    })
}

async fn webhook_events_move_the_plan_once_and_in_order(backend: Backend) {
    let log = LogCapture::start();
    let billed = billed(backend).await;
    let (app, stripe) = (&billed.app, &billed.stripe);
    let owner = app.signup_verified("founder@example.com").await;
    let session = checkout(&billed, &owner, "indie").await;
    let subscription = stripe.complete_checkout(&session);
    let period_end = stripe.subscription(&subscription).current_period_end;
    let now = now_secs(app);
    let trialing = state_of(&summary(app, &owner.token).await);
    assert_eq!(trialing["plan_status"], "trialing");

    // Refused deliveries change nothing: no signature, a wrong secret, a stale or a future
    // timestamp, a tampered body, a signed body that is not JSON.
    let created =
        stripe.subscription_event("evt_1", "customer.subscription.created", &subscription, now);
    let payload = created.to_string();
    let mut refusals = Vec::new();
    refusals.push(post_webhook(app, None, payload.clone()).await);
    refusals.push(deliver_signed(app, &created, "whsec_not_ours", now).await);
    refusals.push(deliver_signed(app, &created, WEBHOOK_SECRET, now - 301).await);
    refusals.push(deliver_signed(app, &created, WEBHOOK_SECRET, now + 301).await);
    let header = signature_header(WEBHOOK_SECRET, now, &payload);
    refusals.push(post_webhook(app, Some(&header), payload.replace("active", "past_due")).await);
    refusals.push(post_webhook(app, Some(&format!("t={now}")), payload.clone()).await);
    let not_json = "subscription: active";
    let header = signature_header(WEBHOOK_SECRET, now, not_json);
    let refused_json = post_webhook(app, Some(&header), not_json.to_owned()).await;
    assert_eq!(refused_json.status, 400, "{}", refused_json.text);
    assert!(
        refused_json.text.contains("not JSON"),
        "{}",
        refused_json.text
    );
    for refusal in &refusals {
        assert_eq!(refusal.status, 400, "{}", refusal.text);
        assert!(
            refusal.text.contains("Stripe-Signature"),
            "{}",
            refusal.text
        );
    }
    assert_eq!(state_of(&summary(app, &owner.token).await), trialing);
    // Within the tolerance it passes: 300 s old.
    let reply = deliver_signed(app, &created, WEBHOOK_SECRET, now - 300).await;
    assert_eq!(reply.expect(200), &json!({"ok": true}));
    let active = summary(app, &owner.token).await;
    let period_end_text = payback_domain::Timestamp::from_millis(period_end * 1_000).to_rfc3339();
    assert_eq!(
        state_of(&active),
        json!({"plan": "indie", "stored_plan": "indie", "plan_status": "active", "subscribed": true,
               "trial_days_left": null, "plan_period_end": period_end_text})
    );
    assert_eq!(active["trial_ends_at"], Value::Null);
    assert_eq!(active["limits"], json!({"history_days": 365}));

    // checkout.session.completed after the subscription's event, same second: no change.
    let completed = stripe.checkout_completed_event("evt_2", &session, now);
    deliver(app, &completed).await;
    assert_eq!(
        state_of(&summary(app, &owner.token).await),
        state_of(&active)
    );

    // A renewal fails: past due keeps the plan.
    stripe.set_status(&subscription, "past_due");
    let late = stripe.subscription_event(
        "evt_3",
        "customer.subscription.updated",
        &subscription,
        now + 10,
    );
    deliver(app, &late).await;
    let past_due = state_of(&summary(app, &owner.token).await);
    assert_eq!(past_due["plan"], "indie");
    assert_eq!(past_due["plan_status"], "past_due");
    assert_eq!(past_due["subscribed"], true);

    // A redelivery of an applied event (same id) changes nothing, though it says `active`.
    deliver(app, &created).await;
    assert_eq!(state_of(&summary(app, &owner.token).await), past_due);
    // An event older than the last applied one changes nothing either.
    stripe.set_status(&subscription, "active");
    let older = stripe.subscription_event(
        "evt_4",
        "customer.subscription.updated",
        &subscription,
        now + 5,
    );
    deliver(app, &older).await;
    assert_eq!(state_of(&summary(app, &owner.token).await), past_due);
    // Other types, and customers Payback did not make, are acknowledged and ignored.
    let other_type = FakeStripeBilling::event(
        "evt_5",
        "invoice.paid",
        now + 20,
        json!({"id": "in_1", "object": "invoice", "customer": stripe.customers()[0].id}),
    );
    deliver(app, &other_type).await;
    let mut stranger = stripe.subscription_json(&subscription);
    stranger["customer"] = json!("cus_someone_else");
    stranger["status"] = json!("canceled");
    let unknown =
        FakeStripeBilling::event("evt_6", "customer.subscription.deleted", now + 20, stranger);
    deliver(app, &unknown).await;
    assert_eq!(state_of(&summary(app, &owner.token).await), past_due);

    // Paid again, then canceled: free at once, the stored tier kept.
    let paid = stripe.subscription_event(
        "evt_7",
        "customer.subscription.updated",
        &subscription,
        now + 30,
    );
    deliver(app, &paid).await;
    assert_eq!(summary(app, &owner.token).await["plan_status"], "active");
    stripe.set_status(&subscription, "canceled");
    let deleted = stripe.subscription_event(
        "evt_8",
        "customer.subscription.deleted",
        &subscription,
        now + 40,
    );
    deliver(app, &deleted).await;
    let canceled = summary(app, &owner.token).await;
    assert_eq!(canceled["plan"], "free");
    assert_eq!(canceled["stored_plan"], "indie");
    assert_eq!(canceled["plan_status"], "canceled");
    assert_eq!(canceled["subscribed"], false);
    assert_eq!(
        canceled["trial_days_left"],
        Value::Null,
        "a subscription ended the trial for good"
    );

    for reply in refusals.iter().chain([&refused_json]) {
        assert!(
            !reply.text.contains(WEBHOOK_SECRET) && !reply.text.contains(KEY),
            "{}",
            reply.text
        );
    }
    let logged = log.text();
    assert!(!logged.is_empty(), "the capture saw the app's log");
    assert!(!logged.contains(WEBHOOK_SECRET) && !logged.contains(KEY));
}

async fn without_a_webhook_secret_the_webhook_answers_503(backend: Backend) {
    let billed = super::support::billed_with(backend, None).await;
    let app = &billed.app;
    let event = FakeStripeBilling::event("evt_1", "invoice.paid", now_secs(app), json!({}));
    let reply = deliver_signed(app, &event, WEBHOOK_SECRET, now_secs(app)).await;
    assert_eq!(reply.status, 503, "{}", reply.text);
    assert!(
        reply.text.contains("PAYBACK_BILLING_WEBHOOK_SECRET"),
        "{}",
        reply.text
    );
}

/// An endpoint created on a version before 2025-03-31.basil gets the period on the
/// subscription rather than on its items; the plan's period end is read from either place.
async fn an_event_rendered_before_basil_carries_the_period_on_the_subscription(backend: Backend) {
    let billed = billed(backend).await;
    let (app, stripe) = (&billed.app, &billed.stripe);
    let owner = app.signup_verified("founder@example.com").await;
    let session = checkout(&billed, &owner, "indie").await;
    let subscription = stripe.complete_checkout(&session);
    let period_end = stripe.subscription(&subscription).current_period_end;
    let object = stripe.subscription_json_before_basil(&subscription);
    assert_eq!(object["current_period_end"], period_end);
    assert!(
        object["items"]["data"][0]
            .get("current_period_end")
            .is_none()
    );
    let now = now_secs(app);
    let event = FakeStripeBilling::event("evt_old", "customer.subscription.created", now, object);
    deliver(app, &event).await;
    let active = state_of(&summary(app, &owner.token).await);
    assert_eq!(active["plan_status"], "active");
    assert_eq!(
        active["plan_period_end"],
        payback_domain::Timestamp::from_millis(period_end * 1_000).to_rfc3339()
    );
}

per_backend!(
    webhook_events_move_the_plan_once_and_in_order,
    without_a_webhook_secret_the_webhook_answers_503,
    an_event_rendered_before_basil_carries_the_period_on_the_subscription,
);
