//! `tagmgr` on the search-engine grant and on the service-account path: its scopes (read, and
//! the three a deploy needs; a person may untick those and keep the audit), the containers a
//! login reaches, and the chosen one.

use payback_connectors::google::GoogleAuth;
use payback_connectors::oauth::OAuthClient;
use payback_connectors::tagmgr::{self, ContainerOption, SCOPES, TagManagerConfig};
use payback_domain::connection::ConnectionKind;
use serde_json::{Value, json};

use super::{KIND, api_base_url};
use crate::error::{ApiError, ApiResult};
use crate::services::acting::Caller;
use crate::services::grants::choice::{ChoiceWords, choose_exact};
use crate::services::grants::{
    self, Access, Activation, BoxFuture, GrantProvider, GrantedKind, Selectable,
};
use crate::services::searchco::Searchco;
use crate::services::searchco_account::{ServiceAccountKind, discover_granted};
use crate::state::AppState;

/// The select field choosing the container.
pub(super) const CHOICE: &str = "tagmgr_container_path";

/// The container choice's refusals.
const WORDS: ChoiceWords = ChoiceWords {
    field: CHOICE,
    offered: "a container this grant reaches",
    none: "this grant reaches no Tag Manager container",
};

/// Where discovery puts the containers in the status's `options`.
const OPTIONS_KEY: &str = "tagmgr_containers";

/// `tagmgr` in the search-engine grant.
pub(super) struct TagManager;

/// Every container `auth` reaches, as the status's options; `Err` the reason shown.
async fn discover(state: &AppState, auth: &GoogleAuth) -> Result<Value, String> {
    let containers = tagmgr::list_containers(&state.http, &api_base_url(state), auth)
        .await
        .map_err(|err| grants::listing_failed(Searchco::PROVIDER, "Tag Manager containers", err))?;
    Ok(json!({ OPTIONS_KEY: containers }))
}

/// The connection of the chosen container.
fn activation(container: &ContainerOption) -> Activation {
    Activation {
        kind: KIND,
        config: json!({
            "container_path": container.path,
            "container_name": container.name,
            "public_id": container.public_id,
        }),
        audit: json!({ "container_path": container.path, "public_id": container.public_id }),
    }
}

fn offered(options: &Value) -> Vec<ContainerOption> {
    serde_json::from_value(options[OPTIONS_KEY].clone()).unwrap_or_default()
}

impl GrantedKind<Searchco> for TagManager {
    fn kind(&self) -> ConnectionKind {
        KIND
    }

    fn scopes(&self) -> &'static [&'static str] {
        &SCOPES
    }

    fn access(&self) -> Access {
        Access {
            title: "Google Tag Manager",
            lines: &[
                "Read the containers you can see and the tags of the one you choose next, to check whether Payback's tracking snippet is live.",
                "Publish Payback's tracking snippet in that container (a new workspace, one Custom HTML tag on all pages, a published version), only when you press Publish in Payback.",
            ],
        }
    }

    fn choice_field(&self) -> &'static str {
        CHOICE
    }

    /// Every container the granting login reaches, across its accounts.
    fn discover<'a>(
        &'a self,
        state: &'a AppState,
        client: &'a OAuthClient,
        refresh_token: &'a String,
    ) -> BoxFuture<'a, Result<Value, String>> {
        discover_granted(self, state, client, refresh_token)
    }

    fn service_account(&self) -> Option<&dyn ServiceAccountKind> {
        Some(self)
    }

    /// The chosen container; optional when the grant reaches exactly one.
    fn activate<'a>(
        &'a self,
        _state: &'a AppState,
        _caller: &'a Caller,
        chosen: &'a Selectable,
        choice: Option<&'a str>,
    ) -> BoxFuture<'a, ApiResult<Activation>> {
        Box::pin(async move {
            let containers = offered(&chosen.options);
            Ok(activation(choose_container(&containers, choice)?))
        })
    }
}

impl ServiceAccountKind for TagManager {
    fn instructions(&self) -> &'static [&'static str] {
        &[
            "Open Google Tag Manager, then Admin and User Management of the container's account.",
            "Add {email}: Read on the container is enough for the tag audit; Publish lets Payback deploy its snippet when you ask it to.",
            "Back here, verify and choose the container.",
        ]
    }

    fn discover<'a>(
        &'a self,
        state: &'a AppState,
        auth: &'a GoogleAuth,
    ) -> BoxFuture<'a, Result<Value, String>> {
        Box::pin(discover(state, auth))
    }

    /// The chosen container, read (`containers.get`) with the account's credential.
    fn verify<'a>(
        &'a self,
        state: &'a AppState,
        auth: &'a GoogleAuth,
        options: &'a Value,
        choice: &'a str,
    ) -> BoxFuture<'a, ApiResult<Activation>> {
        Box::pin(async move {
            let containers = offered(options);
            let container = choose_container(&containers, Some(choice))?;
            let mut config = TagManagerConfig::new(container.path.clone(), auth.clone());
            config.api_base_url = api_base_url(state);
            tagmgr::test(&state.http, &config).await.map_err(|err| {
                ApiError::bad_request(format!(
                    "{CHOICE}: the service account cannot read {}: {err}",
                    container.path
                ))
            })?;
            Ok(activation(container))
        })
    }
}

/// The container to connect: the one named, exactly as offered, or the only one there is.
fn choose_container<'a>(
    containers: &'a [ContainerOption],
    chosen: Option<&str>,
) -> ApiResult<&'a ContainerOption> {
    choose_exact(containers, chosen, |container| &container.path, WORDS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::services::grants::choice::refusals;

    fn container(path: &str) -> ContainerOption {
        ContainerOption {
            path: path.into(),
            name: "Site".into(),
            public_id: "GTM-AAA".into(),
        }
    }

    #[test]
    fn the_choice_refuses_in_tag_managers_words() {
        let one = [container("accounts/1/containers/2")];
        assert_eq!(
            refusals(choose_container, &one, "accounts/9/containers/9"),
            [
                "tagmgr_container_path: accounts/9/containers/9 is not a container this grant reaches",
                "tagmgr_container_path: this grant reaches no Tag Manager container",
            ]
        );
    }
}
