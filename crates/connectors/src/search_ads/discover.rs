//! The ad accounts a fresh grant can choose from, stored as the grant's options.
//!
//! `customers:listAccessibleCustomers` names the accounts the granting login reaches directly.
//! Each of those answers a `customer_client` query (itself at level 0, and when it is a manager,
//! the accounts directly under it at level 1), called with itself as `login-customer-id`. An
//! account reached directly is used with itself as the login; one reached only through a manager
//! uses that manager. Accounts that cannot be queried (cancelled ones answer
//! `CUSTOMER_NOT_ENABLED`) are left out, unless none can be, when the first refusal is the
//! answer.

use serde::{Deserialize, Serialize};

use super::client::{Account, AdsClient};
use super::gaql;
use crate::ConnectorError;
use crate::oauth::OAuthClient;
use crate::payments::RetryPolicy;

/// One account a grant may select.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdsCustomerOption {
    /// Digits only.
    pub customer_id: String,
    pub descriptive_name: Option<String>,
    pub currency_code: Option<String>,
    /// A manager account holds accounts, not campaigns: shown for orientation, not synced.
    pub manager: bool,
    /// The `login-customer-id` to call it with: the manager it is reached through, or itself.
    pub login_customer_id: String,
    /// `ENABLED`, `CANCELED`, `SUSPENDED`, `CLOSED`, as Google reports it.
    pub status: Option<String>,
}

/// Every account the grant reaches, directly or one level under a manager it reaches.
pub async fn discover_customers(
    http: &reqwest::Client,
    api_base_url: &str,
    developer_token: &str,
    oauth: &OAuthClient,
    refresh_token: &str,
) -> Result<Vec<AdsCustomerOption>, ConnectorError> {
    let client = AdsClient::connect(
        http,
        api_base_url,
        developer_token,
        RetryPolicy::default(),
        oauth,
        refresh_token,
    )
    .await?;
    let roots = client.accessible_customers().await?;
    let mut options: Vec<AdsCustomerOption> = Vec::new();
    let mut first_refusal: Option<ConnectorError> = None;
    for root in roots.iter().filter(|id| gaql::is_digits(id)) {
        let account = Account {
            customer_id: root,
            login_customer_id: Some(root),
        };
        match client.search(account, gaql::CUSTOMER_CLIENTS).await {
            Ok(rows) => {
                for option in rows
                    .into_iter()
                    .filter_map(|row| option(root, row.customer_client?))
                {
                    merge(&mut options, option);
                }
            }
            // One account the login cannot query (cancelled, access removed) says nothing of
            // the others.
            Err(err @ (ConnectorError::Unauthorized(_) | ConnectorError::Vendor(_))) => {
                tracing::warn!(customer = %root, %err, "google ads account left out of the options");
                first_refusal.get_or_insert(err);
            }
            Err(err) => return Err(err),
        }
    }
    match first_refusal {
        Some(err) if options.is_empty() => Err(err),
        _ => Ok(options),
    }
}

/// A `customer_client` row of `root`'s hierarchy as an option.
fn option(root: &str, client: super::wire::CustomerClient) -> Option<AdsCustomerOption> {
    let id = client.id.or_else(|| {
        client
            .client_customer
            .as_deref()
            .and_then(|name| name.strip_prefix("customers/"))
            .map(str::to_owned)
    })?;
    Some(AdsCustomerOption {
        login_customer_id: root.to_owned(),
        customer_id: id,
        descriptive_name: client.descriptive_name.filter(|n| !n.trim().is_empty()),
        currency_code: client.currency_code,
        manager: client.manager.unwrap_or(false),
        status: client.status,
    })
}

/// Adds `option` once per account: reached directly (its own login) wins over through a manager.
fn merge(options: &mut Vec<AdsCustomerOption>, option: AdsCustomerOption) {
    let direct = option.login_customer_id == option.customer_id;
    match options
        .iter_mut()
        .find(|known| known.customer_id == option.customer_id)
    {
        Some(known) if direct && known.login_customer_id != known.customer_id => *known = option,
        Some(_) => {}
        None => options.push(option),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search_ads::wire::GoogleAdsRow;

    fn clients(json: &str) -> Vec<super::super::wire::CustomerClient> {
        serde_json::from_str::<Vec<GoogleAdsRow>>(json)
            .unwrap()
            .into_iter()
            .filter_map(|row| row.customer_client)
            .collect()
    }

    #[test]
    fn a_manager_lends_its_login_to_accounts_under_it() {
        let manager = clients(
            r#"[
              {"customerClient": {"clientCustomer": "customers/1000000001", "id": "1000000001",
                "descriptiveName": "Agency MCC", "currencyCode": "USD", "manager": true, "level": "0",
                "status": "ENABLED"}},
              {"customerClient": {"clientCustomer": "customers/2000000002", "id": "2000000002",
                "descriptiveName": "Acme", "currencyCode": "EUR", "manager": false, "level": "1",
                "status": "ENABLED"}},
              {"customerClient": {"clientCustomer": "customers/3000000003", "level": "1"}}
            ]"#,
        );
        let mut options = Vec::new();
        for client in manager {
            merge(&mut options, option("1000000001", client).unwrap());
        }
        assert_eq!(options.len(), 3);
        assert!(options[0].manager && options[0].login_customer_id == "1000000001");
        assert_eq!(options[1].customer_id, "2000000002");
        assert_eq!(options[1].login_customer_id, "1000000001");
        assert_eq!(options[1].currency_code.as_deref(), Some("EUR"));
        // An id only in the resource name still counts.
        assert_eq!(options[2].customer_id, "3000000003");

        // The same account reached directly uses its own login.
        let direct = clients(
            r#"[{"customerClient": {"id": "2000000002", "descriptiveName": "Acme",
                 "currencyCode": "EUR", "manager": false, "level": "0"}}]"#,
        );
        merge(
            &mut options,
            option("2000000002", direct[0].clone()).unwrap(),
        );
        assert_eq!(options.len(), 3);
        assert_eq!(options[1].login_customer_id, "2000000002");
        // ...and a later manager path does not take it back.
        let through_manager = AdsCustomerOption {
            login_customer_id: "9".into(),
            ..options[1].clone()
        };
        merge(&mut options, through_manager);
        assert_eq!(options[1].login_customer_id, "2000000002");

        let json = serde_json::to_value(&options[1]).unwrap();
        assert_eq!(json["customer_id"], "2000000002");
        assert_eq!(json["login_customer_id"], "2000000002");
    }
}
