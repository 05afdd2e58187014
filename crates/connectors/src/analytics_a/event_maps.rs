//! The events an `analytics_a` connection maps to funnel stages (`POST
//! /products/{slug}/connections/analytics-a/event-maps`): each GA4 event name's daily count
//! becomes the daily volume of one stage. The server checks them against these bounds
//! (`services/event_maps.rs`) before they are stored, so the connector trusts every name it
//! filters on.

use payback_domain::Stage;
use serde::{Deserialize, Serialize};

/// At most this many maps per connection (GA4's `inListFilter` takes far more; a funnel has
/// ten stages).
pub const MAX_MAPS: usize = 50;

/// GA4 event names are at most 40 characters.
pub const MAX_EVENT_NAME_CHARS: usize = 40;

/// The stages sessions count: an event mapped to them would add to the sessions' own volume.
pub const SESSION_STAGES: [Stage; 2] = [Stage::Visit, Stage::Engaged];

/// One GA4 event read into one stage.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventNameMap {
    /// The GA4 event's name, exactly as GA4 records it (`sign_up`, `purchase`).
    pub event_name: String,
    /// The stage every counted event is (`lead`, `signup`, ...; not `visit` or `engaged`,
    /// which sessions count).
    pub stage: String,
}

impl EventNameMap {
    /// The stage, once checked.
    pub fn stage(&self) -> Option<Stage> {
        Stage::parse(&self.stage)
    }
}
