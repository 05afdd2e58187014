//! One product per situation: nothing yet; healthy (no action) and then stale; unstitched and
//! unattributed revenue; an empty funnel step. Each expected list is built here from what the
//! test sent, with the health report's bands (docs/health-and-growth.md "Health report").

use super::*;

backend_tests!(
    a_product_with_nothing_is_told_to_start,
    a_healthy_product_has_nothing_to_do_until_it_goes_stale,
    unstitched_revenue_asks_for_identify_and_utm_tags,
    an_empty_funnel_step_is_its_own_action
);

/// The health report's evidence of check `id` (the action's `why` repeats it).
async fn evidence(app: &TestApp, key: &str, slug: &str, id: &str) -> String {
    let report = app
        .get(&format!("/products/{slug}/health-report"), Some(key))
        .await
        .expect(200)
        .clone();
    report["categories"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|category| category["checks"].as_array().unwrap())
        .find(|check| check["id"] == id)
        .map(|check| check["evidence"].as_str().unwrap().to_owned())
        .unwrap()
}

async fn a_product_with_nothing_is_told_to_start(app: TestApp) {
    let owner = founder(&app, "founder@example.com").await;
    product(&app, &owner, "blank").await;
    let list = list(&app, &owner.key, "blank", "").await;
    assert_eq!(list["window_days"], 30);
    // No event ever, no payments and no revenue, no primary conversion: all three fail, so
    // they rank by kind: events first, then payments, then the conversion.
    assert_eq!(
        ids(&list),
        [
            "install_tracking:events",
            "connect_payments:payments",
            "send_converted_event:server"
        ]
    );
    for action in list["actions"].as_array().unwrap() {
        assert_eq!(action["severity"], "fail");
        assert_eq!(action["estimated_impact_cents"], Value::Null);
        assert_eq!(action["tool"], Value::Null);
    }
    let install = action(&list, "install_tracking:events");
    assert_eq!(install["category"], "tracking");
    assert_eq!(install["check_id"], "tracking.events");
    assert_eq!(install["why"], "No event received yet");
    assert_eq!(
        install["links"][0],
        json!({"label": "Snippet and write key", "method": "GET", "path": "/products/blank/tracking-key"})
    );
    assert_eq!(
        action(&list, "connect_payments:payments")["links"][0]["path"],
        "/products/blank/connections/payments"
    );
    assert_eq!(
        action(&list, "send_converted_event:server")["why"],
        "No active primary conversion"
    );

    // The same numbers give the same list; `tool` only tags it.
    let again = super::list(&app, &owner.key, "blank", "?tool=agent_c").await;
    assert_eq!(ids(&again), ids(&list));
    for action in again["actions"].as_array().unwrap() {
        assert_eq!(action["tool"], "agent_c");
    }
    let week = super::list(&app, &owner.key, "blank", "?days=7").await;
    assert_eq!(week["window_days"], 7);
    assert_eq!(ids(&week), ids(&list));
}

async fn a_healthy_product_has_nothing_to_do_until_it_goes_stale(app: TestApp) {
    let owner = founder(&app, "founder@example.com").await;
    tracked(&app, &owner, "fine", 3, 5_000).await;
    let fine = list(&app, &owner.key, "fine", "").await;
    assert_eq!(ids(&fine), Vec::<&str>::new(), "{fine:#}");

    // Three days without an event (stale after 48 hours): the one action is to check tracking,
    // a warning.
    app.clock.advance(3 * 24 * 3_600_000);
    let stale = list(&app, &owner.key, "fine", "").await;
    assert_eq!(ids(&stale), ["install_tracking:events"]);
    let install = action(&stale, "install_tracking:events");
    assert_eq!(install["severity"], "warn");
    assert_eq!(
        install["why"],
        evidence(&app, &owner.key, "fine", "tracking.events").await
    );
}

async fn unstitched_revenue_asks_for_identify_and_utm_tags(app: TestApp) {
    let owner = founder(&app, "founder@example.com").await;
    tracked(&app, &owner, "loose", 2, 5_000).await;
    // Three payments no one can be tied to: no user id, no visitor id, no email.
    let anonymous: Vec<Value> = (0..3)
        .map(|n| {
            json!({"dedupe_id": format!("anon-{n}"), "stage": "payment", "value": 5_000,
                   "occurred_at": hours_ago(&app, 3)})
        })
        .collect();
    app.send_events(&owner.key, "loose", json!(anonymous)).await;

    // 2 of 5 revenue rows carry an identity (under 70%: fail); 15,000 of 25,000 has no first
    // touch (over 25%: fail).
    let (with_identity, rows) = (2, 5);
    assert!(with_identity * 100 < 70 * rows);
    let (unattributed, revenue) = (3 * 5_000, 5 * 5_000);
    assert!(unattributed * 100 > 25 * revenue);
    let loose = list(&app, &owner.key, "loose", "").await;
    assert_eq!(
        ids(&loose),
        ["stitch_identities:signup", "tag_links:utm"],
        "both fail; stitching ranks first by kind"
    );
    let stitch = action(&loose, "stitch_identities:signup");
    assert_eq!(stitch["severity"], "fail");
    assert_eq!(stitch["estimated_impact_cents"], Value::Null);
    assert_eq!(
        stitch["why"],
        "2 of 5 revenue rows (40.0%) in 30 days carry a user id, visitor id or email"
    );
    let tags = action(&loose, "tag_links:utm");
    assert_eq!(tags["severity"], "fail");
    assert_eq!(
        tags["why"],
        evidence(&app, &owner.key, "loose", "tracking.unattributed").await
    );
    assert_eq!(
        tags["links"][0]["path"],
        "/products/loose/attribution/sales?days=30&channel=unattributed"
    );
}

async fn an_empty_funnel_step_is_its_own_action(app: TestApp) {
    let owner = founder(&app, "founder@example.com").await;
    tracked(&app, &owner, "gap", 2, 5_000).await;
    app.post(
        "/products/gap/funnel/definition",
        Some(&owner.key),
        json!({ "steps": [{"stage": "visit", "label": "Visits"}, {"stage": "signup", "label": "Signups"},
                          {"stage": "payment", "label": "Paid"}] }),
    )
    .await
    .expect(200);
    let gap = list(&app, &owner.key, "gap", "").await;
    assert_eq!(ids(&gap), ["fix_funnel_step:signup"]);
    let step = action(&gap, "fix_funnel_step:signup");
    assert_eq!(step["severity"], "fail");
    assert_eq!(step["category"], "funnel");
    assert_eq!(
        step["headline"],
        "Fill the empty funnel step \"Signups\" (signup)"
    );
    assert!(
        step["why"]
            .as_str()
            .unwrap()
            .starts_with("No signup volume in 30 days; 1 of 3 steps had no volume"),
        "{step:#}"
    );

    // Signups arrive: the action is gone, and its prompt is no longer there.
    app.send_events(&owner.key,
        "gap",
        json!([{"dedupe_id": "s-1", "stage": "signup", "user_id": "mail-0", "occurred_at": hours_ago(&app, 1)}]),
    )
    .await;
    let filled = list(&app, &owner.key, "gap", "").await;
    assert_eq!(ids(&filled), Vec::<&str>::new());
    prompt(&app, &owner.key, "gap", "fix_funnel_step:signup", json!({}))
        .await
        .expect_error(404, "not found");
}
