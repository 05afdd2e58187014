//! The ad account itself (`GET /rest/adAccounts/{id}`): its name, currency, status and type,
//! which `test` and every sync check first.

use payback_domain::validation::normalize_currency;

use super::client::LinkedInClient;
use super::errors::Resource;
use super::restli::Query;
use super::urn::ACCOUNT;
use super::wire::AdAccount;
use crate::ConnectorError;

/// What Payback needs to know about the account before reading it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AccountInfo {
    /// Digits.
    pub id: String,
    pub name: Option<String>,
    /// ISO 4217, upper-case.
    pub currency: String,
    /// `ACTIVE`, `CANCELED`, `DRAFT`, `PENDING_DELETION`, `REMOVED`, as LinkedIn writes it.
    pub status: String,
    /// `BUSINESS` or `ENTERPRISE`, when LinkedIn says.
    pub kind: Option<String>,
}

impl AccountInfo {
    /// `123 "Acme"`.
    pub(crate) fn label(&self) -> String {
        match &self.name {
            Some(name) => format!("{} \"{name}\"", self.id),
            None => self.id.clone(),
        }
    }

    /// The product's currency, when the account counts in it; otherwise a configuration error
    /// naming both (spend is never converted or mixed).
    pub(crate) fn check_currency(&self, product_currency: &str) -> Result<String, ConnectorError> {
        let product = normalize_currency(product_currency.trim())
            .map_err(|msg| ConnectorError::Config(format!("product currency {msg}")))?;
        if self.currency != product {
            return Err(ConnectorError::Config(format!(
                "LinkedIn ad account {} counts in {}, but the product counts in {product}; \
                 Payback never converts or mixes currencies",
                self.label(),
                self.currency
            )));
        }
        Ok(product)
    }

    /// An account that is not `ACTIVE` (canceled, a draft, being deleted) serves no ads.
    pub(crate) fn check_active(&self) -> Result<(), ConnectorError> {
        if self.status != "ACTIVE" {
            return Err(ConnectorError::Config(format!(
                "LinkedIn ad account {} is {}, not ACTIVE; select an active ad account",
                self.label(),
                self.status
            )));
        }
        Ok(())
    }
}

/// Reads the account `id` (digits).
pub(crate) async fn read(client: &LinkedInClient, id: &str) -> Result<AccountInfo, ConnectorError> {
    let account: AdAccount = client
        .get(
            Resource::AdAccount,
            &format!("adAccounts/{id}"),
            &Query::new(),
        )
        .await?;
    info(id, account)
}

/// The account answer, checked for what Payback needs.
pub(crate) fn info(id: &str, account: AdAccount) -> Result<AccountInfo, ConnectorError> {
    let currency = account
        .currency
        .as_deref()
        .map(str::trim)
        .filter(|code| !code.is_empty())
        .map(str::to_ascii_uppercase)
        .ok_or_else(|| {
            ConnectorError::Vendor(format!("LinkedIn answered no currency for ad account {id}"))
        })?;
    Ok(AccountInfo {
        id: account
            .id
            .and_then(|answered| answered.plain(ACCOUNT))
            .unwrap_or_else(|| id.to_owned()),
        name: account.name.filter(|name| !name.trim().is_empty()),
        currency,
        status: account
            .status
            .map(|status| status.trim().to_ascii_uppercase())
            .filter(|status| !status.is_empty())
            .unwrap_or_else(|| "UNKNOWN".to_owned()),
        kind: account.kind,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn account(json: &str) -> AccountInfo {
        info("507404993", serde_json::from_str(json).unwrap()).unwrap()
    }

    #[test]
    fn the_documented_account_reads_with_its_label() {
        let info = account(
            r#"{"id": 507404993, "name": "Acme", "currency": "usd", "status": "ACTIVE",
                "type": "BUSINESS", "test": false}"#,
        );
        assert_eq!(info.id, "507404993");
        assert_eq!(info.label(), "507404993 \"Acme\"");
        assert_eq!(info.currency, "USD");
        assert_eq!(info.kind.as_deref(), Some("BUSINESS"));
        assert!(info.check_active().is_ok());
        assert_eq!(info.check_currency("usd").unwrap(), "USD");
    }

    #[test]
    fn another_currency_or_a_closed_account_is_refused_by_name() {
        let info = account(
            r#"{"id": 507404993, "name": "Acme", "currency": "EUR", "status": "CANCELED"}"#,
        );
        match info.check_currency("USD") {
            Err(ConnectorError::Config(line)) => {
                assert!(line.contains("EUR") && line.contains("USD"), "{line}");
                assert!(line.contains("507404993 \"Acme\""), "{line}");
            }
            other => panic!("{other:?}"),
        }
        match info.check_active() {
            Err(ConnectorError::Config(line)) => assert!(line.contains("CANCELED"), "{line}"),
            other => panic!("{other:?}"),
        }
        let unnamed = account(r#"{"currency": "USD", "status": "DRAFT"}"#);
        assert_eq!(unnamed.label(), "507404993");
        assert!(matches!(
            info.check_currency("dollars"),
            Err(ConnectorError::Config(_))
        ));
    }

    #[test]
    fn an_account_without_a_currency_is_a_vendor_error() {
        let result = info(
            "1",
            serde_json::from_str(r#"{"id": 1, "status": "ACTIVE"}"#).unwrap(),
        );
        assert!(matches!(result, Err(ConnectorError::Vendor(_))));
    }
}
