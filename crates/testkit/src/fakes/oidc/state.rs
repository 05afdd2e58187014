//! What the fake provider knows: its client, the person signed in on its screen, the faults a
//! test injects, its keys, the codes it issued and every request it received.

use std::collections::HashMap;
use std::sync::Arc;

use axum::response::Response;
use payback_domain::Clock;

use super::signing::{FIRST, SigningKey};
use crate::fakes::recorder::{Recorded, RecordedRequest, RequestLog};

/// The person signed in at the provider, as the ID token describes them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Human {
    pub sub: String,
    pub email: String,
    pub email_verified: bool,
    pub name: Option<String>,
}

impl Human {
    /// A person with a verified email.
    pub fn new(sub: &str, email: &str, name: Option<&str>) -> Self {
        Self {
            sub: sub.to_owned(),
            email: email.to_owned(),
            email_verified: true,
            name: name.map(str::to_owned),
        }
    }
}

/// A fault of the next sign-ins, each one of OpenID Connect Core 3.1.3.7's reasons to refuse,
/// or a provider failing the flow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// `iss` names another issuer.
    WrongIssuer,
    /// `aud` is a list holding the client and another audience.
    OtherAudience,
    /// `exp` has passed.
    Expired,
    /// `nonce` is not the one of the authorization request.
    WrongNonce,
    /// `email_verified` is false.
    UnverifiedEmail,
    /// Signed HS256 with the client secret as the key.
    Hs256,
    /// `alg: none`, no signature.
    AlgNone,
    /// Signed with a key the provider never publishes, under a `kid` it does not know.
    UnknownKid,
    /// Signed with a key the provider never publishes, whose `jku` header points at a key set
    /// that holds it (`/attacker/certs`).
    Jku,
    /// The token response has no `id_token`.
    MissingIdToken,
    /// The authorization endpoint redirects back with `error=access_denied` (the person
    /// cancelled).
    ProviderError,
    /// The token endpoint refuses the code (`invalid_grant`).
    TokenRefused,
}

/// A code the authorization endpoint issued.
#[derive(Debug, Clone)]
pub(crate) struct Code {
    pub client_id: String,
    pub redirect_uri: String,
    pub challenge: String,
    pub nonce: String,
    pub scope: String,
    pub human: Human,
    pub exchanged: bool,
}

pub(crate) struct State {
    pub origin: String,
    pub client_id: String,
    pub client_secret: String,
    /// The redirect URIs registered for the client; empty accepts any.
    pub redirect_uris: Vec<String>,
    pub human: Human,
    pub fault: Option<Fault>,
    /// The issuer the discovery document names (the fake's origin unless a test changes it).
    pub discovery_issuer: Option<String>,
    /// Discovery answers 500 while set.
    pub discovery_down: bool,
    /// The client authentications the discovery document lists (Google lists both).
    pub auth_methods_supported: Vec<&'static str>,
    pub signing: SigningKey,
    pub published: Vec<SigningKey>,
    pub codes: HashMap<String, Code>,
    /// Every code, access token and ID token issued, so a test can look for them where they
    /// must never be.
    pub issued: Vec<String>,
    /// How the client authenticated at each token request (`client_secret_basic`,
    /// `client_secret_post`).
    pub auth_methods: Vec<&'static str>,
    pub clock: Arc<dyn Clock>,
    pub log: RequestLog,
    counter: u64,
}

impl State {
    pub fn new(
        origin: String,
        client_id: &str,
        client_secret: &str,
        clock: Arc<dyn Clock>,
    ) -> Self {
        Self {
            origin,
            client_id: client_id.to_owned(),
            client_secret: client_secret.to_owned(),
            redirect_uris: Vec::new(),
            human: Human::new(
                "100000000000000000001",
                "founder@example.com",
                Some("Ada Founder"),
            ),
            fault: None,
            discovery_issuer: None,
            discovery_down: false,
            auth_methods_supported: vec!["client_secret_post", "client_secret_basic"],
            signing: FIRST,
            published: vec![FIRST],
            codes: HashMap::new(),
            issued: Vec::new(),
            auth_methods: Vec::new(),
            clock,
            log: RequestLog::default(),
            counter: 0,
        }
    }

    /// A fresh opaque value with `prefix` (Google's codes start `4/0`, access tokens `ya29.`).
    pub fn mint(&mut self, prefix: &str) -> String {
        self.counter += 1;
        let random: u64 = rand::random();
        let value = format!("{prefix}{:016x}{:04}", random, self.counter);
        self.issued.push(value.clone());
        value
    }

    pub fn issuer(&self) -> &str {
        &self.origin
    }
}

impl Recorded for State {
    const BODY_LIMIT: usize = 64 * 1024;

    fn log(&mut self) -> &mut RequestLog {
        &mut self.log
    }

    fn scheduled_answer(&mut self, _request: &RecordedRequest) -> Option<Response> {
        None
    }
}
