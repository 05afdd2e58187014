//! Publishing Payback's snippet, as a person asked: a new workspace (based on the latest
//! version, so the container's other tags stay as they are), the snippet as one Custom HTML tag
//! firing on All Pages in it (Payback's earlier tag of the same name is updated rather than
//! doubled), a version of the workspace, and that version published. Nothing is sent before
//! the grant's scopes are checked ([`super::scopes`]); a version with a compiler error is never
//! published.

use super::audit::{HTML_PARAMETER, HTML_TAG, version_name};
use super::client::TagClient;
use super::scopes::missing_deploy_scopes;
use super::wire::{ContainerVersion, Parameter, TagBody};
use super::{ALL_PAGES_TRIGGER, TagManagerConfig};
use crate::ConnectorError;
use crate::google::{CallError, FailureKind};

/// A page chain longer than this is Google misbehaving.
const MAX_PAGES: usize = 100;

/// What to publish.
#[derive(Debug, Clone, Copy)]
pub struct DeployRequest<'a> {
    /// The tag's HTML (the product's snippet).
    pub snippet: &'a str,
    /// The tag's name; a tag of this name in the workspace is Payback's and is updated.
    pub tag_name: &'a str,
    pub workspace_name: &'a str,
    pub version_name: &'a str,
    /// The workspace's description and the version's notes.
    pub notes: &'a str,
}

/// What was published, in Tag Manager's names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deployed {
    pub workspace_name: String,
    pub version_name: String,
    /// `accounts/{a}/containers/{c}/versions/{v}`.
    pub version_path: String,
    pub published: bool,
}

/// Why nothing (or not everything) was published.
#[derive(Debug)]
pub enum DeployError {
    /// The grant lacks these scopes: nothing was sent.
    MissingScopes(Vec<&'static str>),
    /// Google refused a call for want of permission (a service account without Publish on the
    /// container, a scope removed meanwhile); `wrote` says what was left behind.
    Forbidden { error: ConnectorError, wrote: Wrote },
    /// Tag Manager found a compiler error: nothing was published.
    CompilerError {
        workspace_name: String,
        at: &'static str,
    },
    /// Any other failure; `wrote` says what was left behind.
    Failed { error: ConnectorError, wrote: Wrote },
}

/// How far a failed deploy got at Google.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wrote {
    Nothing,
    /// A workspace (and maybe the tag in it), never versioned.
    Workspace,
    /// A version that was not published.
    Version,
}

impl Wrote {
    /// What a message says was left at Google.
    pub fn words(self) -> &'static str {
        match self {
            Self::Nothing => "nothing was written to Tag Manager",
            Self::Workspace => {
                "a workspace was created in Tag Manager but nothing was versioned or published"
            }
            Self::Version => "a version was created in Tag Manager but not published",
        }
    }
}

/// Publishes `request.snippet` in the configured container.
pub async fn deploy(
    http: &reqwest::Client,
    config: &TagManagerConfig,
    request: DeployRequest<'_>,
) -> Result<Deployed, DeployError> {
    let unsent = |error| DeployError::Failed {
        error,
        wrote: Wrote::Nothing,
    };
    let missing = missing_deploy_scopes(http, &config.auth)
        .await
        .map_err(unsent)?;
    if !missing.is_empty() {
        return Err(DeployError::MissingScopes(missing));
    }
    let client = config.client(http).await.map_err(unsent)?;
    let workspace = client
        .create_workspace(
            &config.container_path,
            request.workspace_name,
            request.notes,
        )
        .await
        .map_err(|err| failed(err, Wrote::Nothing))?;
    put_tag(&client, &workspace.path, &request)
        .await
        .map_err(|err| failed(err, Wrote::Workspace))?;
    let created = client
        .create_version(&workspace.path, request.version_name, request.notes)
        .await
        .map_err(|err| failed(err, Wrote::Workspace))?;
    let workspace_name = if workspace.name.is_empty() {
        request.workspace_name.to_owned()
    } else {
        workspace.name
    };
    let version = match created {
        answer if answer.compiler_error => {
            return Err(DeployError::CompilerError {
                workspace_name,
                at: "create_version",
            });
        }
        answer => answer
            .container_version
            .ok_or_else(|| DeployError::Failed {
                error: ConnectorError::Vendor(
                    "Tag Manager created no container version and named no compiler error"
                        .to_owned(),
                ),
                wrote: Wrote::Workspace,
            })?,
    };
    let published = client
        .publish(&version.path)
        .await
        .map_err(|err| failed(err, Wrote::Version))?;
    if published.compiler_error {
        return Err(DeployError::CompilerError {
            workspace_name,
            at: "publish",
        });
    }
    let live: ContainerVersion = published.container_version.unwrap_or(version);
    Ok(Deployed {
        workspace_name,
        version_name: version_name(&live),
        version_path: live.path,
        published: true,
    })
}

/// The snippet's tag in the workspace: Payback's tag of that name updated, else created.
async fn put_tag(
    client: &TagClient,
    workspace_path: &str,
    request: &DeployRequest<'_>,
) -> Result<(), CallError> {
    let body = TagBody {
        name: request.tag_name,
        kind: HTML_TAG,
        parameter: vec![Parameter {
            kind: "template".to_owned(),
            key: HTML_PARAMETER.to_owned(),
            value: Some(request.snippet.to_owned()),
        }],
        firing_trigger_id: vec![ALL_PAGES_TRIGGER],
    };
    let mut token: Option<String> = None;
    for _ in 0..MAX_PAGES {
        let page = client.tags(workspace_path, token.as_deref()).await?;
        if let Some(ours) = page.tag.iter().find(|tag| tag.name == request.tag_name) {
            client.update_tag(&ours.path, &body).await?;
            return Ok(());
        }
        token = page.next_page_token.filter(|next| !next.is_empty());
        if token.is_none() {
            break;
        }
    }
    client.create_tag(workspace_path, &body).await?;
    Ok(())
}

fn failed(err: CallError, wrote: Wrote) -> DeployError {
    match err.kind {
        Some(FailureKind::Forbidden) => DeployError::Forbidden {
            error: err.error,
            wrote,
        },
        _ => DeployError::Failed {
            error: err.error,
            wrote,
        },
    }
}
