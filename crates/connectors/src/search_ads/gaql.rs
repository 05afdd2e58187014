//! The Google Ads Query Language text of every read. Values spliced into a query are checked
//! first (digits, a `YYYY-MM-DD` day, a budget's resource name), so nothing a tenant typed can
//! change a query's meaning.
//!
//! Spend queries select no status filter: removed campaigns, ad groups and ads still spent money
//! on the days they ran, and GAQL returns their rows unless told otherwise.

use crate::ConnectorError;
use crate::batch::DayRange;

/// The customer's own settings: what `test` shows, the currency every read is checked against,
/// and whether it is a manager account (which has no campaigns of its own).
pub(crate) const CUSTOMER: &str = "SELECT customer.id, customer.descriptive_name, \
     customer.currency_code, customer.time_zone, customer.manager FROM customer";

/// The account-level tracking settings the url-suffix endpoints read.
pub(crate) const URL_SUFFIX: &str = "SELECT customer.id, customer.final_url_suffix, \
     customer.auto_tagging_enabled FROM customer";

/// The customer itself (level 0) and the accounts directly under it (level 1) when it is a
/// manager: what a grant may choose from.
pub(crate) const CUSTOMER_CLIENTS: &str = "SELECT customer_client.client_customer, \
     customer_client.id, customer_client.descriptive_name, customer_client.currency_code, \
     customer_client.manager, customer_client.level, customer_client.status \
     FROM customer_client WHERE customer_client.level <= 1";

/// Each campaign's spend per day: the total every level's rows must sum to.
pub(crate) fn campaign_spend(days: &DayRange) -> Result<String, ConnectorError> {
    Ok(format!(
        "SELECT campaign.id, campaign.name, segments.date, metrics.cost_micros, \
         metrics.impressions, metrics.clicks FROM campaign WHERE {}",
        between(days)?
    ))
}

/// Each ad's spend per day, with its campaign and ad group: the rows stored at ad grain.
pub(crate) fn ad_spend(days: &DayRange) -> Result<String, ConnectorError> {
    Ok(format!(
        "SELECT campaign.id, campaign.name, ad_group.id, ad_group.name, ad_group_ad.ad.id, \
         ad_group_ad.ad.name, segments.date, metrics.cost_micros, metrics.impressions, \
         metrics.clicks FROM ad_group_ad WHERE {}",
        between(days)?
    ))
}

/// Each keyword's spend per day: a breakdown of the ads' spend by the keyword that matched.
pub(crate) fn keyword_spend(days: &DayRange) -> Result<String, ConnectorError> {
    Ok(format!(
        "SELECT campaign.id, campaign.name, ad_group.id, ad_group.name, \
         ad_group_criterion.criterion_id, ad_group_criterion.keyword.text, segments.date, \
         metrics.cost_micros, metrics.impressions, metrics.clicks FROM keyword_view WHERE {}",
        between(days)?
    ))
}

/// The campaigns a budget change may mean, with their budgets: the one named (whatever its
/// status, so a removed campaign is refused by name), or every campaign not removed.
pub(crate) fn campaign_budgets(campaign_id: Option<&str>) -> Result<String, ConnectorError> {
    let filter = match campaign_id {
        Some(id) => format!("campaign.id = {}", digits(id, "campaign id")?),
        None => "campaign.status != 'REMOVED'".to_owned(),
    };
    Ok(format!(
        "SELECT campaign.id, campaign.name, campaign.status, campaign_budget.resource_name, \
         campaign_budget.amount_micros, campaign_budget.explicitly_shared, \
         campaign_budget.reference_count, campaign_budget.status, campaign_budget.period \
         FROM campaign WHERE {filter}"
    ))
}

/// One budget's amount, read back after a change.
pub(crate) fn budget_amount(resource_name: &str) -> Result<String, ConnectorError> {
    if !is_budget_resource_name(resource_name) {
        return Err(ConnectorError::Vendor(format!(
            "Google Ads named a budget {resource_name:?}, not customers/<id>/campaignBudgets/<id>"
        )));
    }
    Ok(format!(
        "SELECT campaign_budget.resource_name, campaign_budget.amount_micros FROM \
         campaign_budget WHERE campaign_budget.resource_name = '{resource_name}'"
    ))
}

/// `segments.date BETWEEN 'first' AND 'last'` (both inclusive, as the day range is).
fn between(days: &DayRange) -> Result<String, ConnectorError> {
    for day in [&days.first, &days.last] {
        if !is_day(day) {
            return Err(ConnectorError::Config(format!(
                "{day:?} is not a YYYY-MM-DD day"
            )));
        }
    }
    Ok(format!(
        "segments.date BETWEEN '{}' AND '{}'",
        days.first, days.last
    ))
}

/// `text` when it is a plain id (digits only), else a configuration error naming `what`.
pub(crate) fn digits<'a>(text: &'a str, what: &str) -> Result<&'a str, ConnectorError> {
    if is_digits(text) {
        Ok(text)
    } else {
        Err(ConnectorError::Config(format!(
            "{what} must be digits, got {text:?}"
        )))
    }
}

pub(crate) fn is_digits(text: &str) -> bool {
    !text.is_empty() && text.len() <= 20 && text.bytes().all(|b| b.is_ascii_digit())
}

fn is_day(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 10
        && bytes.iter().enumerate().all(|(i, b)| {
            if i == 4 || i == 7 {
                *b == b'-'
            } else {
                b.is_ascii_digit()
            }
        })
}

fn is_budget_resource_name(text: &str) -> bool {
    let mut parts = text.split('/');
    matches!(
        (parts.next(), parts.next(), parts.next(), parts.next(), parts.next()),
        (Some("customers"), Some(customer), Some("campaignBudgets"), Some(budget), None)
            if is_digits(customer) && is_digits(budget)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn days(first: &str, last: &str) -> DayRange {
        DayRange {
            first: first.into(),
            last: last.into(),
        }
    }

    #[test]
    fn spend_queries_read_the_days_inclusively() {
        let range = days("2026-11-01", "2026-11-07");
        let ads = ad_spend(&range).unwrap();
        assert_eq!(
            ads,
            "SELECT campaign.id, campaign.name, ad_group.id, ad_group.name, ad_group_ad.ad.id, \
             ad_group_ad.ad.name, segments.date, metrics.cost_micros, metrics.impressions, \
             metrics.clicks FROM ad_group_ad WHERE segments.date BETWEEN '2026-11-01' AND \
             '2026-11-07'"
        );
        let campaigns = campaign_spend(&range).unwrap();
        assert!(
            campaigns.contains(
                "FROM campaign WHERE segments.date BETWEEN '2026-11-01' AND '2026-11-07'"
            )
        );
        let keywords = keyword_spend(&range).unwrap();
        assert!(
            keywords.contains("ad_group_criterion.criterion_id, ad_group_criterion.keyword.text")
        );
        assert!(keywords.contains("FROM keyword_view WHERE segments.date BETWEEN"));
        // No status filter: removed things spent money too.
        for query in [ads, campaigns, keywords] {
            assert!(!query.contains("status"), "{query}");
        }
    }

    #[test]
    fn days_that_are_not_days_never_reach_a_query() {
        let err = ad_spend(&days("2026-11-01' OR '1'='1", "2026-11-07")).unwrap_err();
        assert!(matches!(err, ConnectorError::Config(_)));
        assert!(campaign_spend(&days("2026-1-01", "2026-11-07")).is_err());
    }

    #[test]
    fn budget_queries_take_a_plain_campaign_id_or_every_live_campaign() {
        let named = campaign_budgets(Some("123")).unwrap();
        assert!(
            named.ends_with("FROM campaign WHERE campaign.id = 123"),
            "{named}"
        );
        assert!(
            named.contains("campaign_budget.explicitly_shared, campaign_budget.reference_count")
        );
        let any = campaign_budgets(None).unwrap();
        assert!(any.ends_with("WHERE campaign.status != 'REMOVED'"), "{any}");
        assert!(campaign_budgets(Some("12 OR 1=1")).is_err());
        assert!(campaign_budgets(Some("")).is_err());
    }

    #[test]
    fn a_budget_is_read_back_by_its_resource_name_only() {
        let query = budget_amount("customers/1234567890/campaignBudgets/987").unwrap();
        assert!(query.ends_with(
            "WHERE campaign_budget.resource_name = 'customers/1234567890/campaignBudgets/987'"
        ));
        assert!(budget_amount("customers/1/campaignBudgets/2' OR '1'='1").is_err());
        assert!(budget_amount("customers/1/campaigns/2").is_err());
        assert!(budget_amount("customers/1/campaignBudgets/2/x").is_err());
    }

    #[test]
    fn customer_clients_stop_at_the_first_level() {
        assert!(
            CUSTOMER_CLIENTS.ends_with("FROM customer_client WHERE customer_client.level <= 1")
        );
        assert!(
            CUSTOMER.contains("customer.currency_code") && CUSTOMER.contains("customer.manager")
        );
        assert!(URL_SUFFIX.contains("customer.final_url_suffix, customer.auto_tagging_enabled"));
    }
}
