//! `Secret`: the one type for a value that must never reach a log line or an error message
//! (passwords, API keys, single-use tokens, the operator token, URLs carrying a password, the
//! sealing key). Every configuration field and request field holding one is a `Secret`, so a
//! `{:?}` of any struct around it (a `Config`, an `AppState`, a request body in a trace) prints
//! `<redacted>` instead.
//!
//! It reads exactly like the string it wraps (serde `transparent`: same JSON field, same
//! environment variable), has no `Display` and no `Serialize`, so it can be neither formatted
//! nor sent back by accident; [`Secret::expose`] is how code that needs the value asks for it.
//! `secrecy::SecretString` (0.10) would do the same minus the OpenAPI schema and the JSON-text
//! reading of credentials objects below, which every request type holding one relies on.

use std::fmt;

use serde::{Deserialize, Deserializer};

/// A secret string. `Debug` prints `<redacted>`; read the value with [`Secret::expose`].
#[derive(Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    pub const REDACTED: &'static str = "<redacted>";

    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }

    /// The secret itself, for the one place that uses it (hashing, sealing, connecting).
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// The secret itself, owned, for services that take a `String`.
    pub fn into_exposed(self) -> String {
        self.0
    }

    /// For `#[serde(deserialize_with = "Secret::from_json")]`: a field of any JSON (a database's
    /// credentials object, carrying a password or a connection string with one) held as its
    /// JSON text, so it is as secret as a password from the moment it is read.
    pub fn from_json<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = serde_json::Value::deserialize(deserializer)?;
        Ok(Self(value.to_string()))
    }

    /// [`Secret::from_json`] for an optional field (`null` reads as `None`; pair it with
    /// `#[serde(default)]` so an absent field does too).
    pub fn from_optional_json<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<Self>, D::Error> {
        let value = Option::<serde_json::Value>::deserialize(deserializer)?;
        Ok(value.map(|value| Self(value.to_string())))
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(Self::REDACTED)
    }
}

impl From<String> for Secret {
    fn from(value: String) -> Self {
        Self(value)
    }
}

impl From<&str> for Secret {
    fn from(value: &str) -> Self {
        Self(value.to_owned())
    }
}

/// Documented as a string in the `password` format, so request bodies need no annotation.
impl utoipa::PartialSchema for Secret {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
        ObjectBuilder::new()
            .schema_type(Type::String)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Password)))
            .description(Some("A secret: never returned, never logged."))
            .into()
    }
}

impl utoipa::ToSchema for Secret {}

/// garde's `length(chars, ...)` on a secret request field counts the secret's characters.
impl garde::rules::length::chars::HasChars for Secret {
    fn num_chars(&self) -> usize {
        self.0.chars().count()
    }
}

#[cfg(test)]
mod tests {
    use std::fmt::Debug;

    use serde::de::DeserializeOwned;
    use serde_json::{Value, json};

    use super::*;
    use crate::config::Config;
    use crate::kinds::{database, payments, social_a, social_ads_a, social_ads_b, sql_a};
    use crate::routes::auth;

    /// Fails when `debug` shows any of `secrets`.
    fn assert_hides(debug: &str, secrets: &[&str]) {
        for secret in secrets {
            assert!(!debug.contains(secret), "{secret} is shown in {debug}");
        }
    }

    /// A request type's `Debug`, read from the JSON a client sends.
    fn debug_of<T: DeserializeOwned + Debug>(body: Value) -> String {
        format!("{:?}", serde_json::from_value::<T>(body).unwrap())
    }

    #[test]
    fn debug_is_redacted_and_serde_reads_the_plain_string() {
        let secret: Secret = serde_json::from_str("\"hunter2-hunter2\"").unwrap();
        assert_eq!(secret.expose(), "hunter2-hunter2");
        assert_eq!(format!("{secret:?}"), "<redacted>");
        assert_eq!(format!("{:?}", Some(&secret)), "Some(<redacted>)");
        assert!(serde_json::from_str::<Secret>("12").is_err());
    }

    /// Config values as an operator would set them, each with a recognisable secret part.
    const CONFIG_SECRETS: &[&str] = &[
        "op-token-5f1c0a",
        "pg-pass-93ab",
        "smtp-pass-77de",
        "c2VhbGluZy1rZXktMzItYnl0ZXMtbG9uZy1leGFjdGx5",
        "gw-key-1e2f",
    ];

    fn config_with_secrets(database_url: &str) -> Config {
        Config {
            database_url: Secret::from(database_url),
            operator_token: Some("op-token-5f1c0a".into()),
            mail: "smtp://mailer:smtp-pass-77de@127.0.0.1:2525".into(),
            secret_key: Some("c2VhbGluZy1rZXktMzItYnl0ZXMtbG9uZy1leGFjdGx5".into()),
            model_gateway_key: Some("gw-key-1e2f".into()),
            ..Config::default()
        }
    }

    /// `AppState` holds the configuration; its `Debug` is checked with a running state in
    /// `testkit/tests/smoke.rs`.
    #[test]
    fn config_debug_shows_no_secret() {
        let config =
            config_with_secrets("postgres://payback:pg-pass-93ab@db.internal:5432/payback");
        let debug = format!("{config:?}");
        assert_hides(&debug, CONFIG_SECRETS);
        // The whole database URL is hidden, its user and host with the password.
        assert_hides(&debug, &["db.internal", "smtp://"]);
        assert!(debug.contains("database_url: <redacted>"), "{debug}");
    }

    #[test]
    fn request_debug_shows_no_secret() {
        let secrets = [
            "pw-signup-1a2b",
            "tok-claim-3c4d",
            "rk_live_sk5e6f",
            "db-pass-7g8h",
            "tok-meta-9i0j",
        ];
        let debugs = [
            debug_of::<auth::SignupRequest>(
                json!({ "email": "a@example.com", "password": "pw-signup-1a2b" }),
            ),
            debug_of::<auth::LoginRequest>(
                json!({ "email": "a@example.com", "password": "pw-signup-1a2b" }),
            ),
            debug_of::<auth::ClaimRequest>(
                json!({ "token": "tok-claim-3c4d", "password": "pw-signup-1a2b" }),
            ),
            debug_of::<auth::AcceptInviteRequest>(
                json!({ "token": "tok-claim-3c4d", "password": "pw-signup-1a2b", "name": "Ann" }),
            ),
            debug_of::<auth::UpdateMeRequest>(json!({
                "current_password": "pw-signup-1a2b", "new_password": "pw-signup-1a2b",
            })),
            debug_of::<auth::TokenQuery>(json!({ "token": "tok-claim-3c4d" })),
            debug_of::<payments::PaymentsRequest>(json!({ "api_key": "rk_live_sk5e6f" })),
            debug_of::<sql_a::SqlARequest>(json!({ "credentials": {
                "host": "db.example.com", "user": "app", "password": "db-pass-7g8h", "database": "shop",
            }})),
            debug_of::<database::DatabaseRequest>(json!({ "credentials": {
                "uri": "mongodb://app:db-pass-7g8h@db.example.com:27017/shop",
            }})),
            debug_of::<social_ads_a::SocialAdsARequest>(json!({ "access_token": "tok-meta-9i0j" })),
            debug_of::<social_ads_b::SocialAdsBRequest>(json!({ "access_token": "tok-meta-9i0j" })),
            debug_of::<social_a::SocialARequest>(json!({ "access_token": "tok-meta-9i0j" })),
        ];
        for debug in debugs {
            assert_hides(&debug, &secrets);
            assert!(debug.contains(Secret::REDACTED), "{debug}");
        }
    }

    /// Names of fields that hold a secret (`password_env` and the like name one, and are not).
    fn names_a_secret(field: &str) -> bool {
        ["password", "token", "secret", "key", "api_key"]
            .iter()
            .any(|word| field == *word || field.ends_with(&format!("_{word}")))
    }

    /// No `Debug` request type under `routes/` holds a secret as a plain `String`: such a field
    /// is a `Secret`. The publishable write key of `POST /t/events` is public by design (it sits
    /// in the customer's web pages).
    #[test]
    fn no_route_type_holds_a_plain_secret_string() {
        let allowed = [("tracking.rs", "key")];
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/routes");
        // Every `.rs` file under `routes/`, folders of a route family included.
        let mut files = Vec::new();
        let mut folders = vec![dir];
        while let Some(folder) = folders.pop() {
            for entry in std::fs::read_dir(&folder).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    folders.push(path);
                } else if path.extension().is_some_and(|ext| ext == "rs") {
                    files.push(path);
                }
            }
        }
        let mut found = Vec::new();
        for path in files {
            let file = path.file_name().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&path).unwrap();
            let (mut derives_debug, mut in_struct) = (false, false);
            for line in text.lines().map(str::trim) {
                if line.starts_with("#[derive(") {
                    derives_debug = line.contains("Debug");
                } else if line.starts_with("pub struct ") || line.starts_with("struct ") {
                    in_struct = derives_debug && line.ends_with('{');
                    derives_debug = false;
                } else if in_struct && line.starts_with('}') {
                    in_struct = false;
                } else if !in_struct && !line.starts_with("#[") && !line.starts_with("//") {
                    // Anything but attributes and comments ends what a derive applies to.
                    derives_debug = false;
                } else if in_struct && !line.starts_with("//") && !line.starts_with("#[") {
                    let field = line.trim_start_matches("pub ").split_once(':');
                    if let Some((name, kind)) = field {
                        let (name, kind) = (name.trim(), kind.trim());
                        let plain = kind.starts_with("String") || kind.starts_with("Option<String");
                        if plain && names_a_secret(name) && !allowed.contains(&(&*file, name)) {
                            found.push(format!("{file}: {line}"));
                        }
                    }
                }
            }
        }
        assert!(found.is_empty(), "secrets held as plain strings: {found:?}");
    }
}
