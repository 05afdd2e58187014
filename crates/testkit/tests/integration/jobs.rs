//! The leased job runner and its jobs: two runners on one database never run the same job
//! twice; deterministic alerts are raised once per condition; gate reviews; the rollback watch
//! proposes a revert (never a change). Jobs run by hand against the manual clock.

use payback_domain::{Clock, DAY_MS, HOUR_MS, MINUTE_MS};
use payback_server::jobs::{self, Job};
use payback_store::spend::SpendRow;
use payback_testkit::{Session, TestApp, backend_tests};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::Arc;

const OWNER: &str = "owner@example.com";

async fn founder(app: &TestApp) -> (Session, String) {
    let owner = app.signup_verified(OWNER).await;
    app.create_product(&owner.token, "shop").await;
    let key = app.api_key(&owner).await;
    (owner, key)
}

/// Pending proposals only (the spend in these tests also raises a no-revenue alert).
async fn proposals(app: &TestApp, token: &str) -> Vec<Value> {
    let cards = app.queue(token).await;
    cards
        .into_iter()
        .filter(|c| c["card_type"] == "proposal")
        .collect()
}

async fn run_jobs(app: &TestApp) {
    for report in jobs::run_due(&app.state, "test-runner").await.unwrap() {
        assert!(report.outcome.is_ok(), "{report:?}");
    }
}

async fn write_spend(app: &TestApp, token: &str, day: &str, cents: i64) {
    let product = app.get("/products/shop", Some(token)).await;
    let product_id = product.body["product_id"].as_str().unwrap().to_owned();
    let row = SpendRow {
        day: day.to_owned(),
        network: "google".to_owned(),
        channel: "paid_google".to_owned(),
        campaign_id: "cmp-1".to_owned(),
        spend_cents: cents,
        impressions: 1_000,
        clicks: 40,
        ..SpendRow::default()
    };
    let mut tx = app.state.store.begin().await.unwrap();
    payback_store::spend::upsert(&mut tx, &product_id, "test", &[row], app.clock.now())
        .await
        .unwrap();
    tx.commit().await.unwrap();
}

async fn two_runners_never_run_a_job_twice(app: TestApp) {
    // A second instance: its own pool on the same database, the same clock.
    let config = (*app.state.config).clone();
    let other = payback_server::build_state(config, Arc::new(app.clock.clone()))
        .await
        .unwrap();
    let iterations = 12;
    let mut runs: HashMap<Job, usize> = HashMap::new();
    for _ in 0..iterations {
        let (a, b) = tokio::join!(
            jobs::run_due(&app.state, "runner-a"),
            jobs::run_due(&other, "runner-b")
        );
        let (a, b) = (a.unwrap(), b.unwrap());
        for report in a.iter().chain(&b) {
            assert!(report.outcome.is_ok(), "{report:?}");
            *runs.entry(report.job).or_default() += 1;
        }
        // In one pass, no job ran in both runners.
        for report in &a {
            assert!(
                !b.iter().any(|r| r.job == report.job),
                "{:?} ran twice",
                report.job
            );
        }
        app.clock.advance(MINUTE_MS);
    }
    // Minute jobs ran once a minute; the 15-minute and hourly ones once in 12 minutes.
    assert_eq!(runs[&Job::ExpireCards], iterations);
    assert_eq!(runs[&Job::WakeSnoozed], iterations);
    assert_eq!(runs[&Job::RaiseAlerts], 1);
    assert_eq!(runs[&Job::WatchRollbacks], 1);
    assert_eq!(runs[&Job::GateReviews], 1);
    // The database agrees: one recorded run per job and due time, each finished and ok.
    let recorded = payback_store::jobs::runs(&app.state.store).await.unwrap();
    assert_eq!(recorded.len(), runs.values().sum::<usize>());
    assert!(recorded.iter().all(|r| r.ok == Some(true)));
    let leases = payback_store::jobs::leases(&app.state.store).await.unwrap();
    assert_eq!(leases.len(), Job::ALL.len());
    assert!(
        leases
            .iter()
            .all(|l| l.lease_owner.is_none() && l.consecutive_failures == 0)
    );
}

async fn spend_without_revenue_raises_one_alert(app: TestApp) {
    let (owner, key) = founder(&app).await;
    run_jobs(&app).await;
    assert!(app.queue(&owner.token).await.is_empty());
    write_spend(&app, &owner.token, "2026-11-20", 12_345).await;
    app.clock.advance(15 * MINUTE_MS);
    run_jobs(&app).await;
    let cards = app.queue(&key).await;
    assert_eq!(cards.len(), 1, "{cards:?}");
    let alert = &cards[0];
    assert_eq!(alert["card_type"], "alert");
    assert_eq!(alert["proposed_by"], "system");
    assert_eq!(alert["action_spec"], Value::Null);
    assert_eq!(alert["expires_at"], Value::Null);
    assert_eq!(
        alert["headline"],
        "Product shop spent with no tracked revenue for 7 days"
    );
    let line = alert["metric_line"].as_str().unwrap();
    assert!(
        line.contains("spend 123.45 USD from 2026-11-14 to 2026-11-20"),
        "{line}"
    );

    // The same condition raises no second card, and a dismissed one stays dismissed.
    app.clock.advance(15 * MINUTE_MS);
    run_jobs(&app).await;
    assert_eq!(app.queue(&owner.token).await.len(), 1);
    let id = alert["id"].as_str().unwrap();
    app.post(
        &format!("/queue/{id}/reject"),
        Some(&owner.token),
        json!({}),
    )
    .await
    .expect(200);
    app.clock.advance(15 * MINUTE_MS);
    run_jobs(&app).await;
    assert!(app.queue(&owner.token).await.is_empty());
    let raised = app
        .history(&owner.token, "?limit=1000")
        .await
        .into_iter()
        .filter(|e| e["action"] == "card.raise")
        .collect::<Vec<_>>();
    assert_eq!(raised.len(), 1);
    assert_eq!(raised[0]["actor"], "system");
    assert_eq!(raised[0]["via"], "job");
    assert_eq!(
        app.get("/products/shop", Some(&key)).await.expect(200)["pending_cards"],
        0
    );
}

async fn silent_tracking_raises_one_alert(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let event =
        json!({ "events": [{ "dedupe_id": "v1", "stage": "visit", "anonymous_id": "a1" }] });
    app.post("/products/shop/events", Some(&key), event)
        .await
        .expect(200);
    app.clock.advance(47 * HOUR_MS);
    run_jobs(&app).await;
    assert!(app.queue(&owner.token).await.is_empty());
    app.clock.advance(2 * HOUR_MS);
    run_jobs(&app).await;
    let cards = app.queue(&owner.token).await;
    assert_eq!(cards.len(), 1);
    assert_eq!(
        cards[0]["headline"],
        "Tracking for Product shop has been silent for 49 hours"
    );
    assert_eq!(
        cards[0]["metric_line"],
        "last event 2026-11-21T12:00:00.000Z · silent 49 h"
    );
    app.clock.advance(HOUR_MS);
    run_jobs(&app).await;
    assert_eq!(app.queue(&owner.token).await.len(), 1);
}

async fn owners_set_stage_and_gate(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let member = app.add_member(&owner, "member@example.com", "member").await;
    let gate = json!({ "stage": "live", "gate_due_date": "2026-11-21" });
    app.post("/products/shop", Some(&key), gate.clone())
        .await
        .expect_error(403, "Not an owner");
    app.post("/products/shop", Some(&member.token), gate.clone())
        .await
        .expect_error(403, "Not an owner");
    let invalid = [
        (json!({ "gate_due_date": "21/11/2026" }), "gate_due_date"),
        (json!({ "stage": "paused" }), "stage"),
        (json!({ "gate_result": "maybe" }), "gate_result"),
    ];
    for (body, field) in invalid {
        let reply = app.post("/products/shop", Some(&owner.token), body).await;
        reply.expect_error(400, field);
    }
    let edited = app
        .post("/products/shop", Some(&owner.token), gate)
        .await
        .expect(200)
        .clone();
    assert_eq!(edited["stage"], "live");
    assert_eq!(edited["gate_due_date"], "2026-11-21");
    assert_eq!(edited["gate_result"], Value::Null);
    let row = app
        .get("/products/shop", Some(&key))
        .await
        .expect(200)
        .clone();
    assert_eq!(row["stage"], "live");
    assert_eq!(row["gate_due_date"], "2026-11-21");
    let update = app
        .history(&owner.token, "?product=shop")
        .await
        .into_iter()
        .find(|e| e["action"] == "product.update")
        .unwrap();
    assert_eq!(update["payload"]["after"]["stage"], "live");
    assert_eq!(update["payload"]["before"]["stage"], "validation");

    // The due gate raises one gate_result card suggesting a verdict; approving records it.
    run_jobs(&app).await;
    let cards = app.queue(&owner.token).await;
    assert_eq!(cards.len(), 1);
    let card = &cards[0];
    assert_eq!(card["card_type"], "gate_result");
    assert_eq!(
        card["headline"],
        "Gate review for Product shop: suggest fail"
    );
    assert_eq!(
        card["action_spec"],
        json!({ "kind": "set_gate_result", "gate_result": "fail", "gate_due_date": "2026-11-21" })
    );
    app.clock.advance(2 * HOUR_MS);
    run_jobs(&app).await;
    assert_eq!(app.queue(&owner.token).await.len(), 1);
    let id = card["id"].as_str().unwrap();
    app.approve_card(&member.token, id).await;
    assert_eq!(
        app.get("/products/shop", Some(&key)).await.expect(200)["gate_result"],
        "fail"
    );
    let recorded = app
        .history(&owner.token, "?product=shop")
        .await
        .into_iter()
        .find(|e| e["action"] == "product.gate_result")
        .unwrap();
    assert_eq!(recorded["actor"], "member@example.com");
    // With a verdict the gate is no longer due; clearing it (and the due date) is the owner's.
    app.clock.advance(2 * HOUR_MS);
    run_jobs(&app).await;
    assert!(app.queue(&owner.token).await.is_empty());
    let cleared = app
        .post(
            "/products/shop",
            Some(&owner.token),
            json!({ "gate_result": null, "gate_due_date": null }),
        )
        .await;
    assert_eq!(cleared.expect(200)["gate_result"], Value::Null);
}

async fn rollback_watch_proposes_a_revert(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let body = json!({
        "network": "google", "from_cents": 2_000, "to_cents": 5_000,
        "rationale": "Search converts; double the budget for a week.",
        "rollback_if": { "cac_ceiling_cents": 10_000, "window_days": 7 },
    });
    let approved = app.propose_and_approve(&key, &owner, "shop", body).await;
    // Spend on the day of the approval does not count against the change.
    write_spend(&app, &owner.token, "2026-11-21", 50_000).await;
    app.clock.advance(2 * DAY_MS);
    run_jobs(&app).await;
    assert!(proposals(&app, &owner.token).await.is_empty());

    // The next day spends 300.00 with no customer: CAC is over the 100.00 ceiling.
    write_spend(&app, &owner.token, "2026-11-22", 30_000).await;
    app.clock.advance(15 * MINUTE_MS);
    run_jobs(&app).await;
    let cards = proposals(&app, &owner.token).await;
    assert_eq!(cards.len(), 1);
    let revert = &cards[0];
    assert_eq!(revert["card_type"], "proposal");
    assert_eq!(revert["proposed_by"], "system");
    assert_eq!(
        revert["headline"],
        "Lower Google Ads daily budget for Product shop to 20.00 USD"
    );
    assert_eq!(revert["action_spec"]["to_cents"], 2_000);
    assert_eq!(revert["action_spec"]["from_cents"], 5_000);
    assert_eq!(revert["action_spec"]["reverts_card"], approved.as_str());
    let detail = revert["detail"].as_str().unwrap();
    assert!(
        detail.contains("CAC no customers vs ceiling 100.00 USD · spend 300.00 USD"),
        "{detail}"
    );
    assert!(detail.contains("From 2026-11-22 to 2026-11-22"), "{detail}");

    // One proposal per change; the watcher never changes spend itself.
    app.clock.advance(15 * MINUTE_MS);
    run_jobs(&app).await;
    assert_eq!(proposals(&app, &owner.token).await.len(), 1);
    let policy = app.get("/policy", Some(&key)).await.expect(200).clone();
    assert_eq!(policy["budgets"][0]["daily_cents"], 5_000);
    // A human approves the revert like any proposal; a revert is not itself watched.
    let id = revert["id"].as_str().unwrap();
    app.approve_card(&owner.token, id).await;
    let policy = app.get("/policy", Some(&key)).await.expect(200).clone();
    assert_eq!(policy["budgets"][0]["daily_cents"], 2_000);
    app.clock.advance(DAY_MS);
    run_jobs(&app).await;
    assert!(proposals(&app, &owner.token).await.is_empty());
}

async fn rollback_without_a_baseline_raises_an_alert(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let body = json!({
        "network": "google", "to_cents": 5_000,
        "rationale": "Start search ads at fifty a day.",
        "rollback_if": { "cac_ceiling_cents": 100 },
    });
    app.propose_and_approve(&key, &owner, "shop", body).await;
    write_spend(&app, &owner.token, "2026-11-22", 1_000).await;
    app.clock.advance(2 * DAY_MS);
    run_jobs(&app).await;
    let cards = app.queue(&owner.token).await;
    let alert = cards
        .iter()
        .find(|c| {
            c["card_type"] == "alert"
                && c["headline"].as_str().unwrap().contains("rollback ceiling")
        })
        .unwrap();
    assert_eq!(
        alert["headline"],
        "Google Ads CAC is over the rollback ceiling for Product shop"
    );
    assert_eq!(alert["action_spec"], Value::Null);
}

/// A runner that dies (or outlives its lease) mid-run does not stop the job for good: once the
/// lease is over another runner takes the unfinished run over and the schedule moves on; the
/// first runner's late finish changes nothing.
async fn an_expired_run_is_taken_over(app: TestApp) {
    use payback_store::jobs as leases;
    let db = &app.state.store;
    let now = app.clock.now();
    leases::register(db, "probe", now).await.unwrap();
    let first = leases::claim(db, "probe", "runner-a", now, 10 * MINUTE_MS)
        .await
        .unwrap()
        .expect("due");
    // While the lease lasts and its holder beats, nobody else may take it.
    assert!(
        leases::heartbeat(db, &first, now.plus_millis(30_000))
            .await
            .unwrap()
    );
    assert!(
        leases::claim(
            db,
            "probe",
            "runner-b",
            now.plus_millis(MINUTE_MS),
            10 * MINUTE_MS
        )
        .await
        .unwrap()
        .is_none()
    );
    let later = now.plus_millis(11 * MINUTE_MS);
    let second = leases::claim(db, "probe", "runner-b", later, 10 * MINUTE_MS)
        .await
        .unwrap()
        .expect("the unfinished run is taken over");
    assert_eq!(second.due_at, first.due_at);
    let next = later.plus_millis(HOUR_MS);
    leases::finish(db, &second, Ok("done"), next, later)
        .await
        .unwrap();
    // The dead runner finishing late does not move the schedule back.
    leases::finish(db, &first, Err("late"), later, later)
        .await
        .unwrap();
    let lease = leases::leases(db)
        .await
        .unwrap()
        .into_iter()
        .find(|lease| lease.job == "probe")
        .unwrap();
    assert_eq!(lease.next_run_at, next.millis());
    assert_eq!(lease.consecutive_failures, 0);
    assert!(lease.lease_owner.is_none());
    // Not due again before the next run.
    assert!(
        leases::claim(
            db,
            "probe",
            "runner-c",
            later.plus_millis(MINUTE_MS),
            10 * MINUTE_MS
        )
        .await
        .unwrap()
        .is_none()
    );
}

backend_tests!(
    an_expired_run_is_taken_over,
    two_runners_never_run_a_job_twice,
    spend_without_revenue_raises_one_alert,
    silent_tracking_raises_one_alert,
    owners_set_stage_and_gate,
    rollback_watch_proposes_a_revert,
    rollback_without_a_baseline_raises_an_alert,
);
