//! Assembling the service: state from configuration, the router, and serving with graceful
//! shutdown.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::response::IntoResponse;
use axum::routing::get;
use payback_domain::{Clock, SystemClock};
use payback_store::Db;
use payback_store::ingest::IngestWriter;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::trace::TraceLayer;
use utoipa::OpenApi as _;
use utoipa_axum::router::OpenApiRouter;

use crate::body_limit::{AUTH_BODY_LIMIT, BROWSER_EVENTS_BODY_LIMIT, limit_body};
use crate::config::Config;
use crate::crypto::Passwords;
use crate::error::ApiError;
use crate::extract::nul::refuse_nul_in_uri;
use crate::jobs;
use crate::kinds;
use crate::mail::Mailer;
use crate::openapi::ApiDoc;
use crate::rate_limit::Limiters;
use crate::routes;
use crate::secrets::CredentialBox;
use crate::state::{AppState, SyncSlots};

/// Connects and migrates the database and builds the mailer.
pub async fn build_state(config: Config, clock: Arc<dyn Clock>) -> Result<AppState, ApiError> {
    let store = Db::connect(config.database_url.expose())
        .await
        .map_err(|err| ApiError::Config(err.to_string()))?;
    store
        .migrate()
        .await
        .map_err(|err| ApiError::Config(err.to_string()))?;
    let mailer = Mailer::from_config(config.mail.expose(), &config.mail_from)?;
    let credentials = config
        .secret_key
        .as_ref()
        .map(|key| CredentialBox::from_key(key.expose()).map(Arc::new))
        .transpose()?;
    let http = reqwest::Client::builder()
        .timeout(std::time::Duration::from_secs(60))
        .user_agent(concat!("payback/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|err| ApiError::Config(format!("HTTP client: {err}")))?;
    let ingest = IngestWriter::start(&store)
        .await
        .map_err(|err| ApiError::Config(err.to_string()))?;
    let limiters = Limiters::from_config(&config)?;
    let sync_slots = SyncSlots::new(config.sync_concurrency);
    Ok(AppState {
        instance_id: uuid::Uuid::new_v4().to_string(),
        ingest,
        store,
        config: Arc::new(config),
        clock,
        mailer,
        sources: kinds::registry(),
        plugins: kinds::plugins(),
        sync_slots,
        credentials,
        passwords: Passwords::per_core(),
        http,
        limiters,
        sso: payback_connectors::oidc::DiscoveryCache::default(),
    })
}

/// The state for a normal run: the wall clock.
pub async fn state_from_config(config: Config) -> Result<AppState, ApiError> {
    build_state(config, Arc::new(SystemClock)).await
}

/// Every route with its OpenAPI description, before state is attached. The public routes get
/// small body limits (`body_limit`), never above `max_body_bytes`, and those that hash a
/// password or send mail a per-address rate limit, checked before the body is read.
pub fn api_routes(config: &Config, limiters: &Limiters) -> OpenApiRouter<AppState> {
    let auth_body = AUTH_BODY_LIMIT.min(config.max_body_bytes);
    let browser_body = BROWSER_EVENTS_BODY_LIMIT.min(config.max_body_bytes);
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(
            limiters
                .public_auth
                .apply(limit_body(routes::auth::rate_limited(), auth_body, "")),
        )
        .merge(
            limiters
                .public_auth
                .apply(limit_body(routes::sso::rate_limited(), auth_body, "")),
        )
        .merge(limit_body(routes::auth::public(), auth_body, ""))
        .merge(routes::sso::public())
        .merge(routes::auth::router())
        .merge(routes::keys::router())
        .merge(routes::team::router())
        .merge(routes::products::router())
        .merge(routes::history::router())
        .merge(routes::snippet::router())
        .merge(routes::tracking::router())
        .merge(routes::tracking::browser_router(
            &limiters.browser_events,
            browser_body,
        ))
        .merge(routes::scorecard::public())
        .merge(routes::attribution::router())
        .merge(routes::series::router())
        .merge(routes::demand::router())
        .merge(routes::detect::router())
        .merge(routes::scorecard::router())
        .merge(routes::social_report::router())
        .merge(routes::funnel::router())
        .merge(routes::conversions::router())
        .merge(routes::payback::router())
        .merge(routes::health_report::router())
        .merge(routes::growth::router())
        .merge(routes::exports::router())
        .merge(routes::billing::router())
        .merge(limit_body(
            routes::billing::public(),
            routes::billing::WEBHOOK_BODY_LIMIT.min(config.max_body_bytes),
            "",
        ))
        .merge(routes::queue::router())
        .merge(routes::spend::router())
        .merge(routes::policy::router())
        .merge(routes::distribution::router())
        .merge(routes::dashboards::router())
        .merge(routes::landing_pages::router())
        .merge(routes::recordings::router())
        .merge(routes::chat::router())
        .merge(limit_body(routes::connect::public(), auth_body, ""))
        .merge(routes::connect::router())
        .merge(kinds::router())
        .merge(routes::connections::router())
        .merge(routes::databases::router())
}

/// The complete router: the API, `/openapi.json`, the dashboard, the MCP server at `/mcp`, JSON
/// fallbacks, body limit, tracing and panic safety.
pub fn router(state: AppState) -> Router {
    let (api, mut openapi) = api_routes(&state.config, &state.limiters).split_for_parts();
    crate::openapi::document_refused_nul(&mut openapi);
    crate::openapi::document_constraints(&mut openapi);
    crate::openapi::document_retry_after(&mut openapi);
    let openapi_route = Router::new()
        .route("/openapi.json", get(routes::system::openapi))
        .with_state(Arc::new(openapi));
    api.with_state(state.clone())
        .merge(openapi_route)
        .merge(routes::dashboard::router())
        .merge(crate::mcp::router(&state))
        .fallback(routes::system::unknown_route)
        .method_not_allowed_fallback(routes::system::wrong_method)
        .layer(axum::middleware::from_fn(refuse_nul_in_uri))
        .layer(DefaultBodyLimit::max(state.config.max_body_bytes))
        .layer(TraceLayer::new_for_http())
        .layer(CatchPanicLayer::custom(|_| {
            ApiError::internal("handler panicked").into_response()
        }))
}

/// Serves until `shutdown` resolves, then lets in-flight requests finish.
pub async fn serve(
    state: AppState,
    listener: tokio::net::TcpListener,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let jobs = (state.config.jobs_every_secs > 0).then(|| {
        let runner = state.instance_id.clone();
        let every = Duration::from_secs(state.config.jobs_every_secs);
        tokio::spawn(jobs::run_forever(state.clone(), runner, every))
    });
    let app = router(state).into_make_service_with_connect_info::<SocketAddr>();
    let served = axum::serve(listener, app)
        .with_graceful_shutdown(shutdown)
        .await;
    // A pass cut short loses nothing: its lease expires and the job runs again.
    if let Some(jobs) = jobs {
        jobs.abort();
    }
    served
}

/// How long a stopping service waits for the fold under way to commit. A fold is one
/// transaction of at most a few thousand events; one cut short loses nothing (its batches stay
/// in the inbox for the next start), it only costs the next start that fold again.
const FOLD_STOP_WAIT: Duration = Duration::from_secs(30);

/// Closes the store once [`serve`] has returned: the ingest folder finishes its fold and stops,
/// the inbox closes, and every connection closes cleanly (on SQLite the last one checkpoints the WAL into the
/// database file; on PostgreSQL the server sees its sessions end rather than drop).
pub async fn close(store: &Db, ingest: &IngestWriter) {
    store.close().await;
    if !ingest.close_within(FOLD_STOP_WAIT).await {
        tracing::warn!(
            "the ingest fold did not stop within {} s; its batches stay pending for the next start",
            FOLD_STOP_WAIT.as_secs()
        );
    }
}

/// Resolves on ctrl-c or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        if let Err(err) = tokio::signal::ctrl_c().await {
            tracing::warn!(error = %err, "cannot listen for ctrl-c");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(err) => {
                tracing::warn!(error = %err, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    tracing::info!("shutting down");
}
