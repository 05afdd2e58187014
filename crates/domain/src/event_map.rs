//! Event maps: how rows of a customer's database (a table of a relational database, a collection
//! of a document database) become events. One map reads one table into one stage; the rules
//! here are checked before a map is stored, so the connectors can trust every name they quote.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::Stage;

/// At most this many maps per connection.
pub const MAX_MAPS: usize = 20;
/// At most this many conditions in one map's filter.
pub const MAX_CONDITIONS: usize = 10;
/// At most this many values in an `in` / `not_in` condition.
pub const MAX_IN_VALUES: usize = 100;
/// Table, schema, column and field-path segment names are at most this long (PostgreSQL's
/// identifier limit; MySQL's is 64).
pub const MAX_NAME_CHARS: usize = 63;

/// One table (or collection) read into one stage.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EventMap {
    /// The table (relational) or collection (document database) read.
    #[serde(alias = "collection")]
    pub table: String,
    /// Relational only: a non-public schema (PostgreSQL) or another database (MySQL).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    /// The canonical stage every row becomes.
    #[schema(value_type = Stage)]
    pub stage: String,
    /// The events' `name`; default: the table's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// A timestamp (or date) column: when the row's event happened. Reads are incremental on it.
    pub timestamp: String,
    /// A column unique per row (usually the primary key): the event's dedupe id, so re-reads
    /// store nothing twice.
    pub dedupe_key: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub anonymous_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// Attribution field (`utm_source`, `gclid`, `referrer`, `channel`, ...) -> column.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub attribution: BTreeMap<String, String>,
    /// Only `converted` and `payment` maps may carry revenue.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revenue: Option<RevenueColumn>,
    /// Conditions every row read must meet (all of them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub filter: Vec<Condition>,
}

/// Where a row's amount is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RevenueColumn {
    pub column: String,
    /// `cents` (integer minor units, the default) or `major` (a decimal amount such as 19.99).
    #[serde(default)]
    pub unit: MoneyUnit,
    /// A column holding each row's ISO currency code; rows in another currency than the
    /// product's are skipped and counted, never converted. Default: every row is in the
    /// product's currency.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub currency: Option<String>,
}

/// How an amount column is denominated.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum MoneyUnit {
    /// Integer hundredths of the currency unit, as Payback stores amounts.
    #[default]
    Cents,
    /// A decimal amount in whole units, such as 19.99.
    Major,
}

/// One condition of a map's filter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Condition {
    pub column: String,
    pub op: FilterOp,
    /// A string, number or boolean; an array of them for `in`/`not_in`; absent for the null
    /// tests.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub value: Option<serde_json::Value>,
}

crate::roles::wire_enum! {
    /// The comparisons a filter may make. Values are always bound as parameters, never spliced
    /// into a statement.
    FilterOp {
        Eq => "eq",
        Ne => "ne",
        Gt => "gt",
        Gte => "gte",
        Lt => "lt",
        Lte => "lte",
        In => "in",
        NotIn => "not_in",
        IsNull => "is_null",
        NotNull => "not_null",
    }
}

/// The attribution fields a map may fill, as the event schema names them.
pub const ATTRIBUTION_FIELDS: [&str; 15] = [
    "channel",
    "utm_source",
    "utm_medium",
    "utm_campaign",
    "utm_content",
    "utm_term",
    "utm_id",
    "gclid",
    "gbraid",
    "wbraid",
    "fbclid",
    "li_fat_id",
    "msclkid",
    "referrer",
    "landing_url",
];

/// How a source names its fields: relational columns are plain identifiers, document fields
/// are dot-notation paths (`customer.email`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldSyntax {
    Column,
    Path,
}

/// A rule a map broke: `field` is the full path in the request (`event_maps[1].timestamp`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventMapError {
    pub field: String,
    pub message: String,
}

impl std::fmt::Display for EventMapError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl EventMap {
    /// The parsed stage (valid once [`check_maps`] passed).
    pub fn stage(&self) -> Option<Stage> {
        Stage::parse(&self.stage)
    }

    /// The event name rows of this map carry.
    pub fn event_name(&self) -> &str {
        self.name.as_deref().unwrap_or(&self.table)
    }

    /// Every column (or field path) the map reads, each once, in a stable order: timestamp,
    /// dedupe key, identities, attribution, revenue, currency.
    pub fn columns(&self) -> Vec<&str> {
        let mut columns: Vec<&str> = vec![&self.timestamp, &self.dedupe_key];
        columns.extend(
            [&self.user_id, &self.anonymous_id, &self.email]
                .into_iter()
                .flatten()
                .map(String::as_str),
        );
        columns.extend(self.attribution.values().map(String::as_str));
        if let Some(revenue) = &self.revenue {
            columns.push(&revenue.column);
            columns.extend(revenue.currency.as_deref());
        }
        let mut seen = std::collections::BTreeSet::new();
        columns.retain(|column| seen.insert(*column));
        columns
    }
}

/// Checks and normalizes (trims names) a connection's maps. Two maps reading the same table
/// into the same stage are refused: every row would count twice.
pub fn check_maps(
    maps: Vec<EventMap>,
    syntax: FieldSyntax,
) -> Result<Vec<EventMap>, EventMapError> {
    if maps.len() > MAX_MAPS {
        return Err(EventMapError {
            field: "event_maps".to_owned(),
            message: format!("at most {MAX_MAPS} maps per connection"),
        });
    }
    let mut checked: Vec<EventMap> = Vec::with_capacity(maps.len());
    for (index, map) in maps.into_iter().enumerate() {
        let at = |field: &str| format!("event_maps[{index}].{field}");
        let map = check_map(map, syntax).map_err(|(field, message)| EventMapError {
            field: at(&field),
            message,
        })?;
        if checked.iter().any(|other| {
            other.schema == map.schema && other.table == map.table && other.stage == map.stage
        }) {
            return Err(EventMapError {
                field: at("stage"),
                message: format!(
                    "another map already reads `{}` into `{}`; each row would count twice",
                    map.table, map.stage
                ),
            });
        }
        checked.push(map);
    }
    Ok(checked)
}

type Refusal = (String, String);

fn refuse(field: &str, message: impl Into<String>) -> Refusal {
    (field.to_owned(), message.into())
}

fn check_map(map: EventMap, syntax: FieldSyntax) -> Result<EventMap, Refusal> {
    let name = |value: String, field: &str| check_name(&value, field, FieldSyntax::Column);
    let field = |value: String, field: &str| check_name(&value, field, syntax);
    let optional = |value: Option<String>, at: &str| value.map(|v| field(v, at)).transpose();

    // A collection is one name even where fields are dot paths.
    let table = check_name(&map.table, "table", FieldSyntax::Column)?;
    let schema = match map.schema {
        Some(_) if syntax == FieldSyntax::Path => {
            return Err(refuse("schema", "document databases have no schemas"));
        }
        Some(schema) => Some(name(schema, "schema")?),
        None => None,
    };
    let stage = Stage::parse(map.stage.trim()).ok_or_else(|| {
        refuse(
            "stage",
            format!("`{}` is not a canonical stage", map.stage.trim()),
        )
    })?;
    let event_name = map
        .name
        .map(|n| n.trim().to_owned())
        .filter(|n| !n.is_empty());
    if event_name
        .as_ref()
        .is_some_and(|n| n.chars().count() > crate::event::MAX_NAME_CHARS)
    {
        return Err(refuse(
            "name",
            format!(
                "must be at most {} characters",
                crate::event::MAX_NAME_CHARS
            ),
        ));
    }
    let mut attribution = BTreeMap::new();
    for (key, column) in map.attribution {
        if !ATTRIBUTION_FIELDS.contains(&key.as_str()) {
            return Err(refuse(
                &format!("attribution.{key}"),
                format!(
                    "not an attribution field (one of {})",
                    ATTRIBUTION_FIELDS.join(", ")
                ),
            ));
        }
        let column = field(column, &format!("attribution.{key}"))?;
        attribution.insert(key, column);
    }
    let revenue = match map.revenue {
        Some(_) if !stage.acquires_customer() => {
            return Err(refuse(
                "revenue",
                "only `converted` and `payment` maps carry revenue",
            ));
        }
        Some(revenue) => Some(RevenueColumn {
            column: field(revenue.column, "revenue.column")?,
            unit: revenue.unit,
            currency: optional(revenue.currency, "revenue.currency")?,
        }),
        None => None,
    };
    if map.filter.len() > MAX_CONDITIONS {
        return Err(refuse(
            "filter",
            format!("at most {MAX_CONDITIONS} conditions"),
        ));
    }
    let filter = map
        .filter
        .into_iter()
        .enumerate()
        .map(|(i, condition)| check_condition(condition, syntax, &format!("filter[{i}]")))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(EventMap {
        table,
        schema,
        stage: stage.as_str().to_owned(),
        name: event_name,
        timestamp: field(map.timestamp, "timestamp")?,
        dedupe_key: field(map.dedupe_key, "dedupe_key")?,
        user_id: optional(map.user_id, "user_id")?,
        anonymous_id: optional(map.anonymous_id, "anonymous_id")?,
        email: optional(map.email, "email")?,
        attribution,
        revenue,
        filter,
    })
}

fn check_condition(
    condition: Condition,
    syntax: FieldSyntax,
    at: &str,
) -> Result<Condition, Refusal> {
    let column = check_name(&condition.column, &format!("{at}.column"), syntax)?;
    let value_at = format!("{at}.value");
    let is_scalar = |v: &serde_json::Value| v.is_string() || v.is_number() || v.is_boolean();
    match (condition.op, &condition.value) {
        (FilterOp::IsNull | FilterOp::NotNull, None) => {}
        (FilterOp::IsNull | FilterOp::NotNull, Some(_)) => {
            return Err(refuse(&value_at, "the null tests take no value"));
        }
        (FilterOp::In | FilterOp::NotIn, Some(serde_json::Value::Array(values))) => {
            if values.is_empty() || values.len() > MAX_IN_VALUES {
                return Err(refuse(
                    &value_at,
                    format!("must hold 1 to {MAX_IN_VALUES} values"),
                ));
            }
            if !values.iter().all(is_scalar) {
                return Err(refuse(
                    &value_at,
                    "values must be strings, numbers or booleans",
                ));
            }
        }
        (FilterOp::In | FilterOp::NotIn, _) => {
            return Err(refuse(&value_at, "must be an array of values"));
        }
        (_, Some(value)) if is_scalar(value) => {}
        (_, _) => {
            return Err(refuse(&value_at, "must be a string, number or boolean"));
        }
    }
    Ok(Condition {
        column,
        op: condition.op,
        value: condition.value,
    })
}

/// What [`check_name`] takes for one plain name (a table, a schema, a column): the same rule as
/// a pattern, for the machine-readable description.
pub fn plain_name_pattern() -> String {
    format!("^[A-Za-z_][A-Za-z0-9_$]{{0,{}}}$", MAX_NAME_CHARS - 1)
}

/// A name the connectors may quote: a plain identifier (letters, digits, `_`, `$`; not starting
/// with a digit or `$`), or for paths such identifiers joined by dots.
fn check_name(value: &str, field: &str, syntax: FieldSyntax) -> Result<String, Refusal> {
    let value = value.trim();
    if value.is_empty() {
        return Err(refuse(field, "must not be empty"));
    }
    let segments: Vec<&str> = match syntax {
        FieldSyntax::Column => vec![value],
        FieldSyntax::Path => value.split('.').collect(),
    };
    let plain = |segment: &&str| {
        let mut chars = segment.chars();
        chars
            .next()
            .is_some_and(|first| first.is_ascii_alphabetic() || first == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
            && segment.chars().count() <= MAX_NAME_CHARS
    };
    // `items.0.price`: a document path may index into an array after its first name.
    let index = |segment: &&str| !segment.is_empty() && segment.chars().all(|c| c.is_ascii_digit());
    let fits = segments
        .iter()
        .enumerate()
        .all(|(at, segment)| plain(segment) || (at > 0 && index(segment)));
    if !fits {
        let what = match syntax {
            FieldSyntax::Column => "a plain name",
            FieldSyntax::Path => "a dot-notation path of plain names",
        };
        return Err(refuse(
            field,
            format!(
                "`{value}` must be {what} (letters, digits, `_`, `$`, not starting with a digit; at most {MAX_NAME_CHARS} characters)"
            ),
        ));
    }
    Ok(value.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(value: serde_json::Value) -> Vec<EventMap> {
        serde_json::from_value(value).expect("maps parse")
    }

    fn orders() -> serde_json::Value {
        json!({
            "table": " orders ", "schema": "billing", "stage": "payment",
            "timestamp": "paid_at", "dedupe_key": "id", "user_id": "user_id",
            "email": "email", "attribution": {"utm_source": "utm_source", "gclid": "gclid"},
            "revenue": {"column": "amount", "unit": "major", "currency": "currency"},
            "filter": [{"column": "status", "op": "eq", "value": "paid"},
                       {"column": "refunded_at", "op": "is_null"}]
        })
    }

    #[test]
    fn a_full_map_passes_trimmed_and_lists_its_columns_once() {
        let maps = check_maps(parse(json!([orders()])), FieldSyntax::Column).expect("valid");
        let map = &maps[0];
        assert_eq!(map.table, "orders");
        assert_eq!(map.stage(), Some(Stage::Payment));
        assert_eq!(map.event_name(), "orders");
        assert_eq!(
            map.columns(),
            vec![
                "paid_at",
                "id",
                "user_id",
                "email",
                "gclid",
                "utm_source",
                "amount",
                "currency"
            ]
        );
        assert_eq!(map.revenue.as_ref().map(|r| r.unit), Some(MoneyUnit::Major));
    }

    #[test]
    fn collection_is_an_alias_and_paths_take_dots_only_for_documents() {
        let doc = json!([{"collection": "users", "stage": "signup", "timestamp": "meta.created",
                          "dedupe_key": "_id", "email": "profile.email"}]);
        let maps = check_maps(parse(doc.clone()), FieldSyntax::Path).expect("valid path map");
        let indexed = json!([{"collection": "orders", "stage": "payment", "timestamp": "at",
                              "dedupe_key": "_id", "revenue": {"column": "items.0.price"}}]);
        assert!(check_maps(parse(indexed), FieldSyntax::Path).is_ok());
        let leading = json!([{"collection": "orders", "stage": "lead", "timestamp": "0.at",
                              "dedupe_key": "_id"}]);
        assert!(check_maps(parse(leading), FieldSyntax::Path).is_err());
        assert_eq!(maps[0].table, "users");
        assert_eq!(maps[0].email.as_deref(), Some("profile.email"));
        let err = check_maps(parse(doc), FieldSyntax::Column).expect_err("dots are not columns");
        assert_eq!(err.field, "event_maps[0].timestamp");
    }

    #[test]
    fn every_rule_names_its_field() {
        let cases = [
            (json!({"stage": "sale"}), "event_maps[0].stage"),
            (
                json!({"table": "orders; drop table x"}),
                "event_maps[0].table",
            ),
            (json!({"schema": "a b"}), "event_maps[0].schema"),
            (json!({"timestamp": ""}), "event_maps[0].timestamp"),
            (
                json!({"attribution": {"utm_nope": "x"}}),
                "event_maps[0].attribution.utm_nope",
            ),
            (json!({"stage": "lead"}), "event_maps[0].revenue"),
            (
                json!({"filter": [{"column": "s", "op": "in", "value": []}]}),
                "event_maps[0].filter[0].value",
            ),
            (
                json!({"filter": [{"column": "s", "op": "is_null", "value": 1}]}),
                "event_maps[0].filter[0].value",
            ),
            (
                json!({"filter": [{"column": "s", "op": "eq", "value": {"a": 1}}]}),
                "event_maps[0].filter[0].value",
            ),
            (
                json!({"filter": [{"column": "s", "op": "eq"}]}),
                "event_maps[0].filter[0].value",
            ),
        ];
        for (patch, field) in cases {
            let mut map = orders();
            for (key, value) in patch.as_object().expect("object") {
                map[key] = value.clone();
            }
            let err = check_maps(parse(json!([map])), FieldSyntax::Column).expect_err(field);
            assert_eq!(err.field, field, "{err}");
        }
    }

    #[test]
    fn unknown_keys_and_unknown_operators_do_not_parse() {
        let mut map = orders();
        map["tabel"] = json!("x");
        assert!(serde_json::from_value::<Vec<EventMap>>(json!([map])).is_err());
        let mut map = orders();
        map["filter"] = json!([{"column": "s", "op": "like", "value": "%"}]);
        assert!(serde_json::from_value::<Vec<EventMap>>(json!([map])).is_err());
    }

    #[test]
    fn the_same_table_into_the_same_stage_twice_is_refused() {
        let err = check_maps(parse(json!([orders(), orders()])), FieldSyntax::Column)
            .expect_err("duplicate");
        assert_eq!(err.field, "event_maps[1].stage");
        let too_many = vec![orders(); MAX_MAPS + 1];
        let err = check_maps(parse(json!(too_many)), FieldSyntax::Column).expect_err("too many");
        assert_eq!(err.field, "event_maps");
    }
}
