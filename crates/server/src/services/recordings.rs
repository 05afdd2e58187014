//! `GET /products/{slug}/recordings`: the session recordings the product's replay sources
//! sampled (`recording` snapshots), as playback pointers only, newest first, filtered by path,
//! signal and provider, with the link where the rest can be watched (`recordings_url`):
//! Clarity's project dashboard (filtered by the path) when `replay_a` is connected, else
//! PostHog's replay list. Clarity's export lists no recordings, so its recordings are that link.
//! The landing-page detail reads the same with its page's path ([`report`]).

use payback_domain::connection::ConnectionKind;
use payback_domain::landing_path::landing_path;
use payback_store::connections::{self, ConnectionRow};
use payback_store::products::ProductRow;
use payback_store::recordings as store;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};
use crate::input::Window;
use crate::kinds::replay::{REPLAY_KINDS, watch_url};
use crate::state::AppState;

/// The signal words a recording may carry.
pub const SIGNALS: [&str; 3] = ["rage_click", "dead_click", "js_error"];

/// The longest `path` filter, in characters.
pub const PATH_MAX_CHARS: usize = 2048;

/// What the caller narrows the list to, checked ([`Filters::check`]).
#[derive(Debug, Clone, Default)]
pub struct Filters {
    /// A landing path (spelled by `landing_path`).
    pub path: Option<String>,
    pub signal: Option<String>,
    pub provider: Option<ConnectionKind>,
}

impl Filters {
    /// The query's values checked; 400 naming `path`, `signal` or `provider`.
    pub fn check(
        path: Option<&str>,
        signal: Option<&str>,
        provider: Option<&str>,
    ) -> ApiResult<Self> {
        let path = match path {
            None => None,
            Some(path) if path.starts_with('/') && path.chars().count() <= PATH_MAX_CHARS => {
                Some(landing_path(path))
            }
            Some(_) => {
                return Err(ApiError::bad_request(format!(
                    "path: must be a path starting with `/`, at most {PATH_MAX_CHARS} characters"
                )));
            }
        };
        if let Some(signal) = signal
            && !SIGNALS.contains(&signal)
        {
            return Err(ApiError::bad_request(format!(
                "signal: must be one of {}, got `{signal}`",
                SIGNALS.join(", ")
            )));
        }
        let provider = match provider {
            None => None,
            Some(word) => Some(
                REPLAY_KINDS
                    .into_iter()
                    .find(|kind| kind.as_str() == word)
                    .ok_or_else(|| {
                        ApiError::bad_request(format!(
                            "provider: must be replay_a or product_analytics_a, got `{word}`"
                        ))
                    })?,
            ),
        };
        Ok(Self {
            path,
            signal: signal.map(str::to_owned),
            provider,
        })
    }
}

/// One playback pointer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Recording {
    /// The source kind that sampled it.
    pub provider: String,
    /// The vendor's session id.
    pub id: String,
    /// Where it plays, in the vendor's app.
    pub url: String,
    /// The landing path it started on, or null.
    pub path: Option<String>,
    /// RFC 3339.
    pub started_at: String,
    pub duration_s: i64,
    /// `js_error`, `rage_click`, `dead_click`: what happened in the session.
    pub signals: Vec<String>,
}

/// The answer.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RecordingsReport {
    pub window_days: i64,
    /// Where the product's recordings are watched (the replay tool's list, filtered by `path`
    /// where the tool can be); null without a replay source.
    pub recordings_url: Option<String>,
    /// The replay kinds connected to the product.
    pub sources: Vec<String>,
    /// Newest first, at most `limit`.
    pub recordings: Vec<Recording>,
}

/// The pointer stored in a recording snapshot's detail.
#[derive(Debug, Deserialize)]
struct Pointer {
    url: String,
    path: Option<String>,
    started_at: String,
    #[serde(default)]
    signals: Vec<String>,
}

/// The product's recordings of the window under `filters`, at most `window.limit`.
pub async fn report(
    state: &AppState,
    product: &ProductRow,
    window: Window,
    filters: &Filters,
) -> ApiResult<RecordingsReport> {
    let connected: Vec<ConnectionRow> = connections::for_product(&state.store, &product.id)
        .await?
        .into_iter()
        .filter(|row| REPLAY_KINDS.contains(&row.kind))
        .collect();
    let sources: Vec<String> = REPLAY_KINDS
        .iter()
        .filter(|kind| connected.iter().any(|row| row.kind == **kind))
        .map(|kind| kind.as_str().to_owned())
        .collect();
    let recordings_url = recordings_url(state, &connected, filters)?;
    let kinds: Vec<&str> = REPLAY_KINDS
        .iter()
        .filter(|kind| filters.provider.is_none_or(|provider| provider == **kind))
        .map(|kind| kind.as_str())
        .collect();
    let span = window.span(state.clock.now());
    let rows = store::in_days(
        &state.store,
        &product.id,
        &kinds,
        &span.first_day(),
        &span.last_day(),
    )
    .await?;
    let mut recordings: Vec<Recording> = rows
        .into_iter()
        .filter_map(|row| {
            let pointer: Pointer = serde_json::from_str(row.detail.as_deref()?).ok()?;
            Some(Recording {
                provider: row.kind,
                id: row.session_id,
                url: pointer.url,
                path: pointer.path,
                started_at: pointer.started_at,
                duration_s: row.duration_s.round() as i64,
                signals: pointer.signals,
            })
        })
        .filter(|recording| {
            filters
                .path
                .as_ref()
                .is_none_or(|path| recording.path.as_ref() == Some(path))
                && filters
                    .signal
                    .as_ref()
                    .is_none_or(|signal| recording.signals.contains(signal))
        })
        .collect();
    // RFC 3339 in UTC with milliseconds sorts as text; ties by id keep the order stable.
    recordings.sort_by(|a, b| {
        b.started_at
            .cmp(&a.started_at)
            .then_with(|| a.id.cmp(&b.id))
    });
    recordings.truncate(usize::try_from(window.limit).unwrap_or(usize::MAX));
    Ok(RecordingsReport {
        window_days: window.days,
        recordings_url,
        sources,
        recordings,
    })
}

/// The first replay kind's link (in [`REPLAY_KINDS`]' order: Clarity's dashboard, filtered by
/// the path, before PostHog's list) among those connected and not filtered out; none without.
fn recordings_url(
    state: &AppState,
    connected: &[ConnectionRow],
    filters: &Filters,
) -> ApiResult<Option<String>> {
    for kind in REPLAY_KINDS {
        if filters.provider.is_some_and(|provider| provider != kind) {
            continue;
        }
        if let Some(row) = connected.iter().find(|row| row.kind == kind) {
            return watch_url(state, row, filters.path.as_deref());
        }
    }
    Ok(None)
}
