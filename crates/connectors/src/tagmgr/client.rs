//! The Tag Manager API (`/tagmanager/v2/...`) over the shared Google client. Resources are
//! addressed by their API-relative `path` (`accounts/1/containers/2`), which Google's answers
//! carry and this module appends as it is; the writes go through `call(Effect::Write, ..)`, so
//! a 5xx on one is reported, never sent twice (a second tag, a second published version).

use reqwest::Method;
use serde::de::DeserializeOwned;

use super::wire::{
    AccountsList, ContainerVersion, ContainersList, Tag, TagBody, TagsList, VersionAnswer,
    Workspace,
};
use crate::ConnectorError;
use crate::google::{CallError, Effect, FailureKind, GoogleClient, encode_segment, google_api};

google_api!(
    /// Google Tag Manager, as messages name it.
    TagManager,
    "Tag Manager"
);

/// One authorised session with the Tag Manager API.
pub(crate) type TagClient = GoogleClient<TagManager>;

impl TagClient {
    fn url(&self, path: &str) -> String {
        format!("{}/tagmanager/v2/{path}", self.base_url())
    }

    /// `path` with `?pageToken=` when there is one.
    fn page_url(&self, path: &str, page_token: Option<&str>) -> String {
        match page_token {
            Some(token) => format!("{}?pageToken={}", self.url(path), encode_segment(token)),
            None => self.url(path),
        }
    }

    /// One page of `accounts.list`.
    pub(crate) async fn accounts(
        &self,
        page_token: Option<&str>,
    ) -> Result<AccountsList, ConnectorError> {
        self.get("accounts.list", &self.page_url("accounts", page_token))
            .await
    }

    /// One page of `accounts.containers.list` of `account_path` (`accounts/{a}`).
    pub(crate) async fn containers(
        &self,
        account_path: &str,
        page_token: Option<&str>,
    ) -> Result<ContainersList, ConnectorError> {
        let path = format!("{account_path}/containers");
        self.get("containers.list", &self.page_url(&path, page_token))
            .await
    }

    /// `accounts.containers.get`.
    pub(crate) async fn container(
        &self,
        container_path: &str,
    ) -> Result<super::wire::Container, ConnectorError> {
        self.get("containers.get", &self.url(container_path)).await
    }

    /// `versions.live`: the published version; `None` when the container has never been
    /// published (Google answers 404).
    pub(crate) async fn live_version(
        &self,
        container_path: &str,
    ) -> Result<Option<ContainerVersion>, CallError> {
        let url = self.url(&format!("{container_path}/versions:live"));
        match self
            .call(Effect::Read, Method::GET, "versions.live", &url, None)
            .await
        {
            Ok(version) => Ok(Some(version)),
            Err(err) if is_not_found(&err) => Ok(None),
            Err(err) => Err(err),
        }
    }

    /// `workspaces.create`.
    pub(crate) async fn create_workspace(
        &self,
        container_path: &str,
        name: &str,
        description: &str,
    ) -> Result<Workspace, CallError> {
        let body = serde_json::json!({ "name": name, "description": description });
        self.write(
            Method::POST,
            "workspaces.create",
            &format!("{container_path}/workspaces"),
            Some(&body),
        )
        .await
    }

    /// One page of `workspaces.tags.list`.
    pub(crate) async fn tags(
        &self,
        workspace_path: &str,
        page_token: Option<&str>,
    ) -> Result<TagsList, CallError> {
        let url = self.page_url(&format!("{workspace_path}/tags"), page_token);
        self.call(Effect::Read, Method::GET, "tags.list", &url, None)
            .await
    }

    /// `workspaces.tags.create`.
    pub(crate) async fn create_tag(
        &self,
        workspace_path: &str,
        tag: &TagBody<'_>,
    ) -> Result<Tag, CallError> {
        let body = encode(tag)?;
        self.write(
            Method::POST,
            "tags.create",
            &format!("{workspace_path}/tags"),
            Some(&body),
        )
        .await
    }

    /// `workspaces.tags.update` of the tag at `tag_path`.
    pub(crate) async fn update_tag(
        &self,
        tag_path: &str,
        tag: &TagBody<'_>,
    ) -> Result<Tag, CallError> {
        let body = encode(tag)?;
        self.write(Method::PUT, "tags.update", tag_path, Some(&body))
            .await
    }

    /// `workspaces.create_version`: the workspace's entities as a new version (Google deletes
    /// the workspace once it succeeds).
    pub(crate) async fn create_version(
        &self,
        workspace_path: &str,
        name: &str,
        notes: &str,
    ) -> Result<VersionAnswer, CallError> {
        let body = serde_json::json!({ "name": name, "notes": notes });
        self.write(
            Method::POST,
            "workspaces.create_version",
            &format!("{workspace_path}:create_version"),
            Some(&body),
        )
        .await
    }

    /// `versions.publish`: the version goes live on every page the container is on.
    pub(crate) async fn publish(&self, version_path: &str) -> Result<VersionAnswer, CallError> {
        self.write(
            Method::POST,
            "versions.publish",
            &format!("{version_path}:publish"),
            None,
        )
        .await
    }

    async fn write<T: DeserializeOwned>(
        &self,
        method: Method,
        call: &str,
        path: &str,
        body: Option<&serde_json::Value>,
    ) -> Result<T, CallError> {
        self.call(Effect::Write, method, call, &self.url(path), body)
            .await
    }
}

fn encode(tag: &TagBody<'_>) -> Result<serde_json::Value, CallError> {
    serde_json::to_value(tag).map_err(|err| CallError {
        error: ConnectorError::Config(format!("the tag did not encode: {err}")),
        kind: None,
    })
}

/// Google's 404 (`NOT_FOUND`): a final failure (`FailureKind::Other`) whose line starts with
/// the status, as `google::errors` writes it.
fn is_not_found(err: &CallError) -> bool {
    err.kind == Some(FailureKind::Other)
        && matches!(&err.error, ConnectorError::Vendor(line) if line.starts_with("Tag Manager answered 404"))
}
