//! The provider's discovery document and signing keys, read when first needed and kept for the
//! life of the app state that holds the [`DiscoveryCache`] (never process-global: two apps in
//! one process, as in the tests, talk to two providers).

use std::fmt;
use std::sync::Arc;

use openidconnect::core::{CoreJsonWebKeySet, CoreProviderMetadata};
use openidconnect::{DiscoveryError, IssuerUrl};
use tokio::sync::{Mutex, RwLock};

use crate::ConnectorError;
use crate::oauth_http::{Adapter, EndpointFailure};

/// One provider as discovered: its metadata (endpoints, supported methods) and its current
/// key set, which an unknown `kid` refreshes (`id_token::verify`).
pub struct Provider {
    pub(crate) metadata: CoreProviderMetadata,
    pub(crate) keys: RwLock<CoreJsonWebKeySet>,
}

impl fmt::Debug for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Provider")
            .field("issuer", &self.metadata.issuer().as_str())
            .finish_non_exhaustive()
    }
}

impl Provider {
    /// The authorization endpoint the person is sent to.
    pub fn authorization_endpoint(&self) -> &str {
        self.metadata.authorization_endpoint().as_str()
    }

    /// Fetches the key set again from `jwks_uri` (the provider rotated its keys) and keeps it.
    pub(crate) async fn refetch_keys(
        &self,
        http: &reqwest::Client,
    ) -> Result<CoreJsonWebKeySet, ConnectorError> {
        let keys = CoreJsonWebKeySet::fetch_async(self.metadata.jwks_uri(), &Adapter(http.clone()))
            .await
            .map_err(|err| discovery_error("the provider's signing keys", err))?;
        *self.keys.write().await = keys.clone();
        Ok(keys)
    }
}

/// The discovered provider of one issuer, fetched once: a failed fetch is not kept, so the next
/// sign-in tries again.
#[derive(Clone, Default)]
pub struct DiscoveryCache(Arc<Mutex<Option<Discovered>>>);

/// The provider discovered, with the issuer it was discovered for.
struct Discovered {
    issuer: String,
    provider: Arc<Provider>,
}

impl fmt::Debug for DiscoveryCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("DiscoveryCache")
    }
}

impl DiscoveryCache {
    /// The provider of `issuer`: `{issuer}/.well-known/openid-configuration` and its `jwks_uri`,
    /// read on first use. The document's `issuer` must equal `issuer` exactly (the crate checks
    /// it); any failure is [`ConnectorError::Unreachable`] or [`ConnectorError::Vendor`].
    pub async fn provider(
        &self,
        http: &reqwest::Client,
        issuer: &str,
    ) -> Result<Arc<Provider>, ConnectorError> {
        // Held across the fetch, so concurrent first sign-ins discover once.
        let mut cached = self.0.lock().await;
        if let Some(known) = cached.as_ref()
            && known.issuer == issuer
        {
            return Ok(Arc::clone(&known.provider));
        }
        let issuer_url = IssuerUrl::new(issuer.to_owned()).map_err(|_| {
            ConnectorError::Config(format!("the SSO issuer {issuer:?} is not a URL"))
        })?;
        let metadata = CoreProviderMetadata::discover_async(issuer_url, &Adapter(http.clone()))
            .await
            .map_err(|err| discovery_error("the provider's discovery document", err))?;
        let keys = metadata.jwks().clone();
        let provider = Arc::new(Provider {
            metadata,
            keys: RwLock::new(keys),
        });
        *cached = Some(Discovered {
            issuer: issuer.to_owned(),
            provider: Arc::clone(&provider),
        });
        Ok(provider)
    }
}

/// The crate's discovery error as ours. The documents read here are public (endpoints and
/// public keys), so the crate's description may be quoted.
fn discovery_error(what: &str, err: DiscoveryError<EndpointFailure>) -> ConnectorError {
    match err {
        DiscoveryError::Request(failure) => {
            ConnectorError::Unreachable(format!("{what}: {failure}"))
        }
        other => ConnectorError::Vendor(format!("{what}: {other}")),
    }
}
