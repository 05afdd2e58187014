//! The Tag Manager API's JSON (v2), as Google documents it:
//! - `GET /tagmanager/v2/accounts` answers `{"account": [Account], "nextPageToken"}`, and
//!   `GET .../accounts/{a}/containers` `{"container": [Container], "nextPageToken"}`, each
//!   paged by `pageToken` (the list absent when empty);
//! - `GET .../{container}/versions:live` answers the published `ContainerVersion`, whose `tag`
//!   list holds each tag with its `type` (`html` for Custom HTML) and `parameter`s
//!   (`{type, key, value}`; a Custom HTML tag's code is the `template` parameter `html`);
//! - `POST .../{container}/workspaces` answers the `Workspace`, `POST .../{workspace}/tags` the
//!   `Tag`, `GET .../{workspace}/tags` `{"tag": [Tag], "nextPageToken"}`, `PUT .../{tag}` the
//!   updated `Tag`;
//! - `POST .../{workspace}:create_version` answers `{containerVersion, compilerError,
//!   newWorkspacePath, syncStatus}` and `POST .../{version}:publish` `{containerVersion,
//!   compilerError}`;
//! - an error is `{"error": {"code", "message", "status"}}`.

use serde::{Deserialize, Serialize};

/// `accounts.list`'s answer.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AccountsList {
    #[serde(default)]
    pub account: Vec<Account>,
    #[serde(default)]
    pub next_page_token: Option<String>,
}

/// One Tag Manager account.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Account {
    /// `accounts/{accountId}`.
    pub path: String,
}

/// `accounts.containers.list`'s answer.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ContainersList {
    #[serde(default)]
    pub container: Vec<Container>,
    #[serde(default)]
    pub next_page_token: Option<String>,
}

/// One container.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Container {
    /// `accounts/{accountId}/containers/{containerId}`.
    pub path: String,
    #[serde(default)]
    pub name: String,
    /// The `GTM-XXXX` id the site's container snippet names.
    #[serde(default)]
    pub public_id: String,
}

/// A workspace, as `workspaces.create` answers it.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Workspace {
    /// `accounts/{a}/containers/{c}/workspaces/{w}`.
    pub path: String,
    #[serde(default)]
    pub name: String,
}

/// One tag parameter (`template`, `boolean`, `list`, ...); nested `list`/`map` values are not
/// read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Parameter {
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub key: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
}

/// One tag.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Tag {
    #[serde(default)]
    pub path: String,
    #[serde(default)]
    pub name: String,
    #[serde(rename = "type", default)]
    pub kind: String,
    #[serde(default)]
    pub parameter: Vec<Parameter>,
    /// A paused tag never fires.
    #[serde(default)]
    pub paused: bool,
}

/// What Payback writes of a tag (`tags.create`, `tags.update`).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TagBody<'a> {
    pub name: &'a str,
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub parameter: Vec<Parameter>,
    pub firing_trigger_id: Vec<&'static str>,
}

/// `workspaces.tags.list`'s answer.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TagsList {
    #[serde(default)]
    pub tag: Vec<Tag>,
    #[serde(default)]
    pub next_page_token: Option<String>,
}

/// One container version.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ContainerVersion {
    /// `accounts/{a}/containers/{c}/versions/{v}`.
    #[serde(default)]
    pub path: String,
    #[serde(default)]
    pub container_version_id: String,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub tag: Vec<Tag>,
}

/// `workspaces.create_version`'s and `versions.publish`'s answers.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct VersionAnswer {
    #[serde(default)]
    pub container_version: Option<ContainerVersion>,
    #[serde(default)]
    pub compiler_error: bool,
}
