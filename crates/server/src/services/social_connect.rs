//! Key-based connects of the social kinds (`social-ads-a`, `social-ads-b`, `social-a`), the
//! Meta campaign filter, and the choices the social-network grant shares with them (which ad
//! account or page, the policy wall).
//!
//! A connect proves the token with one live read before anything is stored: with an id, the
//! source's own `test` (the account answers, counts in the product's currency, is active);
//! without one, discovery: exactly one usable account (or page) is connected, otherwise nothing
//! is and the answer lists them (`accounts`, `pages`) for the caller to choose and call again.

use payback_connectors::graph::{self, PageOption};
use payback_connectors::social_a::{SocialAConfig, SocialASource};
use payback_connectors::social_ads_a::{self, SocialAdsAConfig, SocialAdsASource};
use payback_connectors::social_ads_b::{self, SocialAdsBConfig, SocialAdsBSource};
use payback_connectors::{AdAccountOption, ConnectorError, Source};
use payback_domain::connection::{ConnectionKind, ConnectionStatus};
use payback_domain::policy::{PolicyCode, PolicyRefusal};
use payback_store::connections::{self as store, NewConnection};
use payback_store::products::ProductRow;
use payback_store::{Reader, policies, spend};
use serde::Serialize;
use serde_json::{Value, json};
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};
use crate::secret::Secret;
use crate::services::acting::Caller;
use crate::services::{audit, products, source_config};
use crate::state::AppState;

/// Campaign name prefixes a filter may hold.
pub const PREFIXES_MAX: usize = 50;
/// One prefix, in characters.
pub const PREFIX_MAX_CHARS: usize = 200;

/// The policy wall: an adult-adjacent product may not connect the social network's ads. 403
/// with `policy_code: network_wall`, recorded in history as `connection.refused`.
pub async fn adult_wall(
    state: &AppState,
    caller: &Caller,
    product: &ProductRow,
    kind: ConnectionKind,
) -> ApiResult<()> {
    let policy = policies::product_policy(Reader::from(&state.store), &product.id).await?;
    if !policy.adult_adjacent {
        return Ok(());
    }
    let message = format!(
        "{} is marked adult-adjacent, and adult-adjacent products may not connect {kind}: the social network's ad policies do not allow them",
        product.slug
    );
    let now = state.clock.now();
    let mut tx = state.store.begin().await?;
    let payload = json!({ "kind": kind.as_str(), "policy_code": PolicyCode::NetworkWall.as_str() });
    audit::record_product(
        &mut tx,
        &caller.actor(),
        product,
        "connection.refused",
        payload,
        now,
    )
    .await?;
    tx.commit().await?;
    Err(ApiError::PolicyWall(PolicyRefusal {
        code: PolicyCode::NetworkWall,
        message,
    }))
}

/// The ad account to connect from `accounts`: the one named, or the only usable one. 400 when
/// the choice is not offered, not active, in another currency, or ambiguous.
pub fn choose_ad_account<'a>(
    accounts: &'a [AdAccountOption],
    chosen: Option<&str>,
    product: &ProductRow,
    plain_id: fn(&str) -> Option<String>,
) -> ApiResult<&'a AdAccountOption> {
    let usable = |account: &&AdAccountOption| {
        account.status == "active" && account.currency.eq_ignore_ascii_case(&product.currency)
    };
    let account = match chosen {
        Some(text) => {
            let id = plain_id(text).ok_or_else(|| {
                ApiError::bad_request("ad_account_id: must be the numeric ad account id")
            })?;
            accounts.iter().find(|a| a.id == id).ok_or_else(|| {
                ApiError::bad_request(format!(
                    "ad_account_id: {id} is not an ad account this token reaches"
                ))
            })?
        }
        None => {
            let candidates: Vec<&AdAccountOption> = accounts.iter().filter(usable).collect();
            match candidates.as_slice() {
                [only] => *only,
                [] => {
                    return Err(ApiError::bad_request(format!(
                        "ad_account_id: no active ad account in {} is reachable",
                        product.currency
                    )));
                }
                _ => {
                    return Err(ApiError::bad_request(format!(
                        "ad_account_id: choose one of {}",
                        ids(&candidates)
                    )));
                }
            }
        }
    };
    if !account.currency.eq_ignore_ascii_case(&product.currency) {
        return Err(ApiError::bad_request(format!(
            "ad_account_id: the account reports in {} but {} counts in {}; spend is never mixed across currencies",
            account.currency, product.slug, product.currency
        )));
    }
    if account.status != "active" {
        return Err(ApiError::bad_request(format!(
            "ad_account_id: the account is {}, not active",
            account.status
        )));
    }
    Ok(account)
}

fn ids(accounts: &[&AdAccountOption]) -> String {
    accounts
        .iter()
        .map(|account| account.id.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The page to connect: the one named, or the only one.
pub fn choose_page<'a>(pages: &'a [PageOption], chosen: Option<&str>) -> ApiResult<&'a PageOption> {
    match chosen {
        Some(id) => pages.iter().find(|page| page.id == id).ok_or_else(|| {
            ApiError::bad_request(format!("page_id: {id} is not a page this token reaches"))
        }),
        None => match pages {
            [only] => Ok(only),
            [] => Err(ApiError::bad_request("page_id: this token reaches no page")),
            _ => Err(ApiError::bad_request(format!(
                "page_id: choose one of {}",
                pages
                    .iter()
                    .map(|page| page.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
        },
    }
}

/// The stored settings of an ad-account connection.
pub fn ad_account_config(account: &AdAccountOption, prefixes: &[String]) -> Value {
    json!({
        "ad_account_id": account.id,
        "ad_account_name": account.name,
        "currency": account.currency,
        "campaign_name_prefixes": prefixes,
    })
}

/// The stored settings of a page connection.
pub fn page_config(page: &PageOption) -> Value {
    json!({
        "page_id": page.id,
        "page_name": page.name,
        "instagram_account_id": page.instagram_account.as_ref().map(|account| account.id.clone()),
        "instagram_username": page.instagram_account.as_ref().and_then(|account| account.username.clone()),
    })
}

/// A key-based connect's answer: the connection made, or what to choose from.
#[derive(Debug, Serialize, ToSchema)]
pub struct SocialConnected {
    pub ok: bool,
    /// `null` when nothing was connected because a choice is needed (see `accounts`/`pages`).
    pub connection_id: Option<String>,
    /// The ad accounts the token reaches (when `ad_account_id` was left out).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<Object>>)]
    pub accounts: Option<Vec<AdAccountOption>>,
    /// The pages the token reaches (when `page_id` was left out).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<Object>>)]
    pub pages: Option<Vec<PageOption>>,
}

/// What a key-based ad-account connect takes.
#[derive(Debug)]
pub struct AdsKeyInput {
    pub access_token: Secret,
    pub ad_account_id: Option<String>,
    pub campaign_name_prefixes: Option<Vec<String>>,
}

/// `POST /products/{slug}/connections/social-ads-a` and `.../social-ads-b`.
pub async fn connect_ads(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    kind: ConnectionKind,
    input: AdsKeyInput,
) -> ApiResult<SocialConnected> {
    source_config::vault(state)?;
    let product = products::find(state, caller.scope()?, slug).await?;
    if kind == ConnectionKind::SocialAdsA {
        adult_wall(state, caller, &product, kind).await?;
    }
    let token = input.access_token.expose().trim().to_owned();
    let prefixes = clean_prefixes(input.campaign_name_prefixes.unwrap_or_default())?;
    let plain_id = match kind {
        ConnectionKind::SocialAdsA => social_ads_a::plain_ad_account_id,
        _ => social_ads_b::plain_ad_account_id,
    };
    let base = source_config::vendor_base_url(state, kind);
    let (account, accounts) = match input.ad_account_id.as_deref() {
        Some(text) => {
            let id = plain_id(text).ok_or_else(|| {
                ApiError::bad_request(
                    "ad_account_id: must be the numeric ad account id (without `act_`)",
                )
            })?;
            let source = ads_source(state, kind, &base, &token, &id, &prefixes, &product);
            source
                .test()
                .await
                .map_err(|err| refused(err, "ad_account_id"))?;
            let account = AdAccountOption {
                id,
                name: String::new(),
                currency: product.currency.clone(),
                status: "active".to_owned(),
            };
            (Some(account), None)
        }
        None => {
            let found = match kind {
                ConnectionKind::SocialAdsA => {
                    graph::discover_ad_accounts(&state.http, &base, &token).await
                }
                _ => social_ads_b::discover_ad_accounts(&state.http, &base, &token).await,
            }
            .map_err(|err| refused(err, "ad_account_id"))?;
            let chosen = choose_ad_account(&found, None, &product, plain_id)
                .ok()
                .cloned();
            (chosen, Some(found))
        }
    };
    let Some(account) = account else {
        return Ok(SocialConnected {
            ok: true,
            connection_id: None,
            accounts,
            pages: None,
        });
    };
    let config = ad_account_config(&account, &prefixes);
    let audit = json!({ "ad_account_id": account.id, "campaign_name_prefixes": prefixes });
    let id = store_key_connection(state, caller, &product, kind, &token, config, audit).await?;
    Ok(SocialConnected {
        ok: true,
        connection_id: Some(id),
        accounts,
        pages: None,
    })
}

#[allow(clippy::too_many_arguments)]
fn ads_source(
    state: &AppState,
    kind: ConnectionKind,
    base: &str,
    token: &str,
    ad_account_id: &str,
    prefixes: &[String],
    product: &ProductRow,
) -> Box<dyn Source> {
    match kind {
        ConnectionKind::SocialAdsA => {
            let mut config = SocialAdsAConfig::new(
                token.to_owned(),
                ad_account_id.to_owned(),
                prefixes.to_vec(),
            );
            base.clone_into(&mut config.graph_base_url);
            Box::new(SocialAdsASource::new(
                state.http.clone(),
                config,
                &product.currency,
            ))
        }
        _ => {
            let mut config = SocialAdsBConfig::new(token.to_owned(), ad_account_id.to_owned());
            base.clone_into(&mut config.api_base_url);
            Box::new(SocialAdsBSource::new(
                state.http.clone(),
                config,
                &product.currency,
            ))
        }
    }
}

/// A vendor's refusal of a connect, as a 4xx naming the field at fault (502 when the vendor
/// could not answer).
fn refused(err: ConnectorError, id_field: &str) -> ApiError {
    match err {
        ConnectorError::Unauthorized(reason) => {
            ApiError::bad_request(format!("access_token: refused: {reason}"))
        }
        ConnectorError::Config(reason) | ConnectorError::Vendor(reason) => {
            ApiError::bad_request(format!("{id_field}: {reason}"))
        }
        other => ApiError::BadGateway(other.to_string()),
    }
}

/// What a key-based page connect takes.
#[derive(Debug)]
pub struct PageKeyInput {
    pub access_token: Secret,
    pub page_id: Option<String>,
}

/// `POST /products/{slug}/connections/social-a`.
pub async fn connect_page(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    input: PageKeyInput,
) -> ApiResult<SocialConnected> {
    source_config::vault(state)?;
    let product = products::find(state, caller.scope()?, slug).await?;
    let token = input.access_token.expose().trim().to_owned();
    let base = source_config::vendor_base_url(state, ConnectionKind::SocialA);
    let (page, pages) = match input.page_id.as_deref() {
        Some(id) => {
            if id.is_empty() || !id.chars().all(|c| c.is_ascii_digit()) {
                return Err(ApiError::bad_request(
                    "page_id: must be the numeric page id",
                ));
            }
            let mut config = SocialAConfig::new(token.clone(), id.to_owned());
            base.clone_into(&mut config.graph_base_url);
            let source = SocialASource::new(state.http.clone(), config);
            source.test().await.map_err(|err| refused(err, "page_id"))?;
            let page = PageOption {
                id: id.to_owned(),
                name: String::new(),
                instagram_account: None,
            };
            (Some(page), None)
        }
        None => {
            let found = graph::discover_pages(&state.http, &base, &token)
                .await
                .map_err(|err| refused(err, "page_id"))?;
            let chosen = choose_page(&found, None).ok().cloned();
            (chosen, Some(found))
        }
    };
    let Some(page) = page else {
        return Ok(SocialConnected {
            ok: true,
            connection_id: None,
            accounts: None,
            pages,
        });
    };
    let config = page_config(&page);
    let audit = json!({ "page_id": page.id });
    let kind = ConnectionKind::SocialA;
    let id = store_key_connection(state, caller, &product, kind, &token, config, audit).await?;
    Ok(SocialConnected {
        ok: true,
        connection_id: Some(id),
        accounts: None,
        pages,
    })
}

/// Seals the token and writes the connection and its history event in one transaction.
async fn store_key_connection(
    state: &AppState,
    caller: &Caller,
    product: &ProductRow,
    kind: ConnectionKind,
    token: &str,
    config: Value,
    mut audit_payload: Value,
) -> ApiResult<String> {
    let vault = source_config::vault(state)?;
    let scope = caller.scope()?;
    let secret = json!({ "access_token": token }).to_string();
    let sealed = vault.seal(scope.account_id(), secret.as_bytes())?;
    let config = config.to_string();
    let now = state.clock.now();
    let mut tx = state.store.begin().await?;
    let credential_id = store::insert_credential(&mut tx, scope, &sealed, now).await?;
    let new = NewConnection {
        product_id: &product.id,
        kind: kind.as_str(),
        status: ConnectionStatus::Active.as_str(),
        config: &config,
        credential_id: Some(&credential_id),
        event_maps: None,
    };
    let (id, previous) = store::upsert(&mut tx, scope, new, now).await?;
    if let Some(previous) = previous {
        store::delete_credential_if_unused(&mut tx, &previous).await?;
    }
    audit_payload["connection_id"] = json!(id);
    audit_payload["kind"] = json!(kind.as_str());
    audit::record_product(
        &mut tx,
        &caller.actor(),
        product,
        "connection.connect",
        audit_payload,
        now,
    )
    .await?;
    tx.commit().await?;
    Ok(id)
}

/// Trimmed, empty ones dropped, duplicates once; 400 naming the field when too many or long.
fn clean_prefixes(prefixes: Vec<String>) -> ApiResult<Vec<String>> {
    if prefixes.len() > PREFIXES_MAX {
        return Err(ApiError::bad_request(format!(
            "campaign_name_prefixes: at most {PREFIXES_MAX}"
        )));
    }
    let mut clean: Vec<String> = Vec::new();
    for prefix in prefixes {
        let prefix = prefix.trim();
        if prefix.chars().count() > PREFIX_MAX_CHARS {
            return Err(ApiError::bad_request(format!(
                "campaign_name_prefixes: each at most {PREFIX_MAX_CHARS} characters"
            )));
        }
        if !prefix.is_empty() && !clean.iter().any(|kept| kept == prefix) {
            clean.push(prefix.to_owned());
        }
    }
    Ok(clean)
}

/// `POST .../social-ads-a/campaign-filter`'s answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct FilterSet {
    pub ok: bool,
    pub campaign_name_prefixes: Vec<String>,
    /// Stored spend rows of campaigns the filter no longer takes, dropped now.
    pub dropped_rows: u64,
}

/// Sets the Meta connection's campaign filter and drops the ad account's stored spend of every
/// campaign it no longer takes (all days), in one transaction; the next sync reads only
/// matching campaigns. 404 without a `social_ads_a` connection.
pub async fn set_campaign_filter(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    prefixes: Vec<String>,
) -> ApiResult<FilterSet> {
    let prefixes = clean_prefixes(prefixes)?;
    let product = products::find(state, caller.scope()?, slug).await?;
    let kind = ConnectionKind::SocialAdsA;
    let not_found = || ApiError::NotFound("no social-ads-a connection for this product".to_owned());
    let now = state.clock.now();
    let mut tx = state.store.begin().await?;
    let row = store::find_locked(&mut tx, &product.id, kind.as_str())
        .await?
        .ok_or_else(not_found)?;
    let mut config: Value = serde_json::from_str(&row.config)
        .map_err(|_| ApiError::internal("a connection's config is malformed"))?;
    let ad_account = config["ad_account_id"]
        .as_str()
        .ok_or_else(|| ApiError::internal("a social_ads_a connection without its ad account"))?
        .to_owned();
    config["campaign_name_prefixes"] = json!(prefixes);
    store::set_config(&mut tx, &row.id, &config.to_string()).await?;
    let network = kind.spec().spend.map_or("meta", |landing| landing.network);
    let stored = spend::account_campaigns(&mut tx, &product.id, network, &ad_account).await?;
    let dropped_campaigns: Vec<String> = stored
        .into_iter()
        .filter(|campaign| {
            !social_ads_a::campaign_matches(
                campaign.campaign_name.as_deref().unwrap_or(""),
                &prefixes,
            )
        })
        .map(|campaign| campaign.campaign_id)
        .collect();
    let dropped_rows = spend::delete_account_campaigns(
        &mut tx,
        &product.id,
        network,
        &ad_account,
        &dropped_campaigns,
    )
    .await?;
    let payload = json!({
        "connection_id": row.id,
        "kind": kind.as_str(),
        "campaign_name_prefixes": prefixes,
        "dropped_campaigns": dropped_campaigns,
        "dropped_rows": dropped_rows,
    });
    audit::record_product(
        &mut tx,
        &caller.actor(),
        &product,
        "connection.campaign_filter",
        payload,
        now,
    )
    .await?;
    tx.commit().await?;
    Ok(FilterSet {
        ok: true,
        campaign_name_prefixes: prefixes,
        dropped_rows,
    })
}
