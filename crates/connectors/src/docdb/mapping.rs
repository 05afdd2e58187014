//! One MongoDB document as a [`Row`]: a map's dot paths looked up in the document and each
//! value turned into a [`Cell`] by its exact BSON type, so an Int64 amount stays an integer and a
//! Decimal128 keeps every digit.
//!
//! | BSON | Cell |
//! |---|---|
//! | Int32, Int64 | `Int` |
//! | Double | `Float` |
//! | Decimal128 | `Decimal`, written out without an exponent (`1.05E+3` reads `1050`) |
//! | String, Symbol | `Text` |
//! | ObjectId | `Text`, 24 hex digits |
//! | Binary of subtype 4 (UUID) | `Text`, the hyphenated UUID |
//! | DateTime | `Time` |
//! | Timestamp (the replication clock) | `Time`, its seconds |
//! | Boolean | `Bool` |
//! | Null, Undefined, a missing field | `Null` |
//! | anything else (a sub-document or array named whole, other binaries, regex, code, min/max key) | `Text` of its relaxed extended JSON, keys sorted, so a compound `_id` still makes a stable dedupe key |
//!
//! Paths: each segment names a field of a sub-document; on an array, a segment of digits picks
//! that element (`items.0.price`), any other segment finds nothing (`Null`): a map names one
//! value, never "any element".

use bson::spec::BinarySubtype;
use bson::{Bson, Document};
use payback_domain::Timestamp;

use crate::database::record::{Cell, Row};

/// A document read from a collection, as the shared map reader sees it.
#[derive(Debug, Clone, Copy)]
pub struct DocumentRow<'a>(pub &'a Document);

impl Row for DocumentRow<'_> {
    fn cell(&self, column: &str) -> Cell {
        lookup(self.0, column).map_or(Cell::Null, cell)
    }
}

/// The value at a dot path, or `None` when some segment finds nothing.
pub(crate) fn lookup<'a>(document: &'a Document, path: &str) -> Option<&'a Bson> {
    let mut segments = path.split('.');
    let mut value = document.get(segments.next()?)?;
    for segment in segments {
        value = match value {
            Bson::Document(inner) => inner.get(segment)?,
            Bson::Array(items) => items.get(array_index(segment)?)?,
            _ => return None,
        };
    }
    Some(value)
}

/// `0`, `12`: a canonical array index (MongoDB reads `01` as a field name, not an index).
fn array_index(segment: &str) -> Option<usize> {
    let canonical = !segment.is_empty()
        && segment.bytes().all(|b| b.is_ascii_digit())
        && (segment == "0" || !segment.starts_with('0'));
    canonical.then(|| segment.parse().ok()).flatten()
}

/// One BSON value as a cell, by its exact type (see the module's table).
pub(crate) fn cell(value: &Bson) -> Cell {
    match value {
        Bson::Int32(n) => Cell::Int(i64::from(*n)),
        Bson::Int64(n) => Cell::Int(*n),
        Bson::Double(x) => Cell::Float(*x),
        Bson::Decimal128(d) => Cell::Decimal(plain_decimal(&d.to_string())),
        Bson::String(text) | Bson::Symbol(text) => Cell::Text(text.clone()),
        Bson::ObjectId(id) => Cell::Text(id.to_hex()),
        Bson::DateTime(at) => Cell::Time(Timestamp::from_millis(at.timestamp_millis())),
        Bson::Timestamp(clock) => Cell::Time(Timestamp::from_millis(i64::from(clock.time) * 1000)),
        Bson::Boolean(b) => Cell::Bool(*b),
        Bson::Null | Bson::Undefined => Cell::Null,
        Bson::Binary(binary)
            if binary.subtype == BinarySubtype::Uuid && binary.bytes.len() == 16 =>
        {
            Cell::Text(hyphenated_uuid(&binary.bytes))
        }
        other => Cell::Text(sorted_json(&other.clone().into_relaxed_extjson())),
    }
}

/// JSON text with every object's keys sorted, so the text of a value never depends on field
/// order or on whether serde_json was built to preserve it: a compound `_id` must give the same
/// dedupe key on every read.
fn sorted_json(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::Object(object) => {
            let mut entries: Vec<_> = object.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            let fields: Vec<String> = entries
                .into_iter()
                .map(|(key, value)| {
                    format!(
                        "{}:{}",
                        serde_json::Value::from(key.as_str()),
                        sorted_json(value)
                    )
                })
                .collect();
            format!("{{{}}}", fields.join(","))
        }
        serde_json::Value::Array(items) => {
            let items: Vec<String> = items.iter().map(sorted_json).collect();
            format!("[{}]", items.join(","))
        }
        scalar => scalar.to_string(),
    }
}

/// `8-4-4-4-12` lower-case hex groups.
fn hyphenated_uuid(bytes: &[u8]) -> String {
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}

/// Longest plain form written out; beyond it the canonical (exponent) text is kept.
const MAX_PLAIN_DIGITS: usize = 64;

/// Decimal128's canonical text without its exponent: `1.05E+3` -> `1050`, `-1.2E-7` ->
/// `-0.00000012`; plain text, `NaN`, `Infinity` and huge exponents come back as they were.
fn plain_decimal(text: &str) -> String {
    let Some((mantissa, exponent)) = text.split_once('E') else {
        return text.to_owned();
    };
    let Ok(exponent) = exponent.parse::<i64>() else {
        return text.to_owned();
    };
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", mantissa),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{whole}{fraction}");
    // The value is 0.<digits> x 10^point.
    let point = i64::try_from(whole.len())
        .unwrap_or(i64::MAX)
        .saturating_add(exponent);
    let width = usize::try_from(point.unsigned_abs()).unwrap_or(usize::MAX);
    if width.saturating_add(digits.len()) > MAX_PLAIN_DIGITS {
        return text.to_owned();
    }
    let plain = if point <= 0 {
        format!("0.{}{digits}", "0".repeat(width))
    } else if width >= digits.len() {
        format!("{digits}{}", "0".repeat(width - digits.len()))
    } else {
        format!("{}.{}", &digits[..width], &digits[width..])
    };
    format!("{sign}{plain}")
}

/// The `$type` alias of a value's BSON type (`long`, `decimal`, `date`, ...), as MongoDB names it.
pub(crate) fn type_name(value: &Bson) -> &'static str {
    match value {
        Bson::Double(_) => "double",
        Bson::String(_) => "string",
        Bson::Document(_) => "object",
        Bson::Array(_) => "array",
        Bson::Binary(_) => "binData",
        Bson::Undefined => "undefined",
        Bson::ObjectId(_) => "objectId",
        Bson::Boolean(_) => "bool",
        Bson::DateTime(_) => "date",
        Bson::Null => "null",
        Bson::RegularExpression(_) => "regex",
        Bson::DbPointer(_) => "dbPointer",
        Bson::JavaScriptCode(_) => "javascript",
        Bson::Symbol(_) => "symbol",
        Bson::JavaScriptCodeWithScope(_) => "javascriptWithScope",
        Bson::Int32(_) => "int",
        Bson::Timestamp(_) => "timestamp",
        Bson::Int64(_) => "long",
        Bson::Decimal128(_) => "decimal",
        Bson::MinKey => "minKey",
        Bson::MaxKey => "maxKey",
    }
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use bson::oid::ObjectId;
    use bson::raw::CString;
    use bson::{Binary, DateTime, Decimal128, Regex, doc};
    use payback_domain::event_map::{EventMap, FieldSyntax, MoneyUnit, RevenueColumn, check_maps};
    use serde_json::json;

    use super::*;
    use crate::database::record::MapReader;

    const PAID_MS: i64 = 1_790_000_000_123;
    const NOW: Timestamp = Timestamp::from_millis(1_795_262_400_000);

    fn decimal(text: &str) -> Decimal128 {
        Decimal128::from_str(text).expect("a decimal")
    }

    /// One document holding every BSON type, nested and in arrays.
    fn every_type() -> Document {
        doc! {
            "int32": 7_i32,
            "int64": 9_007_199_254_740_993_i64,
            "double": 19.9_f64,
            "decimal": decimal("19.90"),
            "decimal_exp": decimal("1.05E+3"),
            "decimal_small": decimal("-1.2E-7"),
            "string": "hello",
            "oid": ObjectId::from_bytes([0x65, 0x1f, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]),
            "when": DateTime::from_millis(PAID_MS),
            "clock": Bson::Timestamp(bson::Timestamp { time: 1_790_000_000, increment: 3 }),
            "yes": true,
            "nothing": Bson::Null,
            "undefined": Bson::Undefined,
            "uuid": Binary { subtype: BinarySubtype::Uuid, bytes: (0_u8..16).collect() },
            "blob": Binary { subtype: BinarySubtype::Generic, bytes: vec![1, 2, 3] },
            "pattern": Regex { pattern: CString::try_from("^a").expect("a pattern"), options: CString::try_from("i").expect("options") },
            "max": Bson::MaxKey,
            "customer": { "profile": { "email": "Ann@Example.com", "age": 41_i64 } },
            "items": [ { "price": decimal("5.25") }, { "price": 3_i32 } ],
            "compound": { "shop": 1_i32, "n": 2_i32 },
        }
    }

    #[test]
    fn every_bson_type_becomes_its_exact_cell() {
        let document = every_type();
        let row = DocumentRow(&document);
        let cases = [
            ("int32", Cell::Int(7)),
            ("int64", Cell::Int(9_007_199_254_740_993)),
            ("double", Cell::Float(19.9)),
            ("decimal", Cell::Decimal("19.90".into())),
            ("decimal_exp", Cell::Decimal("1050".into())),
            ("decimal_small", Cell::Decimal("-0.00000012".into())),
            ("string", Cell::Text("hello".into())),
            ("oid", Cell::Text("651f00010203040506070809".into())),
            ("when", Cell::Time(Timestamp::from_millis(PAID_MS))),
            (
                "clock",
                Cell::Time(Timestamp::from_millis(1_790_000_000_000)),
            ),
            ("yes", Cell::Bool(true)),
            ("nothing", Cell::Null),
            ("undefined", Cell::Null),
            ("missing", Cell::Null),
            (
                "uuid",
                Cell::Text("00010203-0405-0607-0809-0a0b0c0d0e0f".into()),
            ),
            (
                "blob",
                Cell::Text(r#"{"$binary":{"base64":"AQID","subType":"00"}}"#.into()),
            ),
            (
                "pattern",
                Cell::Text(r#"{"$regularExpression":{"options":"i","pattern":"^a"}}"#.into()),
            ),
            ("max", Cell::Text(r#"{"$maxKey":1}"#.into())),
            (
                "customer.profile.email",
                Cell::Text("Ann@Example.com".into()),
            ),
            ("customer.profile.age", Cell::Int(41)),
            ("customer.profile.missing", Cell::Null),
            ("customer.profile.email.deeper", Cell::Null),
            ("items.0.price", Cell::Decimal("5.25".into())),
            ("items.1.price", Cell::Int(3)),
            ("items.2.price", Cell::Null),
            ("items.price", Cell::Null),
            ("items.01.price", Cell::Null),
            ("compound", Cell::Text(r#"{"n":2,"shop":1}"#.into())),
            (
                "items",
                Cell::Text(r#"[{"price":{"$numberDecimal":"5.25"}},{"price":3}]"#.into()),
            ),
        ];
        for (path, expected) in cases {
            assert_eq!(row.cell(path), expected, "{path}");
        }
    }

    #[test]
    fn decimal_text_drops_the_exponent_only_when_it_stays_short() {
        assert_eq!(plain_decimal("0.001"), "0.001");
        assert_eq!(plain_decimal("1E+3"), "1000");
        assert_eq!(plain_decimal("1.234E+1"), "12.34");
        assert_eq!(plain_decimal("-5E-2"), "-0.05");
        assert_eq!(plain_decimal("NaN"), "NaN");
        assert_eq!(plain_decimal("-Infinity"), "-Infinity");
        assert_eq!(plain_decimal("1E+6111"), "1E+6111");
        assert_eq!(
            decimal("12345678901234567890.12").to_string(),
            "12345678901234567890.12"
        );
    }

    #[test]
    fn type_names_are_mongodb_aliases() {
        let document = every_type();
        let names: Vec<(&str, &str)> = document
            .iter()
            .map(|(key, value)| (key.as_str(), type_name(value)))
            .collect();
        assert_eq!(
            names,
            vec![
                ("int32", "int"),
                ("int64", "long"),
                ("double", "double"),
                ("decimal", "decimal"),
                ("decimal_exp", "decimal"),
                ("decimal_small", "decimal"),
                ("string", "string"),
                ("oid", "objectId"),
                ("when", "date"),
                ("clock", "timestamp"),
                ("yes", "bool"),
                ("nothing", "null"),
                ("undefined", "undefined"),
                ("uuid", "binData"),
                ("blob", "binData"),
                ("pattern", "regex"),
                ("max", "maxKey"),
                ("customer", "object"),
                ("items", "array"),
                ("compound", "object"),
            ]
        );
    }

    fn payments_map(unit: MoneyUnit, amount: &str) -> EventMap {
        let maps = serde_json::from_value(json!([{
            "collection": "orders", "stage": "payment", "timestamp": "paid.at",
            "dedupe_key": "_id", "user_id": "customer.id", "email": "customer.profile.email",
            "attribution": {"utm_source": "utm.source", "gclid": "utm.gclid"},
        }]))
        .expect("map parses");
        let mut map = check_maps(maps, FieldSyntax::Path)
            .expect("a valid map")
            .remove(0);
        map.revenue = Some(RevenueColumn {
            column: amount.to_owned(),
            unit,
            currency: Some("currency".to_owned()),
        });
        map
    }

    fn order(id: Bson, amount: Bson) -> Document {
        doc! {
            "_id": id,
            "paid": { "at": DateTime::from_millis(PAID_MS) },
            "customer": { "id": 9_007_199_254_740_993_i64, "profile": { "email": "Ann@Example.com" } },
            "utm": { "source": "newsletter" },
            "currency": "usd",
            "amount": amount,
            "items": [ { "price": decimal("12.345") } ],
        }
    }

    #[test]
    fn documents_become_events_through_the_shared_reader() {
        let map = payments_map(MoneyUnit::Major, "amount");
        let mut reader = MapReader::new(&map, "USD", NOW);
        let oid = ObjectId::from_bytes([0xab; 12]);
        let cases = [
            (
                Bson::ObjectId(oid),
                decimal("19.90").into(),
                "abababababababababababab",
                1990,
            ),
            (
                Bson::Int64(9_007_199_254_740_993),
                Bson::Int64(25),
                "9007199254740993",
                2500,
            ),
            (Bson::Int32(3), Bson::Double(12.5), "3", 1250),
            (
                Bson::String("A-4".into()),
                Bson::String("7.05".into()),
                "A-4",
                705,
            ),
        ];
        for (id, amount, key, cents) in cases {
            let document = order(id, amount);
            let event = reader.event(&DocumentRow(&document)).expect("an event");
            assert_eq!(event.dedupe_id, format!("orders/payment:{key}"));
            assert_eq!(event.stage, "payment");
            assert_eq!(event.name.as_deref(), Some("orders"));
            assert_eq!(
                event.occurred_at,
                Some(Timestamp::from_millis(PAID_MS).to_rfc3339())
            );
            assert_eq!(event.user_id.as_deref(), Some("9007199254740993"));
            assert_eq!(event.email.as_deref(), Some("Ann@Example.com"));
            assert_eq!(event.value, Some(cents), "{key}");
            assert_eq!(event.currency.as_deref(), Some("USD"));
            let attribution = event.attribution.expect("attribution");
            assert_eq!(attribution.utm_source.as_deref(), Some("newsletter"));
            assert_eq!(attribution.gclid, None);
            assert_eq!(
                event.properties,
                Some(json!({"table": "orders", "row": key}))
            );
        }
        assert_eq!(
            reader.counts.describe(&reader.label()),
            "orders: 4 rows, 4 events"
        );
    }

    #[test]
    fn an_array_element_can_carry_the_amount() {
        let mut map = payments_map(MoneyUnit::Major, "amount");
        // `check_maps` admits only segments starting with a letter; the reader itself follows
        // numeric segments into arrays, as MongoDB's dot notation does.
        if let Some(revenue) = map.revenue.as_mut() {
            revenue.column = "items.0.price".to_owned();
        }
        let mut reader = MapReader::new(&map, "USD", NOW);
        let document = order(Bson::Int32(1), Bson::Null);
        let event = reader.event(&DocumentRow(&document)).expect("an event");
        assert_eq!(event.value, Some(1235));
    }

    #[test]
    fn odd_documents_are_counted_not_sent() {
        let map = payments_map(MoneyUnit::Cents, "amount");
        let mut reader = MapReader::new(&map, "USD", NOW);
        let mut euro = order(Bson::Int32(1), Bson::Int64(500));
        euro.insert("currency", "EUR");
        let fractional_cents = order(Bson::Int32(2), Bson::Double(12.5));
        let mut no_time = order(Bson::Int32(3), Bson::Int64(1));
        no_time.remove("paid");
        let mut time_as_number = order(Bson::Int32(4), Bson::Int64(1));
        time_as_number.insert("paid", doc! { "at": PAID_MS });
        let no_key = order(Bson::Null, Bson::Int64(1));
        let whole_cents = order(Bson::Int32(6), Bson::Int64(1999));
        let documents = [
            euro,
            fractional_cents,
            no_time,
            time_as_number,
            no_key,
            whole_cents,
        ];
        let events: Vec<_> = documents
            .iter()
            .filter_map(|document| reader.event(&DocumentRow(document)))
            .collect();
        assert_eq!(events.len(), 1);
        assert_eq!(events[0].dedupe_id, "orders/payment:6");
        assert_eq!(events[0].value, Some(1999));
        assert_eq!(
            reader.counts.describe(&reader.label()),
            "orders: 6 rows, 1 events, 1 in another currency, 4 skipped \
             (first: row 2: amount is not an amount)"
        );
    }
}
