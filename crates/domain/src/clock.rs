//! Time is injected, never read from a global, so expiry, snooze and windows are testable.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use crate::Timestamp;

pub trait Clock: Send + Sync + std::fmt::Debug {
    fn now(&self) -> Timestamp;
}

/// The wall clock.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Timestamp {
        let since_epoch = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        Timestamp::from_millis(i64::try_from(since_epoch.as_millis()).unwrap_or(i64::MAX))
    }
}

/// A clock that only moves when told to; clones share the same instant.
#[derive(Debug, Clone)]
pub struct ManualClock {
    millis: Arc<AtomicI64>,
}

impl ManualClock {
    pub fn starting_at(at: Timestamp) -> Self {
        Self {
            millis: Arc::new(AtomicI64::new(at.millis())),
        }
    }

    pub fn advance(&self, by_millis: i64) {
        self.millis.fetch_add(by_millis, Ordering::SeqCst);
    }

    pub fn set(&self, at: Timestamp) {
        self.millis.store(at.millis(), Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Timestamp {
        Timestamp::from_millis(self.millis.load(Ordering::SeqCst))
    }
}
