//! Changing a campaign's daily budget in Meta, for a change a person approved.
//!
//! Read first (the account's currency, the campaign, and its ad sets when the budget is not the
//! campaign's), decide (refuse, nothing to do, or change), write (`POST /{id}` with
//! `daily_budget`), then read the object back: the outcome reports what Meta holds, not what was
//! asked. A budget already at the target is applied with nothing sent, so applying twice changes
//! nothing twice.
//!
//! Where the budget lives: a campaign with a `daily_budget` uses Advantage campaign budget, and
//! that is the budget changed. Otherwise the budget is the ad sets': exactly one active ad set
//! with a daily budget is changed; several (the change would have to be split), lifetime
//! budgets, a deleted or archived campaign, a campaign of another account, and an account in
//! another currency are refused without writing anything. Without a named campaign, the
//! account's only active campaign is the one; several (or none) are refused.

use serde::Deserialize;

use super::SocialAdsAConfig;
use super::account;
use super::money::{budget_to_cents, cents_to_budget};
use crate::graph::client::GraphClient;
use crate::graph::errors::FailureKind;
use crate::graph::wire::{self, Success};
use crate::{BudgetChange, BudgetOutcome, ConnectorError};

const CAMPAIGN_FIELDS: &str =
    "id,name,status,effective_status,daily_budget,lifetime_budget,budget_remaining,account_id";
const AD_SET_FIELDS: &str = "id,name,status,effective_status,daily_budget,lifetime_budget";

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub(crate) struct CampaignNode {
    #[serde(deserialize_with = "wire::id")]
    pub id: Option<String>,
    pub name: Option<String>,
    /// `ACTIVE`, `PAUSED`, `DELETED`, `ARCHIVED`.
    pub status: Option<String>,
    pub effective_status: Option<String>,
    #[serde(deserialize_with = "wire::int")]
    pub daily_budget: Option<i64>,
    #[serde(deserialize_with = "wire::int")]
    pub lifetime_budget: Option<i64>,
    #[serde(deserialize_with = "wire::id")]
    pub account_id: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub(crate) struct AdSetNode {
    #[serde(deserialize_with = "wire::id")]
    pub id: Option<String>,
    pub name: Option<String>,
    pub status: Option<String>,
    pub effective_status: Option<String>,
    #[serde(deserialize_with = "wire::int")]
    pub daily_budget: Option<i64>,
    #[serde(deserialize_with = "wire::int")]
    pub lifetime_budget: Option<i64>,
}

/// `{"daily_budget": "5000"}`, the read-back.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct BudgetNode {
    #[serde(deserialize_with = "wire::int")]
    daily_budget: Option<i64>,
}

/// What the campaign alone says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CampaignStep {
    Refuse(String),
    /// The campaign's own (Advantage campaign) daily budget, in minor units.
    Campaign {
        before: i64,
    },
    /// The budget lives on the ad sets.
    AdSets,
}

/// What the ad sets say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum AdSetStep {
    Refuse(String),
    AdSet { id: String, before: i64 },
}

/// Applies `change`; an error is any failure on the way (the source's writer makes it an
/// outcome).
pub(crate) async fn apply(
    http: &reqwest::Client,
    config: &SocialAdsAConfig,
    change: &BudgetChange,
) -> Result<BudgetOutcome, ConnectorError> {
    let refuse = |reason: String| Ok(BudgetOutcome::Refused { reason });
    if let Some(id) = &change.campaign_id
        && (id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()))
    {
        return refuse(format!("a Meta campaign id is digits, not {id:?}"));
    }
    let account_id = config.account_id()?;
    let client = config.client(http)?;
    let info = account::read(&client, &account_id).await?;
    let currency = info.currency.clone();
    if !currency.eq_ignore_ascii_case(change.currency.trim()) {
        return refuse(format!(
            "Meta ad account {} counts in {currency}, the change is in {}",
            info.label(),
            change.currency.trim().to_ascii_uppercase()
        ));
    }
    if change.to_cents <= 0 {
        return refuse("a daily budget must be above zero".to_owned());
    }
    let target = match cents_to_budget(change.to_cents, &currency) {
        Ok(minor) => minor,
        Err(reason) => return refuse(reason),
    };
    let campaign = match &change.campaign_id {
        Some(id) => match read_campaign(&client, id).await? {
            Some(campaign) => campaign,
            None => {
                return refuse(format!(
                    "campaign {id} is not in Meta ad account {} (or this grant cannot reach it)",
                    info.label()
                ));
            }
        },
        None => {
            let campaigns: Vec<CampaignNode> = client
                .get_all(
                    &format!("act_{account_id}/campaigns"),
                    &[
                        ("fields", CAMPAIGN_FIELDS.to_owned()),
                        ("limit", "100".to_owned()),
                    ],
                )
                .await?;
            match only_active(&campaigns, &info.label()) {
                Ok(campaign) => campaign.clone(),
                Err(reason) => return refuse(reason),
            }
        }
    };
    let campaign_id = campaign.id.clone().unwrap_or_default();
    if let Some(owner) = campaign.account_id.as_deref()
        && owner != account_id
    {
        return refuse(format!(
            "{} belongs to Meta ad account {owner}, not {}",
            called("campaign", campaign.id.as_deref(), campaign.name.as_deref()),
            info.label()
        ));
    }
    let (object_id, before) = match campaign_step(&campaign) {
        CampaignStep::Refuse(reason) => return refuse(reason),
        CampaignStep::Campaign { before } => (campaign_id.clone(), before),
        CampaignStep::AdSets => {
            let ad_sets: Vec<AdSetNode> = client
                .get_all(
                    &format!("{campaign_id}/adsets"),
                    &[
                        ("fields", AD_SET_FIELDS.to_owned()),
                        ("limit", "100".to_owned()),
                    ],
                )
                .await?;
            match ad_set_step(&campaign, &ad_sets) {
                AdSetStep::Refuse(reason) => return refuse(reason),
                AdSetStep::AdSet { id, before } => (id, before),
            }
        }
    };
    let cents = |minor: i64| {
        budget_to_cents(minor, &currency).ok_or_else(|| {
            ConnectorError::Vendor(format!("Meta's budget {minor} does not fit in cents"))
        })
    };
    let before_cents = cents(before)?;
    if before == target {
        tracing::info!(campaign_id, object_id, "meta budget already at the target");
        return Ok(BudgetOutcome::Applied {
            campaign_id,
            before_cents,
            after_cents: before_cents,
        });
    }
    let written: Success = client
        .post(&object_id, &[("daily_budget", target.to_string())])
        .await?;
    if written.success == Some(false) {
        return Ok(BudgetOutcome::Failed {
            error: format!("Meta answered success: false to the budget change of {object_id}"),
            transient: false,
        });
    }
    let after = client
        .get::<BudgetNode>(&object_id, &[("fields", "daily_budget".to_owned())])
        .await?
        .daily_budget
        .unwrap_or(0);
    if after != target {
        return Ok(BudgetOutcome::Failed {
            error: format!(
                "Meta accepted the daily budget of {object_id} as {target}, but it reads {after}"
            ),
            transient: false,
        });
    }
    tracing::info!(campaign_id, object_id, before, after, "meta budget changed");
    Ok(BudgetOutcome::Applied {
        campaign_id,
        before_cents,
        after_cents: cents(after)?,
    })
}

/// The campaign, or `None` when Meta says no such object exists for this token.
async fn read_campaign(
    client: &GraphClient,
    id: &str,
) -> Result<Option<CampaignNode>, ConnectorError> {
    match client
        .get::<CampaignNode>(id, &[("fields", CAMPAIGN_FIELDS.to_owned())])
        .await
    {
        Ok(campaign) if campaign.id.is_none() => Ok(Some(CampaignNode {
            id: Some(id.to_owned()),
            ..campaign
        })),
        Ok(campaign) => Ok(Some(campaign)),
        Err(err) if err.kind == Some(FailureKind::Missing) => Ok(None),
        Err(err) => Err(err.into()),
    }
}

/// The account's only active campaign, or why there is not exactly one.
pub(crate) fn only_active<'a>(
    campaigns: &'a [CampaignNode],
    account: &str,
) -> Result<&'a CampaignNode, String> {
    let active: Vec<&CampaignNode> = campaigns
        .iter()
        .filter(|campaign| campaign.id.is_some() && is(&campaign.status, "ACTIVE"))
        .collect();
    match active.as_slice() {
        [only] => Ok(only),
        [] => Err(format!("Meta ad account {account} has no active campaign")),
        several => Err(format!(
            "name the campaign: Meta ad account {account} has {} active campaigns",
            several.len()
        )),
    }
}

/// Where the campaign's budget lives, from the campaign alone (pure, so it is tested without
/// HTTP).
pub(crate) fn campaign_step(campaign: &CampaignNode) -> CampaignStep {
    let label = called("campaign", campaign.id.as_deref(), campaign.name.as_deref());
    for gone in ["DELETED", "ARCHIVED"] {
        if is(&campaign.status, gone) || is(&campaign.effective_status, gone) {
            return CampaignStep::Refuse(format!(
                "{label} is {}; its budget cannot change",
                gone.to_ascii_lowercase()
            ));
        }
    }
    if let Some(daily) = positive(campaign.daily_budget) {
        return CampaignStep::Campaign { before: daily };
    }
    if positive(campaign.lifetime_budget).is_some() {
        return CampaignStep::Refuse(format!(
            "{label} has a lifetime budget; Payback only changes daily budgets"
        ));
    }
    CampaignStep::AdSets
}

/// Which ad set holds the budget of a campaign without its own (pure).
pub(crate) fn ad_set_step(campaign: &CampaignNode, ad_sets: &[AdSetNode]) -> AdSetStep {
    let label = called("campaign", campaign.id.as_deref(), campaign.name.as_deref());
    let active: Vec<&AdSetNode> = ad_sets
        .iter()
        .filter(|set| set.id.is_some() && is(&set.status, "ACTIVE"))
        .collect();
    let set = match active.as_slice() {
        [only] => *only,
        [] => {
            return AdSetStep::Refuse(format!(
                "{label} has no budget of its own and no active ad set"
            ));
        }
        several => {
            return AdSetStep::Refuse(format!(
                "{label} splits its budget over {} active ad sets; change them in Ads Manager, \
                 Payback will not guess how to split it",
                several.len()
            ));
        }
    };
    let set_label = called("ad set", set.id.as_deref(), set.name.as_deref());
    if let Some(daily) = positive(set.daily_budget) {
        return AdSetStep::AdSet {
            id: set.id.clone().unwrap_or_default(),
            before: daily,
        };
    }
    if positive(set.lifetime_budget).is_some() {
        return AdSetStep::Refuse(format!(
            "{set_label} of {label} has a lifetime budget; Payback only changes daily budgets"
        ));
    }
    AdSetStep::Refuse(format!("{set_label} of {label} has no daily budget"))
}

fn is(status: &Option<String>, word: &str) -> bool {
    status
        .as_deref()
        .is_some_and(|status| status.trim().eq_ignore_ascii_case(word))
}

/// Meta writes an unset budget as absent or `"0"`.
fn positive(amount: Option<i64>) -> Option<i64> {
    amount.filter(|amount| *amount > 0)
}

/// `campaign 123 "Brand"`.
fn called(what: &str, id: Option<&str>, name: Option<&str>) -> String {
    let id = id.unwrap_or("?");
    match name.filter(|name| !name.trim().is_empty()) {
        Some(name) => format!("{what} {id} \"{name}\""),
        None => format!("{what} {id}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn campaign(json: &str) -> CampaignNode {
        serde_json::from_str(json).unwrap()
    }

    fn ad_sets(json: &str) -> Vec<AdSetNode> {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn an_advantage_campaign_budget_is_the_campaigns() {
        let brand = campaign(
            r#"{"id": "11", "name": "Brand", "status": "ACTIVE", "effective_status": "ACTIVE",
                "daily_budget": "5000", "budget_remaining": "3100", "account_id": "123"}"#,
        );
        assert_eq!(
            campaign_step(&brand),
            CampaignStep::Campaign { before: 5_000 }
        );
        // A paused campaign's budget can still be changed.
        let paused = campaign(r#"{"id": "11", "status": "PAUSED", "daily_budget": "700"}"#);
        assert_eq!(
            campaign_step(&paused),
            CampaignStep::Campaign { before: 700 }
        );
    }

    #[test]
    fn lifetime_and_removed_campaigns_are_refused() {
        let lifetime = campaign(
            r#"{"id": "11", "name": "Launch", "status": "ACTIVE", "lifetime_budget": "100000", "daily_budget": "0"}"#,
        );
        assert_eq!(
            campaign_step(&lifetime),
            CampaignStep::Refuse(
                "campaign 11 \"Launch\" has a lifetime budget; Payback only changes daily budgets"
                    .into()
            )
        );
        let deleted = campaign(r#"{"id": "12", "status": "DELETED", "daily_budget": "5000"}"#);
        assert_eq!(
            campaign_step(&deleted),
            CampaignStep::Refuse("campaign 12 is deleted; its budget cannot change".into())
        );
        let archived = campaign(
            r#"{"id": "13", "status": "PAUSED", "effective_status": "ARCHIVED", "daily_budget": "5000"}"#,
        );
        assert!(
            matches!(campaign_step(&archived), CampaignStep::Refuse(r) if r.contains("archived"))
        );
        let ad_set_budget = campaign(r#"{"id": "14", "status": "ACTIVE"}"#);
        assert_eq!(campaign_step(&ad_set_budget), CampaignStep::AdSets);
    }

    #[test]
    fn exactly_one_active_ad_set_with_a_daily_budget_is_changed() {
        let owner = campaign(r#"{"id": "14", "name": "Prospecting", "status": "ACTIVE"}"#);
        let one = ad_sets(
            r#"[{"id": "141", "name": "US", "status": "ACTIVE", "daily_budget": "2500"},
                {"id": "142", "name": "Old", "status": "PAUSED", "daily_budget": "900"},
                {"id": "143", "name": "Gone", "status": "DELETED", "daily_budget": "900"}]"#,
        );
        assert_eq!(
            ad_set_step(&owner, &one),
            AdSetStep::AdSet {
                id: "141".into(),
                before: 2_500
            }
        );
        let several = ad_sets(
            r#"[{"id": "141", "status": "ACTIVE", "daily_budget": "2500"},
                {"id": "142", "status": "ACTIVE", "daily_budget": "900"}]"#,
        );
        assert!(matches!(ad_set_step(&owner, &several),
            AdSetStep::Refuse(r) if r.contains("splits its budget over 2 active ad sets")));
        let lifetime = ad_sets(
            r#"[{"id": "141", "name": "US", "status": "ACTIVE", "lifetime_budget": "90000"}]"#,
        );
        assert_eq!(
            ad_set_step(&owner, &lifetime),
            AdSetStep::Refuse(
                "ad set 141 \"US\" of campaign 14 \"Prospecting\" has a lifetime budget; Payback \
                 only changes daily budgets"
                    .into()
            )
        );
        assert!(matches!(ad_set_step(&owner, &[]),
            AdSetStep::Refuse(r) if r.contains("no active ad set")));
    }

    #[test]
    fn without_a_named_campaign_only_a_single_active_one_is_changed() {
        let campaigns: Vec<CampaignNode> = serde_json::from_str(
            r#"[{"id": "1", "status": "ACTIVE"}, {"id": "2", "status": "PAUSED"}, {"id": "3", "status": "DELETED"}]"#,
        )
        .unwrap();
        assert_eq!(
            only_active(&campaigns, "123").unwrap().id.as_deref(),
            Some("1")
        );
        let several: Vec<CampaignNode> = serde_json::from_str(
            r#"[{"id": "1", "status": "ACTIVE"}, {"id": "2", "status": "ACTIVE"}]"#,
        )
        .unwrap();
        assert_eq!(
            only_active(&several, "123").unwrap_err(),
            "name the campaign: Meta ad account 123 has 2 active campaigns"
        );
        assert_eq!(
            only_active(&[], "123").unwrap_err(),
            "Meta ad account 123 has no active campaign"
        );
    }
}
