//! `GET /billing` of a new workspace: the trial of the top plan, counted in whole days up, its
//! products each free for 30 days, and the plan table; at the trial's end the free plan.

use payback_domain::{Clock, DAY_MS, HOUR_MS};
use payback_testkit::{Backend, TEST_START, per_backend};
use serde_json::{Value, json};

use super::support::{billed, summary};

fn plan_table() -> Value {
    json!([
        {"key": "free", "name": "Free",
         "features": {"exports": false, "sheets_sync": false, "ai_insights": false, "suggestions": false},
         "limits": {"history_days": 30}},
        {"key": "indie", "name": "Indie",
         "features": {"exports": false, "sheets_sync": false, "ai_insights": false, "suggestions": true},
         "limits": {"history_days": 365}},
        {"key": "growth", "name": "Growth",
         "features": {"exports": true, "sheets_sync": true, "ai_insights": true, "suggestions": true},
         "limits": {"history_days": 3650}},
    ])
}

async fn a_new_workspace_trials_the_top_plan_then_is_free(backend: Backend) {
    let billed = billed(backend).await;
    let app = &billed.app;
    let owner = app.signup_verified("founder@example.com").await;
    let created = app.clock.now();
    let trial_end = created.plus_millis(30 * DAY_MS);
    app.create_product(&owner.token, "first").await;
    app.clock.advance(10 * DAY_MS);
    // Sessions end after 7 idle days: sign in again after the jump.
    let owner = app.login(&owner.email).await;
    let second_at = app.clock.now();
    app.create_product(&owner.token, "second").await;

    let first_day = summary(app, &owner.token).await;
    let expected = json!({
        "plan": "growth",
        "stored_plan": "free",
        "plan_status": "trialing",
        "trial_ends_at": trial_end.to_rfc3339(),
        "trial_days_left": 20,
        "plan_period_end": null,
        "billing_available": true,
        "has_customer": false,
        "subscribed": false,
        "member_role": "owner",
        "period": "2026-12",
        "usage": {"products": 2},
        "limits": {"history_days": 3650},
        "billable_products": 0,
        "quantity": 1,
        "product_lines": [
            {"slug": "first", "name": "Product first",
             "free_until": created.plus_millis(30 * DAY_MS).to_rfc3339(), "billable": false},
            {"slug": "second", "name": "Product second",
             "free_until": second_at.plus_millis(30 * DAY_MS).to_rfc3339(), "billable": false},
        ],
        "features": {"exports": true, "sheets_sync": true, "ai_insights": true, "suggestions": true},
        "plans": plan_table(),
    });
    // The test starts on 2026-11-21: ten days later is December.
    assert_eq!(TEST_START.day(), "2026-11-21");
    assert_eq!(first_day, expected);

    // Rounded up: an hour before the end is one day left; the first product is billable then.
    app.clock.set(trial_end.minus_millis(HOUR_MS));
    // Sessions end after 7 idle days: sign in again after the jump.
    let owner = app.login(&owner.email).await;
    let last_hour = summary(app, &owner.token).await;
    assert_eq!(last_hour["trial_days_left"], 1);
    assert_eq!(last_hour["plan_status"], "trialing");
    assert_eq!(last_hour["billable_products"], 0);

    app.clock.set(trial_end);
    let ended = summary(app, &owner.token).await;
    assert_eq!(ended["plan"], "free");
    assert_eq!(ended["stored_plan"], "free");
    assert_eq!(ended["plan_status"], "active");
    assert_eq!(ended["trial_ends_at"], Value::Null);
    assert_eq!(ended["trial_days_left"], Value::Null);
    assert_eq!(ended["limits"], json!({"history_days": 30}));
    assert_eq!(
        ended["features"],
        json!({"exports": false, "sheets_sync": false, "ai_insights": false, "suggestions": false})
    );
    assert_eq!(ended["billable_products"], 1);
    assert_eq!(ended["product_lines"][0]["billable"], true);
    assert_eq!(ended["product_lines"][1]["billable"], false);
    assert_eq!(ended["quantity"], 1);

    // A member sees their own role; an API key reads as a member.
    let member = app.add_member(&owner, "member@example.com", "member").await;
    assert_eq!(summary(app, &member.token).await["member_role"], "member");
    let key = app.api_key(&owner).await;
    assert_eq!(summary(app, &key).await["member_role"], "member");
    // No bearer, no summary.
    assert_eq!(app.get("/billing", None).await.status, 401);
    // Trial days first count 30 for a workspace made now.
    let other = app.signup_verified("other@example.com").await;
    assert_eq!(summary(app, &other.token).await["trial_days_left"], 30);
}

per_backend!(a_new_workspace_trials_the_top_plan_then_is_free);
