//! The source against the in-test Graph fake ([`crate::graph::test_fake`]): the requests it
//! sends (paths, parameters, bearer token) and what it makes of Meta's documented answers.

use std::time::Duration;

use axum::http::{Method, StatusCode};
use payback_domain::{DAY_MS, Timestamp};

use super::{RetryPolicy, SocialAdsAConfig, SocialAdsASource};
use crate::graph::test_fake::{FakeGraph, NoPages, Seen};
use crate::source::{Revocation, Source};
use crate::{BudgetChange, BudgetOutcome, ConnectorError, SyncWindow};

struct Harness {
    fake: FakeGraph,
    source: SocialAdsASource,
}

impl Harness {
    async fn start(answers: &[(&str, &str)]) -> Self {
        let fake = FakeGraph::start(answers).await;
        let mut config =
            SocialAdsAConfig::new("EAAB-grant-token".into(), "123".into(), vec!["shop".into()]);
        config.graph_base_url = fake.base_url.clone();
        config.retry = RetryPolicy {
            retries: 1,
            base_delay: Duration::from_millis(5),
        };
        Self {
            source: SocialAdsASource::new(reqwest::Client::new(), config, "USD"),
            fake,
        }
    }

    fn seen(&self) -> Vec<Seen> {
        self.fake.seen()
    }

    fn calls(&self) -> Vec<String> {
        self.fake.calls()
    }
}

const ACCOUNT: &str = r#"{"name": "Shop", "currency": "USD", "account_status": 1,
    "timezone_name": "Europe/Berlin", "id": "act_123"}"#;

/// 2026-11-21T12:00:00Z.
fn now() -> Timestamp {
    Timestamp::from_millis(1_795_262_400_000)
}

fn window(days: i64) -> SyncWindow {
    SyncWindow {
        from: now().minus_millis(days * DAY_MS),
        to: now(),
    }
}

#[tokio::test]
async fn test_names_the_account_currency_and_time_zone() {
    let harness = Harness::start(&[("GET act_123", ACCOUNT)]).await;
    let line = harness.source.test().await.unwrap();
    assert_eq!(
        line,
        "Meta ad account 123 \"Shop\" answers (USD, days in Europe/Berlin)"
    );
    let seen = harness.seen();
    assert_eq!(
        seen[0].params["fields"],
        "name,currency,account_status,timezone_name"
    );
    assert_eq!(seen[0].auth, "Bearer EAAB-grant-token");
}

#[tokio::test]
async fn a_week_is_read_synchronously_page_by_page() {
    let harness = Harness::start(&[
        ("GET act_123", ACCOUNT),
        (
            "GET act_123/insights",
            r#"{"data": [
                {"campaign_id": "11", "campaign_name": "Shop - Brand", "adset_id": "110", "adset_name": "US",
                 "ad_id": "111", "ad_name": "Video", "spend": "12.345", "impressions": "1000", "clicks": "12",
                 "date_start": "2026-11-20", "date_stop": "2026-11-20", "account_currency": "USD"},
                {"campaign_id": "22", "campaign_name": "Blog", "adset_id": "220", "ad_id": "221",
                 "spend": "9", "impressions": "10", "clicks": "1", "date_start": "2026-11-20", "account_currency": "USD"}
              ],
              "paging": {"cursors": {"before": "a", "after": "p2"}, "next": "https://graph.facebook.com/v27.0/act_123/insights?after=p2"}}"#,
        ),
        (
            "GET act_123/insights",
            r#"{"data": [
                {"campaign_id": "11", "campaign_name": "Shop - Brand", "adset_id": "110", "ad_id": "111",
                 "spend": "0.5", "impressions": "7", "clicks": "0", "date_start": "2026-11-21", "account_currency": "USD"}
              ], "paging": {"cursors": {"before": "p2", "after": "p3"}}}"#,
        ),
    ])
    .await;
    let output = harness.source.sync(window(7), &mut NoPages).await.unwrap();
    let read = &output.spend[0];
    assert_eq!(read.ad_account, "123");
    assert_eq!(
        (read.days.first.as_str(), read.days.last.as_str()),
        ("2026-11-14", "2026-11-21")
    );
    let rows: Vec<(&str, &str, i64)> = read
        .rows
        .iter()
        .map(|row| (row.day.as_str(), row.ad_id.as_str(), row.spend_cents))
        .collect();
    assert_eq!(
        rows,
        [("2026-11-20", "111", 1_235), ("2026-11-21", "111", 50)]
    );
    assert!(read.keywords.is_empty());
    assert!(
        output
            .detail
            .contains("12.85 USD in 2 ad rows of 1 campaigns"),
        "{}",
        output.detail
    );
    assert!(
        output
            .detail
            .contains("1 rows of campaigns outside the name filter left out")
    );
    let seen = harness.seen();
    let insights: Vec<&Seen> = seen
        .iter()
        .filter(|s| s.path == "act_123/insights")
        .collect();
    assert_eq!(insights.len(), 2);
    assert_eq!(insights[0].params["level"], "ad");
    assert_eq!(insights[0].params["time_increment"], "1");
    assert_eq!(
        insights[0].params["time_range"],
        r#"{"since":"2026-11-14","until":"2026-11-21"}"#
    );
    assert_eq!(insights[0].params.get("after"), None);
    assert_eq!(insights[1].params["after"], "p2");
}

#[tokio::test]
async fn a_long_window_runs_an_async_report() {
    let harness = Harness::start(&[
        ("GET act_123", ACCOUNT),
        ("POST act_123/insights", r#"{"report_run_id": "6023920149050"}"#),
        (
            "GET 6023920149050",
            r#"{"id": "6023920149050", "async_status": "Job Running", "async_percent_completion": 40}"#,
        ),
        (
            "GET 6023920149050",
            r#"{"id": "6023920149050", "async_status": "Job Completed", "async_percent_completion": 100}"#,
        ),
        (
            "GET 6023920149050/insights",
            r#"{"data": [{"campaign_id": "11", "campaign_name": "shop", "adset_id": "110", "ad_id": "111",
                "spend": "1", "impressions": "1", "clicks": "1", "date_start": "2026-10-02", "account_currency": "USD"}]}"#,
        ),
    ])
    .await;
    let output = harness.source.sync(window(60), &mut NoPages).await.unwrap();
    assert_eq!(output.spend[0].rows.len(), 1);
    assert!(
        output.detail.contains("read as an async report"),
        "{}",
        output.detail
    );
    assert_eq!(
        harness.calls(),
        [
            "GET act_123",
            "POST act_123/insights",
            "GET 6023920149050",
            "GET 6023920149050",
            "GET 6023920149050/insights"
        ]
    );
    let post = &harness.seen()[1];
    assert_eq!(post.params["level"], "ad");
    assert_eq!(
        post.params["time_range"],
        r#"{"since":"2026-09-22","until":"2026-11-21"}"#
    );
}

#[tokio::test]
async fn a_failed_report_fails_the_run() {
    let harness = Harness::start(&[
        ("GET act_123", ACCOUNT),
        ("POST act_123/insights", r#"{"report_run_id": "77"}"#),
        (
            "GET 77",
            r#"{"id": "77", "async_status": "Job Failed", "async_percent_completion": 0}"#,
        ),
    ])
    .await;
    let err = harness
        .source
        .sync(window(60), &mut NoPages)
        .await
        .unwrap_err();
    assert!(matches!(err, ConnectorError::Vendor(line) if line.contains("Job Failed")));
}

#[tokio::test]
async fn a_campaign_budget_is_written_and_read_back() {
    let harness = Harness::start(&[
        ("GET act_123", ACCOUNT),
        (
            "GET 11",
            r#"{"id": "11", "name": "Shop - Brand", "status": "ACTIVE", "effective_status": "ACTIVE",
                "daily_budget": "5000", "account_id": "123"}"#,
        ),
        ("POST 11", r#"{"success": true}"#),
        ("GET 11", r#"{"id": "11", "daily_budget": "7500"}"#),
    ])
    .await;
    let change = BudgetChange {
        campaign_id: Some("11".into()),
        to_cents: 7_500,
        currency: "USD".into(),
    };
    let outcome = harness
        .source
        .budgets()
        .unwrap()
        .apply_budget(&change)
        .await
        .unwrap();
    assert_eq!(
        outcome,
        BudgetOutcome::Applied {
            campaign_id: "11".into(),
            before_cents: 5_000,
            after_cents: 7_500
        }
    );
    let seen = harness.seen();
    let write = seen.iter().find(|s| s.method == Method::POST).unwrap();
    assert_eq!(write.path, "11");
    assert_eq!(write.params["daily_budget"], "7500");
}

#[tokio::test]
async fn a_budget_at_the_target_writes_nothing_and_refusals_write_nothing() {
    let harness = Harness::start(&[
        ("GET act_123", ACCOUNT),
        (
            "GET 11",
            r#"{"id": "11", "name": "Brand", "status": "ACTIVE", "daily_budget": "5000", "account_id": "123"}"#,
        ),
    ])
    .await;
    let writer = harness.source.budgets().unwrap();
    let same = BudgetChange {
        campaign_id: Some("11".into()),
        to_cents: 5_000,
        currency: "USD".into(),
    };
    assert_eq!(
        writer.apply_budget(&same).await.unwrap(),
        BudgetOutcome::Applied {
            campaign_id: "11".into(),
            before_cents: 5_000,
            after_cents: 5_000
        }
    );
    let euros = BudgetChange {
        currency: "EUR".into(),
        ..same.clone()
    };
    assert!(matches!(writer.apply_budget(&euros).await.unwrap(),
        BudgetOutcome::Refused { reason } if reason.contains("counts in USD, the change is in EUR")));
    let unknown = BudgetChange {
        campaign_id: Some("999".into()),
        ..same.clone()
    };
    assert!(matches!(writer.apply_budget(&unknown).await.unwrap(),
        BudgetOutcome::Refused { reason } if reason.contains("campaign 999 is not in Meta ad account")));
    assert!(harness.seen().iter().all(|s| s.method == Method::GET));
}

#[tokio::test]
async fn an_expired_token_fails_the_change_for_good() {
    let harness = Harness::start(&[]).await;
    harness.fake.answer(
        "GET act_123",
        StatusCode::BAD_REQUEST,
        r#"{"error": {"message": "Error validating access token: The session has been invalidated.", "type": "OAuthException", "code": 190, "error_subcode": 466}}"#,
    );
    let change = BudgetChange {
        campaign_id: Some("11".into()),
        to_cents: 100,
        currency: "USD".into(),
    };
    match harness
        .source
        .budgets()
        .unwrap()
        .apply_budget(&change)
        .await
        .unwrap()
    {
        BudgetOutcome::Failed { error, transient } => {
            assert!(!transient);
            assert!(
                error.contains("revoked or has expired; reconnect"),
                "{error}"
            );
            assert!(!error.contains("EAAB-grant-token"));
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn disconnect_ends_the_grant_unless_the_token_is_the_customers() {
    let harness = Harness::start(&[("DELETE me/permissions", r#"{"success": true}"#)]).await;
    assert_eq!(
        harness.source.disconnect().await.unwrap(),
        Revocation::Revoked
    );
    assert_eq!(harness.calls(), ["DELETE me/permissions"]);

    let mut config = harness.source.config.clone();
    config.revoke_on_disconnect = false;
    let pasted = SocialAdsASource::new(reqwest::Client::new(), config, "USD");
    assert_eq!(
        pasted.disconnect().await.unwrap(),
        Revocation::NothingToRevoke
    );
    assert_eq!(harness.calls().len(), 1);
}
