//! The `analytics_a` connection as a [`Source`](crate::Source), through the API kinds' shared
//! [`ApiSource`]: `test` reads a one-day report of the property, `sync` its sessions, landing
//! pages and mapped events, `disconnect` revokes the grant's refresh token (a service account
//! has nothing to revoke).

use serde_json::json;

use crate::api_source::{ApiConfig, ApiSource};
use crate::batch::{DayRange, StageDaysRead};
use crate::source::Revocation;
use crate::{ConnectorError, SyncOutput, SyncWindow};

use super::report::{self, Question};
use super::{AnalyticsAConfig, mapping};

/// One GA4 property, ready to read for one product.
pub type AnalyticsASource = ApiSource<AnalyticsAConfig>;

impl AnalyticsASource {
    /// Sessions and events are counts, not money: no product currency.
    pub fn new(http: reqwest::Client, config: AnalyticsAConfig) -> Self {
        Self::open(http, config, "")
    }
}

/// Sessions and engaged sessions per day and source/medium.
const SESSIONS: Question<'static> = Question {
    dimensions: &["date", "sessionSource", "sessionMedium"],
    metrics: &["sessions", "engagedSessions"],
    dimension_filter: None,
};

/// Sessions per day and landing page.
const LANDING: Question<'static> = Question {
    dimensions: &["date", "landingPage"],
    metrics: &["sessions"],
    dimension_filter: None,
};

/// `day` (a date or one of GA4's relative words) as a one-day range.
fn one_day(day: String) -> DayRange {
    DayRange {
        first: day.clone(),
        last: day,
    }
}

impl AnalyticsAConfig {
    /// A one-day report of the property's sessions (`yesterday`, a date GA4 reads in the
    /// property's own time zone): the live read `test` and the service account's verify make.
    /// Answers the day's sessions.
    pub async fn read_yesterday(&self, http: &reqwest::Client) -> Result<i64, ConnectorError> {
        let client = self.data(http).await?;
        let question = Question {
            dimensions: &[],
            metrics: &["sessions"],
            dimension_filter: None,
        };
        let rows = report::read(
            &client,
            &self.property_id,
            &one_day("yesterday".to_owned()),
            &question,
            self.row_limit,
        )
        .await?;
        Ok(rows
            .iter()
            .flat_map(|row| row.metrics.first())
            .map(|sessions| sessions.round() as i64)
            .sum())
    }
}

impl ApiConfig for AnalyticsAConfig {
    /// Reads yesterday's sessions of the property (one cheap report) and answers a line such as
    /// `Google Analytics property 123456 answers (41 sessions yesterday)`. A property the login
    /// lost fails here with Google's message.
    async fn test(source: &AnalyticsASource) -> Result<String, ConnectorError> {
        let (http, config) = (&source.http, &source.config);
        let sessions = config.read_yesterday(http).await?;
        Ok(format!(
            "Google Analytics property {} answers ({sessions} sessions yesterday)",
            config.property_id
        ))
    }

    /// Reads the window's UTC days (GA4's days are the property's time zone; each is stored as
    /// the day Google names): every day's `visit`/`engaged` volumes per channel, the mapped
    /// events' stage volumes and the landing pages' sessions, all replacing what earlier reads
    /// stored for those days.
    async fn read(
        source: &AnalyticsASource,
        window: SyncWindow,
    ) -> Result<SyncOutput, ConnectorError> {
        let (http, config) = (&source.http, &source.config);
        let days = DayRange::of_window(window);
        let client = config.data(http).await?;
        let property = &config.property_id;
        let limit = config.row_limit;
        let session_rows = report::read(&client, property, &days, &SESSIONS, limit).await?;
        let mut rows = mapping::sessions(&session_rows)?;
        let sessions: i64 = rows
            .iter()
            .filter(|row| row.stage == payback_domain::Stage::Visit)
            .map(|row| row.volume)
            .sum();
        if !config.event_maps.is_empty() {
            let names: Vec<&str> = config
                .event_maps
                .iter()
                .map(|map| map.event_name.as_str())
                .collect();
            let question = Question {
                dimensions: &["date", "eventName"],
                metrics: &["eventCount"],
                dimension_filter: Some(json!({
                    "filter": {
                        "fieldName": "eventName",
                        "inListFilter": { "values": names, "caseSensitive": true },
                    }
                })),
            };
            let event_rows = report::read(&client, property, &days, &question, limit).await?;
            rows.extend(mapping::mapped_events(&event_rows, &config.event_maps)?);
        }
        let landing_rows = report::read(&client, property, &days, &LANDING, limit).await?;
        let snapshots = mapping::landing_sessions(&landing_rows)?;
        let detail = format!(
            "Google Analytics property {property}: {}..{}, {sessions} sessions, {} landing \
             page values",
            days.first,
            days.last,
            snapshots.len()
        );
        tracing::info!(detail = %detail, "analytics sync read");
        Ok(SyncOutput {
            stage_days: Some(StageDaysRead { days, rows }),
            snapshots,
            detail,
            ..SyncOutput::default()
        })
    }

    /// Revokes a grant's refresh token, which ends the whole grant at Google (every kind it
    /// served).
    async fn disconnect(source: &AnalyticsASource) -> Result<Revocation, ConnectorError> {
        source.config.auth.revoke(&source.http).await
    }
}
