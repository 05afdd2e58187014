//! The tenant's MongoDB credentials: one connection string naming the database. The string
//! carries the password, so it never leaves this type: `Debug`, [`DocdbCredentials::describe`]
//! and every refusal show the hosts and the database only.

use std::fmt;

use mongodb::options::ConnectionString;

/// Longest connection string accepted (MongoDB's own strings stay far below).
const MAX_URI_CHARS: usize = 4096;

const FIELD: &str = "credentials.uri";

/// MongoDB's port when a host names none.
const DEFAULT_PORT: u16 = 27017;

/// A checked `mongodb://` or `mongodb+srv://` connection string with a database in its path.
#[derive(Clone)]
pub struct DocdbCredentials {
    uri: String,
    database: String,
}

impl DocdbCredentials {
    /// The tenant's `credentials` object carrying one connection-string `uri` (mongodb:// or
    /// mongodb+srv://) naming the database (path part), e.g.
    /// `mongodb://user:pw@host:27017/shop?authSource=admin`.
    /// `Err((field, message))`, e.g. `("credentials.uri", "must name the database: ...")`.
    pub fn from_json(value: &serde_json::Value) -> Result<Self, (String, String)> {
        let refuse = |field: &str, message: &str| Err((field.to_owned(), message.to_owned()));
        let Some(object) = value.as_object() else {
            return refuse(
                "credentials",
                "must be an object carrying `uri`, a mongodb:// connection string",
            );
        };
        if let Some(other) = object.keys().find(|key| key.as_str() != "uri") {
            return refuse(
                &format!("credentials.{other}"),
                "is not a docdb credential; put everything in `uri`",
            );
        }
        let Some(uri) = object.get("uri").and_then(serde_json::Value::as_str) else {
            return refuse(
                FIELD,
                "is required: a mongodb:// or mongodb+srv:// connection string",
            );
        };
        let uri = uri.trim();
        if !(uri.starts_with("mongodb://") || uri.starts_with("mongodb+srv://")) {
            return refuse(FIELD, "must start with mongodb:// or mongodb+srv://");
        }
        if uri.chars().count() > MAX_URI_CHARS {
            return refuse(
                FIELD,
                &format!("must be at most {MAX_URI_CHARS} characters"),
            );
        }
        let parsed = ConnectionString::parse(uri).map_err(|err| {
            let reason = scrub(&err.kind.to_string(), uri);
            (
                FIELD.to_owned(),
                format!("is not a MongoDB connection string: {reason}"),
            )
        })?;
        let Some(database) = parsed.default_database.filter(|db| !db.is_empty()) else {
            return refuse(FIELD, "must name the database: mongodb://host/<database>");
        };
        Ok(Self {
            uri: uri.to_owned(),
            database,
        })
    }

    /// The URI without user info or options, for the redacted connection config:
    /// `mongodb://host:27017/shop`.
    pub fn describe(&self) -> String {
        let parts = Parts::of(&self.uri);
        format!("{}://{}/{}", parts.scheme, parts.hosts, parts.database)
    }

    /// The hosts the URI names with their ports (27017 when none is given). For a
    /// `mongodb+srv://` string this is the SRV name, whose records name the real hosts.
    pub fn hosts(&self) -> Vec<(String, u16)> {
        Parts::of(&self.uri)
            .hosts
            .split(',')
            .filter(|host| !host.is_empty())
            .map(|host| {
                // `[::1]:27017`, `host:27017` or `host`.
                let (name, port) = match host.rsplit_once(':') {
                    Some((name, port)) if !name.ends_with(':') => {
                        (name, port.parse().unwrap_or(DEFAULT_PORT))
                    }
                    _ => (host, DEFAULT_PORT),
                };
                (name.trim_matches(['[', ']']).to_owned(), port)
            })
            .collect()
    }

    /// The database the URI names.
    pub fn database(&self) -> &str {
        &self.database
    }

    /// The full connection string, for the driver only.
    pub(super) fn uri(&self) -> &str {
        &self.uri
    }
}

#[cfg(test)]
mod host_tests {
    use super::*;

    #[test]
    fn hosts_come_with_their_ports() {
        let uri = serde_json::json!({ "uri": "mongodb://u:p@a.example.com:27018,b.example.com/shop?replicaSet=rs" });
        let credentials = DocdbCredentials::from_json(&uri).expect("valid");
        assert_eq!(
            credentials.hosts(),
            vec![
                ("a.example.com".to_owned(), 27018),
                ("b.example.com".to_owned(), 27017)
            ]
        );
    }
}

impl fmt::Debug for DocdbCredentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts = Parts::of(&self.uri);
        f.debug_struct("DocdbCredentials")
            .field("uri", &self.describe())
            .field(
                "user_info",
                &parts.user_info.map(|_| "[redacted]").unwrap_or("none"),
            )
            .finish()
    }
}

/// A connection string cut the way the driver cuts it: options after the first `?`, user info
/// before the last `@` ahead of them, hosts up to the first `/` after it.
struct Parts<'a> {
    scheme: &'a str,
    user_info: Option<&'a str>,
    hosts: &'a str,
    database: &'a str,
}

impl<'a> Parts<'a> {
    fn of(uri: &'a str) -> Self {
        let (scheme, rest) = uri.split_once("://").unwrap_or(("mongodb", uri));
        let before_options = rest.split_once('?').map_or(rest, |(head, _)| head);
        let (user_info, location) = match before_options.rsplit_once('@') {
            Some((user_info, location)) => (Some(user_info), location),
            None => (None, before_options),
        };
        let (hosts, database) = location.split_once('/').unwrap_or((location, ""));
        Self {
            scheme,
            user_info,
            hosts,
            database,
        }
    }
}

/// The driver's parse error with any piece of the user info (raw or percent-decoded) blotted
/// out, in case an option's message quotes it.
fn scrub(message: &str, uri: &str) -> String {
    let Some(user_info) = Parts::of(uri).user_info else {
        return message.to_owned();
    };
    let mut secrets: Vec<String> = vec![user_info.to_owned()];
    if let Some((_, password)) = user_info.split_once(':') {
        secrets.push(password.to_owned());
        secrets.push(percent_decoded(password));
    }
    secrets.retain(|secret| !secret.is_empty());
    // Longest first, so a password inside the whole user info is not left half-replaced.
    secrets.sort_by_key(|secret| std::cmp::Reverse(secret.len()));
    secrets.iter().fold(message.to_owned(), |text, secret| {
        text.replace(secret, "***")
    })
}

fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|pair| std::str::from_utf8(pair).ok())
            .and_then(|pair| u8::from_str_radix(pair, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    const SECRET: &str = "s3cr%40t-Pw";

    fn parse(uri: &str) -> Result<DocdbCredentials, (String, String)> {
        DocdbCredentials::from_json(&json!({ "uri": uri }))
    }

    #[test]
    fn a_uri_naming_its_database_is_accepted_and_shown_without_user_info() {
        let uri = format!(
            "mongodb://reader:{SECRET}@db1.example.com:27017,db2.example.com/shop?authSource=admin&replicaSet=rs0"
        );
        let credentials = parse(&uri).expect("valid");
        assert_eq!(credentials.database(), "shop");
        assert_eq!(
            credentials.describe(),
            "mongodb://db1.example.com:27017,db2.example.com/shop"
        );
        assert_eq!(credentials.uri(), uri);
        let debug = format!("{credentials:?}");
        assert_eq!(
            debug,
            r#"DocdbCredentials { uri: "mongodb://db1.example.com:27017,db2.example.com/shop", user_info: "[redacted]" }"#
        );
        assert!(!debug.contains("s3cr") && !debug.contains("reader"));

        let srv = parse(" mongodb+srv://u:p@cluster0.example.net/analytics ").expect("srv");
        assert_eq!(
            srv.describe(),
            "mongodb+srv://cluster0.example.net/analytics"
        );
        let plain = parse("mongodb://127.0.0.1:27017/shop").expect("no user");
        assert_eq!(
            format!("{plain:?}"),
            r#"DocdbCredentials { uri: "mongodb://127.0.0.1:27017/shop", user_info: "none" }"#
        );
    }

    #[test]
    fn each_refusal_names_the_field_and_never_the_password() {
        let with_secret = |tail: &str| format!("mongodb://reader:{SECRET}@{tail}");
        let cases = [
            (
                json!("mongodb://h/shop"),
                "credentials",
                "must be an object",
            ),
            (json!({}), FIELD, "is required"),
            (json!({"uri": 5}), FIELD, "is required"),
            (
                json!({"uri": "mongodb://h/shop", "password": SECRET}),
                "credentials.password",
                "is not a docdb credential",
            ),
            (
                json!({"uri": format!("postgres://reader:{SECRET}@h/shop")}),
                FIELD,
                "must start with mongodb://",
            ),
            (
                json!({"uri": with_secret("db.example.com:27017")}),
                FIELD,
                "must name the database: mongodb://host/<database>",
            ),
            (
                json!({"uri": with_secret("db.example.com/")}),
                FIELD,
                "must name the database",
            ),
            (
                json!({"uri": with_secret("db.example.com:notaport/shop")}),
                FIELD,
                "is not a MongoDB connection string",
            ),
            (
                json!({"uri": "mongodb://reader:a%zz@db.example.com/shop"}),
                FIELD,
                "is not a MongoDB connection string",
            ),
            (
                json!({"uri": with_secret("db.example.com/shop?authSource=admin&w=oops&journal=maybe")}),
                FIELD,
                "is not a MongoDB connection string",
            ),
        ];
        for (value, field, message) in cases {
            let (got_field, got_message) =
                DocdbCredentials::from_json(&value).expect_err(&value.to_string());
            assert_eq!(got_field, field, "{value}");
            assert!(got_message.contains(message), "{value}: {got_message}");
            assert!(!got_message.contains("s3cr"), "{got_message}");
        }
    }

    #[test]
    fn scrubbing_blots_raw_and_decoded_passwords() {
        let uri = format!("mongodb://reader:{SECRET}@h/shop");
        assert_eq!(
            scrub("bad value s3cr@t-Pw and s3cr%40t-Pw", &uri),
            "bad value *** and ***"
        );
        assert_eq!(scrub("nothing here", "mongodb://h/shop"), "nothing here");
        assert_eq!(percent_decoded("a%40b%zz%4"), "a@b%zz%4");
    }
}
