//! What a test seeds an Ads account with: customers, campaigns (with their budgets), ad groups,
//! ads, keywords, and their daily metrics.
//!
//! How the daily rows relate (Google reports the same spend through several views):
//! - a [`Breakdown::Ad`] row is one ad's day; an ad group's metrics are the sum of its ads' rows,
//! - a [`Breakdown::Keyword`] row is one keyword's day: the same ad-group spend seen per keyword
//!   (`keyword_view`); keyword rows are never added to ad groups, campaigns or customers, so a test
//!   that wants the two views to agree seeds them to the same totals,
//! - a [`Breakdown::CampaignOnly`] row is spend with no ad group (Performance Max),
//! - a campaign's metrics are the sum of its ads' rows plus its campaign-only rows, and a
//!   customer's the sum of its campaigns'.

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
