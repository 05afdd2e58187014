//! The tag audit: is Payback's snippet live in the container? Live means the published version
//! (`versions:live`) holds a Custom HTML tag (`type: "html"`), not paused, whose `html`
//! parameter contains the product's write key. A container never published has nothing live.

use super::TagManagerConfig;
use super::wire::{ContainerVersion, Tag};
use crate::ConnectorError;

/// Custom HTML, as Tag Manager types the tag.
pub(crate) const HTML_TAG: &str = "html";
/// The Custom HTML tag's code parameter.
pub(crate) const HTML_PARAMETER: &str = "html";

/// What the audit found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Audit {
    pub snippet_live: bool,
    /// The live version's name (`None`: the container was never published).
    pub live_version: Option<String>,
}

impl Audit {
    /// The run's status line: `Tag Manager container accounts/1/containers/2: the snippet is
    /// live in version "v3"`.
    pub fn detail(&self, container_path: &str) -> String {
        let found = if self.snippet_live {
            "the snippet is live"
        } else {
            "the snippet is not live"
        };
        match &self.live_version {
            Some(name) => {
                format!("Tag Manager container {container_path}: {found} in version {name:?}")
            }
            None => format!("Tag Manager container {container_path}: nothing is published yet"),
        }
    }
}

/// Reads the live version of the configured container and looks for the snippet of
/// `write_key` (no key: nothing can be live).
pub async fn audit(
    http: &reqwest::Client,
    config: &TagManagerConfig,
    write_key: Option<&str>,
) -> Result<Audit, ConnectorError> {
    let client = config.client(http).await?;
    let live = client.live_version(&config.container_path).await?;
    Ok(match live {
        None => Audit {
            snippet_live: false,
            live_version: None,
        },
        Some(version) => Audit {
            snippet_live: write_key.is_some_and(|key| holds_snippet(&version, key)),
            live_version: Some(version_name(&version)),
        },
    })
}

/// A version's name, or its id when it has none.
pub(crate) fn version_name(version: &ContainerVersion) -> String {
    if version.name.trim().is_empty() {
        version.container_version_id.clone()
    } else {
        version.name.clone()
    }
}

/// Whether some tag of `version` fires the snippet of `write_key`.
pub(crate) fn holds_snippet(version: &ContainerVersion, write_key: &str) -> bool {
    !write_key.trim().is_empty() && version.tag.iter().any(|tag| fires_key(tag, write_key))
}

fn fires_key(tag: &Tag, write_key: &str) -> bool {
    tag.kind == HTML_TAG
        && !tag.paused
        && tag.parameter.iter().any(|parameter| {
            parameter.key == HTML_PARAMETER
                && parameter
                    .value
                    .as_deref()
                    .is_some_and(|html| html.contains(write_key))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tagmgr::wire::Parameter;

    fn tag(kind: &str, html: &str, paused: bool) -> Tag {
        Tag {
            kind: kind.into(),
            paused,
            parameter: vec![Parameter {
                kind: "template".into(),
                key: "html".into(),
                value: Some(html.into()),
            }],
            ..Tag::default()
        }
    }

    #[test]
    fn only_a_firing_custom_html_tag_with_the_key_counts() {
        let snippet =
            r#"<script src="https://p.example/svc.js" data-key="svc_pub_abc" async></script>"#;
        let version = |tags: Vec<Tag>| ContainerVersion {
            tag: tags,
            ..ContainerVersion::default()
        };
        assert!(holds_snippet(
            &version(vec![tag("html", snippet, false)]),
            "svc_pub_abc"
        ));
        assert!(!holds_snippet(
            &version(vec![tag("html", snippet, false)]),
            "svc_pub_other"
        ));
        assert!(!holds_snippet(
            &version(vec![tag("html", snippet, true)]),
            "svc_pub_abc"
        ));
        assert!(!holds_snippet(
            &version(vec![tag("img", snippet, false)]),
            "svc_pub_abc"
        ));
        assert!(!holds_snippet(&version(vec![]), "svc_pub_abc"));
        assert!(!holds_snippet(
            &version(vec![tag("html", snippet, false)]),
            " "
        ));
    }
}
