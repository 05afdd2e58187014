//! The fake's memory: the accounts a test seeded (customers, budgets, campaigns, ad groups, ads,
//! keywords and their daily metrics), what the OAuth provider issued, the failures a test
//! scheduled, and every request received.
//!
//! How the daily rows relate (Google reports the same spend through several views):
//! - a [`Breakdown::Ad`] row is one ad's day; an ad group's metrics are the sum of its ads' rows,
//! - a [`Breakdown::Keyword`] row is one keyword's day: the same ad-group spend seen per keyword
//!   (`keyword_view`); keyword rows are never added to ad groups, campaigns or customers, so a test
//!   that wants the two views to agree seeds them to the same totals,
//! - a [`Breakdown::CampaignOnly`] row is spend with no ad group (Performance Max),
//! - a campaign's metrics are the sum of its ads' rows plus its campaign-only rows, and a
//!   customer's the sum of its campaigns'.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::time::Instant;

use crate::fakes::day::Day;
use crate::fakes::recorder::RequestLog;
use crate::fakes::schedule::FailureSchedule;

/// The OAuth scope the Google Ads API requires.
pub const ADWORDS_SCOPE: &str = "https://www.googleapis.com/auth/adwords";

/// The status of a campaign, ad group, ad or keyword.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Status {
    #[default]
    Enabled,
    Paused,
    Removed,
}

impl Status {
    pub(crate) fn wire(self) -> &'static str {
        match self {
            Self::Enabled => "ENABLED",
            Self::Paused => "PAUSED",
            Self::Removed => "REMOVED",
        }
    }
}

/// `campaign.advertising_channel_type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Channel {
    #[default]
    Search,
    Display,
    Shopping,
    Video,
    PerformanceMax,
    DemandGen,
}

impl Channel {
    pub(crate) fn wire(self) -> &'static str {
        match self {
            Self::Search => "SEARCH",
            Self::Display => "DISPLAY",
            Self::Shopping => "SHOPPING",
            Self::Video => "VIDEO",
            Self::PerformanceMax => "PERFORMANCE_MAX",
            Self::DemandGen => "DEMAND_GEN",
        }
    }
}

/// `ad_group_criterion.keyword.match_type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MatchType {
    Exact,
    Phrase,
    #[default]
    Broad,
}

impl MatchType {
    pub(crate) fn wire(self) -> &'static str {
        match self {
            Self::Exact => "EXACT",
            Self::Phrase => "PHRASE",
            Self::Broad => "BROAD",
        }
    }
}

/// A Google Ads account.
#[derive(Debug, Clone)]
pub struct CustomerSeed {
    pub id: i64,
    pub name: String,
    pub currency: String,
    pub time_zone: String,
    /// The manager (MCC) this account sits under. An account with a manager is reached through
    /// it (`login-customer-id`); an account without one is one the human reaches directly, and
    /// the only kind `customers:listAccessibleCustomers` names.
    pub manager: Option<i64>,
    /// A manager account even before a client is linked under it (an account any other
    /// account names as its manager is one anyway).
    pub is_manager: bool,
    pub final_url_suffix: Option<String>,
    pub auto_tagging: bool,
}

impl CustomerSeed {
    /// A directly accessible advertiser account, auto-tagging on, no final URL suffix.
    pub fn new(id: i64, name: &str, currency: &str) -> Self {
        Self {
            id,
            name: name.to_owned(),
            currency: currency.to_owned(),
            time_zone: "America/New_York".to_owned(),
            manager: None,
            is_manager: false,
            final_url_suffix: None,
            auto_tagging: true,
        }
    }

    /// A manager account.
    pub fn manager_account(id: i64, name: &str, currency: &str) -> Self {
        Self {
            is_manager: true,
            ..Self::new(id, name, currency)
        }
    }

    /// Places the account under `manager`.
    pub fn under(mut self, manager: i64) -> Self {
        self.manager = Some(manager);
        self
    }

    pub fn final_url_suffix(mut self, suffix: &str) -> Self {
        self.final_url_suffix = Some(suffix.to_owned());
        self
    }

    pub fn auto_tagging(mut self, on: bool) -> Self {
        self.auto_tagging = on;
        self
    }
}

/// A campaign with its budget.
#[derive(Debug, Clone)]
pub struct CampaignSeed {
    pub id: i64,
    pub name: String,
    pub status: Status,
    pub channel: Channel,
    /// The daily budget (`campaign_budget.amount_micros`).
    pub budget_micros: i64,
    /// `None`: the campaign has a budget of its own (not explicitly shared). `Some(id)`: it uses
    /// the explicitly shared budget `id`, which campaigns naming the same id share (the first
    /// one's `budget_micros` sets its amount).
    pub shared_budget: Option<i64>,
}

impl CampaignSeed {
    /// An enabled Search campaign with a budget of its own.
    pub fn new(id: i64, name: &str, budget_micros: i64) -> Self {
        Self {
            id,
            name: name.to_owned(),
            status: Status::Enabled,
            channel: Channel::Search,
            budget_micros,
            shared_budget: None,
        }
    }

    pub fn status(mut self, status: Status) -> Self {
        self.status = status;
        self
    }

    pub fn paused(self) -> Self {
        self.status(Status::Paused)
    }

    pub fn channel(mut self, channel: Channel) -> Self {
        self.channel = channel;
        self
    }

    pub fn performance_max(self) -> Self {
        self.channel(Channel::PerformanceMax)
    }

    /// Uses the explicitly shared budget `budget_id`.
    pub fn shared_budget(mut self, budget_id: i64) -> Self {
        self.shared_budget = Some(budget_id);
        self
    }
}

#[derive(Debug, Clone)]
pub struct AdGroupSeed {
    pub id: i64,
    pub campaign: i64,
    pub name: String,
    pub status: Status,
}

impl AdGroupSeed {
    pub fn new(id: i64, campaign: i64, name: &str) -> Self {
        Self {
            id,
            campaign,
            name: name.to_owned(),
            status: Status::Enabled,
        }
    }
}

#[derive(Debug, Clone)]
pub struct AdSeed {
    pub id: i64,
    pub ad_group: i64,
    /// `ad_group_ad.ad.name` (Google leaves most ads unnamed).
    pub name: Option<String>,
    pub status: Status,
}

impl AdSeed {
    pub fn new(id: i64, ad_group: i64, name: &str) -> Self {
        Self {
            id,
            ad_group,
            name: Some(name.to_owned()),
            status: Status::Enabled,
        }
    }

    pub fn unnamed(id: i64, ad_group: i64) -> Self {
        Self {
            id,
            ad_group,
            name: None,
            status: Status::Enabled,
        }
    }
}

#[derive(Debug, Clone)]
pub struct KeywordSeed {
    pub criterion_id: i64,
    pub ad_group: i64,
    pub text: String,
    pub match_type: MatchType,
    pub status: Status,
}

impl KeywordSeed {
    pub fn new(criterion_id: i64, ad_group: i64, text: &str) -> Self {
        Self {
            criterion_id,
            ad_group,
            text: text.to_owned(),
            match_type: MatchType::Broad,
            status: Status::Enabled,
        }
    }

    pub fn match_type(mut self, match_type: MatchType) -> Self {
        self.match_type = match_type;
        self
    }
}

/// What a daily row is the spend of. Ad rows make ad groups, campaigns and customers;
/// campaign-only rows (Performance Max) add to their campaign and customer; keyword rows are a
/// second view of ad-group spend (`keyword_view`) and add to nothing, so a test wanting the two
/// views to agree seeds them to the same totals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Breakdown {
    Ad {
        ad_group: i64,
        ad: i64,
    },
    Keyword {
        ad_group: i64,
        criterion: i64,
    },
    /// Spend with no ad group (Performance Max).
    CampaignOnly {
        campaign: i64,
    },
}

/// One day's metrics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Metrics {
    pub cost_micros: i64,
    pub impressions: i64,
    pub clicks: i64,
}

impl Metrics {
    pub fn new(cost_micros: i64, impressions: i64, clicks: i64) -> Self {
        Self {
            cost_micros,
            impressions,
            clicks,
        }
    }

    pub(crate) fn add(&mut self, other: Metrics) {
        self.cost_micros += other.cost_micros;
        self.impressions += other.impressions;
        self.clicks += other.clicks;
    }
}

/// A failure a test schedules with `FakeGoogle::fail_next`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fail {
    /// 429 `RESOURCE_EXHAUSTED`, `quotaError: RESOURCE_EXHAUSTED` (the daily developer quota,
    /// retry delay a day).
    Quota,
    /// 429 `RESOURCE_EXHAUSTED`, `quotaError: RESOURCE_TEMPORARILY_EXHAUSTED` with this retry
    /// delay in seconds.
    QuotaRetryAfter(u32),
    /// 500 `INTERNAL`, `internalError: INTERNAL_ERROR`.
    Internal,
    /// 503 `UNAVAILABLE`, `internalError: TRANSIENT_ERROR`.
    Transient,
    /// 401 `UNAUTHENTICATED`, as for an expired access token (`invalid_grant` on `/token`).
    Unauthenticated,
}

// ---- what the fake holds -------------------------------------------------------------------

#[derive(Debug, Clone)]
pub(crate) struct Customer {
    pub id: i64,
    pub name: String,
    pub currency: String,
    pub time_zone: String,
    pub manager: Option<i64>,
    pub is_manager: bool,
    pub final_url_suffix: Option<String>,
    pub auto_tagging: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BudgetStatus {
    Enabled,
    Removed,
}

#[derive(Debug, Clone)]
pub(crate) struct Budget {
    pub id: i64,
    pub customer: i64,
    pub name: String,
    pub amount_micros: i64,
    pub explicitly_shared: bool,
    pub status: BudgetStatus,
}

#[derive(Debug, Clone)]
pub(crate) struct Campaign {
    pub id: i64,
    pub customer: i64,
    pub name: String,
    pub status: Status,
    pub channel: Channel,
    pub budget: i64,
}

#[derive(Debug, Clone)]
pub(crate) struct AdGroup {
    pub id: i64,
    pub customer: i64,
    pub campaign: i64,
    pub name: String,
    pub status: Status,
}

#[derive(Debug, Clone)]
pub(crate) struct Ad {
    pub id: i64,
    pub customer: i64,
    pub ad_group: i64,
    pub name: Option<String>,
    pub status: Status,
}

#[derive(Debug, Clone)]
pub(crate) struct Keyword {
    pub criterion_id: i64,
    pub customer: i64,
    pub ad_group: i64,
    pub text: String,
    pub match_type: MatchType,
    pub status: Status,
}

/// An authorization code the provider handed out.
#[derive(Debug, Clone)]
pub(crate) struct Code {
    pub client_id: String,
    pub redirect_uri: String,
    pub scopes: Vec<String>,
    /// `(code_challenge, code_challenge_method)`.
    pub challenge: Option<(String, String)>,
    pub with_refresh: bool,
    pub issued: Instant,
    /// The grant the code was exchanged for (a second exchange revokes it).
    pub exchanged: Option<usize>,
    /// The Google user who consented.
    pub user: String,
}

/// One consent: a refresh token (when offline access was granted) and the access tokens issued
/// under it.
#[derive(Debug, Clone)]
pub(crate) struct Grant {
    pub client_id: String,
    pub scopes: Vec<String>,
    pub refresh_token: Option<String>,
    pub revoked: bool,
    /// The Google user whose data the grant reads (Search Console's sites are per user).
    pub user: String,
}

#[derive(Debug, Clone)]
pub(crate) struct Access {
    pub grant: usize,
    pub issued: Instant,
    pub expired: bool,
}

/// Access tokens live an hour (`expires_in: 3599`).
pub(crate) const ACCESS_TOKEN_SECONDS: u64 = 3599;
/// Authorization codes live ten minutes.
pub(crate) const CODE_SECONDS: u64 = 600;

#[derive(Debug)]
pub(crate) struct Oauth {
    pub codes: HashMap<String, Code>,
    pub grants: Vec<Grant>,
    pub access: HashMap<String, Access>,
    /// The human answers "Cancel" on the consent screen.
    pub human_refuses: bool,
    /// The scopes the human leaves ticked (granular consent); `None`: all requested.
    pub human_grants_only: Option<Vec<String>>,
    /// Clients the human has consented to (a refresh token is issued on the first consent only,
    /// unless `prompt=consent`).
    pub consented: BTreeSet<String>,
    /// Redirect URIs registered for the client; empty: any `http(s)` URI is accepted.
    pub redirect_uris: Vec<String>,
    /// The Google user signed in on the consent screen (and of tokens issued directly).
    pub human: String,
}

/// The user signed in until a test names another ([`super::FakeGoogle::sign_in_as`]).
pub const DEFAULT_USER: &str = "founder@gmail.example";

impl Default for Oauth {
    fn default() -> Self {
        Self {
            codes: HashMap::new(),
            grants: Vec::new(),
            access: HashMap::new(),
            human_refuses: false,
            human_grants_only: None,
            consented: BTreeSet::new(),
            redirect_uris: Vec::new(),
            human: DEFAULT_USER.to_owned(),
        }
    }
}

/// Where a `nextPageToken` points.
#[derive(Debug, Clone)]
pub(crate) struct Cursor {
    pub customer: i64,
    pub query: String,
    pub offset: usize,
}

#[derive(Debug)]
pub(crate) struct State {
    pub client_id: String,
    pub client_secret: String,
    pub developer_token: String,
    pub page_size: usize,
    pub today: Option<Day>,
    /// Leave zero metric values out of rows (proto3 JSON's default-value omission).
    pub omit_zero_metrics: bool,
    pub customers: Vec<Customer>,
    pub budgets: Vec<Budget>,
    pub campaigns: Vec<Campaign>,
    pub ad_groups: Vec<AdGroup>,
    pub ads: Vec<Ad>,
    pub keywords: Vec<Keyword>,
    pub daily: BTreeMap<(i64, Day, BreakdownKey), Metrics>,
    pub oauth: Oauth,
    pub search_console: super::search_console::Console,
    pub analytics: super::analytics::Analytics,
    pub tag_manager: super::tagmgr::TagManager,
    pub log: RequestLog,
    pub scheduled: FailureSchedule<Fail>,
    pub cursors: HashMap<String, Cursor>,
    pub counter: u64,
}

/// [`Breakdown`] in an orderable form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum BreakdownKey {
    Ad(i64, i64),
    Keyword(i64, i64),
    CampaignOnly(i64),
}

impl From<Breakdown> for BreakdownKey {
    fn from(breakdown: Breakdown) -> Self {
        match breakdown {
            Breakdown::Ad { ad_group, ad } => Self::Ad(ad_group, ad),
            Breakdown::Keyword {
                ad_group,
                criterion,
            } => Self::Keyword(ad_group, criterion),
            Breakdown::CampaignOnly { campaign } => Self::CampaignOnly(campaign),
        }
    }
}

impl State {
    pub fn new(client_id: String, client_secret: String, developer_token: String) -> Self {
        Self {
            client_id,
            client_secret,
            developer_token,
            page_size: 3,
            today: None,
            omit_zero_metrics: false,
            customers: Vec::new(),
            budgets: Vec::new(),
            campaigns: Vec::new(),
            ad_groups: Vec::new(),
            ads: Vec::new(),
            keywords: Vec::new(),
            daily: BTreeMap::new(),
            oauth: Oauth::default(),
            search_console: super::search_console::Console::default(),
            analytics: super::analytics::Analytics::default(),
            tag_manager: super::tagmgr::TagManager::default(),
            log: RequestLog::default(),
            scheduled: FailureSchedule::default(),
            cursors: HashMap::new(),
            counter: 0,
        }
    }

    /// A fresh opaque value with `prefix` (tokens, codes, request ids).
    pub fn mint(&mut self, prefix: &str) -> String {
        self.counter += 1;
        format!("{prefix}{}{}", self.counter, uuid::Uuid::new_v4().simple())
    }

    pub fn today(&self) -> Day {
        self.today.unwrap_or_else(Day::today)
    }

    pub fn customer(&self, id: i64) -> Option<&Customer> {
        self.customers.iter().find(|c| c.id == id)
    }

    /// A manager: marked so, or named as the manager of another account.
    pub fn is_manager(&self, id: i64) -> bool {
        self.customer(id).is_some_and(|c| c.is_manager)
            || self.customers.iter().any(|c| c.manager == Some(id))
    }

    /// The account's managers, nearest first.
    pub fn managers_of(&self, id: i64) -> Vec<i64> {
        let mut chain = Vec::new();
        let mut at = self.customer(id).and_then(|c| c.manager);
        while let Some(manager) = at {
            if chain.contains(&manager) {
                break;
            }
            chain.push(manager);
            at = self.customer(manager).and_then(|c| c.manager);
        }
        chain
    }

    pub fn campaign(&self, customer: i64, id: i64) -> Option<&Campaign> {
        self.campaigns
            .iter()
            .find(|c| c.customer == customer && c.id == id)
    }

    pub fn budget(&self, customer: i64, id: i64) -> Option<&Budget> {
        self.budgets
            .iter()
            .find(|b| b.customer == customer && b.id == id)
    }

    pub fn ad_group(&self, customer: i64, id: i64) -> Option<&AdGroup> {
        self.ad_groups
            .iter()
            .find(|g| g.customer == customer && g.id == id)
    }

    /// Campaigns (not removed) using the budget.
    pub fn budget_references(&self, customer: i64, budget: i64) -> i64 {
        let count = self
            .campaigns
            .iter()
            .filter(|c| c.customer == customer && c.budget == budget)
            .filter(|c| c.status != Status::Removed)
            .count();
        i64::try_from(count).unwrap_or(i64::MAX)
    }

    /// The daily rows of a customer, each with its day and breakdown.
    pub fn daily_of(&self, customer: i64) -> impl Iterator<Item = (Day, BreakdownKey, Metrics)> {
        self.daily
            .range((customer, Day::MIN, BreakdownKey::Ad(i64::MIN, i64::MIN))..)
            .take_while(move |((c, _, _), _)| *c == customer)
            .map(|((_, day, key), metrics)| (*day, *key, *metrics))
    }

    // ---- seeding (test helpers: inconsistent seeds panic) ------------------------------------

    pub fn add_customer(&mut self, seed: CustomerSeed) {
        assert!(
            self.customer(seed.id).is_none(),
            "customer {} seeded twice",
            seed.id
        );
        assert!(seed.id > 0, "customer ids are positive");
        self.customers.push(Customer {
            id: seed.id,
            name: seed.name,
            currency: seed.currency,
            time_zone: seed.time_zone,
            manager: seed.manager,
            is_manager: seed.is_manager,
            final_url_suffix: seed.final_url_suffix,
            auto_tagging: seed.auto_tagging,
        });
    }

    fn require_customer(&self, customer: i64) {
        assert!(
            self.customer(customer).is_some(),
            "customer {customer} is not seeded"
        );
    }

    pub fn add_campaign(&mut self, customer: i64, seed: CampaignSeed) {
        self.require_customer(customer);
        assert!(
            self.campaign(customer, seed.id).is_none(),
            "campaign {} seeded twice",
            seed.id
        );
        let budget = match seed.shared_budget {
            Some(id) => {
                if self.budget(customer, id).is_none() {
                    self.budgets.push(Budget {
                        id,
                        customer,
                        name: format!("Shared budget {id}"),
                        amount_micros: seed.budget_micros,
                        explicitly_shared: true,
                        status: BudgetStatus::Enabled,
                    });
                }
                id
            }
            None => {
                let id = implicit_budget_id(seed.id);
                assert!(
                    self.budget(customer, id).is_none(),
                    "budget id {id} (campaign {}'s own) is already taken",
                    seed.id
                );
                self.budgets.push(Budget {
                    id,
                    customer,
                    name: format!("{} budget", seed.name),
                    amount_micros: seed.budget_micros,
                    explicitly_shared: false,
                    status: BudgetStatus::Enabled,
                });
                id
            }
        };
        self.campaigns.push(Campaign {
            id: seed.id,
            customer,
            name: seed.name,
            status: seed.status,
            channel: seed.channel,
            budget,
        });
    }

    pub fn add_ad_group(&mut self, customer: i64, seed: AdGroupSeed) {
        assert!(
            self.campaign(customer, seed.campaign).is_some(),
            "campaign {} of customer {customer} is not seeded",
            seed.campaign
        );
        assert!(
            self.ad_group(customer, seed.id).is_none(),
            "ad group {} seeded twice",
            seed.id
        );
        self.ad_groups.push(AdGroup {
            id: seed.id,
            customer,
            campaign: seed.campaign,
            name: seed.name,
            status: seed.status,
        });
    }

    pub fn add_ad(&mut self, customer: i64, seed: AdSeed) {
        assert!(
            self.ad_group(customer, seed.ad_group).is_some(),
            "ad group {} of customer {customer} is not seeded",
            seed.ad_group
        );
        self.ads.push(Ad {
            id: seed.id,
            customer,
            ad_group: seed.ad_group,
            name: seed.name,
            status: seed.status,
        });
    }

    pub fn add_keyword(&mut self, customer: i64, seed: KeywordSeed) {
        assert!(
            self.ad_group(customer, seed.ad_group).is_some(),
            "ad group {} of customer {customer} is not seeded",
            seed.ad_group
        );
        self.keywords.push(Keyword {
            criterion_id: seed.criterion_id,
            customer,
            ad_group: seed.ad_group,
            text: seed.text,
            match_type: seed.match_type,
            status: seed.status,
        });
    }

    pub fn add_daily(&mut self, customer: i64, day: Day, at: Breakdown, metrics: Metrics) {
        match at {
            Breakdown::Ad { ad_group, ad } => assert!(
                self.ads
                    .iter()
                    .any(|a| a.customer == customer && a.ad_group == ad_group && a.id == ad),
                "ad {ad_group}~{ad} of customer {customer} is not seeded"
            ),
            Breakdown::Keyword {
                ad_group,
                criterion,
            } => assert!(
                self.keywords.iter().any(|k| k.customer == customer
                    && k.ad_group == ad_group
                    && k.criterion_id == criterion),
                "keyword {ad_group}~{criterion} of customer {customer} is not seeded"
            ),
            Breakdown::CampaignOnly { campaign } => assert!(
                self.campaign(customer, campaign).is_some(),
                "campaign {campaign} of customer {customer} is not seeded"
            ),
        }
        self.daily.insert((customer, day, at.into()), metrics);
    }
}

/// The id of a campaign's own (not shared) budget.
pub(crate) fn implicit_budget_id(campaign: i64) -> i64 {
    campaign.saturating_add(7_000_000_000)
}

/// The smallest amount a budget in `currency` can move by, in micros (a cent, or a whole unit in
/// currencies without minor units).
pub(crate) fn minimum_unit_micros(currency: &str) -> i64 {
    match currency {
        "JPY" | "KRW" | "VND" | "CLP" | "ISK" | "PYG" | "UGX" => 1_000_000,
        _ => 10_000,
    }
}
