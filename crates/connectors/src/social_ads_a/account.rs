//! The ad account itself (`GET /act_{id}?fields=name,currency,account_status,timezone_name`):
//! what `test` shows, the currency every read and budget change is checked against.

use serde::Deserialize;

use crate::ConnectorError;
use crate::graph::account_status_word;
use crate::graph::client::GraphClient;
use crate::graph::errors::FailureKind;
use crate::graph::wire;

/// The fields read.
pub(crate) const FIELDS: &str = "name,currency,account_status,timezone_name";

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub(crate) struct AccountNode {
    pub name: Option<String>,
    pub currency: Option<String>,
    #[serde(deserialize_with = "wire::int")]
    pub account_status: Option<i64>,
    pub timezone_name: Option<String>,
}

/// One ad account, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AccountInfo {
    /// Digits, no `act_`.
    pub id: String,
    pub name: Option<String>,
    /// ISO 4217, uppercase.
    pub currency: String,
    pub status: Option<i64>,
    pub time_zone: Option<String>,
}

impl AccountInfo {
    pub(crate) fn from_node(id: &str, node: AccountNode) -> Self {
        Self {
            id: id.to_owned(),
            name: node.name.filter(|name| !name.trim().is_empty()),
            currency: node
                .currency
                .unwrap_or_default()
                .trim()
                .to_ascii_uppercase(),
            status: node.account_status,
            time_zone: node.timezone_name.filter(|zone| !zone.is_empty()),
        }
    }

    /// `123 "Shop"`, or `123` without a name.
    pub(crate) fn label(&self) -> String {
        match &self.name {
            Some(name) => format!("{} \"{name}\"", self.id),
            None => self.id.clone(),
        }
    }

    /// The status as a word (`active`, `disabled`, ...).
    pub(crate) fn status_word(&self) -> String {
        self.status
            .map_or_else(|| "unknown".to_owned(), account_status_word)
    }

    /// The account's currency when it is the product's; a [`ConnectorError::Config`] naming
    /// both otherwise (spend is never converted or mixed).
    pub(crate) fn check_currency(&self, product_currency: &str) -> Result<String, ConnectorError> {
        if self.currency.is_empty() {
            return Err(ConnectorError::Vendor(format!(
                "Meta ad account {} answered no currency",
                self.label()
            )));
        }
        if !self.currency.eq_ignore_ascii_case(product_currency.trim()) {
            return Err(ConnectorError::Config(format!(
                "Meta ad account {} counts in {}, the product in {}; connect an ad account in {}",
                self.label(),
                self.currency,
                product_currency.trim().to_ascii_uppercase(),
                product_currency.trim().to_ascii_uppercase()
            )));
        }
        Ok(self.currency.clone())
    }

    /// Fails unless the account is active (status 1).
    pub(crate) fn check_active(&self) -> Result<(), ConnectorError> {
        if self.status == Some(1) {
            return Ok(());
        }
        Err(ConnectorError::Config(format!(
            "Meta ad account {} is {}, not active",
            self.label(),
            self.status_word()
        )))
    }
}

/// Reads account `id` (digits).
pub(crate) async fn read(client: &GraphClient, id: &str) -> Result<AccountInfo, ConnectorError> {
    match client
        .get::<AccountNode>(&format!("act_{id}"), &[("fields", FIELDS.to_owned())])
        .await
    {
        Ok(node) => Ok(AccountInfo::from_node(id, node)),
        Err(err) if err.kind == Some(FailureKind::Missing) => Err(ConnectorError::Config(format!(
            "Meta ad account {id} does not exist or this token cannot reach it ({})",
            err.error
        ))),
        Err(err) => Err(err.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(json: &str) -> AccountInfo {
        AccountInfo::from_node("123", serde_json::from_str(json).unwrap())
    }

    #[test]
    fn an_active_account_in_the_products_currency_passes() {
        let account = info(
            r#"{"name": "Shop", "currency": "usd", "account_status": 1, "timezone_name": "Europe/Berlin", "id": "act_123"}"#,
        );
        assert_eq!(account.label(), "123 \"Shop\"");
        assert_eq!(account.check_currency("USD").unwrap(), "USD");
        assert!(account.check_active().is_ok());
        assert_eq!(account.time_zone.as_deref(), Some("Europe/Berlin"));
    }

    #[test]
    fn another_currency_names_both() {
        let account = info(r#"{"name": "Shop", "currency": "EUR", "account_status": 1}"#);
        match account.check_currency("usd") {
            Err(ConnectorError::Config(line)) => {
                assert!(line.contains("counts in EUR, the product in USD"), "{line}")
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn an_inactive_account_says_its_status() {
        let account = info(r#"{"currency": "USD", "account_status": "2"}"#);
        assert_eq!(account.label(), "123");
        match account.check_active() {
            Err(ConnectorError::Config(line)) => {
                assert_eq!(line, "Meta ad account 123 is disabled, not active")
            }
            other => panic!("{other:?}"),
        }
        let unknown = info(r#"{"currency": "USD"}"#);
        assert!(unknown.check_active().is_err());
    }
}
