//! The fake's memory: the ad accounts, campaigns and creatives a test seeded, their daily
//! metrics, the access tokens it knows, the failures a test scheduled, and every request.
//!
//! How the analytics rows relate (LinkedIn reports one spend through several pivots, and a
//! connector's totals must respect this):
//! - a creative day ([`super::FakeLinkedIn::set_day`]) is one creative's metrics for one day; the
//!   `CREATIVE` pivot answers exactly these rows,
//! - a campaign day ([`super::FakeLinkedIn::set_campaign_day`]) is spend of a campaign that no
//!   creative carries (LinkedIn attributes some delivery to the campaign alone); no `CREATIVE`
//!   element ever shows it,
//! - the `CAMPAIGN` pivot answers, per campaign and period, the sum of its creatives' days plus
//!   its own campaign days, so a campaign's total may exceed the sum of its creatives and never
//!   falls short of it; `CAMPAIGN_GROUP` sums its campaigns and `ACCOUNT` its campaign groups,
//! - the facets of a request (`accounts=`, `campaignGroups=`, `campaigns=`, `creatives=`) pick
//!   rows before they are summed; `creatives=` picks creative days only, so a `CAMPAIGN` pivot
//!   restricted to creatives leaves the campaign's own spend out,
//! - days before the retention window (ten years before today) are not served, and a response
//!   holds at most the analytics cap of elements (LinkedIn's is 15,000), the rest left off
//!   silently as LinkedIn does: a connector splits its date ranges to stay under it.
//!
//! Costs are decimals kept exactly (`Money`), so sums never drift. A day's `costInUsd` is the one
//! seeded with [`Metrics::usd`], else the local cost (the fake converts at 1:1).

use std::collections::{BTreeMap, HashMap};
use std::fmt;

use crate::fakes::day::Day;
use crate::fakes::recorder::RequestLog;
use crate::fakes::schedule::FailureSchedule;

/// Reads ad accounts, campaigns and creatives (`r_ads`).
pub const R_ADS: &str = "r_ads";
/// Reads and writes ad accounts, campaigns and creatives (`rw_ads`, implies reading).
pub const RW_ADS: &str = "rw_ads";
/// Reads ad analytics (`r_ads_reporting`).
pub const R_ADS_REPORTING: &str = "r_ads_reporting";

/// How many years back LinkedIn serves (non-demographic) analytics.
pub(crate) const RETENTION_YEARS: i32 = 10;

/// LinkedIn's cap on the elements of one `adAnalytics` response.
pub const LINKEDIN_ANALYTICS_CAP: usize = 15_000;

/// A non-negative decimal amount, exact to 18 places (LinkedIn sends costs as decimal strings).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub(crate) struct Money(i128);

const MONEY_PLACES: usize = 18;
const MONEY_SCALE: i128 = 1_000_000_000_000_000_000;

impl Money {
    /// Parses `123`, `12.34` or `0.000001` (no sign, no exponent, at most 18 decimals).
    pub fn parse(text: &str) -> Option<Self> {
        let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
        let digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
        if whole.is_empty() || !digits(whole) || !digits(fraction) || fraction.len() > MONEY_PLACES
        {
            return None;
        }
        if text.contains('.') && fraction.is_empty() {
            return None;
        }
        let whole: i128 = whole.parse().ok()?;
        let padded = format!("{fraction:0<width$}", width = MONEY_PLACES);
        let fraction: i128 = padded.parse().ok()?;
        whole
            .checked_mul(MONEY_SCALE)?
            .checked_add(fraction)
            .map(Self)
    }

    pub fn add(&mut self, other: Self) {
        self.0 += other.0;
    }
}

impl fmt::Display for Money {
    /// As a double would print it: at least one decimal (`12.0`, `12.34`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let whole = self.0 / MONEY_SCALE;
        let fraction = format!("{:018}", self.0 % MONEY_SCALE);
        let fraction = fraction.trim_end_matches('0');
        let fraction = if fraction.is_empty() { "0" } else { fraction };
        write!(f, "{whole}.{fraction}")
    }
}

/// Declares a LinkedIn enum with its wire names.
macro_rules! wire_enum {
    ($(#[$meta:meta])* $name:ident { $($variant:ident => $wire:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum $name { $($variant),+ }

        impl $name {
            pub(crate) fn wire(self) -> &'static str {
                match self { $(Self::$variant => $wire),+ }
            }

            pub(crate) fn from_wire(text: &str) -> Option<Self> {
                match text { $($wire => Some(Self::$variant),)+ _ => None }
            }
        }
    };
}

wire_enum! {
    /// An ad account's `status`.
    AccountStatus {
        Active => "ACTIVE",
        Canceled => "CANCELED",
        Draft => "DRAFT",
        PendingDeletion => "PENDING_DELETION",
        Removed => "REMOVED",
    }
}

wire_enum! {
    /// An ad account's `type`.
    AccountType { Business => "BUSINESS", Enterprise => "ENTERPRISE" }
}

wire_enum! {
    /// A campaign's `status`.
    CampaignStatus {
        Active => "ACTIVE",
        Paused => "PAUSED",
        Archived => "ARCHIVED",
        Completed => "COMPLETED",
        Canceled => "CANCELED",
        Draft => "DRAFT",
        PendingDeletion => "PENDING_DELETION",
        Removed => "REMOVED",
    }
}

wire_enum! {
    /// A creative's `intendedStatus`.
    CreativeStatus {
        Active => "ACTIVE",
        Paused => "PAUSED",
        Draft => "DRAFT",
        Archived => "ARCHIVED",
        Canceled => "CANCELED",
        PendingDeletion => "PENDING_DELETION",
        Removed => "REMOVED",
    }
}

/// An ad account.
#[derive(Debug, Clone)]
pub struct AccountSeed {
    pub id: i64,
    pub name: String,
    /// ISO 4217 (`USD`, `EUR`).
    pub currency: String,
    pub status: AccountStatus,
    pub kind: AccountType,
    /// `urn:li:organization:{id}` or `urn:li:person:{id}`, the entity the account advertises for.
    pub reference: String,
    pub test: bool,
}

impl AccountSeed {
    /// An active, non-test business account advertising for `urn:li:organization:{id}`.
    pub fn new(id: i64, name: &str, currency: &str) -> Self {
        Self {
            id,
            name: name.to_owned(),
            currency: currency.to_owned(),
            status: AccountStatus::Active,
            kind: AccountType::Business,
            reference: format!("urn:li:organization:{id}"),
            test: false,
        }
    }

    pub fn status(mut self, status: AccountStatus) -> Self {
        self.status = status;
        self
    }

    pub fn enterprise(mut self) -> Self {
        self.kind = AccountType::Enterprise;
        self
    }

    pub fn reference(mut self, urn: &str) -> Self {
        self.reference = urn.to_owned();
        self
    }

    pub fn test(mut self, test: bool) -> Self {
        self.test = test;
        self
    }
}

/// A campaign (LinkedIn's UI calls it an ad set since 2025; the API keeps `adCampaigns`).
#[derive(Debug, Clone)]
pub struct CampaignSeed {
    pub id: i64,
    pub name: String,
    pub status: CampaignStatus,
    /// The campaign group; `None` puts the campaign in its account's default group, whose id is
    /// the account's (LinkedIn creates one with every account).
    pub group: Option<i64>,
}

impl CampaignSeed {
    /// An active campaign in its account's default group.
    pub fn new(id: i64, name: &str) -> Self {
        Self {
            id,
            name: name.to_owned(),
            status: CampaignStatus::Active,
            group: None,
        }
    }

    pub fn status(mut self, status: CampaignStatus) -> Self {
        self.status = status;
        self
    }

    pub fn group(mut self, group: i64) -> Self {
        self.group = Some(group);
        self
    }
}

/// A creative (an ad).
#[derive(Debug, Clone)]
pub struct CreativeSeed {
    pub id: i64,
    /// LinkedIn leaves many creatives unnamed.
    pub name: Option<String>,
    pub status: CreativeStatus,
}

impl CreativeSeed {
    /// An active creative.
    pub fn new(id: i64, name: Option<&str>) -> Self {
        Self {
            id,
            name: name.map(str::to_owned),
            status: CreativeStatus::Active,
        }
    }

    pub fn status(mut self, status: CreativeStatus) -> Self {
        self.status = status;
        self
    }
}

/// One day's metrics. Costs are decimal strings in the account's currency, as LinkedIn sends
/// `costInLocalCurrency`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Metrics {
    pub cost: String,
    /// `costInUsd`; `None` answers the local cost.
    pub cost_usd: Option<String>,
    pub impressions: i64,
    pub clicks: i64,
}

impl Metrics {
    pub fn new(cost: &str, impressions: i64, clicks: i64) -> Self {
        Self {
            cost: cost.to_owned(),
            cost_usd: None,
            impressions,
            clicks,
        }
    }

    pub fn usd(mut self, cost_usd: &str) -> Self {
        self.cost_usd = Some(cost_usd.to_owned());
        self
    }
}

/// A failure a test schedules with `FakeLinkedIn::fail_next`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fail {
    /// 429 "Resource level throttle limit for calls to this resource is reached."
    Throttled,
    /// 500 `INTERNAL_ERROR`.
    Internal,
    /// 503 `UNDER_MAINTENANCE`.
    Maintenance,
    /// 504 Gateway Timeout.
    GatewayTimeout,
}

// ---- what the fake holds -------------------------------------------------------------------

/// A day's metrics, parsed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Row {
    pub cost: Money,
    pub cost_usd: Money,
    pub impressions: i64,
    pub clicks: i64,
}

impl Row {
    /// Panics on a cost that is not a plain decimal: a seeding mistake in the test.
    fn from_metrics(metrics: &Metrics) -> Self {
        let money = |text: &str| {
            Money::parse(text)
                .unwrap_or_else(|| panic!("a cost is a plain decimal like \"12.34\", not {text:?}"))
        };
        let cost = money(&metrics.cost);
        Self {
            cost,
            cost_usd: metrics.cost_usd.as_deref().map_or(cost, money),
            impressions: metrics.impressions,
            clicks: metrics.clicks,
        }
    }

    pub fn add(&mut self, other: &Row) {
        self.cost.add(other.cost);
        self.cost_usd.add(other.cost_usd);
        self.impressions += other.impressions;
        self.clicks += other.clicks;
    }
}

#[derive(Debug, Clone)]
pub(crate) struct Campaign {
    pub account: i64,
    pub group: i64,
    pub seed: CampaignSeed,
}

#[derive(Debug, Clone)]
pub(crate) struct Creative {
    pub campaign: i64,
    pub account: i64,
    pub seed: CreativeSeed,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TokenState {
    Live,
    Revoked,
    Expired,
}

#[derive(Debug, Clone)]
pub(crate) struct Token {
    pub scopes: Vec<String>,
    pub state: TokenState,
}

/// One seeded day as the analytics finder sees it: where it sits in the hierarchy and what it
/// counts. `creative` is `None` for a campaign's own (unattributed) spend.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Atom {
    pub day: Day,
    pub account: i64,
    pub group: i64,
    pub campaign: i64,
    pub creative: Option<i64>,
    pub row: Row,
}

#[derive(Debug)]
pub(crate) struct State {
    pub accounts: BTreeMap<i64, AccountSeed>,
    pub campaigns: BTreeMap<i64, Campaign>,
    pub creatives: BTreeMap<i64, Creative>,
    pub creative_days: BTreeMap<(i64, Day), Row>,
    pub campaign_days: BTreeMap<(i64, Day), Row>,
    pub tokens: HashMap<String, Token>,
    pub scheduled: FailureSchedule<Fail>,
    pub log: RequestLog,
    pub today: Option<Day>,
    pub page_size: usize,
    pub analytics_cap: usize,
    /// The oldest and newest `Linkedin-Version` (`YYYYMM`) the fake serves.
    pub versions: (u32, u32),
}

impl State {
    pub fn new(page_size: usize, analytics_cap: usize, versions: (u32, u32)) -> Self {
        Self {
            accounts: BTreeMap::new(),
            campaigns: BTreeMap::new(),
            creatives: BTreeMap::new(),
            creative_days: BTreeMap::new(),
            campaign_days: BTreeMap::new(),
            tokens: HashMap::new(),
            scheduled: FailureSchedule::default(),
            log: RequestLog::default(),
            today: None,
            page_size: page_size.max(1),
            analytics_cap,
            versions,
        }
    }

    pub fn today(&self) -> Day {
        self.today.unwrap_or_else(Day::today)
    }

    /// The first day analytics are served for.
    pub fn retention_start(&self) -> Day {
        self.today().years_before(RETENTION_YEARS)
    }

    pub fn add_account(&mut self, seed: AccountSeed) {
        self.accounts.insert(seed.id, seed);
    }

    /// Panics when `account` was not seeded: a seeding mistake in the test.
    pub fn add_campaign(&mut self, account: i64, seed: CampaignSeed) {
        assert!(
            self.accounts.contains_key(&account),
            "add_campaign: seed ad account {account} first"
        );
        let group = seed.group.unwrap_or(account);
        self.campaigns.insert(
            seed.id,
            Campaign {
                account,
                group,
                seed,
            },
        );
    }

    /// Panics when `campaign` was not seeded.
    pub fn add_creative(&mut self, campaign: i64, seed: CreativeSeed) {
        let account = self
            .campaigns
            .get(&campaign)
            .map(|c| c.account)
            .unwrap_or_else(|| panic!("add_creative: seed campaign {campaign} first"));
        self.creatives.insert(
            seed.id,
            Creative {
                campaign,
                account,
                seed,
            },
        );
    }

    /// Panics when `creative` was not seeded.
    pub fn set_day(&mut self, creative: i64, day: Day, metrics: &Metrics) {
        assert!(
            self.creatives.contains_key(&creative),
            "set_day: seed creative {creative} first"
        );
        self.creative_days
            .insert((creative, day), Row::from_metrics(metrics));
    }

    /// Panics when `campaign` was not seeded.
    pub fn set_campaign_day(&mut self, campaign: i64, day: Day, metrics: &Metrics) {
        assert!(
            self.campaigns.contains_key(&campaign),
            "set_campaign_day: seed campaign {campaign} first"
        );
        self.campaign_days
            .insert((campaign, day), Row::from_metrics(metrics));
    }

    /// Every seeded day, creative days and campaign days alike.
    pub fn atoms(&self) -> Vec<Atom> {
        let creative_days = self.creative_days.iter().filter_map(|(&(id, day), row)| {
            let creative = self.creatives.get(&id)?;
            let campaign = self.campaigns.get(&creative.campaign)?;
            Some(Atom {
                day,
                account: campaign.account,
                group: campaign.group,
                campaign: creative.campaign,
                creative: Some(id),
                row: *row,
            })
        });
        let campaign_days = self.campaign_days.iter().filter_map(|(&(id, day), row)| {
            let campaign = self.campaigns.get(&id)?;
            Some(Atom {
                day,
                account: campaign.account,
                group: campaign.group,
                campaign: id,
                creative: None,
                row: *row,
            })
        });
        creative_days.chain(campaign_days).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn money_adds_exactly_and_prints_like_linkedin() {
        let mut total = Money::parse("0.1").expect("money");
        total.add(Money::parse("0.2").expect("money"));
        assert_eq!(total.to_string(), "0.3");
        assert_eq!(Money::parse("12").expect("money").to_string(), "12.0");
        assert_eq!(
            Money::parse("2.2497041215693865")
                .expect("money")
                .to_string(),
            "2.2497041215693865"
        );
        for bad in ["", "-1", "1.", ".5", "1e3", "1,5", "1.0000000000000000001"] {
            assert_eq!(Money::parse(bad), None, "{bad:?}");
        }
    }
}
