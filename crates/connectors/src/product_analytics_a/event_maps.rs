//! The events a `product_analytics_a` connection maps to funnel stages (`POST
//! /products/{slug}/connections/product-analytics-a/event-maps`, body `{event_maps: [{event,
//! stage}]}`): each PostHog event's count per UTC day becomes a daily stage row. Checked here
//! before they are stored, so the queries only ever quote checked names.

use std::collections::BTreeSet;

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

/// The maps as stored, or the first refusal naming its field (`event_maps`,
/// `event_maps[i].event`, `event_maps[i].stage`). An event is mapped once; several may feed
/// one stage.
pub fn check_event_maps(maps: Vec<EventMap>) -> Result<Vec<EventMap>, String> {
    if maps.len() > MAX_MAPS {
        return Err(format!(
            "event_maps: at most {MAX_MAPS} maps, not {}",
            maps.len()
        ));
    }
    let mut names = BTreeSet::new();
    let mut out = Vec::with_capacity(maps.len());
    for (index, map) in maps.into_iter().enumerate() {
        let at = |field: &str| format!("event_maps[{index}].{field}");
        let event = map.event.trim().to_owned();
        if event.is_empty() {
            return Err(format!("{}: must not be empty", at("event")));
        }
        if event.chars().count() > MAX_EVENT_CHARS || event.chars().any(char::is_control) {
            return Err(format!(
                "{}: must be at most {MAX_EVENT_CHARS} characters without control characters",
                at("event")
            ));
        }
        if !names.insert(event.clone()) {
            return Err(format!(
                "{}: `{event}` is mapped twice; map each event to one stage",
                at("event")
            ));
        }
        let stage = map.stage.trim();
        if Stage::parse(stage).is_none() {
            return Err(format!("{}: `{stage}` is not a funnel stage", at("stage")));
        }
        out.push(EventMap {
            event,
            stage: stage.to_owned(),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(event: &str, stage: &str) -> EventMap {
        EventMap {
            event: event.into(),
            stage: stage.into(),
        }
    }

    #[test]
    fn maps_are_checked_by_field() {
        let saved = check_event_maps(vec![
            map(" signed_up ", "signup"),
            map("$pageview", "visit"),
        ])
        .unwrap();
        assert_eq!(saved[0].event, "signed_up");
        let twice = check_event_maps(vec![map("a", "signup"), map("a", "lead")]).unwrap_err();
        assert!(twice.starts_with("event_maps[1].event:"), "{twice}");
        let stage = check_event_maps(vec![map("a", "nope")]).unwrap_err();
        assert!(stage.starts_with("event_maps[0].stage:"), "{stage}");
        let blank = check_event_maps(vec![map(" ", "lead")]).unwrap_err();
        assert!(blank.starts_with("event_maps[0].event:"), "{blank}");
    }
}
