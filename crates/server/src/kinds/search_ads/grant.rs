//! Google Ads as the search-engine grant serves it: its scope, the ad accounts (and their
//! managers) the grant reaches, and the chosen account.

use payback_connectors::oauth::{OAuthClient, SEARCH_ADS_SCOPE};
use payback_connectors::search_ads::{self, AdsCustomerOption};
use payback_domain::connection::ConnectionKind;
use payback_store::products::ProductRow;
use serde_json::{Value, json};

use super::KIND;
use crate::error::{ApiError, ApiResult};
use crate::services::acting::Caller;
use crate::services::grants::choice::{ChoiceWords, choose_exact};
use crate::services::grants::{
    self, Access, Activation, BoxFuture, GrantProvider, GrantedKind, Selectable,
};
use crate::services::searchco::Searchco;
use crate::services::source_config;
use crate::state::AppState;

/// `search_ads` in the search-engine grant.
pub struct GoogleAds;

impl GrantedKind<Searchco> for GoogleAds {
    fn kind(&self) -> ConnectionKind {
        KIND
    }

    fn scopes(&self) -> &'static [&'static str] {
        &[SEARCH_ADS_SCOPE]
    }

    fn access(&self) -> Access {
        Access {
            title: "Google Ads (search ads)",
            lines: &[
                "Read the spend, clicks and conversions of the account you choose next, with its campaigns, ad groups, ads and keywords.",
                "Change a campaign budget only after a person approves that change in Payback's approval queue.",
                "Read the account's final URL suffix; change it only when a person presses the button in Payback's dashboard.",
            ],
        }
    }

    fn choice_field(&self) -> &'static str {
        WORDS.field
    }

    /// The accounts the grant reaches, managers included (their accounts are listed beside
    /// them).
    fn discover<'a>(
        &'a self,
        state: &'a AppState,
        client: &'a OAuthClient,
        refresh_token: &'a String,
    ) -> BoxFuture<'a, Result<Value, String>> {
        Box::pin(async move {
            let (api_base_url, developer_token) =
                source_config::ads_api(state, KIND).map_err(|err| {
                    format!("Payback could not finish connecting ({err}); start again")
                })?;
            let customers = search_ads::discover_customers(
                &state.http,
                &api_base_url,
                &developer_token,
                client,
                refresh_token,
            )
            .await
            .map_err(|err| {
                grants::listing_failed(Searchco::PROVIDER, "Google Ads accounts", err)
            })?;
            Ok(json!({ "ads_customers": customers }))
        })
    }

    /// The chosen account (dashes allowed); optional when the grant reaches exactly one account
    /// that runs campaigns. The manager login comes from the discovered list.
    fn activate<'a>(
        &'a self,
        _state: &'a AppState,
        _caller: &'a Caller,
        chosen: &'a Selectable,
        choice: Option<&'a str>,
    ) -> BoxFuture<'a, ApiResult<Activation>> {
        Box::pin(async move {
            let customers: Vec<AdsCustomerOption> =
                serde_json::from_value(chosen.options["ads_customers"].clone()).unwrap_or_default();
            let customer = choose_customer(&customers, choice, &chosen.product)?;
            Ok(Activation {
                kind: KIND,
                config: json!({
                    "customer_id": customer.customer_id,
                    "login_customer_id": customer.login_customer_id,
                    "customer_name": customer.descriptive_name,
                    "currency": customer.currency_code,
                }),
                audit: json!({
                    "customer_id": customer.customer_id,
                    "login_customer_id": customer.login_customer_id,
                }),
            })
        })
    }
}

/// The ad account choice's refusals.
const WORDS: ChoiceWords = ChoiceWords {
    field: "ads_customer_id",
    offered: "an account this grant reaches",
    none: "this grant reaches no Google Ads account that runs campaigns",
};

/// The ad account to connect: the one named (dashes stripped), or the only one there is that
/// runs campaigns; never a manager, and only in the product's currency.
fn choose_customer<'a>(
    customers: &'a [AdsCustomerOption],
    chosen: Option<&str>,
    product: &ProductRow,
) -> ApiResult<&'a AdsCustomerOption> {
    let id = chosen
        .map(|text| {
            search_ads::plain_customer_id(text).ok_or_else(|| {
                ApiError::bad_request(
                    "ads_customer_id: must be a Google Ads customer id such as 123-456-7890",
                )
            })
        })
        .transpose()?;
    // A manager may be named (and is then refused in words of its own), never chosen unnamed.
    let offered: Vec<&AdsCustomerOption> = customers
        .iter()
        .filter(|customer| id.is_some() || !customer.manager)
        .collect();
    let customer = *choose_exact(
        &offered,
        id.as_deref(),
        |customer| &customer.customer_id,
        WORDS,
    )?;
    if customer.manager {
        return Err(ApiError::bad_request(format!(
            "ads_customer_id: {} is a manager account; choose one of the accounts it manages",
            customer.customer_id
        )));
    }
    if let Some(currency) = customer.currency_code.as_deref()
        && !currency.eq_ignore_ascii_case(&product.currency)
    {
        return Err(ApiError::bad_request(format!(
            "ads_customer_id: the account reports in {currency} but {} counts in {}; spend is never mixed across currencies",
            product.slug, product.currency
        )));
    }
    Ok(customer)
}

#[cfg(test)]
mod tests {
    use payback_domain::ProductStage;

    use super::*;
    use crate::services::grants::choice::refusal;

    fn product() -> ProductRow {
        ProductRow {
            id: "p1".into(),
            account_id: "a1".into(),
            slug: "shop".into(),
            name: "Shop".into(),
            currency: "USD".into(),
            domain: None,
            stage: ProductStage::Validation,
            gate_result: None,
            gate_due_date: None,
            onboarded_at: None,
            created_at: 0,
        }
    }

    fn customer(id: &str, manager: bool, currency: &str) -> AdsCustomerOption {
        AdsCustomerOption {
            customer_id: id.into(),
            descriptive_name: None,
            currency_code: Some(currency.into()),
            manager,
            login_customer_id: id.into(),
            status: None,
        }
    }

    fn chosen<'a>(
        customers: &'a [AdsCustomerOption],
        named: Option<&str>,
    ) -> ApiResult<&'a AdsCustomerOption> {
        choose_customer(customers, named, &product())
    }

    #[test]
    fn a_manager_is_never_the_only_account_and_named_is_refused_in_its_own_words() {
        let reached = [
            customer("9990001111", true, "USD"),
            customer("1234567890", false, "USD"),
        ];
        assert_eq!(
            chosen(&reached, None).map(|c| c.customer_id.as_str()).ok(),
            Some("1234567890")
        );
        assert_eq!(
            chosen(&reached, Some("123-456-7890"))
                .map(|c| c.customer_id.as_str())
                .ok(),
            Some("1234567890")
        );
        assert_eq!(
            refusal(chosen(&reached, Some("999-000-1111"))),
            "ads_customer_id: 9990001111 is a manager account; choose one of the accounts it manages"
        );
        assert_eq!(
            refusal(chosen(&reached[..1], None)),
            "ads_customer_id: this grant reaches no Google Ads account that runs campaigns"
        );
    }

    #[test]
    fn an_unknown_id_a_malformed_one_and_another_currency_are_refused() {
        let reached = [
            customer("1234567890", false, "USD"),
            customer("5550002222", false, "EUR"),
        ];
        assert_eq!(
            refusal(chosen(&reached, Some("111-222-3333"))),
            "ads_customer_id: 1112223333 is not an account this grant reaches"
        );
        assert_eq!(
            refusal(chosen(&reached, Some("shop"))),
            "ads_customer_id: must be a Google Ads customer id such as 123-456-7890"
        );
        assert!(
            refusal(chosen(&reached, Some("5550002222"))).contains("reports in EUR"),
            "another currency is refused"
        );
        assert_eq!(
            refusal(chosen(&reached, None)),
            "ads_customer_id: choose one of 1234567890, 5550002222"
        );
    }
}
