//! The kind table: the one list of source kinds. Each row says everything the rest of Payback
//! asks about a kind (its words, how it connects, how often and how far back it syncs, whether
//! a person may sync it on demand, where its spend lands, whether it can change budgets, which
//! variable points it at its vendor, how a sentence names it, which health check rates it, a
//! database's engine, where an ad network's account id is stored). Every other list (the vocabulary, the sync-now kinds, the
//! health check's freshness, the base-URL variables) is computed from these rows, so a kind
//! added here is known everywhere at once. Kinds whose connector has not arrived are rows too:
//! the spec's vocabulary names them, and their connect routes simply do not exist yet.

use crate::channel::{PAID_GOOGLE, PAID_LINKEDIN, PAID_META};
use crate::event_map::FieldSyntax;
use crate::{DAY_MS, HOUR_MS};

/// How a kind is connected, which decides its connect flow and what disconnecting revokes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// One search-engine grant (`searchco`) serves these kinds.
    SearchGrant,
    /// One social-network grant (`socialco`) serves these kinds.
    SocialGrant,
    /// A key (or token) pasted into a connect form.
    Key,
    /// A customer's database read through event maps.
    Database,
    /// The payment processor.
    Payments,
}

impl Family {
    /// Grants hold a refresh or long-lived token the vendor can revoke; keys and database
    /// credentials are the customer's own and stay theirs.
    pub fn revokes_upstream(self) -> bool {
        matches!(self, Family::SearchGrant | Family::SocialGrant)
    }
}

/// How long after a successful run the next one is due.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cadence {
    Hourly,
    /// Sources whose vendor computes the numbers once a day (analytics, snapshots).
    Daily,
    /// Metered sources, where every read costs the customer units.
    Weekly,
}

impl Cadence {
    pub fn millis(self) -> i64 {
        match self {
            Cadence::Hourly => HOUR_MS,
            Cadence::Daily => DAY_MS,
            Cadence::Weekly => 7 * DAY_MS,
        }
    }
}

/// Where an ad network's spend lands: the `network` and `channel` of its spend rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpendLanding {
    /// `google`, `meta`, `linkedin`: the network word of spend rows and proposals.
    pub network: &'static str,
    /// The attribution channel the spend is reported under (`paid_google`, ...).
    pub channel: &'static str,
}

/// The engine of a customer database (the [`Family::Database`] rows), which decides how its
/// fields are named and which driver reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DatabaseEngine {
    /// PostgreSQL.
    Postgres,
    /// MySQL or MariaDB.
    MySql,
    /// MongoDB.
    Mongo,
}

impl DatabaseEngine {
    /// How event maps name this engine's fields: relational columns, or document paths.
    pub fn field_syntax(self) -> FieldSyntax {
        match self {
            DatabaseEngine::Postgres | DatabaseEngine::MySql => FieldSyntax::Column,
            DatabaseEngine::Mongo => FieldSyntax::Path,
        }
    }
}

/// Which check of the health report rates a kind's connections (their freshness): every kind
/// feeds exactly one, so a kind added to the table is rated without touching the checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HealthArea {
    /// `tracking.payments`: the payment processor's revenue.
    Payments,
    /// `advertising.ad_spend`: the ad networks' spend.
    AdSpend,
    /// `seo_social.search_console`: search engines' webmaster data.
    SearchConsole,
    /// `seo_social.social_pages`: the product's social accounts.
    SocialPages,
    /// `seo_social.seo_metrics`: rankings, domain authority, AI-search visibility.
    SeoMetrics,
    /// `tracking.sources`: every other source (customer databases, web and product analytics,
    /// the tag manager, session replay).
    OtherSources,
}

/// A part of the demand report a kind's snapshots feed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DemandPart {
    /// Search queries with clicks, impressions and position.
    Queries,
    /// The daily search (and AI-visibility) trend.
    Trend,
    /// Keyword ranks.
    Ranks,
    /// Domain authority and organic reach.
    Authority,
    /// AI-search visibility by engine, and site health.
    AiVisibility,
    /// Keywords a competitor ranks better for.
    Gaps,
}

impl DemandPart {
    /// The part's word in the report's `sources[].parts`.
    pub fn word(self) -> &'static str {
        match self {
            DemandPart::Queries => "queries",
            DemandPart::Trend => "trend",
            DemandPart::Ranks => "ranks",
            DemandPart::Authority => "authority",
            DemandPart::AiVisibility => "ai_visibility",
            DemandPart::Gaps => "gaps",
        }
    }
}

/// One row of the kind table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KindSpec {
    pub kind: ConnectionKind,
    /// What people call it (the dashboard's name for a connection of this kind).
    pub label: &'static str,
    /// How a sentence names it, e.g. a prompt listing a product's stack (`Stripe for
    /// payments`, `a PostgreSQL database`).
    pub prose: &'static str,
    /// The `kind` value on the wire and in the database (`sql_a`).
    pub wire: &'static str,
    /// The word in dedicated paths (`sql-a`).
    pub path: &'static str,
    pub family: Family,
    /// Whether this build has the kind's connector, so the kind can be connected today (the
    /// server opens it, the dashboard offers its form); the other rows are the spec's
    /// vocabulary waiting for theirs.
    pub connectable: bool,
    pub cadence: Cadence,
    /// Days every run re-reads once the backfill ladder is climbed.
    pub recent_days: i64,
    /// Whether `POST .../{kind}/sync` may start a run.
    pub sync_now: bool,
    /// Whether reads are rationed by the vendor (units, requests per day): never on demand.
    pub quota_bound: bool,
    /// Ad networks: where their spend rows land.
    pub spend: Option<SpendLanding>,
    /// Whether an approved spend proposal can be applied through this kind.
    pub changes_budgets: bool,
    /// The variable naming the vendor's base URL, `PAYBACK_<KIND>_API_URL` (none for customer
    /// databases, which are dialed where the customer says).
    pub api_url_var: Option<&'static str>,
    /// An older name of the same variable, still read (documented in the README).
    pub api_url_alias: Option<&'static str>,
    /// The health report's check that rates its connections.
    pub health: HealthArea,
    /// Customer databases: the engine read.
    pub database_engine: Option<DatabaseEngine>,
    /// Whether an operator may set it up from the API host's environment variables (the
    /// `*_env` names) instead of credentials; such a kind may also be staged without either.
    pub env_setup: bool,
    /// Ad networks: the field of the connection's config holding the network's own id of the
    /// ad account (the Google Ads customer id, the Meta ad account id).
    pub ad_account_field: Option<&'static str>,
    /// Whether the ad account carries a final URL suffix Payback checks and completes (the
    /// health check `advertising.url_suffix`).
    pub final_url_suffix: bool,
    /// The parts of the demand report its snapshots feed (`GET /products/{slug}/demand`
    /// lists every kind that feeds one as a source); none for the rest.
    pub demand: &'static [DemandPart],
}

/// Declares [`ConnectionKind`] and [`KINDS`] from one list, so the enum and the table cannot
/// drift apart: variant `i` is row `i`.
macro_rules! kind_table {
    ($($variant:ident { $($field:ident: $value:expr),+ $(,)? })+) => {
        /// A source kind of the spec's vocabulary; its facts are its row of [`KINDS`].
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum ConnectionKind {
            $($variant),+
        }

        /// The kind table, in the spec's order.
        pub const KINDS: &[KindSpec] = &[$(KindSpec { kind: ConnectionKind::$variant, $($field: $value),+ }),+];
    };
}

const NO_SPEND: Option<SpendLanding> = None;
const NOT_A_DATABASE: Option<DatabaseEngine> = None;
const NO_AD_ACCOUNT: Option<&str> = None;
const NO_DEMAND: &[DemandPart] = &[];

kind_table! {
    AnalyticsA {
        label: "Web analytics",
        prose: "web analytics",
        wire: "analytics_a", path: "analytics-a", family: Family::SearchGrant, connectable: true,
        cadence: Cadence::Daily, recent_days: 3, sync_now: true, quota_bound: false,
        spend: NO_SPEND, changes_budgets: false,
        api_url_var: Some("PAYBACK_ANALYTICS_A_API_URL"), api_url_alias: None,
        health: HealthArea::OtherSources, database_engine: NOT_A_DATABASE, env_setup: false,
        ad_account_field: NO_AD_ACCOUNT, final_url_suffix: false,
        demand: NO_DEMAND,
    }
    Tagmgr {
        label: "Tag manager",
        prose: "a tag manager",
        wire: "tagmgr", path: "tagmgr", family: Family::SearchGrant, connectable: true,
        cadence: Cadence::Hourly, recent_days: 7, sync_now: true, quota_bound: false,
        spend: NO_SPEND, changes_budgets: false,
        api_url_var: Some("PAYBACK_TAGMGR_API_URL"), api_url_alias: None,
        health: HealthArea::OtherSources, database_engine: NOT_A_DATABASE, env_setup: false,
        ad_account_field: NO_AD_ACCOUNT, final_url_suffix: false,
        demand: NO_DEMAND,
    }
    // Synced by its own schedule only: the spec's sync-now list leaves the ads account out.
    SearchAds {
        label: "Google Ads",
        prose: "Google Ads",
        wire: "search_ads", path: "search-ads", family: Family::SearchGrant, connectable: true,
        cadence: Cadence::Hourly, recent_days: 7, sync_now: false, quota_bound: false,
        spend: Some(SpendLanding { network: "google", channel: PAID_GOOGLE }),
        changes_budgets: true,
        api_url_var: Some("PAYBACK_SEARCH_ADS_API_URL"), api_url_alias: None,
        health: HealthArea::AdSpend, database_engine: NOT_A_DATABASE, env_setup: false,
        ad_account_field: Some("customer_id"), final_url_suffix: true,
        demand: NO_DEMAND,
    }
    SearchConsole {
        label: "Search console",
        prose: "a search console",
        wire: "search_console", path: "search-console", family: Family::SearchGrant, connectable: true,
        cadence: Cadence::Hourly, recent_days: 7, sync_now: true, quota_bound: false,
        spend: NO_SPEND, changes_budgets: false,
        api_url_var: Some("PAYBACK_SEARCH_CONSOLE_API_URL"), api_url_alias: None,
        health: HealthArea::SearchConsole, database_engine: NOT_A_DATABASE, env_setup: false,
        ad_account_field: NO_AD_ACCOUNT, final_url_suffix: false,
        demand: &[DemandPart::Queries, DemandPart::Trend],
    }
    // Daily, as the spec's connect notes say for `search_b`, `geo_a`, `social_a` and `social_b`:
    // their vendors publish daily numbers, so hourly reads would only spend requests.
    SearchB {
        label: "Second search engine's webmaster data",
        prose: "a second search engine's webmaster tools",
        wire: "search_b", path: "search-b", family: Family::Key, connectable: true,
        cadence: Cadence::Daily, recent_days: 7, sync_now: true, quota_bound: false,
        spend: NO_SPEND, changes_budgets: false,
        api_url_var: Some("PAYBACK_SEARCH_B_API_URL"), api_url_alias: None,
        health: HealthArea::SearchConsole, database_engine: NOT_A_DATABASE, env_setup: false,
        ad_account_field: NO_AD_ACCOUNT, final_url_suffix: false,
        demand: &[DemandPart::Queries, DemandPart::Trend],
    }
    // Metered: every read costs the customer units.
    SeoA {
        label: "SEO metrics",
        prose: "an SEO metrics service",
        wire: "seo_a", path: "seo-a", family: Family::Key, connectable: true,
        cadence: Cadence::Weekly, recent_days: 7, sync_now: false, quota_bound: true,
        spend: NO_SPEND, changes_budgets: false,
        api_url_var: Some("PAYBACK_SEO_A_API_URL"), api_url_alias: None,
        health: HealthArea::SeoMetrics, database_engine: NOT_A_DATABASE, env_setup: false,
        ad_account_field: NO_AD_ACCOUNT, final_url_suffix: false,
        demand: &[DemandPart::Ranks, DemandPart::Authority],
    }
    SeoB {
        label: "Domain authority and backlinks",
        prose: "a domain authority and backlinks service",
        wire: "seo_b", path: "seo-b", family: Family::Key, connectable: true,
        cadence: Cadence::Weekly, recent_days: 7, sync_now: false, quota_bound: true,
        spend: NO_SPEND, changes_budgets: false,
        api_url_var: Some("PAYBACK_SEO_B_API_URL"), api_url_alias: None,
        health: HealthArea::SeoMetrics, database_engine: NOT_A_DATABASE, env_setup: false,
        ad_account_field: NO_AD_ACCOUNT, final_url_suffix: false,
        demand: &[DemandPart::Ranks, DemandPart::Authority],
    }
    GeoA {
        label: "AI search visibility",
        prose: "AI search visibility tracking",
        wire: "geo_a", path: "geo-a", family: Family::Key, connectable: true,
        cadence: Cadence::Daily, recent_days: 7, sync_now: true, quota_bound: false,
        spend: NO_SPEND, changes_budgets: false,
        api_url_var: Some("PAYBACK_GEO_A_API_URL"), api_url_alias: None,
        health: HealthArea::SeoMetrics, database_engine: NOT_A_DATABASE, env_setup: false,
        ad_account_field: NO_AD_ACCOUNT, final_url_suffix: false,
        demand: &[DemandPart::AiVisibility, DemandPart::Ranks, DemandPart::Gaps],
    }
    // 10 export requests per project per day: one daily run keeps well inside them.
    ReplayA {
        label: "Session replay",
        prose: "session replay",
        wire: "replay_a", path: "replay-a", family: Family::Key, connectable: true,
        cadence: Cadence::Daily, recent_days: 7, sync_now: false, quota_bound: true,
        spend: NO_SPEND, changes_budgets: false,
        api_url_var: Some("PAYBACK_REPLAY_A_API_URL"), api_url_alias: None,
        health: HealthArea::OtherSources, database_engine: NOT_A_DATABASE, env_setup: false,
        ad_account_field: NO_AD_ACCOUNT, final_url_suffix: false,
        demand: NO_DEMAND,
    }
    ProductAnalyticsA {
        label: "Product analytics",
        prose: "product analytics",
        wire: "product_analytics_a", path: "product-analytics-a", family: Family::Key, connectable: true,
        cadence: Cadence::Daily, recent_days: 3, sync_now: true, quota_bound: false,
        spend: NO_SPEND, changes_budgets: false,
        api_url_var: Some("PAYBACK_PRODUCT_ANALYTICS_A_API_URL"), api_url_alias: None,
        health: HealthArea::OtherSources, database_engine: NOT_A_DATABASE, env_setup: false,
        ad_account_field: NO_AD_ACCOUNT, final_url_suffix: false,
        demand: NO_DEMAND,
    }
    SocialAdsA {
        label: "Meta ads",
        prose: "Meta ads",
        wire: "social_ads_a", path: "social-ads-a", family: Family::SocialGrant, connectable: true,
        cadence: Cadence::Hourly, recent_days: 7, sync_now: true, quota_bound: false,
        spend: Some(SpendLanding { network: "meta", channel: PAID_META }),
        changes_budgets: true,
        api_url_var: Some("PAYBACK_SOCIAL_ADS_A_API_URL"), api_url_alias: None,
        health: HealthArea::AdSpend, database_engine: NOT_A_DATABASE, env_setup: false,
        ad_account_field: Some("ad_account_id"), final_url_suffix: false,
        demand: NO_DEMAND,
    }
    // Spend only: proposals name `meta` and `google`, never this network.
    SocialAdsB {
        label: "LinkedIn ads",
        prose: "LinkedIn ads",
        wire: "social_ads_b", path: "social-ads-b", family: Family::Key, connectable: true,
        cadence: Cadence::Hourly, recent_days: 7, sync_now: true, quota_bound: false,
        spend: Some(SpendLanding { network: "linkedin", channel: PAID_LINKEDIN }),
        changes_budgets: false,
        api_url_var: Some("PAYBACK_SOCIAL_ADS_B_API_URL"), api_url_alias: None,
        health: HealthArea::AdSpend, database_engine: NOT_A_DATABASE, env_setup: false,
        ad_account_field: Some("ad_account_id"), final_url_suffix: false,
        demand: NO_DEMAND,
    }
    SocialA {
        label: "Facebook page",
        prose: "a Facebook page",
        wire: "social_a", path: "social-a", family: Family::SocialGrant, connectable: true,
        cadence: Cadence::Daily, recent_days: 7, sync_now: true, quota_bound: false,
        spend: NO_SPEND, changes_budgets: false,
        api_url_var: Some("PAYBACK_SOCIAL_A_API_URL"), api_url_alias: None,
        health: HealthArea::SocialPages, database_engine: NOT_A_DATABASE, env_setup: false,
        ad_account_field: NO_AD_ACCOUNT, final_url_suffix: false,
        demand: NO_DEMAND,
    }
    SocialB {
        label: "Microblog account",
        prose: "a microblog account",
        wire: "social_b", path: "social-b", family: Family::Key, connectable: true,
        cadence: Cadence::Daily, recent_days: 7, sync_now: true, quota_bound: false,
        spend: NO_SPEND, changes_budgets: false,
        api_url_var: Some("PAYBACK_SOCIAL_B_API_URL"), api_url_alias: None,
        health: HealthArea::SocialPages, database_engine: NOT_A_DATABASE, env_setup: false,
        ad_account_field: NO_AD_ACCOUNT, final_url_suffix: false,
        demand: NO_DEMAND,
    }
    // Hourly, for timely revenue.
    Payments {
        label: "Payments (Stripe)",
        prose: "Stripe for payments",
        wire: "payments", path: "payments", family: Family::Payments, connectable: true,
        cadence: Cadence::Hourly, recent_days: 7, sync_now: true, quota_bound: false,
        spend: NO_SPEND, changes_budgets: false,
        api_url_var: Some("PAYBACK_PAYMENTS_API_URL"),
        api_url_alias: Some("PAYBACK_STRIPE_API_BASE"),
        health: HealthArea::Payments, database_engine: NOT_A_DATABASE, env_setup: false,
        ad_account_field: NO_AD_ACCOUNT, final_url_suffix: false,
        demand: NO_DEMAND,
    }
    SqlA {
        label: "PostgreSQL database",
        prose: "a PostgreSQL database",
        wire: "sql_a", path: "sql-a", family: Family::Database, connectable: true,
        cadence: Cadence::Hourly, recent_days: 7, sync_now: true, quota_bound: false,
        spend: NO_SPEND, changes_budgets: false, api_url_var: None, api_url_alias: None,
        health: HealthArea::OtherSources, database_engine: Some(DatabaseEngine::Postgres), env_setup: true,
        ad_account_field: NO_AD_ACCOUNT, final_url_suffix: false,
        demand: NO_DEMAND,
    }
    SqlB {
        label: "MySQL or MariaDB database",
        prose: "a MySQL/MariaDB database",
        wire: "sql_b", path: "sql-b", family: Family::Database, connectable: true,
        cadence: Cadence::Hourly, recent_days: 7, sync_now: true, quota_bound: false,
        spend: NO_SPEND, changes_budgets: false, api_url_var: None, api_url_alias: None,
        health: HealthArea::OtherSources, database_engine: Some(DatabaseEngine::MySql), env_setup: false,
        ad_account_field: NO_AD_ACCOUNT, final_url_suffix: false,
        demand: NO_DEMAND,
    }
    Docdb {
        label: "MongoDB database",
        prose: "a MongoDB database",
        wire: "docdb", path: "docdb", family: Family::Database, connectable: true,
        cadence: Cadence::Hourly, recent_days: 7, sync_now: true, quota_bound: false,
        spend: NO_SPEND, changes_budgets: false, api_url_var: None, api_url_alias: None,
        health: HealthArea::OtherSources, database_engine: Some(DatabaseEngine::Mongo), env_setup: false,
        ad_account_field: NO_AD_ACCOUNT, final_url_suffix: false,
        demand: NO_DEMAND,
    }
}

impl ConnectionKind {
    /// This kind's row of the table.
    pub fn spec(self) -> &'static KindSpec {
        // In bounds by construction: `kind_table!` makes variant `i` row `i`.
        &KINDS[self as usize]
    }

    /// Every kind, in the table's order.
    pub fn all() -> impl Iterator<Item = ConnectionKind> {
        KINDS.iter().map(|spec| spec.kind)
    }

    /// The wire word (`sql_a`).
    pub fn as_str(self) -> &'static str {
        self.spec().wire
    }

    /// The kind a wire word names.
    pub fn parse(word: &str) -> Option<Self> {
        KINDS
            .iter()
            .find(|spec| spec.wire == word)
            .map(|spec| spec.kind)
    }

    /// The word in dedicated paths (`sql-a`).
    pub fn path_word(self) -> &'static str {
        self.spec().path
    }

    /// Either spelling, `sql_a` or `sql-a`.
    pub fn from_path(word: &str) -> Option<Self> {
        KINDS
            .iter()
            .find(|spec| spec.path == word || spec.wire == word)
            .map(|spec| spec.kind)
    }

    pub fn family(self) -> Family {
        self.spec().family
    }

    /// How long after a successful run the next one is due.
    pub fn cadence_ms(self) -> i64 {
        self.spec().cadence.millis()
    }

    /// Days re-read by every run once the history is complete.
    pub fn recent_days(self) -> i64 {
        self.spec().recent_days
    }

    /// Whether the kind reads a customer's database through event maps.
    pub fn is_database(self) -> bool {
        self.family() == Family::Database
    }

    /// Whether this build can connect the kind today (it has the kind's connector).
    pub fn connectable(self) -> bool {
        self.spec().connectable
    }

    /// Whether a person may start a run now.
    pub fn syncs_on_demand(self) -> bool {
        self.spec().sync_now
    }

    /// Where this kind's spend lands; `None` for kinds that report no spend.
    pub fn spend(self) -> Option<SpendLanding> {
        self.spec().spend
    }

    /// How a sentence names the kind (`Stripe for payments`).
    pub fn prose(self) -> &'static str {
        self.spec().prose
    }

    /// The health report's check that rates connections of this kind.
    pub fn health_area(self) -> HealthArea {
        self.spec().health
    }

    /// The engine of a customer database; `None` for every other kind. Relational engines map
    /// onto the SQL connector's dialects (`Postgres`, `MySql`), `Mongo` onto the document one.
    pub fn database_engine(self) -> Option<DatabaseEngine> {
        self.spec().database_engine
    }

    /// How event maps name this kind's fields: document paths for a document database, plain
    /// columns otherwise (only databases take event maps).
    pub fn field_syntax(self) -> FieldSyntax {
        self.database_engine()
            .map_or(FieldSyntax::Column, DatabaseEngine::field_syntax)
    }

    /// The path words of the kinds an operator may set up from the host's environment.
    pub fn env_setup_words() -> Vec<&'static str> {
        Self::all()
            .filter(|kind| kind.spec().env_setup)
            .map(Self::path_word)
            .collect()
    }
}

/// A stored kind read back: a word outside the table fails the read.
impl TryFrom<String> for ConnectionKind {
    type Error = crate::roles::UnknownWord;

    fn try_from(word: String) -> Result<Self, Self::Error> {
        Self::parse(&word).ok_or(crate::roles::UnknownWord {
            vocabulary: "ConnectionKind",
            word,
        })
    }
}

impl std::fmt::Display for ConnectionKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// On the wire a kind is its word (`sql_a`), the same as in the database.
impl serde::Serialize for ConnectionKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The spec's vocabulary table, in its order: the table must hold exactly these.
    const SPEC_VOCABULARY: [&str; 18] = [
        "analytics_a",
        "tagmgr",
        "search_ads",
        "search_console",
        "search_b",
        "seo_a",
        "seo_b",
        "geo_a",
        "replay_a",
        "product_analytics_a",
        "social_ads_a",
        "social_ads_b",
        "social_a",
        "social_b",
        "payments",
        "sql_a",
        "sql_b",
        "docdb",
    ];

    /// The spec's `POST .../{kind}/sync` list, plus the tag manager (its tag audit).
    const SPEC_SYNC_NOW: [&str; 14] = [
        "sql_a",
        "sql_b",
        "docdb",
        "analytics_a",
        "product_analytics_a",
        "geo_a",
        "search_console",
        "search_b",
        "social_ads_a",
        "social_ads_b",
        "social_a",
        "social_b",
        "payments",
        "tagmgr",
    ];

    #[test]
    fn the_table_is_the_specs_vocabulary_with_its_words() {
        let wires: Vec<&str> = ConnectionKind::all().map(ConnectionKind::as_str).collect();
        assert_eq!(wires, SPEC_VOCABULARY);
        for (index, spec) in KINDS.iter().enumerate() {
            assert_eq!(spec.kind as usize, index);
            assert_eq!(spec.kind.spec(), spec);
            assert_eq!(spec.path, spec.wire.replace('_', "-"), "{}", spec.wire);
            assert_eq!(ConnectionKind::parse(spec.wire), Some(spec.kind));
            assert_eq!(ConnectionKind::from_path(spec.path), Some(spec.kind));
            assert_eq!(ConnectionKind::from_path(spec.wire), Some(spec.kind));
            assert_eq!(spec.kind.to_string(), spec.wire);
            assert_eq!(
                serde_json::to_value(spec.kind).unwrap(),
                serde_json::json!(spec.wire)
            );
        }
        assert_eq!(ConnectionKind::parse("sql-a"), None);
        assert_eq!(ConnectionKind::from_path("nothing"), None);
    }

    #[test]
    fn cadences_and_windows_follow_the_spec() {
        use ConnectionKind as K;
        for kind in ConnectionKind::all() {
            let expected_days = if matches!(kind, K::AnalyticsA | K::ProductAnalyticsA) {
                3
            } else {
                7
            };
            assert_eq!(kind.recent_days(), expected_days, "{kind}");
            let cadence = kind.spec().cadence;
            match kind {
                K::AnalyticsA | K::ProductAnalyticsA => assert_eq!(cadence, Cadence::Daily),
                K::SeoA | K::SeoB => assert_eq!(cadence, Cadence::Weekly),
                _ => assert_ne!(cadence, Cadence::Weekly, "{kind}"),
            }
        }
        assert_eq!(K::Payments.cadence_ms(), HOUR_MS);
        assert_eq!(K::SqlA.cadence_ms(), HOUR_MS);
        assert_eq!(K::SeoA.cadence_ms(), 7 * DAY_MS);
    }

    #[test]
    fn sync_now_is_the_specs_list_and_never_a_rationed_source() {
        let on_demand: Vec<&str> = ConnectionKind::all()
            .filter(|kind| kind.syncs_on_demand())
            .map(ConnectionKind::as_str)
            .collect();
        let mut expected = SPEC_SYNC_NOW.to_vec();
        expected.sort_by_key(|word| ConnectionKind::parse(word).map(|kind| kind as usize));
        assert_eq!(on_demand, expected);
        for kind in ConnectionKind::all().filter(|kind| kind.spec().quota_bound) {
            assert!(!kind.syncs_on_demand(), "{kind}");
        }
        let quota: Vec<&str> = ConnectionKind::all()
            .filter(|kind| kind.spec().quota_bound)
            .map(ConnectionKind::as_str)
            .collect();
        assert_eq!(quota, ["seo_a", "seo_b", "replay_a"]);
    }

    #[test]
    fn spend_lands_on_the_design_channels_and_budgets_on_proposal_networks() {
        let landings: Vec<(&str, &str, &str)> = ConnectionKind::all()
            .filter_map(|kind| kind.spend().map(|s| (kind.as_str(), s.network, s.channel)))
            .collect();
        assert_eq!(
            landings,
            [
                ("search_ads", "google", "paid_google"),
                ("social_ads_a", "meta", "paid_meta"),
                ("social_ads_b", "linkedin", "paid_linkedin"),
            ]
        );
        for kind in ConnectionKind::all().filter(|kind| kind.spec().changes_budgets) {
            // A kind that changes budgets is one a proposal can name, and it reports spend.
            let landing = kind.spend().map(|s| s.network).unwrap_or_default();
            let network = crate::policy::Network::parse(landing);
            assert!(network.is_some(), "{kind}");
            assert_eq!(
                network.map(|n| n.channel()),
                kind.spend().map(|s| s.channel)
            );
        }
        assert_eq!(
            crate::policy::Network::ALL.len(),
            ConnectionKind::all()
                .filter(|kind| kind.spec().changes_budgets)
                .count()
        );
    }

    #[test]
    fn every_vendor_kind_names_its_base_url_variable() {
        for spec in KINDS {
            let expected = (spec.family != Family::Database)
                .then(|| format!("PAYBACK_{}_API_URL", spec.wire.to_ascii_uppercase()));
            assert_eq!(
                spec.api_url_var.map(str::to_owned),
                expected,
                "{}",
                spec.wire
            );
        }
        assert_eq!(
            ConnectionKind::Payments.spec().api_url_alias,
            Some("PAYBACK_STRIPE_API_BASE")
        );
    }

    #[test]
    fn only_grants_revoke_upstream_and_databases_are_the_database_family() {
        let revoking: Vec<&str> = ConnectionKind::all()
            .filter(|kind| kind.family().revokes_upstream())
            .map(ConnectionKind::as_str)
            .collect();
        assert_eq!(
            revoking,
            [
                "analytics_a",
                "tagmgr",
                "search_ads",
                "search_console",
                "social_ads_a",
                "social_a"
            ]
        );
        let databases: Vec<&str> = ConnectionKind::all()
            .filter(|kind| kind.is_database())
            .map(ConnectionKind::as_str)
            .collect();
        assert_eq!(databases, ["sql_a", "sql_b", "docdb"]);
    }

    /// The wire words of the kinds `keep` takes, in the table's order.
    fn words_where(keep: impl Fn(ConnectionKind) -> bool) -> Vec<&'static str> {
        ConnectionKind::all()
            .filter(|kind| keep(*kind))
            .map(ConnectionKind::as_str)
            .collect()
    }

    #[test]
    fn every_kind_has_its_own_phrase_for_sentences() {
        let mut phrases: Vec<&str> = KINDS.iter().map(|spec| spec.prose).collect();
        assert!(phrases.iter().all(|phrase| !phrase.trim().is_empty()));
        phrases.sort_unstable();
        phrases.dedup();
        assert_eq!(phrases.len(), KINDS.len(), "two kinds share a phrase");
        use ConnectionKind as K;
        assert_eq!(K::Payments.prose(), "Stripe for payments");
        assert_eq!(K::SqlA.prose(), "a PostgreSQL database");
        assert_eq!(K::SqlB.prose(), "a MySQL/MariaDB database");
        assert_eq!(K::Docdb.prose(), "a MongoDB database");
        assert_eq!(K::SearchAds.prose(), "Google Ads");
        assert_eq!(K::SocialAdsA.prose(), "Meta ads");
        assert_eq!(K::SocialAdsB.prose(), "LinkedIn ads");
    }

    #[test]
    fn every_kind_feeds_one_health_check_consistent_with_its_other_facts() {
        use HealthArea as H;
        for kind in ConnectionKind::all() {
            let area = kind.health_area();
            assert_eq!(
                area == H::Payments,
                kind.family() == Family::Payments,
                "{kind}"
            );
            assert_eq!(area == H::AdSpend, kind.spend().is_some(), "{kind}");
        }
        let area = |wanted: HealthArea| words_where(|kind| kind.health_area() == wanted);
        assert_eq!(area(H::Payments), ["payments"]);
        assert_eq!(
            area(H::AdSpend),
            ["search_ads", "social_ads_a", "social_ads_b"]
        );
        assert_eq!(area(H::SearchConsole), ["search_console", "search_b"]);
        assert_eq!(area(H::SocialPages), ["social_a", "social_b"]);
        assert_eq!(area(H::SeoMetrics), ["seo_a", "seo_b", "geo_a"]);
        assert_eq!(
            area(H::OtherSources),
            [
                "analytics_a",
                "tagmgr",
                "replay_a",
                "product_analytics_a",
                "sql_a",
                "sql_b",
                "docdb"
            ]
        );
    }

    #[test]
    fn databases_name_their_engine_and_only_documents_take_paths() {
        use ConnectionKind as K;
        for kind in ConnectionKind::all() {
            assert_eq!(
                kind.database_engine().is_some(),
                kind.is_database(),
                "{kind}"
            );
        }
        assert_eq!(K::SqlA.database_engine(), Some(DatabaseEngine::Postgres));
        assert_eq!(K::SqlB.database_engine(), Some(DatabaseEngine::MySql));
        assert_eq!(K::Docdb.database_engine(), Some(DatabaseEngine::Mongo));
        assert_eq!(
            words_where(|kind| kind.field_syntax() == FieldSyntax::Path),
            ["docdb"]
        );
        // Only a database may be set up from the host's environment, and only PostgreSQL is.
        assert_eq!(words_where(|kind| kind.spec().env_setup), ["sql_a"]);
        assert_eq!(ConnectionKind::env_setup_words(), ["sql-a"]);
    }

    #[test]
    fn ad_networks_name_their_account_field_and_google_ads_its_url_suffix() {
        for kind in ConnectionKind::all() {
            assert_eq!(
                kind.spec().ad_account_field.is_some(),
                kind.spend().is_some(),
                "{kind}"
            );
            // A suffix to complete is an ad account's.
            if kind.spec().final_url_suffix {
                assert!(kind.spend().is_some(), "{kind}");
            }
        }
        let fields: Vec<(&str, &str)> = ConnectionKind::all()
            .filter_map(|kind| kind.spec().ad_account_field.map(|f| (kind.as_str(), f)))
            .collect();
        assert_eq!(
            fields,
            [
                ("search_ads", "customer_id"),
                ("social_ads_a", "ad_account_id"),
                ("social_ads_b", "ad_account_id"),
            ]
        );
        assert_eq!(
            words_where(|kind| kind.spec().final_url_suffix),
            ["search_ads"]
        );
    }
}
