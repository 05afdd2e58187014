//! The connection to a tenant's MongoDB: every wait bounded (server selection, connect, each
//! command), one checked seed dialed at a time over a direct connection (see `seeds`), and the
//! driver's errors sorted into the connectors' kinds. Connecting fails with a plain message
//! naming the host as the connection string (or its SRV record) names it: never the address
//! dialed, nor the driver's text, which quotes both.

use std::future::IntoFuture;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mongodb::error::{Error, ErrorKind};
use mongodb::event::EventHandler;
use mongodb::event::sdam::SdamEvent;
use mongodb::options::ConnectionString;
use mongodb::{Client, Database};
use tokio::sync::Notify;

use super::DocdbConfig;
use super::seeds::{self, Seed};
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
    /// Dials the seeds in order until one answers a ping; a seed that cannot be reached moves
    /// on to the next, a refused login or an unusable string ends the attempt.
    pub(super) async fn connect(config: &DocdbConfig) -> Result<Self, ConnectorError> {
        let limits = config.limits;
        let base = seeds::base(&config.credentials, limits).await?;
        let mut first_failure = None;
        let mut others = 0_usize;
        for seed in &config.seeds {
            for dial in dial_targets(&base, seed) {
                match Self::connect_to(config, &base, seed, &dial).await {
                    Ok(source) => return Ok(source),
                    Err(err @ (ConnectorError::Unauthorized(_) | ConnectorError::Config(_))) => {
                        return Err(err);
                    }
                    Err(err) if first_failure.is_none() => first_failure = Some(err),
                    Err(_) => others += 1,
                }
            }
        }
        Err(match (first_failure, others) {
            (None, _) => ConnectorError::Unreachable(
                "cannot reach MongoDB: the connection string names no host".to_owned(),
            ),
            (Some(failure), 0) => failure,
            (Some(failure), others) => widen(failure, others),
        })
    }

    /// One seed at one dial target: a client held to that server alone, and a ping.
    async fn connect_to(
        config: &DocdbConfig,
        base: &ConnectionString,
        seed: &Seed,
        dial: &str,
    ) -> Result<Self, ConnectorError> {
        let limits = config.limits;
        let mut options = seeds::options_for(base, dial, seed.port).await?;
        options.app_name = Some("payback".to_owned());
        options.connect_timeout = Some(limits.statement_timeout);
        options.server_selection_timeout = Some(limits.statement_timeout);
        // One read at a time per run.
        options.max_pool_size = Some(2);
        // Server selection only says it timed out, and only once the timeout has passed; the
        // monitor's failed check says why, at once (a refused port need not wait the timeout).
        let failed_check: Arc<Mutex<Option<Error>>> = Arc::default();
        let check_failed = Arc::new(Notify::new());
        let (record, notify) = (Arc::clone(&failed_check), Arc::clone(&check_failed));
        options.sdam_event_handler = Some(EventHandler::callback(move |event: SdamEvent| {
            if let SdamEvent::ServerHeartbeatFailed(failed) = event {
                if let Ok(mut slot) = record.lock() {
                    *slot = Some(failed.failure);
                }
                notify.notify_one();
            }
        }));
        let failure = |error: Option<Error>| {
            let check = failed_check.lock().ok().and_then(|mut slot| slot.take());
            ConnectFailure {
                seed,
                limits,
                tls: seeds::uses_tls(base),
            }
            .classify(error, check)
        };
        let client = Client::with_options(options).map_err(|err| failure(Some(err)))?;
        let database = client.database(config.credentials.database());
        let ping = database.run_command(bson::doc! { "ping": 1 }).into_future();
        let deadline = limits.statement_timeout.saturating_mul(2);
        tokio::select! {
            answered = tokio::time::timeout(deadline, ping) => match answered {
                Ok(Ok(_)) => Ok(Self { database, limits }),
                Ok(Err(err)) => Err(failure(Some(err))),
                Err(_) => Err(failure(None)),
            },
            () = check_failed.notified() => Err(failure(None)),
        }
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

/// Where to dial a seed. Without TLS, or with TLS that checks no certificate, each checked
/// address, so the driver resolves nothing and a name rebound since the check (DNS rebinding)
/// is never followed. With certificate checks, the name: the driver checks the certificate
/// against the name it dials (there is no separate TLS name with rustls), and Atlas-style
/// certificates name hosts, not addresses, so dialing an address would fail every handshake.
/// The driver resolves the name again then; a rebound name can still draw a TCP connect and a
/// TLS hello to another address, but no MongoDB command and no credential, since no server
/// there holds a valid certificate for the tenant's name. What remains is whether the answer
/// reads "TLS failed" or "cannot reach": a name rebound between check and dial can learn
/// whether a port listens (mongodb's rustls setup takes no TLS name apart from the host dialed,
/// so this cannot be closed here without giving up certificate checks).
fn dial_targets(base: &ConnectionString, seed: &Seed) -> Vec<String> {
    if seeds::verifies_certificates(base) {
        vec![seed.host.clone()]
    } else {
        seed.addresses.iter().map(ToString::to_string).collect()
    }
}

/// The first seed's failure, saying the others failed too.
fn widen(failure: ConnectorError, others: usize) -> ConnectorError {
    let also = format!(
        " (and {others} other {} did not answer either)",
        if others == 1 { "address" } else { "addresses" }
    );
    match failure {
        ConnectorError::Unreachable(message) => ConnectorError::Unreachable(message + &also),
        ConnectorError::Vendor(message) => ConnectorError::Vendor(message + &also),
        other => other,
    }
}

/// A failed connect to one seed, as one of the plain messages.
struct ConnectFailure<'a> {
    seed: &'a Seed,
    limits: ReadLimits,
    tls: bool,
}

impl ConnectFailure<'_> {
    /// `error` is what the ping answered (none: it ran past the deadline), `check` the
    /// monitor's last failed check of the server.
    fn classify(&self, error: Option<Error>, check: Option<Error>) -> ConnectorError {
        let at = self.seed.label();
        let refused =
            || ConnectorError::Unauthorized(format!("MongoDB at {at} refused the credentials"));
        let Some(error) = error else {
            return self.unanswered(check);
        };
        match error.kind.as_ref() {
            ErrorKind::Authentication { .. } => refused(),
            ErrorKind::Command(command) if command.code == code::AUTHENTICATION_FAILED => refused(),
            ErrorKind::Command(command) if command.code == code::UNAUTHORIZED => {
                ConnectorError::Unauthorized(format!(
                    "MongoDB at {at} does not let this user use the database"
                ))
            }
            ErrorKind::InvalidArgument { .. } | ErrorKind::InvalidTlsConfig { .. } => {
                ConnectorError::Config(
                    "the MongoDB connection string cannot work (check its options)".to_owned(),
                )
            }
            ErrorKind::ServerSelection { .. } => self.unanswered(check),
            _ => self.unanswered(Some(error)),
        }
    }

    /// The server never answered: why, as far as the failure says.
    fn unanswered(&self, failure: Option<Error>) -> ConnectorError {
        let at = self.seed.label();
        let timed_out = || {
            ConnectorError::Unreachable(format!(
                "MongoDB at {at} did not answer within {}",
                seconds(self.limits.statement_timeout)
            ))
        };
        let Some(failure) = failure else {
            return timed_out();
        };
        match failure.kind.as_ref() {
            ErrorKind::Io(io) if io.kind() == std::io::ErrorKind::TimedOut => timed_out(),
            // rustls's failures surface as invalid data on the stream.
            ErrorKind::Io(io) if self.tls && io.kind() == std::io::ErrorKind::InvalidData => {
                ConnectorError::Unreachable(format!(
                    "TLS with MongoDB at {at} failed (see the `tls` options)"
                ))
            }
            ErrorKind::InvalidResponse { .. } => ConnectorError::Unreachable(format!(
                "the server at {at} does not answer as MongoDB does"
            )),
            _ => ConnectorError::Unreachable(format!("cannot reach MongoDB at {at}")),
        }
    }
}

/// The connector error a driver error stands for, once connected: the tenant's server's own
/// messages pass on; the driver's network errors, which quote the address dialed, do not.
pub(super) fn classify(error: Error) -> ConnectorError {
    let message = error.kind.to_string();
    match error.kind.as_ref() {
        ErrorKind::Authentication { .. } => {
            ConnectorError::Unauthorized("MongoDB refused the login".to_owned())
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
        | ErrorKind::Shutdown => {
            ConnectorError::Unreachable("lost the connection to MongoDB".to_owned())
        }
        ErrorKind::InvalidArgument { .. } | ErrorKind::InvalidTlsConfig { .. } => {
            ConnectorError::Config(
                "the MongoDB connection string cannot work (check its options)".to_owned(),
            )
        }
        // BSON that does not decode, and the like: about documents, not the network.
        ErrorKind::BsonDeserialization(_) | ErrorKind::InvalidResponse { .. } => {
            ConnectorError::Vendor(message)
        }
        _ => ConnectorError::Vendor("MongoDB failed".to_owned()),
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

    fn io(kind: std::io::ErrorKind) -> Error {
        let io = std::io::Error::new(kind, "at 10.0.0.7:27017");
        Error::from(ErrorKind::Io(Arc::new(io)))
    }

    #[test]
    fn network_failures_are_unreachable_without_the_address() {
        let error = classify(io(std::io::ErrorKind::ConnectionRefused));
        assert!(
            matches!(&error, ConnectorError::Unreachable(m) if m == "lost the connection to MongoDB"),
            "{error:?}"
        );
    }

    /// Connect failures name the seed as given (a password `o` inside `db.example.org` leaves
    /// it whole: nothing is scrubbed), never the address dialed nor the driver's text.
    #[test]
    fn connect_failures_are_plain() {
        let seed = Seed {
            host: "db.example.org".to_owned(),
            port: 27017,
            addresses: vec!["203.0.113.7".parse().expect("an address")],
        };
        let failure = ConnectFailure {
            seed: &seed,
            limits: ReadLimits {
                statement_timeout: Duration::from_secs(3),
                ..ReadLimits::default()
            },
            tls: true,
        };
        // Server selection only says it timed out (the driver builds that error itself); the
        // monitor's failed check says why.
        let cases = [
            (
                failure.unanswered(Some(io(std::io::ErrorKind::ConnectionRefused))),
                "cannot reach MongoDB at db.example.org:27017",
            ),
            (
                failure.unanswered(Some(io(std::io::ErrorKind::InvalidData))),
                "TLS with MongoDB at db.example.org:27017 failed (see the `tls` options)",
            ),
            (
                failure.unanswered(None),
                "MongoDB at db.example.org:27017 did not answer within 3s",
            ),
            (
                failure.classify(None, Some(io(std::io::ErrorKind::TimedOut))),
                "MongoDB at db.example.org:27017 did not answer within 3s",
            ),
            (
                failure.classify(Some(io(std::io::ErrorKind::ConnectionReset)), None),
                "cannot reach MongoDB at db.example.org:27017",
            ),
        ];
        for (error, expected) in cases {
            assert!(
                matches!(&error, ConnectorError::Unreachable(m) if m == expected),
                "{error:?}"
            );
        }
        let login = failure.classify(
            Some(command(
                18,
                "AuthenticationFailed",
                "Authentication failed.",
            )),
            None,
        );
        assert!(
            matches!(&login, ConnectorError::Unauthorized(m) if m == "MongoDB at db.example.org:27017 refused the credentials"),
            "{login:?}"
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
