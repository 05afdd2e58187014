//! The `social_a` connection: a Facebook page and the Instagram professional account linked to
//! it, read through the Graph API ([`crate::graph::GRAPH_VERSION`]) as daily snapshots (views,
//! engagement, followers) and recent posts with their engagement. The token is the social
//! grant's user token (exchanged for the page's token on every operation) or a token pasted on
//! the key path (a page token is used as it is).
//!
//! One file per concern: `page` (the page token and the page), `insights` (daily Page and
//! Instagram insights), `posts` (recent posts), `snapshots` (figures as snapshot words),
//! `network` (the two networks' names both of those carry), `source` (the [`crate::Source`]).

mod insights;
mod network;
mod page;
mod posts;
mod snapshots;
mod source;

#[cfg(test)]
mod http_tests;

pub use crate::payments::RetryPolicy;
pub use source::SocialASource;

use std::fmt;

use payback_domain::{DAY_MS, Timestamp};

use crate::ConnectorError;
use crate::batch::DayRange;
use crate::graph::DEFAULT_GRAPH_BASE_URL;
use crate::graph::client::GraphClient;
use insights::PAGE_HISTORY_DAYS;

/// One `social_a` connection, its token opened. `Debug` never prints the token.
#[derive(Clone)]
pub struct SocialAConfig {
    /// Default [`DEFAULT_GRAPH_BASE_URL`]; tests point it at a fake.
    pub graph_base_url: String,
    /// A user token (from the grant; exchanged for the page's token) or a page token (key
    /// connect; used as it is).
    pub access_token: String,
    /// The page's id, digits.
    pub page_id: String,
    /// How often throttles and Meta's transient errors are retried.
    pub retry: RetryPolicy,
    /// Whether disconnecting ends the grant at Meta (`DELETE /me/permissions` with the user
    /// token): true for the social grant's token; the key-connect path sets it false, since a
    /// pasted token (often a page token, which has no grant to end) stays the customer's.
    pub revoke_on_disconnect: bool,
}

impl SocialAConfig {
    /// A config against Meta's origin with the default retry policy, for the grant's token.
    pub fn new(access_token: String, page_id: String) -> Self {
        Self {
            graph_base_url: DEFAULT_GRAPH_BASE_URL.to_owned(),
            access_token,
            page_id,
            retry: RetryPolicy::default(),
            revoke_on_disconnect: true,
        }
    }

    /// The page id, checked to be digits (it goes into paths).
    pub(crate) fn page_id(&self) -> Result<String, ConnectorError> {
        let id = self.page_id.trim();
        if id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ConnectorError::Config(format!(
                "the Facebook page id must be digits, not {id:?}"
            )));
        }
        Ok(id.to_owned())
    }

    pub(crate) fn client(&self, http: &reqwest::Client) -> Result<GraphClient, ConnectorError> {
        GraphClient::new(http, &self.graph_base_url, &self.access_token, self.retry)
    }
}

impl fmt::Debug for SocialAConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SocialAConfig")
            .field("graph_base_url", &self.graph_base_url)
            .field("access_token", &"[redacted]")
            .field("page_id", &self.page_id)
            .field("retry", &self.retry)
            .field("revoke_on_disconnect", &self.revoke_on_disconnect)
            .finish()
    }
}

/// `days` starting no earlier than the two years Page Insights keep, counted back from the last
/// day (a run's window ends at its now).
fn within_history(days: &DayRange) -> DayRange {
    let floor = Timestamp::parse_day(&days.last)
        .map(|last| last.minus_millis((PAGE_HISTORY_DAYS - 1) * DAY_MS).day());
    match floor {
        Some(floor) if floor.as_str() > days.first.as_str() => DayRange {
            first: floor,
            last: days.last.clone(),
        },
        _ => days.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_ids_are_digits() {
        let mut config = SocialAConfig::new("EAAB-token".into(), " 101 ".into());
        assert_eq!(config.page_id().unwrap(), "101");
        config.page_id = "101/feed".into();
        assert!(matches!(config.page_id(), Err(ConnectorError::Config(_))));
        config.page_id = String::new();
        assert!(config.page_id().is_err());
    }

    #[test]
    fn page_history_reaches_two_years_back() {
        let long = DayRange {
            first: "2020-01-01".into(),
            last: "2026-11-21".into(),
        };
        let kept = within_history(&long);
        assert_eq!(kept.first, "2024-11-22");
        assert_eq!(kept.last, "2026-11-21");
        let recent = DayRange {
            first: "2026-11-14".into(),
            last: "2026-11-21".into(),
        };
        assert_eq!(within_history(&recent), recent);
    }

    #[test]
    fn debug_never_prints_the_token() {
        let text = format!(
            "{:?}",
            SocialAConfig::new("EAAB-secret".into(), "101".into())
        );
        assert!(
            !text.contains("EAAB-secret") && text.contains("101"),
            "{text}"
        );
    }
}
