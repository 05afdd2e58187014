//! The real database servers the SQL connector tests run against: a fresh database per test
//! (plus, on MySQL, a user of its own so no other test's databases are visible), dropped when
//! the guard goes out of scope; literals for the rows the tests insert; a recording sink.

use std::net::{IpAddr, ToSocketAddrs};
use std::time::Duration;

use payback_connectors::ConnectorError;
use payback_connectors::database::{EventSink, ReadLimits};
use payback_connectors::sql::{Dialect, Naming, SqlConfig, SqlCredentials, SslMode};
use payback_domain::event::IncomingEvent;
use sqlx::mysql::MySqlConnection;
use sqlx::postgres::PgConnection;
use sqlx::{AssertSqlSafe, Connection};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Postgres,
    MySql,
}

impl Backend {
    pub fn dialect(self) -> Dialect {
        match self {
            Backend::Postgres => Dialect::Postgres,
            Backend::MySql => Dialect::MySql,
        }
    }
}

/// A server address parsed from `scheme://user[:password]@host[:port][/database]`.
#[derive(Debug, Clone)]
pub struct Server {
    pub host: String,
    pub port: u16,
    pub user: String,
    pub password: Option<String>,
}

impl Server {
    pub fn from_env(backend: Backend) -> Self {
        let (variable, default) = match backend {
            Backend::Postgres => (
                "PAYBACK_TEST_POSTGRES_URL",
                "postgres://postgres@127.0.0.1:5432/postgres",
            ),
            Backend::MySql => ("PAYBACK_TEST_MYSQL_URL", "mysql://root@127.0.0.1:3306"),
        };
        let url = std::env::var(variable).unwrap_or_else(|_| default.to_owned());
        let rest = url.split_once("://").map_or(url.as_str(), |(_, rest)| rest);
        let authority = rest.split('/').next().unwrap_or(rest);
        let (userinfo, hostport) = authority.rsplit_once('@').unwrap_or(("", authority));
        let (user, password) = match userinfo.split_once(':') {
            Some((user, password)) => (user.to_owned(), Some(password.to_owned())),
            None => (userinfo.to_owned(), None),
        };
        let (host, port) = match hostport.rsplit_once(':') {
            Some((host, port)) => (host.to_owned(), port.parse().expect("a port number")),
            None => (hostport.to_owned(), backend.dialect().default_port()),
        };
        Server {
            host,
            port,
            user,
            password,
        }
    }

    fn url(&self, backend: Backend, database: &str) -> String {
        let scheme = match backend {
            Backend::Postgres => "postgres",
            Backend::MySql => "mysql",
        };
        let password = self
            .password
            .as_ref()
            .map(|p| format!(":{p}"))
            .unwrap_or_default();
        format!(
            "{scheme}://{}{password}@{}:{}/{database}",
            self.user, self.host, self.port
        )
    }
}

enum Setup {
    Postgres(PgConnection),
    MySql(MySqlConnection),
}

/// A fresh database (and on MySQL, a user that sees only this test's databases).
pub struct TestDb {
    pub backend: Backend,
    pub server: Server,
    pub name: String,
    /// Further databases this test made (MySQL's stand-in for schemas).
    extra: Vec<String>,
    /// The user the connector connects as, with its password.
    pub user: String,
    pub password: Option<String>,
    setup: Option<Setup>,
}

impl TestDb {
    pub async fn create(backend: Backend) -> TestDb {
        let server = Server::from_env(backend);
        let id = uuid::Uuid::new_v4().simple().to_string();
        let name = format!("payback_test_sql_{id}");
        let (setup, user, password) = match backend {
            Backend::Postgres => {
                let mut admin = PgConnection::connect(&server.url(backend, "postgres"))
                    .await
                    .unwrap_or_else(|err| panic!("PostgreSQL is needed for these tests: {err}"));
                run_pg(&mut admin, &format!("CREATE DATABASE {name}")).await;
                let _ = admin.close().await;
                let conn = PgConnection::connect(&server.url(backend, &name))
                    .await
                    .expect("connect to the test database");
                (
                    Setup::Postgres(conn),
                    server.user.clone(),
                    server.password.clone(),
                )
            }
            Backend::MySql => {
                let mut conn = MySqlConnection::connect(&server.url(backend, ""))
                    .await
                    .unwrap_or_else(|err| panic!("MariaDB/MySQL is needed for these tests: {err}"));
                let user = format!("payback_t_{}", &id[..12]);
                let password = format!("pw-{}", &id[12..28]);
                run_mysql(
                    &mut conn,
                    &format!(
                        "CREATE DATABASE {name} CHARACTER SET utf8mb4; \
                         CREATE USER '{user}'@'%' IDENTIFIED BY '{password}'; \
                         GRANT ALL ON {name}.* TO '{user}'@'%'; USE {name}"
                    ),
                )
                .await;
                (Setup::MySql(conn), user, Some(password))
            }
        };
        TestDb {
            backend,
            server,
            name,
            extra: Vec::new(),
            user,
            password,
            setup: Some(setup),
        }
    }

    /// A schema (PostgreSQL) or database (MySQL) named after `suffix`; answers its name.
    pub async fn schema(&mut self, suffix: &str) -> String {
        match self.backend {
            Backend::Postgres => {
                self.exec(&format!("CREATE SCHEMA {suffix}")).await;
                suffix.to_owned()
            }
            Backend::MySql => {
                let name = format!("{}_{suffix}", self.name);
                let user = self.user.clone();
                self.exec(&format!(
                    "CREATE DATABASE {name} CHARACTER SET utf8mb4; GRANT ALL ON {name}.* TO '{user}'@'%'"
                ))
                .await;
                self.extra.push(name.clone());
                name
            }
        }
    }

    pub async fn exec(&mut self, sql: &str) {
        match self.setup.as_mut().expect("setup connection") {
            Setup::Postgres(conn) => run_pg(conn, sql).await,
            Setup::MySql(conn) => run_mysql(conn, sql).await,
        }
    }

    /// One integer the setup connection reads (`SELECT COUNT(*) ...`).
    pub async fn number(&mut self, sql: &str) -> i64 {
        match self.setup.as_mut().expect("setup connection") {
            Setup::Postgres(conn) => sqlx::query_scalar(AssertSqlSafe(sql.to_owned()))
                .fetch_one(conn)
                .await
                .unwrap_or_else(|err| panic!("{sql}: {err}")),
            Setup::MySql(conn) => sqlx::query_scalar(AssertSqlSafe(sql.to_owned()))
                .fetch_one(conn)
                .await
                .unwrap_or_else(|err| panic!("{sql}: {err}")),
        }
    }

    /// One text value the setup connection reads.
    pub async fn text(&mut self, sql: &str) -> String {
        match self.setup.as_mut().expect("setup connection") {
            Setup::Postgres(conn) => sqlx::query_scalar(AssertSqlSafe(sql.to_owned()))
                .fetch_one(conn)
                .await
                .unwrap_or_else(|err| panic!("{sql}: {err}")),
            Setup::MySql(conn) => sqlx::query_scalar(AssertSqlSafe(sql.to_owned()))
                .fetch_one(conn)
                .await
                .unwrap_or_else(|err| panic!("{sql}: {err}")),
        }
    }

    pub fn credentials(&self) -> SqlCredentials {
        SqlCredentials {
            host: self.server.host.clone(),
            port: self.server.port,
            user: self.user.clone(),
            password: self.password.clone(),
            database: self.name.clone(),
            ssl_mode: SslMode::Prefer,
        }
    }

    /// Small pages (7 rows), so every table here is read in several.
    pub fn config(&self) -> SqlConfig {
        SqlConfig {
            dialect: self.backend.dialect(),
            credentials: self.credentials(),
            addresses: addresses(&self.server.host, self.server.port),
            naming: Naming::Values,
            limits: ReadLimits {
                page_rows: 7,
                max_rows_per_map: 10_000,
                statement_timeout: Duration::from_secs(10),
            },
        }
    }
}

/// What the server's host guard would hand the connector: the host's addresses, resolved once.
pub fn addresses(host: &str, port: u16) -> Vec<IpAddr> {
    (host, port)
        .to_socket_addrs()
        .unwrap_or_else(|err| panic!("{host} resolves: {err}"))
        .map(|address| address.ip())
        .collect()
}

impl Drop for TestDb {
    fn drop(&mut self) {
        // Closed first, so nothing of ours holds the databases being dropped.
        drop(self.setup.take());
        let backend = self.backend;
        let server = self.server.clone();
        let mut databases = vec![self.name.clone()];
        databases.append(&mut self.extra);
        let user = self.user.clone();
        let handle = std::thread::spawn(move || {
            let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            else {
                return;
            };
            runtime.block_on(async move {
                match backend {
                    Backend::Postgres => {
                        if let Ok(mut admin) =
                            PgConnection::connect(&server.url(backend, "postgres")).await
                        {
                            for db in databases {
                                let sql = format!("DROP DATABASE IF EXISTS {db} WITH (FORCE)");
                                let _ = sqlx::raw_sql(AssertSqlSafe(sql)).execute(&mut admin).await;
                            }
                            let _ = admin.close().await;
                        }
                    }
                    Backend::MySql => {
                        if let Ok(mut admin) =
                            MySqlConnection::connect(&server.url(backend, "")).await
                        {
                            for db in databases {
                                let sql = format!("DROP DATABASE IF EXISTS {db}");
                                let _ = sqlx::raw_sql(AssertSqlSafe(sql)).execute(&mut admin).await;
                            }
                            let sql = format!("DROP USER IF EXISTS '{user}'@'%'");
                            let _ = sqlx::raw_sql(AssertSqlSafe(sql)).execute(&mut admin).await;
                            let _ = admin.close().await;
                        }
                    }
                }
            });
        });
        let _ = handle.join();
    }
}

async fn run_pg(conn: &mut PgConnection, sql: &str) {
    sqlx::raw_sql(AssertSqlSafe(sql.to_owned()))
        .execute(conn)
        .await
        .unwrap_or_else(|err| panic!("{sql}: {err}"));
}

async fn run_mysql(conn: &mut MySqlConnection, sql: &str) {
    sqlx::raw_sql(AssertSqlSafe(sql.to_owned()))
        .execute(conn)
        .await
        .unwrap_or_else(|err| panic!("{sql}: {err}"));
}

/// A SQL string literal.
pub fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

/// `NULL` or the literal.
pub fn maybe(text: Option<&str>) -> String {
    text.map_or_else(|| "NULL".to_owned(), quoted)
}

/// An instant (epoch microseconds) as a UTC literal; `with_zone` adds `+00` (PostgreSQL's
/// `timestamptz`).
pub fn time_literal(micros: i64, with_zone: bool) -> String {
    let at = time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(micros) * 1_000)
        .expect("in range");
    let text = format!(
        "{:04}-{:02}-{:02} {:02}:{:02}:{:02}.{:06}",
        at.year(),
        u8::from(at.month()),
        at.day(),
        at.hour(),
        at.minute(),
        at.second(),
        at.microsecond()
    );
    if with_zone {
        quoted(&format!("{text}+00"))
    } else {
        quoted(&text)
    }
}

/// A day (epoch microseconds at midnight UTC) as a `DATE` literal.
pub fn date_literal(micros: i64) -> String {
    let at = time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(micros) * 1_000)
        .expect("in range");
    quoted(&format!(
        "{:04}-{:02}-{:02}",
        at.year(),
        u8::from(at.month()),
        at.day()
    ))
}

/// Keeps every page the connector writes.
#[derive(Debug, Default)]
pub struct RecordingSink {
    pub pages: Vec<Vec<IncomingEvent>>,
}

impl RecordingSink {
    pub fn events(&self) -> Vec<IncomingEvent> {
        self.pages.iter().flatten().cloned().collect()
    }
}

impl EventSink for RecordingSink {
    async fn write(&mut self, events: Vec<IncomingEvent>) -> Result<(), ConnectorError> {
        self.pages.push(events);
        Ok(())
    }
}
