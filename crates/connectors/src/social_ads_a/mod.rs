//! The `social_ads_a` connection: a Meta ad account read (spend) and changed (daily budgets)
//! through the Marketing API ([`crate::graph::GRAPH_VERSION`]), authorised by the social grant's
//! long-lived user token or a token pasted on the key path. Spend lands as network `meta`,
//! channel `paid_meta` (the kind table's row).
//!
//! One file per concern: `account` (the ad account, its currency and status), `insights` (sync
//! and async reads of ad-level daily insights), `spend` (rows as Payback's spend rows), `money`
//! (exact cents, budget offsets), `budget` (approved budget changes), `source` (the
//! [`crate::Source`]).
//!
//! Meta serves insights for the last 37 months only ("date_preset=maximum ... returns a maximum
//! of 37 months of data"): a window reaching further back is read from 37 months before its last
//! day on, and only those days are replaced (older stored days stay as they are).

mod account;
mod budget;
#[cfg(test)]
mod http_tests;
mod insights;
mod money;
mod source;
mod spend;

pub use crate::payments::RetryPolicy;
pub use source::SocialAdsASource;

use std::fmt;

use crate::ConnectorError;
use crate::batch::DayRange;
use crate::graph::DEFAULT_GRAPH_BASE_URL;
use crate::graph::client::GraphClient;

/// How far back Meta answers insights, in months.
const INSIGHTS_MONTHS: i32 = 37;

/// One `social_ads_a` connection, its token opened. `Debug` never prints the token.
#[derive(Clone)]
pub struct SocialAdsAConfig {
    /// Default [`DEFAULT_GRAPH_BASE_URL`]; tests point it at a fake.
    pub graph_base_url: String,
    /// A user (or system user) token with `ads_read` (and `ads_management` for budgets).
    pub access_token: String,
    /// Digits, no `act_` (see [`plain_ad_account_id`]).
    pub ad_account_id: String,
    /// Only campaigns whose names start with one of these are read (see [`campaign_matches`]).
    pub campaign_name_prefixes: Vec<String>,
    /// How often throttles and Meta's transient errors are retried.
    pub retry: RetryPolicy,
    /// Whether disconnecting ends the grant at Meta (`DELETE /me/permissions`): true for the
    /// social grant's token, which is Payback's; the key-connect path sets it false, since a
    /// pasted token stays the customer's.
    pub revoke_on_disconnect: bool,
}

impl SocialAdsAConfig {
    /// A config against Meta's origin with the default retry policy, for the grant's token.
    pub fn new(
        access_token: String,
        ad_account_id: String,
        campaign_name_prefixes: Vec<String>,
    ) -> Self {
        Self {
            graph_base_url: DEFAULT_GRAPH_BASE_URL.to_owned(),
            access_token,
            ad_account_id,
            campaign_name_prefixes,
            retry: RetryPolicy::default(),
            revoke_on_disconnect: true,
        }
    }

    /// The account id, checked to be plain digits (it goes into paths).
    pub(crate) fn account_id(&self) -> Result<String, ConnectorError> {
        let id = self.ad_account_id.trim();
        if id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ConnectorError::Config(format!(
                "the Meta ad account id must be digits without act_, not {id:?}"
            )));
        }
        Ok(id.to_owned())
    }

    pub(crate) fn client(&self, http: &reqwest::Client) -> Result<GraphClient, ConnectorError> {
        GraphClient::new(http, &self.graph_base_url, &self.access_token, self.retry)
    }
}

impl fmt::Debug for SocialAdsAConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SocialAdsAConfig")
            .field("graph_base_url", &self.graph_base_url)
            .field("access_token", &"[redacted]")
            .field("ad_account_id", &self.ad_account_id)
            .field("campaign_name_prefixes", &self.campaign_name_prefixes)
            .field("retry", &self.retry)
            .field("revoke_on_disconnect", &self.revoke_on_disconnect)
            .finish()
    }
}

/// `act_123` or `123` (spaces around allowed, `act_` in any case) as `123`; `None` for anything
/// else.
pub fn plain_ad_account_id(text: &str) -> Option<String> {
    let text = text.trim();
    let digits = match text.get(..4) {
        Some(prefix) if prefix.eq_ignore_ascii_case("act_") => &text[4..],
        _ => text,
    };
    (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())).then(|| digits.to_owned())
}

/// Whether a campaign named `name` passes the filter: every campaign when no prefix has text;
/// otherwise when the name starts with one of them, compared case-insensitively after trimming
/// both.
pub fn campaign_matches(name: &str, prefixes: &[String]) -> bool {
    let name = name.trim().to_lowercase();
    let mut prefixes = prefixes
        .iter()
        .map(|prefix| prefix.trim().to_lowercase())
        .filter(|prefix| !prefix.is_empty())
        .peekable();
    if prefixes.peek().is_none() {
        return true;
    }
    prefixes.any(|prefix| name.starts_with(&prefix))
}

/// `days` starting no earlier than Meta's insights reach: [`INSIGHTS_MONTHS`] months before the
/// last day (a run's window ends at its now), plus a day of margin.
fn within_reach(days: &DayRange) -> DayRange {
    match insights_floor(&days.last) {
        Some(floor)
            if floor.as_str() > days.first.as_str() && floor.as_str() <= days.last.as_str() =>
        {
            DayRange {
                first: floor,
                last: days.last.clone(),
            }
        }
        _ => days.clone(),
    }
}

/// The first day Meta still answers for a window ending on `last_day`.
fn insights_floor(last_day: &str) -> Option<String> {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    let last = time::Date::parse(last_day, format).ok()?;
    let months = last.year() * 12 + i32::from(u8::from(last.month())) - 1 - INSIGHTS_MONTHS;
    let year = months.div_euclid(12);
    let month = time::Month::try_from(u8::try_from(months.rem_euclid(12) + 1).ok()?).ok()?;
    let day = last.day().min(month.length(year));
    let floor = time::Date::from_calendar_date(year, month, day)
        .ok()?
        .next_day()?;
    floor.format(format).ok()
}

fn previous_day(day: &str) -> Option<String> {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    time::Date::parse(day, format)
        .ok()?
        .previous_day()?
        .format(format)
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ad_account_ids_are_plain_digits() {
        assert_eq!(plain_ad_account_id("act_123").as_deref(), Some("123"));
        assert_eq!(plain_ad_account_id(" ACT_123 ").as_deref(), Some("123"));
        assert_eq!(plain_ad_account_id("123").as_deref(), Some("123"));
        assert_eq!(plain_ad_account_id("act_").as_deref(), None);
        assert_eq!(plain_ad_account_id("act_12a").as_deref(), None);
        assert_eq!(plain_ad_account_id("act123").as_deref(), None);
        assert_eq!(plain_ad_account_id("12 3").as_deref(), None);
        assert_eq!(plain_ad_account_id("").as_deref(), None);
        assert_eq!(plain_ad_account_id("ünï").as_deref(), None);
        let mut config = SocialAdsAConfig::new("EAAB-token".into(), "act_1".into(), vec![]);
        assert!(matches!(
            config.account_id(),
            Err(ConnectorError::Config(_))
        ));
        config.ad_account_id = " 42 ".into();
        assert_eq!(config.account_id().unwrap(), "42");
    }

    #[test]
    fn campaign_prefixes_match_case_insensitively_after_trimming() {
        let prefixes = |list: &[&str]| list.iter().map(|p| (*p).to_owned()).collect::<Vec<_>>();
        assert!(campaign_matches("Anything", &[]));
        assert!(campaign_matches("Anything", &prefixes(&["", "  "])));
        assert!(campaign_matches("Shop - Brand", &prefixes(&["shop"])));
        assert!(campaign_matches("  SHOP - Brand", &prefixes(&[" Shop "])));
        assert!(campaign_matches("Blog", &prefixes(&["shop", "blog"])));
        assert!(!campaign_matches("My Shop", &prefixes(&["shop"])));
        assert!(!campaign_matches("", &prefixes(&["shop"])));
        assert!(campaign_matches("Ärger Kampagne", &prefixes(&["ärger"])));
    }

    #[test]
    fn insights_reach_37_months_back() {
        assert_eq!(insights_floor("2026-11-21").as_deref(), Some("2023-10-22"));
        // Month ends clamp to the shorter month.
        assert_eq!(insights_floor("2026-03-31").as_deref(), Some("2023-03-01"));
        assert_eq!(insights_floor("2027-05-31").as_deref(), Some("2024-05-01"));
        let long = DayRange {
            first: "2020-01-01".into(),
            last: "2026-11-21".into(),
        };
        assert_eq!(
            within_reach(&long),
            DayRange {
                first: "2023-10-22".into(),
                last: "2026-11-21".into()
            }
        );
        let recent = DayRange {
            first: "2026-11-14".into(),
            last: "2026-11-21".into(),
        };
        assert_eq!(within_reach(&recent), recent);
        assert_eq!(previous_day("2023-10-22").as_deref(), Some("2023-10-21"));
    }

    #[test]
    fn debug_never_prints_the_token() {
        let config = SocialAdsAConfig::new("EAAB-secret".into(), "1".into(), vec!["Shop".into()]);
        let text = format!("{config:?}");
        assert!(
            !text.contains("EAAB-secret") && text.contains("Shop"),
            "{text}"
        );
    }
}
