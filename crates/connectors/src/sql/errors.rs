//! Database failures as the connector's one error type: who to blame (the network, the
//! credentials, the maps, the server) and a message that never carries the password.

use std::time::Duration;

use sqlx::mysql::MySqlDatabaseError;

use super::{Dialect, SqlConfig};
use crate::ConnectorError;

/// What an error message may mention about the connection, and the one secret it must not.
#[derive(Debug, Clone)]
pub(crate) struct ErrorContext {
    dialect: Dialect,
    address: String,
    user: String,
    database: String,
    password: Option<String>,
    timeout: Duration,
}

impl ErrorContext {
    pub(crate) fn new(config: &SqlConfig) -> Self {
        let credentials = &config.credentials;
        Self {
            dialect: config.dialect,
            address: format!("{}:{}", credentials.host, credentials.port),
            user: credentials.user.clone(),
            database: credentials.database.clone(),
            password: credentials.password.clone(),
            timeout: config.limits.statement_timeout,
        }
    }

    /// Replaces the password wherever a message might echo it.
    pub(crate) fn scrub(&self, message: &str) -> String {
        match self.password.as_deref() {
            Some(password) if !password.is_empty() => message.replace(password, "<redacted>"),
            _ => message.to_owned(),
        }
    }

    /// The connect ran past the limit.
    pub(crate) fn connect_timed_out(&self) -> ConnectorError {
        self.blame(
            ConnectorError::Unreachable,
            format!(
                "{} at {} did not answer within {}s",
                self.dialect.product(),
                self.address,
                self.timeout.as_secs_f64()
            ),
        )
    }

    /// A statement ran past the limit (the server's, or ours a moment later).
    pub(crate) fn timed_out(&self, what: &str) -> ConnectorError {
        ConnectorError::Vendor(format!(
            "statement timed out after {}s while {what}; add a filter or an index on the timestamp column",
            self.timeout.as_secs_f64()
        ))
    }

    /// `what` says what the connector was doing (`reading shop.orders`).
    pub(crate) fn map(&self, err: sqlx::Error, what: &str) -> ConnectorError {
        let product = self.dialect.product();
        match err {
            sqlx::Error::Database(db) => {
                let code = db.code().map(|code| code.into_owned()).unwrap_or_default();
                let number = db
                    .try_downcast_ref::<MySqlDatabaseError>()
                    .map(MySqlDatabaseError::number);
                self.database_error(&code, number, db.message(), what)
            }
            sqlx::Error::Io(io) => self.blame(
                ConnectorError::Unreachable,
                format!("{product} at {}: {io}", self.address),
            ),
            sqlx::Error::Tls(tls) => self.blame(
                ConnectorError::Unreachable,
                format!(
                    "TLS with {product} at {} failed: {tls} (see `sslmode`)",
                    self.address
                ),
            ),
            sqlx::Error::Configuration(reason) => self.blame(
                ConnectorError::Config,
                format!("the connection settings do not work: {reason}"),
            ),
            other => self.blame(
                ConnectorError::Vendor,
                format!("{product} failed while {what}: {other}"),
            ),
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
        let refused = matches!(code, "28P01" | "28000") || matches!(number, Some(1045 | 1698));
        if refused {
            return self.blame(
                ConnectorError::Unauthorized,
                format!("{product} refused user `{}`: {message}", self.user),
            );
        }
        match (code, number) {
            ("3D000", _) | (_, Some(1049)) => self.blame(ConnectorError::Config, format!(
                "database `{}` does not exist: {message}",
                self.database
            )),
            ("42P01", _) | (_, Some(1146)) => {
                self.blame(ConnectorError::Config, format!("missing table while {what}: {message}"))
            }
            ("42703", _) | (_, Some(1054)) => {
                self.blame(ConnectorError::Config, format!("missing column while {what}: {message}"))
            }
            ("42501", _) | (_, Some(1044 | 1142 | 1143)) => self.blame(ConnectorError::Config, format!(
                "user `{}` may not read this while {what}: {message}",
                self.user
            )),
            ("22P02" | "22007" | "22008" | "22003", _) | (_, Some(1292 | 1366)) => {
                self.blame(ConnectorError::Config, format!(
                    "a filter value does not fit its column while {what}: {message}"
                ))
            }
            ("57014", _) | (_, Some(1969 | 3024)) => self.timed_out(what),
            ("25006", _) | (_, Some(1792)) => self.blame(ConnectorError::Vendor, format!(
                "{product} refused a write while {what}: the connector's session is read-only ({message})"
            )),
            _ => self.blame(ConnectorError::Vendor, format!(
                "{product} error {code} while {what}: {message}"
            )),
        }
    }

    /// Builds the error from a message with the password scrubbed out.
    fn blame(&self, make: fn(String) -> ConnectorError, message: String) -> ConnectorError {
        make(self.scrub(&message))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::database::ReadLimits;
    use crate::sql::{SqlCredentials, SslMode};

    fn context(password: Option<&str>) -> ErrorContext {
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
            limits: ReadLimits::default(),
        })
    }

    #[test]
    fn codes_pick_the_blame() {
        let context = context(Some("hunter22"));
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

    #[test]
    fn the_password_never_survives_a_message() {
        let context = context(Some("hunter22"));
        let error = context.map(
            sqlx::Error::Protocol("server echoed hunter22 back".to_owned()),
            "connecting",
        );
        let text = error.to_string();
        assert!(!text.contains("hunter22"), "{text}");
        assert!(text.contains("<redacted>"));
    }
}
