//! Plans and their features: the plan table, the workspace's effective plan (its trial, its
//! subscription's state, or every feature when billing is not set up), and [`require`], the one
//! gate every plan-bound feature calls (402 `{error, required_plan}`).

use payback_domain::{DAY_MS, Timestamp};
use payback_store::AccountScope;
use payback_store::accounts;
use payback_store::billing::{self as store, BillingRow};
use serde::Serialize;
use utoipa::ToSchema;

use crate::config::Config;
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;

/// The plans, cheapest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Plan {
    Free,
    Indie,
    Growth,
}

/// What a plan may include.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Feature {
    /// Product CSV exports, scorecard CSV/XLSX.
    Exports,
    /// The scorecard's Google Sheets sync.
    SheetsSync,
    /// Model-enriched scorecard insights.
    AiInsights,
    /// Metric suggestions.
    Suggestions,
}

impl Feature {
    pub const ALL: [Feature; 4] = [
        Feature::Exports,
        Feature::SheetsSync,
        Feature::AiInsights,
        Feature::Suggestions,
    ];

    pub fn key(self) -> &'static str {
        match self {
            Feature::Exports => "exports",
            Feature::SheetsSync => "sheets_sync",
            Feature::AiInsights => "ai_insights",
            Feature::Suggestions => "suggestions",
        }
    }

    /// The cheapest plan that includes it.
    pub fn required_plan(self) -> Plan {
        Plan::ALL
            .into_iter()
            .find(|plan| plan.includes(self))
            .unwrap_or(Plan::TOP)
    }
}

impl Plan {
    pub const ALL: [Plan; 3] = [Plan::Free, Plan::Indie, Plan::Growth];
    /// The plan a trial gives, and every workspace when billing is not set up.
    pub const TOP: Plan = Plan::Growth;

    pub fn key(self) -> &'static str {
        match self {
            Plan::Free => "free",
            Plan::Indie => "indie",
            Plan::Growth => "growth",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Plan::Free => "Free",
            Plan::Indie => "Indie",
            Plan::Growth => "Growth",
        }
    }

    pub fn parse(key: &str) -> Option<Plan> {
        Plan::ALL.into_iter().find(|plan| plan.key() == key)
    }

    /// The plan table: what each plan includes.
    pub fn includes(self, feature: Feature) -> bool {
        match feature {
            Feature::Exports | Feature::SheetsSync | Feature::AiInsights => self >= Plan::Growth,
            Feature::Suggestions => self >= Plan::Indie,
        }
    }

    /// How far back a connection's backfill reads, and how many weeks a scorecard shows
    /// (`history_days / 7`).
    pub fn history_days(self) -> i64 {
        match self {
            Plan::Free => 30,
            Plan::Indie => 365,
            Plan::Growth => 3650,
        }
    }

    /// The plan as the billing summary lists it.
    pub fn view(self) -> PlanView {
        PlanView {
            key: self.key(),
            name: self.name(),
            features: self.features(),
            limits: self.limits(),
        }
    }

    pub fn features(self) -> Features {
        Features {
            exports: self.includes(Feature::Exports),
            sheets_sync: self.includes(Feature::SheetsSync),
            ai_insights: self.includes(Feature::AiInsights),
            suggestions: self.includes(Feature::Suggestions),
        }
    }

    pub fn limits(self) -> Limits {
        Limits {
            history_days: self.history_days(),
        }
    }
}

/// Which features a plan includes.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Features {
    pub exports: bool,
    pub sheets_sync: bool,
    pub ai_insights: bool,
    pub suggestions: bool,
}

/// A plan's limits.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Limits {
    /// Days of history a connection's backfill reads; a scorecard shows `history_days / 7`
    /// weeks.
    pub history_days: i64,
}

/// One plan of the table.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PlanView {
    pub key: &'static str,
    pub name: &'static str,
    pub features: Features,
    pub limits: Limits,
}

/// Where the workspace's plan stands (`plan_status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlanStatus {
    Active,
    Trialing,
    PastDue,
    Canceled,
}

impl PlanStatus {
    pub fn key(self) -> &'static str {
        match self {
            PlanStatus::Active => "active",
            PlanStatus::Trialing => "trialing",
            PlanStatus::PastDue => "past_due",
            PlanStatus::Canceled => "canceled",
        }
    }
}

/// The workspace's plan as of an instant.
#[derive(Debug, Clone)]
pub struct Standing {
    /// The effective plan, which the gates read.
    pub plan: Plan,
    /// The tier of the subscribed price (`free` before any subscription).
    pub stored_plan: Plan,
    pub status: PlanStatus,
    pub trial_ends_at: Option<Timestamp>,
    /// Whole days left, rounded up (30 on the first day of a 30-day trial).
    pub trial_days_left: Option<i64>,
    pub period_end: Option<Timestamp>,
    pub has_customer: bool,
    /// Active or past due.
    pub subscribed: bool,
}

/// The standing of a workspace created at `created_at` whose billing row is `row`, at `now`.
/// Without billing settings every workspace has the top plan, active, with no trial. A known
/// subscription decides alone (it ended the trial for good); before one, the trial runs
/// `trial_days` from creation, then the plan is free.
pub fn standing_of(
    config: &Config,
    now: Timestamp,
    created_at: Timestamp,
    row: Option<&BillingRow>,
) -> Standing {
    let stored_plan = row
        .and_then(|row| Plan::parse(&row.stored_plan))
        .unwrap_or(Plan::Free);
    let status = row.and_then(|row| row.status.as_deref());
    let subscribed = matches!(status, Some("active" | "past_due"));
    let base = Standing {
        plan: Plan::TOP,
        stored_plan,
        status: PlanStatus::Active,
        trial_ends_at: None,
        trial_days_left: None,
        period_end: row
            .and_then(|row| row.period_end)
            .map(Timestamp::from_millis),
        has_customer: row.is_some(),
        subscribed,
    };
    if !config.billing_available() {
        return base;
    }
    match status {
        Some("active") => Standing {
            plan: stored_plan,
            ..base
        },
        Some("past_due") => Standing {
            plan: stored_plan,
            status: PlanStatus::PastDue,
            ..base
        },
        Some(_) => Standing {
            plan: Plan::Free,
            status: PlanStatus::Canceled,
            ..base
        },
        None => {
            let ends = created_at.plus_millis(config.trial_days.max(0).saturating_mul(DAY_MS));
            let left_ms = ends.millis() - now.millis();
            if left_ms > 0 {
                Standing {
                    plan: Plan::TOP,
                    status: PlanStatus::Trialing,
                    trial_ends_at: Some(ends),
                    trial_days_left: Some((left_ms + DAY_MS - 1) / DAY_MS),
                    ..base
                }
            } else {
                Standing {
                    plan: Plan::Free,
                    ..base
                }
            }
        }
    }
}

/// The standing of `account` now.
pub async fn standing(state: &AppState, account: &AccountScope) -> ApiResult<Standing> {
    let created_at = accounts::find(&state.store, account.account_id())
        .await?
        .ok_or_else(|| ApiError::internal("the caller's account is gone"))?
        .created_at;
    let row = store::find(&state.store, account).await?;
    Ok(standing_of(
        &state.config,
        state.clock.now(),
        Timestamp::from_millis(created_at),
        row.as_ref(),
    ))
}

/// The plan the gates read for `account` now.
pub async fn effective(state: &AppState, account: &AccountScope) -> ApiResult<Plan> {
    if !state.config.billing_available() {
        return Ok(Plan::TOP);
    }
    Ok(standing(state, account).await?.plan)
}

/// Whether `account`'s plan includes `feature`: `Ok` when it does, else 402 naming the
/// cheapest plan that does. Callers check it after their 404s and before any configuration
/// check of their own (a 503 says what the operator must set up, which a plan cannot fix).
pub async fn require(state: &AppState, account: &AccountScope, feature: Feature) -> ApiResult<()> {
    let plan = effective(state, account).await?;
    if plan.includes(feature) {
        return Ok(());
    }
    let required = feature.required_plan();
    Err(ApiError::PaymentRequired {
        message: format!(
            "{} needs the {} plan; this workspace is on {}",
            feature.key(),
            required.name(),
            plan.name()
        ),
        required_plan: required.key(),
    })
}

/// Days of history `account`'s plan reads (the backfill ladder's cap, the scorecard's weeks).
pub async fn history_days(state: &AppState, account: &AccountScope) -> ApiResult<i64> {
    Ok(effective(state, account).await?.history_days())
}

/// What the billing rules' unit tests share: a server with billing settings, a workspace's
/// creation time and its billing row in a given state.
#[cfg(test)]
pub(crate) mod fixtures {
    use payback_domain::Timestamp;
    use payback_store::billing::BillingRow;

    use crate::config::Config;

    pub(crate) const CREATED: Timestamp = Timestamp::from_millis(1_795_262_400_000);

    pub(crate) fn billing() -> Config {
        Config {
            billing_stripe_key: Some("sk_test_x".into()),
            billing_price_indie: Some("price_indie".to_owned()),
            billing_price_growth: Some("price_growth".to_owned()),
            ..Config::default()
        }
    }

    /// A row subscribed to `stored` with `status`, or before any subscription (`None`).
    pub(crate) fn row(status: Option<&str>, stored: &str) -> BillingRow {
        BillingRow {
            account_id: "a".to_owned(),
            customer_id: "cus_1".to_owned(),
            subscription_id: status.map(|_| "sub_1".to_owned()),
            item_id: None,
            stored_plan: stored.to_owned(),
            status: status.map(str::to_owned),
            period_end: None,
            last_event_created: None,
            quantity_pushed: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::{CREATED, billing, row};
    use super::*;

    #[test]
    fn the_table_gates_each_feature_at_its_cheapest_plan() {
        assert_eq!(Feature::Exports.required_plan(), Plan::Growth);
        assert_eq!(Feature::SheetsSync.required_plan(), Plan::Growth);
        assert_eq!(Feature::AiInsights.required_plan(), Plan::Growth);
        assert_eq!(Feature::Suggestions.required_plan(), Plan::Indie);
        let days: Vec<i64> = Plan::ALL.iter().map(|plan| plan.history_days()).collect();
        assert_eq!(days, vec![30, 365, 3650]);
    }

    #[test]
    fn a_trial_counts_whole_days_up_and_ends_on_free() {
        let config = billing();
        let first = standing_of(&config, CREATED, CREATED, None);
        assert_eq!(first.plan, Plan::Growth);
        assert_eq!(first.status, PlanStatus::Trialing);
        assert_eq!(first.trial_days_left, Some(30));
        let later = standing_of(&config, CREATED.plus_millis(DAY_MS + 1), CREATED, None);
        assert_eq!(later.trial_days_left, Some(29));
        let ended = standing_of(&config, CREATED.plus_millis(30 * DAY_MS), CREATED, None);
        assert_eq!((ended.plan, ended.status), (Plan::Free, PlanStatus::Active));
        assert_eq!(ended.trial_ends_at, None);
    }

    #[test]
    fn a_subscription_decides_and_ends_the_trial() {
        let config = billing();
        let active = standing_of(
            &config,
            CREATED,
            CREATED,
            Some(&row(Some("active"), "indie")),
        );
        assert_eq!(
            (active.plan, active.status),
            (Plan::Indie, PlanStatus::Active)
        );
        assert_eq!(active.trial_days_left, None);
        assert!(active.subscribed);
        let late = standing_of(
            &config,
            CREATED,
            CREATED,
            Some(&row(Some("past_due"), "growth")),
        );
        assert_eq!(
            (late.plan, late.status),
            (Plan::Growth, PlanStatus::PastDue)
        );
        let gone = standing_of(
            &config,
            CREATED,
            CREATED,
            Some(&row(Some("canceled"), "growth")),
        );
        assert_eq!((gone.plan, gone.stored_plan), (Plan::Free, Plan::Growth));
        assert!(!gone.subscribed);
        // A customer without a subscription still trials.
        let customer = standing_of(&config, CREATED, CREATED, Some(&row(None, "free")));
        assert_eq!(customer.status, PlanStatus::Trialing);
        assert!(customer.has_customer);
    }

    #[test]
    fn without_billing_settings_every_workspace_has_the_top_plan() {
        let config = Config::default();
        let late = CREATED.plus_millis(400 * DAY_MS);
        let standing = standing_of(&config, late, CREATED, None);
        assert_eq!(
            (standing.plan, standing.status),
            (Plan::Growth, PlanStatus::Active)
        );
        assert_eq!(standing.trial_ends_at, None);
    }
}
