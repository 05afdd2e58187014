//! What a test does with the OAuth provider: where it listens, the human on the consent screen
//! (who they are, what they grant), and tokens issued or taken away behind the app's back.

use super::{issue_offline, revoke_client};
use crate::fakes::google::{ADWORDS_SCOPE, ConsentPage, FakeGoogle, IssuedTokens, service_account};
use crate::fakes::human;

/// What the human's browser shows: Google's consent screen.
const SCREEN: &str = "the consent screen";

impl FakeGoogle {
    /// `http://127.0.0.1:PORT`: the OAuth endpoints' origin (Google's are
    /// `accounts.google.com` and `oauth2.googleapis.com`; here one server).
    pub fn oauth_base(&self) -> String {
        self.base().to_owned()
    }

    /// The authorization endpoint (`https://accounts.google.com/o/oauth2/v2/auth`).
    pub fn auth_url(&self) -> String {
        format!("{}/o/oauth2/v2/auth", self.base())
    }

    /// The token endpoint (`https://oauth2.googleapis.com/token`).
    pub fn token_url(&self) -> String {
        format!("{}/token", self.base())
    }

    /// The key file of the test service account
    /// ([`service_account::TEST_SERVICE_ACCOUNT_EMAIL`]), exchanged at this fake's token endpoint.
    pub fn service_account_key_json(&self) -> String {
        service_account::test_key_json(&self.token_url())
    }

    /// The revocation endpoint (`https://oauth2.googleapis.com/revoke`).
    pub fn revoke_url(&self) -> String {
        format!("{}/revoke", self.base())
    }

    /// The Google user signed in on the consent screen from now on (and of
    /// [`Self::issue_tokens`]); [`super::DEFAULT_USER`] until called.
    pub fn sign_in_as(&self, user: &str) {
        self.state().oauth.human = user.to_owned();
    }

    /// The human cancels on the consent screen (`error=access_denied`).
    pub fn set_human_refuses(&self, refuses: bool) {
        self.state().oauth.human_refuses = refuses;
    }

    /// The human leaves only these of the requested scopes ticked (granular consent); an empty
    /// list restores granting everything requested.
    pub fn set_human_grants_only(&self, scopes: &[&str]) {
        self.state().oauth.human_grants_only =
            (!scopes.is_empty()).then(|| scopes.iter().map(|s| (*s).to_owned()).collect());
    }

    /// Registers an authorized redirect URI; once any is registered, the authorization endpoint
    /// takes only exact matches (`redirect_uri_mismatch` otherwise).
    pub fn register_redirect_uri(&self, uri: &str) {
        self.state().oauth.redirect_uris.push(uri.to_owned());
    }

    /// The human removes the app's access from their Google account: every token stops working.
    pub fn revoke_all(&self) {
        let mut state = self.state();
        let client_id = state.client_id.clone();
        revoke_client(&mut state, &client_id);
    }

    /// Every access token issued so far expires (the refresh tokens keep working).
    pub fn expire_access_tokens(&self) {
        for access in self.state().oauth.access.values_mut() {
            access.expired = true;
        }
    }

    /// Tokens of an offline grant with the `adwords` scope, as if the human had consented (for
    /// tests that start connected).
    pub fn issue_tokens(&self) -> IssuedTokens {
        let (access_token, refresh_token) =
            issue_offline(&mut self.state(), vec![ADWORDS_SCOPE.to_owned()]);
        IssuedTokens {
            access_token,
            refresh_token,
        }
    }

    /// Plays the human on the consent screen: GETs `auth_url` (as the app built it) and returns
    /// the `Location` it redirects to (`redirect_uri?state=..&code=..&scope=..`, or
    /// `?state=..&error=access_denied` when the human refuses). Panics on an error page.
    pub async fn authorize(&self, auth_url: &str) -> String {
        human::expect_redirect(self.try_authorize(auth_url).await, SCREEN)
    }

    /// [`Self::authorize`], returning the error page instead of panicking on one.
    pub async fn try_authorize(&self, auth_url: &str) -> Result<String, ConsentPage> {
        human::visit(auth_url, SCREEN).await
    }
}
