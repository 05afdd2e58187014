//! One connection per run, made read-only, UTC and time-limited before the connector reads
//! anything, and the only place statements are sent.

use std::net::IpAddr;
use std::time::Duration;

use sqlx::mysql::{MySqlConnectOptions, MySqlConnection, MySqlSslMode};
use sqlx::postgres::{PgConnectOptions, PgConnection, PgSslMode};
use sqlx::{AssertSqlSafe, ConnectOptions, Connection as _};

use super::errors::ErrorContext;
use super::statement::{Raw, Slot, Statement};
use super::{Dialect, SqlConfig, SslMode};
use crate::ConnectorError;

/// Our own timer fires this long after the server's statement timeout should have, so the
/// server's clearer error usually wins; ours still bounds a server that ignores its own.
const CLIENT_GRACE: Duration = Duration::from_secs(1);

/// What a session reports about itself once set up; `test` shows it and every read refuses to
/// start unless `read_only` holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionSettings {
    /// `PostgreSQL 15.20`, `MariaDB 10.11.19`, `MySQL 8.0.36`.
    pub server: String,
    /// The server's own answer to "is this session's transaction read-only".
    pub read_only: bool,
    /// The session's time zone as the server names it (`UTC`, `+00:00`).
    pub time_zone: String,
    /// The server-side statement limit as the server shows it (`30s`, `30.000000`, `30000`).
    pub statement_timeout: String,
}

enum Connection {
    Postgres(PgConnection),
    MySql(MySqlConnection),
}

pub(crate) struct Session {
    connection: Connection,
    pub dialect: Dialect,
    pub(crate) errors: ErrorContext,
    timeout: Duration,
    mariadb: bool,
    pub settings: SessionSettings,
}

impl Session {
    /// Connects, sets the session read-only, in UTC and under the statement limit, and checks
    /// the server agrees it is read-only.
    pub(crate) async fn open(config: &SqlConfig) -> Result<Self, ConnectorError> {
        let errors = ErrorContext::new(config);
        let timeout = config.limits.statement_timeout;
        let connect = connect_checked(config, &errors);
        let connection = tokio::time::timeout(timeout, connect)
            .await
            .map_err(|_| errors.connect_timed_out())??;
        let mut session = Self {
            connection,
            dialect: config.dialect,
            errors,
            timeout,
            mariadb: false,
            settings: SessionSettings {
                server: config.dialect.product().to_owned(),
                read_only: false,
                time_zone: String::new(),
                statement_timeout: String::new(),
            },
        };
        match session.prepare().await {
            Ok(()) => Ok(session),
            Err(err) => {
                session.close().await;
                Err(err)
            }
        }
    }

    async fn prepare(&mut self) -> Result<(), ConnectorError> {
        let millis = self.timeout.as_millis().max(1);
        let setup: Vec<String> = match self.dialect {
            Dialect::Postgres => vec![
                format!("SET statement_timeout = {millis}"),
                format!("SET lock_timeout = {millis}"),
                "SET TIME ZONE 'UTC'".to_owned(),
                "SET default_transaction_read_only = on".to_owned(),
            ],
            Dialect::MySql => {
                let version = self.version().await?;
                self.mariadb = version.to_ascii_lowercase().contains("mariadb");
                let limit = if self.mariadb {
                    // MariaDB: seconds, fractions allowed.
                    format!(
                        "SET SESSION max_statement_time = {:.3}",
                        millis as f64 / 1000.0
                    )
                } else {
                    format!("SET SESSION max_execution_time = {millis}")
                };
                vec![
                    limit,
                    "SET time_zone = '+00:00'".to_owned(),
                    "SET SESSION TRANSACTION READ ONLY".to_owned(),
                ]
            }
        };
        for sql in setup {
            self.execute(sql, "setting up the session").await?;
        }
        self.settings = self.read_settings().await?;
        if !self.settings.read_only {
            return Err(ConnectorError::Config(format!(
                "{} did not make the session read-only; the connector reads only through read-only sessions",
                self.settings.server
            )));
        }
        Ok(())
    }

    async fn version(&mut self) -> Result<String, ConnectorError> {
        let statement = Statement {
            sql: "SELECT CAST(VERSION() AS CHAR)".to_owned(),
            params: Vec::new(),
            slots: vec![Slot::Text],
        };
        let rows = self.fetch(&statement, "reading the server version").await?;
        Ok(first_text(&rows, 0))
    }

    /// Asks the server how this session is set up.
    async fn read_settings(&mut self) -> Result<SessionSettings, ConnectorError> {
        let sql = match (self.dialect, self.mariadb) {
            (Dialect::Postgres, _) => {
                "SELECT current_setting('server_version'), current_setting('transaction_read_only'), \
                 current_setting('TimeZone'), current_setting('statement_timeout')"
            }
            (Dialect::MySql, true) => {
                "SELECT CAST(VERSION() AS CHAR), CAST(@@session.tx_read_only AS CHAR), \
                 CAST(@@session.time_zone AS CHAR), CAST(@@session.max_statement_time AS CHAR)"
            }
            (Dialect::MySql, false) => {
                "SELECT CAST(VERSION() AS CHAR), CAST(@@session.transaction_read_only AS CHAR), \
                 CAST(@@session.time_zone AS CHAR), CAST(@@session.max_execution_time AS CHAR)"
            }
        };
        let statement = Statement {
            sql: sql.to_owned(),
            params: Vec::new(),
            slots: vec![Slot::Text; 4],
        };
        let rows = self
            .fetch(&statement, "reading the session settings")
            .await?;
        let version = first_text(&rows, 0);
        let read_only = first_text(&rows, 1);
        Ok(SessionSettings {
            server: server_label(self.dialect, &version),
            read_only: matches!(read_only.to_ascii_lowercase().as_str(), "on" | "1"),
            time_zone: first_text(&rows, 2),
            statement_timeout: first_text(&rows, 3),
        })
    }

    /// Runs a statement that answers no rows, under the time limit.
    async fn execute(&mut self, sql: String, what: &str) -> Result<(), ConnectorError> {
        let run = async {
            match &mut self.connection {
                Connection::Postgres(conn) => sqlx::raw_sql(AssertSqlSafe(sql))
                    .execute(conn)
                    .await
                    .map(|_| ()),
                Connection::MySql(conn) => sqlx::raw_sql(AssertSqlSafe(sql))
                    .execute(conn)
                    .await
                    .map(|_| ()),
            }
        };
        match tokio::time::timeout(self.timeout + CLIENT_GRACE, run).await {
            Err(_) => Err(self.errors.timed_out(what)),
            Ok(result) => result.map_err(|err| self.errors.map(err, what)),
        }
    }

    /// Runs a SELECT with its bound parameters under the time limit and decodes every row by
    /// the statement's slots. `what` goes into error messages (`reading shop.orders`).
    pub(crate) async fn fetch(
        &mut self,
        statement: &Statement,
        what: &str,
    ) -> Result<Vec<Vec<Raw>>, ConnectorError> {
        let run = async {
            match &mut self.connection {
                Connection::Postgres(conn) => {
                    let mut query = sqlx::query(AssertSqlSafe(statement.sql.clone()));
                    for param in &statement.params {
                        query = query.bind(param.clone());
                    }
                    let rows = query.fetch_all(conn).await?;
                    rows.iter()
                        .map(|row| decode(row, &statement.slots))
                        .collect::<Result<Vec<_>, sqlx::Error>>()
                }
                Connection::MySql(conn) => {
                    let mut query = sqlx::query(AssertSqlSafe(statement.sql.clone()));
                    for param in &statement.params {
                        query = query.bind(param.clone());
                    }
                    let rows = query.fetch_all(conn).await?;
                    rows.iter()
                        .map(|row| decode(row, &statement.slots))
                        .collect::<Result<Vec<_>, sqlx::Error>>()
                }
            }
        };
        match tokio::time::timeout(self.timeout + CLIENT_GRACE, run).await {
            Err(_) => Err(self.errors.timed_out(what)),
            Ok(result) => result.map_err(|err| self.errors.map(err, what)),
        }
    }

    /// Says goodbye to the server; a failure here changes nothing for the caller.
    pub(crate) async fn close(self) {
        let close = async {
            let _ = match self.connection {
                Connection::Postgres(conn) => conn.close().await,
                Connection::MySql(conn) => conn.close().await,
            };
        };
        let _ = tokio::time::timeout(self.timeout, close).await;
    }
}

/// Dials the checked addresses in order until one answers; a failure to reach one moves on to
/// the next, anything else (TLS, the login) is the server's answer and ends the attempt.
async fn connect_checked(
    config: &SqlConfig,
    errors: &ErrorContext,
) -> Result<Connection, ConnectorError> {
    let mut last = None;
    for address in &config.addresses {
        match connect(config, *address).await {
            Ok(connection) => return Ok(connection),
            Err(err @ sqlx::Error::Io(_)) => last = Some(err),
            Err(err) => return Err(errors.map_connect(err)),
        }
    }
    Err(last.map_or_else(|| errors.no_address(), |err| errors.map_connect(err)))
}

/// Connects to `address`, one the tenant's host resolved to when it was checked.
///
/// The driver takes the address as its host, so it resolves nothing. sqlx uses that host for
/// the TLS server name as well and takes no separate one, so a certificate could not be
/// verified against the tenant's host name here; none is: `SslMode` has no verifying mode
/// (`prefer` and `require` encrypt without checking the certificate, like libpq's modes of
/// those names), so dialing the address loses no check. What it does lose is SNI (rustls sends
/// none for an IP address): a provider routing by SNI needs its own fallback, such as Neon's
/// `endpoint=<id>;` prefix to the password. A verifying mode would have to dial the name
/// again and so reopen the rebinding window; it is left out until the driver can verify
/// against a name while connecting to an address.
async fn connect(config: &SqlConfig, address: IpAddr) -> Result<Connection, sqlx::Error> {
    let credentials = &config.credentials;
    let host = address.to_string();
    // PostgreSQL: an absent password is sent as an empty one, so a password in the API host's
    // own environment (`PGPASSWORD`) never reaches a tenant's server.
    let password = credentials.password.as_deref().unwrap_or("");
    match config.dialect {
        Dialect::Postgres => {
            let ssl_mode = match credentials.ssl_mode {
                SslMode::Disable => PgSslMode::Disable,
                SslMode::Prefer => PgSslMode::Prefer,
                SslMode::Require => PgSslMode::Require,
            };
            PgConnectOptions::new_without_pgpass()
                .host(&host)
                .port(credentials.port)
                .username(&credentials.user)
                .password(password)
                .database(&credentials.database)
                .ssl_mode(ssl_mode)
                .application_name("payback")
                .connect()
                .await
                .map(Connection::Postgres)
        }
        Dialect::MySql => {
            let ssl_mode = match credentials.ssl_mode {
                SslMode::Disable => MySqlSslMode::Disabled,
                SslMode::Prefer => MySqlSslMode::Preferred,
                SslMode::Require => MySqlSslMode::Required,
            };
            let options = MySqlConnectOptions::new()
                .host(&host)
                .port(credentials.port)
                .username(&credentials.user)
                .database(&credentials.database);
            // MySQL has no password environment to leak, and an empty password is not the
            // same as none there: an account without one refuses a login that sends "".
            let options = match credentials.password.as_deref() {
                Some(password) => options.password(password),
                None => options,
            };
            options
                .ssl_mode(ssl_mode)
                .timezone(Some("+00:00".to_owned()))
                .connect()
                .await
                .map(Connection::MySql)
        }
    }
}

fn decode<R>(row: &R, slots: &[Slot]) -> Result<Vec<Raw>, sqlx::Error>
where
    R: sqlx::Row,
    usize: sqlx::ColumnIndex<R>,
    for<'r> String: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> i64: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
{
    slots
        .iter()
        .enumerate()
        .map(|(index, slot)| {
            Ok(match slot {
                Slot::Text => row
                    .try_get::<Option<String>, _>(index)?
                    .map_or(Raw::Null, Raw::Text),
                Slot::Int => row
                    .try_get::<Option<i64>, _>(index)?
                    .map_or(Raw::Null, Raw::Int),
            })
        })
        .collect()
}

fn first_text(rows: &[Vec<Raw>], index: usize) -> String {
    rows.first()
        .and_then(|row| row.get(index))
        .and_then(Raw::text)
        .unwrap_or_default()
        .to_owned()
}

/// `PostgreSQL 15.20` from `15.20 (Debian 15.20-0+deb12u1)`; `MariaDB 10.11.19` from
/// `10.11.19-MariaDB-0+deb12u1`; `MySQL 8.0.36` from `8.0.36`.
fn server_label(dialect: Dialect, version: &str) -> String {
    let number: String = version
        .trim()
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    let product = match dialect {
        Dialect::MySql if version.to_ascii_lowercase().contains("mariadb") => "MariaDB",
        _ => dialect.product(),
    };
    if number.is_empty() {
        product.to_owned()
    } else {
        format!("{product} {number}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_labels_name_the_product_and_version() {
        assert_eq!(
            server_label(Dialect::Postgres, "15.20 (Debian 15.20-0+deb12u1)"),
            "PostgreSQL 15.20"
        );
        assert_eq!(
            server_label(Dialect::MySql, "10.11.19-MariaDB-0+deb12u1"),
            "MariaDB 10.11.19"
        );
        assert_eq!(server_label(Dialect::MySql, "8.0.36"), "MySQL 8.0.36");
    }
}
