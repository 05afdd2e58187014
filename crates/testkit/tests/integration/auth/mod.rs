//! Account access: sign-up, verification, login, sessions, profile, workspaces, API keys,
//! agent sign-up and claims, lead capture, idle expiry, rate limits and what history shows.
//!
//! Modules:
//! - `sign_up`: sign-up and verification;
//! - `sessions`: login and logout, and session idle expiry;
//! - `me`: GET /auth/me and bearer rules, POST /auth/me;
//! - `workspaces`: listing, creating and switching workspaces;
//! - `api_keys`: API keys;
//! - `operator_keys`: an operator account's API keys act for their own account only;
//! - `agent_signup`: agent sign-up;
//! - `claims`: claiming an agent-created account;
//! - `lead_capture`: the lead prompt;
//! - `history`: what history shows of account access;
//! - `edges`: edges across endpoints;
//! - `rate_limits`: rate limits and the staff domain, on apps configured per test.

use payback_domain::{Clock, DAY_MS, MINUTE_MS};
use payback_testkit::{ReceivedMail, Reply, TEST_PASSWORD, TestApp, backend_tests, per_backend};
use reqwest::Method;
use serde_json::{Value, json};

const NEW_PASSWORD: &str = "a much better passphrase";

/// The exact body every sign-up answers with, registered or not.
fn signup_ok() -> Value {
    json!({ "ok": true, "status": "verification_sent" })
}

async fn signup(app: &TestApp, email: &str, password: &str) -> Reply {
    app.post(
        "/auth/signup",
        None,
        json!({ "email": email, "password": password }),
    )
    .await
}

async fn login_with(app: &TestApp, email: &str, password: &str) -> Reply {
    app.post(
        "/auth/login",
        None,
        json!({ "email": email, "password": password }),
    )
    .await
}

fn mails_to(app: &TestApp, email: &str) -> Vec<ReceivedMail> {
    app.mails().into_iter().filter(|m| m.to == email).collect()
}

/// Every verification link mailed to `email`, in no particular order (file modification times
/// are too coarse to order mails sent within a few milliseconds).
fn verify_links(app: &TestApp, email: &str) -> Vec<String> {
    let prefix = format!("{}/auth/verify?token=", app.base_url);
    mails_to(app, email)
        .iter()
        .filter_map(|m| m.link_starting_with(&prefix))
        .collect()
}

/// The path-and-query of a link to this app, for `app.get`.
fn path_of(app: &TestApp, link: &str) -> String {
    link.strip_prefix(&app.base_url)
        .unwrap_or_else(|| panic!("{link} is not a link to {}", app.base_url))
        .to_owned()
}

/// An agent signs `email` up (POST /auth/agent-signup); the successful answer.
async fn agent_signup(app: &TestApp, email: &str) -> Value {
    app.post("/auth/agent-signup", None, json!({ "email": email }))
        .await
        .expect(200)
        .clone()
}

/// The raw claim token from a claim URL `{base}/#/claim/<token>`.
fn claim_token(app: &TestApp, url: &str) -> String {
    let prefix = format!("{}/#/claim/", app.base_url);
    url.strip_prefix(&prefix)
        .unwrap_or_else(|| panic!("{url} does not start with {prefix}"))
        .to_owned()
}

/// Asserts a 401 whose body is exactly one JSON `{error: string}` object.
#[track_caller]
fn assert_unauthorized_json(reply: &Reply) {
    assert_eq!(reply.status, 401, "body: {}", reply.text);
    assert!(
        reply
            .header("content-type")
            .is_some_and(|ct| ct.starts_with("application/json")),
        "401 content type: {:?}",
        reply.header("content-type")
    );
    let object = reply.body.as_object().expect("JSON object body");
    assert!(
        object["error"].as_str().is_some_and(|e| !e.is_empty()),
        "{}",
        reply.text
    );
}

mod agent_signup;
mod api_keys;
mod claims;
mod edges;
mod history;
mod lead_capture;
mod me;
mod operator_keys;
mod rate_limits;
mod sessions;
mod sign_up;
mod workspaces;
