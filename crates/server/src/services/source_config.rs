//! A stored connection turned back into what its connector needs: the sealed credential opened
//! (with the account id as associated data), the non-secret settings read from `config`, the
//! vendor origins and limits from the service's configuration. The only place that opens a
//! credential.

use payback_connectors::database::ReadLimits;
use payback_connectors::docdb::{DocdbConfig, DocdbCredentials};
use payback_connectors::payments::{PaymentStage, PaymentsConfig};
use payback_connectors::sql::{Dialect, SqlConfig, SqlCredentials};
use payback_domain::connection::ConnectionKind;
use payback_domain::event_map::EventMap;
use payback_store::connections::{self as store, ConnectionRow};
use serde::Deserialize;

use crate::error::{ApiError, ApiResult};
use crate::secrets::CredentialBox;
use crate::services::database_env::EnvNames;
use crate::services::host_guard;
use crate::state::AppState;

/// 503 unless `PAYBACK_SECRET_KEY` is configured.
pub fn vault(state: &AppState) -> ApiResult<&CredentialBox> {
    state.credentials.as_deref().ok_or_else(|| {
        ApiError::ServiceUnavailable(
            "credential encryption is not configured (set PAYBACK_SECRET_KEY)".to_owned(),
        )
    })
}

fn no_credentials() -> ApiError {
    ApiError::Conflict("this connection has no credentials yet".to_owned())
}

/// The connection's secret, opened. 409 when it has none.
async fn open_secret(state: &AppState, row: &ConnectionRow) -> ApiResult<serde_json::Value> {
    let credential_id = row.credential_id.as_deref().ok_or_else(no_credentials)?;
    let vault = vault(state)?;
    let sealed = store::credential(&state.store, credential_id)
        .await?
        .ok_or_else(no_credentials)?;
    let plain = vault.open(&row.account_id, &sealed)?;
    serde_json::from_slice(&plain)
        .map_err(|_| ApiError::internal("a stored credential is malformed"))
}

/// The non-secret settings of a connection, as stored in `config`.
#[derive(Default, Deserialize)]
struct Settings {
    default_stage: Option<String>,
    /// The operator's environment variable names (`sql_a` only).
    env: Option<EnvNames>,
}

fn settings(row: &ConnectionRow) -> ApiResult<Settings> {
    serde_json::from_str(&row.config)
        .map_err(|_| ApiError::internal("a connection's config is malformed"))
}

/// The sealed part of a payments connection.
#[derive(Deserialize)]
struct PaymentsSecret {
    secret_key: String,
}

pub async fn payments(state: &AppState, row: &ConnectionRow) -> ApiResult<PaymentsConfig> {
    let secret: PaymentsSecret = serde_json::from_value(open_secret(state, row).await?)
        .map_err(|_| ApiError::internal("a stored credential is malformed"))?;
    let stage = settings(row)?
        .default_stage
        .as_deref()
        .and_then(PaymentStage::parse)
        .unwrap_or_default();
    let mut config = PaymentsConfig::new(secret.secret_key, stage);
    config.base_url.clone_from(&state.config.stripe_api_base);
    Ok(config)
}

/// A customer database, whichever engine.
#[derive(Debug)]
pub enum Database {
    Sql(SqlConfig),
    Docdb(DocdbConfig),
}

/// The relational dialect of a kind.
pub fn dialect(kind: ConnectionKind) -> Option<Dialect> {
    match kind {
        ConnectionKind::SqlA => Some(Dialect::Postgres),
        ConnectionKind::SqlB => Some(Dialect::MySql),
        _ => None,
    }
}

/// The database a `sql_a`/`sql_b`/`docdb` connection reads: from its sealed credentials, or
/// (`sql_a` set up by an operator) from the host's environment variables it names.
pub async fn database(state: &AppState, row: &ConnectionRow) -> ApiResult<Database> {
    let kind = ConnectionKind::parse(&row.kind)
        .filter(|kind| kind.is_database())
        .ok_or_else(|| ApiError::internal("not a database connection"))?;
    let limits = ReadLimits::default();
    let malformed = |_| ApiError::internal("a stored credential is malformed");
    if let Some(dialect) = dialect(kind) {
        let credentials = match settings(row)?.env {
            // The operator chose these hosts; they may well be private.
            Some(names) => names.resolve(&state.config.host_env)?,
            None => {
                let credentials =
                    SqlCredentials::from_json(&open_secret(state, row).await?, dialect)
                        .map_err(malformed)?;
                guard_hosts(state, &sql_hosts(&credentials), "credentials.host").await?;
                credentials
            }
        };
        return Ok(Database::Sql(SqlConfig {
            dialect,
            credentials,
            limits,
        }));
    }
    let credentials =
        DocdbCredentials::from_json(&open_secret(state, row).await?).map_err(malformed)?;
    guard_hosts(state, &credentials.hosts(), "credentials.uri").await?;
    Ok(Database::Docdb(DocdbConfig {
        credentials,
        limits,
    }))
}

pub fn sql_hosts(credentials: &SqlCredentials) -> Vec<(String, u16)> {
    vec![(credentials.host.clone(), credentials.port)]
}

/// Tenants' hosts must be public unless the instance allows private ones (see `host_guard`).
pub async fn guard_hosts(state: &AppState, hosts: &[(String, u16)], field: &str) -> ApiResult<()> {
    if state.config.allow_private_database_hosts {
        return Ok(());
    }
    host_guard::ensure_public(hosts, field).await
}

/// The connection's event maps as stored (checked when they were saved).
pub fn event_maps(row: &ConnectionRow) -> ApiResult<Vec<EventMap>> {
    serde_json::from_str(&row.event_maps)
        .map_err(|_| ApiError::internal("a connection's event maps are malformed"))
}
