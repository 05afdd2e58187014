//! Connections rated by freshness, as `GET /health` rates them: payments fresh, a database
//! failing, an ad network stale, a social page fresh, the URL suffix Payback wrote; and staged,
//! disabled or unusable connections.

use payback_testkit::Bind;

use super::*;

const MINUTE_MS: i64 = 60_000;

/// A connection of `kind` whose last successful sync was `age_ms` ago (`None`: never).
async fn connect(
    app: &TestApp,
    owner: &Founder,
    product_id: &str,
    kind: ConnectionKind,
    config: Value,
    age_ms: Option<i64>,
) -> String {
    let id = app
        .insert_connection(&owner.session.account_id, product_id, kind, &config, true)
        .await;
    if let Some(age) = age_ms {
        let at = app.clock.now().millis() - age;
        app.sql_execute(
            "UPDATE connections SET last_sync_at = $1 WHERE id = $2",
            &[Bind::Int(at), Bind::Text(&id)],
        )
        .await;
    }
    id
}

async fn connections_are_rated_by_their_freshness(app: TestApp) {
    let owner = founder(&app, "founder@example.com").await;
    let wired = product(&app, &owner, "wired").await;
    connect(
        &app,
        &owner,
        &wired,
        ConnectionKind::Payments,
        json!({}),
        Some(10 * MINUTE_MS),
    )
    .await;
    let database = connect(
        &app,
        &owner,
        &wired,
        ConnectionKind::SqlA,
        json!({}),
        Some(5 * 60 * MINUTE_MS),
    )
    .await;
    app.sql_execute(
        "UPDATE connections SET consecutive_failures = 3, last_error = $1 WHERE id = $2",
        &[
            Bind::Text("password authentication failed for user \"reader\""),
            Bind::Text(&database),
        ],
    )
    .await;
    connect(
        &app,
        &owner,
        &wired,
        ConnectionKind::SocialAdsA,
        json!({"ad_account_id": "act_1"}),
        Some(3 * 24 * 60 * MINUTE_MS),
    )
    .await;
    connect(
        &app,
        &owner,
        &wired,
        ConnectionKind::SearchAds,
        json!({"customer_id": "1234567890", "url_suffix_deployed_at": "2026-11-20T10:00:00Z"}),
        Some(20 * MINUTE_MS),
    )
    .await;
    connect(
        &app,
        &owner,
        &wired,
        ConnectionKind::SocialA,
        json!({"page_id": "5001"}),
        Some(2 * 60 * MINUTE_MS),
    )
    .await;

    let report = report(&app, &owner.key, "wired").await;
    let changed = [
        ("tracking.payments", "pass"),
        ("tracking.sources", "fail"),
        ("advertising.ad_spend", "warn"),
        ("advertising.url_suffix", "pass"),
        ("seo_social.social_pages", "pass"),
    ];
    assert_eq!(statuses(&report), expect(&nothing_yet(&app), &changed));
    assert!(report["score"].is_i64(), "synced connections are data");
    assert_eq!(
        evidence(&report, "tracking.payments"),
        "payments fresh, last sync 10 min ago"
    );
    assert_eq!(
        evidence(&report, "tracking.sources"),
        "sql_a failing, last sync 5 h ago, 3 failed run(s) in a row: password authentication failed for user \"reader\""
    );
    let fix = check(&report, "tracking.sources")["action"]
        .as_str()
        .unwrap();
    assert!(
        fix.contains("POST /products/wired/connections/sql-a/test"),
        "{fix}"
    );
    let ads = evidence(&report, "advertising.ad_spend");
    assert!(
        ads.contains("social_ads_a stale, last sync 3 d ago"),
        "{ads}"
    );
    assert!(
        ads.contains("search_ads fresh, last sync 20 min ago"),
        "{ads}"
    );
    assert!(
        check(&report, "advertising.ad_spend")["action"]
            .as_str()
            .unwrap()
            .contains("POST /products/wired/connections/social-ads-a/sync")
    );
    assert_eq!(
        evidence(&report, "advertising.url_suffix"),
        "Payback wrote the complete suffix on 2026-11-20T10:00:00Z"
    );
    assert_eq!(
        evidence(&report, "seo_social.social_pages"),
        "social_a fresh, last sync 2 h ago"
    );
}

async fn staged_disabled_and_unusable_connections(app: TestApp) {
    let owner = founder(&app, "founder@example.com").await;
    let staged = product(&app, &owner, "staged").await;
    let database = connect(&app, &owner, &staged, ConnectionKind::SqlB, json!({}), None).await;
    app.sql_execute(
        "UPDATE connections SET status = 'pending' WHERE id = $1",
        &[Bind::Text(&database)],
    )
    .await;
    let page = connect(
        &app,
        &owner,
        &staged,
        ConnectionKind::SocialA,
        json!({}),
        Some(MINUTE_MS),
    )
    .await;
    app.sql_execute(
        "UPDATE connections SET status = 'disabled' WHERE id = $1",
        &[Bind::Text(&page)],
    )
    .await;
    // Google Ads without a credential: nothing can read its suffix.
    app.insert_connection(
        &owner.session.account_id,
        &staged,
        ConnectionKind::SearchAds,
        &json!({"customer_id": "1"}),
        false,
    )
    .await;

    let report = report(&app, &owner.key, "staged").await;
    let changed = [
        ("tracking.sources", "warn"),
        ("advertising.ad_spend", "warn"),
        ("advertising.url_suffix", "skip"),
        ("seo_social.social_pages", "fail"),
    ];
    assert_eq!(statuses(&report), expect(&nothing_yet(&app), &changed));
    assert_eq!(
        evidence(&report, "tracking.sources"),
        "sql_b never, never synced"
    );
    assert!(
        check(&report, "tracking.sources")["action"]
            .as_str()
            .unwrap()
            .contains("staged (pending)")
    );
    assert_eq!(
        evidence(&report, "advertising.ad_spend"),
        "search_ads never, never synced"
    );
    assert!(
        check(&report, "advertising.ad_spend")["action"]
            .as_str()
            .unwrap()
            .contains("runs on its own schedule"),
        "search_ads does not sync on demand"
    );
    assert_eq!(
        evidence(&report, "advertising.url_suffix"),
        "The Google Ads connection is not usable yet (status active)"
    );
    assert_eq!(
        evidence(&report, "seo_social.social_pages"),
        "social_a disabled, last sync 1 min ago"
    );
    // The disabled page synced once: that is data, so there is a score.
    assert!(report["score"].is_i64());
}

backend_tests!(
    connections_are_rated_by_their_freshness,
    staged_disabled_and_unusable_connections
);
