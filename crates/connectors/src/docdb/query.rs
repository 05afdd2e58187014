//! A map and a sync window as a `find`: the filter document, the sort and the projection.
//! Values come from the map's JSON and are bound as BSON values, never spliced into operator
//! positions, and every path was checked by `check_maps` (plain names joined by dots).
//!
//! Null tests follow MongoDB: `is_null` is `{$eq: null}`, which also matches documents
//! without the field; `not_null` is `{$exists: true, $ne: null}`, which matches neither (the
//! `$exists` is what MongoDB's `{$ne: null}` means already, spelled out for wire-compatible
//! servers that read `$ne: null` loosely). `ne` and `not_in` match documents without the field,
//! as MongoDB's `$ne` and `$nin` do.

use bson::{Bson, DateTime, Document, doc};
use payback_domain::event_map::{Condition, EventMap, FilterOp};

use crate::SyncWindow;

/// `{ $and: [ {<timestamp>: {$gte: from, $lt: to}}, <condition>, ... ] }`: the window as BSON
/// dates (documents whose timestamp is not a date never match), and every filter condition.
pub(super) fn filter(map: &EventMap, window: SyncWindow) -> Result<Document, String> {
    let mut clauses = vec![Bson::Document(doc! {
        map.timestamp.as_str(): {
            "$gte": DateTime::from_millis(window.from.millis()),
            "$lt": DateTime::from_millis(window.to.millis()),
        }
    })];
    for (index, condition) in map.filter.iter().enumerate() {
        let clause =
            condition_document(condition).map_err(|reason| format!("filter[{index}]: {reason}"))?;
        clauses.push(Bson::Document(clause));
    }
    Ok(doc! { "$and": clauses })
}

fn condition_document(condition: &Condition) -> Result<Document, String> {
    let value = || {
        condition
            .value
            .as_ref()
            .ok_or_else(|| "needs a value".to_owned())
            .and_then(to_bson)
    };
    let test = match condition.op {
        FilterOp::Eq => doc! { "$eq": value()? },
        FilterOp::Ne => doc! { "$ne": value()? },
        FilterOp::Gt => doc! { "$gt": value()? },
        FilterOp::Gte => doc! { "$gte": value()? },
        FilterOp::Lt => doc! { "$lt": value()? },
        FilterOp::Lte => doc! { "$lte": value()? },
        FilterOp::In => doc! { "$in": value()? },
        FilterOp::NotIn => doc! { "$nin": value()? },
        FilterOp::IsNull => doc! { "$eq": Bson::Null },
        FilterOp::NotNull => doc! { "$exists": true, "$ne": Bson::Null },
    };
    Ok(doc! { condition.column.as_str(): test })
}

/// A filter value as BSON: integers as Int64 (MongoDB compares numbers across Int32, Int64,
/// Double and Decimal128), other numbers as Double, strings, booleans, arrays of them.
pub(super) fn to_bson(value: &serde_json::Value) -> Result<Bson, String> {
    use serde_json::Value;
    match value {
        Value::Null => Ok(Bson::Null),
        Value::Bool(b) => Ok(Bson::Boolean(*b)),
        Value::String(text) => Ok(Bson::String(text.clone())),
        Value::Number(number) => match (number.as_i64(), number.as_f64()) {
            (Some(integer), _) => Ok(Bson::Int64(integer)),
            (None, Some(float)) => Ok(Bson::Double(float)),
            (None, None) => Err(format!("{number} is not a number MongoDB can hold")),
        },
        Value::Array(items) => items
            .iter()
            .map(to_bson)
            .collect::<Result<_, _>>()
            .map(Bson::Array),
        Value::Object(_) => Err("must be a string, number or boolean".to_owned()),
    }
}

/// Oldest first; `_id` breaks ties, so documents sharing a timestamp come in one stable order.
pub(super) fn sort(map: &EventMap) -> Document {
    let mut sort = doc! { map.timestamp.as_str(): 1 };
    sort.insert("_id", 1);
    sort
}

/// The top-level fields holding what the map reads, and nothing else: `customer.email` projects
/// `customer`. Whole top-level fields keep the projection valid however paths overlap (MongoDB
/// refuses `customer` beside `customer.email`, and projections do not index arrays), and every
/// wire-compatible server returns them as stored, where some flatten a nested projection.
pub(super) fn projection(map: &EventMap) -> Document {
    let mut fields: Vec<&str> = map
        .columns()
        .into_iter()
        .filter_map(|path| path.split('.').next())
        .collect();
    fields.sort_unstable();
    fields.dedup();
    let mut projection = Document::new();
    for field in fields {
        projection.insert(field, 1);
    }
    projection
}

#[cfg(test)]
mod tests {
    use payback_domain::Timestamp;
    use payback_domain::event_map::{FieldSyntax, check_maps};
    use serde_json::json;

    use super::*;

    const FROM: i64 = 1_790_000_000_000;
    const TO: i64 = 1_790_086_400_000;

    fn map(extra: serde_json::Value) -> EventMap {
        let mut value = json!({
            "collection": "orders", "stage": "payment", "timestamp": "meta.paid_at",
            "dedupe_key": "_id", "user_id": "customer.id", "email": "customer.email",
            "anonymous_id": "customer", "revenue": {"column": "total", "currency": "currency"},
            "attribution": {"utm_source": "utm.source", "gclid": "gclid"}
        });
        for (key, field) in extra.as_object().expect("an object") {
            value[key] = field.clone();
        }
        let maps = serde_json::from_value(json!([value])).expect("map parses");
        check_maps(maps, FieldSyntax::Path)
            .expect("a valid map")
            .remove(0)
    }

    fn window() -> SyncWindow {
        SyncWindow {
            from: Timestamp::from_millis(FROM),
            to: Timestamp::from_millis(TO),
        }
    }

    #[test]
    fn the_window_and_every_operator_become_one_conjunction() {
        let filter_json = json!([
            {"column": "status", "op": "eq", "value": "paid"},
            {"column": "status", "op": "ne", "value": "test"},
            {"column": "total", "op": "gt", "value": 0},
            {"column": "total", "op": "gte", "value": 1.5},
            {"column": "customer.age", "op": "lt", "value": 99},
            {"column": "customer.age", "op": "lte", "value": 98},
            {"column": "plan", "op": "in", "value": ["pro", 3, true]},
            {"column": "plan", "op": "not_in", "value": ["free"]},
            {"column": "refunded_at", "op": "is_null"},
            {"column": "paid", "op": "not_null"}
        ]);
        let map = map(json!({ "filter": filter_json }));
        let filter = filter(&map, window()).expect("a filter");
        let expected = doc! { "$and": [
            { "meta.paid_at": { "$gte": DateTime::from_millis(FROM), "$lt": DateTime::from_millis(TO) } },
            { "status": { "$eq": "paid" } },
            { "status": { "$ne": "test" } },
            { "total": { "$gt": 0_i64 } },
            { "total": { "$gte": 1.5_f64 } },
            { "customer.age": { "$lt": 99_i64 } },
            { "customer.age": { "$lte": 98_i64 } },
            { "plan": { "$in": ["pro", 3_i64, true] } },
            { "plan": { "$nin": ["free"] } },
            { "refunded_at": { "$eq": Bson::Null } },
            { "paid": { "$exists": true, "$ne": Bson::Null } },
        ] };
        assert_eq!(filter, expected);
    }

    #[test]
    fn numbers_keep_their_kind() {
        assert_eq!(to_bson(&json!(42)), Ok(Bson::Int64(42)));
        assert_eq!(to_bson(&json!(-7)), Ok(Bson::Int64(-7)));
        assert_eq!(to_bson(&json!(19.99)), Ok(Bson::Double(19.99)));
        assert_eq!(
            to_bson(&json!(18_446_744_073_709_551_615_u64)),
            Ok(Bson::Double(18_446_744_073_709_551_615_u64 as f64))
        );
        assert!(to_bson(&json!({"$where": "1"})).is_err());
    }

    #[test]
    fn projection_reads_only_the_top_level_fields_of_mapped_paths() {
        let mut map = map(json!({}));
        if let Some(revenue) = map.revenue.as_mut() {
            revenue.column = "items.0.price".to_owned();
        }
        assert_eq!(
            projection(&map),
            doc! { "_id": 1, "currency": 1, "customer": 1, "gclid": 1, "items": 1, "meta": 1, "utm": 1 }
        );
        let sort = sort(&map);
        assert_eq!(sort.keys().collect::<Vec<_>>(), ["meta.paid_at", "_id"]);
        assert_eq!(sort, doc! { "meta.paid_at": 1, "_id": 1 });
    }
}
