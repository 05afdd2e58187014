//! The `search_ads` connection: a Google Ads account read and changed through the Google Ads
//! API's REST interface ([`API_VERSION`]), authorised by the search-engine grant's refresh token
//! ([`crate::oauth`]) and Payback's developer token. Spend lands as network `google`, channel
//! `paid_google` (the kind table's row).
//!
//! One file per concern: `client` (headers, `googleAds:search` paging, mutates, retries),
//! `errors` (error bodies to [`ConnectorError`]), `wire` (the REST JSON), `gaql` (query text),
//! `money` (micros and cents), `customer` (the account, its currency, its URL suffix), `spend`
//! (rows counted once), `budget` (approved budget changes), `discover` (the accounts a grant
//! reaches), [`suffix`] (the tracking parameters), `source` (the [`crate::Source`]).

mod budget;
mod client;
mod customer;
mod discover;
mod errors;
mod gaql;
mod money;
mod source;
mod spend;
pub mod suffix;
mod wire;

pub use crate::payments::RetryPolicy;
pub use customer::{UrlSuffixState, read_url_suffix, write_url_suffix};
pub use discover::{AdsCustomerOption, discover_customers};
pub use source::SearchAdsSource;

use std::fmt;

use crate::ConnectorError;
use crate::oauth::OAuthClient;
use client::{Account, AdsClient};

/// The Google Ads API version every path starts with. v26 is the latest active version (Google
/// recommends it to new integrations; v22 and older are sunset as of October 2026). Major
/// versions live about a year: move this on before its sunset date.
pub const API_VERSION: &str = "v26";

/// The Google Ads API's origin; `/{API_VERSION}/customers/...` paths are appended.
pub const DEFAULT_API_BASE_URL: &str = "https://googleads.googleapis.com";

/// One `search_ads` connection, its grant opened. `Debug` never prints a token.
#[derive(Clone)]
pub struct SearchAdsConfig {
    /// Default [`DEFAULT_API_BASE_URL`]; tests point it at a fake.
    pub api_base_url: String,
    /// Payback's Google Ads developer token (the operator's, not the tenant's).
    pub developer_token: String,
    /// The selected account, digits only (see [`plain_customer_id`]).
    pub customer_id: String,
    /// The manager the account is reached through, digits only; `None` when reached directly.
    pub login_customer_id: Option<String>,
    pub oauth: OAuthClient,
    pub refresh_token: String,
    /// How often quota (429) and server (5xx) answers are retried.
    pub retry: RetryPolicy,
}

impl SearchAdsConfig {
    /// A config against Google's origin with the default retry policy.
    pub fn new(
        developer_token: String,
        customer_id: String,
        login_customer_id: Option<String>,
        oauth: OAuthClient,
        refresh_token: String,
    ) -> Self {
        Self {
            api_base_url: DEFAULT_API_BASE_URL.to_owned(),
            developer_token,
            customer_id,
            login_customer_id,
            oauth,
            refresh_token,
            retry: RetryPolicy::default(),
        }
    }

    /// The account and its login, checked to be plain ids (they go into paths and headers).
    pub(crate) fn account(&self) -> Result<Account<'_>, ConnectorError> {
        let customer_id = gaql::digits(&self.customer_id, "the Google Ads customer id")?;
        let login_customer_id = match self.login_customer_id.as_deref() {
            Some(login) if !login.is_empty() => {
                Some(gaql::digits(login, "the Google Ads login customer id")?)
            }
            _ => None,
        };
        Ok(Account {
            customer_id,
            login_customer_id,
        })
    }

    /// A client with a fresh access token.
    pub(crate) async fn client<'a>(
        &'a self,
        http: &'a reqwest::Client,
    ) -> Result<AdsClient, ConnectorError> {
        AdsClient::connect(
            http,
            &self.api_base_url,
            &self.developer_token,
            self.retry,
            &self.oauth,
            &self.refresh_token,
        )
        .await
    }
}

impl fmt::Debug for SearchAdsConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SearchAdsConfig")
            .field("api_base_url", &self.api_base_url)
            .field("developer_token", &"[redacted]")
            .field("customer_id", &self.customer_id)
            .field("login_customer_id", &self.login_customer_id)
            .field("oauth", &self.oauth)
            .field("refresh_token", &"[redacted]")
            .field("retry", &self.retry)
            .finish()
    }
}

/// `123-456-7890` (as Google Ads shows ids) as `1234567890`; `None` when anything but digits,
/// dashes and spaces remains or no digit does.
pub fn plain_customer_id(text: &str) -> Option<String> {
    let digits: String = text
        .chars()
        .filter(|c| *c != '-' && !c.is_whitespace())
        .collect();
    gaql::is_digits(&digits).then_some(digits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oauth::OAuthEndpoints;

    fn config() -> SearchAdsConfig {
        SearchAdsConfig::new(
            "dev-token-secret".into(),
            "1234567890".into(),
            Some("1000000001".into()),
            OAuthClient::new(
                "id".into(),
                "client-secret".into(),
                OAuthEndpoints::google(),
            ),
            "1//refresh-secret".into(),
        )
    }

    #[test]
    fn ids_are_plain_digits() {
        assert_eq!(
            plain_customer_id("123-456-7890").as_deref(),
            Some("1234567890")
        );
        assert_eq!(
            plain_customer_id(" 1234567890 ").as_deref(),
            Some("1234567890")
        );
        assert_eq!(plain_customer_id("customers/1"), None);
        assert_eq!(plain_customer_id("--"), None);
        let checked = config();
        let account = checked.account().unwrap();
        assert_eq!(account.customer_id, "1234567890");
        assert_eq!(account.login_customer_id, Some("1000000001"));
        let mut bad = config();
        bad.customer_id = "123-456-7890".into();
        assert!(matches!(bad.account(), Err(ConnectorError::Config(_))));
        let mut direct = config();
        direct.login_customer_id = Some(String::new());
        assert_eq!(direct.account().unwrap().login_customer_id, None);
    }

    #[test]
    fn debug_never_prints_a_secret() {
        let text = format!("{:?}", config());
        for secret in ["dev-token-secret", "client-secret", "1//refresh-secret"] {
            assert!(!text.contains(secret), "{text}");
        }
    }
}
