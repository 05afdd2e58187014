//! Approval-queue cards and their state machine. Only a human resolution moves a card; jobs
//! may only expire proposals and bring snoozed cards back (both follow from the clock).

use serde::{Deserialize, Serialize};

use crate::policy::Network;
use crate::roles::{GateResult, wire_enum};
use crate::{HOUR_MS, Timestamp};

/// A spend proposal waits this long for a human before it expires.
pub const PROPOSAL_TTL_MS: i64 = 72 * HOUR_MS;
/// `snoozeHours` when the request gives none.
pub const DEFAULT_SNOOZE_HOURS: i64 = 24;
/// The longest snooze accepted: a year. A longer one is a dismissal in disguise.
pub const MAX_SNOOZE_HOURS: i64 = 24 * 366;
/// Card headlines are at most this many characters.
pub const HEADLINE_MAX: usize = 90;
/// The largest `rollback_if` a spend proposal may carry, serialized as JSON: it is free-form,
/// stored on the card's action spec and sent to every reader of the queue, so its size is the
/// proposer's to keep small, not the server's to carry.
pub const ROLLBACK_IF_MAX_BYTES: usize = 4 * 1024;

wire_enum! {
    /// What a card asks of a human.
    CardType {
        Proposal => "proposal",
        Insight => "insight",
        Alert => "alert",
        GateResult => "gate_result",
        PolicyBlock => "policy_block",
    }
}

wire_enum! {
    /// Where a card stands. `pending` and `snoozed` are open; the rest are final except that
    /// `expired` (and `snoozed`) may be restored to `pending`.
    CardStatus {
        Pending => "pending",
        Snoozed => "snoozed",
        Approved => "approved",
        Dismissed => "dismissed",
        Expired => "expired",
    }
}

wire_enum! {
    /// Who raised a card: an agent through the API (`keeper`) or a job (`system`).
    Proposer { Keeper => "keeper", System => "system" }
}

wire_enum! {
    /// The four things a human may do to a card.
    Resolution {
        Approve => "approve",
        Reject => "reject",
        Snooze => "snooze",
        Restore => "restore",
    }
}

/// What approving a card does, stored as the card's `action_spec`. Cards without one (alerts,
/// insights) are acknowledged by approval and change nothing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ActionSpec {
    /// Set the daily budget of `network` for the card's product to `to_cents`.
    SpendChange {
        network: Network,
        campaign_id: Option<String>,
        from_cents: Option<i64>,
        to_cents: i64,
        /// The proposer's condition for reverting, watched after the change is approved.
        rollback_if: Option<serde_json::Value>,
        /// The approved card this change reverts, when a rollback watch raised it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reverts_card: Option<String>,
    },
    /// Record the product's gate verdict.
    SetGateResult {
        gate_result: GateResult,
        gate_due_date: String,
    },
}

/// The stored state of a card that its effective status is read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CardState {
    pub status: CardStatus,
    pub expires_at: Option<Timestamp>,
    pub snoozed_until: Option<Timestamp>,
}

impl CardState {
    /// The status as of `now`: an open card past its expiry reads `expired` (expiry wins over a
    /// snooze), and a snoozed card whose time has come reads `pending`. Jobs persist the same
    /// transitions later; reads never wait for them.
    pub fn effective(&self, now: Timestamp) -> CardStatus {
        let open = matches!(self.status, CardStatus::Pending | CardStatus::Snoozed);
        if open && self.expires_at.is_some_and(|at| at <= now) {
            return CardStatus::Expired;
        }
        match (self.status, self.snoozed_until) {
            (CardStatus::Snoozed, Some(until)) if until <= now => CardStatus::Pending,
            (status, _) => status,
        }
    }

    /// The status `resolution` moves this card to at `now`, or `None` when the card is not in a
    /// state that resolution applies to (the API answers 404: no such pending card).
    pub fn after(&self, resolution: Resolution, now: Timestamp) -> Option<CardStatus> {
        let effective = self.effective(now);
        match resolution {
            Resolution::Approve if effective == CardStatus::Pending => Some(CardStatus::Approved),
            Resolution::Reject if effective == CardStatus::Pending => Some(CardStatus::Dismissed),
            Resolution::Snooze if effective == CardStatus::Pending => Some(CardStatus::Snoozed),
            Resolution::Restore
                if effective == CardStatus::Expired || self.status == CardStatus::Snoozed =>
            {
                Some(CardStatus::Pending)
            }
            _ => None,
        }
    }
}

/// Shortens `text` to a headline of at most [`HEADLINE_MAX`] characters, ending in `…` when cut.
pub fn headline(text: &str) -> String {
    let text = text.trim();
    if text.chars().count() <= HEADLINE_MAX {
        return text.to_owned();
    }
    let mut cut: String = text.chars().take(HEADLINE_MAX - 1).collect();
    cut.truncate(cut.trim_end().len());
    cut.push('…');
    cut
}

/// A proposal's `rollback_if`: a JSON object of at most [`ROLLBACK_IF_MAX_BYTES`] serialized.
/// `Err` is the message, to be prefixed with the field's name.
pub fn check_rollback_if(value: &serde_json::Value) -> Result<(), String> {
    if !value.is_object() {
        return Err(
            "must be an object, e.g. {\"cac_ceiling_cents\": 5000, \"window_days\": 7}".to_owned(),
        );
    }
    let size = value.to_string().len();
    if size > ROLLBACK_IF_MAX_BYTES {
        return Err(format!(
            "must be at most {ROLLBACK_IF_MAX_BYTES} bytes serialized, got {size}"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: Timestamp = Timestamp::from_millis(1_000 * HOUR_MS);

    fn card(
        status: CardStatus,
        expires_in_h: Option<i64>,
        snoozed_for_h: Option<i64>,
    ) -> CardState {
        CardState {
            status,
            expires_at: expires_in_h.map(|h| NOW.plus_millis(h * HOUR_MS)),
            snoozed_until: snoozed_for_h.map(|h| NOW.plus_millis(h * HOUR_MS)),
        }
    }

    #[test]
    fn pending_card_takes_approve_reject_and_snooze_but_not_restore() {
        let pending = card(CardStatus::Pending, Some(72), None);
        assert_eq!(
            pending.after(Resolution::Approve, NOW),
            Some(CardStatus::Approved)
        );
        assert_eq!(
            pending.after(Resolution::Reject, NOW),
            Some(CardStatus::Dismissed)
        );
        assert_eq!(
            pending.after(Resolution::Snooze, NOW),
            Some(CardStatus::Snoozed)
        );
        assert_eq!(pending.after(Resolution::Restore, NOW), None);
    }

    #[test]
    fn expiry_wins_and_only_restore_applies_after_it() {
        let expired = card(CardStatus::Pending, Some(0), None);
        assert_eq!(expired.effective(NOW), CardStatus::Expired);
        for resolution in [Resolution::Approve, Resolution::Reject, Resolution::Snooze] {
            assert_eq!(expired.after(resolution, NOW), None);
        }
        assert_eq!(
            expired.after(Resolution::Restore, NOW),
            Some(CardStatus::Pending)
        );
        let snoozed_past_expiry = card(CardStatus::Snoozed, Some(-1), Some(-2));
        assert_eq!(snoozed_past_expiry.effective(NOW), CardStatus::Expired);
    }

    #[test]
    fn snoozed_card_returns_when_its_time_comes() {
        let sleeping = card(CardStatus::Snoozed, None, Some(5));
        assert_eq!(sleeping.effective(NOW), CardStatus::Snoozed);
        assert_eq!(sleeping.after(Resolution::Approve, NOW), None);
        assert_eq!(
            sleeping.after(Resolution::Restore, NOW),
            Some(CardStatus::Pending)
        );
        let due = card(CardStatus::Snoozed, None, Some(0));
        assert_eq!(due.effective(NOW), CardStatus::Pending);
        assert_eq!(
            due.after(Resolution::Approve, NOW),
            Some(CardStatus::Approved)
        );
    }

    #[test]
    fn resolved_cards_are_final() {
        for status in [CardStatus::Approved, CardStatus::Dismissed] {
            let done = card(status, None, None);
            for resolution in Resolution::ALL {
                assert_eq!(done.after(*resolution, NOW), None, "{status} {resolution}");
            }
        }
    }

    #[test]
    fn action_specs_are_tagged_by_kind() {
        let spec = ActionSpec::SpendChange {
            network: Network::Google,
            campaign_id: None,
            from_cents: Some(1_000),
            to_cents: 2_000,
            rollback_if: None,
            reverts_card: None,
        };
        let json = serde_json::to_value(&spec).unwrap();
        assert_eq!(json["kind"], "spend_change");
        assert_eq!(json["network"], "google");
        assert!(json.get("reverts_card").is_none());
        assert_eq!(serde_json::from_value::<ActionSpec>(json).unwrap(), spec);
    }

    #[test]
    fn headlines_are_cut_to_ninety_characters() {
        assert_eq!(headline("  short  "), "short");
        let long = "x".repeat(200);
        let cut = headline(&long);
        assert_eq!(cut.chars().count(), HEADLINE_MAX);
        assert!(cut.ends_with('…'));
    }

    #[test]
    fn rollback_if_is_a_small_object() {
        assert!(check_rollback_if(&serde_json::json!({ "cac_ceiling_cents": 4000 })).is_ok());
        assert!(check_rollback_if(&serde_json::json!([1])).is_err());
        let big = serde_json::json!({ "note": "x".repeat(ROLLBACK_IF_MAX_BYTES) });
        let refused = check_rollback_if(&big).unwrap_err();
        assert!(
            refused.starts_with("must be at most 4096 bytes"),
            "{refused}"
        );
    }
}
