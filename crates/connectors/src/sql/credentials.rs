//! The tenant's connection details for a relational database, parsed from the `credentials`
//! object they send, and the redacted line the connection's config shows instead of them.

use serde_json::Value;

use super::Dialect;

/// Whether the connection is encrypted. `Prefer` tries TLS and falls back to plain text when the
/// server offers none; certificates are not verified (customers' servers often use self-signed
/// ones), as with libpq's modes of the same names.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum SslMode {
    Disable,
    #[default]
    Prefer,
    Require,
}

impl SslMode {
    /// `disable`, `prefer`, `require` (libpq's spellings) or MySQL's `disabled`, `preferred`,
    /// `required`.
    pub fn parse(text: &str) -> Option<Self> {
        match text.trim().to_ascii_lowercase().as_str() {
            "disable" | "disabled" => Some(Self::Disable),
            "prefer" | "preferred" => Some(Self::Prefer),
            "require" | "required" => Some(Self::Require),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Disable => "disable",
            Self::Prefer => "prefer",
            Self::Require => "require",
        }
    }
}

/// Where and as whom to connect. `Debug` never shows the password.
#[derive(Clone, PartialEq, Eq)]
pub struct SqlCredentials {
    pub host: String,
    pub port: u16,
    pub user: String,
    pub password: Option<String>,
    pub database: String,
    pub ssl_mode: SslMode,
}

impl std::fmt::Debug for SqlCredentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SqlCredentials")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("user", &self.user)
            .field("password", &self.password.as_ref().map(|_| "<redacted>"))
            .field("database", &self.database)
            .field("ssl_mode", &self.ssl_mode)
            .finish()
    }
}

type Refusal = (String, String);

fn refuse(field: &str, message: impl Into<String>) -> Refusal {
    (format!("credentials.{field}"), message.into())
}

impl SqlCredentials {
    /// Parses the tenant's `credentials` object: `host` (required), `port` (default 5432 or
    /// 3306), `user` (or `username`, required), `password` (optional), `database` (or `dbname`,
    /// required), `sslmode` (or `ssl_mode`; `disable`, `prefer` (default) or `require`).
    /// A refusal names the field, such as `credentials.host`.
    pub fn from_json(value: &Value, dialect: Dialect) -> Result<Self, Refusal> {
        let object = value
            .as_object()
            .ok_or_else(|| ("credentials".to_owned(), "must be an object".to_owned()))?;
        let text = |keys: &[&str]| -> Result<Option<String>, Refusal> {
            for key in keys {
                match object.get(*key) {
                    None | Some(Value::Null) => continue,
                    Some(Value::String(text)) => return Ok(Some(text.clone())),
                    Some(_) => return Err(refuse(key, "must be a string")),
                }
            }
            Ok(None)
        };
        let required = |keys: &[&str]| -> Result<String, Refusal> {
            text(keys)?
                .map(|value| value.trim().to_owned())
                .filter(|value| !value.is_empty())
                .ok_or_else(|| refuse(keys[0], "is required"))
        };

        let host = required(&["host"])?;
        // A path would make the API host open one of its own local sockets.
        if host.starts_with('/') || host.chars().any(|c| c.is_whitespace() || c == '@') {
            return Err(refuse("host", "must be a host name or an IP address"));
        }
        let port = match object.get("port") {
            None | Some(Value::Null) => dialect.default_port(),
            Some(Value::Number(number)) => number
                .as_u64()
                .and_then(|port| u16::try_from(port).ok())
                .filter(|port| *port > 0)
                .ok_or_else(|| refuse("port", "must be a port number (1-65535)"))?,
            Some(Value::String(text)) => {
                text.trim()
                    .parse::<u16>()
                    .ok()
                    .filter(|port| *port > 0)
                    .ok_or_else(|| refuse("port", "must be a port number (1-65535)"))?
            }
            Some(_) => return Err(refuse("port", "must be a port number (1-65535)")),
        };
        let user = required(&["user", "username"])?;
        // An empty password is no password.
        let password = text(&["password"])?.filter(|password| !password.is_empty());
        let database = required(&["database", "dbname"])?;
        let ssl_mode = match text(&["sslmode", "ssl_mode"])? {
            None => SslMode::default(),
            Some(mode) => SslMode::parse(&mode).ok_or_else(|| {
                refuse("sslmode", "must be one of `disable`, `prefer`, `require`")
            })?,
        };
        Ok(Self {
            host,
            port,
            user,
            password,
            database,
            ssl_mode,
        })
    }

    /// `user@host:port/database`, for the redacted connection config: everything but the
    /// password.
    pub fn describe(&self) -> String {
        let host = if self.host.contains(':') {
            format!("[{}]", self.host)
        } else {
            self.host.clone()
        };
        format!("{}@{host}:{}/{}", self.user, self.port, self.database)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_full_object_parses_and_debug_hides_the_password() {
        let credentials = SqlCredentials::from_json(
            &json!({"host": " db.example.com ", "port": "6543", "username": "app",
                    "password": "s3cret-pass", "dbname": "shop", "sslmode": "REQUIRE"}),
            Dialect::Postgres,
        )
        .expect("valid");
        assert_eq!(credentials.host, "db.example.com");
        assert_eq!(credentials.port, 6543);
        assert_eq!(credentials.user, "app");
        assert_eq!(credentials.password.as_deref(), Some("s3cret-pass"));
        assert_eq!(credentials.database, "shop");
        assert_eq!(credentials.ssl_mode, SslMode::Require);
        assert_eq!(credentials.describe(), "app@db.example.com:6543/shop");
        let debug = format!("{credentials:?}");
        assert!(!debug.contains("s3cret-pass"), "{debug}");
        assert!(debug.contains("<redacted>"));
    }

    #[test]
    fn defaults_follow_the_dialect() {
        let value = json!({"host": "::1", "user": "root", "database": "app", "password": ""});
        let mysql = SqlCredentials::from_json(&value, Dialect::MySql).expect("valid");
        assert_eq!(mysql.port, 3306);
        assert_eq!(mysql.password, None);
        assert_eq!(mysql.ssl_mode, SslMode::Prefer);
        assert_eq!(mysql.describe(), "root@[::1]:3306/app");
        let postgres = SqlCredentials::from_json(&value, Dialect::Postgres).expect("valid");
        assert_eq!(postgres.port, 5432);
    }

    #[test]
    fn each_refusal_names_its_field() {
        let base = json!({"host": "h", "user": "u", "database": "d"});
        let cases = [
            (json!({"host": null}), "credentials.host"),
            (json!({"host": "/var/run/postgresql"}), "credentials.host"),
            (json!({"user": ""}), "credentials.user"),
            (json!({"database": 5}), "credentials.database"),
            (json!({"port": 70000}), "credentials.port"),
            (json!({"port": "x"}), "credentials.port"),
            (json!({"sslmode": "verify-full"}), "credentials.sslmode"),
            (json!({"password": 12}), "credentials.password"),
        ];
        for (patch, field) in cases {
            let mut value = base.clone();
            for (key, item) in patch.as_object().expect("object") {
                value[key] = item.clone();
            }
            let (at, message) =
                SqlCredentials::from_json(&value, Dialect::Postgres).expect_err(field);
            assert_eq!(at, field, "{message}");
        }
        let (at, _) = SqlCredentials::from_json(&json!("postgres://x"), Dialect::Postgres)
            .expect_err("not an object");
        assert_eq!(at, "credentials");
    }
}
