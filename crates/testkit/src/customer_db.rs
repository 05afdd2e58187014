//! A customer's own database for the database-connection tests: a fresh PostgreSQL or MariaDB
//! database on the machine's servers, filled by the test, dropped when the value is dropped.

use std::str::FromStr;

use serde_json::{Value, json};
use sqlx::Connection;
use sqlx::mysql::{MySqlConnectOptions, MySqlConnection};
use sqlx::postgres::{PgConnectOptions, PgConnection};

use crate::postgres::admin_url;

/// Which engine holds the customer's data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    Postgres,
    MariaDb,
}

/// The MariaDB server the tests use; `PAYBACK_TEST_MYSQL_URL` overrides.
fn mysql_admin_url() -> String {
    std::env::var("PAYBACK_TEST_MYSQL_URL")
        .unwrap_or_else(|_| "mysql://root@127.0.0.1:3306/mysql".to_owned())
}

#[derive(Debug)]
pub struct CustomerDb {
    pub engine: Engine,
    pub name: String,
}

impl CustomerDb {
    /// Creates `payback_test_cust_<uuid>` on the engine's server.
    pub async fn create(engine: Engine) -> Self {
        let name = format!("payback_test_cust_{}", uuid::Uuid::new_v4().simple());
        let db = Self { engine, name };
        db.admin(&format!("CREATE DATABASE {}", db.name)).await;
        db
    }

    async fn admin(&self, statement: &str) {
        let statement = sqlx::AssertSqlSafe(statement.to_owned());
        match self.engine {
            Engine::Postgres => {
                let mut conn = PgConnection::connect(&admin_url())
                    .await
                    .expect("PostgreSQL");
                sqlx::query(statement)
                    .execute(&mut conn)
                    .await
                    .expect("admin statement");
                let _ = conn.close().await;
            }
            Engine::MariaDb => {
                let mut conn = MySqlConnection::connect(&mysql_admin_url())
                    .await
                    .unwrap_or_else(|err| {
                        panic!("MariaDB at {} is needed: {err}", mysql_admin_url())
                    });
                sqlx::query(statement)
                    .execute(&mut conn)
                    .await
                    .expect("admin statement");
                let _ = conn.close().await;
            }
        }
    }

    /// Runs the statements in order inside the customer's database.
    pub async fn execute(&self, statements: &[&str]) {
        match self.engine {
            Engine::Postgres => {
                let options = PgConnectOptions::from_str(&admin_url())
                    .expect("postgres url")
                    .database(&self.name);
                let mut conn = PgConnection::connect_with(&options).await.expect("connect");
                for statement in statements {
                    sqlx::query(sqlx::AssertSqlSafe(statement.to_string()))
                        .execute(&mut conn)
                        .await
                        .unwrap_or_else(|err| panic!("{statement}: {err}"));
                }
                let _ = conn.close().await;
            }
            Engine::MariaDb => {
                let options = MySqlConnectOptions::from_str(&mysql_admin_url())
                    .expect("mysql url")
                    .database(&self.name);
                let mut conn = MySqlConnection::connect_with(&options)
                    .await
                    .expect("connect");
                for statement in statements {
                    sqlx::query(sqlx::AssertSqlSafe(statement.to_string()))
                        .execute(&mut conn)
                        .await
                        .unwrap_or_else(|err| panic!("{statement}: {err}"));
                }
                let _ = conn.close().await;
            }
        }
    }

    /// The `credentials` object a connect body carries for this database.
    pub fn credentials(&self) -> Value {
        let (url, port) = match self.engine {
            Engine::Postgres => (admin_url(), 5432),
            Engine::MariaDb => (mysql_admin_url(), 3306),
        };
        // scheme://user[:password]@host[:port]/db
        let rest = url.split_once("://").map_or(url.as_str(), |(_, rest)| rest);
        let (userinfo, hostpart) = rest.split_once('@').unwrap_or(("root", rest));
        let (user, password) = userinfo.split_once(':').unwrap_or((userinfo, ""));
        let hostport = hostpart.split('/').next().unwrap_or("127.0.0.1");
        let (host, port) = match hostport.split_once(':') {
            Some((host, text)) => (host, text.parse::<u16>().unwrap_or(port)),
            None => (hostport, port),
        };
        let mut credentials = json!({
            "host": host, "port": port, "user": user, "database": self.name, "sslmode": "disable",
        });
        if !password.is_empty() {
            credentials["password"] = json!(password);
        }
        credentials
    }
}

impl Drop for CustomerDb {
    fn drop(&mut self) {
        let statement = match self.engine {
            Engine::Postgres => format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name),
            Engine::MariaDb => format!("DROP DATABASE IF EXISTS {}", self.name),
        };
        let engine = self.engine;
        // `Drop` cannot await, and the test's runtime may be shutting down: a thread of its own.
        let handle = std::thread::spawn(move || {
            if let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                runtime.block_on(admin_quietly(engine, &statement));
            }
        });
        let _ = handle.join();
    }
}

async fn admin_quietly(engine: Engine, statement: &str) {
    let statement = sqlx::AssertSqlSafe(statement.to_owned());
    match engine {
        Engine::Postgres => {
            if let Ok(mut conn) = PgConnection::connect(&admin_url()).await {
                let _ = sqlx::query(statement).execute(&mut conn).await;
                let _ = conn.close().await;
            }
        }
        Engine::MariaDb => {
            if let Ok(mut conn) = MySqlConnection::connect(&mysql_admin_url()).await {
                let _ = sqlx::query(statement).execute(&mut conn).await;
                let _ = conn.close().await;
            }
        }
    }
}
