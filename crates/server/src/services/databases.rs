//! Customer databases (`sql_a` PostgreSQL, `sql_b` MySQL/MariaDB, `docdb` MongoDB): connecting
//! with tenant credentials (sealed) or, for `sql_a` and operators only, environment variable
//! names; and replacing a connection's event maps. Staged connections (`pending`) never sync;
//! `active` ones are read hourly.

use payback_connectors::database::ReadLimits;
use payback_connectors::docdb::DocdbCredentials;
use payback_connectors::sql::SqlCredentials;
use payback_domain::connection::{ConnectionKind, ConnectionStatus};
use payback_domain::event_map::{self, EventMap};
use payback_domain::source_kind::Family;
use payback_store::connections::{self as store, ConnectionRow, NewConnection};
use payback_store::products::ProductRow;
use serde_json::{Value, json};

use crate::error::{ApiError, ApiResult};
use crate::secret::Secret;
use crate::services::acting::Caller;
use crate::services::database_env::EnvNames;
use crate::services::event_maps::{self, MapsChange};
use crate::services::{audit, products, source_config};
use crate::state::AppState;

/// The largest credentials object taken, serialized: host, user, password and database, or a
/// connection string, fit many times over; anything larger is not credentials.
pub const MAX_CREDENTIALS_BYTES: usize = 4 * 1024;

/// What a database connect body carries.
#[derive(Debug)]
pub struct DatabaseInput {
    /// The credentials object's JSON text, a `Secret` like every password.
    pub credentials: Option<Secret>,
    pub env: EnvNames,
    pub event_maps: Option<Vec<EventMap>>,
    pub status: Option<String>,
}

/// The statuses a connect or maps body may ask for.
pub const REQUESTABLE_STATUSES: [ConnectionStatus; 2] =
    [ConnectionStatus::Pending, ConnectionStatus::Active];

/// `pending` or `active`, as a connect or maps body may ask.
fn requested_status(status: Option<&str>) -> ApiResult<Option<ConnectionStatus>> {
    let Some(status) = status.map(str::trim) else {
        return Ok(None);
    };
    REQUESTABLE_STATUSES
        .into_iter()
        .find(|candidate| candidate.as_str() == status)
        .map(Some)
        .ok_or_else(|| ApiError::bad_request("status: must be `pending` or `active`"))
}

/// A database connection goes active only with something to read.
fn settle_status(
    requested: Option<ConnectionStatus>,
    has_maps: bool,
) -> ApiResult<ConnectionStatus> {
    match requested {
        Some(ConnectionStatus::Active) if !has_maps => Err(ApiError::bad_request(
            "status: an active database connection needs event_maps (stage it as `pending` until they are ready)",
        )),
        Some(status) => Ok(status),
        None if has_maps => Ok(ConnectionStatus::Active),
        None => Ok(ConnectionStatus::Pending),
    }
}

/// The credential as stored (sealed) and the target as shown (no password). Hosts must resolve
/// and be public, SRV targets included (see `host_guard`); each run checks them again.
async fn parse_credentials(
    state: &AppState,
    kind: ConnectionKind,
    credentials: &Secret,
) -> ApiResult<(Value, String)> {
    let text = credentials.expose();
    if text.len() > MAX_CREDENTIALS_BYTES {
        return Err(ApiError::bad_request(format!(
            "credentials: must be at most {MAX_CREDENTIALS_BYTES} bytes serialized, got {}",
            text.len()
        )));
    }
    let credentials: Value = serde_json::from_str(text)
        .map_err(|_| ApiError::bad_request("credentials: must be JSON"))?;
    let credentials = &credentials;
    let refuse =
        |(field, message): (String, String)| ApiError::bad_request(format!("{field}: {message}"));
    match source_config::dialect(kind) {
        Some(dialect) => {
            let parsed = SqlCredentials::from_json(credentials, dialect).map_err(refuse)?;
            source_config::sql_addresses(state, &parsed).await?;
            Ok((credentials.clone(), parsed.describe()))
        }
        None => {
            let parsed = DocdbCredentials::from_json(credentials).map_err(refuse)?;
            source_config::docdb_seeds(state, &parsed, ReadLimits::default()).await?;
            Ok((credentials.clone(), parsed.describe()))
        }
    }
}

/// Connects (or re-configures) a customer database. Answers the connection id and its status.
pub async fn connect(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    kind: ConnectionKind,
    input: DatabaseInput,
) -> ApiResult<(String, ConnectionStatus)> {
    let scope = caller.scope()?;
    let product = products::find(state, scope, slug).await?;
    let env_path = input.env.any();
    if env_path {
        if !kind.spec().env_setup {
            return Err(ApiError::bad_request(format!(
                "host_env: only {} takes environment variable names, not {}",
                ConnectionKind::env_setup_words().join(" or "),
                kind.path_word()
            )));
        }
        if !caller.is_operator {
            return Err(ApiError::Forbidden(
                "the *_env names read the API host's environment: operators only".to_owned(),
            ));
        }
        if input.credentials.is_some() {
            return Err(ApiError::bad_request(
                "credentials: give either credentials or the *_env names, not both",
            ));
        }
    }
    let env = if env_path {
        Some(input.env.check()?)
    } else {
        None
    };
    let credentials = match (&input.credentials, env_path) {
        (Some(credentials), _) => Some(parse_credentials(state, kind, credentials).await?),
        // A kind set up from the host's environment (`sql-a`) may also be staged with its maps
        // before anyone has credentials or variable names for it.
        (None, _) if kind.spec().env_setup => None,
        (None, _) => return Err(ApiError::bad_request("credentials: required")),
    };
    let maps = match input.event_maps {
        Some(maps) => Some(check_maps(state, &product, kind, maps).await?),
        None => None,
    };
    let now = state.clock.now();
    let mut tx = state.store.begin().await?;
    let existing = store::find_locked(&mut tx, &product.id, kind.as_str()).await?;
    let has_maps = match (&maps, &existing) {
        (Some(maps), _) => !maps.is_empty(),
        (None, Some(row)) => !source_config::event_maps(row)?.is_empty(),
        (None, None) => false,
    };
    let requested = requested_status(input.status.as_deref())?;
    // Re-posting a staged `sql-a` without credentials keeps the ones it already has.
    let kept = match (&credentials, &env, &existing) {
        (None, None, Some(row)) => Some((row.credential_id.clone(), row.config.clone())),
        _ => None,
    };
    let usable = credentials.is_some()
        || env.is_some()
        || kept
            .as_ref()
            .is_some_and(|(id, config)| id.is_some() || config.contains("operator_environment"));
    if requested == Some(ConnectionStatus::Active) && !usable {
        return Err(ApiError::bad_request(
            "status: an active connection needs credentials (stage it as `pending` until they are known)",
        ));
    }
    let status = if usable {
        settle_status(requested, has_maps)?
    } else {
        ConnectionStatus::Pending
    };
    let sealed = match &credentials {
        Some((secret, _)) => Some(
            source_config::vault(state)?.seal(scope.account_id(), secret.to_string().as_bytes())?,
        ),
        None => None,
    };
    let config = match (&credentials, &env, &kept) {
        (Some((_, target)), _, _) => json!({ "target": target, "via": "credentials" }),
        (None, Some(names), _) => json!({ "via": "operator_environment", "env": names }),
        (None, None, Some((_, config))) => {
            serde_json::from_str(config).unwrap_or_else(|_| json!({}))
        }
        (None, None, None) => json!({ "via": "none yet" }),
    };
    let maps_json = maps.as_ref().map(|maps| json!(maps).to_string());
    let credential_id = match (&sealed, kept) {
        (Some(sealed), _) => Some(store::insert_credential(&mut tx, scope, sealed, now).await?),
        (None, Some((kept_id, _))) => kept_id,
        (None, None) => None,
    };
    let config_text = config.to_string();
    let new = NewConnection {
        product_id: &product.id,
        kind: kind.as_str(),
        status: status.as_str(),
        config: &config_text,
        credential_id: credential_id.as_deref(),
        event_maps: maps_json.as_deref(),
    };
    let (id, previous) = store::upsert(&mut tx, scope, new, now).await?;
    if let Some(previous) = previous.filter(|previous| Some(previous) != credential_id.as_ref()) {
        store::delete_credential_if_unused(&mut tx, &previous).await?;
    }
    let payload = json!({
        "connection_id": id, "kind": kind.as_str(), "status": status.as_str(), "config": config,
        "event_maps": maps.as_ref().map(Vec::len),
    });
    audit::record_product(
        &mut tx,
        &caller.actor(),
        &product,
        "connection.connect",
        payload,
        now,
    )
    .await?;
    tx.commit().await?;
    Ok((id, status))
}

/// Replaces the event maps of the product's connection named by the path word; a `status` may
/// stage or activate it at the same time. 404 when there is no such connection.
pub async fn replace_event_maps(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    kind_word: &str,
    maps: Vec<EventMap>,
    status: Option<String>,
) -> ApiResult<Vec<EventMap>> {
    let product = products::find(state, caller.scope()?, slug).await?;
    let not_found = || ApiError::NotFound(format!("no {kind_word} connection for this product"));
    let kind = ConnectionKind::from_path(kind_word)
        .filter(|kind| kind.is_database())
        .ok_or_else(not_found)?;
    let row = store::find(&state.store, &product.id, kind.as_str())
        .await?
        .ok_or_else(not_found)?;
    let maps = check_maps(state, &product, kind, maps).await?;
    let requested = requested_status(status.as_deref())?;
    let status = match requested {
        Some(_) => Some(settle_status(requested, !maps.is_empty())?),
        // Taking every map away from an active connection stages it again.
        None if maps.is_empty() && row.status != ConnectionStatus::Disabled => {
            Some(ConnectionStatus::Pending)
        }
        None => None,
    };
    let now = state.clock.now();
    let mut tx = state.store.begin().await?;
    let stored = json!(maps);
    let change = MapsChange {
        connection_id: &row.id,
        kind,
        maps: &stored,
        status,
    };
    event_maps::write(&mut tx, caller, &product, change, now).await?;
    tx.commit().await?;
    Ok(maps)
}

/// The maps checked by the domain's rules, and refused when a stage they feed is already fed
/// by another of the product's sources: a stage fed twice double-counts.
async fn check_maps(
    state: &AppState,
    product: &ProductRow,
    kind: ConnectionKind,
    maps: Vec<EventMap>,
) -> ApiResult<Vec<EventMap>> {
    let maps = event_map::check_maps(maps, kind.field_syntax())
        .map_err(|err| ApiError::bad_request(err.to_string()))?;
    let others = store::for_product(&state.store, &product.id).await?;
    for (index, map) in maps.iter().enumerate() {
        if let Some(owner) = others
            .iter()
            .filter(|other| other.kind != kind)
            .find(|other| feeds_stage(other, &map.stage))
        {
            return Err(ApiError::bad_request(format!(
                "event_maps[{index}].stage: `{}` is already fed by the {} connection; map each stage from one source only",
                map.stage, owner.kind
            )));
        }
    }
    Ok(maps)
}

/// Whether another connection already writes `stage`: a database through its maps, the
/// payments processor its charge stage and `payment` (refunds and disputes).
fn feeds_stage(row: &ConnectionRow, stage: &str) -> bool {
    match row.kind.family() {
        Family::Payments => {
            let charge_stage = serde_json::from_str::<Value>(&row.config)
                .ok()
                .and_then(|config| config["default_stage"].as_str().map(str::to_owned))
                .unwrap_or_else(|| "payment".to_owned());
            stage == "payment" || stage == charge_stage
        }
        Family::Database => source_config::event_maps(row)
            .map(|maps| maps.iter().any(|map| map.stage == stage))
            .unwrap_or(false),
        _ => false,
    }
}
