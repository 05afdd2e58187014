//! What the ad networks' key-based connects share (`social-ads-a`, `social-ads-b`), and the
//! choices their grants share with them: which ad account (the one named, or the only usable
//! one), the stored settings, the campaign name prefixes, and the policy wall.
//!
//! A connect proves the token with one live read before anything is stored: with an id, the
//! source's own `test` (the account answers, counts in the product's currency, is active);
//! without one, discovery: exactly one usable account is connected, otherwise nothing is and
//! the answer lists them (`accounts`) for the caller to choose and call again.

use std::future::Future;

use payback_connectors::graph::PageOption;
use payback_connectors::{AdAccountOption, ConnectorError, Source};
use payback_domain::connection::ConnectionKind;
use payback_domain::policy::{PolicyCode, PolicyRefusal};
use payback_store::products::ProductRow;
use payback_store::{Reader, policies};
use serde::Serialize;
use serde_json::{Value, json};
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};
use crate::secret::Secret;
use crate::services::acting::Caller;
use crate::services::key_connect::{self, Keyed};
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

/// The stored settings of an ad-account connection.
pub fn ad_account_config(account: &AdAccountOption, prefixes: &[String]) -> Value {
    json!({
        "ad_account_id": account.id,
        "ad_account_name": account.name,
        "currency": account.currency,
        "campaign_name_prefixes": prefixes,
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

/// What an ad network's kind brings to the shared key-based connect.
pub trait AdNetwork: Sync {
    /// The kind it connects.
    const KIND: ConnectionKind;
    /// The vendor's own origin, where its `PAYBACK_<KIND>_API_URL` is unset.
    const DEFAULT_ORIGIN: &'static str;
    /// The account id as the vendor spells it, from what a person typed; `None` when it is
    /// not one.
    const PLAIN_ID: fn(&str) -> Option<String>;
    /// The ad accounts the token reaches.
    fn discover<'a>(
        &'a self,
        state: &'a AppState,
        origin: &'a str,
        token: &'a str,
    ) -> impl Future<Output = Result<Vec<AdAccountOption>, ConnectorError>> + Send + 'a;
    /// The source of one account, to prove the token with its `test`.
    fn source(&self, state: &AppState, probe: Probe<'_>) -> Box<dyn Source>;
    /// Its checks on the product before anything is read (a policy wall); none by default.
    fn admit<'a>(
        &'a self,
        _state: &'a AppState,
        _caller: &'a Caller,
        _product: &'a ProductRow,
    ) -> impl Future<Output = ApiResult<()>> + Send + 'a {
        async { Ok(()) }
    }
}

/// One account read to prove a token.
#[derive(Debug, Clone, Copy)]
pub struct Probe<'a> {
    pub origin: &'a str,
    pub token: &'a str,
    pub ad_account_id: &'a str,
    pub prefixes: &'a [String],
    pub currency: &'a str,
}

/// `POST /products/{slug}/connections/{ad network}`: the token proven, then stored with the
/// account it reads.
pub async fn connect_ads<N: AdNetwork>(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    network: &N,
    input: AdsKeyInput,
) -> ApiResult<SocialConnected> {
    source_config::vault(state)?;
    let product = products::find(state, caller.scope()?, slug).await?;
    network.admit(state, caller, &product).await?;
    let token = input.access_token.expose().trim().to_owned();
    let prefixes = clean_prefixes(input.campaign_name_prefixes.unwrap_or_default())?;
    let plain_id = N::PLAIN_ID;
    let origin = source_config::vendor_origin(state, N::KIND, N::DEFAULT_ORIGIN);
    let (account, accounts) = match input.ad_account_id.as_deref() {
        Some(text) => {
            let id = plain_id(text).ok_or_else(|| {
                ApiError::bad_request(
                    "ad_account_id: must be the numeric ad account id (without `act_`)",
                )
            })?;
            let probe = Probe {
                origin: &origin,
                token: &token,
                ad_account_id: &id,
                prefixes: &prefixes,
                currency: &product.currency,
            };
            network
                .source(state, probe)
                .test()
                .await
                .map_err(|err| key_connect::refused(err, "ad_account_id"))?;
            let account = AdAccountOption {
                id,
                name: String::new(),
                currency: product.currency.clone(),
                status: "active".to_owned(),
            };
            (Some(account), None)
        }
        None => {
            let found = network
                .discover(state, &origin, &token)
                .await
                .map_err(|err| key_connect::refused(err, "ad_account_id"))?;
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
    let keyed = Keyed {
        kind: N::KIND,
        secret: json!({ "access_token": token }),
        config: ad_account_config(&account, &prefixes),
        audit: json!({ "ad_account_id": account.id, "campaign_name_prefixes": prefixes }),
    };
    let id = key_connect::store_keyed(state, caller, &product, keyed).await?;
    Ok(SocialConnected {
        ok: true,
        connection_id: Some(id),
        accounts,
        pages: None,
    })
}

/// Trimmed, empty ones dropped, duplicates once; 400 naming the field when too many or long.
pub fn clean_prefixes(prefixes: Vec<String>) -> ApiResult<Vec<String>> {
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
