//! Connections to sources and the rules of their sync runs: statuses, the backfill ladder and
//! the backoff after failures. What differs by kind (cadence, recent days, ...) is the kind
//! table's, in `source_kind`.

pub use crate::source_kind::ConnectionKind;
use crate::{HOUR_MS, MINUTE_MS, Timestamp};

crate::roles::wire_enum! {
    /// Where a connection stands.
    ConnectionStatus {
        Pending => "pending",
        Active => "active",
        Error => "error",
        Disabled => "disabled",
    }
}

crate::roles::wire_enum! {
    /// Where a grant's connect flow stands: `pending` until the consent comes back, then
    /// `complete` (options to select from) or `error`.
    GrantFlowStatus {
        Pending => "pending",
        Complete => "complete",
        Error => "error",
    }
}

/// The backfill ladder: each pass reads one rung deeper, then runs settle on the recent days.
pub const BACKFILL_LADDER: [i64; 3] = [30, 365, 3650];
/// After a successful run that left the ladder unclimbed, the connection is due again this soon
/// (not after its kind's cadence): the next sync pass reads the next rung, so a new connection
/// shows its whole history within a few passes. Not zero, so the pass that ran the rung (and any
/// pass at the same instant) does not run it again at once.
pub const NEXT_RUNG_AFTER_MS: i64 = 1_000;
/// A run whose stamp is older than this is presumed dead: `syncing` reads false and another
/// instance may take the connection.
pub const STALE_RUN_MS: i64 = 15 * MINUTE_MS;
/// The first retry after a failure; each further consecutive failure doubles it.
pub const FIRST_BACKOFF_MS: i64 = 5 * MINUTE_MS;
/// Backoff never waits longer than this.
pub const MAX_BACKOFF_MS: i64 = 24 * HOUR_MS;

/// What the next run reads, given how deep the source has read so far: the next rung while the
/// ladder is unclimbed (`backfill_days` 0, 30, 365), afterwards the recent days. A quota-bound
/// kind has no ladder: its vendor serves a reading of now (an SEO tool's ranks) or a few days
/// (session replay's export), and every extra run would spend the customer's units.
pub fn next_window_days(kind: ConnectionKind, backfill_days: i64) -> i64 {
    next_window_days_within(kind, backfill_days, DEEPEST_RUNG)
}

/// The deepest rung: everything there is to read.
pub const DEEPEST_RUNG: i64 = BACKFILL_LADDER[BACKFILL_LADDER.len() - 1];

/// [`next_window_days`] for a workspace whose plan reads at most `max_days` of history (issue
/// 41): the ladder stops at that depth (a rung deeper is cut to it), then the recent days; a
/// plan reading deeper later lets the ladder climb on from where it stopped.
pub fn next_window_days_within(kind: ConnectionKind, backfill_days: i64, max_days: i64) -> i64 {
    if kind.spec().quota_bound {
        return kind.recent_days();
    }
    BACKFILL_LADDER
        .into_iter()
        .map(|rung| rung.min(max_days))
        .find(|rung| *rung > backfill_days)
        .unwrap_or_else(|| kind.recent_days())
}

/// How deep the source has read after a successful run of `window_days`.
pub fn backfill_after(backfill_days: i64, window_days: i64) -> i64 {
    backfill_days.max(window_days)
}

/// Whether the ladder is climbed: the source has read everything there is to read.
pub fn backfill_complete(backfill_days: i64) -> bool {
    BACKFILL_LADDER
        .last()
        .is_some_and(|deepest| backfill_days >= *deepest)
}

/// When a connection whose run at `ran_at` succeeded, leaving it `backfill_days` deep, is due
/// again: at the next pass while the ladder is unclimbed as far as the plan's `max_days` allow,
/// then at the kind's cadence (at once for a quota-bound kind, which has no ladder).
pub fn next_run_after_success(
    kind: ConnectionKind,
    ran_at: Timestamp,
    backfill_days: i64,
    max_days: i64,
) -> Timestamp {
    if kind.spec().quota_bound
        || backfill_complete(backfill_days)
        || backfill_days >= max_days.min(DEEPEST_RUNG)
    {
        ran_at.plus_millis(kind.cadence_ms())
    } else {
        ran_at.plus_millis(NEXT_RUNG_AFTER_MS)
    }
}
/// When to try again after `failures` consecutive failures (1 for the first).
pub fn retry_at(now: Timestamp, failures: i64) -> Timestamp {
    let doublings = u32::try_from(failures.saturating_sub(1).clamp(0, 20)).unwrap_or(20);
    let wait = FIRST_BACKOFF_MS
        .saturating_mul(1_i64 << doublings)
        .min(MAX_BACKOFF_MS);
    now.plus_millis(wait)
}

/// Whether a run stamped at `started`, its holder last beating at `heartbeat`, still counts as
/// running at `now`: at most [`STALE_RUN_MS`] old, and its heartbeat alive (a run killed with
/// its process stops beating, and reads as not running within `lease::HEARTBEAT_STALE_MS`).
pub fn is_running(
    started: Option<Timestamp>,
    heartbeat: Option<Timestamp>,
    now: Timestamp,
) -> bool {
    started.is_some_and(|at| now.millis() - at.millis() < STALE_RUN_MS)
        && crate::lease::beats(heartbeat, now)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DAY_MS;

    #[test]
    fn the_ladder_climbs_one_rung_per_pass_then_reads_recent_days() {
        let kind = ConnectionKind::Payments;
        let mut depth = 0;
        let mut windows = Vec::new();
        for _ in 0..5 {
            let days = next_window_days(kind, depth);
            windows.push(days);
            depth = backfill_after(depth, days);
        }
        assert_eq!(windows, vec![30, 365, 3650, 7, 7]);
        assert_eq!(depth, 3650);
        // Web analytics settles on its kind's 3 days.
        assert_eq!(next_window_days(ConnectionKind::AnalyticsA, 3650), 3);
        assert_eq!(next_window_days(ConnectionKind::AnalyticsA, 30), 365);
    }

    #[test]
    fn a_plans_history_stops_the_ladder_and_an_upgrade_climbs_on() {
        let kind = ConnectionKind::Payments;
        let ran = Timestamp::from_millis(DAY_MS);
        // Free reads 30 days, then the recent days at the cadence.
        assert_eq!(next_window_days_within(kind, 0, 30), 30);
        assert_eq!(next_window_days_within(kind, 30, 30), 7);
        assert_eq!(
            next_run_after_success(kind, ran, 30, 30),
            ran.plus_millis(kind.cadence_ms())
        );
        // Indie stops at a year; Growth climbs on from there.
        assert_eq!(next_window_days_within(kind, 30, 365), 365);
        assert_eq!(next_window_days_within(kind, 365, 365), 7);
        assert_eq!(next_window_days_within(kind, 30, 3650), 365);
        assert_eq!(next_window_days_within(kind, 365, 3650), 3650);
        assert_eq!(
            next_run_after_success(kind, ran, 365, 3650),
            ran.plus_millis(NEXT_RUNG_AFTER_MS)
        );
    }

    #[test]
    fn backoff_doubles_from_five_minutes_and_stops_at_a_day() {
        let now = Timestamp::from_millis(DAY_MS);
        let waits: Vec<i64> = (1..=12)
            .map(|failures| retry_at(now, failures).millis() - now.millis())
            .collect();
        assert_eq!(waits[0], 5 * MINUTE_MS);
        assert_eq!(waits[1], 10 * MINUTE_MS);
        assert_eq!(waits[2], 20 * MINUTE_MS);
        assert_eq!(waits[11], MAX_BACKOFF_MS);
        assert!(waits.windows(2).all(|pair| pair[0] <= pair[1]));
    }

    #[test]
    fn a_run_older_than_fifteen_minutes_is_not_running() {
        let start = Timestamp::from_millis(DAY_MS);
        assert!(is_running(
            Some(start),
            None,
            start.plus_millis(14 * MINUTE_MS)
        ));
        assert!(!is_running(
            Some(start),
            None,
            start.plus_millis(15 * MINUTE_MS)
        ));
        assert!(!is_running(None, None, start));
        // Beating, it still ends at fifteen minutes.
        let beat = start.plus_millis(15 * MINUTE_MS - 1_000);
        assert!(!is_running(
            Some(start),
            Some(beat),
            start.plus_millis(15 * MINUTE_MS)
        ));
    }

    #[test]
    fn a_run_whose_heartbeat_stopped_is_not_running() {
        let start = Timestamp::from_millis(DAY_MS);
        assert!(is_running(
            Some(start),
            Some(start),
            start.plus_millis(44_000)
        ));
        assert!(!is_running(
            Some(start),
            Some(start),
            start.plus_millis(45_000)
        ));
        let beat = start.plus_millis(30_000);
        assert!(is_running(
            Some(start),
            Some(beat),
            start.plus_millis(60_000)
        ));
    }

    #[test]
    fn an_unclimbed_ladder_is_due_at_the_next_pass_then_at_the_cadence() {
        let kind = ConnectionKind::SearchAds;
        let ran = Timestamp::from_millis(DAY_MS);
        for depth in [0, 30, 365] {
            assert!(!backfill_complete(depth));
            assert_eq!(
                next_run_after_success(kind, ran, depth, DEEPEST_RUNG),
                ran.plus_millis(NEXT_RUNG_AFTER_MS)
            );
        }
        assert!(backfill_complete(3650));
        assert_eq!(
            next_run_after_success(kind, ran, 3650, DEEPEST_RUNG),
            ran.plus_millis(kind.cadence_ms())
        );
    }

    #[test]
    fn a_quota_bound_kind_has_no_ladder_and_runs_at_its_cadence() {
        let metered = ConnectionKind::SeoB;
        assert!(metered.spec().quota_bound);
        assert_eq!(next_window_days(metered, 0), metered.recent_days());
        let ran = Timestamp::from_millis(DAY_MS);
        assert_eq!(
            next_run_after_success(
                metered,
                ran,
                backfill_after(0, metered.recent_days()),
                DEEPEST_RUNG
            ),
            ran.plus_millis(metered.cadence_ms())
        );
    }
}
