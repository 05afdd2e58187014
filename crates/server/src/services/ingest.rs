//! First-party event ingestion: checking a batch, classifying channels, and storing it all or
//! nothing.

use payback_domain::channel::classify;
use payback_domain::connection::ConnectionKind;
use payback_domain::event::IncomingEvent;
use payback_domain::event::MAX_FUTURE_MS;
use payback_domain::{Stage, Timestamp};
use payback_store::ingest::EventRecord;
use payback_store::products::ProductRow;

use crate::error::{ApiError, ApiResult};
use crate::state::AppState;

/// Where a batch came from: it sets the dedupe namespace, the batch cap, and whether a bare
/// `visit` counts as `direct` traffic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// `POST /products/{slug}/events` with an account bearer; namespace `api:<slug>`.
    Server,
    /// `POST /t/events` with a publishable write key; namespace `web:<slug>`.
    Browser,
    /// A connection's sync run; namespace `<kind>:<slug>`, so a source's ids never collide
    /// with the API's or the browser's.
    Connector(ConnectionKind),
}

/// Events in one batch sent with a bearer (and in one page a connector writes).
pub const MAX_SERVER_BATCH: usize = 1000;
/// Events in one batch from a browser (`POST /t/events`).
pub const MAX_BROWSER_BATCH: usize = 25;

impl Source {
    pub fn max_batch(self) -> usize {
        match self {
            Source::Server | Source::Connector(_) => MAX_SERVER_BATCH,
            Source::Browser => MAX_BROWSER_BATCH,
        }
    }

    fn namespace(self, slug: &str) -> String {
        match self {
            Source::Server => format!("api:{slug}"),
            Source::Browser => format!("web:{slug}"),
            Source::Connector(kind) => format!("{kind}:{slug}"),
        }
    }
}

/// A visitor's clock may run fast: a browser timestamp more than the allowed 5 minutes ahead is
/// replaced by the receipt time rather than refusing the whole batch (which would lose every
/// event of that visitor). Server-side callers keep the strict rule.
fn browser_clock(occurred_at: Option<String>, now: Timestamp) -> Option<String> {
    let ahead = occurred_at
        .as_deref()
        .and_then(Timestamp::parse_rfc3339)
        .is_some_and(|at| at.millis() > now.millis() + MAX_FUTURE_MS);
    if ahead { None } else { occurred_at }
}

/// Validates and stores a batch. Any invalid event refuses the whole batch with a 400 naming
/// it (`events[3].stage: ...`); duplicates are dropped silently and still count as received,
/// so a retry answers exactly like the first try. Returns the number received.
pub async fn ingest(
    state: &AppState,
    product: &ProductRow,
    source: Source,
    events: Vec<IncomingEvent>,
) -> ApiResult<usize> {
    let received = events.len();
    if received > source.max_batch() {
        return Err(ApiError::bad_request(format!(
            "events: at most {} events per batch, got {received}",
            source.max_batch()
        )));
    }
    let now = state.clock.now();
    let namespace = source.namespace(&product.slug);
    let mut records = Vec::with_capacity(received);
    for (index, mut event) in events.into_iter().enumerate() {
        if source == Source::Browser {
            event.occurred_at = browser_clock(event.occurred_at, now);
        }
        let valid = event.validate(now, &product.currency).map_err(|err| {
            ApiError::bad_request(format!("events[{index}].{}: {}", err.field, err.message))
        })?;
        let is_browser_visit = source == Source::Browser && valid.stage == Stage::Visit;
        let channel = classify(
            &valid.attribution.clone().unwrap_or_default(),
            is_browser_visit,
            product.domain.as_deref(),
        );
        let utm_campaign = valid
            .attribution
            .as_ref()
            .and_then(|a| a.utm_campaign.clone());
        let attribution = valid
            .attribution
            .as_ref()
            .map(serde_json::to_string)
            .transpose()
            .map_err(ApiError::internal)?;
        records.push(EventRecord {
            namespace: namespace.clone(),
            is_revenue: valid.is_revenue(),
            acquires: valid.acquires_customer(),
            stage: valid.stage.as_str(),
            dedupe_id: valid.dedupe_id,
            name: valid.name,
            occurred_at: valid.occurred_at,
            anonymous_id: valid.anonymous_id,
            user_id: valid.user_id,
            email: valid.email,
            value_cents: valid.value_cents,
            currency: valid.currency,
            channel,
            attribution,
            utm_campaign,
            properties: valid.properties,
        });
    }
    if records.is_empty() {
        return Ok(0);
    }
    state.ingest.write(&product.id, records, now).await?;
    Ok(received)
}
