//! Reading an ad account's insights at ad grain, one row per ad and day (Ads Insights API:
//! `level=ad`, `time_increment=1`, `time_range={"since","until"}`, both days inclusive, in the
//! account's time zone).
//!
//! Up to [`SYNC_DAYS`] days are read synchronously (`GET /act_{id}/insights`, paged by cursor).
//! Longer ranges, and any range Meta refuses as too much data for one call (error 100, subcode
//! 1487534), go through an asynchronous report as Meta's "Limits and Best Practices" recommend:
//! `POST /act_{id}/insights` with the same parameters answers `{report_run_id}`; `GET
//! /{report_run_id}` is polled until `async_status` is `Job Completed` with
//! `async_percent_completion` 100 (`Job Failed` and `Job Skipped` end the run); then `GET
//! /{report_run_id}/insights` is read page by page.

use std::time::Duration;

use serde::Deserialize;

use crate::ConnectorError;
use crate::batch::DayRange;
use crate::graph::client::GraphClient;
use crate::graph::errors::FailureKind;
use crate::graph::wire;

/// A range of more days than this is read as an async report: a month of ad-level daily rows
/// is what a sync call comfortably answers; beyond it Meta's data-per-call limits start to
/// bite, and an hourly run only ever reads the last few days anyway.
pub(crate) const SYNC_DAYS: i64 = 31;

/// Rows per page (Meta caps pages itself; 500 keeps calls few without large bodies).
const PAGE_SIZE: &str = "500";

/// The fields each row carries.
pub(crate) const FIELDS: &str = "campaign_id,campaign_name,adset_id,adset_name,ad_id,ad_name,\
                                 spend,impressions,clicks,date_start,account_currency";

/// How long an async report may take before the run gives up (the next run asks again).
const REPORT_PATIENCE: Duration = Duration::from_secs(10 * 60);

/// The longest pause between two polls.
const LONGEST_POLL: Duration = Duration::from_secs(10);

/// One insights row, as Meta writes it (numbers as strings).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub(crate) struct InsightRow {
    #[serde(deserialize_with = "wire::id")]
    pub campaign_id: Option<String>,
    pub campaign_name: Option<String>,
    #[serde(deserialize_with = "wire::id")]
    pub adset_id: Option<String>,
    pub adset_name: Option<String>,
    #[serde(deserialize_with = "wire::id")]
    pub ad_id: Option<String>,
    pub ad_name: Option<String>,
    #[serde(deserialize_with = "decimal_text")]
    pub spend: Option<String>,
    #[serde(deserialize_with = "wire::int")]
    pub impressions: Option<i64>,
    #[serde(deserialize_with = "wire::int")]
    pub clicks: Option<i64>,
    pub date_start: Option<String>,
    pub account_currency: Option<String>,
}

/// What a read came to.
#[derive(Debug, Default)]
pub(crate) struct Read {
    pub rows: Vec<InsightRow>,
    /// Whether it went through an async report.
    pub via_report: bool,
}

/// The parameters of one read of `days` (without paging).
pub(crate) fn params(days: &DayRange) -> Vec<(&'static str, String)> {
    let time_range = serde_json::json!({ "since": days.first, "until": days.last });
    vec![
        ("level", "ad".to_owned()),
        ("time_increment", "1".to_owned()),
        ("time_range", time_range.to_string()),
        ("fields", FIELDS.to_owned()),
    ]
}

/// The number of days in `days` (inclusive), 0 for a range that is not one.
pub(crate) fn day_count(days: &DayRange) -> i64 {
    use payback_domain::{DAY_MS, Timestamp};
    match (
        Timestamp::parse_day(&days.first),
        Timestamp::parse_day(&days.last),
    ) {
        (Some(first), Some(last)) if last >= first => (last.millis() - first.millis()) / DAY_MS + 1,
        _ => 0,
    }
}

/// Reads every ad row of `days` for account `account_id` (digits).
pub(crate) async fn read(
    client: &GraphClient,
    account_id: &str,
    days: &DayRange,
) -> Result<Read, ConnectorError> {
    if day_count(days) > SYNC_DAYS {
        return read_report(client, account_id, days).await;
    }
    let mut query = params(days);
    query.push(("limit", PAGE_SIZE.to_owned()));
    match client
        .get_all::<InsightRow>(&format!("act_{account_id}/insights"), &query)
        .await
    {
        Ok(rows) => Ok(Read {
            rows,
            via_report: false,
        }),
        Err(err) if err.kind == Some(FailureKind::TooMuchData) => {
            tracing::info!(
                account_id,
                "meta insights too large for one call; running a report"
            );
            read_report(client, account_id, days).await
        }
        Err(err) => Err(err.into()),
    }
}

/// `{"report_run_id": "6023920149050"}` (a string or a number).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct ReportRun {
    #[serde(deserialize_with = "wire::id")]
    pub report_run_id: Option<String>,
}

/// `GET /{report_run_id}`: `{"id", "async_status", "async_percent_completion", ...}`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct ReportStatus {
    pub async_status: Option<String>,
    #[serde(deserialize_with = "wire::int")]
    pub async_percent_completion: Option<i64>,
}

/// Where an async report stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum JobState {
    Running {
        percent: i64,
    },
    Completed,
    /// `Job Failed` or `Job Skipped`: Meta will not finish it.
    Ended(String),
}

impl ReportStatus {
    pub(crate) fn state(&self) -> JobState {
        let status = self.async_status.as_deref().unwrap_or_default().trim();
        let percent = self.async_percent_completion.unwrap_or(0);
        match status {
            // Meta documents both conditions; a completed job still below 100 is polled again.
            "Job Completed" if percent >= 100 => JobState::Completed,
            "Job Failed" | "Job Skipped" => JobState::Ended(status.to_owned()),
            _ => JobState::Running { percent },
        }
    }
}

async fn read_report(
    client: &GraphClient,
    account_id: &str,
    days: &DayRange,
) -> Result<Read, ConnectorError> {
    let run: ReportRun = client
        .post(&format!("act_{account_id}/insights"), &params(days))
        .await?;
    let run_id = run
        .report_run_id
        .filter(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| {
            ConnectorError::Vendor("POST act_/insights answered no report_run_id".to_owned())
        })?;
    tracing::info!(
        account_id,
        run_id,
        days = day_count(days),
        "meta insights report started"
    );
    let mut waited = Duration::ZERO;
    let mut pause = Duration::from_secs(1);
    loop {
        let status: ReportStatus = client
            .get(
                &run_id,
                &[(
                    "fields",
                    "id,async_status,async_percent_completion".to_owned(),
                )],
            )
            .await?;
        match status.state() {
            JobState::Completed => break,
            JobState::Ended(word) => {
                return Err(ConnectorError::Vendor(format!(
                    "Meta's insights report {run_id} for ad account {account_id} ended with \
                     \"{word}\"; the next run asks again"
                )));
            }
            JobState::Running { percent } => {
                if waited >= REPORT_PATIENCE {
                    return Err(ConnectorError::Unreachable(format!(
                        "Meta's insights report {run_id} for ad account {account_id} was still \
                         at {percent}% after {} minutes; the next run asks again",
                        REPORT_PATIENCE.as_secs() / 60
                    )));
                }
                tokio::time::sleep(pause).await;
                waited += pause;
                pause = (pause * 2).min(LONGEST_POLL);
            }
        }
    }
    let rows = client
        .get_all::<InsightRow>(
            &format!("{run_id}/insights"),
            &[("limit", PAGE_SIZE.to_owned())],
        )
        .await?;
    Ok(Read {
        rows,
        via_report: true,
    })
}

/// A decimal that Meta writes as a string (or, leniently, a number), kept as its text so that
/// no float ever touches money.
fn decimal_text<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<String>, D::Error> {
    match Option::<serde_json::Value>::deserialize(deserializer)? {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(serde_json::Value::String(text)) => Ok(Some(text)),
        // serde_json keeps a number's text as written only for integers; a fractional number
        // is refused rather than read through a float.
        Some(serde_json::Value::Number(n)) if n.is_i64() || n.is_u64() => Ok(Some(n.to_string())),
        Some(other) => Err(serde::de::Error::custom(format!(
            "spend must be a decimal string, not {other}"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::wire::Paged;

    fn days(first: &str, last: &str) -> DayRange {
        DayRange {
            first: first.into(),
            last: last.into(),
        }
    }

    #[test]
    fn the_parameters_ask_for_daily_ad_rows() {
        let query = params(&days("2026-11-14", "2026-11-21"));
        let get = |name: &str| {
            query
                .iter()
                .find(|(key, _)| *key == name)
                .map(|(_, value)| value.clone())
                .unwrap()
        };
        assert_eq!(get("level"), "ad");
        assert_eq!(get("time_increment"), "1");
        assert_eq!(
            get("time_range"),
            r#"{"since":"2026-11-14","until":"2026-11-21"}"#
        );
        assert_eq!(
            get("fields"),
            "campaign_id,campaign_name,adset_id,adset_name,ad_id,ad_name,spend,impressions,\
             clicks,date_start,account_currency"
        );
    }

    #[test]
    fn long_ranges_count_their_days() {
        assert_eq!(day_count(&days("2026-11-14", "2026-11-21")), 8);
        assert_eq!(day_count(&days("2026-11-21", "2026-11-21")), 1);
        assert_eq!(day_count(&days("2026-10-01", "2026-10-31")), 31);
        assert_eq!(day_count(&days("2026-10-01", "2026-11-01")), 32);
        assert_eq!(day_count(&days("2026-11-22", "2026-11-21")), 0);
        assert_eq!(day_count(&days("nope", "2026-11-21")), 0);
    }

    #[test]
    fn a_documented_insights_page_reads_strings_as_numbers() {
        let page: Paged<InsightRow> = serde_json::from_str(
            r#"{
              "data": [{
                "campaign_id": "23850000000000001", "campaign_name": "Brand - US",
                "adset_id": "23850000000000002", "adset_name": "Lookalike",
                "ad_id": "23850000000000003", "ad_name": "Video A",
                "spend": "5339.5", "impressions": "361324", "clicks": "1234",
                "date_start": "2026-11-20", "date_stop": "2026-11-20", "account_currency": "USD"
              }],
              "paging": {"cursors": {"before": "MAZDZD", "after": "MAZDZD"}}
            }"#,
        )
        .unwrap();
        let row = &page.data[0];
        assert_eq!(row.campaign_id.as_deref(), Some("23850000000000001"));
        assert_eq!(row.spend.as_deref(), Some("5339.5"));
        assert_eq!((row.impressions, row.clicks), (Some(361_324), Some(1_234)));
        assert_eq!(row.date_start.as_deref(), Some("2026-11-20"));
        assert_eq!(page.after(), None);
        let integral: InsightRow = serde_json::from_str(r#"{"spend": 12}"#).unwrap();
        assert_eq!(integral.spend.as_deref(), Some("12"));
        assert!(serde_json::from_str::<InsightRow>(r#"{"spend": 12.5}"#).is_err());
    }

    #[test]
    fn report_status_follows_the_documented_words() {
        let state = |json: &str| serde_json::from_str::<ReportStatus>(json).unwrap().state();
        assert_eq!(
            state(
                r#"{"id": "6044775548468", "account_id": "1010035716096012", "time_ref": 1459788928,
                    "time_completed": 1459788990, "async_status": "Job Completed",
                    "async_percent_completion": 100, "date_start": "2016-03-05", "date_stop": "2016-04-03"}"#
            ),
            JobState::Completed
        );
        assert_eq!(
            state(r#"{"async_status": "Job Running", "async_percent_completion": 42}"#),
            JobState::Running { percent: 42 }
        );
        assert_eq!(
            state(r#"{"async_status": "Job Not Started", "async_percent_completion": 0}"#),
            JobState::Running { percent: 0 }
        );
        assert_eq!(
            state(r#"{"async_status": "Job Completed", "async_percent_completion": 99}"#),
            JobState::Running { percent: 99 }
        );
        assert_eq!(
            state(r#"{"async_status": "Job Failed", "async_percent_completion": 13}"#),
            JobState::Ended("Job Failed".into())
        );
        assert_eq!(
            state(r#"{"async_status": "Job Skipped"}"#),
            JobState::Ended("Job Skipped".into())
        );
        let run: ReportRun = serde_json::from_str(r#"{"report_run_id": 6023920149050}"#).unwrap();
        assert_eq!(run.report_run_id.as_deref(), Some("6023920149050"));
    }
}
