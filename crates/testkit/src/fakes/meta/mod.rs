//! A loopback fake of Meta's Facebook Login (manual flow) and of the Graph API / Marketing API,
//! written from Meta's public documentation alone, so tests prove a connector speaks the
//! documented contract rather than one fake's habits.
//!
//! One server on `127.0.0.1:0` answers, under any `/v{N}.{M}/` version prefix or none:
//! - Facebook Login (`oauth.rs`): `GET /dialog/oauth` (the Login dialog, played by a scripted
//!   human), `GET|POST /oauth/access_token` (code exchange, `fb_exchange_token`,
//!   `client_credentials`), `GET /debug_token`, `GET|DELETE /me/permissions`,
//! - the Marketing API (`ads.rs`): `/me/adaccounts`, `act_{id}` and its `campaigns`, `adsets`,
//!   `ads`; campaign, ad set and ad nodes with their edges; budget writes on campaigns and ad sets,
//! - Ads Insights (`insights.rs`): synchronous `GET .../insights` at every level and asynchronous
//!   report runs (`POST /act_{id}/insights`, polled, then paged),
//! - Pages and Instagram (`pages.rs`): `/me/accounts`, Page nodes, insights and posts, Instagram
//!   account nodes, insights and media,
//! - errors and throttling in Meta's documented shapes (`errors.rs`), cursor paging with a small
//!   page size (`paging.rs`), `fields` selection (`fields.rs`).
//!
//! ```ignore
//! let meta = FakeMeta::spawn().await;
//! meta.set_today("2026-11-25");
//! meta.add_ad_account(AdAccountSeed::new(1001, "Shop", "USD"));
//! meta.add_campaign(1001, CampaignSeed::new(2001, "Prospecting").daily_budget(5_000));
//! meta.add_adset(AdSetSeed::new(3001, 2001, "Lookalikes"));
//! meta.add_ad(AdSeed::new(4001, 3001, "Carousel"));
//! meta.set_day(4001, "2026-11-20", Metrics::new("12.34", 1_000, 25));
//! meta.add_page(PageSeed::new(5001, "Shop").instagram(IgAccountSeed::new(6001, "shop")));
//! meta.add_user_token("EAA-test", &["ads_read", "ads_management", "pages_show_list"]);
//! // Or the real dance: the app builds the dialog URL from meta.dialog_url(), then
//! let location = meta.authorize(&dialog_url_the_app_built).await; // the human consents
//! ```
//!
//! Every request is recorded ([`FakeMeta::requests`]) before anything else happens to it, so a
//! test can check what the connector sent, even for requests the fake refused.

mod ads;
mod context;
mod errors;
mod fields;
mod graph;
mod insights;
mod oauth;
mod pages;
mod paging;
mod params;
mod state;

use std::sync::{Arc, Mutex, MutexGuard};

use axum::Router;
use axum::response::Response;

pub use super::human::ErrorPage as DialogPage;
pub use super::recorder::RecordedRequest;
pub use state::{
    AdAccountSeed, AdSeed, AdSetSeed, Budget, BudgetChange, BudgetField, CampaignSeed, Fail,
    IgAccountSeed, MediaSeed, Metrics, PageSeed, PostSeed, Status,
};

use super::day::Day;
use super::lock;
use super::loopback::{Loopback, LoopbackServer};
use super::{human, recorder};
use state::{Shared, TokenKind};

/// What the human's browser shows: Meta's Login dialog.
const SCREEN: &str = "the Login dialog";

/// Who the fake is to the app: the Meta app it knows, and how many rows a page holds.
#[derive(Debug, Clone)]
pub struct FakeMetaConfig {
    pub app_id: String,
    pub app_secret: String,
    /// The most rows one page of a listing holds (small so paging is exercised; `limit` can
    /// only shrink it).
    pub page_size: usize,
}

impl Default for FakeMetaConfig {
    fn default() -> Self {
        Self {
            app_id: "1234567890123456".to_owned(),
            app_secret: "payback-test-meta-app-secret".to_owned(),
            page_size: 2,
        }
    }
}

/// The running fake; the server stops when this is dropped.
pub struct FakeMeta {
    server: LoopbackServer,
    config: FakeMetaConfig,
    shared: Shared,
}

impl std::fmt::Debug for FakeMeta {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.server.describe("FakeMeta", f)
    }
}

fn day(text: &str, what: &str) -> Day {
    Day::parse(text).unwrap_or_else(|| panic!("{what} takes a YYYY-MM-DD day, not {text:?}"))
}

impl FakeMeta {
    /// Starts the fake with the default app.
    pub async fn spawn() -> Self {
        Self::spawn_with(FakeMetaConfig::default()).await
    }

    pub async fn spawn_with(config: FakeMetaConfig) -> Self {
        // Bound first: paging links carry the fake's own origin.
        let loopback = Loopback::bind("Meta").await;
        let shared: Shared = Arc::new(Mutex::new(state::State::new(
            config.app_id.clone(),
            config.app_secret.clone(),
            loopback.origin().to_owned(),
            config.page_size,
        )));
        let app = recorder::recording(Router::new().fallback(graph::dispatch), shared.clone());
        Self {
            server: loopback.serve(app),
            config,
            shared,
        }
    }

    fn state(&self) -> MutexGuard<'_, state::State> {
        lock(&self.shared)
    }

    // ---- where it listens ----------------------------------------------------------------

    /// `http://127.0.0.1:PORT`, the Graph origin (`https://graph.facebook.com`): calls go to
    /// `{base_url}/v23.0/...` (any version) or unversioned `{base_url}/...`.
    pub fn base_url(&self) -> String {
        self.server.origin().to_owned()
    }

    /// The Login dialog (`https://www.facebook.com/{version}/dialog/oauth`), here on the same
    /// origin and without a version (any version prefix works too).
    pub fn dialog_url(&self) -> String {
        format!("{}/dialog/oauth", self.server.origin())
    }

    /// The token endpoint (`https://graph.facebook.com/{version}/oauth/access_token`).
    pub fn token_url(&self) -> String {
        format!("{}/oauth/access_token", self.server.origin())
    }

    pub fn app_id(&self) -> &str {
        &self.config.app_id
    }

    pub fn app_secret(&self) -> &str {
        &self.config.app_secret
    }

    /// The human's app-scoped user id (`GET /me`).
    pub fn user_id(&self) -> String {
        self.state().user_id.to_string()
    }

    // ---- seeding --------------------------------------------------------------------------

    /// A valid user access token with these permissions (never expires unless
    /// [`Self::expire_token`]), as if the human had logged in already.
    pub fn add_user_token(&self, token: &str, scopes: &[&str]) {
        self.state().tokens.insert(
            token.to_owned(),
            state::Token {
                kind: TokenKind::User,
                scopes: scopes.iter().map(|s| (*s).to_owned()).collect(),
                expires_at: None,
                expired: false,
                revoked: false,
                invalidated: false,
            },
        );
    }

    pub fn add_ad_account(&self, seed: AdAccountSeed) {
        self.state().add_account(seed);
    }

    /// Adds a campaign to ad account `account` (the digits of `act_{account}`).
    pub fn add_campaign(&self, account: i64, seed: CampaignSeed) {
        self.state().add_campaign(account, seed);
    }

    /// Adds an ad set under its campaign (`seed.campaign`).
    pub fn add_adset(&self, seed: AdSetSeed) {
        self.state().add_adset(seed);
    }

    /// Adds an ad under its ad set (`seed.adset`).
    pub fn add_ad(&self, seed: AdSeed) {
        self.state().add_ad(seed);
    }

    /// Sets one ad's metrics for `day` (`YYYY-MM-DD`, the account's reporting day); a later call
    /// for the same ad and day replaces the row. How the levels add up is in `state.rs`: ad rows
    /// sum to ad sets, campaigns and the account, every level the same total.
    pub fn set_day(&self, ad: i64, day_text: &str, metrics: Metrics) {
        let parsed = day(day_text, "set_day");
        self.state().set_day(ad, parsed, &metrics);
    }

    /// Adds a Page the human manages, with its Instagram account, daily metrics and posts; the
    /// Page gets a Page access token ([`Self::page_token`]).
    pub fn add_page(&self, seed: PageSeed) {
        self.state().add_page(seed);
    }

    /// The day date presets and the 37-month insights window count back from (default: today,
    /// UTC).
    pub fn set_today(&self, day_text: &str) {
        self.state().today = Some(day(day_text, "set_today"));
    }

    pub fn set_page_size(&self, rows: usize) {
        self.state().page_size = rows.max(1);
    }

    /// How many polls of each new report run answer "Job Running" before "Job Completed"
    /// (default 2).
    pub fn set_report_polls(&self, polls: u32) {
        self.state().report_polls = polls;
    }

    /// The next report run ends "Job Failed" instead of "Job Completed".
    pub fn fail_next_report(&self) {
        self.state().fail_next_report = true;
    }

    // ---- the human and the app settings -----------------------------------------------------

    /// The human cancels the Login dialog (`error=access_denied&error_reason=user_denied`).
    pub fn set_human_refuses(&self, refuses: bool) {
        self.state().oauth.human_refuses = refuses;
    }

    /// The human unticks these permissions in the dialog (they are granted nothing else of the
    /// request, and `/me/permissions` lists them `declined`); empty grants all again.
    pub fn set_human_declines(&self, permissions: &[&str]) {
        self.state().oauth.human_declines = permissions.iter().map(|p| (*p).to_owned()).collect();
    }

    /// Registers a Valid OAuth Redirect URI; once any is registered, the dialog takes only exact
    /// matches (strict mode).
    pub fn register_redirect_uri(&self, uri: &str) {
        self.state().oauth.redirect_uris.push(uri.to_owned());
    }

    /// A Facebook Login for Business configuration: a dialog with `config_id` asks for these
    /// permissions.
    pub fn register_login_config(&self, config_id: &str, permissions: &[&str]) {
        self.state().oauth.login_configs.insert(
            config_id.to_owned(),
            permissions.iter().map(|p| (*p).to_owned()).collect(),
        );
    }

    /// "Require App Secret": Graph calls must carry `appsecret_proof` (a wrong one is refused
    /// either way).
    pub fn require_appsecret_proof(&self, required: bool) {
        self.state().oauth.require_proof = required;
    }

    /// `token` expires now (190, subcode 463).
    pub fn expire_token(&self, token: &str) {
        if let Some(token) = self.state().tokens.get_mut(token) {
            token.expired = true;
        }
    }

    /// The human changes their password: every token issued so far stops working (190,
    /// subcode 460).
    pub fn invalidate_sessions(&self) {
        for token in self.state().tokens.values_mut() {
            token.invalidated = true;
        }
    }

    /// The next `times` requests whose path contains `path_contains` answer `fail` (in Meta's
    /// documented shape, with the usage headers of throttling).
    pub fn fail_next(&self, path_contains: &str, times: u32, fail: Fail) {
        self.state().scheduled.push(path_contains, times, fail);
    }

    /// Plays the human in the Login dialog: GETs `dialog_url` (as the app built it) and returns
    /// the `Location` the browser is sent to (`redirect_uri?code=..&state=..`, or
    /// `?error_reason=user_denied&error=access_denied&error_description=..&state=..` when the
    /// human cancels). Panics when the dialog shows an error page instead.
    pub async fn authorize(&self, dialog_url: &str) -> String {
        human::expect_redirect(self.try_authorize(dialog_url).await, SCREEN)
    }

    /// [`Self::authorize`], returning the error page instead of panicking on one.
    pub async fn try_authorize(&self, dialog_url: &str) -> Result<String, DialogPage> {
        human::visit(dialog_url, SCREEN).await
    }

    // ---- what happened --------------------------------------------------------------------

    /// Every request received, in order.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.state().log.all()
    }

    /// The requests whose path contains `path_contains`.
    pub fn requests_to(&self, path_contains: &str) -> Vec<RecordedRequest> {
        self.state().log.to(path_contains)
    }

    /// Every accepted budget write, in order.
    pub fn budget_changes(&self) -> Vec<BudgetChange> {
        self.state().budget_changes.clone()
    }

    /// The campaign's daily budget in minor units (`None` without a campaign daily budget).
    pub fn campaign_daily_budget(&self, campaign: i64) -> Option<i64> {
        match self.state().campaign(campaign)?.budget {
            Budget::Daily(amount) => Some(amount),
            _ => None,
        }
    }

    /// The ad set's daily budget in minor units (`None` without an ad set daily budget).
    pub fn adset_daily_budget(&self, adset: i64) -> Option<i64> {
        match self.state().adset(adset)?.budget {
            Budget::Daily(amount) => Some(amount),
            _ => None,
        }
    }

    /// Whether `token` was revoked by the human removing the app (`DELETE /me/permissions`).
    pub fn revoked(&self, token: &str) -> bool {
        self.state().tokens.get(token).is_some_and(|t| t.revoked)
    }

    /// The Page access token `/me/accounts` currently hands out for `page`.
    pub fn page_token(&self, page: i64) -> Option<String> {
        self.state().page(page).map(|p| p.token.clone())
    }
}

/// The business object a scheduled throttle's usage header is keyed by: the ad account of the
/// path's object, else the object (a Page, an Instagram account) itself.
fn throttled_object(state: &state::State, path: &str) -> String {
    let first = path
        .trim_start_matches('/')
        .split('/')
        .find(|segment| !context::is_version(segment))
        .unwrap_or("");
    if let Some(account) = first.strip_prefix("act_") {
        return account.to_owned();
    }
    let Ok(id) = first.parse::<i64>() else {
        return state.accounts.first().map_or_else(
            || state.user_id.to_string(),
            |account| account.id.to_string(),
        );
    };
    let account = state
        .campaign(id)
        .map(|c| c.account)
        .or_else(|| state.adset(id).map(|s| s.account))
        .or_else(|| state.ad(id).map(|a| a.account));
    account.unwrap_or(id).to_string()
}

impl recorder::Recorded for state::State {
    const BODY_LIMIT: usize = 16 * 1024 * 1024;

    fn log(&mut self) -> &mut recorder::RequestLog {
        &mut self.log
    }

    /// In Meta's documented shape, with the usage headers of throttling keyed by the object the
    /// path names and by the kind of token that called.
    fn scheduled_answer(&mut self, request: &RecordedRequest) -> Option<Response> {
        let fail = self.scheduled.take(&request.path)?;
        let token = request
            .header("authorization")
            .and_then(context::bearer_in)
            .or_else(|| request.param("access_token"));
        let page_token = token
            .and_then(|token| self.tokens.get(&token))
            .is_some_and(|t| matches!(t.kind, TokenKind::Page(_)));
        let context = errors::Throttled {
            object_id: throttled_object(self, &request.path),
            page_token,
        };
        Some(errors::scheduled(fail, &context).respond(&self.mint_trace()))
    }
}

#[cfg(test)]
mod tests;
