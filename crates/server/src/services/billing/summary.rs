//! `GET /billing`: the workspace's plan, trial, subscription, products and what they cost, and
//! the plan table.

use payback_domain::MemberRole;
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::ApiResult;
use crate::services::acting::Caller;
use crate::services::billing::plan::{self, Features, Limits, Plan, PlanView};
use crate::services::billing::quantity::{self, ProductLine};
use crate::state::AppState;

/// What the workspace uses this period.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Usage {
    /// Products in the workspace.
    pub products: i64,
}

/// The billing summary (spec: "Billing summary").
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct BillingSummary {
    /// The effective plan: `free`, `indie` or `growth` (the top plan during the trial).
    pub plan: &'static str,
    /// The tier of the subscribed price; `free` before any subscription.
    pub stored_plan: &'static str,
    /// `active`, `trialing`, `past_due` or `canceled`.
    pub plan_status: &'static str,
    pub trial_ends_at: Option<String>,
    /// Whole days left, rounded up; null when not trialing.
    pub trial_days_left: Option<i64>,
    pub plan_period_end: Option<String>,
    /// Whether this server bills (its Stripe key and both prices are set); without it every
    /// workspace has every feature.
    pub billing_available: bool,
    pub has_customer: bool,
    /// The subscription is active or past due.
    pub subscribed: bool,
    /// The caller's role in the workspace (`member` for API keys).
    pub member_role: MemberRole,
    /// The UTC month, `YYYY-MM`.
    pub period: String,
    pub usage: Usage,
    pub limits: Limits,
    pub billable_products: i64,
    /// What the subscription pays for: the billable products, at least one.
    pub quantity: i64,
    /// The products, oldest first.
    pub product_lines: Vec<ProductLine>,
    pub features: Features,
    /// The plan table, cheapest first.
    pub plans: Vec<PlanView>,
}

pub async fn summary(state: &AppState, caller: &Caller) -> ApiResult<BillingSummary> {
    let scope = caller.scope()?;
    let standing = plan::standing(state, scope).await?;
    let lines = quantity::lines_of(state, scope).await?;
    let billable = lines.iter().filter(|line| line.billable).count();
    let now = state.clock.now();
    let member_role = caller
        .person()
        .map_or(MemberRole::Member, |person| person.member_role);
    Ok(BillingSummary {
        plan: standing.plan.key(),
        stored_plan: standing.stored_plan.key(),
        plan_status: standing.status.key(),
        trial_ends_at: standing.trial_ends_at.map(|at| at.to_rfc3339()),
        trial_days_left: standing.trial_days_left,
        plan_period_end: standing.period_end.map(|at| at.to_rfc3339()),
        billing_available: state.config.billing_available(),
        has_customer: standing.has_customer,
        subscribed: standing.subscribed,
        member_role,
        period: now.day().chars().take(7).collect(),
        usage: Usage {
            products: i64::try_from(lines.len()).unwrap_or(i64::MAX),
        },
        limits: standing.plan.limits(),
        billable_products: i64::try_from(billable).unwrap_or(i64::MAX),
        quantity: quantity::quantity(billable),
        product_lines: lines,
        features: standing.plan.features(),
        plans: Plan::ALL.into_iter().map(Plan::view).collect(),
    })
}
