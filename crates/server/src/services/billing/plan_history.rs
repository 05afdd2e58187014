//! The account's history of its plan: each webhook event that moves the workspace's effective
//! plan or its status writes one account-level event (`billing.plan_changed`,
//! `billing.status_changed`) by the billing provider. Account events are read by the
//! workspace's owners (`include=account`) and by operators, like its team, keys and sign-up.
//!
//! The payload names plans and statuses only: no Stripe customer, subscription or price id,
//! which the history's readers do not need and the billing row already keeps.

use payback_domain::{Actor, Timestamp};
use payback_store::Tx;
use payback_store::billing::BillingRow;
use serde_json::{Value, json};

use crate::config::Config;
use crate::error::ApiResult;
use crate::services::audit;
use crate::services::billing::plan::{Standing, standing_of};

/// The effective plan changed: an upgrade, a downgrade, a cancellation (to free), a paid plan
/// replacing the trial.
pub const PLAN_CHANGED: &str = "billing.plan_changed";
/// The plan stayed and its status moved: a payment failed (`past_due`) or was made good.
pub const STATUS_CHANGED: &str = "billing.status_changed";

/// The workspace's billing row before and after one applied event, and when it was made.
#[derive(Debug, Clone, Copy)]
pub struct RowChange<'a> {
    pub account_id: &'a str,
    /// When the workspace was created: its trial runs from then.
    pub created_at: Timestamp,
    pub before: &'a BillingRow,
    pub after: &'a BillingRow,
}

/// Records the change `change` made to the workspace's standing, in the caller's transaction;
/// nothing when the standing is the same (a renewal's new period end, a quantity, a checkout's
/// subscription id).
pub async fn record(
    tx: &mut Tx,
    config: &Config,
    change: RowChange<'_>,
    now: Timestamp,
) -> ApiResult<()> {
    let standing = |row: &BillingRow| standing_of(config, now, change.created_at, Some(row));
    let Some((action, payload)) = event_between(&standing(change.before), &standing(change.after))
    else {
        return Ok(());
    };
    // Stripe changes the plan; the webhook applies it as the system, through no person's door.
    audit::record_account(
        tx,
        &Actor::system(),
        change.account_id,
        action,
        None,
        payload,
        now,
    )
    .await
}

/// The history event for a move from `before` to `after`, if the account would see one:
/// `{from, to, status, previous_status}`, the effective plans and their statuses.
pub fn event_between(before: &Standing, after: &Standing) -> Option<(&'static str, Value)> {
    let action = if before.plan != after.plan {
        PLAN_CHANGED
    } else if before.status != after.status {
        STATUS_CHANGED
    } else {
        return None;
    };
    Some((
        action,
        json!({
            "from": before.plan.key(),
            "to": after.plan.key(),
            "status": after.status.key(),
            "previous_status": before.status.key(),
        }),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::services::billing::plan::PlanStatus;
    use crate::services::billing::plan::fixtures::{CREATED, billing, row};
    use payback_domain::DAY_MS;

    fn standing(status: Option<&str>, stored: &str) -> Standing {
        let row = row(status, stored);
        standing_of(&billing(), CREATED.plus_millis(DAY_MS), CREATED, Some(&row))
    }

    #[test]
    fn a_new_plan_is_a_plan_change_naming_both_plans() {
        let (action, payload) = event_between(
            &standing(Some("active"), "indie"),
            &standing(Some("active"), "growth"),
        )
        .unwrap();
        assert_eq!(action, PLAN_CHANGED);
        assert_eq!(
            payload,
            json!({"from": "indie", "to": "growth", "status": "active", "previous_status": "active"})
        );
        // The trial gives the top plan: a paid Indie replacing it moves the plan down.
        let (action, payload) =
            event_between(&standing(None, "free"), &standing(Some("active"), "indie")).unwrap();
        assert_eq!(action, PLAN_CHANGED);
        assert_eq!(
            payload,
            json!({"from": "growth", "to": "indie", "status": "active", "previous_status": "trialing"})
        );
    }

    #[test]
    fn a_cancellation_moves_to_free() {
        let canceled = standing(Some("canceled"), "growth");
        assert_eq!(canceled.status, PlanStatus::Canceled);
        let (action, payload) =
            event_between(&standing(Some("past_due"), "growth"), &canceled).unwrap();
        assert_eq!(action, PLAN_CHANGED);
        assert_eq!(
            payload,
            json!({"from": "growth", "to": "free", "status": "canceled", "previous_status": "past_due"})
        );
    }

    #[test]
    fn a_status_alone_is_a_status_change() {
        let (action, payload) = event_between(
            &standing(Some("active"), "indie"),
            &standing(Some("past_due"), "indie"),
        )
        .unwrap();
        assert_eq!(action, STATUS_CHANGED);
        assert_eq!(
            payload,
            json!({"from": "indie", "to": "indie", "status": "past_due", "previous_status": "active"})
        );
    }

    #[test]
    fn the_same_standing_records_nothing() {
        let active = standing(Some("active"), "growth");
        assert_eq!(event_between(&active, &active.clone()), None);
        // A tier changing under a canceled subscription leaves the plan free: nothing to see.
        assert_eq!(
            event_between(
                &standing(Some("canceled"), "indie"),
                &standing(Some("canceled"), "growth")
            ),
            None
        );
    }
}
