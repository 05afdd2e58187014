//! The `payback` binary's command line, run as a user runs it: each command parses, reaches the
//! server crate and says what it did; a mistyped command is refused with its usage and exit
//! code 2 before anything is opened. On both backends (the database is the only configuration
//! the commands need; `PAYBACK_DATABASE_URL`).

#![allow(clippy::unwrap_used)]

use std::process::{Command, Output};

use payback_testkit::ScratchPostgres;

/// A database for one test and the directory the binary runs in (so no `payback.toml` of the
/// repository is read).
struct Store {
    url: String,
    dir: tempfile::TempDir,
    _postgres: Option<ScratchPostgres>,
}

impl Store {
    async fn sqlite() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}/payback.db", dir.path().display());
        Self {
            url,
            dir,
            _postgres: None,
        }
    }

    async fn postgres() -> Self {
        let postgres = ScratchPostgres::create().await;
        Self {
            url: postgres.url.clone(),
            dir: tempfile::tempdir().unwrap(),
            _postgres: Some(postgres),
        }
    }

    fn payback(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_payback"))
            .args(args)
            .current_dir(self.dir.path())
            .env("PAYBACK_DATABASE_URL", &self.url)
            .env("RUST_LOG", "error")
            .output()
            .unwrap()
    }

    /// Runs a command that must succeed; its standard output.
    fn succeeds(&self, args: &[&str]) -> String {
        let output = self.payback(args);
        assert!(
            output.status.success(),
            "payback {args:?} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8(output.stdout).unwrap()
    }
}

/// The demo's sign-in email, from the line `Sign in: <url>/#/login  email <e>  password <p>`.
fn demo_email(printed: &str) -> String {
    let after = printed.split(" email ").nth(1).expect("an email line");
    after.split_whitespace().next().unwrap().to_owned()
}

/// The demo's password, from the same line.
fn demo_password(printed: &str) -> String {
    let after = printed.split(" password ").nth(1).expect("a password");
    after.split_whitespace().next().unwrap().to_owned()
}

async fn commands_reach_the_store(store: Store) {
    assert_eq!(store.succeeds(&["migrate"]).trim(), "migrations applied");

    let created = store.succeeds(&["demo"]);
    assert!(
        created.contains("Payback demo workspace created"),
        "{created}"
    );
    let again = store.succeeds(&["demo"]);
    assert!(again.contains("Payback demo workspace ready"), "{again}");
    // Chosen at random for this database, then the same on every run (issue 19: it was a
    // constant every installation shared).
    let password = demo_password(&created);
    assert_eq!(demo_password(&again), password);
    assert_ne!(password, "payback-demo");
    assert!(password.len() >= 20, "{password}");

    let email = demo_email(&created);
    let granted = store.succeeds(&["operator", "grant", &email]);
    assert!(
        granted.starts_with(&format!(
            "{email}: 1 account(s) are now operator accounts: "
        )),
        "{granted}"
    );
    let unknown = store.payback(&["operator", "grant", "nobody@example.com"]);
    assert!(!unknown.status.success());
    assert!(
        String::from_utf8_lossy(&unknown.stderr)
            .contains("no person with the email nobody@example.com"),
        "{}",
        String::from_utf8_lossy(&unknown.stderr)
    );

    // `--product` is accepted before or after the action (a global flag of the group).
    for args in [
        &["operator", "ingest-failures", "list"][..],
        &["operator", "ingest-failures", "list", "--product", "p-1"],
        &["operator", "ingest-failures", "--product", "p-1", "list"],
    ] {
        assert_eq!(store.succeeds(args).trim(), "0 set-aside batch(es)");
    }
    assert_eq!(
        store
            .succeeds(&["operator", "ingest-failures", "retry"])
            .trim(),
        "0 batch(es) stored, 0 refused again (still listed)"
    );
    assert_eq!(
        store
            .succeeds(&["operator", "ingest-failures", "discard", "--product", "p-1"])
            .trim(),
        "0 set-aside batch(es) discarded"
    );
}

#[tokio::test]
async fn commands_reach_the_store_on_sqlite() {
    commands_reach_the_store(Store::sqlite().await).await;
}

#[tokio::test]
async fn commands_reach_the_store_on_postgres() {
    commands_reach_the_store(Store::postgres().await).await;
}

#[tokio::test]
async fn a_mistyped_command_is_refused_with_its_usage() {
    let store = Store::sqlite().await;
    for (args, expected) in [
        (&[][..], "Usage: payback <COMMAND>"),
        (&["serv"], "unrecognized subcommand 'serv'"),
        (
            &["operator", "ingest-failures", "purge"],
            "unrecognized subcommand 'purge'",
        ),
        (&["operator", "grant"], "<EMAIL>"),
        (&["serve", "--demo=yes"], "--demo"),
    ] {
        let output = store.payback(args);
        assert_eq!(output.status.code(), Some(2), "payback {args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(expected), "payback {args:?}: {stderr}");
    }
    // Refused before anything was opened: no database file was created.
    assert!(!store.dir.path().join("payback.db").exists());
}

/// The text settings a deployment may well set to digits only: a Meta app id is always
/// numeric, and a client secret, the operator token or a developer token may be. Leading zeros
/// are part of the value.
const DIGIT_SETTINGS: &[(&str, &str)] = &[
    ("PAYBACK_SOCIALCO_CLIENT_ID", "1008016813601991"),
    ("PAYBACK_SOCIALCO_CLIENT_SECRET", "00917362548112"),
    ("PAYBACK_SEARCHCO_CLIENT_ID", "0123456789"),
    ("PAYBACK_SEARCHCO_CLIENT_SECRET", "98765432100"),
    ("PAYBACK_SEARCH_ADS_DEVELOPER_TOKEN", "0000111122223333"),
    ("PAYBACK_OPERATOR_TOKEN", "00424242424242424242"),
    ("PAYBACK_OPERATOR_EMAIL", "4242"),
    ("PAYBACK_STAFF_DOMAIN", "4242"),
    ("PAYBACK_MODEL_GATEWAY_KEY", "0777"),
    ("PAYBACK_MODEL", "4"),
];

/// One HTTP/1.1 GET on loopback; the status code, or `None` while nothing listens.
fn status_of(port: u16, path: &str, bearer: &str) -> Option<u16> {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).ok()?;
    let request = format!(
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {bearer}\r\nConnection: close\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).ok()?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer).ok()?;
    answer.split_whitespace().nth(1)?.parse().ok()
}

/// `serve` starts with every setting above made of digits (figment would have read them as
/// numbers: "invalid type: found unsigned int"), and the operator token is exactly the digits
/// given, leading zeros kept.
async fn serve_takes_text_settings_made_of_digits(store: Store) {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut serve = Command::new(env!("CARGO_BIN_EXE_payback"))
        .arg("serve")
        .current_dir(store.dir.path())
        .env("PAYBACK_DATABASE_URL", &store.url)
        .env("PAYBACK_LISTEN", format!("127.0.0.1:{port}"))
        .env("PAYBACK_JOBS_EVERY_SECS", "0")
        .env("RUST_LOG", "error")
        .envs(DIGIT_SETTINGS.iter().copied())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let token = DIGIT_SETTINGS
        .iter()
        .find(|(name, _)| *name == "PAYBACK_OPERATOR_TOKEN")
        .unwrap()
        .1;
    let mut operator = None;
    for _ in 0..300 {
        if let Some(exited) = serve.try_wait().unwrap() {
            let mut stderr = String::new();
            std::io::Read::read_to_string(&mut serve.stderr.take().unwrap(), &mut stderr).unwrap();
            panic!("serve exited ({exited}) at start: {stderr}");
        }
        operator = status_of(port, "/connections", token);
        if operator.is_some() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let without_zeros = token.trim_start_matches('0');
    let stranger = status_of(port, "/connections", without_zeros);
    serve.kill().unwrap();
    serve.wait().unwrap();
    assert_eq!(operator, Some(200), "the operator token, digits as given");
    assert_eq!(
        stranger,
        Some(401),
        "the same number without its zeros is no token"
    );
}

#[tokio::test]
async fn serve_takes_text_settings_made_of_digits_on_sqlite() {
    serve_takes_text_settings_made_of_digits(Store::sqlite().await).await;
}

#[tokio::test]
async fn serve_takes_text_settings_made_of_digits_on_postgres() {
    serve_takes_text_settings_made_of_digits(Store::postgres().await).await;
}
