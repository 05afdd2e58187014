//! A fresh PostgreSQL database per test, dropped when the test's app is dropped.

use sqlx::Connection;
use sqlx::postgres::PgConnection;

/// The server tests create their databases on; `PAYBACK_TEST_POSTGRES_URL` overrides.
pub(crate) fn admin_url() -> String {
    std::env::var("PAYBACK_TEST_POSTGRES_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_owned())
}

fn url_for(database: &str) -> String {
    let admin = admin_url();
    match admin.rsplit_once('/') {
        Some((base, _)) => format!("{base}/{database}"),
        None => format!("{admin}/{database}"),
    }
}

/// Creates `payback_test_<uuid>` and returns its name and URL.
pub(crate) async fn create_database() -> (String, String) {
    let name = format!("payback_test_{}", uuid::Uuid::new_v4().simple());
    let mut admin = PgConnection::connect(&admin_url())
        .await
        .unwrap_or_else(|err| {
            panic!(
                "PostgreSQL at {} is needed for the postgres tests: {err}",
                admin_url()
            )
        });
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
        .execute(&mut admin)
        .await
        .expect("create test database");
    let _ = admin.close().await;
    let url = url_for(&name);
    (name, url)
}

/// Drops the database from a thread of its own: `Drop` cannot await, and the test's runtime
/// may already be shutting down.
pub(crate) fn drop_database(name: String) {
    let handle = std::thread::spawn(move || {
        let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        else {
            return;
        };
        runtime.block_on(async move {
            if let Ok(mut admin) = PgConnection::connect(&admin_url()).await {
                let _ = sqlx::query(sqlx::AssertSqlSafe(format!(
                    "DROP DATABASE IF EXISTS {name} WITH (FORCE)"
                )))
                .execute(&mut admin)
                .await;
                let _ = admin.close().await;
            }
        });
    });
    let _ = handle.join();
}

/// A fresh PostgreSQL database for tests that drive something other than a [`crate::TestApp`]
/// (the `payback` binary's command line); dropped with this value.
pub struct ScratchPostgres {
    name: String,
    /// Its connection URL.
    pub url: String,
}

impl ScratchPostgres {
    pub async fn create() -> Self {
        let (name, url) = create_database().await;
        Self { name, url }
    }
}

impl Drop for ScratchPostgres {
    fn drop(&mut self) {
        drop_database(std::mem::take(&mut self.name));
    }
}
