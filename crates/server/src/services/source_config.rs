//! A stored connection turned back into what its connector needs: the sealed credential opened
//! (with the account id as associated data), the non-secret settings read from `config`, the
//! vendor origins and limits from the service's configuration. The only place that opens a
//! credential.

use std::net::IpAddr;

use payback_connectors::database::ReadLimits;
use payback_connectors::docdb::{self, DocdbConfig, DocdbCredentials, Seed};
use payback_connectors::payments::{PaymentStage, PaymentsConfig};
use payback_connectors::search_ads::SearchAdsConfig;
use payback_connectors::social_a::SocialAConfig;
use payback_connectors::social_ads_a::SocialAdsAConfig;
use payback_connectors::social_ads_b::SocialAdsBConfig;
use payback_connectors::sql::{Dialect, Naming, SqlConfig, SqlCredentials};
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

/// The sealed part of a grant: the provider's refresh token.
#[derive(Deserialize)]
struct GrantSecret {
    refresh_token: String,
}

/// The account a `search_ads` connection reads, as `select` stored it.
#[derive(Deserialize)]
struct SearchAdsSettings {
    customer_id: String,
    login_customer_id: Option<String>,
}

/// A `search_ads` connection: the grant's refresh token opened, Payback's OAuth client and
/// developer token from the configuration (503 while either is missing).
pub async fn search_ads(state: &AppState, row: &ConnectionRow) -> ApiResult<SearchAdsConfig> {
    let secret: GrantSecret = serde_json::from_value(open_secret(state, row).await?)
        .map_err(|_| ApiError::internal("a stored credential is malformed"))?;
    let settings: SearchAdsSettings = serde_json::from_str(&row.config)
        .map_err(|_| ApiError::internal("a search_ads connection's config is malformed"))?;
    let oauth = crate::services::searchco::oauth_client(state)?;
    let (api_base_url, developer_token) = crate::services::searchco::ads_api(state)?;
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

/// Where a social kind's vendor answers: its `PAYBACK_<KIND>_API_URL`, else the vendor's own
/// origin (the Graph API for Meta's kinds, LinkedIn's API for `social_ads_b`).
pub fn vendor_base_url(state: &AppState, kind: ConnectionKind) -> String {
    let default = match kind {
        ConnectionKind::SocialAdsB => payback_connectors::social_ads_b::DEFAULT_API_BASE_URL,
        _ => payback_connectors::graph::DEFAULT_GRAPH_BASE_URL,
    };
    state.config.api_url(kind).unwrap_or(default).to_owned()
}

/// The sealed part of the social kinds: a Meta token (the grant's long-lived user token, or a
/// pasted one), or a LinkedIn access token.
#[derive(Deserialize)]
struct TokenSecret {
    access_token: String,
}

async fn access_token(state: &AppState, row: &ConnectionRow) -> ApiResult<String> {
    let secret: TokenSecret = serde_json::from_value(open_secret(state, row).await?)
        .map_err(|_| ApiError::internal("a stored credential is malformed"))?;
    Ok(secret.access_token)
}

/// The ad account an ad-network connection reads, and (Meta) its campaign filter.
#[derive(Deserialize)]
struct AdAccountSettings {
    ad_account_id: String,
    /// Set when the social-network grant made the connection: its token is Payback's to
    /// revoke at disconnect; a pasted token stays the customer's.
    grant: Option<String>,
    #[serde(default)]
    campaign_name_prefixes: Vec<String>,
}

fn ad_account_settings(row: &ConnectionRow) -> ApiResult<AdAccountSettings> {
    serde_json::from_str(&row.config)
        .map_err(|_| ApiError::internal("an ad-network connection's config is malformed"))
}

/// A `social_ads_a` connection (Meta ads).
pub async fn social_ads_a(state: &AppState, row: &ConnectionRow) -> ApiResult<SocialAdsAConfig> {
    let settings = ad_account_settings(row)?;
    let mut config = SocialAdsAConfig::new(
        access_token(state, row).await?,
        settings.ad_account_id,
        settings.campaign_name_prefixes,
    );
    config.revoke_on_disconnect = settings.grant.is_some();
    config.graph_base_url = vendor_base_url(state, ConnectionKind::SocialAdsA);
    Ok(config)
}

/// A `social_ads_b` connection (LinkedIn ads).
pub async fn social_ads_b(state: &AppState, row: &ConnectionRow) -> ApiResult<SocialAdsBConfig> {
    let settings = ad_account_settings(row)?;
    let mut config = SocialAdsBConfig::new(access_token(state, row).await?, settings.ad_account_id);
    config.api_base_url = vendor_base_url(state, ConnectionKind::SocialAdsB);
    Ok(config)
}

/// The page a `social_a` connection reads.
#[derive(Deserialize)]
struct PageSettings {
    page_id: String,
    /// As for [`AdAccountSettings::grant`].
    grant: Option<String>,
}

/// A `social_a` connection (a page and its linked business account).
pub async fn social_a(state: &AppState, row: &ConnectionRow) -> ApiResult<SocialAConfig> {
    let settings: PageSettings = serde_json::from_str(&row.config)
        .map_err(|_| ApiError::internal("a social_a connection's config is malformed"))?;
    let mut config = SocialAConfig::new(access_token(state, row).await?, settings.page_id);
    config.revoke_on_disconnect = settings.grant.is_some();
    config.graph_base_url = vendor_base_url(state, ConnectionKind::SocialA);
    Ok(config)
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
    if let Some(url) = state.config.api_url(ConnectionKind::Payments) {
        url.clone_into(&mut config.base_url);
    }
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
