//! The connection to a tenant's MongoDB: every wait bounded (server selection, connect, each
//! command), and the driver's errors sorted into the connectors' kinds. Error texts come from
//! the driver, which never quotes the connection string's password (SCRAM never sends it).

use std::future::IntoFuture;
use std::time::Duration;

use mongodb::error::{Error, ErrorKind};
use mongodb::options::ClientOptions;
use mongodb::{Client, Database};

use super::DocdbConfig;
use crate::ConnectorError;
use crate::database::ReadLimits;

/// MongoDB's error codes this module tells apart.
mod code {
    pub const UNAUTHORIZED: i32 = 13;
    pub const AUTHENTICATION_FAILED: i32 = 18;
    pub const MAX_TIME_EXPIRED: i32 = 50;
}

/// A client on the tenant's database, with the limits every call keeps.
pub(super) struct Source {
    database: Database,
    limits: ReadLimits,
}

impl Source {
    pub(super) async fn connect(config: &DocdbConfig) -> Result<Self, ConnectorError> {
        let limits = config.limits;
        // `mongodb+srv://` resolves its hosts here, so even parsing is a network wait.
        let parsing = ClientOptions::parse(config.credentials.uri());
        let mut options = bounded(limits, "resolving the connection string", parsing).await?;
        options.app_name = Some("payback".to_owned());
        options.connect_timeout = Some(limits.statement_timeout);
        options.server_selection_timeout = Some(limits.statement_timeout);
        // One read at a time per run.
        options.max_pool_size = Some(2);
        let client = Client::with_options(options).map_err(classify)?;
        Ok(Self {
            database: client.database(config.credentials.database()),
            limits,
        })
    }

    pub(super) fn database(&self) -> &Database {
        &self.database
    }

    pub(super) fn limits(&self) -> ReadLimits {
        self.limits
    }

    /// Runs one driver call under the limits (see [`bounded`]).
    pub(super) async fn call<T>(
        &self,
        what: &str,
        call: impl IntoFuture<Output = Result<T, Error>>,
    ) -> Result<T, ConnectorError> {
        bounded(self.limits, what, call).await
    }
}

/// A driver call cut off client-side after server selection plus the statement timeout (each
/// bounded by `statement_timeout`; the server also enforces `maxTimeMS` on reads), so a server
/// that accepts the connection and then goes silent cannot hold a run.
async fn bounded<T>(
    limits: ReadLimits,
    what: &str,
    call: impl IntoFuture<Output = Result<T, Error>>,
) -> Result<T, ConnectorError> {
    let deadline = limits.statement_timeout.saturating_mul(2);
    match tokio::time::timeout(deadline, call.into_future()).await {
        Ok(result) => result.map_err(classify),
        Err(_) => Err(ConnectorError::Unreachable(format!(
            "MongoDB did not finish {what} within {}",
            seconds(deadline)
        ))),
    }
}

fn seconds(duration: Duration) -> String {
    format!("{}s", duration.as_secs_f64())
}

/// The connector error a driver error stands for.
pub(super) fn classify(error: Error) -> ConnectorError {
    let message = error.kind.to_string();
    match error.kind.as_ref() {
        ErrorKind::Authentication { .. } => {
            ConnectorError::Unauthorized(format!("MongoDB refused the login: {message}"))
        }
        ErrorKind::Command(command) => match command.code {
            code::AUTHENTICATION_FAILED => {
                ConnectorError::Unauthorized(format!("MongoDB refused the login: {message}"))
            }
            code::UNAUTHORIZED => ConnectorError::Unauthorized(format!(
                "the MongoDB user may not read this database: {message}"
            )),
            code::MAX_TIME_EXPIRED => ConnectorError::Vendor(format!(
                "a read ran past the statement timeout; add a filter or an index on the timestamp field ({message})"
            )),
            _ => ConnectorError::Vendor(message),
        },
        ErrorKind::Io(_)
        | ErrorKind::ServerSelection { .. }
        | ErrorKind::DnsResolve { .. }
        | ErrorKind::ConnectionPoolCleared { .. }
        | ErrorKind::Shutdown => ConnectorError::Unreachable(message),
        ErrorKind::InvalidArgument { .. } | ErrorKind::InvalidTlsConfig { .. } => {
            ConnectorError::Config(format!(
                "the MongoDB connection string cannot work: {message}"
            ))
        }
        _ => ConnectorError::Vendor(message),
    }
}

#[cfg(test)]
mod tests {
    use bson::doc;
    use mongodb::error::CommandError;

    use super::*;

    fn command(code: i32, name: &str, message: &str) -> Error {
        let error: CommandError = bson::deserialize_from_document(
            doc! { "code": code, "codeName": name, "errmsg": message },
        )
        .expect("a command error");
        Error::from(ErrorKind::Command(error))
    }

    #[test]
    fn server_errors_sort_into_connector_kinds() {
        let refused = classify(command(
            18,
            "AuthenticationFailed",
            "Authentication failed.",
        ));
        assert!(
            matches!(&refused, ConnectorError::Unauthorized(m) if m.contains("Authentication failed.")),
            "{refused:?}"
        );
        let denied = classify(command(
            13,
            "Unauthorized",
            "not authorized on shop to execute command { find: \"orders\" }",
        ));
        assert!(
            matches!(&denied, ConnectorError::Unauthorized(m) if m.starts_with("the MongoDB user may not read")),
            "{denied:?}"
        );
        let slow = classify(command(
            50,
            "MaxTimeMSExpired",
            "operation exceeded time limit",
        ));
        assert!(
            matches!(&slow, ConnectorError::Vendor(m) if m.starts_with("a read ran past the statement timeout")),
            "{slow:?}"
        );
        let other = classify(command(2, "BadValue", "unknown operator: $foo"));
        assert!(
            matches!(&other, ConnectorError::Vendor(m) if m.contains("unknown operator: $foo")),
            "{other:?}"
        );
    }

    #[test]
    fn network_failures_are_unreachable() {
        let refused = std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "refused");
        let error = classify(Error::from(ErrorKind::Io(std::sync::Arc::new(refused))));
        assert!(
            matches!(&error, ConnectorError::Unreachable(m) if m.contains("refused")),
            "{error:?}"
        );
    }

    #[tokio::test]
    async fn a_silent_call_is_cut_off() {
        let limits = ReadLimits {
            statement_timeout: Duration::from_millis(20),
            ..ReadLimits::default()
        };
        let silent = std::future::pending::<Result<(), Error>>();
        let error = bounded(limits, "a ping", silent)
            .await
            .expect_err("cut off");
        assert!(
            matches!(&error, ConnectorError::Unreachable(m) if m == "MongoDB did not finish a ping within 0.04s"),
            "{error:?}"
        );
    }
}
