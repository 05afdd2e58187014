//! A stored connection turned back into what its connector needs: the sealed credential opened
//! (with the account id as associated data), the non-secret settings read from `config`, the
//! vendor origins and limits from the service's configuration. The only place that opens a
//! credential.

use std::net::IpAddr;
use std::sync::Arc;

use payback_connectors::database::ReadLimits;
use payback_connectors::docdb::{self, DocdbConfig, DocdbCredentials, Seed};
use payback_connectors::google::{GoogleAuth, ServiceAccountKey};
use payback_connectors::search_ads::{self, SearchAdsConfig};
use payback_connectors::sql::{Dialect, Naming, SqlConfig, SqlCredentials};
use payback_domain::connection::ConnectionKind;
use payback_domain::event_map::EventMap;
use payback_domain::source_kind::DatabaseEngine;
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
pub async fn open_secret(state: &AppState, row: &ConnectionRow) -> ApiResult<serde_json::Value> {
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
    /// The operator's environment variable names (`sql_a` only).
    env: Option<EnvNames>,
}

fn settings(row: &ConnectionRow) -> ApiResult<Settings> {
    serde_json::from_str(&row.config)
        .map_err(|_| ApiError::internal("a connection's config is malformed"))
}

/// The sealed part of a grant: the provider's refresh token.
#[derive(Deserialize)]
struct GrantSecret {
    refresh_token: String,
}

/// How a Google connection other than the ads account proves itself, as its config says.
#[derive(Default, Deserialize)]
struct GoogleSettings {
    /// `service_account` when the service-account path connected it; absent for the grant.
    #[serde(default)]
    auth: Option<String>,
}

/// The config word of a connection made by Payback's service account.
pub const SERVICE_ACCOUNT_AUTH: &str = "service_account";

/// The credential of a Google connection (`analytics_a`, `tagmgr`, `search_console`): the
/// grant's refresh token with Payback's OAuth client, or Payback's service account asking for
/// `scopes` (the kind's). 503 while what it needs is not configured.
pub async fn google_auth(
    state: &AppState,
    row: &ConnectionRow,
    scopes: &'static [&'static str],
) -> ApiResult<GoogleAuth> {
    let settings: GoogleSettings = settings_of(row)?;
    if settings.auth.as_deref() == Some(SERVICE_ACCOUNT_AUTH) {
        return Ok(GoogleAuth::ServiceAccount {
            key: Arc::new(service_account_key(state).await?),
            scopes,
        });
    }
    let secret: GrantSecret = secret_of(state, row).await?;
    Ok(GoogleAuth::Grant {
        oauth: crate::services::searchco::oauth_client(state)?,
        refresh_token: secret.refresh_token,
    })
}

/// Payback's Google service account, read from `PAYBACK_SEARCHCO_SERVICE_ACCOUNT_KEY_FILE` at
/// each use (a rotated key needs no restart); 503 while unset or unreadable, the reason in the
/// log and the message, never the key.
pub async fn service_account_key(state: &AppState) -> ApiResult<ServiceAccountKey> {
    let path = state
        .config
        .searchco_service_account_key_file
        .as_deref()
        .ok_or_else(|| {
            ApiError::ServiceUnavailable(
                "the service-account path is not configured (set \
                 PAYBACK_SEARCHCO_SERVICE_ACCOUNT_KEY_FILE)"
                    .to_owned(),
            )
        })?;
    ServiceAccountKey::from_file(path).await.map_err(|err| {
        tracing::error!(error = %err, "the Google service-account key could not be used");
        ApiError::ServiceUnavailable(format!("the service-account key is not usable: {err}"))
    })
}

/// The account a `search_ads` connection reads, as `select` stored it.
#[derive(Deserialize)]
struct SearchAdsSettings {
    customer_id: String,
    login_customer_id: Option<String>,
}

/// The ads API's origin (`kind`'s `PAYBACK_<KIND>_API_URL`, else Google's) and Payback's
/// developer token; 503 without the token.
pub fn ads_api(state: &AppState, kind: ConnectionKind) -> ApiResult<(String, String)> {
    let token = state
        .config
        .search_ads_developer_token
        .as_ref()
        .ok_or_else(|| {
            ApiError::ServiceUnavailable(
                "search ads are not configured (set PAYBACK_SEARCH_ADS_DEVELOPER_TOKEN)".to_owned(),
            )
        })?;
    let origin = vendor_origin(state, kind, search_ads::DEFAULT_API_BASE_URL);
    Ok((origin, token.expose().to_owned()))
}

/// A `search_ads` connection: the grant's refresh token opened, Payback's OAuth client and
/// developer token from the configuration (503 while either is missing). Here rather than in
/// the kind's module because the URL suffix service reads the account too.
pub async fn search_ads(state: &AppState, row: &ConnectionRow) -> ApiResult<SearchAdsConfig> {
    let secret: GrantSecret = secret_of(state, row).await?;
    let settings: SearchAdsSettings = serde_json::from_str(&row.config)
        .map_err(|_| ApiError::internal("a search_ads connection's config is malformed"))?;
    let oauth = crate::services::searchco::oauth_client(state)?;
    let (api_base_url, developer_token) = ads_api(state, row.kind)?;
    // The customer itself is its own login when no manager stands between.
    let login = settings
        .login_customer_id
        .filter(|login| *login != settings.customer_id);
    let mut config = SearchAdsConfig::new(
        developer_token,
        settings.customer_id,
        login,
        oauth,
        secret.refresh_token,
    );
    config.api_base_url = api_base_url;
    Ok(config)
}

/// Where a kind's vendor answers: its `PAYBACK_<KIND>_API_URL`, else `default` (the vendor's
/// own origin, which the kind's connector knows).
pub fn vendor_origin(state: &AppState, kind: ConnectionKind, default: &str) -> String {
    state.config.api_url(kind).unwrap_or(default).to_owned()
}

/// The connection's secret, opened into its kind's shape. 409 without credentials, 500 when it
/// does not parse.
pub async fn secret_of<T: serde::de::DeserializeOwned>(
    state: &AppState,
    row: &ConnectionRow,
) -> ApiResult<T> {
    serde_json::from_value(open_secret(state, row).await?)
        .map_err(|_| ApiError::internal("a stored credential is malformed"))
}

/// The sealed part of a token-based connection: a Meta token (the grant's long-lived user
/// token, or a pasted one), or a LinkedIn access token.
#[derive(Deserialize)]
struct TokenSecret {
    access_token: String,
}

/// The access token a connection was sealed with.
pub async fn access_token(state: &AppState, row: &ConnectionRow) -> ApiResult<String> {
    let secret: TokenSecret = secret_of(state, row).await?;
    Ok(secret.access_token)
}

/// A connection's non-secret settings as its kind stored them; 500 when they do not parse.
pub fn settings_of<T: serde::de::DeserializeOwned>(row: &ConnectionRow) -> ApiResult<T> {
    serde_json::from_str(&row.config)
        .map_err(|_| ApiError::internal(format!("a {} connection's config is malformed", row.kind)))
}

/// A customer database, whichever engine.
#[derive(Debug)]
pub enum Database {
    Sql(SqlConfig),
    Docdb(DocdbConfig),
}

/// The relational dialect of a kind, from its engine in the kind table.
pub fn dialect(kind: ConnectionKind) -> Option<Dialect> {
    match kind.spec().database_engine? {
        DatabaseEngine::Postgres => Some(Dialect::Postgres),
        DatabaseEngine::MySql => Some(Dialect::MySql),
        DatabaseEngine::Mongo => None,
    }
}

/// The database a `sql_a`/`sql_b`/`docdb` connection reads: from its sealed credentials, or
/// (`sql_a` set up by an operator) from the host's environment variables it names. Its hosts are
/// resolved and checked now, and the config carries the checked addresses: the connector dials
/// those and nothing else (see `host_guard`).
pub async fn database(state: &AppState, row: &ConnectionRow) -> ApiResult<Database> {
    let kind = Some(row.kind)
        .filter(|kind| kind.is_database())
        .ok_or_else(|| ApiError::internal("not a database connection"))?;
    let limits = ReadLimits::default();
    let malformed = |_| ApiError::internal("a stored credential is malformed");
    if let Some(dialect) = dialect(kind) {
        if let Some(names) = settings(row)?.env {
            return Ok(Database::Sql(
                names.config(&state.config.host_env, limits).await?,
            ));
        }
        let credentials = SqlCredentials::from_json(&open_secret(state, row).await?, dialect)
            .map_err(malformed)?;
        let addresses = sql_addresses(state, &credentials).await?;
        return Ok(Database::Sql(SqlConfig {
            dialect,
            credentials,
            addresses,
            naming: Naming::Values,
            limits,
        }));
    }
    let credentials =
        DocdbCredentials::from_json(&open_secret(state, row).await?).map_err(malformed)?;
    let seeds = docdb_seeds(state, &credentials, limits).await?;
    Ok(Database::Docdb(DocdbConfig {
        credentials,
        seeds,
        limits,
    }))
}

/// The addresses of a tenant's SQL host, resolved now and checked: 400 naming
/// `credentials.host` when it does not resolve, or is not public (unless the instance allows
/// private hosts).
pub async fn sql_addresses(
    state: &AppState,
    credentials: &SqlCredentials,
) -> ApiResult<Vec<IpAddr>> {
    host_guard::resolve(
        &credentials.host,
        credentials.port,
        state.config.allow_private_database_hosts,
    )
    .await
    .map_err(|refusal| {
        ApiError::bad_request(format!(
            "credentials.host: `{}` {}",
            credentials.host,
            refusal.reason()
        ))
    })
}

/// The servers a tenant's MongoDB may be dialed at: the connection string's hosts, or its SRV
/// record's targets as they are now, each resolved and checked like a SQL host. 400 naming
/// `credentials.uri` and the host refused.
pub async fn docdb_seeds(
    state: &AppState,
    credentials: &DocdbCredentials,
    limits: ReadLimits,
) -> ApiResult<Vec<Seed>> {
    let hosts = docdb::seed_hosts(credentials, limits)
        .await
        .map_err(|err| ApiError::bad_request(format!("credentials.uri: {err}")))?;
    if hosts.is_empty() {
        return Err(ApiError::bad_request(
            "credentials.uri: names no host to connect to",
        ));
    }
    let checked = host_guard::resolve_all(&hosts, state.config.allow_private_database_hosts)
        .await
        .map_err(|(host, refusal)| {
            ApiError::bad_request(format!("credentials.uri: `{host}` {}", refusal.reason()))
        })?;
    Ok(hosts
        .into_iter()
        .zip(checked)
        .map(|((host, port), addresses)| Seed {
            host,
            port,
            addresses,
        })
        .collect())
}

/// The connection's event maps as stored (checked when they were saved).
pub fn event_maps(row: &ConnectionRow) -> ApiResult<Vec<EventMap>> {
    serde_json::from_str(&row.event_maps)
        .map_err(|_| ApiError::internal("a connection's event maps are malformed"))
}
