//! The page and the token that reads it. Page Insights want a Page access token (Pages API,
//! "Get Page Insights"); the grant holds a user token, which is exchanged for the page's with
//! `GET /{page_id}?fields=access_token` (answered only to a person with a task on the page). A
//! token pasted on the key path may already be the page's: `GET /me` with a page token is the
//! page itself, and then no exchange is made. The page token lives in memory for one operation
//! and never leaves this crate.

use serde::Deserialize;

use super::SocialAConfig;
use crate::ConnectorError;
use crate::graph::client::GraphClient;
use crate::graph::errors::FailureKind;
use crate::graph::wire;

/// The page fields read, with the linked Instagram professional account's.
const PAGE_FIELDS: &str =
    "id,name,followers_count,instagram_business_account{id,username,followers_count}";

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct MeNode {
    #[serde(deserialize_with = "wire::id")]
    id: Option<String>,
}

#[derive(Default, Deserialize)]
#[serde(default)]
struct PageTokenNode {
    access_token: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub(crate) struct PageNode {
    #[serde(deserialize_with = "wire::id")]
    pub id: Option<String>,
    pub name: Option<String>,
    #[serde(deserialize_with = "wire::int")]
    pub followers_count: Option<i64>,
    pub instagram_business_account: Option<InstagramNode>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub(crate) struct InstagramNode {
    #[serde(deserialize_with = "wire::id")]
    pub id: Option<String>,
    pub username: Option<String>,
    #[serde(deserialize_with = "wire::int")]
    pub followers_count: Option<i64>,
}

/// The page, read with its own token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Page {
    pub id: String,
    pub name: Option<String>,
    pub followers: Option<i64>,
    pub instagram: Option<Instagram>,
}

/// The linked Instagram professional account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Instagram {
    pub id: String,
    pub username: Option<String>,
    pub followers: Option<i64>,
}

impl Page {
    pub(crate) fn from_node(page_id: &str, node: PageNode) -> Self {
        Self {
            id: node
                .id
                .filter(|id| !id.is_empty())
                .unwrap_or_else(|| page_id.to_owned()),
            name: node.name.filter(|name| !name.trim().is_empty()),
            followers: node.followers_count,
            instagram: node.instagram_business_account.and_then(|account| {
                Some(Instagram {
                    id: account.id.filter(|id| !id.is_empty())?,
                    username: account.username.filter(|name| !name.is_empty()),
                    followers: account.followers_count,
                })
            }),
        }
    }

    /// `101 "Shop"`.
    pub(crate) fn label(&self) -> String {
        match &self.name {
            Some(name) => format!("{} \"{name}\"", self.id),
            None => self.id.clone(),
        }
    }
}

impl Instagram {
    /// `@shop`, or the id without a username.
    pub(crate) fn label(&self) -> String {
        match &self.username {
            Some(name) => format!("@{name}"),
            None => format!("account {}", self.id),
        }
    }
}

/// A client holding the page's token, and the page read with it.
pub(crate) async fn open(
    http: &reqwest::Client,
    config: &SocialAConfig,
) -> Result<(GraphClient, Page), ConnectorError> {
    let page_id = config.page_id()?;
    let given = config.client(http)?;
    let me: MeNode = given.get("me", &[("fields", "id".to_owned())]).await?;
    let client = if me.id.as_deref() == Some(page_id.as_str()) {
        given
    } else {
        let node = match given
            .get::<PageTokenNode>(&page_id, &[("fields", "access_token".to_owned())])
            .await
        {
            Ok(node) => node,
            Err(err) if err.kind == Some(FailureKind::Missing) => {
                return Err(unreachable_page(&page_id, &err.error.to_string()));
            }
            Err(err) => return Err(err.into()),
        };
        let token = node
            .access_token
            .filter(|token| !token.trim().is_empty())
            .ok_or_else(|| {
                ConnectorError::Unauthorized(format!(
                    "Meta gave no page token for Facebook page {page_id}: the login that granted \
                     access has no task on the page; reconnect with a login that manages it"
                ))
            })?;
        given.with_token(&token)?
    };
    let node = match client
        .get::<PageNode>(&page_id, &[("fields", PAGE_FIELDS.to_owned())])
        .await
    {
        Ok(node) => node,
        Err(err) if err.kind == Some(FailureKind::Missing) => {
            return Err(unreachable_page(&page_id, &err.error.to_string()));
        }
        Err(err) => return Err(err.into()),
    };
    Ok((client, Page::from_node(&page_id, node)))
}

fn unreachable_page(page_id: &str, why: &str) -> ConnectorError {
    ConnectorError::Config(format!(
        "Facebook page {page_id} does not exist or this token cannot reach it ({why})"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_reads_with_its_linked_account() {
        let node: PageNode = serde_json::from_str(
            r#"{"id": "101", "name": "Shop", "followers_count": 1234,
                "instagram_business_account": {"id": "17841400000000001", "username": "shop", "followers_count": "567"}}"#,
        )
        .unwrap();
        let page = Page::from_node("101", node);
        assert_eq!(page.label(), "101 \"Shop\"");
        assert_eq!(page.followers, Some(1_234));
        let instagram = page.instagram.unwrap();
        assert_eq!(instagram.label(), "@shop");
        assert_eq!(instagram.followers, Some(567));

        let bare = Page::from_node("102", serde_json::from_str(r#"{"name": " "}"#).unwrap());
        assert_eq!(bare.label(), "102");
        assert_eq!(bare.instagram, None);
    }
}
