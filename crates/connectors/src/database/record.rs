//! One row of a customer's table as an event: the cells a map names, converted by their type,
//! checked against the event schema before they leave, so one odd row is skipped and counted
//! instead of failing the whole run.

use payback_domain::Timestamp;
use payback_domain::channel::Attribution;
use payback_domain::event::IncomingEvent;
use payback_domain::event_map::{EventMap, MoneyUnit};
use serde_json::json;
use sha2::{Digest, Sha256};

/// One value read from a row, typed as the source stores it.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Null,
    Text(String),
    Int(i64),
    /// An exact decimal written out (`NUMERIC`, `DECIMAL`, `Decimal128`), such as `19.90`.
    Decimal(String),
    Float(f64),
    Bool(bool),
    Time(Timestamp),
}

impl Cell {
    /// The cell as event text: numbers and booleans written out, times as RFC 3339.
    pub fn text(&self) -> Option<String> {
        match self {
            Cell::Null => None,
            Cell::Text(text) | Cell::Decimal(text) => Some(text.clone()),
            Cell::Int(n) => Some(n.to_string()),
            Cell::Float(x) => Some(x.to_string()),
            Cell::Bool(b) => Some(b.to_string()),
            Cell::Time(at) => Some(at.to_rfc3339()),
        }
        .map(|text| text.trim().to_owned())
        .filter(|text| !text.is_empty())
    }

    /// The cell as Payback's amount (hundredths of the currency unit); `None` for a value that
    /// is not an amount.
    pub fn hundredths(&self, unit: MoneyUnit) -> Option<i64> {
        match (self, unit) {
            (Cell::Int(n), MoneyUnit::Cents) => Some(*n),
            (Cell::Int(n), MoneyUnit::Major) => n.checked_mul(100),
            (Cell::Decimal(text) | Cell::Text(text), unit) => parse_hundredths(text, unit),
            (Cell::Float(x), unit) => {
                let scaled = match unit {
                    MoneyUnit::Cents => *x,
                    MoneyUnit::Major => x * 100.0,
                };
                let rounded = scaled.round();
                let exact_cents = unit == MoneyUnit::Major || rounded == scaled;
                (exact_cents && rounded.is_finite() && rounded.abs() < 9.0e15)
                    .then_some(rounded as i64)
            }
            _ => None,
        }
    }
}

/// `19.99` (major) -> 1999, `1999` or `1999.00` (cents) -> 1999. Major amounts with more than
/// two decimals round half away from zero; cents must be whole.
fn parse_hundredths(text: &str, unit: MoneyUnit) -> Option<i64> {
    let text = text.trim();
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    let all_digits = |s: &str| s.chars().all(|c| c.is_ascii_digit());
    if whole.is_empty() && fraction.is_empty() || !all_digits(whole) || !all_digits(fraction) {
        return None;
    }
    let whole: i64 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let magnitude = match unit {
        MoneyUnit::Cents => {
            if fraction.chars().any(|c| c != '0') {
                return None;
            }
            whole
        }
        MoneyUnit::Major => {
            let mut decimals = fraction.bytes().map(|b| i64::from(b - b'0'));
            let tenths = decimals.next().unwrap_or(0);
            let hundredths = decimals.next().unwrap_or(0);
            let round_up = i64::from(decimals.next().unwrap_or(0) >= 5);
            whole
                .checked_mul(100)?
                .checked_add(tenths * 10 + hundredths + round_up)?
        }
    };
    Some(if negative { -magnitude } else { magnitude })
}

/// A row as the connectors read it: its cells by column name (or dot path).
pub trait Row {
    fn cell(&self, column: &str) -> Cell;
}

/// What reading one map found, for the run's status line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MapCounts {
    pub rows: usize,
    pub events: usize,
    /// Rows in another currency than the product's: skipped, never converted.
    pub other_currency: usize,
    /// Rows the event schema refuses (no timestamp, an email that is not one, ...).
    pub invalid: usize,
    /// The first refusal, so the status line can say what to fix.
    pub first_invalid: Option<String>,
}

impl MapCounts {
    /// `orders: 120 rows, 118 events, 2 in another currency`.
    pub fn describe(&self, label: &str) -> String {
        let mut line = format!("{label}: {} rows, {} events", self.rows, self.events);
        if self.other_currency > 0 {
            line.push_str(&format!(", {} in another currency", self.other_currency));
        }
        if self.invalid > 0 {
            line.push_str(&format!(", {} skipped", self.invalid));
            if let Some(reason) = &self.first_invalid {
                line.push_str(&format!(" (first: {reason})"));
            }
        }
        line
    }
}

/// Turns the rows of one map into events.
#[derive(Debug)]
pub struct MapReader<'a> {
    map: &'a EventMap,
    product_currency: String,
    /// Receipt time for the schema check: the end of the sync window.
    now: Timestamp,
    pub counts: MapCounts,
}

impl<'a> MapReader<'a> {
    pub fn new(map: &'a EventMap, product_currency: &str, now: Timestamp) -> Self {
        Self {
            map,
            product_currency: product_currency.trim().to_ascii_uppercase(),
            now,
            counts: MapCounts::default(),
        }
    }

    /// `schema.table`, or the table alone.
    pub fn label(&self) -> String {
        qualified(self.map)
    }

    /// The row as an event, or `None` (counted) when it cannot be one.
    pub fn event(&mut self, row: &impl Row) -> Option<IncomingEvent> {
        self.counts.rows += 1;
        let key = row.cell(&self.map.dedupe_key).text();
        match self.build(row, key.as_deref()) {
            Ok(Some(event)) => {
                self.counts.events += 1;
                Some(event)
            }
            Ok(None) => {
                self.counts.other_currency += 1;
                None
            }
            Err(reason) => {
                self.counts.invalid += 1;
                if self.counts.first_invalid.is_none() {
                    let row = key.unwrap_or_else(|| "?".to_owned());
                    self.counts.first_invalid = Some(format!("row {row}: {reason}"));
                }
                None
            }
        }
    }

    /// `Ok(None)`: a row in another currency.
    fn build(&self, row: &impl Row, key: Option<&str>) -> Result<Option<IncomingEvent>, String> {
        let map = self.map;
        let key = key.ok_or_else(|| format!("{} is empty", map.dedupe_key))?;
        let occurred_at = match row.cell(&map.timestamp) {
            Cell::Time(at) => at,
            Cell::Text(text) => Timestamp::parse_rfc3339(text.trim())
                .ok_or_else(|| format!("{} is not a timestamp", map.timestamp))?,
            Cell::Null => return Err(format!("{} is empty", map.timestamp)),
            _ => return Err(format!("{} is not a timestamp", map.timestamp)),
        };
        let text = |column: &Option<String>| column.as_deref().and_then(|c| row.cell(c).text());
        let mut value = None;
        if let Some(revenue) = &map.revenue {
            let code = revenue.currency.as_deref().and_then(|c| row.cell(c).text());
            if code.is_some_and(|code| !code.eq_ignore_ascii_case(&self.product_currency)) {
                return Ok(None);
            }
            value = match row.cell(&revenue.column) {
                Cell::Null => None,
                cell => Some(
                    cell.hundredths(revenue.unit)
                        .ok_or_else(|| format!("{} is not an amount", revenue.column))?,
                ),
            };
        }
        let event = IncomingEvent {
            dedupe_id: dedupe_id(map, key),
            stage: map.stage.clone(),
            name: Some(map.event_name().to_owned()),
            occurred_at: Some(occurred_at.to_rfc3339()),
            anonymous_id: text(&map.anonymous_id),
            user_id: text(&map.user_id),
            email: text(&map.email),
            currency: value.map(|_| self.product_currency.clone()),
            value,
            attribution: self.attribution(row),
            properties: Some(json!({ "table": qualified(map), "row": key })),
        };
        // The same rules the events API applies; a row that breaks one is skipped here rather
        // than failing its whole page at ingestion.
        event
            .clone()
            .validate(self.now, &self.product_currency)
            .map_err(|err| format!("{}: {}", err.field, err.message))?;
        Ok(Some(event))
    }

    fn attribution(&self, row: &impl Row) -> Option<Attribution> {
        let mut attribution = Attribution::default();
        for (field, column) in &self.map.attribution {
            let value = row.cell(column).text();
            let slot = match field.as_str() {
                "channel" => &mut attribution.channel,
                "utm_source" => &mut attribution.utm_source,
                "utm_medium" => &mut attribution.utm_medium,
                "utm_campaign" => &mut attribution.utm_campaign,
                "utm_content" => &mut attribution.utm_content,
                "utm_term" => &mut attribution.utm_term,
                "utm_id" => &mut attribution.utm_id,
                "gclid" => &mut attribution.gclid,
                "gbraid" => &mut attribution.gbraid,
                "wbraid" => &mut attribution.wbraid,
                "fbclid" => &mut attribution.fbclid,
                "li_fat_id" => &mut attribution.li_fat_id,
                "msclkid" => &mut attribution.msclkid,
                "referrer" => &mut attribution.referrer,
                "landing_url" => &mut attribution.landing_url,
                // `check_maps` admits only the fields above.
                _ => continue,
            };
            *slot = value;
        }
        (attribution != Attribution::default()).then_some(attribution)
    }
}

fn qualified(map: &EventMap) -> String {
    match &map.schema {
        Some(schema) => format!("{schema}.{}", map.table),
        None => map.table.clone(),
    }
}

/// `orders/payment:42`: unique per table, stage and row, so two maps of one table never collide
/// and a re-read stores nothing twice. Keys too long for the schema's 128 characters are hashed.
fn dedupe_id(map: &EventMap, key: &str) -> String {
    let id = format!("{}/{}:{key}", qualified(map), map.stage);
    if id.chars().count() <= 128 {
        return id;
    }
    let digest = Sha256::digest(id.as_bytes());
    let hex: String = digest.iter().map(|byte| format!("{byte:02x}")).collect();
    format!("sha256:{hex}")
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use payback_domain::event_map::{FieldSyntax, check_maps};

    use super::*;

    const NOW: Timestamp = Timestamp::from_millis(1_795_262_400_000);

    struct Cells(HashMap<&'static str, Cell>);

    impl Row for Cells {
        fn cell(&self, column: &str) -> Cell {
            self.0.get(column).cloned().unwrap_or(Cell::Null)
        }
    }

    fn orders_map() -> EventMap {
        let maps = serde_json::from_value(json!([{
            "table": "orders", "schema": "shop", "stage": "payment", "timestamp": "paid_at",
            "dedupe_key": "id", "user_id": "user_id", "email": "email",
            "attribution": {"utm_source": "src", "gclid": "gclid"},
            "revenue": {"column": "total", "unit": "major", "currency": "cur"}
        }]))
        .expect("map parses");
        check_maps(maps, FieldSyntax::Column)
            .expect("map is valid")
            .remove(0)
    }

    fn row(cells: &[(&'static str, Cell)]) -> Cells {
        Cells(cells.iter().cloned().collect())
    }

    #[test]
    fn a_row_becomes_an_event_with_identity_attribution_and_revenue() {
        let map = orders_map();
        let mut reader = MapReader::new(&map, "usd", NOW);
        let paid = Timestamp::from_millis(NOW.millis() - 60_000);
        let event = reader
            .event(&row(&[
                ("id", Cell::Int(42)),
                ("paid_at", Cell::Time(paid)),
                ("user_id", Cell::Int(7)),
                ("email", Cell::Text(" Ann@Example.com ".into())),
                ("src", Cell::Text("google".into())),
                ("total", Cell::Decimal("19.995".into())),
                ("cur", Cell::Text("usd".into())),
            ]))
            .expect("an event");
        assert_eq!(event.dedupe_id, "shop.orders/payment:42");
        assert_eq!(event.stage, "payment");
        assert_eq!(event.name.as_deref(), Some("orders"));
        assert_eq!(event.occurred_at, Some(paid.to_rfc3339()));
        assert_eq!(event.user_id.as_deref(), Some("7"));
        assert_eq!(event.email.as_deref(), Some("Ann@Example.com"));
        assert_eq!(event.value, Some(2000));
        assert_eq!(event.currency.as_deref(), Some("USD"));
        let attribution = event.attribution.expect("attribution");
        assert_eq!(attribution.utm_source.as_deref(), Some("google"));
        assert_eq!(attribution.gclid, None);
        assert_eq!(reader.counts.events, 1);
    }

    #[test]
    fn other_currencies_and_broken_rows_are_counted_not_sent() {
        let map = orders_map();
        let mut reader = MapReader::new(&map, "USD", NOW);
        let at = Cell::Time(NOW);
        let eur = row(&[
            ("id", Cell::Int(1)),
            ("paid_at", at.clone()),
            ("cur", Cell::Text("EUR".into())),
        ]);
        assert!(reader.event(&eur).is_none());
        let no_time = row(&[("id", Cell::Int(2))]);
        assert!(reader.event(&no_time).is_none());
        let bad_email = row(&[
            ("id", Cell::Int(3)),
            ("paid_at", at.clone()),
            ("email", Cell::Text("nope".into())),
        ]);
        assert!(reader.event(&bad_email).is_none());
        let bad_amount = row(&[
            ("id", Cell::Int(4)),
            ("paid_at", at),
            ("total", Cell::Text("lots".into())),
        ]);
        assert!(reader.event(&bad_amount).is_none());
        assert_eq!(reader.counts.rows, 4);
        assert_eq!(reader.counts.other_currency, 1);
        assert_eq!(reader.counts.invalid, 3);
        assert_eq!(
            reader.counts.describe(&reader.label()),
            "shop.orders: 4 rows, 0 events, 1 in another currency, 3 skipped (first: row 2: paid_at is empty)"
        );
    }

    #[test]
    fn amounts_convert_exactly_by_unit() {
        use MoneyUnit::{Cents, Major};
        assert_eq!(Cell::Int(1999).hundredths(Cents), Some(1999));
        assert_eq!(Cell::Int(19).hundredths(Major), Some(1900));
        assert_eq!(Cell::Decimal("19.99".into()).hundredths(Major), Some(1999));
        assert_eq!(Cell::Decimal("-5.5".into()).hundredths(Major), Some(-550));
        assert_eq!(Cell::Decimal("0.005".into()).hundredths(Major), Some(1));
        assert_eq!(
            Cell::Decimal("1999.00".into()).hundredths(Cents),
            Some(1999)
        );
        assert_eq!(Cell::Decimal("19.99".into()).hundredths(Cents), None);
        assert_eq!(Cell::Float(12.34).hundredths(Major), Some(1234));
        assert_eq!(Cell::Float(12.5).hundredths(Cents), None);
        assert_eq!(Cell::Text(".".into()).hundredths(Major), None);
        assert_eq!(Cell::Bool(true).hundredths(Major), None);
    }

    #[test]
    fn long_keys_are_hashed_to_fit_the_dedupe_id() {
        let map = orders_map();
        let long = "k".repeat(200);
        let id = dedupe_id(&map, &long);
        assert!(id.starts_with("sha256:") && id.len() == 7 + 64);
        assert_eq!(id, dedupe_id(&map, &long));
    }
}
