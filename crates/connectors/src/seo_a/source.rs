//! The `seo_a` connection as a [`Source`](crate::Source), through the API kinds' shared
//! [`ApiSource`]: `test` answers without calling Semrush (every call spends the customer's
//! units), `read` reads the domain's overview and its top organic keywords, dated the run day.
//! Nothing is ever written to Semrush.

use payback_domain::snapshot_metric::KEYWORD_POSITION;

use crate::api_source::{ApiConfig, ApiSource};
use crate::batch::DayRange;
use crate::{ConnectorError, SyncOutput, SyncWindow};

use super::{SeoAConfig, mapping, wire};

/// One domain in one Semrush database, ready to read.
///
/// Disconnecting revokes nothing: the key belongs to the customer's Semrush subscription and
/// stays theirs; Payback forgets it when the connection is deleted.
pub type SeoASource = ApiSource<SeoAConfig>;

impl SeoASource {
    /// Snapshots are ranks and counts, not money: no product currency.
    pub fn new(http: reqwest::Client, config: SeoAConfig) -> Self {
        Self::open(http, config, "")
    }
}

impl ApiConfig for SeoAConfig {
    /// No request: a Semrush call spends units, so the key is proven by the weekly run instead.
    /// Only what can be known offline is checked (a key is there at all).
    async fn test(source: &SeoASource) -> Result<String, ConnectorError> {
        let config = &source.config;
        config.client(&source.http)?;
        Ok(format!(
            "Semrush is not called to test: every request spends API units. The weekly run \
             reads {} in the {} database; a refused key shows as its error.",
            config.domain, config.database
        ))
    }

    /// `domain_rank` (rank, organic keywords and traffic) and `domain_organic` (the top
    /// keywords by traffic), as snapshots of the window's last day, the day of the run.
    async fn read(source: &SeoASource, window: SyncWindow) -> Result<SyncOutput, ConnectorError> {
        let config = &source.config;
        let client = config.client(&source.http)?;
        let day = DayRange::of_window(window).last;
        let place = [
            ("domain", config.domain.as_str()),
            ("database", config.database.as_str()),
        ];

        let overview_columns =
            wire::export_columns(&[wire::RANK, wire::ORGANIC_KEYWORDS, wire::ORGANIC_TRAFFIC]);
        let mut params = place.to_vec();
        params.push(("export_columns", overview_columns.as_str()));
        let overview = client.report("domain_rank", &params).await?;
        let mut snapshots = match &overview {
            Some(table) => mapping::overview(table, &day)?,
            None => Vec::new(),
        };

        let keyword_columns = wire::export_columns(&[
            wire::KEYWORD,
            wire::POSITION,
            wire::SEARCH_VOLUME,
            wire::URL,
            wire::TRAFFIC_PERCENT,
        ]);
        let limit = config.top_keywords.to_string();
        let mut params = place.to_vec();
        params.extend([
            ("export_columns", keyword_columns.as_str()),
            ("display_sort", "tr_desc"),
            ("display_limit", limit.as_str()),
        ]);
        let organic = client.report("domain_organic", &params).await?;
        let keywords = match &organic {
            Some(table) => mapping::keywords(table, &day)?,
            None => Vec::new(),
        };
        let ranked = keywords
            .iter()
            .filter(|s| s.metric == KEYWORD_POSITION)
            .count();
        snapshots.extend(keywords);

        let detail = format!(
            "Semrush {} ({}) on {day}: {}, {ranked} organic keywords read",
            config.domain,
            config.database,
            if overview.is_some() {
                "overview read"
            } else {
                "no overview (Semrush found nothing)"
            },
        );
        tracing::info!(detail = %detail, "semrush read");
        Ok(SyncOutput {
            snapshots,
            detail,
            ..SyncOutput::default()
        })
    }
}
