//! Revenue nobody can attribute, and revenue rows without an identity, in each band.

use super::*;

/// Under 10% pass, 10-25% warn, over 25% fail.
fn unattributed_band(unattributed: i64, revenue: i64) -> &'static str {
    let share = unattributed as f64 / revenue as f64;
    if share < 0.10 {
        "pass"
    } else if share <= 0.25 {
        "warn"
    } else {
        "fail"
    }
}

/// 90% or more pass, 70-90% warn, under 70% fail.
fn stitching_band(with_identity: i64, rows: i64) -> &'static str {
    let share = with_identity as f64 / rows as f64;
    if share >= 0.90 {
        "pass"
    } else if share >= 0.70 {
        "warn"
    } else {
        "fail"
    }
}

/// `buyers` identified buyers, each a referral visit then a payment of `each` cents, and (when
/// `anonymous` is positive) one payment of that many cents with no identity; hours ago.
async fn sell(app: &TestApp, key: &str, slug: &str, buyers: i64, each: i64, anonymous: i64) {
    let mut events = Vec::new();
    for buyer in 0..buyers {
        events.push(json!({"dedupe_id": format!("v{buyer}"), "stage": "visit", "user_id": format!("u{buyer}"),
            "occurred_at": hours_ago(app, 5), "attribution": {"referrer": "https://news.example.org/post"}}));
        events.push(json!({"dedupe_id": format!("p{buyer}"), "stage": "payment", "user_id": format!("u{buyer}"),
            "value": each, "occurred_at": hours_ago(app, 4)}));
    }
    if anonymous > 0 {
        events.push(
            json!({"dedupe_id": "anon", "stage": "payment", "value": anonymous,
            "occurred_at": hours_ago(app, 3)}),
        );
    }
    app.send_events(key, slug, json!(events)).await;
}

async fn unattributed_and_unstitched_revenue_in_each_band(app: TestApp) {
    let owner = founder(&app, "founder@example.com").await;

    // 7,000 attributed, 3,000 with no identity: 30% unattributed, 1 of 2 rows identified.
    product(&app, &owner, "leaky").await;
    sell(&app, &owner.key, "leaky", 1, 7_000, 3_000).await;
    let leaky = report(&app, &owner.key, "leaky").await;
    let tracked = [
        ("tracking.events", "pass"),
        ("tracking.payments", "warn"),
        ("funnel.empty_steps", "fail"),
        ("funnel.single_source", "pass"),
    ];
    let mut changed = tracked.to_vec();
    changed.push(("tracking.unattributed", unattributed_band(3_000, 10_000)));
    changed.push(("tracking.identity_stitching", stitching_band(1, 2)));
    assert_eq!(statuses(&leaky), expect(&nothing_yet(&app), &changed));
    assert_eq!(check(&leaky, "tracking.unattributed")["status"], "fail");
    assert_eq!(
        evidence(&leaky, "tracking.unattributed"),
        "30.00 USD of 100.00 USD revenue (30.0%) in 30 days has no first touch"
    );
    assert_eq!(
        evidence(&leaky, "tracking.identity_stitching"),
        "1 of 2 revenue rows (50.0%) in 30 days carry a user id, visitor id or email"
    );
    assert_eq!(
        evidence(&leaky, "tracking.payments"),
        "Not connected; 2 revenue rows in 30 days arrived through events only"
    );
    assert!(
        evidence(&leaky, "tracking.events")
            .starts_with("Last event 3 h ago; 3 events in 30 days from api"),
        "{}",
        evidence(&leaky, "tracking.events")
    );
    assert!(leaky["score"].is_i64(), "events exist: a score");

    // 4 x 2,125 attributed, 1,500 with no identity: 15%, and 4 of 5 rows identified.
    product(&app, &owner, "partly").await;
    sell(&app, &owner.key, "partly", 4, 2_125, 1_500).await;
    let partly = report(&app, &owner.key, "partly").await;
    let mut changed = tracked.to_vec();
    changed.push(("tracking.unattributed", unattributed_band(1_500, 10_000)));
    changed.push(("tracking.identity_stitching", stitching_band(4, 5)));
    assert_eq!(statuses(&partly), expect(&nothing_yet(&app), &changed));
    assert_eq!(check(&partly, "tracking.unattributed")["status"], "warn");
    assert_eq!(
        check(&partly, "tracking.identity_stitching")["status"],
        "warn"
    );
    assert!(
        evidence(&partly, "tracking.unattributed")
            .starts_with("15.00 USD of 100.00 USD revenue (15.0%)")
    );
    assert!(
        evidence(&partly, "tracking.identity_stitching").starts_with("4 of 5 revenue rows (80.0%)")
    );

    // Every row identified and attributed.
    product(&app, &owner, "tight").await;
    sell(&app, &owner.key, "tight", 3, 1_000, 0).await;
    let tight = report(&app, &owner.key, "tight").await;
    assert_eq!(
        check(&tight, "tracking.unattributed")["status"],
        unattributed_band(0, 3_000)
    );
    assert_eq!(
        check(&tight, "tracking.identity_stitching")["status"],
        stitching_band(3, 3)
    );
    assert!(
        evidence(&tight, "tracking.identity_stitching").starts_with("3 of 3 revenue rows (100.0%)")
    );
    assert!(
        evidence(&tight, "tracking.unattributed")
            .starts_with("0.00 USD of 30.00 USD revenue (0.0%)")
    );
}

backend_tests!(unattributed_and_unstitched_revenue_in_each_band);
