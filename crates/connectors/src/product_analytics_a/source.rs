//! The `product_analytics_a` connection as a [`Source`](crate::Source), through the API
//! kinds' shared [`ApiSource`]: `test` reads the project; a run sends four HogQL queries
//! (sessions, mapped events when there are maps, friction, click signals) and pages through
//! the window's recordings up to [`MAX_RECORDINGS`]. Nothing is ever written to PostHog.

use super::wire::{Project, RecordingsPage};
use super::{MAX_RECORDINGS, ProductAnalyticsAConfig, RECORDING_PAGE, hogql, mapping};
use crate::api_source::{ApiConfig, ApiSource};
use crate::{ConnectorError, DayRange, StageDaysRead, SyncOutput, SyncWindow};

/// One PostHog project, ready to read.
///
/// Disconnecting revokes nothing: the personal key was created by its owner in PostHog and
/// stays theirs to delete.
pub type ProductAnalyticsASource = ApiSource<ProductAnalyticsAConfig>;

impl ProductAnalyticsASource {
    /// Counts, not money: no product currency. `http` is the server's client for this host
    /// (pinned to the addresses it checked when the host is the tenant's).
    pub fn new(http: reqwest::Client, config: ProductAnalyticsAConfig) -> Self {
        Self::open(http, config, "")
    }
}

impl ApiConfig for ProductAnalyticsAConfig {
    /// `GET /api/projects/{id}/`; answers `PostHog project 42 (Shop) answers`.
    async fn test(source: &ProductAnalyticsASource) -> Result<String, ConnectorError> {
        let config = &source.config;
        let client = config.client(&source.http)?;
        let path = format!("/api/projects/{}/", config.project_id);
        let project: Project = client.get("project", &path, &[]).await?;
        let name = project
            .name
            .map(|name| format!(" ({name})"))
            .unwrap_or_default();
        Ok(format!(
            "PostHog project {}{name} answers",
            config.project_id
        ))
    }

    async fn read(
        source: &ProductAnalyticsASource,
        window: SyncWindow,
    ) -> Result<SyncOutput, ConnectorError> {
        let config = &source.config;
        let client = config.client(&source.http)?;
        let project = config.project_id.as_str();
        let (from, to) = (window.from, window.to);

        let sessions = client
            .hogql(
                project,
                "sessions query",
                &hogql::sessions_by_entry_path(from, to),
            )
            .await?;
        let mut snapshots = mapping::landing_sessions(&sessions);
        let landing_paths = snapshots.len();

        let events: Vec<&str> = config
            .event_maps
            .iter()
            .map(|map| map.event.as_str())
            .collect();
        let stage_rows = if events.is_empty() {
            Vec::new()
        } else {
            let answer = client
                .hogql(
                    project,
                    "events query",
                    &hogql::events_by_day(&events, from, to),
                )
                .await?;
            mapping::stage_days(&answer, &config.event_maps)
        };

        let friction = client
            .hogql(
                project,
                "friction query",
                &hogql::friction_by_path(from, to),
            )
            .await?;
        snapshots.extend(mapping::friction(&friction));

        let signals = client
            .hogql(
                project,
                "signals query",
                &hogql::click_signals_by_session(from, to),
            )
            .await?;
        let recordings = recordings(source, window).await?;
        let sampled = mapping::recordings(
            &config.host,
            project,
            &recordings,
            &mapping::click_signals(&signals),
        );
        let recording_count = sampled.len();
        snapshots.extend(sampled);

        let detail = format!(
            "PostHog project {project}: sessions on {landing_paths} entry paths by day, {} \
             stage rows from {} mapped events, {recording_count} recordings sampled",
            stage_rows.len(),
            events.len()
        );
        Ok(SyncOutput {
            stage_days: Some(StageDaysRead {
                days: DayRange::of_window(window),
                rows: stage_rows,
            }),
            snapshots,
            detail,
            ..SyncOutput::default()
        })
    }
}

/// The window's recordings, newest first as PostHog lists them, page after page until
/// [`MAX_RECORDINGS`]: through the documented `next` URL (only on the origin), or, when the
/// server answers `has_next` without one, the same request at the next `offset`.
async fn recordings(
    source: &ProductAnalyticsASource,
    window: SyncWindow,
) -> Result<Vec<super::wire::Recording>, ConnectorError> {
    let config = &source.config;
    let client = config.client(&source.http)?;
    let path = format!("/api/projects/{}/session_recordings", config.project_id);
    let limit = RECORDING_PAGE.to_string();
    let (date_from, date_to) = (window.from.to_rfc3339(), window.to.to_rfc3339());
    let first_page = |offset: usize| {
        let offset = offset.to_string();
        let path = path.as_str();
        let (date_from, date_to, limit) = (&date_from, &date_to, &limit);
        let client = &client;
        async move {
            let mut params = vec![
                ("date_from", date_from.as_str()),
                ("date_to", date_to.as_str()),
                ("limit", limit.as_str()),
            ];
            if offset != "0" {
                params.push(("offset", offset.as_str()));
            }
            client
                .get::<RecordingsPage>("session recordings", path, &params)
                .await
        }
    };
    let mut page = first_page(0).await?;
    let mut all = Vec::new();
    loop {
        let read = page.results.len();
        all.extend(page.results);
        if all.len() >= MAX_RECORDINGS {
            all.truncate(MAX_RECORDINGS);
            return Ok(all);
        }
        page = match page.next.filter(|next| !next.is_empty()) {
            Some(next) => client.get_url("session recordings", &next).await?,
            // An empty page ends the list whatever its flag says.
            None if page.has_next == Some(true) && read > 0 => first_page(all.len()).await?,
            None => return Ok(all),
        };
    }
}
