//! Changing a campaign's daily budget in Google Ads, for a change a person approved.
//!
//! Read first (the campaign, its budget, the account's currency), decide (refuse, nothing to do,
//! or change), write with `campaignBudgets:mutate` (update mask `amountMicros` only), then read the
//! budget back: the outcome reports what Google holds, not what was asked. A budget already at
//! the target is applied with nothing sent, so applying twice changes nothing twice.
//!
//! Refused without asking Google to change anything: a budget shared by several campaigns (the
//! change would move them all), a removed campaign, an unknown one, no campaign named on an
//! account with several, a budget that is not daily, an account in another currency.

use super::client::{Account, AdsClient};
use super::customer::{self, dashed};
use super::money::{cents_to_micros, micros_to_cents};
use super::wire::GoogleAdsRow;
use super::{SearchAdsConfig, gaql};
use crate::{BudgetChange, BudgetOutcome, ConnectorError};

/// What the live state asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Plan {
    Refuse(String),
    /// The budget already reads the target.
    Unchanged {
        campaign_id: String,
        cents: i64,
    },
    Change {
        campaign_id: String,
        /// `customers/{id}/campaignBudgets/{id}`.
        budget: String,
        before_micros: i64,
        to_micros: i64,
    },
}

/// Applies `change`; an error is any failure on the way (the source's writer makes it an
/// outcome).
pub(crate) async fn apply(
    http: &reqwest::Client,
    config: &SearchAdsConfig,
    change: &BudgetChange,
) -> Result<BudgetOutcome, ConnectorError> {
    if let Some(id) = &change.campaign_id
        && !gaql::is_digits(id)
    {
        return Ok(BudgetOutcome::Refused {
            reason: format!("a Google Ads campaign id is digits, not {id:?}"),
        });
    }
    let account = config.account()?;
    let client = config.client(http).await?;
    let info = customer::read(&client, account).await?;
    if info.manager {
        return Ok(BudgetOutcome::Refused {
            reason: format!(
                "Google Ads account {} is a manager account; it has no campaigns",
                info.label()
            ),
        });
    }
    let rows = client
        .search(
            account,
            &gaql::campaign_budgets(change.campaign_id.as_deref())?,
        )
        .await?;
    match plan(change, &info.currency_code, &dashed(&info.id), &rows) {
        Plan::Refuse(reason) => Ok(BudgetOutcome::Refused { reason }),
        Plan::Unchanged { campaign_id, cents } => {
            tracing::info!(campaign_id, "google ads budget already at the target");
            Ok(BudgetOutcome::Applied {
                campaign_id,
                before_cents: cents,
                after_cents: cents,
            })
        }
        Plan::Change {
            campaign_id,
            budget,
            before_micros,
            to_micros,
        } => {
            write(&client, account, &budget, to_micros).await?;
            let after = read_back(&client, account, &budget).await?;
            if after != to_micros {
                return Ok(BudgetOutcome::Failed {
                    error: format!(
                        "Google Ads accepted the budget change to {to_micros} micros, but the \
                         budget reads {after} micros"
                    ),
                    transient: false,
                });
            }
            tracing::info!(
                campaign_id,
                before_micros,
                after,
                "google ads budget changed"
            );
            Ok(BudgetOutcome::Applied {
                campaign_id,
                before_cents: micros_to_cents(before_micros),
                after_cents: micros_to_cents(after),
            })
        }
    }
}

/// Decides from the live rows (pure, so it is tested without HTTP). `account_currency` is the
/// account's; `account` its dashed id, for reasons.
pub(crate) fn plan(
    change: &BudgetChange,
    account_currency: &str,
    account: &str,
    rows: &[GoogleAdsRow],
) -> Plan {
    if !account_currency.eq_ignore_ascii_case(change.currency.trim()) {
        return Plan::Refuse(format!(
            "Google Ads account {account} counts in {account_currency}, the change is in {}",
            change.currency.trim()
        ));
    }
    if change.to_cents <= 0 {
        return Plan::Refuse("a daily budget must be above zero".to_owned());
    }
    let Some(to_micros) = cents_to_micros(change.to_cents) else {
        return Plan::Refuse(format!("{} cents is too large a budget", change.to_cents));
    };
    let campaigns: Vec<&GoogleAdsRow> = rows
        .iter()
        .filter(|row| row.campaign.as_ref().is_some_and(|c| c.id.is_some()))
        .collect();
    let row = match &change.campaign_id {
        Some(id) => {
            let found = campaigns
                .iter()
                .find(|row| row.campaign.as_ref().and_then(|c| c.id.as_deref()) == Some(id));
            match found {
                Some(row) => *row,
                None => {
                    return Plan::Refuse(format!(
                        "campaign {id} is not in Google Ads account {account}"
                    ));
                }
            }
        }
        None => {
            let live: Vec<&GoogleAdsRow> = campaigns
                .iter()
                .copied()
                .filter(|row| status(row) != Some("REMOVED"))
                .collect();
            match live.as_slice() {
                [] => {
                    return Plan::Refuse(format!("Google Ads account {account} has no campaigns"));
                }
                [only] => *only,
                several => {
                    return Plan::Refuse(format!(
                        "name the campaign: the account has {} campaigns",
                        several.len()
                    ));
                }
            }
        }
    };
    let campaign = row.campaign.clone().unwrap_or_default();
    let campaign_id = campaign.id.unwrap_or_default();
    let called = match campaign.name.as_deref().filter(|n| !n.trim().is_empty()) {
        Some(name) => format!("campaign {campaign_id} \"{name}\""),
        None => format!("campaign {campaign_id}"),
    };
    if status(row) == Some("REMOVED") {
        return Plan::Refuse(format!("{called} was removed"));
    }
    let Some(budget) = row.campaign_budget.clone() else {
        return Plan::Refuse(format!("{called} has no budget Payback can change"));
    };
    let Some(resource_name) = budget.resource_name.filter(|name| !name.is_empty()) else {
        return Plan::Refuse(format!("{called} has no budget Payback can change"));
    };
    let references = budget.reference_count.unwrap_or(1);
    if references > 1 {
        return Plan::Refuse(format!(
            "the budget of {called} is shared by {references} campaigns; change it in Google Ads"
        ));
    }
    if budget.explicitly_shared == Some(true) {
        return Plan::Refuse(format!(
            "the budget of {called} is a shared budget; change it in Google Ads"
        ));
    }
    if budget.status.as_deref() == Some("REMOVED") {
        return Plan::Refuse(format!("the budget of {called} was removed"));
    }
    if let Some(period) = budget.period.as_deref()
        && period != "DAILY"
    {
        return Plan::Refuse(format!(
            "the budget of {called} is not a daily budget ({period}); change it in Google Ads"
        ));
    }
    let Some(before_micros) = budget.amount_micros else {
        return Plan::Refuse(format!(
            "the budget of {called} has no daily amount; change it in Google Ads"
        ));
    };
    if before_micros == to_micros {
        return Plan::Unchanged {
            campaign_id,
            cents: micros_to_cents(before_micros),
        };
    }
    Plan::Change {
        campaign_id,
        budget: resource_name,
        before_micros,
        to_micros,
    }
}

fn status(row: &GoogleAdsRow) -> Option<&str> {
    row.campaign.as_ref().and_then(|c| c.status.as_deref())
}

/// `MutateCampaignBudgetsRequest`'s JSON: one update of the amount only (int64 as a JSON string,
/// the field mask in lowerCamelCase, as proto3's JSON mapping writes them).
fn operation(budget: &str, to_micros: i64) -> serde_json::Value {
    serde_json::json!({
        "operations": [{
            "update": {"resourceName": budget, "amountMicros": to_micros.to_string()},
            "updateMask": "amountMicros",
        }]
    })
}

async fn write(
    client: &AdsClient,
    account: Account<'_>,
    budget: &str,
    to_micros: i64,
) -> Result<(), ConnectorError> {
    client
        .mutate(account, "campaignBudgets", &operation(budget, to_micros))
        .await
        .map(|_| ())
}

async fn read_back(
    client: &AdsClient,
    account: Account<'_>,
    budget: &str,
) -> Result<i64, ConnectorError> {
    client
        .search(account, &gaql::budget_amount(budget)?)
        .await?
        .into_iter()
        .find_map(|row| row.campaign_budget.and_then(|b| b.amount_micros))
        .ok_or_else(|| {
            ConnectorError::Vendor(format!("the budget {budget} could not be read back"))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(campaign: Option<&str>, cents: i64) -> BudgetChange {
        BudgetChange {
            campaign_id: campaign.map(str::to_owned),
            to_cents: cents,
            currency: "USD".into(),
        }
    }

    fn row(id: &str, status: &str, budget: serde_json::Value) -> serde_json::Value {
        serde_json::json!({
            "campaign": {"resourceName": format!("customers/1/campaigns/{id}"), "id": id,
                         "name": format!("C{id}"), "status": status},
            "campaignBudget": budget,
        })
    }

    fn budget(id: &str, micros: i64) -> serde_json::Value {
        serde_json::json!({
            "resourceName": format!("customers/1/campaignBudgets/{id}"),
            "amountMicros": micros.to_string(), "explicitlyShared": false,
            "referenceCount": "1", "status": "ENABLED", "period": "DAILY"
        })
    }

    fn rows(items: Vec<serde_json::Value>) -> Vec<GoogleAdsRow> {
        serde_json::from_value(serde_json::Value::Array(items)).unwrap()
    }

    fn refused(plan: Plan) -> String {
        match plan {
            Plan::Refuse(reason) => reason,
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn the_only_campaign_is_changed_in_micros() {
        let live = rows(vec![row("11", "ENABLED", budget("91", 20_000_000))]);
        assert_eq!(
            plan(&change(None, 2_500), "USD", "000-000-0001", &live),
            Plan::Change {
                campaign_id: "11".into(),
                budget: "customers/1/campaignBudgets/91".into(),
                before_micros: 20_000_000,
                to_micros: 25_000_000,
            }
        );
        assert_eq!(
            operation("customers/1/campaignBudgets/91", 25_000_000),
            serde_json::json!({"operations": [{
                "update": {"resourceName": "customers/1/campaignBudgets/91", "amountMicros": "25000000"},
                "updateMask": "amountMicros"}]})
        );
    }

    #[test]
    fn a_budget_at_the_target_sends_nothing() {
        let live = rows(vec![row("11", "PAUSED", budget("91", 25_000_000))]);
        assert_eq!(
            plan(&change(Some("11"), 2_500), "USD", "a", &live),
            Plan::Unchanged {
                campaign_id: "11".into(),
                cents: 2_500
            }
        );
    }

    #[test]
    fn several_campaigns_need_a_name() {
        let live = rows(vec![
            row("11", "ENABLED", budget("91", 1)),
            row("12", "PAUSED", budget("92", 1)),
        ]);
        let reason = refused(plan(&change(None, 100), "USD", "a", &live));
        assert_eq!(reason, "name the campaign: the account has 2 campaigns");
        assert!(matches!(
            plan(&change(Some("12"), 100), "USD", "a", &live),
            Plan::Change { campaign_id, .. } if campaign_id == "12"
        ));
        let none = refused(plan(&change(None, 100), "USD", "123-456-7890", &[]));
        assert!(none.contains("has no campaigns"), "{none}");
    }

    #[test]
    fn shared_budgets_removed_and_unknown_campaigns_are_refused() {
        let mut shared = budget("91", 1);
        shared["explicitlyShared"] = true.into();
        shared["referenceCount"] = "3".into();
        let live = rows(vec![row("11", "ENABLED", shared)]);
        let reason = refused(plan(&change(Some("11"), 100), "USD", "a", &live));
        assert_eq!(
            reason,
            "the budget of campaign 11 \"C11\" is shared by 3 campaigns; change it in Google Ads"
        );

        let removed = rows(vec![row("11", "REMOVED", budget("91", 1))]);
        let reason = refused(plan(&change(Some("11"), 100), "USD", "a", &removed));
        assert!(reason.ends_with("was removed"), "{reason}");

        let reason = refused(plan(&change(Some("99"), 100), "USD", "123-456-7890", &[]));
        assert_eq!(
            reason,
            "campaign 99 is not in Google Ads account 123-456-7890"
        );

        let mut total = budget("91", 1);
        total["period"] = "CUSTOM_PERIOD".into();
        let custom = rows(vec![row("11", "ENABLED", total)]);
        let reason = refused(plan(&change(None, 100), "USD", "a", &custom));
        assert!(
            reason.contains("not a daily budget (CUSTOM_PERIOD)"),
            "{reason}"
        );
    }

    #[test]
    fn another_currency_is_refused() {
        let live = rows(vec![row("11", "ENABLED", budget("91", 1))]);
        let reason = refused(plan(&change(None, 100), "EUR", "123-456-7890", &live));
        assert_eq!(
            reason,
            "Google Ads account 123-456-7890 counts in EUR, the change is in USD"
        );
    }
}
