//! A spend executor that records what it is asked to apply, for tests of the approval path.

use std::sync::{Arc, Mutex};

use payback_domain::policy::Network;
use payback_server::services::execution::{
    ApprovedSpendChange, ExecutionFuture, ExecutionOutcome, SpendExecutor,
};

/// Answers every change with `outcome` and keeps each request.
#[derive(Clone)]
pub struct RecordingExecutor {
    network: Network,
    outcome: ExecutionOutcome,
    calls: Arc<Mutex<Vec<ApprovedSpendChange>>>,
}

impl RecordingExecutor {
    pub fn new(network: Network, outcome: ExecutionOutcome) -> Self {
        Self {
            network,
            outcome,
            calls: Arc::default(),
        }
    }

    /// Every change asked for so far, in order.
    pub fn calls(&self) -> Vec<ApprovedSpendChange> {
        self.calls.lock().expect("calls").clone()
    }
}

impl SpendExecutor for RecordingExecutor {
    fn network(&self) -> Network {
        self.network
    }

    fn apply<'a>(&'a self, change: &'a ApprovedSpendChange) -> ExecutionFuture<'a> {
        self.calls.lock().expect("calls").push(change.clone());
        let outcome = self.outcome.clone();
        Box::pin(async move { outcome })
    }
}
