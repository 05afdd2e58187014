//! The ad accounts a pasted token reaches, for the person choosing one: the adAccounts search
//! finder (`GET /rest/adAccounts?q=search`), which answers the accounts the token's member has
//! a role on, paged by cursor (`pageSize`, then `pageToken` from `metadata.nextPageToken`).
//!
//! No search criteria are sent, so accounts of every status come back and the choice shows why
//! one cannot be used; removed accounts are left out (nothing can be read from them).

use super::client::LinkedInClient;
use super::errors::Resource;
use super::restli::Query;
use super::urn::ACCOUNT;
use super::wire::AdAccount;
use crate::payments::RetryPolicy;
use crate::{AdAccountOption, ConnectorError};

/// Every account `access_token` reaches at `api_base_url` (LinkedIn's origin, or a fake's).
pub async fn discover_ad_accounts(
    http: &reqwest::Client,
    api_base_url: &str,
    access_token: &str,
) -> Result<Vec<AdAccountOption>, ConnectorError> {
    let client = LinkedInClient::new(http, api_base_url, access_token, RetryPolicy::default())?;
    let accounts: Vec<AdAccount> = client
        .search(
            Resource::AdAccountSearch,
            "adAccounts",
            &Query::new().raw("q", "search"),
        )
        .await?;
    Ok(options(accounts))
}

/// The options of a search's elements, once per id, in LinkedIn's order.
fn options(accounts: Vec<AdAccount>) -> Vec<AdAccountOption> {
    let mut options: Vec<AdAccountOption> = Vec::new();
    for account in accounts {
        let Some(id) = account.id.as_ref().and_then(|id| id.plain(ACCOUNT)) else {
            continue;
        };
        let status = account
            .status
            .as_deref()
            .map(|status| status.trim().to_ascii_lowercase())
            .filter(|status| !status.is_empty())
            .unwrap_or_else(|| "unknown".to_owned());
        if status == "removed" || options.iter().any(|known| known.id == id) {
            continue;
        }
        options.push(AdAccountOption {
            name: account
                .name
                .map(|name| name.trim().to_owned())
                .filter(|name| !name.is_empty())
                .unwrap_or_else(|| format!("LinkedIn ad account {id}")),
            currency: account
                .currency
                .map(|code| code.trim().to_ascii_uppercase())
                .unwrap_or_default(),
            status,
            id,
        });
    }
    options
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_elements_become_options() {
        let accounts: Vec<AdAccount> = serde_json::from_str(
            r#"[
              {"id": 507404993, "name": "Acme", "currency": "USD", "status": "ACTIVE",
               "type": "BUSINESS", "test": false},
              {"id": "urn:li:sponsoredAccount:507404994", "name": "Acme EU", "currency": "eur",
               "status": "CANCELED", "type": "BUSINESS"},
              {"id": 507404995, "name": "Gone", "currency": "USD", "status": "REMOVED"},
              {"id": 507404993, "name": "Acme again", "currency": "USD", "status": "ACTIVE"},
              {"id": 507404996, "currency": "GBP", "status": "DRAFT"},
              {"name": "no id"}
            ]"#,
        )
        .unwrap();
        let options = options(accounts);
        assert_eq!(
            options,
            vec![
                AdAccountOption {
                    id: "507404993".into(),
                    name: "Acme".into(),
                    currency: "USD".into(),
                    status: "active".into(),
                },
                AdAccountOption {
                    id: "507404994".into(),
                    name: "Acme EU".into(),
                    currency: "EUR".into(),
                    status: "canceled".into(),
                },
                AdAccountOption {
                    id: "507404996".into(),
                    name: "LinkedIn ad account 507404996".into(),
                    currency: "GBP".into(),
                    status: "draft".into(),
                },
            ]
        );
    }
}
