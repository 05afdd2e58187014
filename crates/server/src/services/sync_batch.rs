//! Writing what one sync pass read (a [`SyncOutput`]), each part where it belongs: events and
//! revenue rows through the events API's ingestion path (namespace `<kind>:<slug>`, so re-reads
//! store nothing twice), daily stage volumes and spend by replacing the days the pass read, and
//! snapshots and social posts by upserting each under the connection's kind, in one transaction.
//! Every part is checked before anything of the batch is written. A run that stored sessions by
//! landing page or friction per URL then lets the landing pages discover the paths it counted.

use std::collections::BTreeSet;

use payback_connectors::database::EventSink;
use payback_connectors::{
    ConnectorError, DayRange, PageSink, RevenueRow, Snapshot, SocialPost, SourceFuture,
    StageDaysRead, SyncOutput,
};
use payback_domain::Timestamp;
use payback_domain::connection::ConnectionKind;
use payback_domain::event::IncomingEvent;
use payback_domain::snapshot_metric;
use payback_domain::span::Span;
use payback_store::aggregate_stages::{self, StageVolume};
use payback_store::landing_pages::friction::FRICTION_METRICS;
use payback_store::products::ProductRow;
use payback_store::snapshots::{self, SnapshotRow};
use payback_store::social_posts::{self, SocialPostRow};

use crate::input::Window;
use crate::services::ingest::{self, Source};
use crate::services::{landing_pages, spend_intake};
use crate::state::AppState;

/// Writes pages of events through ingestion, in batches of its cap.
pub struct IngestSink<'a> {
    pub state: &'a AppState,
    pub product: &'a ProductRow,
    pub source: Source,
}

impl EventSink for IngestSink<'_> {
    async fn write(&mut self, events: Vec<IncomingEvent>) -> Result<(), ConnectorError> {
        for batch in events.chunks(self.source.max_batch()) {
            ingest::ingest(self.state, self.product, self.source, batch.to_vec())
                .await
                .map_err(|err| {
                    ConnectorError::Config(format!("writing the events failed: {err}"))
                })?;
        }
        Ok(())
    }
}

impl PageSink for IngestSink<'_> {
    fn write(&mut self, events: Vec<IncomingEvent>) -> SourceFuture<'_, ()> {
        Box::pin(EventSink::write(self, events))
    }
}

/// Writes the batch of a `kind` run; answers the run's status line, or why the batch was
/// refused.
pub async fn write(
    sink: &mut IngestSink<'_>,
    kind: ConnectionKind,
    batch: SyncOutput,
) -> Result<String, String> {
    let (state, product) = (sink.state, sink.product);
    let snapshots = check_snapshots(batch.snapshots)?;
    let posts = check_posts(batch.posts)?;
    let spend = spend_intake::check(kind, &product.currency, batch.spend)?;
    let stage_days = batch.stage_days.map(check_stage_days).transpose()?;
    let revenue = revenue_events(batch.revenue)?;

    let mut lines: Vec<String> = Some(batch.detail)
        .filter(|d| !d.is_empty())
        .into_iter()
        .collect();
    if !revenue.is_empty() {
        lines.push(format!("{} revenue rows", revenue.len()));
    }
    let failed = |err: ConnectorError| err.to_string();
    EventSink::write(sink, batch.events).await.map_err(failed)?;
    EventSink::write(sink, revenue).await.map_err(failed)?;

    if stage_days.is_some() || !spend.is_empty() || !snapshots.is_empty() || !posts.is_empty() {
        let stored = |err: payback_store::StoreError| format!("writing the read failed: {err}");
        let now = state.clock.now();
        let mut tx = state.store.begin().await.map_err(stored)?;
        if let Some((days, rows)) = &stage_days {
            aggregate_stages::replace_days(
                &mut tx,
                &product.id,
                kind.as_str(),
                &days.first,
                &days.last,
                rows,
            )
            .await
            .map_err(stored)?;
            lines.push(format!(
                "stage volumes {}..{}: {} rows",
                days.first,
                days.last,
                rows.len()
            ));
        }
        spend
            .write(&mut tx, &product.id, kind, now)
            .await
            .map_err(stored)?;
        if !snapshots.is_empty() {
            snapshots::upsert(&mut tx, &product.id, kind.as_str(), &snapshots, now)
                .await
                .map_err(stored)?;
            lines.push(format!("{} snapshot values", snapshots.len()));
        }
        if !posts.is_empty() {
            social_posts::upsert(&mut tx, &product.id, kind.as_str(), &posts, now)
                .await
                .map_err(stored)?;
            lines.push(format!("{} posts", posts.len()));
        }
        tx.commit().await.map_err(stored)?;
        if snapshots.iter().any(|row| names_pages(&row.metric)) {
            lines.extend(discover_pages(state, product, now).await);
        }
    }
    lines.extend(spend.describe());
    Ok(lines.join("; "))
}

/// Whether a snapshot of `metric` names landing paths discovery may track: sessions by landing
/// page, or a replay tool's friction per URL (other kinds' snapshots never start discovery).
fn names_pages(metric: &str) -> bool {
    metric == snapshot_metric::LANDING_SESSIONS || FRICTION_METRICS.contains(&metric)
}

/// A run that stored such snapshots may have counted sessions on new landing paths or listed new
/// URLs: it tracks them now (the landing pages' discovery over the default window), so the
/// run adds the pages, not the next reader. A failure here leaves the run's data written and
/// says so in the status line.
async fn discover_pages(state: &AppState, product: &ProductRow, now: Timestamp) -> Option<String> {
    let span = Span::days_ending(now, Window::DEFAULT_DAYS);
    match landing_pages::discovery::discover(state, product, span).await {
        Ok(0) => None,
        Ok(added) => Some(format!("{added} landing pages discovered")),
        Err(err) => Some(format!("landing page discovery failed: {err}")),
    }
}

/// Revenue rows as the valued events the fold books; only money stages carry revenue.
fn revenue_events(rows: Vec<RevenueRow>) -> Result<Vec<IncomingEvent>, String> {
    rows.into_iter()
        .map(|row| {
            if row.stage.acquires_customer() {
                Ok(row.into_event())
            } else {
                Err(format!(
                    "revenue row {}: stage {} carries no revenue (converted or payment)",
                    row.id, row.stage
                ))
            }
        })
        .collect()
}

/// Snapshots as the store keeps them: each on a real day, of a metric some report reads
/// (`payback_domain::snapshot_metric`), a finite value, and each (day, metric, dimension) once.
fn check_snapshots(read: Vec<Snapshot>) -> Result<Vec<SnapshotRow>, String> {
    let mut seen = BTreeSet::new();
    let mut rows = Vec::with_capacity(read.len());
    for snapshot in read {
        let at = format!(
            "snapshot {} {} `{}`",
            snapshot.day, snapshot.metric, snapshot.dimension
        );
        if Timestamp::parse_day(&snapshot.day).is_none() {
            return Err(format!("{at}: the day is not a YYYY-MM-DD day"));
        }
        if snapshot_metric::find(&snapshot.metric).is_none() {
            return Err(format!(
                "{at}: unknown metric (known: {})",
                snapshot_metric::words().join(", ")
            ));
        }
        if snapshot.dimension.contains('\0') {
            return Err(format!("{at}: the dimension holds a NUL character"));
        }
        if snapshot
            .detail
            .as_deref()
            .is_some_and(|detail| detail.contains('\0'))
        {
            return Err(format!("{at}: the detail holds a NUL character"));
        }
        if !snapshot.value.is_finite() {
            return Err(format!("{at}: the value is not a finite number"));
        }
        let key = (
            snapshot.day.clone(),
            snapshot.metric.clone(),
            snapshot.dimension.clone(),
        );
        if !seen.insert(key) {
            return Err(format!("{at}: read twice"));
        }
        rows.push(SnapshotRow {
            day: snapshot.day,
            metric: snapshot.metric,
            dimension: snapshot.dimension,
            value: snapshot.value,
            detail: snapshot.detail,
        });
    }
    Ok(rows)
}

/// Posts as the store keeps them: each once, with an id and a network, engagement never
/// negative, and no NUL character (PostgreSQL's text refuses it) in what is stored.
fn check_posts(read: Vec<SocialPost>) -> Result<Vec<SocialPostRow>, String> {
    let mut seen = BTreeSet::new();
    let mut rows = Vec::with_capacity(read.len());
    for post in read {
        // Debug-quoted: an id holding a NUL character is named without one.
        let at = format!("post {:?}", post.id);
        if post.id.is_empty() {
            return Err("post: an empty id".to_owned());
        }
        if post.network.is_empty() {
            return Err(format!("{at}: no network"));
        }
        let texts = [
            Some(&post.id),
            Some(&post.network),
            post.permalink.as_ref(),
            post.text.as_ref(),
            post.media_type.as_ref(),
        ];
        if texts.into_iter().flatten().any(|text| text.contains('\0')) {
            return Err(format!("{at}: a NUL character"));
        }
        if post.engagement < 0 {
            return Err(format!("{at}: a negative engagement"));
        }
        if !seen.insert(post.id.clone()) {
            return Err(format!("{at}: read twice"));
        }
        rows.push(SocialPostRow {
            post_id: post.id,
            network: post.network,
            published_at: post.published_at.millis(),
            permalink: post.permalink,
            text: post.text,
            media_type: post.media_type,
            engagement: post.engagement,
        });
    }
    Ok(rows)
}

/// Daily volumes on the days read, one per day, stage and channel, never negative.
fn check_stage_days(read: StageDaysRead) -> Result<(DayRange, Vec<StageVolume>), String> {
    spend_intake::check_days(&read.days).map_err(|err| format!("stage volumes: {err}"))?;
    let mut seen = BTreeSet::new();
    let mut rows = Vec::with_capacity(read.rows.len());
    for row in read.rows {
        let at = format!("stage volumes: {} {} {:?}", row.day, row.stage, row.channel);
        if !read.days.contains(&row.day) {
            return Err(format!(
                "{at}: the day is outside the days read ({}..{})",
                read.days.first, read.days.last
            ));
        }
        if row.volume < 0 {
            return Err(format!("{at}: a negative volume"));
        }
        if !seen.insert((row.day.clone(), row.stage.as_str(), row.channel.clone())) {
            return Err(format!("{at}: counted twice"));
        }
        rows.push(StageVolume {
            day: row.day,
            stage: row.stage,
            channel: row.channel,
            volume: row.volume,
        });
    }
    Ok((read.days, rows))
}
