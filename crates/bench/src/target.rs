//! A Payback instance on a loopback port, on a fresh SQLite file or PostgreSQL database, with
//! an account, an API key and one product.

use std::sync::Arc;

use payback_domain::{Clock, SystemClock};
use payback_server::{AppState, Config};
use serde_json::json;

use crate::BackendChoice;

pub struct Target {
    pub base_url: String,
    pub api_key: String,
    pub slug: String,
    pub product_id: String,
    pub state: AppState,
    pub client: reqwest::Client,
    /// The instance's database, for `--keep` and `--reuse`.
    pub database_url: String,
    /// Keeps the SQLite file alive for the run.
    _dir: tempfile::TempDir,
    /// The PostgreSQL database created for the run, dropped by [`Target::finish`].
    postgres_database: Option<String>,
}

impl Target {
    /// Drops the run's PostgreSQL database (a SQLite run's file goes with its directory).
    /// Loading the reports dataset leaves gigabytes behind otherwise.
    pub async fn finish(self) -> anyhow::Result<()> {
        self.state.store.close().await;
        if let Some(name) = &self.postgres_database {
            drop_postgres_database(name).await?;
        }
        Ok(())
    }

    /// Closes the instance and leaves its database (and a SQLite run's directory) in place;
    /// returns the database URL, for a later run's `--reuse`.
    pub async fn keep(self) -> String {
        self.state.store.close().await;
        let _ = self._dir.keep();
        self.database_url
    }
}

/// An instance on a database a run kept (`Target::keep`): its product `bench`, with a new API
/// key of the product's account. Nothing is dropped at the end.
pub async fn reuse(database_url: &str) -> anyhow::Result<Target> {
    let dir = tempfile::tempdir()?;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let config = Config {
        database_url: database_url.to_owned().into(),
        listen: addr,
        public_url: Some(format!("http://{addr}")),
        rate_limit_per_minute: 1_000_000,
        ..Config::default()
    };
    let state = payback_server::build_state(config, Arc::new(SystemClock)).await?;
    let served = state.clone();
    tokio::spawn(
        async move { payback_server::serve(served, listener, std::future::pending()).await },
    );
    let slug = "bench".to_owned();
    let (product_id, account_id): (String, String) = match &state.store {
        payback_store::Db::Sqlite(pool) => {
            sqlx::query_as("SELECT id, account_id FROM products WHERE slug = $1")
                .bind(&slug)
                .fetch_one(pool)
                .await?
        }
        payback_store::Db::Postgres(pool) => {
            sqlx::query_as("SELECT id, account_id FROM products WHERE slug = $1")
                .bind(&slug)
                .fetch_one(pool)
                .await?
        }
    };
    let mut tx = state.store.begin().await?;
    let scope = payback_store::AccountScope::trusted(account_id);
    let (_, api_key) =
        payback_server::services::keys::mint(&mut tx, &scope, "bench", SystemClock.now()).await?;
    tx.commit().await?;
    Ok(Target {
        base_url: format!("http://{addr}"),
        api_key,
        slug,
        product_id,
        state,
        client: reqwest::Client::builder()
            .pool_max_idle_per_host(64)
            .build()?,
        database_url: database_url.to_owned(),
        _dir: dir,
        postgres_database: None,
    })
}

/// Drops a database [`database_url`] created.
pub async fn drop_postgres_database(name: &str) -> anyhow::Result<()> {
    use sqlx::Connection;
    let mut conn = sqlx::PgConnection::connect(&postgres_admin_url()).await?;
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "DROP DATABASE IF EXISTS {name} WITH (FORCE)"
    )))
    .execute(&mut conn)
    .await?;
    Ok(())
}

fn postgres_admin_url() -> String {
    std::env::var("PAYBACK_BENCH_POSTGRES_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_owned())
}

/// The run's database URL, and the name of the PostgreSQL database created for it.
pub async fn database_url(
    backend: BackendChoice,
    dir: &tempfile::TempDir,
) -> anyhow::Result<(String, Option<String>)> {
    Ok(match backend {
        BackendChoice::Sqlite => (format!("sqlite://{}/bench.db", dir.path().display()), None),
        BackendChoice::Postgres => {
            use sqlx::Connection;
            let admin = postgres_admin_url();
            let name = format!("payback_bench_{}", uuid::Uuid::new_v4().simple());
            let mut conn = sqlx::PgConnection::connect(&admin).await?;
            sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
                .execute(&mut conn)
                .await?;
            let base = admin
                .rsplit_once('/')
                .map_or(admin.as_str(), |(base, _)| base)
                .to_owned();
            (format!("{base}/{name}"), Some(name))
        }
    })
}

pub async fn start(backend: BackendChoice) -> anyhow::Result<Target> {
    start_with(backend, |_| {}).await
}

/// [`start`], with the configuration adjusted by `configure` first.
pub async fn start_with(
    backend: BackendChoice,
    configure: impl FnOnce(&mut Config),
) -> anyhow::Result<Target> {
    let dir = tempfile::tempdir()?;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let (database_url, postgres_database) = database_url(backend, &dir).await?;
    let mut config = Config {
        database_url: database_url.clone().into(),
        listen: addr,
        public_url: Some(format!("http://{addr}")),
        rate_limit_per_minute: 1_000_000,
        ..Config::default()
    };
    configure(&mut config);
    let state = payback_server::build_state(config, Arc::new(SystemClock)).await?;
    let served = state.clone();
    tokio::spawn(
        async move { payback_server::serve(served, listener, std::future::pending()).await },
    );
    let base_url = format!("http://{addr}");
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(64)
        .build()?;
    let signup =
        payback_server::services::signup::agent_signup(&state, "bench@payback.test", Some("Bench"))
            .await?;
    let slug = "bench".to_owned();
    let created: serde_json::Value = client
        .post(format!("{base_url}/products"))
        .bearer_auth(&signup.api_key)
        .json(&json!({ "name": "Bench", "slug": slug, "domain": "bench.test" }))
        .send()
        .await?
        .error_for_status()?
        .json()
        .await?;
    let product_id = created["id"].as_str().unwrap_or_default().to_owned();
    Ok(Target {
        base_url,
        api_key: signup.api_key,
        slug,
        product_id,
        state,
        client,
        database_url,
        _dir: dir,
        postgres_database,
    })
}
