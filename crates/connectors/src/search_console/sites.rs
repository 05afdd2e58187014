//! The sites a grant reaches, as the search-engine grant offers them (`search_console_sites`).
//!
//! A `siteUnverifiedUser` entry is left out: Google lists a site the login added but never
//! verified (or lost verification of) with that level, and such a login may read none of the
//! site's data (Search Console's permissions: an unverified user has no access to the
//! property's reports), so `searchAnalytics.query` would refuse every sync of it with 403.

use serde::{Deserialize, Serialize};

use super::SearchConsoleConfig;
use super::client::ConsoleClient;
use super::wire::Site;
use crate::ConnectorError;
use crate::google::GoogleAuth;

/// The permission level of a login that may read nothing of the site.
pub const UNVERIFIED: &str = "siteUnverifiedUser";

/// One site the grant may connect.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SiteOption {
    /// `https://shop.example/` (a URL-prefix property) or `sc-domain:shop.example` (a Domain
    /// property), exactly as Google spells it.
    pub site_url: String,
    /// `siteOwner`, `siteFullUser` or `siteRestrictedUser`.
    pub permission_level: String,
}

/// Every readable site of the login (or service account) `auth` speaks for (`sites.list`
/// answers the whole list at once), in Google's order.
pub async fn list_sites(
    http: &reqwest::Client,
    api_base_url: &str,
    auth: &GoogleAuth,
) -> Result<Vec<SiteOption>, ConnectorError> {
    let retry = SearchConsoleConfig::default_retry();
    let client = ConsoleClient::connect(http, api_base_url, retry, auth).await?;
    Ok(readable(client.sites().await?))
}

/// The sites a login may read, each once.
pub(crate) fn readable(sites: Vec<Site>) -> Vec<SiteOption> {
    let mut out: Vec<SiteOption> = Vec::new();
    for site in sites {
        if site.permission_level == UNVERIFIED || out.iter().any(|o| o.site_url == site.site_url) {
            continue;
        }
        out.push(SiteOption {
            site_url: site.site_url,
            permission_level: site.permission_level,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(url: &str, level: &str) -> Site {
        Site {
            site_url: url.into(),
            permission_level: level.into(),
        }
    }

    #[test]
    fn unverified_sites_are_left_out() {
        let offered = readable(vec![
            site("https://shop.example/", "siteOwner"),
            site("sc-domain:shop.example", "siteRestrictedUser"),
            site("https://other.example/", UNVERIFIED),
            site("https://shop.example/", "siteOwner"),
        ]);
        let urls: Vec<&str> = offered.iter().map(|o| o.site_url.as_str()).collect();
        assert_eq!(urls, ["https://shop.example/", "sc-domain:shop.example"]);
        assert_eq!(offered[1].permission_level, "siteRestrictedUser");
    }
}
