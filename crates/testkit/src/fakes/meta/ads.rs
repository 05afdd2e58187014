//! The Marketing API's objects (Marketing API reference: Ad Account, Campaign, Ad Set, Ad):
//! - `GET /me/adaccounts`, `GET /act_{id}`, `GET /act_{id}/{campaigns,adsets,ads}`,
//!   `GET /{campaign-id}` and `/{campaign-id}/{adsets,ads}`, `GET /{adset-id}` and
//!   `/{adset-id}/ads`, `GET /{ad-id}`, with `fields` and cursor paging; edges leave out deleted
//!   and archived objects unless `effective_status` asks for them,
//! - `POST /{campaign-id}` and `POST /{adset-id}` with `daily_budget` or `lifetime_budget`
//!   (minor units, form or query parameters) answer `{"success": true}`.
//!
//! Budgets are strings of minor units (`"5000"` is 50.00 USD). An object's budget is at one
//! level only: a campaign with a campaign budget (Advantage campaign budget) refuses ad set
//! budgets (`100`, subcode 1885621), and a campaign without one has no campaign budget to
//! change. An ad set's budget may change four times an hour (then `17`, "User request limit
//! reached").

use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};

use super::context::{Ctx, Object};
use super::errors::{
    GraphError, Reply, ads_management_missing, ads_read_missing, invalid_param, unsupported,
};
use super::fields::{NodeType, select};
use super::paging::paged;
use super::state::{
    Ad, AdAccount, AdSet, Budget, BudgetChange, BudgetField, Campaign, State as FakeState, Status,
};

const AD_ACCOUNT: NodeType = NodeType {
    name: "AdAccount",
    fields: &[
        "id",
        "account_id",
        "name",
        "currency",
        "account_status",
        "timezone_name",
        "disable_reason",
    ],
    defaults: &["account_id"],
};

const CAMPAIGN: NodeType = NodeType {
    name: "Campaign",
    fields: &[
        "id",
        "account_id",
        "name",
        "status",
        "configured_status",
        "effective_status",
        "objective",
        "buying_type",
        "daily_budget",
        "lifetime_budget",
        "budget_remaining",
    ],
    defaults: &[],
};

const ADSET: NodeType = NodeType {
    name: "AdSet",
    fields: &[
        "id",
        "account_id",
        "campaign_id",
        "name",
        "status",
        "configured_status",
        "effective_status",
        "daily_budget",
        "lifetime_budget",
        "budget_remaining",
    ],
    defaults: &[],
};

const AD: NodeType = NodeType {
    name: "Ad",
    fields: &[
        "id",
        "account_id",
        "campaign_id",
        "adset_id",
        "name",
        "status",
        "configured_status",
        "effective_status",
    ],
    defaults: &[],
};

/// Reading ads objects takes `ads_read` or `ads_management` on a user token.
pub(crate) fn require_read(ctx: &Ctx<'_>) -> Result<(), GraphError> {
    let caller = &ctx.caller;
    if caller.is_user() && (caller.has("ads_read") || caller.has("ads_management")) {
        Ok(())
    } else {
        Err(ads_read_missing())
    }
}

fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// `daily_budget` and `lifetime_budget` as Graph writes them: minor units in strings, `"0"` for
/// the other kind, left out when the budget lives at the other level.
fn budget_fields(budget: Budget) -> (Value, Value) {
    match budget {
        Budget::None => (Value::Null, Value::Null),
        Budget::Daily(amount) => (json!(amount.to_string()), json!("0")),
        Budget::Lifetime(amount) => (json!("0"), json!(amount.to_string())),
    }
}

/// `budget_remaining` (minor units, a string): the fake models no delivery pacing, so the
/// whole budget remains; "0" where the object has no budget of its own.
fn remaining(budget: Budget) -> Value {
    match budget {
        Budget::None => json!("0"),
        Budget::Daily(amount) | Budget::Lifetime(amount) => json!(amount.to_string()),
    }
}

fn account_json(account: &AdAccount) -> Map<String, Value> {
    object(json!({
        "id": format!("act_{}", account.id),
        "account_id": account.id.to_string(),
        "name": account.name,
        "currency": account.currency,
        "account_status": account.account_status,
        "timezone_name": account.timezone_name,
        "disable_reason": 0,
    }))
}

fn campaign_json(campaign: &Campaign) -> Map<String, Value> {
    let (daily, lifetime) = budget_fields(campaign.budget);
    object(json!({
        "id": campaign.id.to_string(),
        "account_id": campaign.account.to_string(),
        "name": campaign.name,
        "status": campaign.status.wire(),
        "configured_status": campaign.status.wire(),
        "effective_status": campaign.status.wire(),
        "objective": campaign.objective,
        "buying_type": "AUCTION",
        "budget_remaining": remaining(campaign.budget),
        "daily_budget": daily,
        "lifetime_budget": lifetime,
    }))
}

/// The status an object runs with: its own, unless a parent is paused.
fn effective(own: Status, parents: &[(Status, &'static str)]) -> &'static str {
    if own != Status::Active {
        return own.wire();
    }
    parents
        .iter()
        .find(|(status, _)| *status != Status::Active)
        .map_or(own.wire(), |(_, paused)| *paused)
}

fn adset_json(state: &FakeState, adset: &AdSet) -> Map<String, Value> {
    let campaign = state
        .campaign(adset.campaign)
        .map_or(Status::Active, |c| c.status);
    let (daily, lifetime) = budget_fields(adset.budget);
    object(json!({
        "id": adset.id.to_string(),
        "account_id": adset.account.to_string(),
        "campaign_id": adset.campaign.to_string(),
        "name": adset.name,
        "status": adset.status.wire(),
        "configured_status": adset.status.wire(),
        "effective_status": effective(adset.status, &[(campaign, "CAMPAIGN_PAUSED")]),
        "budget_remaining": remaining(adset.budget),
        "daily_budget": daily,
        "lifetime_budget": lifetime,
    }))
}

fn ad_json(state: &FakeState, ad: &Ad) -> Map<String, Value> {
    let campaign = state
        .campaign(ad.campaign)
        .map_or(Status::Active, |c| c.status);
    let adset = state.adset(ad.adset).map_or(Status::Active, |s| s.status);
    object(json!({
        "id": ad.id.to_string(),
        "account_id": ad.account.to_string(),
        "campaign_id": ad.campaign.to_string(),
        "adset_id": ad.adset.to_string(),
        "name": ad.name,
        "status": ad.status.wire(),
        "configured_status": ad.status.wire(),
        "effective_status": effective(
            ad.status,
            &[(campaign, "CAMPAIGN_PAUSED"), (adset, "ADSET_PAUSED")],
        ),
    }))
}

/// `GET /me/adaccounts`.
pub(crate) fn adaccounts(state: &FakeState, ctx: &Ctx<'_>) -> Reply {
    require_read(ctx)?;
    let fields = ctx.fields()?;
    let items = state
        .accounts
        .iter()
        .map(|account| select(AD_ACCOUNT, &account_json(account), fields.as_deref()))
        .collect::<Result<Vec<_>, _>>()?;
    paged(items, &ctx.listing(state))
}

/// `GET /act_{id}`.
pub(crate) fn account(state: &FakeState, ctx: &Ctx<'_>, id: i64) -> Reply {
    require_read(ctx)?;
    let account = state
        .account(id)
        .ok_or_else(|| unsupported("get", &format!("act_{id}")))?;
    select(AD_ACCOUNT, &account_json(account), ctx.fields()?.as_deref())
}

pub(crate) fn campaign(state: &FakeState, ctx: &Ctx<'_>, id: i64) -> Reply {
    require_read(ctx)?;
    let campaign = state
        .campaign(id)
        .ok_or_else(|| unsupported("get", &id.to_string()))?;
    select(CAMPAIGN, &campaign_json(campaign), ctx.fields()?.as_deref())
}

pub(crate) fn adset(state: &FakeState, ctx: &Ctx<'_>, id: i64) -> Reply {
    require_read(ctx)?;
    let adset = state
        .adset(id)
        .ok_or_else(|| unsupported("get", &id.to_string()))?;
    select(ADSET, &adset_json(state, adset), ctx.fields()?.as_deref())
}

pub(crate) fn ad(state: &FakeState, ctx: &Ctx<'_>, id: i64) -> Reply {
    require_read(ctx)?;
    let ad = state
        .ad(id)
        .ok_or_else(|| unsupported("get", &id.to_string()))?;
    select(AD, &ad_json(state, ad), ctx.fields()?.as_deref())
}

/// The `effective_status` filter of an edge: a JSON array of statuses; by default everything
/// but deleted and archived objects.
fn status_filter(ctx: &Ctx<'_>) -> Result<Option<Vec<String>>, GraphError> {
    let Some(text) = ctx.params.get("effective_status") else {
        return Ok(None);
    };
    serde_json::from_str::<Vec<String>>(text)
        .map(Some)
        .map_err(|_| invalid_param("Param effective_status must be an array of statuses"))
}

fn shown(filter: &Option<Vec<String>>, item: &Map<String, Value>) -> bool {
    let status = item
        .get("effective_status")
        .and_then(Value::as_str)
        .unwrap_or("");
    match filter {
        Some(wanted) => wanted.iter().any(|w| w == status),
        None => !matches!(status, "DELETED" | "ARCHIVED"),
    }
}

/// `campaigns`, `adsets` or `ads` under an account, a campaign or an ad set.
pub(crate) fn edge(state: &FakeState, ctx: &Ctx<'_>, parent: &Object, edge: &str) -> Reply {
    require_read(ctx)?;
    let filter = status_filter(ctx)?;
    let fields = ctx.fields()?;
    let under = |account: i64, campaign: i64, adset: Option<i64>| match parent {
        Object::Account(id) => *id == account,
        Object::Campaign(id) => *id == campaign,
        Object::AdSet(id) => Some(*id) == adset,
        _ => false,
    };
    let (node, items): (NodeType, Vec<Map<String, Value>>) = match edge {
        "campaigns" => (
            CAMPAIGN,
            state
                .campaigns
                .iter()
                .filter(|c| under(c.account, c.id, None))
                .map(campaign_json)
                .collect(),
        ),
        "adsets" => (
            ADSET,
            state
                .adsets
                .iter()
                .filter(|s| under(s.account, s.campaign, Some(s.id)))
                .map(|s| adset_json(state, s))
                .collect(),
        ),
        _ => (
            AD,
            state
                .ads
                .iter()
                .filter(|a| under(a.account, a.campaign, Some(a.adset)))
                .map(|a| ad_json(state, a))
                .collect(),
        ),
    };
    let selected = items
        .iter()
        .filter(|item| shown(&filter, item))
        .map(|item| select(node, item, fields.as_deref()))
        .collect::<Result<Vec<_>, _>>()?;
    paged(selected, &ctx.listing(state))
}

/// Parameters a budget write may carry besides the budget.
const WRITE_PARAMS: &[&str] = &[
    "access_token",
    "appsecret_proof",
    "daily_budget",
    "lifetime_budget",
];

/// Budgets below this many minor units are refused (Meta's minimums depend on currency and
/// optimization; one unit of the currency stands in for them).
const MINIMUM_BUDGET: i64 = 100;

/// Changes of one ad set's budget allowed within an hour.
const ADSET_BUDGET_WRITES_PER_HOUR: usize = 4;

fn budget_param(ctx: &Ctx<'_>) -> Result<(BudgetField, i64), GraphError> {
    if let Some((name, _)) = ctx
        .params
        .pairs()
        .iter()
        .find(|(name, _)| !WRITE_PARAMS.contains(&name.as_str()))
    {
        return Err(invalid_param(format!(
            "Param {name} is not modelled by the fake Meta, which takes daily_budget or lifetime_budget"
        )));
    }
    let field = match (
        ctx.params.get("daily_budget"),
        ctx.params.get("lifetime_budget"),
    ) {
        (Some(_), Some(_)) => {
            return Err(invalid_param(
                "Only one of daily_budget and lifetime_budget can be set",
            ));
        }
        (Some(_), None) => BudgetField::Daily,
        (None, Some(_)) => BudgetField::Lifetime,
        (None, None) => {
            return Err(invalid_param(
                "The update has no daily_budget or lifetime_budget",
            ));
        }
    };
    let text = ctx.params.get(field.wire()).unwrap_or("");
    let amount = text
        .parse::<i64>()
        .ok()
        .filter(|amount| *amount > 0 && text.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| {
            invalid_param(format!(
                "Param {} must be a positive integer of the currency's minor units",
                field.wire()
            ))
        })?;
    if amount < MINIMUM_BUDGET {
        return Err(GraphError::new(100, "Invalid parameter").user(
            "Your Budget Is Too Low",
            format!(
                "The minimum budget is {MINIMUM_BUDGET} in the currency's minor units; {amount} is below it."
            ),
        ));
    }
    Ok((field, amount))
}

fn budget_type_change() -> GraphError {
    GraphError::new(100, "Invalid parameter").user(
        "Budget Type Can't Be Changed",
        "A daily budget can't be changed to a lifetime budget or the other way round.",
    )
}

/// `POST /{campaign-id}` or `POST /{adset-id}` with a budget.
pub(crate) fn write_budget(
    state: &mut FakeState,
    ctx: &Ctx<'_>,
    target: &Object,
    id: i64,
) -> Reply {
    if !(ctx.caller.is_user() && ctx.caller.has("ads_management")) {
        return Err(ads_management_missing());
    }
    let (field, amount) = budget_param(ctx)?;
    let current = match target {
        Object::Campaign(_) => {
            let campaign = state
                .campaign(id)
                .ok_or_else(|| unsupported("post", &id.to_string()))?;
            if campaign.budget == Budget::None {
                return Err(GraphError::new(100, "Invalid parameter").user(
                    "Campaign Has No Campaign Budget",
                    "This campaign's ad sets have their own budgets; change an ad set's budget instead.",
                ));
            }
            campaign.budget
        }
        _ => {
            let adset = state
                .adset(id)
                .ok_or_else(|| unsupported("post", &id.to_string()))?;
            let campaign_budget = state
                .campaign(adset.campaign)
                .map_or(Budget::None, |c| c.budget);
            if campaign_budget != Budget::None {
                return Err(GraphError::new(100, "Invalid parameter")
                    .subcode(1_885_621)
                    .user(
                        "Budget Conflict",
                        "Campaign Already Has a Budget: this ad set's campaign uses a campaign budget, so the ad set can't have one.",
                    ));
            }
            let hour_ago = Instant::now().checked_sub(Duration::from_secs(3600));
            let recent = adset
                .budget_writes
                .iter()
                .filter(|at| hour_ago.is_none_or(|start| **at > start))
                .count();
            if recent >= ADSET_BUDGET_WRITES_PER_HOUR {
                return Err(
                    GraphError::new(17, "(#17) User request limit reached").user(
                        "Too Many Budget Changes",
                        "An ad set's budget can change four times an hour; try again later.",
                    ),
                );
            }
            adset.budget
        }
    };
    let from = match (current, field) {
        (Budget::None, _) => 0,
        (Budget::Daily(from), BudgetField::Daily)
        | (Budget::Lifetime(from), BudgetField::Lifetime) => from,
        _ => return Err(budget_type_change()),
    };
    let updated = match field {
        BudgetField::Daily => Budget::Daily(amount),
        BudgetField::Lifetime => Budget::Lifetime(amount),
    };
    match target {
        Object::Campaign(_) => {
            if let Some(campaign) = state.campaigns.iter_mut().find(|c| c.id == id) {
                campaign.budget = updated;
            }
        }
        _ => {
            if let Some(adset) = state.adsets.iter_mut().find(|s| s.id == id) {
                adset.budget = updated;
                adset.budget_writes.push(Instant::now());
            }
        }
    }
    state.budget_changes.push(BudgetChange {
        object: id,
        field,
        from,
        to: amount,
    });
    Ok(json!({ "success": true }))
}
