//! The social-network grant (`socialco`, Facebook Login): one consent serves `social_ads_a`
//! (the ad account: spend in, approved budgets out) and `social_a` (a page and its linked
//! photo-sharing business account). The flow is the shared one of `services::grants`; what is
//! Meta's own: the Login dialog's scopes, the code exchanged for a short-lived user token and
//! that for a long-lived one (Meta gives no refresh token; the long-lived token is what is
//! sealed), the dialog's PKCE S256 challenge and the exchange's verifier, and discovery of the
//! ad accounts and pages the token reaches. An adult-adjacent
//! product is refused `social_ads_a` at `start` and again at `select` (the policy wall).

use payback_connectors::graph::{self, GraphApp};
use payback_connectors::social_ads_a;
use payback_connectors::{AdAccountOption, graph::PageOption};
use payback_domain::connection::ConnectionKind;
use payback_store::grant_states::GrantState;
use serde_json::{Value, json};

use crate::error::{ApiError, ApiResult};
use crate::services::acting::Caller;
use crate::services::grants::{
    self, Activation, CallbackOutcome, CallbackQuery, GrantClient, GrantStatus, Granted, Provider,
    Started, StartedFlow,
};
use crate::services::{products, social_connect, source_config};
use crate::state::AppState;

/// The provider word in paths and in `grant_states`.
pub const PROVIDER: &str = "socialco";
pub const META: Provider = Provider {
    word: PROVIDER,
    vendor: "Meta",
    token_prefix: "so_",
};
/// The kinds one social-network grant may serve.
pub const GRANT_KINDS: [ConnectionKind; 2] = [ConnectionKind::SocialAdsA, ConnectionKind::SocialA];

/// Payback's app at Meta from the configuration; 503 until the operator set it up.
pub fn app(state: &AppState) -> ApiResult<GraphApp> {
    let config = &state.config;
    let (Some(id), Some(secret)) = (&config.socialco_client_id, &config.socialco_client_secret)
    else {
        return Err(ApiError::ServiceUnavailable(
            "the social-network grant is not configured (set PAYBACK_SOCIALCO_CLIENT_ID and PAYBACK_SOCIALCO_CLIENT_SECRET)"
                .to_owned(),
        ));
    };
    let mut app = GraphApp::new(id.clone(), secret.expose().to_owned());
    if let Some(url) = &config.socialco_auth_url {
        url.clone_into(&mut app.dialog_url);
    }
    if let Some(url) = &config.socialco_token_url {
        url.clone_into(&mut app.token_url);
    }
    Ok(app)
}

/// The chosen kinds, checked (all of the grant's that have a connector when none are named).
fn grant_kinds(state: &AppState, words: Option<&[String]>) -> ApiResult<Vec<ConnectionKind>> {
    let Some(words) = words else {
        return Ok(GRANT_KINDS
            .into_iter()
            .filter(|kind| state.sources.reads(*kind))
            .collect());
    };
    if words.is_empty() {
        return Err(ApiError::bad_request(
            "kinds: choose at least one kind, or leave kinds out for both",
        ));
    }
    let mut kinds = Vec::new();
    for word in words {
        let kind = ConnectionKind::parse(word)
            .filter(|kind| GRANT_KINDS.contains(kind))
            .ok_or_else(|| {
                ApiError::bad_request(format!(
                    "kinds: `{word}` is not a kind of the social-network grant (social_ads_a, social_a)"
                ))
            })?;
        if !state.sources.reads(kind) {
            return Err(ApiError::bad_request(format!(
                "kinds: {kind} is not available yet"
            )));
        }
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    Ok(kinds)
}

fn scopes_of(kinds: &[ConnectionKind]) -> Vec<&'static str> {
    let mut scopes: Vec<&'static str> = Vec::new();
    for kind in kinds {
        let wanted = match kind {
            ConnectionKind::SocialAdsA => graph::SOCIAL_ADS_SCOPES,
            _ => graph::SOCIAL_PAGE_SCOPES,
        };
        for scope in wanted {
            if !scopes.contains(scope) {
                scopes.push(scope);
            }
        }
    }
    scopes
}

/// `POST /connect/socialco/start`.
pub async fn start(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    kind_words: Option<&[String]>,
    client: GrantClient,
) -> ApiResult<Started> {
    let app = app(state)?;
    source_config::vault(state)?;
    let product = products::find(state, caller.scope()?, slug).await?;
    let kinds = grant_kinds(state, kind_words)?;
    if kinds.contains(&ConnectionKind::SocialAdsA) {
        social_connect::adult_wall(state, caller, &product, ConnectionKind::SocialAdsA).await?;
    }
    let token = grants::new_token(META);
    let dialog = app.dialog_url(
        &grants::redirect_url(state, META),
        &token,
        &scopes_of(&kinds),
    );
    let flow = StartedFlow {
        token,
        product: &product,
        kinds: &kinds,
        client,
        pkce_verifier: &dialog.pkce_verifier,
        provider_url: dialog.url,
    };
    grants::record_start(state, caller, META, flow).await
}

/// `GET /connect/socialco/callback`: public; the single-use state ties it to an account, and
/// the cookie of the browser that confirmed it on Payback's page to the person. `browser` is the value of the confirming browser's cookie, if the request carried one.
pub async fn callback(
    state: &AppState,
    query: CallbackQuery,
    browser: Option<&str>,
) -> ApiResult<CallbackOutcome> {
    grants::callback(state, META, query, browser, |grant, code| async move {
        grant_from_code(state, &grant, &code).await
    })
    .await
}

/// Exchanges the code for a long-lived user token and discovers what it reaches.
async fn grant_from_code(
    state: &AppState,
    grant: &GrantState,
    code: &str,
) -> Result<Granted, String> {
    let internal =
        |err: ApiError| format!("Payback could not finish connecting ({err}); start again");
    let app = app(state).map_err(internal)?;
    let token = app
        .exchange_code(
            &state.http,
            &grants::redirect_url(state, META),
            code,
            &grant.pkce_verifier,
        )
        .await
        .map_err(|err| format!("the token exchange with Meta failed: {err}"))?;
    let kinds: Vec<String> = serde_json::from_str(&grant.kinds).unwrap_or_default();
    let asked = |kind: ConnectionKind| kinds.iter().any(|word| word == kind.as_str());
    let mut options = json!({});
    if asked(ConnectionKind::SocialAdsA) {
        let base = source_config::vendor_base_url(state, ConnectionKind::SocialAdsA);
        let accounts = graph::discover_ad_accounts(&state.http, &base, &token.access_token)
            .await
            .map_err(|err| {
                format!("Meta granted access, but listing its ad accounts failed: {err}")
            })?;
        options["ad_accounts"] = json!(accounts);
    }
    if asked(ConnectionKind::SocialA) {
        let base = source_config::vendor_base_url(state, ConnectionKind::SocialA);
        let pages = graph::discover_pages(&state.http, &base, &token.access_token)
            .await
            .map_err(|err| format!("Meta granted access, but listing its pages failed: {err}"))?;
        options["pages"] = json!(pages);
    }
    let now = state.clock.now();
    let expires_at = token
        .expires_in_secs
        .map(|secs| now.plus_millis(secs.saturating_mul(1_000)).to_rfc3339());
    Ok(Granted {
        secret: json!({ "access_token": token.access_token, "expires_at": expires_at }),
        options,
    })
}

/// `GET /connect/socialco/status`: 404 for another account's state or an unknown one.
pub async fn status(state: &AppState, caller: &Caller, token: &str) -> ApiResult<GrantStatus> {
    grants::status(state, caller, META, token).await
}

/// `POST /connect/socialco/select`'s choices.
#[derive(Debug, Default)]
pub struct Selection {
    pub ad_account_id: Option<String>,
    pub page_id: Option<String>,
}

/// `POST /connect/socialco/select`: activates the chosen ad account and page, once. Each kind
/// the grant was asked for needs its choice unless exactly one option exists; 404 unknown
/// state, 409 not complete or already selected, 400 a choice the grant does not offer, an ad
/// account in another currency or not active, 403 the policy wall (adult-adjacent products).
pub async fn select(
    state: &AppState,
    caller: &Caller,
    token: &str,
    selection: Selection,
) -> ApiResult<Vec<String>> {
    let chosen = grants::selectable(state, caller, META, token).await?;
    let mut activations = Vec::new();
    if chosen.asked_for(ConnectionKind::SocialAdsA) {
        social_connect::adult_wall(state, caller, &chosen.product, ConnectionKind::SocialAdsA)
            .await?;
        let accounts: Vec<AdAccountOption> =
            serde_json::from_value(chosen.options["ad_accounts"].clone()).unwrap_or_default();
        let account = social_connect::choose_ad_account(
            &accounts,
            selection.ad_account_id.as_deref(),
            &chosen.product,
            social_ads_a::plain_ad_account_id,
        )?;
        activations.push(Activation {
            kind: ConnectionKind::SocialAdsA,
            config: social_connect::ad_account_config(account, &[]),
            audit: json!({ "ad_account_id": account.id }),
        });
    } else if selection.ad_account_id.is_some() {
        return Err(ApiError::bad_request(
            "ad_account_id: social_ads_a was not part of this grant",
        ));
    }
    if chosen.asked_for(ConnectionKind::SocialA) {
        let pages: Vec<PageOption> =
            serde_json::from_value(chosen.options["pages"].clone()).unwrap_or_default();
        let page = social_connect::choose_page(&pages, selection.page_id.as_deref())?;
        activations.push(Activation {
            kind: ConnectionKind::SocialA,
            config: social_connect::page_config(page),
            audit: json!({ "page_id": page.id }),
        });
    } else if selection.page_id.is_some() {
        return Err(ApiError::bad_request(
            "page_id: social_a was not part of this grant",
        ));
    }
    grants::activate(state, caller, META, &chosen, activations).await
}

/// Ends a grant at Meta: the user token's permissions deleted (the sweep of abandoned grants,
/// and disconnect through the source).
pub async fn revoke(state: &AppState, secret: &Value) -> ApiResult<bool> {
    let Some(token) = secret["access_token"].as_str() else {
        return Ok(false);
    };
    let base = source_config::vendor_base_url(state, ConnectionKind::SocialAdsA);
    graph::revoke(&state.http, &base, token)
        .await
        .map_err(|err| ApiError::BadGateway(format!("revoking at Meta failed: {err}")))?;
    Ok(true)
}
