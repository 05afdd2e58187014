//! The span of time one sync pass reads.

use payback_domain::Timestamp;

/// `[from, to)`: records created at or after `from` and before `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SyncWindow {
    pub from: Timestamp,
    pub to: Timestamp,
}
