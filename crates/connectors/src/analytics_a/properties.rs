//! The GA4 properties a grant (or Payback's service account) reaches, as the search-engine grant
//! offers them (`analytics_a_properties`): every page of `accountSummaries.list`, each property
//! once, in Google's order.

use serde::{Deserialize, Serialize};

use super::wire::AccountSummary;
use super::{ApiOrigins, admin};
use crate::ConnectorError;
use crate::google::GoogleAuth;

/// A login reaching more pages than this is refused rather than read forever (200 accounts a
/// page: 20,000 accounts).
const MAX_PAGES: usize = 100;

/// One property the grant may connect.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PropertyOption {
    /// The numeric id (`properties/{property_id}` in Google's names).
    pub property_id: String,
    pub display_name: String,
    /// The display name of the account the property belongs to.
    pub account: String,
}

/// Every property the login (or service account) `auth` speaks for.
pub async fn list_properties(
    http: &reqwest::Client,
    origins: &ApiOrigins,
    auth: &GoogleAuth,
) -> Result<Vec<PropertyOption>, ConnectorError> {
    let client = admin(http, origins, auth).await?;
    let mut summaries = Vec::new();
    let mut token: Option<String> = None;
    for _ in 0..MAX_PAGES {
        let page = client.account_summaries(token.as_deref()).await?;
        summaries.extend(page.account_summaries);
        token = page.next_page_token.filter(|next| !next.is_empty());
        if token.is_none() {
            return Ok(options(summaries));
        }
    }
    Err(ConnectorError::Vendor(format!(
        "Google Analytics Admin API answered more than {MAX_PAGES} pages of account summaries"
    )))
}

/// The properties of `summaries`, each once.
pub(crate) fn options(summaries: Vec<AccountSummary>) -> Vec<PropertyOption> {
    let mut out: Vec<PropertyOption> = Vec::new();
    for account in summaries {
        // An account without a display name shows as its resource name (`accounts/1`).
        let account_name = if account.display_name.is_empty() {
            account.account
        } else {
            account.display_name
        };
        for property in account.property_summaries {
            let id = property
                .property
                .strip_prefix("properties/")
                .unwrap_or(&property.property)
                .to_owned();
            if id.is_empty() || out.iter().any(|o| o.property_id == id) {
                continue;
            }
            out.push(PropertyOption {
                property_id: id,
                display_name: property.display_name,
                account: account_name.clone(),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analytics_a::wire::AccountSummaries;

    #[test]
    fn each_property_once_with_its_account() {
        let page: AccountSummaries = serde_json::from_value(serde_json::json!({
            "accountSummaries": [
                {"name": "accountSummaries/1", "account": "accounts/1", "displayName": "Shop Inc",
                 "propertySummaries": [
                    {"property": "properties/11", "displayName": "shop.example", "parent": "accounts/1"},
                    {"property": "properties/12", "displayName": "blog", "parent": "accounts/1"}]},
                {"name": "accountSummaries/2", "account": "accounts/2", "displayName": "Empty"},
                {"account": "accounts/3", "displayName": "Again",
                 "propertySummaries": [{"property": "properties/11", "displayName": "shop.example"}]}
            ],
            "nextPageToken": ""
        }))
        .unwrap();
        assert_eq!(
            options(page.account_summaries),
            vec![
                PropertyOption {
                    property_id: "11".into(),
                    display_name: "shop.example".into(),
                    account: "Shop Inc".into(),
                },
                PropertyOption {
                    property_id: "12".into(),
                    display_name: "blog".into(),
                    account: "Shop Inc".into(),
                },
            ]
        );
    }
}
