//! Attribution coverage counts identities active in a window two ways: a window reaching past
//! every identity's last activity (the reports' own, ending today) counts profiles by their
//! last activity; any other window deduplicates its daily rows. Both must give the same
//! answer as the events themselves, identity merges included.

use payback_domain::span::Span;
use payback_domain::{DAY_MS, Timestamp};
use payback_store::reports::attribution::{Coverage, coverage};
use payback_testkit::{TEST_START, TestApp, backend_tests};
use serde_json::json;

fn at(days_ago: i64) -> String {
    Timestamp::from_millis(TEST_START.millis() - days_ago * DAY_MS).to_rfc3339()
}

async fn identities(app: &TestApp, product_id: &str, span: Span) -> (i64, i64) {
    // The store is read directly here, so fold what the API accepted first, as reports do.
    app.settle().await;
    let Coverage {
        identities_total,
        identities_with_channel,
        ..
    } = coverage(&app.state.store, product_id, span).await.unwrap();
    (identities_total, identities_with_channel)
}

async fn both_paths_agree(app: TestApp) {
    let owner = app.signup_verified("founder@example.com").await;
    let product = app.create_product(&owner.token, "shop").await;
    let product_id = product["id"].as_str().unwrap().to_owned();
    let key = app.api_key(&owner).await;
    // a: a tagged visit 20 days ago, untagged again 2 days ago. b: untagged, 10 days ago.
    // Anonymous x (tagged, 12 days ago) becomes user u today, so u's first touch is x's.
    let events = json!({ "events": [
        { "dedupe_id": "1", "stage": "visit", "anonymous_id": "a", "occurred_at": at(20),
          "attribution": { "utm_source": "google", "utm_medium": "cpc" } },
        { "dedupe_id": "2", "stage": "engaged", "anonymous_id": "a", "occurred_at": at(2) },
        { "dedupe_id": "3", "stage": "lead", "anonymous_id": "b", "occurred_at": at(10) },
        { "dedupe_id": "4", "stage": "visit", "anonymous_id": "x", "occurred_at": at(12),
          "attribution": { "referrer": "https://news.ycombinator.com/" } },
        { "dedupe_id": "5", "stage": "signup", "anonymous_id": "x", "user_id": "u", "occurred_at": at(0) },
    ]});
    app.post("/products/shop/events", Some(&key), events)
        .await
        .expect(200);

    let now = TEST_START;
    // Windows ending today: profiles by last activity.
    assert_eq!(
        identities(&app, &product_id, Span::days_ending(now, 1)).await,
        (1, 1)
    );
    assert_eq!(
        identities(&app, &product_id, Span::days_ending(now, 3)).await,
        (2, 2)
    );
    assert_eq!(
        identities(&app, &product_id, Span::days_ending(now, 30)).await,
        (3, 2)
    );
    // Windows that end in the past: the daily rows. 15 to 5 days ago saw b and x (now u).
    let past = Span {
        start: Span::days_ending(now, 16).start,
        end: Span::days_ending(now, 5).start,
    };
    assert_eq!(identities(&app, &product_id, past).await, (2, 1));
    let older = Span::days_ending(now, 30).previous();
    assert_eq!(identities(&app, &product_id, older).await, (0, 0));
}

backend_tests!(both_paths_agree);
