//! The Search Console API (`/webmasters/v3/...`) over the shared Google client: the site
//! percent-encoded as one path segment; every call here reads.

use super::wire::{QueryRequest, QueryResponse, Site, SitesList};
use crate::ConnectorError;
use crate::google::{GoogleClient, encode_segment, google_api};

google_api!(
    /// Search Console, as messages name it.
    SearchConsole,
    "Search Console"
);

/// One authorised session with the Search Console API.
pub(crate) type ConsoleClient = GoogleClient<SearchConsole>;

impl ConsoleClient {
    /// `sites.list`: every site the login (or service account) has in Search Console (not
    /// paged).
    pub(crate) async fn sites(&self) -> Result<Vec<Site>, ConnectorError> {
        let url = format!("{}/webmasters/v3/sites", self.base_url());
        let list: SitesList = self.get("sites.list", &url).await?;
        Ok(list.site_entry)
    }

    /// `sites.get`: the login's permission on one site.
    pub(crate) async fn site(&self, site_url: &str) -> Result<Site, ConnectorError> {
        let url = format!(
            "{}/webmasters/v3/sites/{}",
            self.base_url(),
            encode_segment(site_url)
        );
        self.get("sites.get", &url).await
    }

    /// One page of `searchAnalytics.query`.
    pub(crate) async fn search_analytics(
        &self,
        site_url: &str,
        request: &QueryRequest<'_>,
    ) -> Result<QueryResponse, ConnectorError> {
        let url = format!(
            "{}/webmasters/v3/sites/{}/searchAnalytics/query",
            self.base_url(),
            encode_segment(site_url)
        );
        let body = serde_json::to_value(request).map_err(|err| {
            ConnectorError::Config(format!("the search analytics query did not encode: {err}"))
        })?;
        self.query("searchAnalytics.query", &url, &body).await
    }
}
