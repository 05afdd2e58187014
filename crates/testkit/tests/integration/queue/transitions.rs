//! The card table's transitions with the injected clock: reject for good, snooze until the time
//! comes, expiry after 72 hours and restore with a fresh wait; set-aside cards listed by status.

use payback_domain::{Clock, HOUR_MS};

use super::*;

async fn reject_dismisses_for_good(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let id = propose(&app, &key, proposal(5_000)).await;
    resolve(&app, &owner.token, &id, "reject", json!({}))
        .await
        .expect(200);
    assert!(app.queue(&owner.token).await.is_empty());
    for resolution in RESOLUTIONS {
        resolve(&app, &owner.token, &id, resolution, json!({}))
            .await
            .expect_error(404, "no such pending card");
    }
    let events = card_history(&app, &owner.token, &id).await;
    let reject = events
        .iter()
        .find(|e| e["action"] == "card.reject")
        .unwrap();
    assert_eq!(reject["actor"], OWNER);
    assert_eq!(reject["payload"]["to"], "dismissed");
    assert!(
        !events
            .iter()
            .any(|e| e["action"].as_str().unwrap().starts_with("spend."))
    );
}

async fn snooze_hides_until_the_time_comes(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let id = propose(&app, &key, proposal(5_000)).await;
    // Default: 24 hours.
    resolve(&app, &owner.token, &id, "snooze", json!({}))
        .await
        .expect(200);
    assert!(app.queue(&owner.token).await.is_empty());
    assert_eq!(pending_cards(&app, &owner.token).await, 0);
    for resolution in ["approve", "reject", "snooze"] {
        resolve(&app, &owner.token, &id, resolution, json!({}))
            .await
            .expect_error(404, "no such pending card");
    }
    app.clock.advance(24 * HOUR_MS - 1);
    assert!(app.queue(&owner.token).await.is_empty());
    app.clock.advance(1);
    assert_eq!(queue_ids(&app, &owner.token).await, vec![id.clone()]);

    // snoozeHours chooses the length; restore brings it back at once.
    resolve(
        &app,
        &owner.token,
        &id,
        "snooze",
        json!({ "snoozeHours": 2 }),
    )
    .await
    .expect(200);
    assert!(app.queue(&owner.token).await.is_empty());
    resolve(&app, &owner.token, &id, "restore", json!({}))
        .await
        .expect(200);
    assert_eq!(queue_ids(&app, &owner.token).await, vec![id.clone()]);
    // Restore never resolves: a pending card has nothing to restore.
    resolve(&app, &owner.token, &id, "restore", json!({}))
        .await
        .expect_error(404, "no such pending card");

    let snooze = card_history(&app, &owner.token, &id).await;
    let hours: Vec<i64> = snooze
        .iter()
        .filter(|e| e["action"] == "card.snooze")
        .map(|e| e["payload"]["snooze_hours"].as_i64().unwrap())
        .collect();
    assert_eq!(hours, vec![24, 2]);

    for bad in [
        json!({ "snoozeHours": 0 }),
        json!({ "snoozeHours": -3 }),
        json!({ "snoozeHours": "two" }),
        json!({ "snoozeHours": 9000 }),
    ] {
        resolve(&app, &owner.token, &id, "snooze", bad)
            .await
            .expect_error(400, "snoozeHours");
    }
    assert_eq!(queue_ids(&app, &owner.token).await, vec![id]);
}

async fn proposals_expire_after_72_hours_and_restore_with_a_fresh_wait(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let id = propose(&app, &key, proposal(5_000)).await;
    app.clock.advance(72 * HOUR_MS - 1);
    assert_eq!(queue_ids(&app, &owner.token).await, vec![id.clone()]);
    app.clock.advance(1);
    assert!(app.queue(&owner.token).await.is_empty());
    for resolution in ["approve", "reject", "snooze"] {
        resolve(&app, &owner.token, &id, resolution, json!({}))
            .await
            .expect_error(404, "no such pending card");
    }
    // A snooze does not outlive the proposal either.
    let second = propose(&app, &key, proposal(4_000)).await;
    resolve(
        &app,
        &owner.token,
        &second,
        "snooze",
        json!({ "snoozeHours": 100 }),
    )
    .await
    .expect(200);

    // The job persists the expiry and records it.
    app.clock.advance(72 * HOUR_MS);
    payback_server::jobs::run_due(&app.state, "runner-a")
        .await
        .unwrap();
    for card in [&id, &second] {
        let events = card_history(&app, &owner.token, card).await;
        let expired = events
            .iter()
            .find(|e| e["action"] == "card.expire")
            .expect("expired");
        assert_eq!(expired["actor"], "system");
        assert_eq!(expired["via"], "job");
    }

    resolve(&app, &owner.token, &id, "restore", json!({}))
        .await
        .expect(200);
    let cards = app.queue(&owner.token).await;
    assert_eq!(cards.len(), 1);
    let now = app.clock.now();
    assert_eq!(
        cards[0]["expires_at"],
        now.plus_millis(72 * HOUR_MS).to_rfc3339()
    );
    resolve(&app, &owner.token, &id, "approve", json!({}))
        .await
        .expect(200);
}

/// `GET /queue?status=` lists the cards set aside, so a human can find what to restore: snoozed
/// ones until their time comes, expired ones once their 72 hours pass (before and after the
/// expiry job stores it), never another account's; an unknown status is a 400 naming the field.
async fn set_aside_cards_are_listed_by_status(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let listed = |status: &'static str| {
        let app = &app;
        let token = owner.token.clone();
        async move {
            let reply = app
                .get(&format!("/queue?status={status}"), Some(&token))
                .await;
            reply
                .expect(200)
                .as_array()
                .unwrap()
                .iter()
                .map(|c| {
                    (
                        c["id"].as_str().unwrap().to_owned(),
                        c["status"].as_str().unwrap().to_owned(),
                    )
                })
                .collect::<Vec<_>>()
        }
    };
    let snoozed = propose(&app, &key, proposal(3_000)).await;
    app.clock.advance(2 * HOUR_MS);
    let expiring = propose(&app, &key, proposal(4_000)).await;
    resolve(
        &app,
        &owner.token,
        &snoozed,
        "snooze",
        json!({ "snoozeHours": 100 }),
    )
    .await
    .expect(200);

    assert_eq!(
        listed("pending").await,
        vec![(expiring.clone(), "pending".to_owned())]
    );
    assert_eq!(
        listed("snoozed").await,
        vec![(snoozed.clone(), "snoozed".to_owned())]
    );
    assert!(listed("expired").await.is_empty());
    // The default is pending.
    assert_eq!(queue_ids(&app, &owner.token).await, vec![expiring.clone()]);

    // Both pass 72 hours from their creation: expired, whether or not the job has run.
    app.clock.advance(72 * HOUR_MS);
    let expired = listed("expired").await;
    assert_eq!(
        expired.iter().map(|(id, _)| id.clone()).collect::<Vec<_>>(),
        vec![expiring.clone(), snoozed.clone()]
    );
    assert!(
        expired.iter().all(|(_, status)| status == "expired"),
        "{expired:?}"
    );
    assert!(listed("snoozed").await.is_empty());
    assert!(listed("pending").await.is_empty());

    // Restoring takes one back to pending.
    resolve(&app, &owner.token, &expiring, "restore", json!({}))
        .await
        .expect(200);
    assert_eq!(listed("expired").await.len(), 1);
    assert_eq!(queue_ids(&app, &owner.token).await, vec![expiring]);

    let stranger = app.signup_verified("stranger@example.com").await;
    for status in ["pending", "snoozed", "expired"] {
        let reply = app
            .get(&format!("/queue?status={status}"), Some(&stranger.token))
            .await;
        assert_eq!(reply.expect(200), &json!([]));
    }
    app.get("/queue?status=resolved", Some(&owner.token))
        .await
        .expect_error(400, "status");
}

backend_tests!(
    reject_dismisses_for_good,
    snooze_hides_until_the_time_comes,
    proposals_expire_after_72_hours_and_restore_with_a_fresh_wait,
    set_aside_cards_are_listed_by_status,
);
