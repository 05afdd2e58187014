//! The Google Ads customer (the ad account) itself: its name, currency and kind, which every
//! operation checks first, and its account-level URL suffix, which the url-suffix endpoints read
//! and append to.

use payback_domain::validation::normalize_currency;
use serde::Serialize;

use super::client::{Account, AdsClient};
use super::{SearchAdsConfig, gaql};
use crate::ConnectorError;

/// What Payback needs to know about the account before reading or changing anything.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CustomerInfo {
    pub id: String,
    pub descriptive_name: Option<String>,
    /// ISO 4217, upper-case.
    pub currency_code: String,
    pub time_zone: Option<String>,
    /// A manager account holds other accounts, not campaigns.
    pub manager: bool,
}

impl CustomerInfo {
    /// `123-456-7890 "Acme"`, as people read the account in Google Ads.
    pub(crate) fn label(&self) -> String {
        match &self.descriptive_name {
            Some(name) => format!("{} \"{name}\"", dashed(&self.id)),
            None => dashed(&self.id),
        }
    }

    /// A manager account has no spend of its own to read or budgets to change.
    pub(crate) fn check_not_manager(&self) -> Result<(), ConnectorError> {
        if self.manager {
            return Err(ConnectorError::Config(format!(
                "Google Ads account {} is a manager account; select one of its client accounts",
                self.label()
            )));
        }
        Ok(())
    }

    /// The product's currency, when the account counts in it; otherwise a configuration error
    /// naming both (spend is never converted or mixed).
    pub(crate) fn check_currency(&self, product_currency: &str) -> Result<String, ConnectorError> {
        let product = normalize_currency(product_currency.trim())
            .map_err(|msg| ConnectorError::Config(format!("product currency {msg}")))?;
        if self.currency_code != product {
            return Err(ConnectorError::Config(format!(
                "Google Ads account {} counts in {}, but the product counts in {product}; \
                 Payback never converts or mixes currencies",
                self.label(),
                self.currency_code
            )));
        }
        Ok(product)
    }
}

/// The account's settings, in one cheap query.
pub(crate) async fn read(
    client: &AdsClient,
    account: Account<'_>,
) -> Result<CustomerInfo, ConnectorError> {
    let rows = client.search(account, gaql::CUSTOMER).await?;
    let customer = rows
        .into_iter()
        .find_map(|row| row.customer)
        .ok_or_else(|| {
            ConnectorError::Vendor(format!(
                "Google Ads answered no customer row for account {}",
                dashed(account.customer_id)
            ))
        })?;
    let currency_code = customer
        .currency_code
        .as_deref()
        .map(str::trim)
        .filter(|code| !code.is_empty())
        .map(str::to_ascii_uppercase)
        .ok_or_else(|| {
            ConnectorError::Vendor(format!(
                "Google Ads answered no currency for account {}",
                dashed(account.customer_id)
            ))
        })?;
    Ok(CustomerInfo {
        id: customer
            .id
            .unwrap_or_else(|| account.customer_id.to_owned()),
        descriptive_name: customer
            .descriptive_name
            .filter(|name| !name.trim().is_empty()),
        currency_code,
        time_zone: customer.time_zone,
        manager: customer.manager.unwrap_or(false),
    })
}

/// The account-level tracking settings: the final URL suffix appended to every ad's landing
/// page (`None` when unset), and whether auto-tagging adds `gclid`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UrlSuffixState {
    pub final_url_suffix: Option<String>,
    pub auto_tagging_enabled: bool,
}

/// Reads the configured account's URL suffix and auto-tagging.
pub async fn read_url_suffix(
    http: &reqwest::Client,
    config: &SearchAdsConfig,
) -> Result<UrlSuffixState, ConnectorError> {
    let account = config.account()?;
    let client = config.client(http).await?;
    let rows = client.search(account, gaql::URL_SUFFIX).await?;
    let customer = rows
        .into_iter()
        .find_map(|row| row.customer)
        .ok_or_else(|| {
            ConnectorError::Vendor(format!(
                "Google Ads answered no customer row for account {}",
                dashed(account.customer_id)
            ))
        })?;
    Ok(UrlSuffixState {
        final_url_suffix: customer
            .final_url_suffix
            .filter(|suffix| !suffix.trim().is_empty()),
        auto_tagging_enabled: customer.auto_tagging_enabled.unwrap_or(false),
    })
}

/// Sets the account-level final URL suffix to `suffix` (a customer mutate whose update mask
/// names `finalUrlSuffix` only). It changes every ad's landing URL, so the server calls it only
/// on a person's explicit request, with the suffix [`super::suffix::proposed`] built.
pub async fn write_url_suffix(
    http: &reqwest::Client,
    config: &SearchAdsConfig,
    suffix: &str,
) -> Result<(), ConnectorError> {
    let account = config.account()?;
    let client = config.client(http).await?;
    client
        .mutate(account, "", &suffix_operation(account.customer_id, suffix))
        .await?;
    tracing::info!(
        customer = account.customer_id,
        "google ads final url suffix written"
    );
    Ok(())
}

/// `MutateCustomerRequest`'s JSON: one `CustomerOperation` updating only the suffix. A field
/// mask in JSON lists lowerCamelCase field names.
fn suffix_operation(customer_id: &str, suffix: &str) -> serde_json::Value {
    serde_json::json!({
        "operation": {
            "update": {
                "resourceName": format!("customers/{customer_id}"),
                "finalUrlSuffix": suffix,
            },
            "updateMask": "finalUrlSuffix",
        }
    })
}

/// `1234567890` -> `123-456-7890`; other lengths stay as they are.
pub(crate) fn dashed(id: &str) -> String {
    if id.len() == 10 && id.bytes().all(|b| b.is_ascii_digit()) {
        format!("{}-{}-{}", &id[..3], &id[3..6], &id[6..])
    } else {
        id.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(currency: &str, manager: bool) -> CustomerInfo {
        CustomerInfo {
            id: "1234567890".into(),
            descriptive_name: Some("Acme".into()),
            currency_code: currency.into(),
            time_zone: Some("Europe/Paris".into()),
            manager,
        }
    }

    #[test]
    fn another_currency_is_refused_by_name() {
        assert_eq!(info("USD", false).check_currency("usd").unwrap(), "USD");
        let err = info("EUR", false).check_currency("USD").unwrap_err();
        match err {
            ConnectorError::Config(line) => {
                assert!(line.contains("EUR") && line.contains("USD"), "{line}");
                assert!(line.contains("123-456-7890 \"Acme\""), "{line}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_manager_account_is_not_read() {
        assert!(info("USD", false).check_not_manager().is_ok());
        assert!(matches!(
            info("USD", true).check_not_manager(),
            Err(ConnectorError::Config(_))
        ));
    }

    #[test]
    fn the_suffix_mutate_names_one_field() {
        let body = suffix_operation("1234567890", "utm_source=google&utm_medium=cpc");
        assert_eq!(
            body,
            serde_json::json!({"operation": {
                "update": {"resourceName": "customers/1234567890",
                           "finalUrlSuffix": "utm_source=google&utm_medium=cpc"},
                "updateMask": "finalUrlSuffix"}})
        );
    }

    #[test]
    fn ids_read_with_dashes() {
        assert_eq!(dashed("1234567890"), "123-456-7890");
        assert_eq!(dashed("12345"), "12345");
    }
}
