//! The containers a grant reaches, as the search-engine grant offers them
//! (`tagmgr_containers`): every account the login sees (`accounts.list`), then every container
//! of each (`accounts.containers.list`), every page of both.

use serde::{Deserialize, Serialize};

use super::RetryPolicy;
use super::client::TagClient;
use crate::ConnectorError;
use crate::google::GoogleAuth;

/// A page chain longer than this is Google misbehaving (a token that never ends).
const MAX_PAGES: usize = 1_000;

/// One container the grant may connect.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContainerOption {
    /// `accounts/{a}/containers/{c}`.
    pub path: String,
    pub name: String,
    /// `GTM-XXXX`.
    pub public_id: String,
}

/// Every container the login (or service account) `auth` speaks for reaches, in Google's
/// order, each once.
pub async fn list_containers(
    http: &reqwest::Client,
    api_base_url: &str,
    auth: &GoogleAuth,
) -> Result<Vec<ContainerOption>, ConnectorError> {
    let client = TagClient::connect(http, api_base_url, RetryPolicy::default(), auth).await?;
    let mut accounts = Vec::new();
    let mut token: Option<String> = None;
    for _ in 0..MAX_PAGES {
        let page = client.accounts(token.as_deref()).await?;
        accounts.extend(page.account);
        token = page.next_page_token.filter(|next| !next.is_empty());
        if token.is_none() {
            break;
        }
    }
    let mut out: Vec<ContainerOption> = Vec::new();
    for account in accounts {
        let mut token: Option<String> = None;
        for _ in 0..MAX_PAGES {
            let page = client.containers(&account.path, token.as_deref()).await?;
            for container in page.container {
                if out.iter().any(|known| known.path == container.path) {
                    continue;
                }
                out.push(ContainerOption {
                    path: container.path,
                    name: container.name,
                    public_id: container.public_id,
                });
            }
            token = page.next_page_token.filter(|next| !next.is_empty());
            if token.is_none() {
                break;
            }
        }
    }
    Ok(out)
}
