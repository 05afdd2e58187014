//! The source against the in-test Graph fake ([`crate::graph::test_fake`]): the page-token
//! exchange, the calls a sync makes, and the snapshots it makes of Meta's documented answers.

use std::time::Duration;

use payback_domain::{DAY_MS, Timestamp};

use super::{RetryPolicy, SocialAConfig, SocialASource};
use crate::graph::test_fake::{FakeGraph, NoPages};
use crate::source::{Revocation, Source};
use crate::{ConnectorError, SyncWindow};

const PAGE: &str = r#"{"id": "101", "name": "Shop", "followers_count": 1234,
    "instagram_business_account": {"id": "178414", "username": "shop", "followers_count": 567}}"#;

async fn source(answers: &[(&str, &str)]) -> (FakeGraph, SocialASource) {
    let fake = FakeGraph::start(answers).await;
    let mut config = SocialAConfig::new("EAAB-user-token".into(), "101".into());
    config.graph_base_url = fake.base_url.clone();
    config.retry = RetryPolicy {
        retries: 0,
        base_delay: Duration::from_millis(1),
    };
    (fake, SocialASource::new(reqwest::Client::new(), config))
}

/// 2026-11-21T12:00:00Z.
fn now() -> Timestamp {
    Timestamp::from_millis(1_795_262_400_000)
}

#[tokio::test]
async fn a_user_token_is_exchanged_for_the_pages_and_a_week_is_read() {
    let (fake, source) = source(&[
        ("GET me", r#"{"id": "9001", "name": "Owner"}"#),
        ("GET 101", r#"{"access_token": "EAAB-page-token", "id": "101"}"#),
        ("GET 101", PAGE),
        (
            "GET 101/insights",
            r#"{"data": [
                {"name": "page_media_view", "period": "day",
                 "values": [{"value": 100, "end_time": "2026-11-21T08:00:00+0000"},
                            {"value": 50, "end_time": "2026-11-22T08:00:00+0000"}]},
                {"name": "page_post_engagements", "period": "day",
                 "values": [{"value": 7, "end_time": "2026-11-21T08:00:00+0000"}]}
            ]}"#,
        ),
        (
            "GET 101/posts",
            r#"{"data": [{"id": "101_555", "created_time": "2026-11-20T10:00:00+0000",
                "shares": {"count": 3}, "reactions": {"summary": {"total_count": 10}},
                "comments": {"summary": {"total_count": 2}}}]}"#,
        ),
        (
            "GET 178414/insights",
            r#"{"data": [{"name": "views", "period": "day", "total_value": {"value": 400}},
                         {"name": "total_interactions", "period": "day", "total_value": {"value": 30}}]}"#,
        ),
        (
            "GET 178414/media",
            r#"{"data": [{"id": "179001", "timestamp": "2026-11-19T08:30:00+0000", "like_count": 40, "comments_count": 5}]}"#,
        ),
    ])
    .await;
    let window = SyncWindow {
        from: now().minus_millis(7 * DAY_MS),
        to: now(),
    };
    let output = source.sync(window, &mut NoPages).await.unwrap();
    let value = |day: &str, metric: &str, dimension: &str| {
        output
            .snapshots
            .iter()
            .find(|s| s.day == day && s.metric == metric && s.dimension == dimension)
            .map(|s| s.value)
    };
    assert_eq!(value("2026-11-20", "social_impressions", ""), Some(500.0));
    assert_eq!(
        value("2026-11-20", "social_impressions", "facebook"),
        Some(100.0)
    );
    assert_eq!(value("2026-11-20", "social_engagement", ""), Some(37.0));
    assert_eq!(value("2026-11-21", "social_impressions", ""), Some(450.0));
    assert_eq!(
        value("2026-11-14", "social_impressions", "instagram"),
        Some(400.0)
    );
    assert_eq!(value("2026-11-21", "social_followers", ""), Some(1_801.0));
    assert_eq!(
        value("2026-11-20", "social_engagement", "101_555"),
        Some(15.0)
    );
    assert_eq!(
        value("2026-11-19", "social_engagement", "179001"),
        Some(45.0)
    );
    assert!(
        output.detail.contains("2 days of page insights"),
        "{}",
        output.detail
    );
    assert!(
        output.detail.contains("8 days of Instagram @shop insights"),
        "{}",
        output.detail
    );

    let seen = fake.seen();
    assert_eq!(seen[0].auth, "Bearer EAAB-user-token");
    assert_eq!(seen[1].params["fields"], "access_token");
    // Everything after the exchange goes with the page's token.
    assert!(seen[2..].iter().all(|s| s.auth == "Bearer EAAB-page-token"));
    let page_insights = seen.iter().find(|s| s.path == "101/insights").unwrap();
    assert_eq!(
        page_insights.params["metric"],
        "page_media_view,page_post_engagements"
    );
    assert_eq!(page_insights.params["period"], "day");
    assert_eq!(page_insights.params["since"], "2026-11-14");
    assert_eq!(page_insights.params["until"], "2026-11-22");
    let instagram: Vec<_> = seen
        .iter()
        .filter(|s| s.path == "178414/insights")
        .collect();
    assert_eq!(instagram.len(), 8);
    assert_eq!(instagram[0].params["metric"], "views,total_interactions");
    assert_eq!(instagram[0].params["metric_type"], "total_value");
    // 2026-11-14T00:00:00Z and the next midnight.
    assert_eq!(instagram[0].params["since"], "1794614400");
    assert_eq!(instagram[0].params["until"], "1794700800");
}

#[tokio::test]
async fn a_page_token_is_used_as_it_is() {
    let (fake, source) = source(&[
        ("GET me", r#"{"id": "101", "name": "Shop"}"#),
        ("GET 101", PAGE),
        ("GET 101/insights", r#"{"data": []}"#),
    ])
    .await;
    let line = source.test().await.unwrap();
    assert_eq!(
        line,
        "Facebook page 101 \"Shop\" answers (1234 followers; Instagram @shop linked)"
    );
    assert_eq!(fake.calls(), ["GET me", "GET 101", "GET 101/insights"]);
    assert!(
        fake.seen()
            .iter()
            .all(|s| s.auth == "Bearer EAAB-user-token")
    );
}

#[tokio::test]
async fn a_login_without_a_task_on_the_page_is_told_so() {
    let (_fake, source) = source(&[
        ("GET me", r#"{"id": "9001"}"#),
        ("GET 101", r#"{"id": "101"}"#),
    ])
    .await;
    match source.test().await.unwrap_err() {
        ConnectorError::Unauthorized(line) => {
            assert!(
                line.contains("no page token for Facebook page 101"),
                "{line}"
            )
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn disconnect_ends_only_the_grants_token() {
    let (fake, source) = source(&[("DELETE me/permissions", r#"{"success": true}"#)]).await;
    assert_eq!(source.disconnect().await.unwrap(), Revocation::Revoked);
    let mut config = source.config.clone();
    config.revoke_on_disconnect = false;
    let pasted = SocialASource::new(reqwest::Client::new(), config);
    assert_eq!(
        pasted.disconnect().await.unwrap(),
        Revocation::NothingToRevoke
    );
    assert_eq!(fake.calls(), ["DELETE me/permissions"]);
}
