//! The tenant's MongoDB credentials: one connection string naming the database. The string
//! carries the password, so it never leaves this type: `Debug`, [`DocdbCredentials::describe`]
//! and every refusal show the hosts and the database only.

use std::fmt;

use mongodb::options::{ConnectionString, HostInfo, ServerAddress, Tls};

/// Longest connection string accepted (MongoDB's own strings stay far below).
const MAX_URI_CHARS: usize = 4096;

const FIELD: &str = "credentials.uri";

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
        // The driver's messages quote what they parse, so the string it explains a refusal
        // of carries a stand-in for the user info: a refusal can name a host or an option,
        // never the credentials, and nothing has to be scrubbed out of it afterwards.
        ConnectionString::parse(without_credentials(uri)).map_err(|err| {
            (
                FIELD.to_owned(),
                format!("is not a MongoDB connection string: {}", err.kind),
            )
        })?;
        let parsed = ConnectionString::parse(uri).map_err(|_| {
            (
                FIELD.to_owned(),
                "is not a MongoDB connection string: the user name and password must be \
                 percent-encoded (`@` as %40, `:` as %3A, `/` as %2F, `%` as %25)"
                    .to_owned(),
            )
        })?;
        // A socket path would make the driver open one of the API host's own sockets.
        if let HostInfo::HostIdentifiers(hosts) = &parsed.host_info
            && hosts
                .iter()
                .any(|host| !matches!(host, ServerAddress::Tcp { .. }))
        {
            return refuse(FIELD, "must name hosts, not a socket path");
        }
        // Such options make the driver read a file on the API host: a tenant has none there,
        // and whether one opens would tell them about the host's files.
        if let Some(Tls::Enabled(tls)) = &parsed.tls
            && (tls.ca_file_path.is_some() || tls.cert_key_file_path.is_some())
        {
            return refuse(
                FIELD,
                "`tlsCAFile` and `tlsCertificateKeyFile` name files on the API host; they cannot be used",
            );
        }
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

    /// The database the URI names.
    pub fn database(&self) -> &str {
        &self.database
    }

    /// The full connection string, for the driver only.
    pub(super) fn uri(&self) -> &str {
        &self.uri
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

/// The connection string with its user info, if any, replaced by a stand-in of the same form
/// (`user` or `user:password`).
fn without_credentials(uri: &str) -> String {
    let (scheme, rest) = uri.split_once("://").unwrap_or(("mongodb", uri));
    let (location, options) = match rest.split_once('?') {
        Some((location, options)) => (location, Some(options)),
        None => (rest, None),
    };
    let Some((user_info, hosts)) = location.rsplit_once('@') else {
        return uri.to_owned();
    };
    let stand_in = if user_info.contains(':') {
        "user:password"
    } else {
        "user"
    };
    match options {
        Some(options) => format!("{scheme}://{stand_in}@{hosts}?{options}"),
        None => format!("{scheme}://{stand_in}@{hosts}"),
    }
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

    /// The driver explains a refusal from a string carrying a stand-in for the user info, so
    /// its message may quote the hosts (a password inside a host name leaves it whole) and
    /// never the credentials.
    #[test]
    fn refusals_quote_no_credentials_and_scrub_nothing() {
        assert_eq!(
            without_credentials("mongodb://reader:o@db.example.org:x/shop?w=1"),
            "mongodb://user:password@db.example.org:x/shop?w=1"
        );
        assert_eq!(
            without_credentials("mongodb://db.example.org/shop"),
            "mongodb://db.example.org/shop"
        );
        let (_, message) =
            parse("mongodb://reader:o@db.example.org:notaport/shop").expect_err("a bad port");
        assert!(
            !message.contains("<redacted>") && !message.contains("***"),
            "{message}"
        );
        assert!(!message.contains("reader"), "{message}");
    }

    #[test]
    fn files_and_sockets_of_the_api_host_are_refused() {
        for uri in [
            "mongodb://db.example.com/shop?tls=true&tlsCAFile=/etc/ssl/private/key.pem",
            "mongodb://db.example.com/shop?tlsCertificateKeyFile=/etc/payback/client.pem",
            "mongodb://%2Ftmp%2Fmongodb-27017.sock/shop",
        ] {
            let (field, message) = parse(uri).expect_err(uri);
            assert_eq!(field, FIELD);
            assert!(
                message.contains("file") || message.contains("socket"),
                "{uri}: {message}"
            );
        }
    }
}
