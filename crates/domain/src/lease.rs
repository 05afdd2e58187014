//! Leases on background work (an approved budget change, a job, a sync run): who holds one and
//! whether it is still alive. A holder is an instance (a random id minted when the process
//! builds its state, so a restarted process is a new holder) that refreshes the lease's heartbeat
//! while the work runs. A lease is free once its long expiry passes (the upper bound, as before)
//! or, earlier, once its heartbeat stops: a crashed holder's work is taken over within
//! [`HEARTBEAT_STALE_MS`] plus one pass of whoever takes it.

use crate::Timestamp;

/// How often a live holder refreshes its heartbeat.
pub const HEARTBEAT_EVERY_MS: i64 = 15_000;

/// A heartbeat this old is dead: three beats missed, so a holder that is merely slow to write
/// one (a busy database) is never robbed, and a crashed one frees its work within a minute.
pub const HEARTBEAT_STALE_MS: i64 = 3 * HEARTBEAT_EVERY_MS;

/// Heartbeats at or before this instant are dead at `now` (the bound the store's conditional
/// updates compare with).
pub fn dead_before(now: Timestamp) -> i64 {
    now.millis() - HEARTBEAT_STALE_MS
}

/// Whether a lease last beating at `heartbeat` is alive at `now`; a lease without a heartbeat
/// (taken before holders beat) is judged by its expiry alone.
pub fn beats(heartbeat: Option<Timestamp>, now: Timestamp) -> bool {
    heartbeat.is_none_or(|at| at.millis() > dead_before(now))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_heartbeat_dies_after_three_missed_beats() {
        let beat = Timestamp::from_millis(1_000_000);
        assert!(beats(Some(beat), beat.plus_millis(44_999)));
        assert!(!beats(Some(beat), beat.plus_millis(45_000)));
        assert!(beats(None, beat.plus_millis(3_600_000)));
        assert_eq!(dead_before(beat.plus_millis(45_000)), beat.millis());
    }
}
