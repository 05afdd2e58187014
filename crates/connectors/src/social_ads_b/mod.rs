//! The `social_ads_b` connection: a LinkedIn ad account read through LinkedIn's versioned
//! Marketing API ([`LINKEDIN_VERSION`], paths under `/rest/`), read only, with an access token
//! the customer pasted (their own LinkedIn app's, with `r_ads` and `r_ads_reporting`). Spend
//! lands as network `linkedin`, channel `paid_linkedin` (the kind table's row).
//!
//! One file per concern: `restli` (Rest.li 2.0 query strings), `client` (headers, cursor
//! paging, retries), `errors` (error bodies to [`ConnectorError`]), `wire` (the JSON), `urn`
//! (ids and URNs), `money` (decimal cost to cents), `days` (the days asked, retention, spans),
//! `account` (the ad account and its checks), `analytics` (ad analytics, split under its
//! cap), `structure` (campaign and creative names), `spend` (rows summing to campaigns),
//! `discover` (the accounts a token reaches), `source` (the [`crate::Source`]).
//!
//! Documentation followed (learn.microsoft.com/en-us/linkedin/...):
//! - `marketing/versioning`, `marketing/integrations/migrations`: the version header, sunsets;
//! - `marketing/integrations/ads-reporting/ads-reporting`: adAnalytics finders, `fields`, the
//!   15,000-element cap without paging, retention;
//! - `marketing/integrations/ads/cursor-based-pagination`: `pageSize`/`pageToken` searches;
//! - `marketing/integrations/ads/account-structure/create-and-manage-accounts` (and the
//!   campaigns and creatives pages beside it): the entities and their finders;
//! - `shared/api-guide/concepts/error-handling`, `marketing/error-responses`: error bodies;
//! - `shared/api-guide/concepts/protocol-version`, `.../urns`: Rest.li 2.0 and URNs.

mod account;
mod analytics;
mod client;
mod days;
mod discover;
mod errors;
#[cfg(test)]
mod loopback_tests;
mod money;
mod restli;
mod source;
mod spend;
mod structure;
mod urn;
mod wire;

pub use discover::discover_ad_accounts;
pub use source::SocialAdsBSource;

use std::fmt;

use payback_domain::Timestamp;
use payback_domain::money::format_cents;

use crate::batch::{DayRange, SpendRead};
use crate::payments::RetryPolicy;
use crate::{ConnectorError, SyncOutput, SyncWindow};
use client::LinkedInClient;

/// The `Linkedin-Version` header of every call: July 2026, the newest Marketing API version
/// the documentation confirms (supported until July 2027). LinkedIn sunsets a version a year
/// after its release and answers 426 from then on: move this on before.
pub const LINKEDIN_VERSION: &str = "202607";

/// LinkedIn's API origin; `/rest/...` paths are appended.
pub const DEFAULT_API_BASE_URL: &str = "https://api.linkedin.com";

/// The most elements one `adAnalytics` answer holds (LinkedIn cuts the rest silently).
pub const ANALYTICS_ELEMENT_CAP: usize = 15_000;

/// One `social_ads_b` connection. `Debug` never prints the token.
#[derive(Clone)]
pub struct SocialAdsBConfig {
    /// Default [`DEFAULT_API_BASE_URL`]; tests point it at a fake.
    pub api_base_url: String,
    /// The customer's member access token (`r_ads`, `r_ads_reporting`).
    pub access_token: String,
    /// The selected ad account, digits only (see [`plain_ad_account_id`]).
    pub ad_account_id: String,
    /// How often throttles (429) and server errors (5xx) are retried.
    pub retry: RetryPolicy,
    /// The most elements an `adAnalytics` answer holds: [`ANALYTICS_ELEMENT_CAP`], LinkedIn's;
    /// a test lowers it with its fake's so reads split as they would against a large account.
    pub analytics_cap: usize,
}

impl SocialAdsBConfig {
    /// A config against LinkedIn's origin with the default retry policy.
    pub fn new(access_token: String, ad_account_id: String) -> Self {
        Self {
            api_base_url: DEFAULT_API_BASE_URL.to_owned(),
            access_token,
            ad_account_id,
            retry: RetryPolicy::default(),
            analytics_cap: ANALYTICS_ELEMENT_CAP,
        }
    }

    /// The account id as digits (a URN is accepted too); it goes into paths and URNs.
    fn account_id(&self) -> Result<String, ConnectorError> {
        plain_ad_account_id(&self.ad_account_id).ok_or_else(|| {
            ConnectorError::Config(format!(
                "the LinkedIn ad account id must be a number (or urn:li:sponsoredAccount:N), \
                 not {:?}",
                self.ad_account_id
            ))
        })
    }

    fn client(&self, http: &reqwest::Client) -> Result<LinkedInClient, ConnectorError> {
        LinkedInClient::new(http, &self.api_base_url, &self.access_token, self.retry)
    }
}

impl fmt::Debug for SocialAdsBConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SocialAdsBConfig")
            .field("api_base_url", &self.api_base_url)
            .field("access_token", &"[redacted]")
            .field("ad_account_id", &self.ad_account_id)
            .field("retry", &self.retry)
            .field("analytics_cap", &self.analytics_cap)
            .finish()
    }
}

/// `123` or `urn:li:sponsoredAccount:123` (surrounding spaces allowed) as `123`; `None` for
/// anything else.
pub fn plain_ad_account_id(text: &str) -> Option<String> {
    urn::plain_id(urn::ACCOUNT, text)
}

/// [`sync`] with the instant retention is measured from. The account must count in the
/// product's currency ([`ConnectorError::Config`] otherwise); a closed account's history is
/// still read.
pub(crate) async fn sync_as_of(
    http: &reqwest::Client,
    config: &SocialAdsBConfig,
    window: SyncWindow,
    product_currency: &str,
    now: Timestamp,
) -> Result<SyncOutput, ConnectorError> {
    let id = config.account_id()?;
    let client = config.client(http)?;
    let info = account::read(&client, &id).await?;
    let currency = info.check_currency(product_currency)?;
    let asked = DayRange::of_window(window);
    let today = days::parse(&now.day()).ok_or_else(|| {
        ConnectorError::Config(format!("the clock's day {} is not a date", now.day()))
    })?;
    let Some(span) = days::readable(&asked, today) else {
        let detail = format!(
            "LinkedIn ad account {}: {}..{} is older than the {} years of analytics LinkedIn \
             keeps; nothing read",
            info.label(),
            asked.first,
            asked.last,
            days::RETENTION_YEARS
        );
        return Ok(SyncOutput {
            detail,
            ..SyncOutput::default()
        });
    };
    let read = spend::read(&client, &id, span, &currency, config.analytics_cap).await?;
    let read_days = span.day_range();
    let cents: i64 = read.rows.iter().map(|row| row.spend_cents).sum();
    let mut detail = format!(
        "LinkedIn ad account {}: {}..{}, {} in {} creative rows and {} campaign rows beyond \
         creatives ({} analytics requests)",
        info.label(),
        read_days.first,
        read_days.last,
        format_cents(cents, &currency),
        read.creative_rows,
        read.remainder_rows,
        read.requests
    );
    if read_days.first != asked.first {
        detail.push_str(&format!(
            "; days before {} are past the {} years LinkedIn keeps",
            read_days.first,
            days::RETENTION_YEARS
        ));
    }
    if read.unlisted_creatives > 0 {
        detail.push_str(&format!(
            "; {} creatives with activity are not listed by LinkedIn, their spend is in campaign \
             rows",
            read.unlisted_creatives
        ));
    }
    if read.capped_days > 0 {
        detail.push_str(&format!(
            "; {} days reached LinkedIn's {} element cap, their creative rows may be incomplete \
             (campaign totals are whole)",
            read.capped_days, config.analytics_cap
        ));
    }
    tracing::info!(detail = %detail, "linkedin ads sync read");
    Ok(SyncOutput {
        spend: vec![SpendRead {
            ad_account: info.id,
            days: read_days,
            rows: read.rows,
            keywords: vec![],
        }],
        detail,
        ..SyncOutput::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ad_account_ids_are_plain_digits() {
        assert_eq!(
            plain_ad_account_id("507404993").as_deref(),
            Some("507404993")
        );
        assert_eq!(
            plain_ad_account_id(" urn:li:sponsoredAccount:507404993 ").as_deref(),
            Some("507404993")
        );
        assert_eq!(plain_ad_account_id("urn:li:sponsoredCampaign:1"), None);
        assert_eq!(plain_ad_account_id("507-404-993"), None);
        assert_eq!(plain_ad_account_id(""), None);
        let mut config = SocialAdsBConfig::new(
            "token-secret-value".into(),
            "urn:li:sponsoredAccount:9".into(),
        );
        assert_eq!(config.account_id().unwrap(), "9");
        config.ad_account_id = "acme".into();
        assert!(matches!(
            config.account_id(),
            Err(ConnectorError::Config(_))
        ));
    }

    #[test]
    fn a_config_starts_at_linkedin_and_never_prints_its_token() {
        let config = SocialAdsBConfig::new("AQV-token-secret-value".into(), "507404993".into());
        assert_eq!(config.api_base_url, "https://api.linkedin.com");
        assert_eq!(config.retry, RetryPolicy::default());
        let text = format!("{config:?}");
        assert!(!text.contains("AQV-token-secret-value"), "{text}");
        assert!(text.contains("507404993"), "{text}");
        assert_eq!(LINKEDIN_VERSION.len(), 6);
        assert!(LINKEDIN_VERSION.bytes().all(|b| b.is_ascii_digit()));
    }
}
