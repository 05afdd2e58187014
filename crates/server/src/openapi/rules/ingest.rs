//! Ingestion (`services/ingest.rs`, `domain/src/event.rs`).

use payback_domain::channel::UNATTRIBUTED;
use payback_domain::{event, event_map};
use utoipa::openapi::schema::{KnownFormat, SchemaFormat};

use crate::openapi::rule::*;
use crate::services::ingest;

pub fn rules() -> Vec<(At, Vec<Rule>)> {
    use At::{Field, Schema};
    let mut rules = vec![
        (
            Field("EventsRequest", "events"),
            vec![Rule::Items(0, ingest::MAX_SERVER_BATCH)],
        ),
        (
            Field("BrowserEventsRequest", "events"),
            vec![Rule::Items(0, ingest::MAX_BROWSER_BATCH)],
        ),
        (
            Field("IncomingEvent", "dedupe_id"),
            not_blank(event::MAX_ID_CHARS),
        ),
        (
            Field("IncomingEvent", "name"),
            at_most(event::MAX_NAME_CHARS),
        ),
        (
            Field("IncomingEvent", "occurred_at"),
            vec![Rule::Format(SchemaFormat::KnownFormat(
                KnownFormat::DateTime,
            ))],
        ),
        (
            Field("IncomingEvent", "anonymous_id"),
            at_most(event::MAX_ID_CHARS),
        ),
        (
            Field("IncomingEvent", "user_id"),
            at_most(event::MAX_ID_CHARS),
        ),
        (Field("IncomingEvent", "email"), email()),
        (Field("IncomingEvent", "currency"), currency()),
        (
            Field("IncomingEvent", "properties"),
            vec![Rule::MaxBytes(event::MAX_PROPERTIES_BYTES)],
        ),
        (
            Schema("IncomingEvent"),
            vec![Rule::Requires("currency", "value")],
        ),
        (
            Field("Attribution", "channel"),
            vec![
                Rule::Chars(0, event::MAX_CHANNEL_CHARS),
                Rule::Pattern(event::CHANNEL_PATTERN.to_owned()),
                Rule::NoneOf(vec![UNATTRIBUTED.to_owned()]),
            ],
        ),
    ];
    for field in event_map::ATTRIBUTION_FIELDS {
        if field != "channel" {
            rules.push((
                Field("Attribution", field),
                at_most(event::MAX_ATTRIBUTION_VALUE),
            ));
        }
    }
    rules
}
