//! `GET /products/{slug}/growth-actions` and `POST .../growth-actions/{id}/prompt`: concrete
//! actions ranked from the product's own numbers, each with a ready-to-paste prompt for a coding
//! agent. Deterministic: no language model, the same numbers always give the same list.
//!
//! The situation is read once (`situation.rs`) through the functions the reports and the health
//! report already use (the health report's checks decide *whether* something is broken, with
//! their own thresholds; the attribution report gives CAC per channel), and each family of
//! actions (`tracking`, `funnel`, `sources`, `budget`) turns it into actions. Nothing here
//! changes anything: an action that moves budget links to raising a spend proposal, it never
//! raises one.
//!
//! Ranking: failing situations before warnings; then the estimated impact, highest first (an
//! action without an honest estimate after those with one); then the kind's priority (what
//! the other numbers rest on first: tracking, then money, then attribution, then the funnel);
//! then the id. Ids are the kind and its subject (`move_budget:paid_meta->paid_google`), so a
//! client can ask for the prompt of an action it listed as long as the situation stands.

mod budget;
mod funnel;
mod kind;
mod prompts;
mod quoting;
mod situation;
mod sources;
mod tracking;

pub use kind::ActionKind;
pub use prompts::{AGENT_TOOLS, AgentTool};

use std::cmp::Reverse;

use serde::Serialize;
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};
use crate::services::acting::Caller;
use crate::services::health_report::{self, HealthStatus};
use crate::state::AppState;

use situation::Situation;

/// The window, in days: default 30, at most a year (the health report's bounds, which this
/// list reads through).
pub const DEFAULT_DAYS: i64 = health_report::DEFAULT_DAYS;
pub const MAX_DAYS: i64 = health_report::MAX_DAYS;

/// The spec's Growth action list.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct GrowthActionList {
    pub product_slug: String,
    pub product_name: String,
    pub generated_at: String,
    pub window_days: i64,
    /// Ranked, most pressing first (see the module's ranking rule).
    pub actions: Vec<GrowthAction>,
}

/// One action: what to do, why (the numbers), what it may bring, and where to act.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct GrowthAction {
    /// `<kind>:<subject>`, stable while the situation stands.
    pub id: String,
    /// 1 for the most pressing.
    pub rank: usize,
    pub kind: ActionKind,
    /// `tracking`, `funnel`, `advertising` or `sources`.
    pub category: &'static str,
    /// `fail` or `warn`: how bad the situation behind it is.
    pub severity: HealthStatus,
    pub headline: String,
    /// The numbers behind the action.
    pub why: String,
    /// Revenue the action may add over a window as long as this one, in cents of the
    /// product's currency; null when it cannot be estimated honestly (docs/health-and-growth.md "Growth
    /// actions" gives each formula).
    pub estimated_impact_cents: Option<i64>,
    /// The health check whose verdict raised the action, if one did.
    pub check_id: Option<&'static str>,
    /// Where to read and where to act.
    pub links: Vec<ActionLink>,
    /// The coding agent the client asked to tag (`tool`), null without one.
    pub tool: Option<AgentTool>,
    /// Where the ready-to-paste prompt of this action is asked for.
    pub prompt_path: String,
    /// What the action is about, for its prompt (not sent).
    #[serde(skip)]
    #[schema(ignore)]
    subject: Subject,
}

/// A link of an action: an API endpoint to read or to act with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct ActionLink {
    pub label: String,
    pub method: &'static str,
    pub path: String,
}

impl ActionLink {
    fn get(label: &str, path: String) -> Self {
        Self {
            label: label.to_owned(),
            method: "GET",
            path,
        }
    }

    fn post(label: &str, path: String) -> Self {
        Self {
            label: label.to_owned(),
            method: "POST",
            path,
        }
    }
}

/// What an action's prompt needs to know beyond its kind.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
enum Subject {
    #[default]
    None,
    /// A funnel stage and its label.
    Stage { stage: String, label: String },
    /// Budget from one channel to another, and the network a proposal would change (when
    /// proposals can change the losing channel's network).
    Budget {
        from: String,
        to: String,
        network: Option<&'static str>,
        from_spend_cents: i64,
    },
}

/// An action before ranking.
struct Draft {
    kind: ActionKind,
    subject_id: String,
    severity: HealthStatus,
    headline: String,
    why: String,
    impact: Option<i64>,
    check_id: Option<&'static str>,
    links: Vec<ActionLink>,
    subject: Subject,
}

/// The spec's Prompt result.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PromptResult {
    pub id: String,
    pub tool: AgentTool,
    /// Ready to paste into the coding agent.
    pub prompt: String,
    pub headline: String,
    /// The action's `estimated_impact_cents`.
    pub revenue_impact_cents: Option<i64>,
    pub currency: String,
}

/// The ranked actions of the product over `days` (1-365, default 30); `tool` (a coding agent,
/// `agent_a`..`agent_e`) only tags the actions with the prompt the client will ask for.
pub async fn list(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    days: Option<i64>,
    tool: Option<&str>,
) -> ApiResult<GrowthActionList> {
    let tool = tool.map(AgentTool::parse).transpose()?;
    let situation = Situation::load(state, caller, slug, days).await?;
    let mut actions = rank(&situation, draft_all(&situation));
    for action in &mut actions {
        action.tool = tool;
    }
    Ok(GrowthActionList {
        product_slug: situation.product.slug.clone(),
        product_name: situation.product.name.clone(),
        generated_at: situation.now.to_rfc3339(),
        window_days: situation.window.days,
        actions,
    })
}

/// The prompt of action `id` for `tool` (default `agent_a`), over the same window as the list
/// it came from; 404 when the action is not (or no longer) ranked.
pub async fn prompt(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    id: &str,
    tool: Option<&str>,
    days: Option<i64>,
) -> ApiResult<PromptResult> {
    let tool = tool.map(AgentTool::parse).transpose()?.unwrap_or_default();
    let situation = Situation::load(state, caller, slug, days).await?;
    let action = rank(&situation, draft_all(&situation))
        .into_iter()
        .find(|action| action.id == id)
        .ok_or_else(|| ApiError::not_found("growth action"))?;
    let change = match action.kind {
        ActionKind::InstallTracking => tracking::install_change(&situation).await?,
        ActionKind::StitchIdentities => tracking::stitch_change(&situation),
        ActionKind::TagLinks => tracking::tag_links_change(&situation),
        ActionKind::SendConvertedEvent => funnel::converted_change(&situation),
        ActionKind::FixFunnelStep => funnel::step_change(&situation, &action.subject),
        ActionKind::ConnectPayments | ActionKind::ConnectAdNetworks | ActionKind::AddUrlSuffix => {
            sources::change(&situation, action.kind)
        }
        ActionKind::MoveBudget => budget::change(&situation, &action.subject),
    };
    Ok(PromptResult {
        prompt: prompts::render(tool, &situation, &action, &change),
        id: action.id,
        tool,
        headline: action.headline,
        revenue_impact_cents: action.estimated_impact_cents,
        currency: situation.product.currency.clone(),
    })
}

fn draft_all(situation: &Situation<'_>) -> Vec<Draft> {
    let mut drafts = tracking::drafts(situation);
    drafts.extend(funnel::drafts(situation));
    drafts.extend(sources::drafts(situation));
    drafts.extend(budget::drafts(situation));
    drafts
}

/// The ranking rule of the module's doc, and each action's rank and paths.
fn rank(situation: &Situation<'_>, mut drafts: Vec<Draft>) -> Vec<GrowthAction> {
    drafts.sort_by(|a, b| {
        order_key(a.severity, a.impact, a.kind)
            .cmp(&order_key(b.severity, b.impact, b.kind))
            .then_with(|| a.subject_id.cmp(&b.subject_id))
    });
    drafts
        .into_iter()
        .enumerate()
        .map(|(index, draft)| {
            let id = format!("{}:{}", draft.kind.as_str(), draft.subject_id);
            GrowthAction {
                prompt_path: situation.path(&format!("/growth-actions/{id}/prompt")),
                id,
                rank: index + 1,
                kind: draft.kind,
                category: draft.kind.category(),
                severity: draft.severity,
                headline: draft.headline,
                why: draft.why,
                estimated_impact_cents: draft.impact,
                check_id: draft.check_id,
                links: draft.links,
                tool: None,
                subject: draft.subject,
            }
        })
        .collect()
}

/// Failing before warning, then the estimate (highest first, none last), then the kind's
/// priority.
fn order_key(
    severity: HealthStatus,
    impact: Option<i64>,
    kind: ActionKind,
) -> (u8, bool, Reverse<i64>, u8) {
    let severity = match severity {
        HealthStatus::Fail => 0,
        HealthStatus::Warn => 1,
        HealthStatus::Pass | HealthStatus::Skip => 2,
    };
    (
        severity,
        impact.is_none(),
        Reverse(impact.unwrap_or(0)),
        kind.priority(),
    )
}

/// What a prompt asks the agent to change, and how to see that it worked.
#[derive(Debug, Clone, Default)]
pub struct Change {
    /// One sentence: the change.
    pub summary: String,
    /// The steps, in order.
    pub steps: Vec<String>,
    /// The code or request to add, verbatim, and its language (`html`, `js`, `bash`, `text`).
    pub code: Option<(&'static str, String)>,
    /// Payback endpoints to call afterwards and what each must show.
    pub verify: Vec<(String, String)>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fail_ranks_before_warn_then_impact_then_priority() {
        use HealthStatus::{Fail, Warn};
        let mut keys = [
            order_key(Warn, Some(1_000), ActionKind::MoveBudget),
            order_key(Fail, None, ActionKind::FixFunnelStep),
            order_key(Fail, None, ActionKind::InstallTracking),
            order_key(Fail, Some(10), ActionKind::MoveBudget),
            order_key(Fail, Some(500), ActionKind::MoveBudget),
        ];
        keys.sort();
        assert_eq!(
            keys,
            [
                order_key(Fail, Some(500), ActionKind::MoveBudget),
                order_key(Fail, Some(10), ActionKind::MoveBudget),
                order_key(Fail, None, ActionKind::InstallTracking),
                order_key(Fail, None, ActionKind::FixFunnelStep),
                order_key(Warn, Some(1_000), ActionKind::MoveBudget),
            ]
        );
    }
}
