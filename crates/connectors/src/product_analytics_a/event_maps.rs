//! The events a `product_analytics_a` connection maps to funnel stages (`POST
//! /products/{slug}/connections/product-analytics-a/event-maps`, body `{event_maps: [{event,
//! stage}]}`): each PostHog event's count per UTC day becomes a daily stage row. The server checks
//! them against these bounds (`services/event_maps.rs`) before they are stored, so the queries
//! only ever quote checked names.

use payback_domain::Stage;
use serde::{Deserialize, Serialize};

/// At most this many maps per connection (a funnel has ten stages).
pub const MAX_MAPS: usize = 50;
/// PostHog event names, in characters (room for long custom names).
pub const MAX_EVENT_CHARS: usize = 200;

/// One PostHog event read into one stage.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventMap {
    /// The event's name exactly as PostHog records it (`signed_up`, `$pageview`).
    pub event: String,
    /// The funnel stage every counted event is.
    pub stage: String,
}

impl EventMap {
    /// The stage, once checked.
    pub fn stage(&self) -> Option<Stage> {
        Stage::parse(&self.stage)
    }
}
