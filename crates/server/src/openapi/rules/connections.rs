//! Connections (`routes/connections.rs`, `routes/databases.rs`, `services/databases.rs`,
//! `services/database_env.rs`, `domain/src/event_map.rs`); each kind's connect body in its
//! plug-in (`kinds/`).

use payback_domain::connection::ConnectionStatus;
use payback_domain::{event, event_map};
use serde_json::json;

use crate::openapi::rule::*;
use crate::routes::databases;
use crate::services::{database_env, databases as databases_service};

pub fn rules() -> Vec<(At, Vec<Rule>)> {
    use At::{Field, Schema};
    let mut rules = vec![
        (
            Field("SuggestRequest", "source"),
            vec![words(
                databases::SUGGESTION_SOURCES.iter().map(|(word, _)| *word),
            )],
        ),
        (Field("EventMap", "table"), plain_name()),
        (Field("EventMap", "schema"), plain_name()),
        (Field("EventMap", "name"), at_most(event::MAX_NAME_CHARS)),
        (Field("EventMap", "timestamp"), plain_name()),
        (Field("EventMap", "dedupe_key"), plain_name()),
        (Field("EventMap", "user_id"), plain_name()),
        (Field("EventMap", "anonymous_id"), plain_name()),
        (Field("EventMap", "email"), plain_name()),
        (
            Field("EventMap", "attribution"),
            vec![
                Rule::Keys(event_map::ATTRIBUTION_FIELDS.map(str::to_owned).to_vec()),
                Rule::Values(plain_name()),
            ],
        ),
        (
            Field("EventMap", "filter"),
            vec![Rule::Items(0, event_map::MAX_CONDITIONS)],
        ),
        (Field("Condition", "column"), plain_name()),
        (
            Field("Condition", "value"),
            vec![Rule::Replace(condition_value())],
        ),
        (
            Schema("Condition"),
            vec![Rule::Keyword("allOf", condition_ops())],
        ),
        (Field("RevenueColumn", "column"), plain_name()),
        (Field("RevenueColumn", "currency"), plain_name()),
    ];
    for body in ["SqlARequest", "DatabaseRequest"] {
        rules.push((
            Field(body, "credentials"),
            vec![Rule::MaxBytes(databases_service::MAX_CREDENTIALS_BYTES)],
        ));
    }
    for body in ["SqlARequest", "DatabaseRequest", "EventMapsRequest"] {
        rules.push((
            Field(body, "event_maps"),
            vec![Rule::Items(0, event_map::MAX_MAPS)],
        ));
        rules.push((
            Field(body, "status"),
            vec![words(
                databases_service::REQUESTABLE_STATUSES
                    .iter()
                    .map(|status| status.as_str()),
            )],
        ));
    }
    for body in ["SqlARequest", "DatabaseRequest", "EventMapsRequest"] {
        // An active database connection needs maps to read.
        rules.push((
            Schema(body),
            vec![
                Rule::Keyword(
                    "if",
                    json!({
                        "properties": {"status": {"const": ConnectionStatus::Active.as_str()}},
                        "required": ["status"]
                    }),
                ),
                Rule::Keyword(
                    "then",
                    json!({"properties": {"event_maps": {"minItems": 1}}}),
                ),
            ],
        ));
    }
    for field in [
        "host_env",
        "port_env",
        "user_env",
        "password_env",
        "database_env",
    ] {
        rules.push((
            Field("SqlARequest", field),
            vec![
                Rule::Chars(1, database_env::NAME_MAX_CHARS),
                Rule::Pattern(database_env::NAME_PATTERN.to_owned()),
                Rule::NotPrefix(database_env::RESERVED_PREFIX.to_owned()),
            ],
        ));
    }
    rules
}
