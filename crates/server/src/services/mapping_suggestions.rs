//! `suggest-mappings`: proposals of event maps for a connected database, from presets for
//! common schemas or from the model gateway. Proposals only: nothing is saved; every proposal
//! passed the same checks a saved map must pass, and the model's also had to name tables and
//! columns that exist.

use payback_connectors::database::presets::{self, PresetError, PresetFit};
use payback_connectors::database::schema::SchemaSummary;
use payback_connectors::{ConnectorError, docdb, sql};
use payback_domain::Stage;
use payback_domain::connection::ConnectionKind;
use payback_domain::event_map::{self, EventMap, FieldSyntax};
use payback_store::connections as store;
use serde::Serialize;
use serde_json::{Value, json};
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};
use crate::model_gateway::ModelGateway;
use crate::services::acting::Caller;
use crate::services::products;
use crate::services::source_config::{self, Database};
use crate::state::AppState;

/// Where proposals come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SuggestionSource {
    Preset,
    Ai,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Suggestions {
    /// `preset` or `ai`.
    pub source: String,
    /// The model that answered (AI path only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The tables (or collections) read, with their columns and coarse types.
    #[schema(value_type = Object)]
    pub schema_summary: SchemaSummary,
    /// Event maps, ready for `.../event-maps`.
    #[schema(value_type = Vec<Object>)]
    pub suggestions: Vec<EventMap>,
    /// Preset path: every preset and whether it fits this schema.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<Object>>)]
    pub presets: Option<Vec<PresetFit>>,
    /// AI path: proposals dropped because they broke a rule or named what does not exist.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rejected: Option<usize>,
}

/// What the caller asked.
#[derive(Debug)]
pub struct SuggestionRequest {
    pub source: SuggestionSource,
    pub preset_id: Option<String>,
    pub tables: Option<Vec<String>>,
}

pub async fn suggest(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    kind_word: &str,
    request: SuggestionRequest,
) -> ApiResult<Suggestions> {
    let product = products::find(state, caller.scope()?, slug).await?;
    let not_found = || ApiError::NotFound(format!("no {kind_word} connection for this product"));
    let kind = ConnectionKind::from_path(kind_word)
        .filter(|kind| kind.is_database())
        .ok_or_else(not_found)?;
    let row = store::find(&state.store, &product.id, kind.as_str())
        .await?
        .ok_or_else(not_found)?;
    if request.source == SuggestionSource::Ai && request.tables.as_ref().is_some_and(Vec::is_empty)
    {
        return Err(ApiError::bad_request(
            "tables: name at least one table, or leave it out for the first 30",
        ));
    }
    // Before any I/O: the AI path needs its gateway.
    let gateway = match request.source {
        SuggestionSource::Ai => Some(ModelGateway::from_state(state)?),
        SuggestionSource::Preset => None,
    };
    let tables = request.tables.filter(|tables| !tables.is_empty());
    let summary = describe(state, &row, tables.as_deref()).await?;
    match gateway {
        None => {
            let found = presets::suggest(&summary, request.preset_id.as_deref()).map_err(
                |err| match err {
                    PresetError::UnknownPreset(id) => {
                        ApiError::NotFound(format!("preset_id: no preset `{id}`"))
                    }
                    PresetError::DoesNotFit(id) => {
                        ApiError::NotFound(format!("preset_id: `{id}` does not fit this schema"))
                    }
                },
            )?;
            Ok(Suggestions {
                source: "preset".to_owned(),
                model: None,
                schema_summary: summary,
                suggestions: found.suggestions,
                presets: Some(found.presets),
                rejected: None,
            })
        }
        Some(gateway) => {
            let syntax = kind.field_syntax();
            let answer = gateway
                .ask_json(
                    &system_prompt(syntax),
                    &json!({ "schema": summary }).to_string(),
                )
                .await?;
            let (suggestions, rejected) = admit(&answer.value, &summary, syntax);
            Ok(Suggestions {
                source: "ai".to_owned(),
                model: Some(answer.model),
                schema_summary: summary,
                suggestions,
                presets: None,
                rejected: Some(rejected),
            })
        }
    }
}

/// The schema summary of the connection's database; 409 without credentials, 502 when the
/// database does not answer, 400 for table names it does not have.
async fn describe(
    state: &AppState,
    row: &store::ConnectionRow,
    tables: Option<&[String]>,
) -> ApiResult<SchemaSummary> {
    let result = match source_config::database(state, row).await? {
        Database::Sql(config) => sql::describe(&config, tables).await,
        Database::Docdb(config) => docdb::describe(&config, tables).await,
    };
    result.map_err(|err| match err {
        ConnectorError::Config(message) => ApiError::bad_request(format!("tables: {message}")),
        other => ApiError::BadGateway(format!("the database did not answer: {other}")),
    })
}

fn system_prompt(syntax: FieldSyntax) -> String {
    let stages: Vec<&str> = Stage::ALL.iter().map(|stage| stage.as_str()).collect();
    let fields = match syntax {
        FieldSyntax::Column => "column names exactly as listed",
        FieldSyntax::Path => "dot-notation field paths exactly as listed",
    };
    format!(
        "You map a product's database to funnel events for a marketing attribution tool. \
         Answer one JSON object {{\"suggestions\": [...]}} where each suggestion is an event map: \
         {{\"table\": name, \"schema\": optional schema name as listed, \"stage\": one of {stages}, \
         \"name\": optional event name, \"timestamp\": when the row's event happened, \
         \"dedupe_key\": a unique column (the primary key), \"user_id\"/\"anonymous_id\"/\"email\": \
         optional identity fields, \"attribution\": optional object from utm_source, utm_medium, \
         utm_campaign, utm_content, utm_term, gclid, fbclid, msclkid, referrer, landing_url to fields, \
         \"revenue\": only for converted or payment maps, {{\"column\": amount field, \"unit\": \
         \"cents\" for integer minor units or \"major\" for decimal amounts, \"currency\": optional \
         currency code field}}, \"filter\": optional list of {{\"column\", \"op\" (eq, ne, gt, gte, lt, \
         lte, in, not_in, is_null, not_null), \"value\"}}}}. Use {fields}. Map each stage from one \
         table only; skip tables that are not user activity. Propose nothing you are unsure of.",
        stages = stages.join(", "),
    )
}

/// The model's proposals that pass every rule and name only tables and fields the summary
/// holds; answers them and how many were dropped.
fn admit(answer: &Value, summary: &SchemaSummary, syntax: FieldSyntax) -> (Vec<EventMap>, usize) {
    let proposed = answer["suggestions"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let total = proposed.len();
    let mut admitted: Vec<EventMap> = Vec::new();
    for value in proposed {
        let Ok(map) = serde_json::from_value::<EventMap>(value) else {
            continue;
        };
        let Ok(mut checked) = event_map::check_maps(vec![map], syntax) else {
            continue;
        };
        let Some(map) = checked.pop() else { continue };
        let duplicate = admitted
            .iter()
            .any(|other| other.table == map.table && other.stage == map.stage);
        if exists_in(&map, summary) && !duplicate {
            admitted.push(map);
        }
    }
    let rejected = total - admitted.len();
    (admitted, rejected)
}

fn exists_in(map: &EventMap, summary: &SchemaSummary) -> bool {
    let table = summary.tables.iter().find(|table| {
        table.name == map.table && (map.schema.is_none() || table.schema == map.schema)
    });
    let columns_used = map
        .columns()
        .into_iter()
        .chain(map.filter.iter().map(|condition| condition.column.as_str()));
    table.is_some_and(|table| {
        columns_used
            .collect::<Vec<_>>()
            .iter()
            .all(|column| table.column(column).is_some())
    })
}
