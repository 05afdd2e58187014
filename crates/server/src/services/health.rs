//! `GET /health`: is the pipeline healthy? Failing jobs, how fresh each source is, the queue's
//! backlog, and per product the share of revenue nobody can attribute.

use payback_domain::connection::{self, ConnectionStatus};
use payback_domain::span::Span;
use payback_domain::{HOUR_MS, MINUTE_MS, Timestamp};
use payback_store::reports::{activity, attribution};
use payback_store::{cards, connections, jobs, products};
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::ApiResult;
use crate::services::acting::Caller;
use crate::state::AppState;

/// Unattributed revenue at or above this share warns, above the next fails.
const WARN_SHARE: f64 = 0.10;
const FAIL_SHARE: f64 = 0.25;
/// Days the unattributed share is measured over.
const ATTRIBUTION_DAYS: i64 = 30;
/// Tracking with no event for this long is stale (the same threshold as the silent alert).
const TRACKING_STALE_MS: i64 = 48 * HOUR_MS;
/// Proposals expiring within this long are counted apart.
const EXPIRING_SOON_MS: i64 = 24 * HOUR_MS;

#[derive(Debug, Serialize, ToSchema)]
pub struct PipelineHealth {
    /// Background jobs whose last runs failed (`consecutive_failures` > 0).
    pub jobs: Vec<JobHealth>,
    /// Every source per product: first-party tracking and each connection.
    pub sources: Vec<SourceHealth>,
    /// Cards waiting for a human.
    pub queue: Option<QueueHealth>,
    /// Per product, the share of the last 30 days' revenue that cannot be attributed.
    pub attribution: Vec<AttributionHealth>,
    pub products: Vec<ProductHealth>,
    pub now: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct JobHealth {
    pub job: String,
    pub consecutive_failures: i64,
    pub last_ok_at: Option<String>,
    pub next_run_at: String,
    /// Operators only: job errors may name other accounts' rows.
    pub last_error: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SourceHealth {
    pub product_slug: String,
    /// `tracking` (events through the API and the snippet) or a connection kind.
    pub source: String,
    /// `fresh`, `stale` (nothing recent), `failing` (the last runs failed), `never` (no data
    /// yet) or `disabled`.
    pub status: String,
    /// The newest data: the last event for tracking, the last successful sync for connections.
    pub last_seen_at: Option<String>,
    /// For connections, runs failed in a row; for tracking, accepted batches the database
    /// refused while storing them (set aside in `ingest_failures`).
    pub consecutive_failures: i64,
    pub last_error: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct QueueHealth {
    pub pending: i64,
    pub oldest_pending_at: Option<String>,
    /// Pending proposals that expire within 24 hours.
    pub expiring_within_24h: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AttributionHealth {
    pub product_slug: String,
    pub window_days: i64,
    pub revenue_cents: i64,
    pub unattributed_cents: i64,
    /// unattributed / revenue; null without positive revenue.
    pub unattributed_share: Option<f64>,
    /// `healthy` (under 10%), `warn` (10-25%), `fail` (over 25%) or `no_revenue`.
    pub status: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ProductHealth {
    pub slug: String,
    pub name: String,
    pub stage: String,
    /// The worst status among the product's sources and its attribution share.
    pub status: String,
}

pub async fn report(state: &AppState, caller: &Caller) -> ApiResult<PipelineHealth> {
    let now = state.clock.now();
    let visibility = caller.visibility()?;
    // Like a report, it waits for the fold at most `read_wait_ms` and says how many of the
    // listed products' events it does not count yet (`X-Payback-Pending-Events`): the page a
    // founder opens to see whether the pipeline is well must answer during a backfill too.
    let caught_up = state
        .ingest
        .settle_all_within(state.config.read_wait())
        .await?;
    let db = &state.store;
    let stamp = |ms: i64| Timestamp::from_millis(ms).to_rfc3339();

    let jobs = jobs::leases(db)
        .await?
        .into_iter()
        // A lease row of a job this version no longer has (the sync pass stopped being a leased
        // job) would otherwise report its last failures forever.
        .filter(|lease| {
            crate::jobs::Job::ALL
                .iter()
                .any(|job| job.name() == lease.job)
        })
        .filter(|lease| lease.consecutive_failures > 0)
        .map(|lease| JobHealth {
            job: lease.job,
            consecutive_failures: lease.consecutive_failures,
            last_ok_at: lease.last_ok_at.map(stamp),
            next_run_at: stamp(lease.next_run_at),
            last_error: lease.last_error.filter(|_| caller.is_operator),
        })
        .collect();

    let product_rows = products::list(db, &visibility).await?;
    crate::services::products::record_pending_of(state, caught_up, &product_rows).await?;
    let connection_rows = connections::list(db, &visibility).await?;
    let span = Span::days_ending(now, ATTRIBUTION_DAYS);
    let mut sources = Vec::new();
    let mut attribution_rows = Vec::new();
    let mut product_health = Vec::new();
    for product in &product_rows {
        let mut worst = Severity::Ok;
        let last_event = activity::last_event_at(db, &product.id).await?;
        // Accepted batches the database later refused (`ingest_failures`) make tracking
        // failing: those events are missing from every number until someone looks.
        let (set_aside, newest_error) = activity::ingest_failures(db, &product.id).await?;
        let tracking = tracking_freshness(last_event, set_aside, now);
        worst = worst.max(Severity::of_source(tracking));
        sources.push(SourceHealth {
            product_slug: product.slug.clone(),
            source: "tracking".to_owned(),
            status: tracking.to_owned(),
            last_seen_at: last_event.map(stamp),
            consecutive_failures: set_aside,
            last_error: newest_error.map(|error| {
                format!("{set_aside} accepted batch(es) could not be stored and were set aside in ingest_failures; the newest: {error}")
            }),
        });
        for row in connection_rows
            .iter()
            .filter(|c| c.product_id == product.id)
        {
            let status = connection_freshness(row, now);
            worst = worst.max(Severity::of_source(status));
            sources.push(SourceHealth {
                product_slug: product.slug.clone(),
                source: row.kind.as_str().to_owned(),
                status: status.to_owned(),
                last_seen_at: row.last_sync_at.map(stamp),
                consecutive_failures: row.consecutive_failures,
                last_error: row.last_error.clone(),
            });
        }
        let by_channel = attribution::revenue_by_first_channel(db, &product.id, span).await?;
        let revenue_cents: i64 = by_channel.iter().map(|row| row.cents).sum();
        let unattributed_cents: i64 = by_channel
            .iter()
            .filter(|row| row.channel.is_none())
            .map(|row| row.cents)
            .sum();
        let (share, status) = attribution_status(revenue_cents, unattributed_cents);
        worst = worst.max(Severity::of_attribution(status));
        attribution_rows.push(AttributionHealth {
            product_slug: product.slug.clone(),
            window_days: ATTRIBUTION_DAYS,
            revenue_cents,
            unattributed_cents,
            unattributed_share: share,
            status: status.to_owned(),
        });
        product_health.push(ProductHealth {
            slug: product.slug.clone(),
            name: product.name.clone(),
            stage: product.stage.as_str().to_owned(),
            status: worst.word().to_owned(),
        });
    }

    // Every pending card: the backlog's size and age are the point (no API list).
    let pending = cards::listed(db, &visibility, cards::QueueView::Pending, now, i64::MAX).await?;
    let expiring_within_24h = pending
        .iter()
        .filter(|card| {
            card.expires_at
                .is_some_and(|at| at - now.millis() <= EXPIRING_SOON_MS)
        })
        .count();
    let queue = Some(QueueHealth {
        pending: i64::try_from(pending.len()).unwrap_or(i64::MAX),
        oldest_pending_at: pending.iter().map(|card| card.created_at).min().map(stamp),
        expiring_within_24h: i64::try_from(expiring_within_24h).unwrap_or(i64::MAX),
    });

    Ok(PipelineHealth {
        jobs,
        sources,
        queue,
        attribution: attribution_rows,
        products: product_health,
        now: now.to_rfc3339(),
    })
}

/// First-party tracking (events through the API and the snippet): failing while accepted
/// batches sit set aside, `never` before the first event, stale after 48 hours of silence.
/// The per-product health report reads the same.
pub(crate) fn tracking_freshness(
    last_event: Option<i64>,
    set_aside: i64,
    now: Timestamp,
) -> &'static str {
    match last_event {
        _ if set_aside > 0 => "failing",
        None => "never",
        Some(at) if now.millis() - at > TRACKING_STALE_MS => "stale",
        Some(_) => "fresh",
    }
}

/// A connection is fresh while its last success is within two of its cadences (plus the run
/// time a lease allows); failing once its last run failed. The per-product health report
/// reads the same.
pub(crate) fn connection_freshness(
    row: &connections::ConnectionRow,
    now: Timestamp,
) -> &'static str {
    if row.status == ConnectionStatus::Disabled {
        return "disabled";
    }
    if row.consecutive_failures > 0 {
        return "failing";
    }
    let cadence = row.kind.cadence_ms();
    match row.last_sync_at {
        None => "never",
        Some(at) if now.millis() - at > 2 * cadence + connection::STALE_RUN_MS + MINUTE_MS => {
            "stale"
        }
        Some(_) => "fresh",
    }
}

/// The DESIGN.md thresholds: under 10% healthy, 10-25% warn, over 25% fail.
pub(crate) fn attribution_status(
    revenue_cents: i64,
    unattributed_cents: i64,
) -> (Option<f64>, &'static str) {
    if revenue_cents <= 0 {
        return (None, "no_revenue");
    }
    // Cents of one product's 30 days fit a f64 exactly.
    #[allow(clippy::cast_precision_loss)]
    let share = unattributed_cents as f64 / revenue_cents as f64;
    let status = if share < WARN_SHARE {
        "healthy"
    } else if share <= FAIL_SHARE {
        "warn"
    } else {
        "fail"
    };
    (Some(share), status)
}

/// Ordered so that the worst of several statuses is their maximum.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Severity {
    Ok,
    Warn,
    Fail,
}

impl Severity {
    fn of_source(status: &str) -> Self {
        match status {
            "failing" => Severity::Fail,
            "stale" | "never" => Severity::Warn,
            _ => Severity::Ok,
        }
    }

    fn of_attribution(status: &str) -> Self {
        match status {
            "fail" => Severity::Fail,
            "warn" => Severity::Warn,
            _ => Severity::Ok,
        }
    }

    fn word(self) -> &'static str {
        match self {
            Severity::Ok => "healthy",
            Severity::Warn => "warn",
            Severity::Fail => "fail",
        }
    }
}

#[cfg(test)]
mod tests {
    use payback_domain::connection::ConnectionKind;

    use super::*;

    fn synced(kind: ConnectionKind, last_sync_at: Option<i64>) -> connections::ConnectionRow {
        connections::ConnectionRow {
            id: "c".to_owned(),
            account_id: "a".to_owned(),
            product_id: "p".to_owned(),
            product_slug: "shop".to_owned(),
            kind,
            status: ConnectionStatus::Active,
            config: "{}".to_owned(),
            credential_id: None,
            backfill_days: 30,
            last_sync_at,
            last_error: None,
            consecutive_failures: 0,
            next_sync_at: None,
            syncing_since: None,
            sync_heartbeat_at: None,
            sync_phase: None,
            created_at: 0,
            event_maps: "[]".to_owned(),
            last_detail: None,
        }
    }

    #[test]
    fn every_kind_goes_stale_after_two_of_its_own_cadences() {
        let now = Timestamp::from_millis(1_795_262_400_000);
        let allowance = connection::STALE_RUN_MS + MINUTE_MS;
        for kind in ConnectionKind::all() {
            let limit = 2 * kind.spec().cadence.millis() + allowance;
            let at = |age: i64| Some(now.millis() - age);
            assert_eq!(
                connection_freshness(&synced(kind, at(limit)), now),
                "fresh",
                "{kind}"
            );
            assert_eq!(
                connection_freshness(&synced(kind, at(limit + 1)), now),
                "stale",
                "{kind}"
            );
            assert_eq!(
                connection_freshness(&synced(kind, None), now),
                "never",
                "{kind}"
            );
        }
    }

    #[test]
    fn the_unattributed_share_has_three_bands() {
        assert_eq!(attribution_status(0, 0), (None, "no_revenue"));
        assert_eq!(attribution_status(-500, 0), (None, "no_revenue"));
        assert_eq!(attribution_status(1_000, 99).1, "healthy");
        assert_eq!(attribution_status(1_000, 100).1, "warn");
        assert_eq!(attribution_status(1_000, 250).1, "warn");
        assert_eq!(attribution_status(1_000, 251).1, "fail");
        assert_eq!(attribution_status(1_000, 100).0, Some(0.1));
    }
}
