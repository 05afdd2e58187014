//! Connections to sources and the rules of their sync runs: the vocabulary of kinds and
//! statuses, the backfill ladder, the cadence and the backoff after failures.

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
    /// The source kinds Payback can sync today. The spec's vocabulary has more; each arrives
    /// with its connector.
    ConnectionKind {
        Payments => "payments",
        SqlA => "sql_a",
        SqlB => "sql_b",
        Docdb => "docdb",
    }
}

impl ConnectionKind {
    /// The kind as written in paths (`payments`, `sql-a`): underscores become hyphens.
    pub fn path_word(self) -> String {
        self.as_str().replace('_', "-")
    }

    /// Parses either spelling, `sql_a` or `sql-a`.
    pub fn from_path(word: &str) -> Option<Self> {
        Self::parse(&word.replace('-', "_"))
    }

    /// How long after a successful run the next one is due.
    pub fn cadence_ms(self) -> i64 {
        // Every kind so far is hourly: payments for timely revenue, databases per the spec.
        match self {
            ConnectionKind::Payments
            | ConnectionKind::SqlA
            | ConnectionKind::SqlB
            | ConnectionKind::Docdb => HOUR_MS,
        }
    }

    /// Days re-read by every run once the history is complete.
    pub fn recent_days(self) -> i64 {
        match self {
            ConnectionKind::Payments
            | ConnectionKind::SqlA
            | ConnectionKind::SqlB
            | ConnectionKind::Docdb => RECENT_DAYS,
        }
    }

    /// Whether the kind reads a customer's database through event maps.
    pub fn is_database(self) -> bool {
        matches!(
            self,
            ConnectionKind::SqlA | ConnectionKind::SqlB | ConnectionKind::Docdb
        )
    }
}

/// Every `kind` of the spec's vocabulary, connectable or not yet.
pub const VOCABULARY: [&str; 18] = [
    "analytics_a",
    "tagmgr",
    "search_ads",
    "search_console",
    "search_b",
    "seo_a",
    "seo_b",
    "geo_a",
    "replay_a",
    "product_analytics_a",
    "social_ads_a",
    "social_ads_b",
    "social_a",
    "social_b",
    "payments",
    "sql_a",
    "sql_b",
    "docdb",
];

/// Kinds a person may sync on demand. The quota-bound sources (`seo_a`, `seo_b`, `replay_a`)
/// and the ads account (synced by its own schedule) are not among them; the tag manager is,
/// re-running its tag audit.
pub const SYNC_ON_DEMAND: [&str; 14] = [
    "sql_a",
    "sql_b",
    "docdb",
    "analytics_a",
    "product_analytics_a",
    "geo_a",
    "search_console",
    "search_b",
    "social_ads_a",
    "social_ads_b",
    "social_a",
    "social_b",
    "payments",
    "tagmgr",
];

/// The path word (`sql-a` or `sql_a`) as a vocabulary kind, if it is one.
pub fn vocabulary_kind(word: &str) -> Option<&'static str> {
    let kind = word.replace('-', "_");
    VOCABULARY.into_iter().find(|known| *known == kind)
}

/// Whether `sync now` is allowed for the vocabulary kind named by `word`.
pub fn syncs_on_demand(word: &str) -> bool {
    vocabulary_kind(word).is_some_and(|kind| SYNC_ON_DEMAND.contains(&kind))
}

/// The backfill ladder: each pass reads one rung deeper, then runs settle on the recent days.
pub const BACKFILL_LADDER: [i64; 3] = [30, 365, 3650];
/// What a run re-reads once the ladder is climbed (late refunds and disputes land here).
pub const RECENT_DAYS: i64 = 7;
/// A run whose stamp is older than this is presumed dead: `syncing` reads false and another
/// instance may take the connection.
pub const STALE_RUN_MS: i64 = 15 * MINUTE_MS;
/// The first retry after a failure; each further consecutive failure doubles it.
pub const FIRST_BACKOFF_MS: i64 = 5 * MINUTE_MS;
/// Backoff never waits longer than this.
pub const MAX_BACKOFF_MS: i64 = 24 * HOUR_MS;

/// What the next run reads, given how deep the source has read so far: the next rung while the
/// ladder is unclimbed (`backfill_days` 0, 30, 365), afterwards the recent days.
pub fn next_window_days(kind: ConnectionKind, backfill_days: i64) -> i64 {
    BACKFILL_LADDER
        .into_iter()
        .find(|rung| *rung > backfill_days)
        .unwrap_or_else(|| kind.recent_days())
}

/// How deep the source has read after a successful run of `window_days`.
pub fn backfill_after(backfill_days: i64, window_days: i64) -> i64 {
    backfill_days.max(window_days)
}

/// When to try again after `failures` consecutive failures (1 for the first).
pub fn retry_at(now: Timestamp, failures: i64) -> Timestamp {
    let doublings = u32::try_from(failures.saturating_sub(1).clamp(0, 20)).unwrap_or(20);
    let wait = FIRST_BACKOFF_MS
        .saturating_mul(1_i64 << doublings)
        .min(MAX_BACKOFF_MS);
    now.plus_millis(wait)
}

/// Whether a run stamped at `started` still counts as running at `now`.
pub fn is_running(started: Option<Timestamp>, now: Timestamp) -> bool {
    started.is_some_and(|at| now.millis() - at.millis() < STALE_RUN_MS)
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
        assert!(is_running(Some(start), start.plus_millis(14 * MINUTE_MS)));
        assert!(!is_running(Some(start), start.plus_millis(15 * MINUTE_MS)));
        assert!(!is_running(None, start));
    }

    #[test]
    fn kinds_read_both_path_spellings() {
        assert_eq!(
            ConnectionKind::from_path("payments"),
            Some(ConnectionKind::Payments)
        );
        assert_eq!(ConnectionKind::Payments.path_word(), "payments");
        assert_eq!(ConnectionKind::from_path("nothing"), None);
        assert_eq!(vocabulary_kind("sql-a"), Some("sql_a"));
        assert!(syncs_on_demand("payments") && syncs_on_demand("social-ads-a"));
        assert!(
            !syncs_on_demand("seo-a")
                && !syncs_on_demand("replay_a")
                && !syncs_on_demand("nothing")
        );
    }
}
