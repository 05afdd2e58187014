//! The `search_console` connection as a [`Source`](crate::Source), through the API kinds'
//! shared [`ApiSource`]: `test` reads the site, `sync` its search analytics, `disconnect`
//! revokes the grant's refresh token (a service account has nothing to revoke).

use crate::api_source::{ApiConfig, ApiSource};
use crate::batch::DayRange;
use crate::source::Revocation;
use crate::{ConnectorError, SyncOutput, SyncWindow};

use super::{SearchConsoleConfig, analytics, mapping, sites};

/// One Search Console site, ready to read for one product.
pub type SearchConsoleSource = ApiSource<SearchConsoleConfig>;

impl SearchConsoleSource {
    /// Clicks and impressions are counts, not money: no product currency.
    pub fn new(http: reqwest::Client, config: SearchConsoleConfig) -> Self {
        Self::open(http, config, "")
    }
}

impl ApiConfig for SearchConsoleConfig {
    /// Reads the site (`sites.get`, one cheap call) and answers a line such as `Search Console site
    /// https://shop.example/ answers (siteOwner)`. A site the login lost fails here with Google's
    /// message.
    async fn test(source: &SearchConsoleSource) -> Result<String, ConnectorError> {
        let (http, config) = (&source.http, &source.config);
        let client = config.client(http).await?;
        let site = client.site(&config.site_url).await?;
        if site.permission_level == sites::UNVERIFIED {
            return Err(ConnectorError::Unauthorized(format!(
                "Search Console lists {} as unverified for the Google login that granted access, \
                 which may read none of its data: verify the site, or reconnect with a login that \
                 owns it",
                config.site_url
            )));
        }
        Ok(format!(
            "Search Console site {} answers ({})",
            site.site_url, site.permission_level
        ))
    }

    /// Reads the site's clicks and impressions per day and query over the UTC days of `window`
    /// (Search Console's days are Pacific time; each is stored as the day Google names).
    ///
    /// A few thousand rows a day at most: they come back in the batch.
    async fn read(
        source: &SearchConsoleSource,
        window: SyncWindow,
    ) -> Result<SyncOutput, ConnectorError> {
        let (http, config) = (&source.http, &source.config);
        let days = DayRange::of_window(window);
        let client = config.client(http).await?;
        let rows = analytics::read(&client, &config.site_url, &days, config.row_limit).await?;
        let snapshots = mapping::snapshots(&rows).map_err(ConnectorError::Vendor)?;
        let clicks: f64 = rows.iter().map(|row| row.clicks).sum();
        let impressions: f64 = rows.iter().map(|row| row.impressions).sum();
        let detail = format!(
            "Search Console site {}: {}..{}, {} rows of day and query, {clicks} clicks, \
             {impressions} impressions",
            config.site_url,
            days.first,
            days.last,
            rows.len()
        );
        tracing::info!(detail = %detail, "search console sync read");
        Ok(SyncOutput {
            snapshots,
            detail,
            ..SyncOutput::default()
        })
    }

    /// Revokes a grant's refresh token, which ends the whole grant at Google (every kind it
    /// served).
    async fn disconnect(source: &SearchConsoleSource) -> Result<Revocation, ConnectorError> {
        source.config.auth.revoke(&source.http).await
    }
}
