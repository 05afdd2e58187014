//! The operator-only way to connect `sql_a`: instead of credentials, the NAMES of environment
//! variables on the API host that hold them (so a platform's own database password never passes
//! through a request or the credential store). Names are stored; values are read from the
//! environment snapshot taken at start, at every run.
//!
//! A value read from the host's environment never appears in an error or a response: messages
//! name the variable instead, here and in the connector (`Naming::Variables`), also after the
//! value was used to connect.

use payback_connectors::database::ReadLimits;
use payback_connectors::sql::{Dialect, Naming, SqlConfig, SqlCredentials};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::config::HostEnv;
use crate::error::{ApiError, ApiResult};
use crate::services::host_guard;

/// What a variable name is made of ([`EnvNames::check`]), at most [`NAME_MAX_CHARS`] long.
pub const NAME_PATTERN: &str = "^[A-Z_][A-Z0-9_]*$";
pub const NAME_MAX_CHARS: usize = 128;
/// The service's own settings, which no connection may read.
pub const RESERVED_PREFIX: &str = "PAYBACK_";

/// The variable names a connect body may give; `host_env`, `user_env` and `database_env` are
/// required once any is given.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct EnvNames {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host_env: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub port_env: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_env: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub password_env: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub database_env: Option<String>,
}

impl EnvNames {
    /// Whether any name was given (the body chose the environment path).
    pub fn any(&self) -> bool {
        self.named().next().is_some()
    }

    fn named(&self) -> impl Iterator<Item = (&'static str, &str)> {
        [
            ("host_env", &self.host_env),
            ("port_env", &self.port_env),
            ("user_env", &self.user_env),
            ("password_env", &self.password_env),
            ("database_env", &self.database_env),
        ]
        .into_iter()
        .filter_map(|(field, name)| name.as_deref().map(|name| (field, name)))
    }

    /// Checks the names: upper-case variable names, never the service's own `PAYBACK_*`
    /// settings (a connection must not become a way to read the service's secrets), and the
    /// three without which nothing can connect.
    pub fn check(self) -> ApiResult<Self> {
        for (field, name) in self.named() {
            let plain = name
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_uppercase() || c == '_')
                && name
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
                && name.len() <= NAME_MAX_CHARS;
            if !plain {
                return Err(ApiError::bad_request(format!(
                    "{field}: must be an environment variable name (A-Z, 0-9, _)"
                )));
            }
            if name.starts_with(RESERVED_PREFIX) {
                return Err(ApiError::bad_request(format!(
                    "{field}: the service's own PAYBACK_ settings cannot be used"
                )));
            }
        }
        for (field, name) in [
            ("host_env", &self.host_env),
            ("user_env", &self.user_env),
            ("database_env", &self.database_env),
        ] {
            if name.is_none() {
                return Err(ApiError::bad_request(format!(
                    "{field}: required with the environment path"
                )));
            }
        }
        Ok(self)
    }

    /// What the connector reads with, from the variables now: their credentials, messages
    /// naming the variables, and the addresses the host has (it must resolve; it may be
    /// private, the operator chose it). 409 naming the variable that is not set or does not
    /// hold what it should.
    pub async fn config(&self, env: &HostEnv, limits: ReadLimits) -> ApiResult<SqlConfig> {
        let credentials = self.resolve(env)?;
        let host_variable = self.host_env.as_deref().unwrap_or_default();
        let addresses = host_guard::resolve(&credentials.host, credentials.port, true)
            .await
            .map_err(|refusal| {
                ApiError::Conflict(format!(
                    "host_env: the host in {host_variable} {}",
                    refusal.reason()
                ))
            })?;
        Ok(SqlConfig {
            dialect: Dialect::Postgres,
            credentials,
            addresses,
            naming: self.naming(),
            limits,
        })
    }

    /// How the connector's messages name the host, user and database: by these variables.
    fn naming(&self) -> Naming {
        let name = |name: &Option<String>| name.clone().unwrap_or_default();
        Naming::Variables {
            host: name(&self.host_env),
            port: self.port_env.clone(),
            user: name(&self.user_env),
            database: name(&self.database_env),
        }
    }

    /// The credentials the variables hold now. 409 naming the variable that is not set.
    fn resolve(&self, env: &HostEnv) -> ApiResult<SqlCredentials> {
        let mut object = Map::new();
        for (field, name) in self.named() {
            let value = env.get(name).ok_or_else(|| {
                ApiError::Conflict(format!(
                    "{field}: the environment variable {name} is not set on the API host"
                ))
            })?;
            let key = field.trim_end_matches("_env");
            let value = if key == "port" {
                let port: u16 = value.trim().parse().map_err(|_| {
                    ApiError::Conflict(format!("{field}: {name} does not hold a port number"))
                })?;
                Value::from(port)
            } else {
                Value::from(value)
            };
            object.insert(key.to_owned(), value);
        }
        // The parser names `credentials.<key>`; the operator set `<key>_env`, so the refusal
        // names that variable (its messages say what the value must be, never what it is).
        SqlCredentials::from_json(&Value::Object(object), Dialect::Postgres).map_err(
            |(field, message)| {
                let key = field.trim_start_matches("credentials.");
                let env_field = format!("{key}_env");
                match self.named().find(|(named, _)| *named == env_field) {
                    Some((_, name)) => {
                        ApiError::Conflict(format!("{env_field}: the value of {name} {message}"))
                    }
                    None => ApiError::Conflict(format!(
                        "the environment variables do not work: {field} {message}"
                    )),
                }
            },
        )
    }
}
