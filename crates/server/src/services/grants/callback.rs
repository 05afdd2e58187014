//! `GET /connect/{provider}/callback`: the state claimed once, in the browser that confirmed
//! it; the code exchanged, what the grant reaches discovered, the secret sealed.

use std::future::Future;

use payback_domain::Actor;
use payback_store::AccountScope;
use payback_store::connections::{self as connection_store};
use payback_store::grant_states::{self as store, GrantState};
use payback_store::products::{self as product_store, ProductRow};
use serde::Deserialize;
use serde_json::{Value, json};

use super::{Code, GrantClient, GrantProvider, GrantedKinds, Provider, kinds_of, redirect_url};
use crate::crypto::{constant_time_eq, token_hash};
use crate::error::{ApiError, ApiResult};
use crate::services::{audit, source_config};
use crate::state::AppState;

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
pub(super) async fn grant_from_code<P: GrantProvider>(
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
    // In the registrations' order, whatever the order asked in.
    let mut options = serde_json::Map::new();
    for granted in GrantedKinds::<P>::of(state)
        .iter()
        .filter(|granted| kinds.contains(&granted.kind()))
    {
        if let Value::Object(found) = granted.discover(state, &client, &tokens).await? {
            options.extend(found);
        }
    }
    let options = Value::Object(options);
    Ok(Granted {
        secret: P::secret(&tokens),
        options,
    })
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
pub(super) async fn complete(
    state: &AppState,
    grant: &GrantState,
    granted: Granted,
) -> Result<(), String> {
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
pub(super) fn finish_page(
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
