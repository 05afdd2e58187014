//! Spend proposals, the queue and policies (`routes/spend.rs`, `routes/queue.rs`,
//! `services/policy.rs`; `domain/src/card.rs`, `domain/src/policy.rs`).

use payback_domain::card;
use payback_domain::policy::MAX_DAILY_CENTS;
use payback_domain::validation as input;

use crate::input::rules::spend;
use crate::openapi::rule::*;
use crate::routes::queue;

pub fn rules() -> Vec<(At, Vec<Rule>)> {
    use At::{Field, Schema};
    vec![
        (
            Field("ProposalRequest", "campaign_id"),
            vec![
                Rule::Chars(1, spend::CAMPAIGN_ID_MAX_CHARS),
                Rule::Pattern(input::ONE_LINE_PATTERN.to_owned()),
            ],
        ),
        (
            Field("ProposalRequest", "from_cents"),
            vec![Rule::Range(0, MAX_DAILY_CENTS)],
        ),
        (
            Field("ProposalRequest", "to_cents"),
            vec![Rule::Range(1, MAX_DAILY_CENTS)],
        ),
        (
            Field("ProposalRequest", "rationale"),
            vec![
                Rule::Chars(spend::RATIONALE_MIN_CHARS, spend::RATIONALE_MAX_CHARS),
                Rule::Pattern(input::NOT_BLANK_PATTERN.to_owned()),
            ],
        ),
        (
            Field("ProposalRequest", "rollback_if"),
            vec![Rule::MaxBytes(card::ROLLBACK_IF_MAX_BYTES)],
        ),
        (
            Field("ProposalRequest", "headline"),
            one_line_name(card::HEADLINE_MAX),
        ),
        (
            Field("ResolveRequest", "actor"),
            vec![Rule::Chars(1, queue::ACTOR_MAX_CHARS)],
        ),
        (
            Field("ResolveRequest", "snoozeHours"),
            vec![Rule::Range(1, card::MAX_SNOOZE_HOURS)],
        ),
        (
            Field("CapsEdit", "google"),
            vec![Rule::Range(1, MAX_DAILY_CENTS)],
        ),
        (
            Field("CapsEdit", "meta"),
            vec![Rule::Range(1, MAX_DAILY_CENTS)],
        ),
        (
            Schema("ProductPolicyRequest"),
            vec![Rule::AnyRequired(vec![
                "daily_caps",
                "adult_adjacent",
                "blocked_networks",
            ])],
        ),
        (
            Field("PortfolioPolicyRequest", "portfolio_ceiling_cents"),
            vec![Rule::Range(1, MAX_DAILY_CENTS)],
        ),
        (Field("PortfolioPolicyRequest", "currency"), currency()),
        (
            Schema("PortfolioPolicyRequest"),
            vec![Rule::AnyRequired(vec![
                "portfolio_ceiling_cents",
                "currency",
            ])],
        ),
    ]
}
