//! What the OAuth provider holds: the codes it handed out, the grants (consents) and the access
//! tokens issued under them, and the scripted human's choices.

use std::collections::{BTreeSet, HashMap};
use std::time::Instant;

/// An authorization code the provider handed out.
#[derive(Debug, Clone)]
pub(crate) struct Code {
    pub client_id: String,
    pub redirect_uri: String,
    pub scopes: Vec<String>,
    /// `(code_challenge, code_challenge_method)`.
    pub challenge: Option<(String, String)>,
    pub with_refresh: bool,
    pub issued: Instant,
    /// The grant the code was exchanged for (a second exchange revokes it).
    pub exchanged: Option<usize>,
    /// The Google user who consented.
    pub user: String,
}

/// One consent: a refresh token (when offline access was granted) and the access tokens issued
/// under it.
#[derive(Debug, Clone)]
pub(crate) struct Grant {
    pub client_id: String,
    pub scopes: Vec<String>,
    pub refresh_token: Option<String>,
    pub revoked: bool,
    /// The Google user whose data the grant reads (Search Console's sites are per user).
    pub user: String,
}

#[derive(Debug, Clone)]
pub(crate) struct Access {
    pub grant: usize,
    pub issued: Instant,
    pub expired: bool,
}

/// Access tokens live an hour (`expires_in: 3599`).
pub(crate) const ACCESS_TOKEN_SECONDS: u64 = 3599;
/// Authorization codes live ten minutes.
pub(crate) const CODE_SECONDS: u64 = 600;

#[derive(Debug)]
pub(crate) struct Oauth {
    pub codes: HashMap<String, Code>,
    pub grants: Vec<Grant>,
    pub access: HashMap<String, Access>,
    /// The human answers "Cancel" on the consent screen.
    pub human_refuses: bool,
    /// The scopes the human leaves ticked (granular consent); `None`: all requested.
    pub human_grants_only: Option<Vec<String>>,
    /// Clients the human has consented to (a refresh token is issued on the first consent only,
    /// unless `prompt=consent`).
    pub consented: BTreeSet<String>,
    /// Redirect URIs registered for the client; empty: any `http(s)` URI is accepted.
    pub redirect_uris: Vec<String>,
    /// The Google user signed in on the consent screen (and of tokens issued directly).
    pub human: String,
}

/// The user signed in until a test names another ([`super::FakeGoogle::sign_in_as`]).
pub const DEFAULT_USER: &str = "founder@gmail.example";

impl Default for Oauth {
    fn default() -> Self {
        Self {
            codes: HashMap::new(),
            grants: Vec::new(),
            access: HashMap::new(),
            human_refuses: false,
            human_grants_only: None,
            consented: BTreeSet::new(),
            redirect_uris: Vec::new(),
            human: DEFAULT_USER.to_owned(),
        }
    }
}

impl Oauth {
    /// Records a consent; access tokens name it by the index returned.
    pub(crate) fn add_grant(&mut self, grant: Grant) -> usize {
        self.grants.push(grant);
        self.grants.len() - 1
    }
}
