//! The `seo_b` connection as a [`Source`](crate::Source), through the API kinds' shared
//! [`ApiSource`]: `test` reads the domain's rating, a run reads rating, backlinks and top
//! keywords; nothing is ever written to Ahrefs.

use payback_domain::{Clock, SystemClock};

use super::mapping::{self, Authority};
use super::{KEYWORD_COUNTRY, SeoBConfig, reads};
use crate::api_source::{ApiConfig, ApiSource};
use crate::{ConnectorError, SyncOutput, SyncWindow};

/// One domain in Ahrefs, ready to read.
///
/// Disconnecting revokes nothing: the key was created by the customer in Ahrefs and stays
/// theirs to delete; Payback forgets it when the connection is deleted.
pub type SeoBSource = ApiSource<SeoBConfig>;

impl SeoBSource {
    /// Snapshots are scores and counts, not money: no product currency.
    pub fn new(http: reqwest::Client, config: SeoBConfig) -> Self {
        Self::open(http, config, "")
    }
}

impl ApiConfig for SeoBConfig {
    /// One `domain-rating` read of today (the cheapest request, one row at the base cost);
    /// answers a line such as `Ahrefs key reads shop.example: Domain Rating 47`.
    async fn test(source: &SeoBSource) -> Result<String, ConnectorError> {
        let (http, config) = (&source.http, &source.config);
        let client = config.client(http)?;
        let today = SystemClock.now().day();
        let rating = reads::domain_rating(&client, &config.domain, &today).await?;
        Ok(format!(
            "Ahrefs key reads {}: Domain Rating {rating}",
            config.domain
        ))
    }

    /// Three requests, whatever the window: Ahrefs reports a domain as it stands on a date, so
    /// a run reads the run day (the window's end) and its snapshots are dated that day.
    async fn read(source: &SeoBSource, window: SyncWindow) -> Result<SyncOutput, ConnectorError> {
        let (http, config) = (&source.http, &source.config);
        let client = config.client(http)?;
        let day = window.to.day();
        let domain = config.domain.as_str();
        let read = Authority {
            domain_rating: reads::domain_rating(&client, domain, &day).await?,
            backlinks: reads::backlinks_stats(&client, domain, &day).await?,
            keywords: reads::top_keywords(&client, domain, &day).await?,
        };
        let (snapshots, keywords) = mapping::snapshots(&day, &read);
        let detail = format!(
            "Ahrefs {domain} on {day}: Domain Rating {}, {} live backlinks from {} referring \
             domains, {keywords} top organic keywords ({})",
            read.domain_rating,
            read.backlinks.live,
            read.backlinks.live_refdomains,
            KEYWORD_COUNTRY.to_ascii_uppercase()
        );
        tracing::info!(detail = %detail, "ahrefs sync read");
        Ok(SyncOutput {
            snapshots,
            detail,
            ..SyncOutput::default()
        })
    }
}
