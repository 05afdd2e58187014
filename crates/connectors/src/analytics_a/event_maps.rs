//! The events an `analytics_a` connection maps to funnel stages (`POST
//! /products/{slug}/connections/analytics-a/event-maps`): each GA4 event name's daily count
//! becomes the daily volume of one stage. Checked here before they are stored, so the connector
//! trusts every name it filters on.

use std::collections::BTreeSet;

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

/// The maps as stored, or the first refusal naming its field (`event_maps`,
/// `event_maps[i].event_name`, `event_maps[i].stage`). An event is mapped once; several events
/// may feed one stage (their counts add).
pub fn check_event_maps(maps: Vec<EventNameMap>) -> Result<Vec<EventNameMap>, String> {
    if maps.len() > MAX_MAPS {
        return Err(format!(
            "event_maps: at most {MAX_MAPS} maps, not {}",
            maps.len()
        ));
    }
    let mut names = BTreeSet::new();
    let mut out = Vec::with_capacity(maps.len());
    for (index, map) in maps.into_iter().enumerate() {
        let name = map.event_name;
        let at = |field: &str| format!("event_maps[{index}].{field}");
        if name.is_empty() {
            return Err(format!("{}: must not be empty", at("event_name")));
        }
        if name.chars().count() > MAX_EVENT_NAME_CHARS
            || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            return Err(format!(
                "{}: `{name}` is not a GA4 event name (letters, digits and `_`, at most \
                 {MAX_EVENT_NAME_CHARS} characters)",
                at("event_name")
            ));
        }
        if !names.insert(name.clone()) {
            return Err(format!(
                "{}: `{name}` is mapped twice; map each event to one stage",
                at("event_name")
            ));
        }
        let stage = map.stage.as_str();
        let Some(parsed) = Stage::parse(stage) else {
            return Err(format!("{}: `{stage}` is not a funnel stage", at("stage")));
        };
        if SESSION_STAGES.contains(&parsed) {
            return Err(format!(
                "{}: `{stage}` is counted from the property's sessions; map events to a later \
                 stage",
                at("stage")
            ));
        }
        out.push(EventNameMap {
            event_name: name,
            stage: parsed.as_str().to_owned(),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(event_name: &str, stage: &str) -> EventNameMap {
        EventNameMap {
            event_name: event_name.into(),
            stage: stage.into(),
        }
    }

    #[test]
    fn maps_are_checked_field_by_field() {
        let checked =
            check_event_maps(vec![map("sign_up", "signup"), map("purchase", "converted")]).unwrap();
        assert_eq!(checked[0], map("sign_up", "signup"));
        assert!(check_event_maps(vec![map(" sign_up", "signup")]).is_err());
        for (maps, words) in [
            (
                vec![map("", "signup")],
                "event_maps[0].event_name: must not be empty",
            ),
            (
                vec![map("sign_up", "signup"), map("bad name", "lead")],
                "event_maps[1].event_name: `bad name` is not a GA4 event name",
            ),
            (
                vec![map("a", "lead"), map("a", "signup")],
                "event_maps[1].event_name: `a` is mapped twice",
            ),
            (
                vec![map("a", "nope")],
                "event_maps[0].stage: `nope` is not a funnel stage",
            ),
            (
                vec![map("page_view", "visit")],
                "event_maps[0].stage: `visit` is counted from the property's sessions",
            ),
            (vec![map("a", "lead"); MAX_MAPS + 1], "event_maps: at most"),
        ] {
            let refused = check_event_maps(maps).unwrap_err();
            assert!(refused.starts_with(words), "{refused}");
        }
    }
}
