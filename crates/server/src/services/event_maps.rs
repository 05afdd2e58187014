//! The event maps of the analytics kinds (`analytics_a`'s `{event_name, stage}`,
//! `product_analytics_a`'s `{event, stage}`): which vendor events count as which funnel stage.
//! One check for both, parameterised by what differs ([`EventMapRules`]: the field naming the
//! event, its length and characters, the stages the kind counts otherwise), so a connector only
//! ever quotes checked names; and one store, replacing the connection's maps with the history
//! event in one transaction (the connection is due at once, so the next run reads them).

use std::collections::BTreeSet;

use payback_domain::connection::{ConnectionKind, ConnectionStatus};
use payback_domain::{Stage, Timestamp};
use payback_store::Tx;
use payback_store::connections as store;
use payback_store::products::ProductRow;
use serde_json::{Value, json};

use crate::error::{ApiError, ApiResult};
use crate::openapi::rule::{At, Rule, words};
use crate::services::acting::Caller;
use crate::services::{audit, products};
use crate::state::AppState;

/// What one kind's maps must be.
#[derive(Debug, Clone, Copy)]
pub struct EventMapRules {
    /// The request's schema (its `event_maps` list) and a map's, for the OpenAPI document.
    pub request_schema: &'static str,
    pub map_schema: &'static str,
    /// The map's field naming the event (`event_name`, `event`).
    pub name_field: &'static str,
    /// What a name must be, in a refusal (`a GA4 event name`).
    pub name_is: &'static str,
    /// The most maps a connection has.
    pub max_maps: usize,
    /// The longest name, in characters.
    pub max_name_chars: usize,
    /// Whether a character may stand in a name, and the same in words and (where it is one)
    /// as the OpenAPI pattern.
    pub name_char: fn(char) -> bool,
    pub name_chars_words: &'static str,
    pub name_pattern: Option<&'static str>,
    /// Stages the kind counts from elsewhere (GA4's sessions), and why a map to one is refused.
    pub refused_stages: &'static [Stage],
    pub refused_because: &'static str,
}

/// One checked map: the name trimmed, the stage known and allowed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckedMap {
    pub name: String,
    pub stage: Stage,
}

/// The maps (`(name, stage)` as given) checked in order, or a 400 naming the first field at
/// fault: `event_maps` (too many), `event_maps[i].<name_field>` (empty, too long, a character
/// the vendor does not use, mapped twice), `event_maps[i].stage` (not a stage, or one the kind
/// refuses). An event is mapped once; several events may feed one stage (their counts add).
pub fn check(
    rules: &EventMapRules,
    maps: impl ExactSizeIterator<Item = (String, String)>,
) -> ApiResult<Vec<CheckedMap>> {
    if maps.len() > rules.max_maps {
        return Err(ApiError::bad_request(format!(
            "event_maps: at most {} maps, not {}",
            rules.max_maps,
            maps.len()
        )));
    }
    let mut names = BTreeSet::new();
    let mut checked = Vec::with_capacity(maps.len());
    for (index, (name, stage)) in maps.enumerate() {
        let refuse = |field: &str, why: String| {
            ApiError::bad_request(format!("event_maps[{index}].{field}: {why}"))
        };
        let name = name.trim().to_owned();
        if name.is_empty() {
            return Err(refuse(rules.name_field, "must not be empty".to_owned()));
        }
        if name.chars().count() > rules.max_name_chars || !name.chars().all(rules.name_char) {
            return Err(refuse(
                rules.name_field,
                format!(
                    "`{name}` is not {} ({}, at most {} characters)",
                    rules.name_is, rules.name_chars_words, rules.max_name_chars
                ),
            ));
        }
        if !names.insert(name.clone()) {
            return Err(refuse(
                rules.name_field,
                format!("`{name}` is mapped twice; map each event to one stage"),
            ));
        }
        let stage = stage.trim();
        let Some(parsed) = Stage::parse(stage) else {
            return Err(refuse("stage", format!("`{stage}` is not a funnel stage")));
        };
        if rules.refused_stages.contains(&parsed) {
            return Err(refuse(
                "stage",
                format!("`{stage}` {}", rules.refused_because),
            ));
        }
        checked.push(CheckedMap {
            name,
            stage: parsed,
        });
    }
    Ok(checked)
}

/// What [`check`] takes, for the OpenAPI document.
pub fn openapi_rules(rules: &EventMapRules) -> Vec<(At, Vec<Rule>)> {
    let mut name = vec![Rule::Chars(1, rules.max_name_chars)];
    name.extend(
        rules
            .name_pattern
            .map(|pattern| Rule::Pattern(pattern.to_owned())),
    );
    vec![
        (
            At::Field(rules.request_schema, "event_maps"),
            vec![Rule::Items(0, rules.max_maps)],
        ),
        (At::Field(rules.map_schema, rules.name_field), name),
        (
            At::Field(rules.map_schema, "stage"),
            vec![words(
                Stage::ALL
                    .iter()
                    .filter(|stage| !rules.refused_stages.contains(stage))
                    .map(|stage| stage.as_str()),
            )],
        ),
    ]
}

/// Replaces the `kind` connection's maps on the caller's product `slug` with `maps` (checked
/// already) and records `connection.event_maps`, in one transaction; 404 without such a
/// connection (or for another account's product).
pub async fn replace(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    kind: ConnectionKind,
    maps: &Value,
) -> ApiResult<()> {
    let product = products::find(state, caller.scope()?, slug).await?;
    let now = state.clock.now();
    let mut tx = state.store.begin().await?;
    let row = store::find_locked(&mut tx, &product.id, kind.as_str())
        .await?
        .ok_or_else(|| {
            ApiError::NotFound(format!(
                "no {} connection for this product",
                kind.path_word()
            ))
        })?;
    let change = MapsChange {
        connection_id: &row.id,
        kind,
        maps,
        status: None,
    };
    write(&mut tx, caller, &product, change, now).await?;
    tx.commit().await?;
    Ok(())
}

/// A connection's new event maps, and the status they move it to (a database's), if any.
pub struct MapsChange<'a> {
    pub connection_id: &'a str,
    pub kind: ConnectionKind,
    pub maps: &'a Value,
    pub status: Option<ConnectionStatus>,
}

/// Stores `change` and records `connection.event_maps` on the product's history, inside the
/// caller's transaction: what every kind with event maps writes, the analytics kinds here and
/// the databases (`services/databases.rs`).
pub async fn write(
    tx: &mut Tx,
    caller: &Caller,
    product: &ProductRow,
    change: MapsChange<'_>,
    now: Timestamp,
) -> ApiResult<()> {
    let status = change.status.map(ConnectionStatus::as_str);
    store::set_event_maps(
        tx,
        change.connection_id,
        &change.maps.to_string(),
        status,
        now,
    )
    .await?;
    let mut payload = json!({
        "connection_id": change.connection_id,
        "kind": change.kind.as_str(),
        "event_maps": change.maps,
    });
    if let Some(status) = status {
        payload["status"] = json!(status);
    }
    audit::record_product(
        tx,
        &caller.actor(),
        product,
        "connection.event_maps",
        payload,
        now,
    )
    .await
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    const STRICT: EventMapRules = EventMapRules {
        request_schema: "Request",
        map_schema: "Map",
        name_field: "event_name",
        name_is: "a GA4 event name",
        max_maps: 3,
        max_name_chars: 10,
        name_char: |c| c.is_ascii_alphanumeric() || c == '_',
        name_chars_words: "letters, digits and `_`",
        name_pattern: Some("^[A-Za-z0-9_]+$"),
        refused_stages: &[Stage::Visit, Stage::Engaged],
        refused_because: "is counted from the property's sessions; map events to a later stage",
    };

    const LOOSE: EventMapRules = EventMapRules {
        name_field: "event",
        name_is: "a PostHog event name",
        name_char: |c| !c.is_control(),
        name_chars_words: "no control characters",
        name_pattern: None,
        refused_stages: &[],
        ..STRICT
    };

    fn maps(pairs: &[(&str, &str)]) -> std::vec::IntoIter<(String, String)> {
        pairs
            .iter()
            .map(|(name, stage)| ((*name).to_owned(), (*stage).to_owned()))
            .collect::<Vec<_>>()
            .into_iter()
    }

    fn refusal(rules: &EventMapRules, pairs: &[(&str, &str)]) -> String {
        check(rules, maps(pairs)).unwrap_err().to_string()
    }

    #[test]
    fn maps_are_checked_by_the_kinds_field_and_stages() {
        let checked = check(
            &STRICT,
            maps(&[(" sign_up ", "signup"), ("buy", "converted")]),
        )
        .unwrap();
        assert_eq!(
            checked,
            vec![
                CheckedMap {
                    name: "sign_up".to_owned(),
                    stage: Stage::Signup
                },
                CheckedMap {
                    name: "buy".to_owned(),
                    stage: Stage::Converted
                },
            ]
        );
        assert_eq!(
            refusal(&STRICT, &[("a", "lead"), ("sign up", "lead")]),
            "event_maps[1].event_name: `sign up` is not a GA4 event name (letters, digits and \
             `_`, at most 10 characters)"
        );
        assert_eq!(
            refusal(&STRICT, &[("a", "lead"), ("b", "visit")]),
            "event_maps[1].stage: `visit` is counted from the property's sessions; map events to \
             a later stage"
        );
        assert_eq!(
            refusal(&STRICT, &[("  ", "lead")]),
            "event_maps[0].event_name: must not be empty"
        );
        assert_eq!(
            refusal(&STRICT, &[("a", "lead"); 4]),
            "event_maps: at most 3 maps, not 4"
        );
        // The same rules, another field, a looser name and every stage allowed.
        let posthog = check(
            &LOOSE,
            maps(&[("$pageview", "visit"), ("signed up", "signup")]),
        )
        .unwrap();
        assert_eq!(posthog[0].stage, Stage::Visit);
        assert_eq!(posthog[1].name, "signed up");
        assert_eq!(
            refusal(&LOOSE, &[("a", "lead"), ("a", "signup")]),
            "event_maps[1].event: `a` is mapped twice; map each event to one stage"
        );
        assert_eq!(
            refusal(&LOOSE, &[("a", "paying")]),
            "event_maps[0].stage: `paying` is not a funnel stage"
        );
        assert!(
            refusal(&LOOSE, &[("a\u{7}", "lead")])
                .starts_with("event_maps[0].event: `a\u{7}` is not")
        );
    }

    #[test]
    fn the_document_says_the_same() {
        let strict = openapi_rules(&STRICT);
        assert!(matches!(strict[1].0, At::Field("Map", "event_name")));
        assert_eq!(strict[1].1.len(), 2, "length and pattern");
        let Rule::OneOf(stages) = &strict[2].1[0] else {
            panic!("stage words")
        };
        assert!(
            !stages
                .iter()
                .any(|stage| stage == "visit" || stage == "engaged")
        );
        let loose = openapi_rules(&LOOSE);
        assert_eq!(loose[1].1.len(), 1, "length only");
        let Rule::OneOf(stages) = &loose[2].1[0] else {
            panic!("stage words")
        };
        assert_eq!(stages.len(), Stage::ALL.len());
    }
}
