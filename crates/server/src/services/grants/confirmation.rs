//! Payback's confirmation page of a started grant (`GET /connect/{provider}/confirm`) and its
//! form (`POST`), which binds the state to the confirming browser and sends the person on.

use payback_domain::Timestamp;
use payback_domain::connection::GrantFlowStatus;
use payback_store::AccountScope;
use payback_store::accounts as account_store;
use payback_store::grant_states::{self as store, GrantState};
use payback_store::products::{self as product_store};
use serde_json::json;

use super::{Access, AccessWords, Provider, kinds_of, started_by};
use crate::crypto::token_hash;
use crate::error::{ApiError, ApiResult};
use crate::services::audit;
use crate::state::AppState;

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
    pub access: Vec<Access>,
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

/// A state's token as a page takes it: at most 100 characters.
pub(super) fn page_token(token: Option<&str>) -> Option<&str> {
    token.filter(|token| !token.is_empty() && token.chars().count() <= 100)
}

/// Why a state cannot be confirmed (anymore), in a person's words; `None` while it can be.
pub(super) fn unusable(grant: &GrantState, now: Timestamp) -> Option<String> {
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

pub(super) fn unknown_link() -> String {
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
    let access = kinds_of(&grant)
        .into_iter()
        .map(|kind| AccessWords::of(state, kind))
        .collect();
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
pub(super) fn new_token_of_browser() -> String {
    crate::crypto::new_token("gb_")
}
