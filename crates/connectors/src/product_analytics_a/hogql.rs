//! The HogQL a run sends, one statement per question, each bounded to the window
//! (`[from, to)`, UTC) and grouped by UTC day so PostHog answers a few rows per day, never
//! events one by one. Event names are quoted as HogQL string literals (backslash and quote
//! escaped); the maps were checked before they were stored.
//!
//! PostHog's query API answers at most 100 rows to a statement without its own `LIMIT` ("API
//! queries return up to 100 rows by default; with your own LIMIT, up to 50k rows per query",
//! posthog.com/docs/api/queries), so every statement is sent through [`paged`]: an explicit
//! `LIMIT`/`OFFSET` over a total `ORDER BY`, and the client asks the next page while the answer
//! says `hasMore`.

use payback_domain::Timestamp;

/// The friction events PostHog's autocapture and exception capture record.
pub(crate) const RAGE_CLICK: &str = "$rageclick";
pub(crate) const DEAD_CLICK: &str = "$dead_click";
pub(crate) const EXCEPTION: &str = "$exception";

/// Rows asked per query page: well under the documented 50,000 a `LIMIT` may ask.
pub(crate) const PAGE_ROWS: usize = 10_000;
/// Pages one statement may take before the run gives up rather than read without end.
pub(crate) const MAX_PAGES: usize = 20;

/// `statement` limited to `limit` rows from `offset` (the statement orders its rows totally, so
/// pages neither skip nor repeat a row).
pub(crate) fn paged(statement: &str, limit: usize, offset: usize) -> String {
    format!("{statement} LIMIT {limit} OFFSET {offset}")
}

/// A HogQL string literal.
pub(crate) fn literal(text: &str) -> String {
    format!("'{}'", text.replace('\\', "\\\\").replace('\'', "\\'"))
}

/// `YYYY-MM-DD HH:MM:SS` (UTC), as `toDateTime` reads it.
fn instant(at: Timestamp) -> String {
    let text = at.to_rfc3339();
    text.get(..19).unwrap_or(&text).replace('T', " ")
}

fn between(column: &str, from: Timestamp, to: Timestamp) -> String {
    format!(
        "{column} >= toDateTime({}) AND {column} < toDateTime({})",
        literal(&instant(from)),
        literal(&instant(to))
    )
}

/// Sessions per UTC day of their start and entry path: columns `day`, `path`, `sessions`.
pub(crate) fn sessions_by_entry_path(from: Timestamp, to: Timestamp) -> String {
    format!(
        "SELECT toDate($start_timestamp) AS day, $entry_pathname AS path, count() AS sessions \
         FROM sessions WHERE {} GROUP BY day, path ORDER BY day, path",
        between("$start_timestamp", from, to)
    )
}

/// Each of `events`' count per UTC day: columns `event`, `day`, `count`.
pub(crate) fn events_by_day(events: &[&str], from: Timestamp, to: Timestamp) -> String {
    format!(
        "SELECT event, toDate(timestamp) AS day, count() AS count FROM events \
         WHERE event IN ({}) AND {} GROUP BY event, day ORDER BY event, day",
        list(events),
        between("timestamp", from, to)
    )
}

/// The friction events' count per UTC day and `$pathname`: columns `event`, `day`, `path`,
/// `count`.
pub(crate) fn friction_by_path(from: Timestamp, to: Timestamp) -> String {
    format!(
        "SELECT event, toDate(timestamp) AS day, properties.$pathname AS path, count() AS count \
         FROM events WHERE event IN ({}) AND {} GROUP BY event, day, path ORDER BY event, day, path",
        list(&[RAGE_CLICK, DEAD_CLICK, EXCEPTION]),
        between("timestamp", from, to)
    )
}

/// The sessions that had a rage or dead click: columns `session_id`, `event`.
pub(crate) fn click_signals_by_session(from: Timestamp, to: Timestamp) -> String {
    format!(
        "SELECT $session_id AS session_id, event FROM events WHERE event IN ({}) AND {} \
         GROUP BY session_id, event ORDER BY session_id, event",
        list(&[RAGE_CLICK, DEAD_CLICK]),
        between("timestamp", from, to)
    )
}

fn list(events: &[&str]) -> String {
    events
        .iter()
        .map(|event| literal(event))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_are_escaped_and_windows_are_utc_instants() {
        assert_eq!(literal("it's \\ ok"), "'it\\'s \\\\ ok'");
        let from = Timestamp::parse_day("2026-03-01").unwrap();
        let to = Timestamp::parse_day("2026-03-04").unwrap();
        let query = events_by_day(&["signed_up", "a'b"], from, to);
        assert!(query.contains("event IN ('signed_up', 'a\\'b')"), "{query}");
        assert!(
            query.contains("timestamp >= toDateTime('2026-03-01 00:00:00') AND timestamp < toDateTime('2026-03-04 00:00:00')"),
            "{query}"
        );
    }

    #[test]
    fn every_statement_orders_its_rows_and_pages_with_an_explicit_limit() {
        let from = Timestamp::parse_day("2026-03-01").unwrap();
        let to = Timestamp::parse_day("2026-03-02").unwrap();
        for statement in [
            sessions_by_entry_path(from, to),
            events_by_day(&["a"], from, to),
            friction_by_path(from, to),
            click_signals_by_session(from, to),
        ] {
            assert!(statement.contains(" ORDER BY "), "{statement}");
            assert!(!statement.contains("LIMIT"), "{statement}");
            let page = paged(&statement, PAGE_ROWS, 20_000);
            assert!(page.ends_with(" LIMIT 10000 OFFSET 20000"), "{page}");
        }
    }
}
