//! The fake's memory: what a test seeded (ad accounts, campaigns, ad sets, ads and their daily
//! metrics; Pages with their Instagram accounts, daily metrics, posts and media), what the Login
//! dialog and the token endpoint issued, the report runs, the failures a test scheduled, and
//! every request and budget change received.
//!
//! How the daily numbers add up, so a test can compute expected totals on its own:
//! - the only seeded ads metrics are one ad's day ([`super::FakeMeta::set_day`]): spend in the
//!   account's currency as a decimal string with at most two decimals, impressions and clicks; a
//!   later `set_day` for the same ad and day replaces the row, as Meta restates recent days,
//! - an ad set's day is the sum of its ads' rows that day, a campaign's the sum of its ad sets',
//!   an account's the sum of its campaigns': every `level` reports the same grand total,
//! - spend adds up exactly (in hundredths, never floats) and is written trimmed: `"12.3"`, `"0"`,
//!   `"1250.07"`; impressions and clicks are integer strings,
//! - an object with no ad row on a day has no insights row for that day (Meta leaves out rows
//!   without delivery), and status never changes the numbers: a paused ad's days still count,
//! - Page and Instagram metrics are per metric and day as seeded, a day not seeded reads 0, and a
//!   `total_value` is the sum of the days in `[since, until)`.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::{Arc, Mutex};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use serde_json::Value;

use crate::fakes::day::Day;
use crate::fakes::recorder::RequestLog;
use crate::fakes::schedule::FailureSchedule;

/// `configured_status` of a campaign, ad set or ad.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Status {
    #[default]
    Active,
    Paused,
    Deleted,
    Archived,
}

impl Status {
    pub(crate) fn wire(self) -> &'static str {
        match self {
            Self::Active => "ACTIVE",
            Self::Paused => "PAUSED",
            Self::Deleted => "DELETED",
            Self::Archived => "ARCHIVED",
        }
    }
}

/// Where an object's budget lives, in the currency's minor units (cents for USD).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Budget {
    /// No budget of its own: a campaign whose ad sets carry the budgets, or an ad set under a
    /// campaign budget (Advantage campaign budget).
    #[default]
    None,
    Daily(i64),
    Lifetime(i64),
}

/// An ad account (`act_{id}`), owned by the fake's one human.
#[derive(Debug, Clone)]
pub struct AdAccountSeed {
    /// The digits of `act_{id}` (`account_id`).
    pub id: i64,
    pub name: String,
    pub currency: String,
    pub timezone_name: String,
    /// `account_status`: 1 active, 2 disabled, 3 unsettled, 101 closed, ...
    pub account_status: i64,
}

impl AdAccountSeed {
    /// An active account in `America/Los_Angeles`.
    pub fn new(id: i64, name: &str, currency: &str) -> Self {
        Self {
            id,
            name: name.to_owned(),
            currency: currency.to_owned(),
            timezone_name: "America/Los_Angeles".to_owned(),
            account_status: 1,
        }
    }

    pub fn timezone(mut self, timezone_name: &str) -> Self {
        self.timezone_name = timezone_name.to_owned();
        self
    }

    pub fn account_status(mut self, status: i64) -> Self {
        self.account_status = status;
        self
    }
}

/// A campaign; without [`Self::daily_budget`] or [`Self::lifetime_budget`] its ad sets carry the
/// budgets.
#[derive(Debug, Clone)]
pub struct CampaignSeed {
    pub id: i64,
    pub name: String,
    pub status: Status,
    pub objective: String,
    pub budget: Budget,
}

impl CampaignSeed {
    /// An active `OUTCOME_SALES` campaign without a campaign budget.
    pub fn new(id: i64, name: &str) -> Self {
        Self {
            id,
            name: name.to_owned(),
            status: Status::Active,
            objective: "OUTCOME_SALES".to_owned(),
            budget: Budget::None,
        }
    }

    /// A campaign (Advantage campaign) daily budget in minor units.
    pub fn daily_budget(mut self, minor: i64) -> Self {
        self.budget = Budget::Daily(minor);
        self
    }

    pub fn lifetime_budget(mut self, minor: i64) -> Self {
        self.budget = Budget::Lifetime(minor);
        self
    }

    pub fn status(mut self, status: Status) -> Self {
        self.status = status;
        self
    }

    pub fn paused(self) -> Self {
        self.status(Status::Paused)
    }

    pub fn objective(mut self, objective: &str) -> Self {
        self.objective = objective.to_owned();
        self
    }
}

#[derive(Debug, Clone)]
pub struct AdSetSeed {
    pub id: i64,
    pub campaign: i64,
    pub name: String,
    pub status: Status,
    pub budget: Budget,
}

impl AdSetSeed {
    /// An active ad set without a budget of its own.
    pub fn new(id: i64, campaign: i64, name: &str) -> Self {
        Self {
            id,
            campaign,
            name: name.to_owned(),
            status: Status::Active,
            budget: Budget::None,
        }
    }

    /// An ad set daily budget in minor units (its campaign must not have a campaign budget).
    pub fn daily_budget(mut self, minor: i64) -> Self {
        self.budget = Budget::Daily(minor);
        self
    }

    pub fn lifetime_budget(mut self, minor: i64) -> Self {
        self.budget = Budget::Lifetime(minor);
        self
    }

    pub fn status(mut self, status: Status) -> Self {
        self.status = status;
        self
    }

    pub fn paused(self) -> Self {
        self.status(Status::Paused)
    }
}

#[derive(Debug, Clone)]
pub struct AdSeed {
    pub id: i64,
    pub adset: i64,
    pub name: String,
    pub status: Status,
}

impl AdSeed {
    pub fn new(id: i64, adset: i64, name: &str) -> Self {
        Self {
            id,
            adset,
            name: name.to_owned(),
            status: Status::Active,
        }
    }

    pub fn status(mut self, status: Status) -> Self {
        self.status = status;
        self
    }
}

/// One ad's day, as Meta reports it: `spend` a decimal string in the account currency.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Metrics {
    pub spend: String,
    pub impressions: i64,
    pub clicks: i64,
}

impl Metrics {
    pub fn new(spend: &str, impressions: i64, clicks: i64) -> Self {
        Self {
            spend: spend.to_owned(),
            impressions,
            clicks,
        }
    }
}

/// A post on a Page (`GET /{page-id}/posts`); its id is written `{page-id}_{id}`.
#[derive(Debug, Clone)]
pub struct PostSeed {
    pub id: i64,
    pub message: String,
    /// ISO 8601 as Graph writes it: `2026-11-20T10:00:00+0000`.
    pub created_time: String,
    pub reactions: i64,
    pub comments: i64,
    pub shares: i64,
}

impl PostSeed {
    pub fn new(id: i64, message: &str, created_time: &str) -> Self {
        Self {
            id,
            message: message.to_owned(),
            created_time: created_time.to_owned(),
            reactions: 0,
            comments: 0,
            shares: 0,
        }
    }

    /// Its reactions, comments and shares (the `reactions` and `comments` edges' summaries,
    /// the `shares` field).
    pub fn engagement(mut self, reactions: i64, comments: i64, shares: i64) -> Self {
        self.reactions = reactions;
        self.comments = comments;
        self.shares = shares;
        self
    }
}

/// A media object of an Instagram account (`GET /{ig-user-id}/media`).
#[derive(Debug, Clone)]
pub struct MediaSeed {
    pub id: i64,
    pub caption: String,
    /// `IMAGE`, `VIDEO` or `CAROUSEL_ALBUM`.
    pub media_type: String,
    /// ISO 8601 as Graph writes it: `2026-11-20T10:00:00+0000`.
    pub timestamp: String,
    pub like_count: i64,
    pub comments_count: i64,
}

impl MediaSeed {
    /// An image without likes or comments.
    pub fn new(id: i64, caption: &str, timestamp: &str) -> Self {
        Self {
            id,
            caption: caption.to_owned(),
            media_type: "IMAGE".to_owned(),
            timestamp: timestamp.to_owned(),
            like_count: 0,
            comments_count: 0,
        }
    }

    pub fn media_type(mut self, media_type: &str) -> Self {
        self.media_type = media_type.to_owned();
        self
    }

    pub fn likes(mut self, count: i64) -> Self {
        self.like_count = count;
        self
    }

    pub fn comments(mut self, count: i64) -> Self {
        self.comments_count = count;
        self
    }
}

/// An Instagram professional account linked to a Page (`instagram_business_account`).
#[derive(Debug, Clone)]
pub struct IgAccountSeed {
    pub id: i64,
    pub username: String,
    pub followers_count: i64,
    pub follows_count: i64,
    /// `(day, metric, value)`.
    pub days: Vec<(String, String, i64)>,
    pub media: Vec<MediaSeed>,
}

impl IgAccountSeed {
    pub fn new(id: i64, username: &str) -> Self {
        Self {
            id,
            username: username.to_owned(),
            followers_count: 0,
            follows_count: 0,
            days: Vec::new(),
            media: Vec::new(),
        }
    }

    pub fn followers(mut self, count: i64) -> Self {
        self.followers_count = count;
        self
    }

    /// One day's metrics (`reach`, `follower_count`, `views`, `accounts_engaged`, ...).
    pub fn day(mut self, day: &str, metrics: &[(&str, i64)]) -> Self {
        for (metric, value) in metrics {
            self.days
                .push((day.to_owned(), (*metric).to_owned(), *value));
        }
        self
    }

    pub fn media(mut self, media: MediaSeed) -> Self {
        self.media.push(media);
        self
    }
}

/// A Facebook Page the human manages (listed by `GET /me/accounts`).
#[derive(Debug, Clone)]
pub struct PageSeed {
    pub id: i64,
    pub name: String,
    pub category: String,
    pub followers_count: i64,
    pub fan_count: i64,
    pub instagram: Option<IgAccountSeed>,
    /// `(day, metric, value)`.
    pub days: Vec<(String, String, i64)>,
    pub posts: Vec<PostSeed>,
}

impl PageSeed {
    pub fn new(id: i64, name: &str) -> Self {
        Self {
            id,
            name: name.to_owned(),
            category: "Shopping & retail".to_owned(),
            followers_count: 0,
            fan_count: 0,
            instagram: None,
            days: Vec::new(),
            posts: Vec::new(),
        }
    }

    pub fn followers(mut self, count: i64) -> Self {
        self.followers_count = count;
        self
    }

    pub fn fans(mut self, count: i64) -> Self {
        self.fan_count = count;
        self
    }

    pub fn instagram(mut self, account: IgAccountSeed) -> Self {
        self.instagram = Some(account);
        self
    }

    /// One day's Page metrics (`page_media_view`, `page_post_engagements`, ...).
    pub fn day(mut self, day: &str, metrics: &[(&str, i64)]) -> Self {
        for (metric, value) in metrics {
            self.days
                .push((day.to_owned(), (*metric).to_owned(), *value));
        }
        self
    }

    pub fn post(mut self, post: PostSeed) -> Self {
        self.posts.push(post);
        self
    }
}

/// A failure a test schedules with `FakeMeta::fail_next`, answered in Meta's documented shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fail {
    /// Business Use Case limit of the Ads Insights API: `(#80000)`, subcode 2446079, with
    /// `X-Business-Use-Case-Usage` (`type: ads_insights`) giving this
    /// `estimated_time_to_regain_access` in minutes.
    InsightsThrottled { minutes: u32 },
    /// Business Use Case limit of ads management: `(#80004)`, subcode 2446079, usage header
    /// `type: ads_management`.
    ManagementThrottled { minutes: u32 },
    /// Ad-account-level limit: `(#17) User request limit reached`, subcode 2446079, with
    /// `X-Ad-Account-Usage` giving this `reset_time_duration` in seconds.
    AdAccountThrottled { reset_seconds: u32 },
    /// Application-level limit: `(#4) Application request limit reached`, with `X-App-Usage`.
    AppThrottled,
    /// Pages limit: `(#80001)` for a Page token, `(#32)` for a user token; usage header
    /// `type: pages`.
    PagesThrottled { minutes: u32 },
    /// Instagram limit: `(#80002)`, usage header `type: instagram`.
    InstagramThrottled { minutes: u32 },
    /// HTTP 500, `(#2)` "Please retry your request later", `is_transient: true`.
    Transient,
    /// HTTP 500, `(#1) An unknown error has occurred.`
    Unknown,
    /// The access token has expired: `190`, subcode 463.
    TokenExpired,
}

/// Which budget a write changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BudgetField {
    Daily,
    Lifetime,
}

impl BudgetField {
    pub(crate) fn wire(self) -> &'static str {
        match self {
            Self::Daily => "daily_budget",
            Self::Lifetime => "lifetime_budget",
        }
    }
}

/// One accepted budget write (`POST /{campaign-id}` or `POST /{adset-id}`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BudgetChange {
    /// The campaign or ad set.
    pub object: i64,
    pub field: BudgetField,
    /// The amount before, in minor units.
    pub from: i64,
    pub to: i64,
}

// ---- what the fake holds -------------------------------------------------------------------

#[derive(Debug, Clone)]
pub(crate) struct AdAccount {
    pub id: i64,
    pub name: String,
    pub currency: String,
    pub timezone_name: String,
    pub account_status: i64,
}

#[derive(Debug, Clone)]
pub(crate) struct Campaign {
    pub id: i64,
    pub account: i64,
    pub name: String,
    pub status: Status,
    pub objective: String,
    pub budget: Budget,
}

#[derive(Debug, Clone)]
pub(crate) struct AdSet {
    pub id: i64,
    pub account: i64,
    pub campaign: i64,
    pub name: String,
    pub status: Status,
    pub budget: Budget,
    /// When its budget was changed (Meta allows four changes an hour).
    pub budget_writes: Vec<Instant>,
}

#[derive(Debug, Clone)]
pub(crate) struct Ad {
    pub id: i64,
    pub account: i64,
    pub campaign: i64,
    pub adset: i64,
    pub name: String,
    pub status: Status,
}

/// Additive ads metrics; spend in hundredths of the currency unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Stats {
    pub spend_hundredths: i64,
    pub impressions: i64,
    pub clicks: i64,
}

impl Stats {
    pub fn add(&mut self, other: Stats) {
        self.spend_hundredths += other.spend_hundredths;
        self.impressions += other.impressions;
        self.clicks += other.clicks;
    }
}

/// `"12.34"` in hundredths; `None` for anything but digits with at most two decimals.
pub(crate) fn parse_spend(text: &str) -> Option<i64> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || !digits(whole) || !digits(fraction) || fraction.len() > 2 {
        return None;
    }
    let whole: i64 = whole.parse().ok()?;
    let fraction: i64 = format!("{fraction:0<2}").parse().ok()?;
    whole.checked_mul(100)?.checked_add(fraction)
}

/// Hundredths as Meta writes spend: trimmed, `"12.3"`, `"0"`.
pub(crate) fn format_spend(hundredths: i64) -> String {
    let sign = if hundredths < 0 { "-" } else { "" };
    let magnitude = hundredths.unsigned_abs();
    let (whole, fraction) = (magnitude / 100, magnitude % 100);
    match fraction {
        0 => format!("{sign}{whole}"),
        f if f % 10 == 0 => format!("{sign}{whole}.{}", f / 10),
        f => format!("{sign}{whole}.{f:02}"),
    }
}

#[derive(Debug, Clone)]
pub(crate) struct Page {
    pub id: i64,
    pub name: String,
    pub category: String,
    pub followers_count: i64,
    pub fan_count: i64,
    pub instagram: Option<i64>,
    pub metrics: BTreeMap<(String, Day), i64>,
    pub posts: Vec<PostSeed>,
    /// The Page access token `/me/accounts` hands out.
    pub token: String,
}

#[derive(Debug, Clone)]
pub(crate) struct IgAccount {
    pub id: i64,
    pub page: i64,
    pub username: String,
    pub followers_count: i64,
    pub follows_count: i64,
    pub metrics: BTreeMap<(String, Day), i64>,
    pub media: Vec<MediaSeed>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TokenKind {
    User,
    /// A Page access token of this Page.
    Page(i64),
}

#[derive(Debug, Clone)]
pub(crate) struct Token {
    pub kind: TokenKind,
    pub scopes: Vec<String>,
    /// Unix seconds; `None` never expires.
    pub expires_at: Option<u64>,
    /// A test expired it ahead of time.
    pub expired: bool,
    /// The human removed the app (`DELETE /me/permissions`): subcode 458.
    pub revoked: bool,
    /// The human changed their password: subcode 460.
    pub invalidated: bool,
}

/// Short-lived user tokens from the code exchange live an hour.
pub(crate) const SHORT_LIVED_SECONDS: u64 = 3600;
/// Long-lived user tokens live about 60 days (the documented example's `expires_in`).
pub(crate) const LONG_LIVED_SECONDS: u64 = 5_183_944;
/// Authorization codes live ten minutes.
pub(crate) const CODE_SECONDS: u64 = 600;

/// The scopes a Page token can carry (those of the user token that listed it, within these).
pub(crate) const PAGE_SCOPES: &[&str] = &[
    "pages_show_list",
    "pages_read_engagement",
    "read_insights",
    "instagram_basic",
    "instagram_manage_insights",
];

#[derive(Debug, Clone)]
pub(crate) struct Code {
    pub redirect_uri: String,
    pub scopes: Vec<String>,
    pub issued: Instant,
    pub used: bool,
    /// The dialog's PKCE `code_challenge` and its method (`S256` or `plain`), when it had one:
    /// the exchange must then send the matching `code_verifier`.
    pub challenge: Option<(String, String)>,
}

#[derive(Debug, Default)]
pub(crate) struct Oauth {
    pub codes: HashMap<String, Code>,
    /// The human cancels the Login dialog.
    pub human_refuses: bool,
    /// Permissions the human unticks in the dialog.
    pub human_declines: BTreeSet<String>,
    /// Permissions the human declined (listed by `/me/permissions` as `declined`).
    pub declined: BTreeSet<String>,
    /// Valid OAuth redirect URIs; empty: any http(s) URI.
    pub redirect_uris: Vec<String>,
    /// Facebook Login for Business configurations (`config_id` -> permissions).
    pub login_configs: HashMap<String, Vec<String>>,
    /// Calls without a valid `appsecret_proof` are refused.
    pub require_proof: bool,
}

/// An asynchronous insights job (`POST /act_{id}/insights`).
#[derive(Debug, Clone)]
pub(crate) struct ReportRun {
    pub id: String,
    pub account: i64,
    pub rows: Vec<Value>,
    pub date_start: Day,
    pub date_stop: Day,
    pub time_ref: u64,
    /// "Job Running" answers left before the job ends.
    pub polls_left: u32,
    pub polls_total: u32,
    pub fails: bool,
}

impl ReportRun {
    pub fn status(&self) -> &'static str {
        match (self.polls_left, self.fails) {
            (0, true) => "Job Failed",
            (0, false) => "Job Completed",
            _ => "Job Running",
        }
    }

    pub fn percent(&self) -> u32 {
        match (self.polls_left, self.fails) {
            (0, false) => 100,
            _ => {
                let done = self.polls_total.saturating_sub(self.polls_left);
                100 * done / (self.polls_total + 1)
            }
        }
    }
}

/// The state as the server's handlers share it.
pub(crate) type Shared = Arc<Mutex<State>>;

#[derive(Debug)]
pub(crate) struct State {
    pub app_id: String,
    pub app_secret: String,
    pub user_id: i64,
    pub user_name: String,
    /// The origin paging URLs point at.
    pub base: String,
    pub page_size: usize,
    pub today: Option<Day>,
    pub accounts: Vec<AdAccount>,
    pub campaigns: Vec<Campaign>,
    pub adsets: Vec<AdSet>,
    pub ads: Vec<Ad>,
    pub daily: BTreeMap<(i64, Day), Stats>,
    pub pages: Vec<Page>,
    pub instagram: Vec<IgAccount>,
    pub tokens: HashMap<String, Token>,
    pub oauth: Oauth,
    pub reports: Vec<ReportRun>,
    /// "Job Running" answers each new report run gives before it ends.
    pub report_polls: u32,
    /// The next report run ends "Job Failed".
    pub fail_next_report: bool,
    pub budget_changes: Vec<BudgetChange>,
    pub log: RequestLog,
    pub scheduled: FailureSchedule<Fail>,
    pub counter: u64,
}

pub(crate) fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|elapsed| elapsed.as_secs())
        .unwrap_or(0)
}

impl State {
    pub fn new(app_id: String, app_secret: String, base: String, page_size: usize) -> Self {
        Self {
            app_id,
            app_secret,
            user_id: 100_012_345_678_901,
            user_name: "Pat Payback".to_owned(),
            base,
            page_size: page_size.max(1),
            today: None,
            accounts: Vec::new(),
            campaigns: Vec::new(),
            adsets: Vec::new(),
            ads: Vec::new(),
            daily: BTreeMap::new(),
            pages: Vec::new(),
            instagram: Vec::new(),
            tokens: HashMap::new(),
            oauth: Oauth::default(),
            reports: Vec::new(),
            report_polls: 2,
            fail_next_report: false,
            budget_changes: Vec::new(),
            log: RequestLog::default(),
            scheduled: FailureSchedule::default(),
            counter: 0,
        }
    }

    /// A fresh opaque value with `prefix` (tokens, codes).
    pub fn mint(&mut self, prefix: &str) -> String {
        self.counter += 1;
        format!("{prefix}{}{}", self.counter, uuid::Uuid::new_v4().simple())
    }

    /// A fresh numeric id (report runs), as Graph's ids are digits.
    pub fn mint_id(&mut self) -> String {
        self.counter += 1;
        (6_023_920_149_050u64 + self.counter).to_string()
    }

    /// An `fbtrace_id`: short, opaque, different every answer.
    pub fn mint_trace(&mut self) -> String {
        self.counter += 1;
        let noise = uuid::Uuid::new_v4().simple().to_string();
        format!("A{}{}", self.counter, &noise[..10])
    }

    pub fn today(&self) -> Day {
        self.today.unwrap_or_else(Day::today)
    }

    pub fn issue_token(
        &mut self,
        kind: TokenKind,
        scopes: Vec<String>,
        lifetime: Option<u64>,
    ) -> String {
        let prefix = match kind {
            TokenKind::User => "EAAfakeUser",
            TokenKind::Page(_) => "EAAfakePage",
        };
        let token = self.mint(prefix);
        self.tokens.insert(
            token.clone(),
            Token {
                kind,
                scopes,
                expires_at: lifetime.map(|seconds| unix_now() + seconds),
                expired: false,
                revoked: false,
                invalidated: false,
            },
        );
        token
    }

    pub fn account(&self, id: i64) -> Option<&AdAccount> {
        self.accounts.iter().find(|a| a.id == id)
    }

    pub fn campaign(&self, id: i64) -> Option<&Campaign> {
        self.campaigns.iter().find(|c| c.id == id)
    }

    pub fn adset(&self, id: i64) -> Option<&AdSet> {
        self.adsets.iter().find(|s| s.id == id)
    }

    pub fn ad(&self, id: i64) -> Option<&Ad> {
        self.ads.iter().find(|a| a.id == id)
    }

    pub fn page(&self, id: i64) -> Option<&Page> {
        self.pages.iter().find(|p| p.id == id)
    }

    pub fn ig(&self, id: i64) -> Option<&IgAccount> {
        self.instagram.iter().find(|i| i.id == id)
    }

    fn id_taken(&self, id: i64) -> bool {
        self.account(id).is_some()
            || self.campaign(id).is_some()
            || self.adset(id).is_some()
            || self.ad(id).is_some()
            || self.page(id).is_some()
            || self.ig(id).is_some()
            || id == self.user_id
    }

    // ---- seeding (a seed that does not fit is a mistake in the test: panic) --------------

    pub fn add_account(&mut self, seed: AdAccountSeed) {
        assert!(!self.id_taken(seed.id), "id {} seeded twice", seed.id);
        self.accounts.push(AdAccount {
            id: seed.id,
            name: seed.name,
            currency: seed.currency,
            timezone_name: seed.timezone_name,
            account_status: seed.account_status,
        });
    }

    pub fn add_campaign(&mut self, account: i64, seed: CampaignSeed) {
        assert!(
            self.account(account).is_some(),
            "ad account {account} is not seeded"
        );
        assert!(!self.id_taken(seed.id), "id {} seeded twice", seed.id);
        self.campaigns.push(Campaign {
            id: seed.id,
            account,
            name: seed.name,
            status: seed.status,
            objective: seed.objective,
            budget: seed.budget,
        });
    }

    pub fn add_adset(&mut self, seed: AdSetSeed) {
        let Some(campaign) = self.campaign(seed.campaign).cloned() else {
            panic!("campaign {} is not seeded", seed.campaign);
        };
        assert!(!self.id_taken(seed.id), "id {} seeded twice", seed.id);
        assert!(
            campaign.budget == Budget::None || seed.budget == Budget::None,
            "ad set {} has a budget under campaign {}, which has a campaign budget (Meta allows one or the other)",
            seed.id,
            campaign.id
        );
        self.adsets.push(AdSet {
            id: seed.id,
            account: campaign.account,
            campaign: campaign.id,
            name: seed.name,
            status: seed.status,
            budget: seed.budget,
            budget_writes: Vec::new(),
        });
    }

    pub fn add_ad(&mut self, seed: AdSeed) {
        let Some(adset) = self.adset(seed.adset).cloned() else {
            panic!("ad set {} is not seeded", seed.adset);
        };
        assert!(!self.id_taken(seed.id), "id {} seeded twice", seed.id);
        self.ads.push(Ad {
            id: seed.id,
            account: adset.account,
            campaign: adset.campaign,
            adset: adset.id,
            name: seed.name,
            status: seed.status,
        });
    }

    pub fn set_day(&mut self, ad: i64, day: Day, metrics: &Metrics) {
        assert!(self.ad(ad).is_some(), "ad {ad} is not seeded");
        let Some(spend) = parse_spend(&metrics.spend) else {
            panic!(
                "spend {:?} is not a decimal with at most two decimals",
                metrics.spend
            );
        };
        self.daily.insert(
            (ad, day),
            Stats {
                spend_hundredths: spend,
                impressions: metrics.impressions,
                clicks: metrics.clicks,
            },
        );
    }

    pub fn add_page(&mut self, seed: PageSeed) {
        assert!(!self.id_taken(seed.id), "id {} seeded twice", seed.id);
        let instagram = seed.instagram.map(|ig| {
            assert!(!self.id_taken(ig.id), "id {} seeded twice", ig.id);
            let account = IgAccount {
                id: ig.id,
                page: seed.id,
                username: ig.username,
                followers_count: ig.followers_count,
                follows_count: ig.follows_count,
                metrics: day_metrics(&ig.days),
                media: ig.media,
            };
            self.instagram.push(account);
            ig.id
        });
        let scopes = PAGE_SCOPES.iter().map(|s| (*s).to_owned()).collect();
        let token = self.issue_token(TokenKind::Page(seed.id), scopes, None);
        self.pages.push(Page {
            id: seed.id,
            name: seed.name,
            category: seed.category,
            followers_count: seed.followers_count,
            fan_count: seed.fan_count,
            instagram,
            metrics: day_metrics(&seed.days),
            posts: seed.posts,
            token,
        });
    }
}

fn day_metrics(days: &[(String, String, i64)]) -> BTreeMap<(String, Day), i64> {
    days.iter()
        .map(|(day, metric, value)| {
            let Some(parsed) = Day::parse(day) else {
                panic!("metric days are YYYY-MM-DD, not {day:?}");
            };
            ((metric.clone(), parsed), *value)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spend_round_trips_in_hundredths() {
        assert_eq!(parse_spend("12.34"), Some(1234));
        assert_eq!(parse_spend("12.3"), Some(1230));
        assert_eq!(parse_spend("12"), Some(1200));
        assert_eq!(parse_spend("0"), Some(0));
        assert_eq!(parse_spend("1.234"), None);
        assert_eq!(parse_spend("-1"), None);
        assert_eq!(parse_spend(".5"), None);
        assert_eq!(format_spend(1234), "12.34");
        assert_eq!(format_spend(1230), "12.3");
        assert_eq!(format_spend(1205), "12.05");
        assert_eq!(format_spend(1200), "12");
        assert_eq!(format_spend(0), "0");
    }
}
