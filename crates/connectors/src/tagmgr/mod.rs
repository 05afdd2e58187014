//! The `tagmgr` connection: one Google Tag Manager container, read and (on a person's explicit
//! call) written through the Tag Manager API v2, authorised by the search-engine grant's refresh
//! token or Payback's service account ([`GoogleAuth`]).
//!
//! Tag manager has no funnel data: a sync is the tag audit ([`audit`]: does the live version
//! hold a Custom HTML tag with the product's write key?), and [`deploy`] publishes the snippet
//! (a workspace, the all-pages tag in it, a version of it, that version published).
//!
//! One file per concern: `client` (the API's calls over [`crate::google`]'s client), `wire`
//! (the JSON), [`containers`] (what a grant reaches), [`audit`], [`deploy`], [`scopes`] (what a
//! grant lets Payback do).

pub mod audit;
mod client;
pub mod containers;
pub mod deploy;
pub mod scopes;
mod wire;

pub use crate::payments::RetryPolicy;
pub use audit::{Audit, audit};
pub use containers::{ContainerOption, list_containers};
pub use deploy::{DeployError, DeployRequest, Deployed, deploy};
pub use scopes::missing_deploy_scopes;

use crate::ConnectorError;
use crate::google::GoogleAuth;
use client::TagClient;

/// The Tag Manager API's origin; `/tagmanager/v2/...` paths are appended.
pub const DEFAULT_API_BASE_URL: &str = "https://tagmanager.googleapis.com";

/// Reads accounts, containers and versions.
pub const SCOPE_READONLY: &str = "https://www.googleapis.com/auth/tagmanager.readonly";
/// Creates the workspace and the tag.
pub const SCOPE_EDIT_CONTAINERS: &str =
    "https://www.googleapis.com/auth/tagmanager.edit.containers";
/// Creates the version.
pub const SCOPE_EDIT_VERSIONS: &str =
    "https://www.googleapis.com/auth/tagmanager.edit.containerversions";
/// Publishes it.
pub const SCOPE_PUBLISH: &str = "https://www.googleapis.com/auth/tagmanager.publish";

/// Every scope the kind asks Google for: the audit's and the deploy's.
pub const SCOPES: [&str; 4] = [
    SCOPE_READONLY,
    SCOPE_EDIT_CONTAINERS,
    SCOPE_EDIT_VERSIONS,
    SCOPE_PUBLISH,
];

/// Tag Manager's built-in "All Pages" trigger (a Page View on every page).
pub const ALL_PAGES_TRIGGER: &str = "2147479553";

/// One `tagmgr` connection, its credential opened. `Debug` never prints a token.
#[derive(Clone, Debug)]
pub struct TagManagerConfig {
    /// Default [`DEFAULT_API_BASE_URL`]; tests point it at a fake.
    pub api_base_url: String,
    /// `accounts/{a}/containers/{c}`, as Google spells it.
    pub container_path: String,
    pub auth: GoogleAuth,
    /// How often quota (429) and server (5xx) answers of reads are retried.
    pub retry: RetryPolicy,
}

impl TagManagerConfig {
    /// A config against Google's origin with the default retry policy.
    pub fn new(container_path: String, auth: GoogleAuth) -> Self {
        Self {
            api_base_url: DEFAULT_API_BASE_URL.to_owned(),
            container_path,
            auth,
            retry: RetryPolicy::default(),
        }
    }

    /// A client with a fresh access token; a container path of another shape is refused before
    /// anything is sent (it is appended to the URL as it is).
    async fn client(&self, http: &reqwest::Client) -> Result<TagClient, ConnectorError> {
        if !is_container_path(&self.container_path) {
            return Err(ConnectorError::Config(format!(
                "the Tag Manager container {:?} is not accounts/{{account}}/containers/{{container}}",
                self.container_path
            )));
        }
        TagClient::connect(http, &self.api_base_url, self.retry, &self.auth).await
    }
}

/// One cheap live read proving the container is reachable (`containers.get`); answers a line
/// such as `Tag Manager container GTM-ABC123 (Shop) answers`.
pub async fn test(
    http: &reqwest::Client,
    config: &TagManagerConfig,
) -> Result<String, ConnectorError> {
    let client = config.client(http).await?;
    let container = client.container(&config.container_path).await?;
    Ok(format!(
        "Tag Manager container {} ({}) answers",
        container.public_id, container.name
    ))
}

/// `accounts/{digits}/containers/{digits}`: Tag Manager's ids are numbers.
pub fn is_container_path(path: &str) -> bool {
    let parts: Vec<&str> = path.split('/').collect();
    let number = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
    matches!(parts.as_slice(), ["accounts", a, "containers", c] if number(a) && number(c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oauth::{OAuthClient, OAuthEndpoints};

    #[test]
    fn only_numeric_container_paths_are_taken() {
        assert!(is_container_path("accounts/12/containers/34"));
        for bad in [
            "accounts/12/containers/34/",
            "accounts/12/containers/../34",
            "accounts/x/containers/34",
            "accounts//containers/34",
            "containers/34",
        ] {
            assert!(!is_container_path(bad), "{bad}");
        }
    }

    #[test]
    fn debug_never_prints_a_secret() {
        let config = TagManagerConfig::new(
            "accounts/1/containers/2".into(),
            GoogleAuth::Grant {
                oauth: OAuthClient::new(
                    "id".into(),
                    "client-secret".into(),
                    OAuthEndpoints::google(),
                ),
                refresh_token: "1//refresh-secret".into(),
            },
        );
        let text = format!("{config:?}");
        assert!(text.contains("accounts/1/containers/2"), "{text}");
        for secret in ["client-secret", "1//refresh-secret"] {
            assert!(!text.contains(secret), "{text}");
        }
        assert_eq!(config.api_base_url, "https://tagmanager.googleapis.com");
    }
}
