//! Database failures as the connector's one error type: who to blame (the network, the
//! credentials, the maps, the server) and a message built from what the message may name, never
//! from the credentials: nothing is scrubbed afterwards, so nothing needs to be.
//!
//! Connecting fails with one of a few plain messages (cannot reach, refused credentials, no
//! such database, TLS failed, timed out) naming the host as it was given: never the address it
//! resolved to, nor the driver's own text, so testing a connection tells nothing about what
//! answers where beyond that. Once connected, the tenant's own server's messages are passed on
//! (a missing column names itself), except on an operator's environment path, whose values the
//! server's messages may quote.

use std::time::Duration;

use sqlx::mysql::MySqlDatabaseError;

use super::{Dialect, SqlConfig};
use crate::ConnectorError;

/// How messages name what the connector connects to.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Naming {
    /// By the values themselves: the tenant typed them.
    #[default]
    Values,
    /// By the names of the API host's environment variables that hold them (an operator's
    /// environment path): a value read from the host's environment never appears in a message,
    /// and neither does the server's own text, which may quote the user or database it was
    /// given.
    Variables {
        host: String,
        port: Option<String>,
        user: String,
        database: String,
    },
}

/// What an error message may mention about the connection.
#[derive(Debug, Clone)]
pub(crate) struct ErrorContext {
    dialect: Dialect,
    /// `db.example.com:5432`, or `the host in DB_HOST`.
    address: String,
    /// ``user `app` ``, or `the user in DB_USER`.
    user: String,
    /// ``database `shop` ``, or `the database in DB_NAME`.
    database: String,
    /// Whether the server's own message may be passed on.
    quote_server: bool,
    timeout: Duration,
}

impl ErrorContext {
    pub(crate) fn new(config: &SqlConfig) -> Self {
        let credentials = &config.credentials;
        let (address, user, database, quote_server) = match &config.naming {
            Naming::Values => {
                let host = if credentials.host.contains(':') {
                    format!("[{}]", credentials.host)
                } else {
                    credentials.host.clone()
                };
                (
                    format!("{host}:{}", credentials.port),
                    format!("user `{}`", credentials.user),
                    format!("database `{}`", credentials.database),
                    true,
                )
            }
            Naming::Variables {
                host,
                port,
                user,
                database,
            } => (
                match port {
                    Some(port) => format!("the host in {host} (port in {port})"),
                    None => format!("the host in {host} (port {})", credentials.port),
                },
                format!("the user in {user}"),
                format!("the database in {database}"),
                false,
            ),
        };
        Self {
            dialect: config.dialect,
            address,
            user,
            database,
            quote_server,
            timeout: config.limits.statement_timeout,
        }
    }

    /// How messages name the user: ``user `app` `` or `the user in DB_USER`.
    pub(crate) fn user(&self) -> &str {
        &self.user
    }

    /// How messages name the database.
    pub(crate) fn database(&self) -> &str {
        &self.database
    }

    /// The connect ran past the limit.
    pub(crate) fn connect_timed_out(&self) -> ConnectorError {
        ConnectorError::Unreachable(format!(
            "{} at {} did not answer within {}s",
            self.dialect.product(),
            self.address,
            self.timeout.as_secs_f64()
        ))
    }

    /// No address to dial (the host resolved to none when it was checked).
    pub(crate) fn no_address(&self) -> ConnectorError {
        self.cannot_reach()
    }

    fn cannot_reach(&self) -> ConnectorError {
        ConnectorError::Unreachable(format!(
            "cannot reach {} at {}",
            self.dialect.product(),
            self.address
        ))
    }

    /// A statement ran past the limit (the server's, or ours a moment later).
    pub(crate) fn timed_out(&self, what: &str) -> ConnectorError {
        ConnectorError::Vendor(format!(
            "statement timed out after {}s while {what}; add a filter or an index on the timestamp column",
            self.timeout.as_secs_f64()
        ))
    }

    /// A failed connect (TCP, TLS, login) as one of the plain messages.
    pub(crate) fn map_connect(&self, err: sqlx::Error) -> ConnectorError {
        let product = self.dialect.product();
        let address = &self.address;
        match err {
            sqlx::Error::Database(db) => {
                let (code, number) = codes(db.as_ref());
                if refused(&code, number) {
                    return ConnectorError::Unauthorized(format!(
                        "{product} at {address} refused the credentials of {}",
                        self.user
                    ));
                }
                match (code.as_str(), number) {
                    ("3D000", _) | (_, Some(1049)) => ConnectorError::Config(format!(
                        "{} does not exist on {product} at {address}",
                        self.database
                    )),
                    ("42501", _) | (_, Some(1044)) => ConnectorError::Config(format!(
                        "{} may not open {} on {product} at {address}",
                        self.user, self.database
                    )),
                    // The code is the server's classification, not its text.
                    _ => ConnectorError::Vendor(format!(
                        "{product} at {address} refused the connection (error {})",
                        number.map_or(code, |number| number.to_string())
                    )),
                }
            }
            sqlx::Error::Tls(_) => ConnectorError::Unreachable(format!(
                "TLS with {product} at {address} failed (see `sslmode`)"
            )),
            sqlx::Error::Io(io) if io.kind() == std::io::ErrorKind::TimedOut => {
                self.connect_timed_out()
            }
            sqlx::Error::Protocol(_) | sqlx::Error::Decode(_) => ConnectorError::Unreachable(
                format!("the server at {address} does not answer as {product} does"),
            ),
            _ => self.cannot_reach(),
        }
    }

    /// A failure once connected; `what` says what the connector was doing (`reading
    /// shop.orders`).
    pub(crate) fn map(&self, err: sqlx::Error, what: &str) -> ConnectorError {
        let product = self.dialect.product();
        match err {
            sqlx::Error::Database(db) => {
                let (code, number) = codes(db.as_ref());
                self.database_error(&code, number, db.message(), what)
            }
            sqlx::Error::Io(_) | sqlx::Error::Tls(_) => ConnectorError::Unreachable(format!(
                "lost the connection to {product} at {} while {what}",
                self.address
            )),
            sqlx::Error::ColumnDecode { .. } | sqlx::Error::Decode(_) if self.quote_server => {
                ConnectorError::Vendor(format!("a value could not be read while {what}: {err}"))
            }
            _ => ConnectorError::Vendor(format!("{product} failed while {what}")),
        }
    }

    /// `: <the server's message>` where it may be passed on, nothing otherwise.
    fn server_says(&self, message: &str) -> String {
        if self.quote_server {
            format!(": {message}")
        } else {
            String::new()
        }
    }

    fn database_error(
        &self,
        code: &str,
        number: Option<u16>,
        message: &str,
        what: &str,
    ) -> ConnectorError {
        let product = self.dialect.product();
        let says = self.server_says(message);
        if refused(code, number) {
            return ConnectorError::Unauthorized(format!("{product} refused {}{says}", self.user));
        }
        match (code, number) {
            ("3D000", _) | (_, Some(1049)) => {
                ConnectorError::Config(format!("{} does not exist{says}", self.database))
            }
            ("42P01", _) | (_, Some(1146)) => {
                ConnectorError::Config(format!("missing table while {what}{says}"))
            }
            ("42703", _) | (_, Some(1054)) => {
                ConnectorError::Config(format!("missing column while {what}{says}"))
            }
            ("42501", _) | (_, Some(1044 | 1142 | 1143)) => ConnectorError::Config(format!(
                "{} may not read this while {what}{says}",
                self.user
            )),
            ("22P02" | "22007" | "22008" | "22003", _) | (_, Some(1292 | 1366)) => {
                ConnectorError::Config(format!(
                    "a filter value does not fit its column while {what}{says}"
                ))
            }
            ("57014", _) | (_, Some(1969 | 3024)) => self.timed_out(what),
            ("25006", _) | (_, Some(1792)) => ConnectorError::Vendor(format!(
                "{product} refused a write while {what}: the connector's session is read-only{says}"
            )),
            _ => {
                let code = number.map_or_else(|| code.to_owned(), |number| number.to_string());
                ConnectorError::Vendor(format!("{product} error {code} while {what}{says}"))
            }
        }
    }
}

/// Whether the server refused the login (PostgreSQL's SQLSTATEs, MySQL's error numbers).
fn refused(code: &str, number: Option<u16>) -> bool {
    matches!(code, "28P01" | "28000") || matches!(number, Some(1045 | 1698))
}

/// A database error's classification: its SQLSTATE (empty when it has none) and, from MySQL
/// and MariaDB, their own error number, which is more precise than the state they map it to.
fn codes(db: &dyn sqlx::error::DatabaseError) -> (String, Option<u16>) {
    let code = db.code().map(|code| code.into_owned()).unwrap_or_default();
    let number = db
        .try_downcast_ref::<MySqlDatabaseError>()
        .map(MySqlDatabaseError::number);
    (code, number)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::database::ReadLimits;
    use crate::sql::{SqlCredentials, SslMode};

    fn context(password: Option<&str>, naming: Naming) -> ErrorContext {
        ErrorContext::new(&SqlConfig {
            dialect: Dialect::Postgres,
            credentials: SqlCredentials {
                host: "db.internal".to_owned(),
                port: 5432,
                user: "app".to_owned(),
                password: password.map(str::to_owned),
                database: "shop".to_owned(),
                ssl_mode: SslMode::Prefer,
            },
            addresses: Vec::new(),
            naming,
            limits: ReadLimits::default(),
        })
    }

    fn variables() -> Naming {
        Naming::Variables {
            host: "SHOP_DB_HOST".to_owned(),
            port: None,
            user: "SHOP_DB_USER".to_owned(),
            database: "SHOP_DB_NAME".to_owned(),
        }
    }

    fn refused_io() -> sqlx::Error {
        sqlx::Error::Io(std::io::Error::new(
            std::io::ErrorKind::ConnectionRefused,
            "Connection refused (os error 111) at 10.0.0.7:5432",
        ))
    }

    #[test]
    fn codes_pick_the_blame() {
        let context = context(Some("hunter22"), Naming::Values);
        assert!(matches!(
            context.database_error("28P01", None, "password authentication failed", "x"),
            ConnectorError::Unauthorized(_)
        ));
        assert!(matches!(
            context.database_error("28000", Some(1045), "Access denied", "x"),
            ConnectorError::Unauthorized(_)
        ));
        let missing = context.database_error(
            "42703",
            None,
            "column \"paid\" does not exist",
            "reading orders",
        );
        assert!(
            matches!(&missing, ConnectorError::Config(m) if m.contains("\"paid\"") && m.contains("reading orders")),
            "{missing}"
        );
        assert!(matches!(
            context.database_error("HY000", Some(1969), "Query execution was interrupted", "reading orders"),
            ConnectorError::Vendor(m) if m.contains("statement timed out")
        ));
    }

    /// A password that happens to be part of the host name leaves the host intact: messages are
    /// built without the password, not scrubbed of it afterwards.
    #[test]
    fn connect_failures_are_plain_and_name_the_host_as_given() {
        let context = context(Some("d"), Naming::Values);
        let error = context.map_connect(refused_io());
        assert!(
            matches!(&error, ConnectorError::Unreachable(m) if m == "cannot reach PostgreSQL at db.internal:5432"),
            "{error:?}"
        );
        let tls = context.map_connect(sqlx::Error::Tls("bad certificate for 10.0.0.7".into()));
        assert!(
            matches!(&tls, ConnectorError::Unreachable(m) if m == "TLS with PostgreSQL at db.internal:5432 failed (see `sslmode`)"),
            "{tls:?}"
        );
        let odd = context.map_connect(sqlx::Error::Protocol("garbage from 10.0.0.7".to_owned()));
        assert!(!odd.to_string().contains("10.0.0.7"), "{odd}");
        assert!(
            context
                .connect_timed_out()
                .to_string()
                .contains("db.internal:5432")
        );
    }

    #[test]
    fn environment_values_never_appear() {
        let context = context(Some("pw"), variables());
        let error = context.map_connect(refused_io());
        assert_eq!(
            error.to_string(),
            "could not reach the vendor: cannot reach PostgreSQL at the host in SHOP_DB_HOST (port 5432)"
        );
        // The server's own message quotes the database it was given; it is left out.
        let missing = context.database_error(
            "3D000",
            None,
            "database \"shop\" does not exist",
            "connecting",
        );
        assert_eq!(
            missing.to_string(),
            "the database in SHOP_DB_NAME does not exist"
        );
        let denied = context.database_error(
            "",
            Some(1142),
            "SELECT command denied to user 'app'@'10.1.2.3' for table 'orders'",
            "reading orders",
        );
        let text = denied.to_string();
        assert!(
            !text.contains("app") && !text.contains("10.1.2.3"),
            "{text}"
        );
        assert!(text.contains("the user in SHOP_DB_USER"), "{text}");
    }
}
