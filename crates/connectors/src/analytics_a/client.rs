//! The GA4 Admin API (`accountSummaries.list`) and Data API (`properties/{p}:runReport`) over
//! the shared Google client; every call here reads.

use super::wire::{AccountSummaries, ReportRequest, ReportResponse};
use crate::ConnectorError;
use crate::google::{GoogleClient, encode_segment, google_api};

google_api!(
    /// The GA4 Admin API, as messages name it.
    AnalyticsAdmin,
    "Google Analytics Admin API"
);

google_api!(
    /// The GA4 Data API, as messages name it.
    AnalyticsData,
    "Google Analytics Data API"
);

/// Account summaries a page asks for (Google's maximum is 200).
const SUMMARIES_PAGE_SIZE: u32 = 200;

/// One authorised session with the Admin API.
pub(crate) type AdminClient = GoogleClient<AnalyticsAdmin>;

/// One authorised session with the Data API.
pub(crate) type DataClient = GoogleClient<AnalyticsData>;

impl AdminClient {
    /// One page of `accountSummaries.list`: the accounts and properties the login reaches.
    pub(crate) async fn account_summaries(
        &self,
        page_token: Option<&str>,
    ) -> Result<AccountSummaries, ConnectorError> {
        let mut url = format!(
            "{}/v1beta/accountSummaries?pageSize={SUMMARIES_PAGE_SIZE}",
            self.base_url()
        );
        if let Some(token) = page_token {
            url.push_str("&pageToken=");
            url.push_str(&encode_segment(token));
        }
        self.get("accountSummaries.list", &url).await
    }
}

impl DataClient {
    /// One page of `properties/{property_id}:runReport`.
    pub(crate) async fn run_report(
        &self,
        property_id: &str,
        request: &ReportRequest,
    ) -> Result<ReportResponse, ConnectorError> {
        let url = format!(
            "{}/v1beta/properties/{}:runReport",
            self.base_url(),
            encode_segment(property_id)
        );
        let body = serde_json::to_value(request).map_err(|err| {
            ConnectorError::Config(format!("the analytics report did not encode: {err}"))
        })?;
        self.query("properties.runReport", &url, &body).await
    }
}
