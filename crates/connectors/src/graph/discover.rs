//! What a user token reaches, for the human choosing in a connect flow: its ad accounts
//! (`GET /me/adaccounts`) and its pages with their linked Instagram professional accounts
//! (`GET /me/accounts`); and ending the grant (`DELETE /me/permissions`).
//!
//! `/me/accounts` answers each page's access token unless the fields are named; they are named,
//! so no page token is ever read here (the `social_a` source exchanges one for itself).

use serde::{Deserialize, Serialize};

use super::client::GraphClient;
use super::errors::FailureKind;
use super::wire::{self, Success};
use crate::ConnectorError;
use crate::ad_account::AdAccountOption;
use crate::payments::RetryPolicy;
use crate::source::Revocation;

/// A page the grant reaches.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PageOption {
    pub id: String,
    pub name: String,
    /// The Instagram professional account linked to the page, if any.
    pub instagram_account: Option<LinkedAccount>,
}

/// An Instagram professional account linked to a page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkedAccount {
    pub id: String,
    pub username: Option<String>,
}

/// The Marketing API's `account_status` as a lowercase word (Ad Account reference: 1 ACTIVE,
/// 2 DISABLED, 3 UNSETTLED, 7 PENDING_RISK_REVIEW, 8 PENDING_SETTLEMENT, 9 IN_GRACE_PERIOD,
/// 100 PENDING_CLOSURE, 101 CLOSED, 201 ANY_ACTIVE, 202 ANY_CLOSED).
pub fn account_status_word(status: i64) -> String {
    match status {
        1 => "active".to_owned(),
        2 => "disabled".to_owned(),
        3 => "unsettled".to_owned(),
        7 => "pending_risk_review".to_owned(),
        8 => "pending_settlement".to_owned(),
        9 => "in_grace_period".to_owned(),
        100 => "pending_closure".to_owned(),
        101 => "closed".to_owned(),
        201 => "any_active".to_owned(),
        202 => "any_closed".to_owned(),
        other => format!("status_{other}"),
    }
}

#[derive(Debug, Deserialize)]
struct AdAccountNode {
    #[serde(default, deserialize_with = "wire::id")]
    id: Option<String>,
    #[serde(default, deserialize_with = "wire::id")]
    account_id: Option<String>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    currency: Option<String>,
    #[serde(default, deserialize_with = "wire::int")]
    account_status: Option<i64>,
}

#[derive(Debug, Deserialize)]
struct PageNode {
    #[serde(default, deserialize_with = "wire::id")]
    id: Option<String>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    instagram_business_account: Option<InstagramNode>,
}

#[derive(Debug, Deserialize)]
struct InstagramNode {
    #[serde(default, deserialize_with = "wire::id")]
    id: Option<String>,
    #[serde(default)]
    username: Option<String>,
}

/// Every ad account the token reaches, ids as plain digits (no `act_`), statuses as words.
pub async fn discover_ad_accounts(
    http: &reqwest::Client,
    graph_base_url: &str,
    token: &str,
) -> Result<Vec<AdAccountOption>, ConnectorError> {
    let client = GraphClient::new(http, graph_base_url, token, RetryPolicy::default())?;
    let nodes: Vec<AdAccountNode> = client
        .get_all(
            "me/adaccounts",
            &[
                (
                    "fields",
                    "account_id,name,currency,account_status".to_owned(),
                ),
                ("limit", "100".to_owned()),
            ],
        )
        .await?;
    Ok(nodes.into_iter().filter_map(ad_account_option).collect())
}

fn ad_account_option(node: AdAccountNode) -> Option<AdAccountOption> {
    let id = node
        .account_id
        .or_else(|| {
            node.id
                .as_deref()
                .and_then(|id| id.strip_prefix("act_"))
                .map(str::to_owned)
        })
        .filter(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()))?;
    Some(AdAccountOption {
        name: node
            .name
            .filter(|name| !name.trim().is_empty())
            .unwrap_or_else(|| format!("Ad account {id}")),
        currency: node
            .currency
            .unwrap_or_default()
            .trim()
            .to_ascii_uppercase(),
        status: node
            .account_status
            .map_or_else(|| "unknown".to_owned(), account_status_word),
        id,
    })
}

/// Every page the token reaches, with its linked Instagram professional account.
pub async fn discover_pages(
    http: &reqwest::Client,
    graph_base_url: &str,
    token: &str,
) -> Result<Vec<PageOption>, ConnectorError> {
    let client = GraphClient::new(http, graph_base_url, token, RetryPolicy::default())?;
    let nodes: Vec<PageNode> = client
        .get_all(
            "me/accounts",
            &[
                (
                    "fields",
                    "id,name,instagram_business_account{id,username}".to_owned(),
                ),
                ("limit", "100".to_owned()),
            ],
        )
        .await?;
    Ok(nodes.into_iter().filter_map(page_option).collect())
}

fn page_option(node: PageNode) -> Option<PageOption> {
    let id = node.id.filter(|id| !id.is_empty())?;
    Some(PageOption {
        name: node
            .name
            .filter(|name| !name.trim().is_empty())
            .unwrap_or_else(|| format!("Page {id}")),
        instagram_account: node.instagram_business_account.and_then(|account| {
            Some(LinkedAccount {
                id: account.id.filter(|id| !id.is_empty())?,
                username: account.username.filter(|name| !name.is_empty()),
            })
        }),
        id,
    })
}

/// Ends the grant at Meta: `DELETE /me/permissions` with the user token removes every
/// permission the person gave Payback's app (the whole grant, every kind it served). A token
/// Meta already refuses (190) means the grant is already over, which is what was asked.
pub async fn revoke(
    http: &reqwest::Client,
    graph_base_url: &str,
    token: &str,
) -> Result<(), ConnectorError> {
    let client = GraphClient::new(http, graph_base_url, token, RetryPolicy::default())?;
    match client.delete::<Success>("me/permissions").await {
        Ok(answer) if answer.success == Some(false) => Err(ConnectorError::Vendor(
            "Meta answered success: false to DELETE me/permissions".to_owned(),
        )),
        Ok(_) => {
            tracing::info!("meta grant revoked");
            Ok(())
        }
        Err(err) if err.kind == Some(FailureKind::TokenRefused) => {
            tracing::info!("meta revoke: the token was already revoked or expired");
            Ok(())
        }
        Err(err) => Err(err.into()),
    }
}

/// Disconnecting a Meta connection (`social_a`, `social_ads_a`): the grant's token ends the
/// whole grant ([`revoke`], every kind it served); a pasted token (`grant_token` `None`, the
/// config's `revoke_on_disconnect` false, e.g. a page token) stays the customer's.
pub(crate) async fn disconnect(
    http: &reqwest::Client,
    graph_base_url: &str,
    grant_token: Option<&str>,
) -> Result<Revocation, ConnectorError> {
    let Some(token) = grant_token else {
        return Ok(Revocation::NothingToRevoke);
    };
    revoke(http, graph_base_url, token).await?;
    Ok(Revocation::Revoked)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::wire::Paged;

    #[test]
    fn ad_accounts_are_plain_ids_with_status_words() {
        let page: Paged<AdAccountNode> = serde_json::from_str(
            r#"{"data": [
                {"account_id": "1234567890", "name": "Shop", "currency": "usd", "account_status": 1, "id": "act_1234567890"},
                {"id": "act_222", "name": "", "currency": "EUR", "account_status": 101},
                {"id": "act_333", "name": "Risky", "currency": "GBP", "account_status": "7"},
                {"id": "weird", "name": "No digits"}
            ], "paging": {"cursors": {"before": "a", "after": "b"}}}"#,
        )
        .unwrap();
        let options: Vec<AdAccountOption> = page
            .data
            .into_iter()
            .filter_map(ad_account_option)
            .collect();
        assert_eq!(
            options,
            [
                AdAccountOption {
                    id: "1234567890".into(),
                    name: "Shop".into(),
                    currency: "USD".into(),
                    status: "active".into(),
                },
                AdAccountOption {
                    id: "222".into(),
                    name: "Ad account 222".into(),
                    currency: "EUR".into(),
                    status: "closed".into(),
                },
                AdAccountOption {
                    id: "333".into(),
                    name: "Risky".into(),
                    currency: "GBP".into(),
                    status: "pending_risk_review".into(),
                },
            ]
        );
    }

    #[test]
    fn every_documented_status_has_its_word() {
        let words: Vec<String> = [1, 2, 3, 7, 8, 9, 100, 101, 201, 202, 55]
            .into_iter()
            .map(account_status_word)
            .collect();
        assert_eq!(
            words,
            [
                "active",
                "disabled",
                "unsettled",
                "pending_risk_review",
                "pending_settlement",
                "in_grace_period",
                "pending_closure",
                "closed",
                "any_active",
                "any_closed",
                "status_55"
            ]
        );
    }

    #[test]
    fn pages_carry_their_linked_instagram_account_and_no_token() {
        let page: Paged<PageNode> = serde_json::from_str(
            r#"{"data": [
                {"id": "101", "name": "Shop Page", "access_token": "EAAB-page-token",
                 "instagram_business_account": {"id": "17841400000000001", "username": "shop"}},
                {"id": "102", "name": "Blog"},
                {"name": "No id"}
            ]}"#,
        )
        .unwrap();
        let options: Vec<PageOption> = page.data.into_iter().filter_map(page_option).collect();
        assert_eq!(
            options,
            [
                PageOption {
                    id: "101".into(),
                    name: "Shop Page".into(),
                    instagram_account: Some(LinkedAccount {
                        id: "17841400000000001".into(),
                        username: Some("shop".into()),
                    }),
                },
                PageOption {
                    id: "102".into(),
                    name: "Blog".into(),
                    instagram_account: None,
                },
            ]
        );
        let json = serde_json::to_string(&options).unwrap();
        assert!(!json.contains("EAAB"), "{json}");
    }
}
