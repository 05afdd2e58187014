//! A budget writer that records what it is asked to apply and answers from a script, for tests
//! of the approval path. It reaches the server the way a real ad network's does: as the
//! `budgets()` of a [`FakeSource`] registered for the network's kind, opened through the
//! product's connection.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use payback_connectors::{BudgetChange, BudgetOutcome, BudgetWriter, SourceFuture};

use super::lock;

/// One scripted answer.
#[derive(Clone)]
enum Step {
    Answer(BudgetOutcome),
    /// Never answers: the process dies while the network is being asked.
    Hang,
}

#[derive(Default)]
struct Script {
    /// Answers in order; the last one repeats.
    steps: VecDeque<Step>,
    calls: Vec<BudgetChange>,
}

/// Answers each change with the next scripted outcome and keeps every request.
#[derive(Clone, Default)]
pub struct RecordingBudgets {
    script: Arc<Mutex<Script>>,
}

impl RecordingBudgets {
    /// Answers every change with `outcome`.
    pub fn answering(outcome: BudgetOutcome) -> Self {
        Self::answering_in_turn([outcome])
    }

    /// Answers the first change with the first outcome, the next with the next, and every
    /// later one with the last.
    pub fn answering_in_turn(outcomes: impl IntoIterator<Item = BudgetOutcome>) -> Self {
        Self::scripted(outcomes.into_iter().map(Step::Answer).collect())
    }

    /// Never answers the first change (a crash while the network is asked), then answers every
    /// later one with `then`.
    pub fn hanging_first(then: BudgetOutcome) -> Self {
        Self::scripted(VecDeque::from([Step::Hang, Step::Answer(then)]))
    }

    fn scripted(steps: VecDeque<Step>) -> Self {
        let script = Script {
            steps,
            calls: Vec::new(),
        };
        Self {
            script: Arc::new(Mutex::new(script)),
        }
    }

    /// An outcome applying `to_cents` on `campaign_id` from `before_cents`.
    pub fn applied(campaign_id: &str, before_cents: i64, after_cents: i64) -> BudgetOutcome {
        BudgetOutcome::Applied {
            campaign_id: campaign_id.to_owned(),
            before_cents,
            after_cents,
        }
    }

    /// Every change asked for so far, in order.
    pub fn calls(&self) -> Vec<BudgetChange> {
        lock(&self.script).calls.clone()
    }
}

impl BudgetWriter for RecordingBudgets {
    fn apply_budget<'a>(&'a self, change: &'a BudgetChange) -> SourceFuture<'a, BudgetOutcome> {
        let mut script = lock(&self.script);
        script.calls.push(change.clone());
        let step = if script.steps.len() > 1 {
            script.steps.pop_front()
        } else {
            script.steps.front().cloned()
        };
        let step = step.unwrap_or(Step::Answer(BudgetOutcome::Refused {
            reason: "the fake has no scripted outcome".to_owned(),
        }));
        Box::pin(async move {
            match step {
                Step::Answer(outcome) => Ok(outcome),
                Step::Hang => std::future::pending().await,
            }
        })
    }
}
