//! How a Google connection proves itself: a person's grant (Payback's OAuth client and the
//! grant's refresh token) or Payback's service account, which the tenant gave access to their
//! property, container or site. Either buys a short-lived access token per operation.

use std::fmt;
use std::sync::Arc;

use super::ServiceAccountKey;
use crate::ConnectorError;
use crate::oauth::OAuthClient;
use crate::source::Revocation;

/// The credential of one Google connection. `Debug` never prints a token or a key.
#[derive(Clone)]
pub enum GoogleAuth {
    /// The search-engine grant: the scopes are the ones the person granted.
    Grant {
        oauth: OAuthClient,
        refresh_token: String,
    },
    /// The operator's service account, asking for the kind's scopes.
    ServiceAccount {
        key: Arc<ServiceAccountKey>,
        scopes: &'static [&'static str],
    },
}

impl GoogleAuth {
    /// A fresh access token; a revoked grant or a refused service account fails as
    /// `Unauthorized`.
    pub async fn access_token(&self, http: &reqwest::Client) -> Result<String, ConnectorError> {
        match self {
            Self::Grant {
                oauth,
                refresh_token,
            } => oauth.access_token(http, refresh_token).await,
            Self::ServiceAccount { key, scopes } => key.access_token(http, scopes).await,
        }
    }

    /// Ends the credential at Google: a grant's refresh token is revoked (which ends the whole
    /// grant, every kind it served); a service account's access stays the tenant's to remove.
    pub async fn revoke(&self, http: &reqwest::Client) -> Result<Revocation, ConnectorError> {
        match self {
            Self::Grant {
                oauth,
                refresh_token,
            } => {
                oauth.revoke(http, refresh_token).await?;
                Ok(Revocation::Revoked)
            }
            Self::ServiceAccount { .. } => Ok(Revocation::NothingToRevoke),
        }
    }
}

impl fmt::Debug for GoogleAuth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Grant { oauth, .. } => f
                .debug_struct("Grant")
                .field("oauth", oauth)
                .field("refresh_token", &"[redacted]")
                .finish(),
            Self::ServiceAccount { key, scopes } => f
                .debug_struct("ServiceAccount")
                .field("key", key)
                .field("scopes", scopes)
                .finish(),
        }
    }
}
