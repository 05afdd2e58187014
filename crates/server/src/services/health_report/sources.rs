//! The verdict on a group of connections (payments, the ad networks, the SEO and social
//! sources, the databases): each one's freshness as `GET /health` rates it
//! (`services::health::connection_freshness`: fresh within two of its kind's cadences, failing
//! once a run failed), the worst one deciding the check.

use payback_domain::connection::ConnectionKind;
use payback_store::connections::ConnectionRow;

use crate::services::health::connection_freshness;

use super::check::{CheckId, HealthCheck, HealthStatus};
use super::context::Context;
use super::text;

/// The longest piece of a connection's last error an evidence line quotes.
const ERROR_CHARS: usize = 160;

/// What a freshness word is worth as a verdict: `fresh` passes, `stale` and `never` (no
/// successful run yet) warn, `failing` and `disabled` (nothing is read) fail.
fn status_of(freshness: &str) -> HealthStatus {
    match freshness {
        "fresh" => HealthStatus::Pass,
        "stale" | "never" => HealthStatus::Warn,
        _ => HealthStatus::Fail,
    }
}

fn severity(status: HealthStatus) -> u8 {
    match status {
        HealthStatus::Pass | HealthStatus::Skip => 0,
        HealthStatus::Warn => 1,
        HealthStatus::Fail => 2,
    }
}

/// The check over `rows` (at least one): every connection's freshness in the evidence, the
/// worst one's status and the action that fixes it.
pub fn freshness_check(
    ctx: &Context<'_>,
    id: CheckId,
    rows: &[(ConnectionKind, &ConnectionRow)],
) -> HealthCheck {
    let rated: Vec<(ConnectionKind, &ConnectionRow, &'static str)> = rows
        .iter()
        .map(|(kind, row)| (*kind, *row, connection_freshness(row, ctx.now)))
        .collect();
    let evidence: Vec<String> = rated
        .iter()
        .map(|(kind, row, freshness)| describe(ctx, *kind, row, freshness))
        .collect();
    let worst = rated
        .iter()
        .max_by_key(|(_, _, freshness)| severity(status_of(freshness)));
    match worst {
        Some((kind, row, freshness)) => id.with(
            status_of(freshness),
            evidence.join("; "),
            action(ctx, *kind, row, freshness),
        ),
        None => id.skip("No connection", "Connect the source first."),
    }
}

/// `payments fresh, last sync 20 min ago`.
fn describe(
    ctx: &Context<'_>,
    kind: ConnectionKind,
    row: &ConnectionRow,
    freshness: &str,
) -> String {
    let last = row.last_sync_at.map_or_else(
        || "never synced".to_owned(),
        |at| format!("last sync {} ago", text::ago(ctx.now.millis() - at)),
    );
    let mut line = format!("{kind} {freshness}, {last}");
    if row.consecutive_failures > 0 {
        line.push_str(&format!(
            ", {} failed run(s) in a row",
            row.consecutive_failures
        ));
        if let Some(error) = &row.last_error {
            let error: String = error.chars().take(ERROR_CHARS).collect();
            line.push_str(&format!(": {error}"));
        }
    }
    line
}

fn action(ctx: &Context<'_>, kind: ConnectionKind, row: &ConnectionRow, freshness: &str) -> String {
    let base = ctx.path(&format!("/connections/{}", kind.path_word()));
    let run = if kind.syncs_on_demand() {
        format!("start a run with POST {base}/sync")
    } else {
        "it runs on its own schedule".to_owned()
    };
    match freshness {
        "failing" => format!(
            "Fix what the {kind} connection's last error says (reconnect it if its access was revoked), check it with POST {base}/test, then {run}."
        ),
        "disabled" => format!(
            "The {kind} connection is disabled and reads nothing: reconnect it, or disconnect it (POST {base}/disconnect) if it is no longer used."
        ),
        "never" if row.status == payback_domain::connection::ConnectionStatus::Pending => format!(
            "The {kind} connection is staged (pending): finish connecting it so its first run can start."
        ),
        "never" => format!(
            "The {kind} connection has not completed a run yet: {run}, and check GET /health."
        ),
        _ => format!(
            "The {kind} connection has not synced for more than two of its cycles: {run}, and check GET /health for its last error."
        ),
    }
}
