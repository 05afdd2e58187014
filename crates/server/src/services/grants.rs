//! What every provider's grant flow shares (the search-engine grant `searchco`, the
//! social-network grant `socialco`): a single-use state stored at `start` (15 minutes), the
//! public callback that claims it once, exchanges the code through the provider's own function,
//! seals what the exchange gave and records what the grant reaches; `status` for whoever
//! started it; the checks `select` makes before it activates connections, and the activation
//! itself. The provider modules hold only what differs: scopes, the exchange, discovery, and
//! which choices make which connections.
//!
//! The grants could be phished (issue 35): `auth_url` was the provider's consent URL, so a link
//! one workspace started could be sent to someone else, whose consent then sealed their token
//! into that workspace. `start` now answers a page of Payback's ([`confirmation`]) naming the
//! workspace, the product, who started the flow and what it reads or changes; only its form
//! ([`confirm`]) sends the person on to the provider, binding the state to the confirming
//! browser (a cookie whose hash the state keeps), and the callback takes only a state confirmed
//! in the browser that comes back: a link that skipped the page, or a provider link someone
//! confirmed for themselves and sent on, changes nothing.

use std::future::Future;

use payback_domain::connection::{ConnectionKind, ConnectionStatus, GrantFlowStatus};
use payback_domain::{Actor, MINUTE_MS, Timestamp};
use payback_store::accounts as account_store;
use payback_store::connections::{self as connection_store, NewConnection};
use payback_store::grant_states::{self as store, GrantState, NewGrantState, StartedAs};
use payback_store::products::{self as product_store, ProductRow};
use payback_store::{AccountScope, Tx, new_id};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use utoipa::ToSchema;

use crate::crypto::{constant_time_eq, token_hash};
use crate::error::{ApiError, ApiResult};
use crate::secret::Secret;
use crate::services::acting::{Caller, Principal};
use crate::services::{audit, products, source_config};
use crate::state::AppState;

/// How long a started flow waits for the human.
pub const STATE_TTL_MS: i64 = 15 * MINUTE_MS;

/// One grant provider as the shared flow needs it.
#[derive(Debug, Clone, Copy)]
pub struct Provider {
    /// The path word and `grant_states.provider`: `searchco`, `socialco`.
    pub word: &'static str,
    /// The vendor as people know it, for messages: `Google`, `Meta`.
    pub vendor: &'static str,
    /// The prefix of its state tokens.
    pub token_prefix: &'static str,
    /// The grant as messages name it: `search-engine grant`.
    pub name: &'static str,
    /// The kinds one grant may serve, in the order messages list them.
    pub kinds: &'static [ConnectionKind],
    /// The refusal of an empty `kinds`.
    pub no_kinds: &'static str,
}

/// What one provider's grant brings to the shared flow: its scopes per kind, its authorization
/// URL (with PKCE), its token exchange, its discovery of what the grant reaches, and how a
/// selection becomes connections. `start`, `callback`, `status`, `select` and the sweep are
/// written once over it ([`start`], [`provider_callback`], [`select`], [`revoke_abandoned`]).
pub trait GrantProvider: Send + Sync + 'static {
    const PROVIDER: Provider;
    /// Payback's client at the provider.
    type Client: Send + Sync;
    /// What the code exchange gave.
    type Tokens: Send + Sync;
    /// The choices of `select`'s body.
    type Selection: Send;

    /// The client from the configuration; 503 until the operator set it up.
    fn client(state: &AppState) -> ApiResult<Self::Client>;
    /// The scopes a kind needs at the provider.
    fn scopes(kind: ConnectionKind) -> &'static [&'static str];
    /// What follows `kinds: {kind} is not available yet` (a hint, or nothing).
    fn unavailable_hint(kind: ConnectionKind) -> String;
    /// The provider's own checks on the product before a flow starts (a policy wall); none by
    /// default.
    fn admit(
        _state: &AppState,
        _caller: &Caller,
        _product: &ProductRow,
        _kinds: &[ConnectionKind],
    ) -> impl Future<Output = ApiResult<()>> + Send {
        async { Ok(()) }
    }
    /// The authorization URL for this state, with its PKCE challenge.
    fn authorization(client: &Self::Client, consent: Consent<'_>) -> ApiResult<Authorization>;
    /// Exchanges the code; `Err` is the reason shown to the person.
    fn exchange(
        client: &Self::Client,
        code: Code<'_>,
    ) -> impl Future<Output = Result<Self::Tokens, String>> + Send;
    /// What the grant reaches for the kinds asked for (the status's `options`).
    fn discover(
        state: &AppState,
        client: &Self::Client,
        tokens: &Self::Tokens,
        kinds: &[ConnectionKind],
    ) -> impl Future<Output = Result<Value, String>> + Send;
    /// The secret to seal.
    fn secret(tokens: &Self::Tokens) -> Value;
    /// The connections a selection makes; 400 a choice the grant does not offer.
    fn activations(
        state: &AppState,
        caller: &Caller,
        chosen: &Selectable,
        selection: Self::Selection,
    ) -> impl Future<Output = ApiResult<Vec<Activation>>> + Send;
    /// Ends a grant at the provider (the sweep of abandoned grants); `false` when the secret
    /// holds no token.
    fn revoke(state: &AppState, secret: &Value) -> impl Future<Output = ApiResult<bool>> + Send;
}

/// The provider's client id and secret from the configuration; 503 naming both settings until
/// the operator set them.
pub fn client_credentials<'a>(
    provider: Provider,
    id: Option<&'a str>,
    secret: Option<&'a Secret>,
) -> ApiResult<(String, String)> {
    match (id, secret) {
        (Some(id), Some(secret)) => Ok((id.to_owned(), secret.expose().to_owned())),
        _ => {
            let env = provider.word.to_uppercase();
            Err(ApiError::ServiceUnavailable(format!(
                "the {} is not configured (set PAYBACK_{env}_CLIENT_ID and PAYBACK_{env}_CLIENT_SECRET)",
                provider.name
            )))
        }
    }
}

/// The reason shown when the grant came through but discovery failed.
pub fn listing_failed(provider: Provider, what: &str, err: impl std::fmt::Display) -> String {
    format!(
        "{} granted access, but listing its {what} failed: {err}",
        provider.vendor
    )
}

/// What the consent asks for: the flow's state, the scopes and where to come back.
#[derive(Debug, Clone, Copy)]
pub struct Consent<'a> {
    pub state: &'a str,
    pub scopes: &'a [&'a str],
    pub redirect: &'a str,
}

/// What the callback brings to the exchange: the code, with the redirect URL and the PKCE
/// verifier it must be sent with, the HTTP client and the time it came back.
#[derive(Debug, Clone, Copy)]
pub struct Code<'a> {
    pub http: &'a reqwest::Client,
    pub now: Timestamp,
    pub code: &'a str,
    pub redirect: &'a str,
    pub pkce_verifier: &'a str,
}

/// The provider's authorization URL and the PKCE verifier the exchange must send.
#[derive(Debug)]
pub struct Authorization {
    pub url: String,
    pub pkce_verifier: String,
}

/// The chosen kinds, checked: each one of the grant's, each with a connector in this build;
/// left out, all of the grant's that have one.
fn grant_kinds(
    state: &AppState,
    provider: Provider,
    words: Option<&[String]>,
    hint: impl Fn(ConnectionKind) -> String,
) -> ApiResult<Vec<ConnectionKind>> {
    let Some(words) = words else {
        return Ok(provider
            .kinds
            .iter()
            .copied()
            .filter(|kind| state.sources.reads(*kind))
            .collect());
    };
    if words.is_empty() {
        return Err(ApiError::bad_request(provider.no_kinds));
    }
    let mut kinds = Vec::new();
    for word in words {
        let kind = ConnectionKind::parse(word)
            .filter(|kind| provider.kinds.contains(kind))
            .ok_or_else(|| {
                let all: Vec<&str> = provider.kinds.iter().map(|kind| kind.as_str()).collect();
                ApiError::bad_request(format!(
                    "kinds: `{word}` is not a kind of the {} ({})",
                    provider.name,
                    all.join(", ")
                ))
            })?;
        if !state.sources.reads(kind) {
            return Err(ApiError::bad_request(format!(
                "kinds: {kind} is not available yet{}",
                hint(kind)
            )));
        }
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    Ok(kinds)
}

/// `POST /connect/{provider}/start`: the client (503), credential sealing (503), the product
/// (404), the kinds (400), the provider's own checks, then the state and its consent URL.
pub async fn start<P: GrantProvider>(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    kind_words: Option<&[String]>,
    client: GrantClient,
) -> ApiResult<Started> {
    let provider_client = P::client(state)?;
    source_config::vault(state)?;
    let product = products::find(state, caller.scope()?, slug).await?;
    let kinds = grant_kinds(state, P::PROVIDER, kind_words, P::unavailable_hint)?;
    P::admit(state, caller, &product, &kinds).await?;
    let mut scopes: Vec<&'static str> = Vec::new();
    for scope in kinds.iter().flat_map(|kind| P::scopes(*kind)) {
        if !scopes.contains(scope) {
            scopes.push(scope);
        }
    }
    let token = new_token(P::PROVIDER);
    let redirect = redirect_url(state, P::PROVIDER);
    let consent = Consent {
        state: &token,
        scopes: &scopes,
        redirect: &redirect,
    };
    let authorization = P::authorization(&provider_client, consent)?;
    let flow = StartedFlow {
        token,
        product: &product,
        kinds: &kinds,
        client,
        pkce_verifier: &authorization.pkce_verifier,
        provider_url: authorization.url,
    };
    record_start(state, caller, P::PROVIDER, flow).await
}

/// `GET /connect/{provider}/callback` with the provider's exchange and discovery.
pub async fn provider_callback<P: GrantProvider>(
    state: &AppState,
    query: CallbackQuery,
    browser: Option<&str>,
) -> ApiResult<CallbackOutcome> {
    callback(
        state,
        P::PROVIDER,
        query,
        browser,
        |grant, code| async move { grant_from_code::<P>(state, &grant, &code).await },
    )
    .await
}

/// Exchanges the code and discovers what the grant reaches; `Err` is the reason shown to the
/// person.
async fn grant_from_code<P: GrantProvider>(
    state: &AppState,
    grant: &GrantState,
    code: &str,
) -> Result<Granted, String> {
    let internal =
        |err: ApiError| format!("Payback could not finish connecting ({err}); start again");
    let client = P::client(state).map_err(internal)?;
    let redirect = redirect_url(state, P::PROVIDER);
    let code = Code {
        http: &state.http,
        now: state.clock.now(),
        code,
        redirect: &redirect,
        pkce_verifier: &grant.pkce_verifier,
    };
    let tokens = P::exchange(&client, code).await?;
    let kinds = kinds_of(grant);
    let options = P::discover(state, &client, &tokens, &kinds).await?;
    Ok(Granted {
        secret: P::secret(&tokens),
        options,
    })
}

/// The kinds a flow was started for.
fn kinds_of(grant: &GrantState) -> Vec<ConnectionKind> {
    let words: Vec<String> = serde_json::from_str(&grant.kinds).unwrap_or_default();
    words
        .iter()
        .filter_map(|word| ConnectionKind::parse(word))
        .collect()
}

/// `POST /connect/{provider}/select`: activates the chosen entities, once. 404 unknown state,
/// 409 not complete (yet, or ended in an error) or already selected, 400 a choice the grant
/// does not offer (and whatever the provider's own checks refuse).
pub async fn select<P: GrantProvider>(
    state: &AppState,
    caller: &Caller,
    token: &str,
    selection: P::Selection,
) -> ApiResult<Vec<String>> {
    let chosen = selectable(state, caller, P::PROVIDER, token).await?;
    let activations = P::activations(state, caller, &chosen, selection).await?;
    activate(state, caller, P::PROVIDER, &chosen, activations).await
}

/// Ends an abandoned grant at the provider that issued it; `Ok(false)` for a provider or a
/// secret without a token to revoke.
async fn revoke_abandoned(state: &AppState, provider: &str, secret: &Value) -> ApiResult<bool> {
    use crate::services::{searchco::Searchco, socialco::Socialco};
    if provider == Searchco::PROVIDER.word {
        Searchco::revoke(state, secret).await
    } else if provider == Socialco::PROVIDER.word {
        Socialco::revoke(state, secret).await
    } else {
        Ok(false)
    }
}

/// Who the flow reports back to when the human is done: the dashboard gets a redirect into
/// the product's connections page, everyone else a small page saying what happened.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum GrantClient {
    Dashboard,
    Cli,
    Mcp,
    #[default]
    Api,
}

impl GrantClient {
    pub fn as_str(self) -> &'static str {
        match self {
            GrantClient::Dashboard => "dashboard",
            GrantClient::Cli => "cli",
            GrantClient::Mcp => "mcp",
            GrantClient::Api => "api",
        }
    }
}

/// `POST /connect/{provider}/start`'s answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct Started {
    pub state: String,
    /// Payback's confirmation page for the person to open
    /// (`{public}/connect/{provider}/confirm?state=...`): it names the workspace, the product,
    /// who started the flow and what it reads or changes, and its button sends the person on to
    /// the provider's consent screen. The callback takes the state only from the browser that
    /// confirmed there.
    pub auth_url: String,
    pub expires_at: String,
}

/// The confirmation page `start` answers as `auth_url`: the state travels in the URL (it is
/// what the person's browser carries, as it will to the provider).
pub fn page_url(state: &AppState, provider: Provider, token: &str) -> String {
    format!(
        "{}/connect/{}/confirm?state={token}",
        state.config.public_url(),
        provider.word
    )
}

/// Where the provider sends the human back.
pub fn redirect_url(state: &AppState, provider: Provider) -> String {
    format!(
        "{}/connect/{}/callback",
        state.config.public_url(),
        provider.word
    )
}

/// A fresh state token of the provider.
pub fn new_token(provider: Provider) -> String {
    format!("{}{}", provider.token_prefix, new_id().replace('-', ""))
}

/// What `start` stores besides the token.
#[derive(Debug)]
pub struct StartedFlow<'a> {
    pub token: String,
    pub product: &'a ProductRow,
    pub kinds: &'a [ConnectionKind],
    pub client: GrantClient,
    /// The PKCE verifier the exchange must send.
    pub pkce_verifier: &'a str,
    /// The provider's authorization URL (with the state and the PKCE challenge), where the
    /// confirmation page sends the person.
    pub provider_url: String,
}

/// Stores the started flow and its history event; answers `start`'s body.
pub async fn record_start(
    state: &AppState,
    caller: &Caller,
    provider: Provider,
    flow: StartedFlow<'_>,
) -> ApiResult<Started> {
    let scope = caller.scope()?;
    let now = state.clock.now();
    let expires_at = now.plus_millis(STATE_TTL_MS);
    let kind_list: Vec<&str> = flow.kinds.iter().map(|kind| kind.as_str()).collect();
    let kinds_json = json!(kind_list).to_string();
    let actor = caller.actor();
    let mut tx = state.store.begin().await?;
    // The page names the starter as they are now: a key's name and its creator's email are
    // kept with the state, so renaming or revoking the key later does not change what the
    // person was shown.
    let key = match &caller.principal {
        Principal::ApiKey { key_id, .. } => store::key_starter(&mut tx, scope, key_id)
            .await?
            .map(|(name, creator)| (key_id.as_str(), name, creator)),
        _ => None,
    };
    let started_as = match (&caller.principal, &key) {
        (Principal::Person(_), _) => StartedAs::Person,
        (Principal::ApiKey { .. }, Some((id, name, creator))) => StartedAs::ApiKey {
            id,
            name,
            creator: creator.as_deref(),
        },
        (Principal::ApiKey { .. }, None) => {
            return Err(ApiError::internal(
                "a calling API key not found in its account",
            ));
        }
        (Principal::OperatorToken, _) => StartedAs::Operator,
        (Principal::System, _) => StartedAs::System,
    };
    let new = NewGrantState {
        state: &flow.token,
        provider: provider.word,
        product_id: &flow.product.id,
        kinds: &kinds_json,
        client: flow.client.as_str(),
        started_by: &actor.who,
        started_via: actor.via,
        pkce_verifier: flow.pkce_verifier,
        expires_at,
        started_as,
        provider_url: &flow.provider_url,
    };
    store::insert(&mut tx, scope, new, now).await?;
    let payload =
        json!({ "provider": provider.word, "kinds": kind_list, "client": flow.client.as_str() });
    audit::record_product(&mut tx, &actor, flow.product, "connect.start", payload, now).await?;
    tx.commit().await?;
    Ok(Started {
        auth_url: page_url(state, provider, &flow.token),
        state: flow.token,
        expires_at: expires_at.to_rfc3339(),
    })
}

/// Who started a flow, as the confirmation page names them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Starter {
    /// A person signed in to the dashboard or the API with a session.
    Person { email: String },
    /// An API key (an agent, a script): its name and the email of the person who created it
    /// (`None` for a key an agent's sign-up made).
    ApiKey {
        name: String,
        creator: Option<String>,
    },
    /// The platform operator's token.
    Operator { name: String },
    /// Payback itself.
    System,
}

/// What the confirmation page shows.
#[derive(Debug, Clone)]
pub struct ConfirmView {
    /// `Google`, `Meta`.
    pub vendor: &'static str,
    /// `searchco`, `socialco`: the page's path word.
    pub provider_word: &'static str,
    pub state: String,
    /// The workspace (account) name.
    pub workspace: String,
    pub product_name: String,
    pub product_slug: String,
    pub starter: Starter,
    /// The door it came through (`api`, `mcp`, `dashboard`, `chat`).
    pub started_via: &'static str,
    /// Per kind asked for: what it is and the lines of what Payback will read or change.
    pub access: Vec<(&'static str, &'static [&'static str])>,
    pub expires_at: String,
    /// The provider's origin (`https://accounts.google.com`), which the form's redirect goes
    /// to (the page's `form-action` allows it).
    pub provider_origin: String,
}

/// The confirmation page or its form: ready, or refused with a reason for a person.
#[derive(Debug, Clone)]
pub enum PageOutcome<T> {
    Ready(T),
    Refused(String),
}

/// What each kind a grant may serve reads and changes, in the page's words.
pub fn access_of(kind: ConnectionKind) -> (&'static str, &'static [&'static str]) {
    match kind {
        ConnectionKind::SearchAds => (
            "Google Ads (search ads)",
            &[
                "Read the spend, clicks and conversions of the account you choose next, with its campaigns, ad groups, ads and keywords.",
                "Change a campaign budget only after a person approves that change in Payback's approval queue.",
                "Read the account's final URL suffix; change it only when a person presses the button in Payback's dashboard.",
            ],
        ),
        ConnectionKind::AnalyticsA => (
            "Google Analytics",
            &["Read the property's reports; nothing is changed."],
        ),
        ConnectionKind::Tagmgr => (
            "Google Tag Manager",
            &["Read the container's tags; nothing is changed."],
        ),
        ConnectionKind::SearchConsole => (
            "Google Search Console",
            &["Read the site's search performance; nothing is changed."],
        ),
        ConnectionKind::SocialAdsA => (
            "Meta ads (Facebook and Instagram ads)",
            &[
                "Read the ad account you choose next: its campaigns, ad sets, ads and insights (spend, clicks, conversions).",
                "Change a campaign or ad set budget only after a person approves that change in Payback's approval queue.",
            ],
        ),
        ConnectionKind::SocialA => (
            "Facebook page and its Instagram account",
            &[
                "Read the page you choose next and its linked Instagram business account: posts, followers and insights.",
                "Never post, comment or change anything on the page.",
            ],
        ),
        _ => ("Other", &["Read only."]),
    }
}

/// A state's token as a page takes it: at most 100 characters.
fn page_token(token: Option<&str>) -> Option<&str> {
    token.filter(|token| !token.is_empty() && token.chars().count() <= 100)
}

/// Why a state cannot be confirmed (anymore), in a person's words; `None` while it can be.
fn unusable(grant: &GrantState, now: Timestamp) -> Option<String> {
    if grant.status != GrantFlowStatus::Pending || grant.callback_at.is_some() {
        return Some(
            "This connect link was already used. Start connecting again from Payback.".to_owned(),
        );
    }
    if now.millis() >= grant.expires_at {
        return Some(
            "This connect link expired (links last 15 minutes). Start connecting again from Payback."
                .to_owned(),
        );
    }
    if grant.provider_url.is_none() {
        return Some(
            "This connect link was made before confirmation pages existed. Start connecting again from Payback."
                .to_owned(),
        );
    }
    None
}

fn unknown_link() -> String {
    "This connect link is not valid. Start connecting again from Payback.".to_owned()
}

/// `GET /connect/{provider}/confirm?state=`: public (the person's browser carries no
/// credential of ours; the state is the link). Shows the flow a person is about to grant; an
/// unknown, expired or used state is refused. Looking again at a confirmed but unused state is
/// harmless and shows the page again.
pub async fn confirmation(
    state: &AppState,
    provider: Provider,
    token: Option<&str>,
) -> ApiResult<PageOutcome<ConfirmView>> {
    let Some(token) = page_token(token) else {
        return Ok(PageOutcome::Refused(unknown_link()));
    };
    let Some(grant) = store::find(&state.store, provider.word, token).await? else {
        return Ok(PageOutcome::Refused(unknown_link()));
    };
    if let Some(reason) = unusable(&grant, state.clock.now()) {
        return Ok(PageOutcome::Refused(reason));
    }
    let scope = AccountScope::trusted(grant.account_id.clone());
    let product = product_store::find_by_id(&state.store, &scope, &grant.product_id)
        .await?
        .ok_or_else(|| ApiError::internal("a grant state without its product"))?;
    let account = account_store::find(&state.store, &grant.account_id)
        .await?
        .ok_or_else(|| ApiError::internal("a grant state without its account"))?;
    let starter = match grant.started_as.as_str() {
        "api_key" => Starter::ApiKey {
            name: grant.started_key_name.clone().unwrap_or_default(),
            creator: grant.started_key_creator.clone(),
        },
        "operator" => Starter::Operator {
            name: grant.started_by.clone(),
        },
        "system" => Starter::System,
        _ => Starter::Person {
            email: grant.started_by.clone(),
        },
    };
    let access = kinds_of(&grant).into_iter().map(access_of).collect();
    let provider_origin = grant
        .provider_url
        .as_deref()
        .and_then(|url| reqwest::Url::parse(url).ok())
        .map(|url| url.origin().ascii_serialization())
        .unwrap_or_default();
    Ok(PageOutcome::Ready(ConfirmView {
        vendor: provider.vendor,
        provider_word: provider.word,
        state: grant.state.clone(),
        workspace: account.name,
        product_name: product.name,
        product_slug: product.slug,
        starter,
        started_via: grant.started_via.as_str(),
        access,
        expires_at: Timestamp::from_millis(grant.expires_at).to_rfc3339(),
        provider_origin,
    }))
}

/// Where the confirmed person goes next, and the value their browser keeps (in a cookie the
/// route sets) to prove at the callback that it is the browser that confirmed.
#[derive(Debug, Clone)]
pub struct Confirmed {
    pub provider_url: String,
    pub browser: String,
}

/// The page's form: the person confirmed, so the state is marked confirmed and bound to this
/// browser (`browser`: the value its cookie already holds for this state, if any; a fresh one
/// otherwise), and they are sent on to the provider's authorization URL (the same state, PKCE
/// challenge, scopes and redirect URI `start` built). Refused like the page, and when another
/// browser confirmed first; the same browser submitting again before the callback is sent on
/// again.
pub async fn confirm(
    state: &AppState,
    provider: Provider,
    token: Option<&str>,
    browser: Option<&str>,
) -> ApiResult<PageOutcome<Confirmed>> {
    let Some(token) = page_token(token) else {
        return Ok(PageOutcome::Refused(unknown_link()));
    };
    let Some(grant) = store::find(&state.store, provider.word, token).await? else {
        return Ok(PageOutcome::Refused(unknown_link()));
    };
    let now = state.clock.now();
    if let Some(reason) = unusable(&grant, now) {
        return Ok(PageOutcome::Refused(reason));
    }
    let Some(provider_url) = grant.provider_url.clone() else {
        return Ok(PageOutcome::Refused(unknown_link()));
    };
    let browser = browser
        .filter(|value| value.len() <= 100)
        .map(str::to_owned)
        .unwrap_or_else(new_token_of_browser);
    // The update re-checks what `unusable` read, so a callback or an expiry in between wins,
    // and only the first browser to confirm is bound.
    if !store::confirm(&state.store, token, &token_hash(&browser), now).await? {
        return Ok(PageOutcome::Refused(if grant.confirmed_browser.is_some() {
            "This connect link was already confirmed in another browser. Start connecting again from Payback."
                .to_owned()
        } else {
            "This connect link was already used or expired. Start connecting again from Payback."
                .to_owned()
        }));
    }
    if grant.confirmed_at.is_none() {
        let scope = AccountScope::trusted(grant.account_id.clone());
        if let Some(product) =
            product_store::find_by_id(&state.store, &scope, &grant.product_id).await?
        {
            let actor = started_by(&grant);
            let mut tx = state.store.begin().await?;
            // The person who confirmed carries no credential of ours: history names the flow's
            // starter, as for the callback's events.
            let payload = json!({ "provider": provider.word });
            audit::record_product(&mut tx, &actor, &product, "connect.confirm", payload, now)
                .await?;
            tx.commit().await?;
        }
    }
    Ok(PageOutcome::Ready(Confirmed {
        provider_url,
        browser,
    }))
}

/// A random value for a confirming browser's cookie.
fn new_token_of_browser() -> String {
    crate::crypto::new_token("gb_")
}

/// What the human sees after the provider sent them back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallbackOutcome {
    /// Back to the dashboard's connections page of the product, with the state to poll.
    Redirect(String),
    /// A small page: `ok` says whether the grant came through; `message` what to do next.
    Page { ok: bool, message: String },
}

/// The provider's redirect: `state` with `code`, or with `error` when consent was refused.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CallbackQuery {
    /// The state `start` answered.
    pub state: Option<String>,
    /// The authorization code to exchange.
    pub code: Option<String>,
    /// The provider's error (`access_denied` when the human refused consent).
    pub error: Option<String>,
}

/// What a provider's exchange gave: the secret to seal (e.g. `{refresh_token}`) and what the
/// grant reaches, for the human to choose from.
#[derive(Debug)]
pub struct Granted {
    pub secret: Value,
    pub options: Value,
}

/// The public callback: claims the state once, runs `exchange` with the code, seals its secret
/// and completes the state; any failure marks the state `error` with a person's reason (the
/// exchange's `Err` is that reason). A state not confirmed on Payback's page, or coming back in
/// another browser than the one that confirmed it (`browser`: its cookie's value), is refused
/// without touching the flow.
pub async fn callback<F, Fut>(
    state: &AppState,
    provider: Provider,
    query: CallbackQuery,
    browser: Option<&str>,
    exchange: F,
) -> ApiResult<CallbackOutcome>
where
    F: FnOnce(GrantState, String) -> Fut,
    Fut: Future<Output = Result<Granted, String>>,
{
    let unknown = || CallbackOutcome::Page {
        ok: false,
        message: "This connect link is not valid. Start connecting again from Payback.".to_owned(),
    };
    let Some(token) = query.state.as_deref().filter(|token| token.len() <= 100) else {
        return Ok(unknown());
    };
    let Some(grant) = store::find(&state.store, provider.word, token).await? else {
        return Ok(unknown());
    };
    let now = state.clock.now();
    let scope = AccountScope::trusted(grant.account_id.clone());
    let product = product_store::find_by_id(&state.store, &scope, &grant.product_id)
        .await?
        .ok_or_else(|| ApiError::internal("a grant state without its product"))?;
    let ended = |message: String| finish_page(state, provider, &grant, &product, false, message);
    // A state nobody confirmed on Payback's page came by a link that skipped it, and one
    // confirmed in another browser by a provider link someone confirmed for themselves and sent
    // on (the phishing the page exists for): refused without touching the flow, so nothing is
    // sealed and the flow's own person can still confirm and finish it.
    let confirmed_here = match (&grant.confirmed_browser, browser) {
        (Some(bound), Some(browser)) => constant_time_eq(bound, &token_hash(browser)),
        _ => false,
    };
    if grant.confirmed_at.is_none() || !confirmed_here {
        return Ok(CallbackOutcome::Page {
            ok: false,
            message: format!(
                "This {} grant was not confirmed on Payback's page in this browser, so Payback did \
                 not take it. Open the connect link Payback gave you, check the workspace and \
                 product it names, and confirm there.",
                provider.vendor
            ),
        });
    }
    if now.millis() >= grant.expires_at {
        let message = "the connect link expired after 15 minutes; start again".to_owned();
        store::fail(&state.store, token, &message).await?;
        return Ok(ended(message));
    }
    if !store::claim_callback(&state.store, token, now).await? {
        return Ok(ended(
            "this connect link was already used; start again to connect another account".to_owned(),
        ));
    }
    let vendor = provider.vendor;
    let result = match (query.error.as_deref(), query.code) {
        (Some("access_denied"), _) => Err(format!(
            "consent was refused at {vendor}, so Payback has no access; start again and allow access"
        )),
        (Some(error), _) => Err(format!(
            "{vendor} answered `{}` instead of a grant; start again",
            error.chars().take(100).collect::<String>()
        )),
        (None, None) => Err(format!("{vendor} sent no authorization code; start again")),
        (None, Some(code)) => match exchange(grant.clone(), code).await {
            Ok(granted) => complete(state, &grant, granted).await,
            Err(message) => Err(message),
        },
    };
    match result {
        Ok(()) => Ok(finish_page(
            state,
            provider,
            &grant,
            &product,
            true,
            format!("{vendor} is connected. Return to Payback to choose what to connect."),
        )),
        Err(message) => {
            store::fail(&state.store, token, &message).await?;
            let actor = started_by(&grant);
            let mut tx = state.store.begin().await?;
            let payload = json!({ "provider": provider.word, "error": message });
            audit::record_product(&mut tx, &actor, &product, "connect.error", payload, now).await?;
            tx.commit().await?;
            Ok(ended(message))
        }
    }
}

/// Seals the exchange's secret and marks the state complete with its options.
async fn complete(state: &AppState, grant: &GrantState, granted: Granted) -> Result<(), String> {
    let internal =
        |err: ApiError| format!("Payback could not finish connecting ({err}); start again");
    let vault = source_config::vault(state).map_err(internal)?;
    let sealed = vault
        .seal(&grant.account_id, granted.secret.to_string().as_bytes())
        .map_err(internal)?;
    let scope = AccountScope::trusted(grant.account_id.clone());
    let now = state.clock.now();
    let stored = async {
        let mut tx = state.store.begin().await?;
        let credential_id =
            connection_store::insert_credential(&mut tx, &scope, &sealed, now).await?;
        store::complete(
            &mut tx,
            &grant.state,
            &credential_id,
            &granted.options.to_string(),
        )
        .await?;
        tx.commit().await?;
        Ok::<(), ApiError>(())
    };
    stored.await.map_err(internal)
}

/// Who started the flow, as history records them.
pub fn started_by(grant: &GrantState) -> Actor {
    Actor {
        who: grant.started_by.clone(),
        via: grant.started_via,
    }
}

/// The dashboard gets a redirect to the product's connections page; other clients a page.
fn finish_page(
    state: &AppState,
    provider: Provider,
    grant: &GrantState,
    product: &ProductRow,
    ok: bool,
    message: String,
) -> CallbackOutcome {
    if grant.client == GrantClient::Dashboard.as_str() {
        CallbackOutcome::Redirect(format!(
            "{}/#/p/{}/connections?{}_state={}",
            state.config.public_url(),
            product.slug,
            provider.word,
            grant.state
        ))
    } else {
        CallbackOutcome::Page { ok, message }
    }
}

/// `GET /connect/{provider}/status`'s answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct GrantStatus {
    /// `pending`, `complete` or `error`.
    pub status: String,
    pub product_slug: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// After `select`: `{activated: [kinds]}`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub results: Option<Value>,
    /// Once complete: what the grant reaches, e.g. `{ads_customers: [...]}` (search) or
    /// `{ad_accounts: [...], pages: [...]}` (social).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub options: Option<Value>,
}

/// `GET /connect/{provider}/status`: 404 for another account's state or an unknown one.
pub async fn status(
    state: &AppState,
    caller: &Caller,
    provider: Provider,
    token: &str,
) -> ApiResult<GrantStatus> {
    let (grant, product) = find_grant(state, caller, provider, token).await?;
    let now = state.clock.now();
    let expired = grant.status == GrantFlowStatus::Pending && now.millis() >= grant.expires_at;
    let parse = |text: &Option<String>| {
        text.as_deref()
            .and_then(|text| serde_json::from_str::<Value>(text).ok())
    };
    Ok(GrantStatus {
        status: if expired {
            GrantFlowStatus::Error
        } else {
            grant.status
        }
        .as_str()
        .to_owned(),
        product_slug: product.slug,
        error: if expired {
            Some("the connect link expired after 15 minutes; start again".to_owned())
        } else {
            grant.error.clone()
        },
        results: parse(&grant.results),
        options: parse(&grant.options),
    })
}

async fn find_grant(
    state: &AppState,
    caller: &Caller,
    provider: Provider,
    token: &str,
) -> ApiResult<(GrantState, ProductRow)> {
    let scope = caller.scope()?;
    let not_found = || ApiError::not_found("connect state");
    let grant = store::find_in(&state.store, scope, provider.word, token)
        .await?
        .ok_or_else(not_found)?;
    let product = product_store::find_by_id(&state.store, scope, &grant.product_id)
        .await?
        .ok_or_else(not_found)?;
    Ok((grant, product))
}

/// A grant ready for `select`, with its options and the kinds it was asked for.
#[derive(Debug)]
pub struct Selectable {
    pub grant: GrantState,
    pub product: ProductRow,
    pub options: Value,
    pub kinds: Vec<ConnectionKind>,
}

impl Selectable {
    pub fn credential_id(&self) -> ApiResult<&str> {
        self.grant
            .credential_id
            .as_deref()
            .ok_or_else(|| ApiError::internal("a complete grant without its credential"))
    }

    pub fn asked_for(&self, kind: ConnectionKind) -> bool {
        self.kinds.contains(&kind)
    }
}

/// The grant `select` may act on: 404 unknown or another account's, 409 not complete (yet, or
/// ended in an error) or already selected.
pub async fn selectable(
    state: &AppState,
    caller: &Caller,
    provider: Provider,
    token: &str,
) -> ApiResult<Selectable> {
    let (grant, product) = find_grant(state, caller, provider, token).await?;
    match grant.status {
        GrantFlowStatus::Complete if grant.selected_at.is_none() => {}
        GrantFlowStatus::Complete => return Err(already_selected()),
        GrantFlowStatus::Error => {
            return Err(ApiError::Conflict(format!(
                "this grant ended with an error: {}",
                grant.error.as_deref().unwrap_or("unknown")
            )));
        }
        GrantFlowStatus::Pending => {
            return Err(ApiError::Conflict(
                "the human has not completed consent yet; poll status until it is complete"
                    .to_owned(),
            ));
        }
    }
    let options = grant
        .options
        .as_deref()
        .and_then(|text| serde_json::from_str(text).ok())
        .unwrap_or_default();
    let kinds = kinds_of(&grant);
    Ok(Selectable {
        grant,
        product,
        options,
        kinds,
    })
}

fn already_selected() -> ApiError {
    ApiError::Conflict(
        "this grant's accounts were already selected; start again to connect another".to_owned(),
    )
}

/// One connection `select` makes: its kind, its non-secret settings, and its history payload.
#[derive(Debug)]
pub struct Activation {
    pub kind: ConnectionKind,
    pub config: Value,
    pub audit: Value,
}

/// Claims the selection once and makes each connection (sharing the grant's credential), in
/// one transaction; answers the kinds activated.
pub async fn activate(
    state: &AppState,
    caller: &Caller,
    provider: Provider,
    chosen: &Selectable,
    activations: Vec<Activation>,
) -> ApiResult<Vec<String>> {
    let credential_id = chosen.credential_id()?;
    let activated: Vec<String> = activations
        .iter()
        .map(|activation| activation.kind.as_str().to_owned())
        .collect();
    let results = json!({ "activated": activated }).to_string();
    let scope = caller.scope()?;
    let now = state.clock.now();
    let actor = caller.actor();
    let mut tx = state.store.begin().await?;
    if !store::claim_selection(&mut tx, &chosen.grant.state, &results, now).await? {
        return Err(already_selected());
    }
    for activation in activations {
        connect(
            &mut tx,
            scope,
            &actor,
            &chosen.product,
            provider,
            credential_id,
            activation,
            now,
        )
        .await?;
    }
    tx.commit().await?;
    Ok(activated)
}

#[allow(clippy::too_many_arguments)]
async fn connect(
    tx: &mut Tx,
    scope: &AccountScope,
    actor: &Actor,
    product: &ProductRow,
    provider: Provider,
    credential_id: &str,
    activation: Activation,
    now: Timestamp,
) -> ApiResult<()> {
    let mut config = activation.config;
    config["grant"] = json!(provider.word);
    let config = config.to_string();
    let new = NewConnection {
        product_id: &product.id,
        kind: activation.kind.as_str(),
        status: ConnectionStatus::Active.as_str(),
        config: &config,
        credential_id: Some(credential_id),
        event_maps: None,
    };
    let (connection_id, previous) = connection_store::upsert(tx, scope, new, now).await?;
    if let Some(previous) = previous.filter(|previous| previous != credential_id) {
        connection_store::delete_credential_if_unused(tx, &previous).await?;
    }
    let mut payload = activation.audit;
    payload["connection_id"] = json!(connection_id);
    payload["kind"] = json!(activation.kind.as_str());
    payload["grant"] = json!(provider.word);
    audit::record_product(tx, actor, product, "connection.connect", payload, now).await?;
    Ok(())
}

/// The sealed secret of a grant's credential, opened; `None` when it cannot be (no sealing
/// key, a malformed credential): a sweep then only forgets it.
pub async fn open_grant_secret(
    state: &AppState,
    grant: &GrantState,
    credential_id: &str,
) -> Option<Value> {
    let vault = source_config::vault(state).ok()?;
    let sealed = connection_store::credential(&state.store, credential_id)
        .await
        .ok()??;
    let plain = vault.open(&grant.account_id, &sealed).ok()?;
    serde_json::from_slice(&plain).ok()
}

/// How long a consented grant waits for its selection before its token is revoked.
const SELECTION_WINDOW_MS: i64 = 24 * 60 * MINUTE_MS;
/// Abandoned grants one sweep handles.
const SWEEP_BATCH: i64 = 50;

/// The `sweep_grants` job: a grant consented to but not selected within a day holds a sealed
/// token nobody uses; it is revoked at its provider, its credential deleted, and the state
/// marked `error` (a late `select` is refused). Revocation failures are logged and the token
/// forgotten all the same: keeping it would keep the access.
pub async fn sweep_abandoned(state: &AppState, now: Timestamp) -> ApiResult<String> {
    let before = now.minus_millis(SELECTION_WINDOW_MS);
    let abandoned = store::abandoned(&state.store, before, SWEEP_BATCH).await?;
    let mut revoked = 0;
    for grant in &abandoned {
        let Some(credential_id) = grant.credential_id.as_deref() else {
            continue;
        };
        if let Some(secret) = open_grant_secret(state, grant, credential_id).await {
            match revoke_abandoned(state, &grant.provider, &secret).await {
                Ok(true) => revoked += 1,
                Ok(false) => {}
                Err(err) => {
                    tracing::warn!(state = %grant.state, error = %err, "revoking an abandoned grant failed");
                }
            }
        }
        let mut tx = state.store.begin().await?;
        store::forget_credential(
            &mut tx,
            &grant.state,
            "no account was selected within a day; Payback revoked its access; start again",
        )
        .await?;
        connection_store::delete_credential_if_unused(&mut tx, credential_id).await?;
        tx.commit().await?;
    }
    Ok(format!(
        "{} abandoned grant(s) forgotten, {revoked} revoked upstream",
        abandoned.len()
    ))
}
