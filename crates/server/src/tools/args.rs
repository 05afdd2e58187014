//! Tool arguments: how they are read (as the API reads a JSON body, so errors name the field the
//! same way) and described (a JSON schema derived from the type, whose bounds come from the same
//! constants the checks use), and the argument shapes several tools share.
//!
//! The arguments of a tool are the route's path, query and body fields under the route's own
//! names (`slug` for `{slug}`); like the API, fields it does not know are ignored.

use garde::Validate;
use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use crate::error::ApiError;
use crate::extract::json::{describe_report, parse_json};
use crate::input::Window;
use crate::tools::ToolError;

/// What the API says of a body it cannot read; a tool has arguments instead.
const BODY_PREFIX: &str = "invalid JSON body: ";

/// `arguments` read into `A` with the API's body rules (`null` and absent read as `{}`): a wrong
/// type or a missing field answers 400 naming it.
pub fn parse<A: DeserializeOwned>(arguments: Value) -> Result<A, ToolError> {
    let arguments = match arguments {
        Value::Null => Value::Object(Map::new()),
        other => other,
    };
    let bytes = serde_json::to_vec(&arguments).map_err(ApiError::internal)?;
    parse_json(&bytes).map_err(|err| match err {
        ApiError::BadRequest(message) => match message.strip_prefix(BODY_PREFIX) {
            Some(rest) => ApiError::BadRequest(format!("invalid arguments: {rest}")),
            None => ApiError::BadRequest(message),
        }
        .into(),
        other => other.into(),
    })
}

/// [`parse`], then `A`'s garde rules, as the API's `ValidJson` checks a body.
pub fn parse_valid<A: DeserializeOwned + Validate<Context = ()>>(
    arguments: Value,
) -> Result<A, ToolError> {
    let args: A = parse(arguments)?;
    args.validate()
        .map_err(|report| ApiError::BadRequest(describe_report(&report)))?;
    Ok(args)
}

/// The JSON schema (draft 2020-12, as MCP asks) of `A`: an object, without the `$schema`, `title`
/// and type-level `description` keys (the tool's own description speaks to the agent; the type's
/// doc comment speaks to us).
pub fn schema<A: JsonSchema>() -> Map<String, Value> {
    let root = SchemaSettings::draft2020_12()
        .into_generator()
        .into_root_schema_for::<A>();
    let mut object = match root.to_value() {
        Value::Object(object) => object,
        _ => Map::new(),
    };
    object.remove("$schema");
    object.remove("title");
    object.remove("description");
    object
        .entry("type")
        .or_insert_with(|| Value::String("object".to_owned()));
    object
        .entry("properties")
        .or_insert_with(|| Value::Object(Map::new()));
    object
}

/// A string schema taking one of `words`.
pub(super) fn one_of(words: &[&str], description: &str) -> Schema {
    let mut object = Map::new();
    object.insert("type".to_owned(), json!("string"));
    object.insert("enum".to_owned(), json!(words));
    object.insert("description".to_owned(), json!(description));
    Schema::from(object)
}

/// A schema for any JSON object.
pub(super) fn any_object(_: &mut SchemaGenerator) -> Schema {
    let mut object = Map::new();
    object.insert("type".to_owned(), json!("object"));
    Schema::from(object)
}

/// No arguments.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct NoArgs {}

/// A product.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct ProductArgs {
    /// The product's slug (as listed by `list_products`).
    pub slug: String,
}

/// A product and a window of days.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct DaysArgs {
    /// The product's slug (as listed by `list_products`).
    pub slug: String,
    /// The N UTC days ending today, 1-3650; default 30.
    #[schemars(range(min = 1, max = Window::MAX_DAYS))]
    pub days: Option<i64>,
}

/// A product, a window of days and a row limit.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct DaysLimitArgs {
    /// The product's slug (as listed by `list_products`).
    pub slug: String,
    /// The N UTC days ending today, 1-3650; default 30.
    #[schemars(range(min = 1, max = Window::MAX_DAYS))]
    pub days: Option<i64>,
    /// At most this many rows, 1-1000; default 100.
    #[schemars(range(min = 1, max = Window::MAX_LIMIT))]
    pub limit: Option<i64>,
}

/// A row limit alone.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct LimitArgs {
    /// At most this many rows, the oldest; 1-500, default 500.
    #[schemars(range(min = 1, max = 500))]
    pub limit: Option<i64>,
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a failing unwrap is the test's failure message
mod tests {
    use super::*;
    use crate::input::limits;

    #[test]
    fn errors_name_the_argument_as_the_api_names_the_field() {
        let wrong = parse::<DaysArgs>(json!({"slug": "shop", "days": "seven"})).unwrap_err();
        assert_eq!(wrong.status, 400);
        assert_eq!(
            wrong.error,
            "days: invalid type: string \"seven\", expected i64"
        );
        let missing = parse::<DaysArgs>(Value::Null).unwrap_err();
        assert_eq!(missing.error, "invalid arguments: missing field `slug`");
        let args = parse::<DaysArgs>(json!({"slug": "shop", "extra": 1})).unwrap();
        assert_eq!((args.slug.as_str(), args.days), ("shop", None));
    }

    #[test]
    fn schemas_state_the_checked_bounds() {
        let window = schema::<DaysLimitArgs>();
        assert_eq!(window["type"], "object");
        assert_eq!(window["required"], json!(["slug"]));
        let days = &window["properties"]["days"];
        assert_eq!(days["minimum"], 1);
        assert_eq!(days["maximum"], Window::MAX_DAYS);
        assert_eq!(window["properties"]["limit"]["maximum"], Window::MAX_LIMIT);
        // The one hand-written bound agrees with the lists it describes.
        let limit = &schema::<LimitArgs>()["properties"]["limit"];
        for list in [limits::PORTFOLIO, limits::CONNECTIONS] {
            assert_eq!(limit["maximum"], list.max);
            assert_eq!(list.default, 500, "the description says default 500");
        }
        let none = schema::<NoArgs>();
        assert_eq!(none["type"], "object");
        assert_eq!(none["properties"], json!({}));
    }
}
