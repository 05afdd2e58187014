//! The `search_b` connection: a site's search queries in Bing, read through the Bing Webmaster
//! API's JSON protocol with the API key the customer generated in Bing Webmaster Tools
//! (Settings, API access; one key reaches every site its user verified). Read only.
//!
//! One file per concern: `client` (the URL, the key, retries and error bodies), `wire` (the
//! documented shapes and the WCF date), `mapping` (rows to snapshots), `source` (the
//! [`crate::Source`]).
//!
//! Documentation followed (learn.microsoft.com): `bingwebmaster/getting-access` (the key),
//! `bingwebmaster/api-protocols` (`GET .../api.svc/json/METHOD?apikey=...&param=...`), the
//! `IWebmasterApi` reference (`GetUserSites`, `GetQueryStats`, the `Site` and `QueryStats`
//! contracts) and `ApiErrorCode` (the codes of error bodies).

mod client;
#[cfg(test)]
mod loopback_tests;
mod mapping;
mod source;
mod wire;

pub use source::SearchBSource;

use std::fmt;

use crate::ConnectorError;
use crate::payments::RetryPolicy;
use client::BingClient;

/// Bing's API origin; `/webmaster/api.svc/json/...` paths are appended.
pub const DEFAULT_API_BASE_URL: &str = "https://ssl.bing.com";

/// One `search_b` connection. `Debug` never prints the key.
#[derive(Clone)]
pub struct SearchBConfig {
    /// The Bing Webmaster API key of the customer's user.
    pub api_key: String,
    /// The site as verified in Bing Webmaster Tools, e.g. `https://shop.example/`.
    pub site_url: String,
    /// Default [`DEFAULT_API_BASE_URL`]; tests point it at a fake.
    pub api_base_url: String,
    /// How often throttles and server errors are retried.
    pub retry: RetryPolicy,
}

impl SearchBConfig {
    /// A config against Bing's origin with the default retry policy.
    pub fn new(api_key: String, site_url: String) -> Self {
        Self {
            api_key,
            site_url,
            api_base_url: DEFAULT_API_BASE_URL.to_owned(),
            retry: RetryPolicy::default(),
        }
    }

    fn client<'a>(&'a self, http: &'a reqwest::Client) -> Result<BingClient<'a>, ConnectorError> {
        BingClient::new(http, &self.api_base_url, &self.api_key, self.retry)
    }
}

impl fmt::Debug for SearchBConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SearchBConfig")
            .field("api_key", &"[redacted]")
            .field("site_url", &self.site_url)
            .field("api_base_url", &self.api_base_url)
            .field("retry", &self.retry)
            .finish()
    }
}

/// A site of the key's user, as `GetUserSites` lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BingSite {
    pub url: String,
    pub verified: bool,
}

/// Every site of the key's user (`GetUserSites`), with the default retry policy: the connect's
/// proof of the key. A refused key is [`ConnectorError::Unauthorized`] carrying Bing's message.
pub async fn list_sites(
    http: &reqwest::Client,
    origin: &str,
    api_key: &str,
) -> Result<Vec<BingSite>, ConnectorError> {
    let client = BingClient::new(http, origin, api_key, RetryPolicy::default())?;
    sites(&client).await
}

async fn sites(client: &BingClient<'_>) -> Result<Vec<BingSite>, ConnectorError> {
    let sites: Vec<wire::Site> = client.get("GetUserSites", &[]).await?;
    Ok(sites
        .into_iter()
        .map(|site| BingSite {
            url: site.url,
            verified: site.is_verified,
        })
        .collect())
}

/// Whether `listed` (as Bing writes it) is the site `wanted` names. Bing's documented samples
/// write a site both with and without its trailing slash, and scheme and host are
/// case-insensitive, so those two differences do not count.
pub fn same_site(listed: &str, wanted: &str) -> bool {
    let plain = |url: &str| url.trim().trim_end_matches('/').to_ascii_lowercase();
    plain(listed) == plain(wanted)
}

/// `site_url` among `sites`, else [`ConnectorError::Config`] naming the field.
pub fn find_site<'a>(
    sites: &'a [BingSite],
    site_url: &str,
) -> Result<&'a BingSite, ConnectorError> {
    sites
        .iter()
        .find(|site| same_site(&site.url, site_url))
        .ok_or_else(|| {
            ConnectorError::Config(format!(
                "site_url: {site_url} is not a site of this key's account"
            ))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_config_starts_at_bing_and_never_prints_its_key() {
        let config = SearchBConfig::new(
            "bing-key-secret-value".into(),
            "https://shop.example/".into(),
        );
        assert_eq!(config.api_base_url, "https://ssl.bing.com");
        assert_eq!(config.retry, RetryPolicy::default());
        let text = format!("{config:?}");
        assert!(!text.contains("bing-key-secret-value"), "{text}");
        assert!(text.contains("https://shop.example/"), "{text}");
    }

    #[test]
    fn a_site_matches_with_or_without_its_slash_and_in_any_case() {
        assert!(same_site("http://example.com", "http://example.com/"));
        assert!(same_site("HTTPS://Shop.Example/", "https://shop.example/"));
        assert!(!same_site("https://shop.example/", "http://shop.example/"));
        assert!(!same_site(
            "https://shop.example/blog/",
            "https://shop.example/"
        ));
        let sites = [BingSite {
            url: "https://shop.example/".into(),
            verified: true,
        }];
        assert!(find_site(&sites, "https://shop.example/").is_ok());
        let Err(ConnectorError::Config(message)) = find_site(&sites, "https://other.example/")
        else {
            panic!("another site must be refused");
        };
        assert_eq!(
            message,
            "site_url: https://other.example/ is not a site of this key's account"
        );
    }
}
