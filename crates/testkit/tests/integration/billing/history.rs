//! Plan changes in the history: each webhook event that moves a workspace's plan or its status
//! writes one account event by the system (`billing.plan_changed`, `billing.status_changed`,
//! `{from, to, status, previous_status}`, no Stripe id); redeliveries, older events and events
//! that leave the plan as it was write none; the workspace's owners and the operators read them,
//! its members and other workspaces do not.

use payback_testkit::fakes::stripe_billing::FakeStripeBilling;
use payback_testkit::{Backend, TestApp, per_backend};
use serde_json::{Value, json};

use super::support::{PRICE_GROWTH, PRICE_INDIE, billed, deliver, now_secs, subscribe, summary};

/// `token`'s billing events, oldest first, as an owner (or operator) reads the account's.
async fn billing_events(app: &TestApp, token: &str) -> Vec<Value> {
    app.history_where(token, is_billing).await
}

fn is_billing(event: &Value) -> bool {
    event["action"]
        .as_str()
        .is_some_and(|action| action.starts_with("billing."))
}

/// The parts of a billing event the history shows.
fn shown(event: &Value) -> Value {
    json!({
        "action": event["action"],
        "actor": event["actor"],
        "via": event["via"],
        "product_slug": event["product_slug"],
        "subject_ref": event["subject_ref"],
        "payload": event["payload"],
    })
}

fn plan_event(action: &str, from: &str, to: &str, status: &str, previous: &str) -> Value {
    json!({
        "action": action,
        "actor": "system",
        "via": "job",
        "product_slug": null,
        "subject_ref": null,
        "payload": {"from": from, "to": to, "status": status, "previous_status": previous},
    })
}

/// `customer.subscription.*` about `subscription` as Stripe holds it, its price `price`: the
/// fake keeps the price of the checkout, a plan switch in the portal changes it.
fn event_priced(
    stripe: &FakeStripeBilling,
    id: &str,
    kind: &str,
    subscription: &str,
    created: i64,
    price: &str,
) -> Value {
    let mut object = stripe.subscription_json(subscription);
    object["items"]["data"][0]["price"]["id"] = json!(price);
    FakeStripeBilling::event(id, kind, created, object)
}

async fn plan_changes_write_one_history_event_each(backend: Backend) {
    let billed = billed(backend).await;
    let (app, stripe) = (&billed.app, &billed.stripe);
    let owner = app.signup_verified("founder@example.com").await;
    let stranger = app.signup_verified("stranger@example.com").await;
    let member = app
        .add_member(&owner, "colleague@example.com", "member")
        .await;
    assert_eq!(billing_events(app, &owner.token).await, Vec::<Value>::new());

    // Checkout, then the subscription: the trial's top plan gives way to Indie, once (the
    // checkout's own event moves nothing the workspace sees).
    let subscription = subscribe(&billed, &owner, "indie").await;
    let now = now_secs(app);
    let subscribed = plan_event(
        "billing.plan_changed",
        "growth",
        "indie",
        "active",
        "trialing",
    );
    let events = billing_events(app, &owner.token).await;
    assert_eq!(
        events.iter().map(shown).collect::<Vec<_>>(),
        vec![subscribed.clone()]
    );

    // An upgrade in the portal.
    let upgrade = event_priced(
        stripe,
        "evt_upgrade",
        "customer.subscription.updated",
        &subscription,
        now + 10,
        PRICE_GROWTH,
    );
    deliver(app, &upgrade).await;
    let upgraded = plan_event(
        "billing.plan_changed",
        "indie",
        "growth",
        "active",
        "active",
    );
    let after_upgrade: Vec<Value> = billing_events(app, &owner.token)
        .await
        .iter()
        .map(shown)
        .collect();
    assert_eq!(after_upgrade, vec![subscribed.clone(), upgraded.clone()]);

    // Its redelivery, an older event saying Indie, and a newer one saying what is already so
    // (a renewal) write nothing.
    deliver(app, &upgrade).await;
    let older = event_priced(
        stripe,
        "evt_older",
        "customer.subscription.updated",
        &subscription,
        now + 5,
        PRICE_INDIE,
    );
    deliver(app, &older).await;
    let renewal = event_priced(
        stripe,
        "evt_renewal",
        "customer.subscription.updated",
        &subscription,
        now + 15,
        PRICE_GROWTH,
    );
    deliver(app, &renewal).await;
    assert_eq!(summary(app, &owner.token).await["plan"], "growth");
    let unchanged: Vec<Value> = billing_events(app, &owner.token)
        .await
        .iter()
        .map(shown)
        .collect();
    assert_eq!(unchanged, after_upgrade);

    // A failed renewal keeps the plan and moves its status; then the subscription ends.
    stripe.set_status(&subscription, "past_due");
    let late = event_priced(
        stripe,
        "evt_late",
        "customer.subscription.updated",
        &subscription,
        now + 20,
        PRICE_GROWTH,
    );
    deliver(app, &late).await;
    stripe.set_status(&subscription, "canceled");
    let deleted = event_priced(
        stripe,
        "evt_deleted",
        "customer.subscription.deleted",
        &subscription,
        now + 30,
        PRICE_GROWTH,
    );
    deliver(app, &deleted).await;
    let events = billing_events(app, &owner.token).await;
    assert_eq!(
        events.iter().map(shown).collect::<Vec<_>>(),
        vec![
            subscribed,
            upgraded,
            plan_event(
                "billing.status_changed",
                "growth",
                "growth",
                "past_due",
                "active"
            ),
            plan_event(
                "billing.plan_changed",
                "growth",
                "free",
                "canceled",
                "past_due"
            ),
        ]
    );
    // No Stripe id of the workspace's in them.
    let text = Value::Array(events.clone()).to_string();
    let customer = &stripe.customers()[0].id;
    for id in [
        subscription.as_str(),
        customer.as_str(),
        PRICE_GROWTH,
        PRICE_INDIE,
    ] {
        assert!(!text.contains(id), "{id} in {text}");
    }

    // The operators read them; another workspace's owner does not, and a member may not read
    // the account's events at all (nor finds them among the products').
    let operator: Vec<Value> = app
        .history(&app.operator_token, "?limit=1000")
        .await
        .into_iter()
        .filter(is_billing)
        .collect();
    assert_eq!(operator.len(), 4, "{operator:?}");
    assert!(
        operator
            .iter()
            .all(|event| events.iter().any(|own| own["id"] == event["id"]))
    );
    assert_eq!(
        billing_events(app, &stranger.token).await,
        Vec::<Value>::new()
    );
    let refused = app
        .get("/history?include=account", Some(&member.token))
        .await;
    assert_eq!(refused.status, 403, "{}", refused.text);
    let products_only = app.history(&member.token, "?limit=1000").await;
    assert!(!products_only.iter().any(is_billing), "{products_only:?}");
}

per_backend!(plan_changes_write_one_history_event_each);
