//! Reading one map: count the window's rows (refusing a window too large), then read it a page
//! at a time in (timestamp, key) order, each page turned into events and handed to the sink
//! before the next is read.

use std::collections::HashMap;

use payback_domain::Timestamp;
use payback_domain::event_map::EventMap;

use super::dialect::ColumnType;
use super::introspect::find_table;
use super::query::{Cursor, MapPlan};
use super::session::Session;
use super::statement::Raw;
use crate::database::record::{Cell, MapReader, Row};
use crate::database::{EventSink, ReadLimits};
use crate::{ConnectorError, SyncWindow};

/// One row's cells by the map's column names.
struct SqlRow(HashMap<String, Cell>);

impl Row for SqlRow {
    fn cell(&self, column: &str) -> Cell {
        self.0.get(column).cloned().unwrap_or(Cell::Null)
    }
}

/// Reads one map into the sink and answers its status line (`MapCounts::describe`).
pub(crate) async fn read_map(
    session: &mut Session,
    map: &EventMap,
    window: SyncWindow,
    product_currency: &str,
    limits: ReadLimits,
    user: &str,
    sink: &mut impl EventSink,
) -> Result<String, ConnectorError> {
    let table = find_table(session, map.schema.as_deref(), &map.table, user).await?;
    let plan = MapPlan::new(session.dialect, map, &table)?;
    let what = format!("reading {}", plan.table_label);

    let count = session.fetch(&plan.count(window)?, &what).await?;
    let row = count.first();
    let total = row.and_then(|r| r.first()).and_then(Raw::int).unwrap_or(0);
    let with_key = row.and_then(|r| r.get(1)).and_then(Raw::int).unwrap_or(0);
    let total = usize::try_from(total).unwrap_or(0);
    if total > limits.max_rows_per_map {
        return Err(too_many(&plan, total, limits));
    }

    let mut reader = MapReader::new(map, product_currency, window.to);
    let keyless = total.saturating_sub(usize::try_from(with_key).unwrap_or(0));
    if keyless > 0 {
        // Counted as the reader counts a row whose key is empty; they cannot be paged past.
        reader.counts.rows += keyless;
        reader.counts.invalid += keyless;
        reader
            .counts
            .first_invalid
            .get_or_insert_with(|| format!("row ?: {} is empty", map.dedupe_key));
    }

    let page_rows = limits.page_rows.max(1);
    let timestamp_slot = plan
        .columns
        .iter()
        .position(|(name, _)| *name == map.timestamp)
        .unwrap_or(0);
    let mut cursor: Option<Cursor> = None;
    let mut read = 0usize;
    loop {
        let page = plan.page(window, cursor.as_ref(), page_rows)?;
        let rows = session.fetch(&page, &what).await?;
        let fetched = rows.len();
        read += fetched;
        if read > limits.max_rows_per_map {
            return Err(too_many(&plan, read, limits));
        }
        let mut events = Vec::with_capacity(fetched);
        for raw in &rows {
            let row = SqlRow(
                plan.columns
                    .iter()
                    .zip(raw)
                    .map(|((name, column), value)| (name.clone(), cell(value, column.column_type)))
                    .collect(),
            );
            events.extend(reader.event(&row));
        }
        if let Some(last) = rows.last() {
            let micros = last.get(timestamp_slot).and_then(Raw::int);
            let key = last.last().and_then(Raw::text);
            let (Some(micros), Some(key)) = (micros, key) else {
                return Err(ConnectorError::Vendor(format!(
                    "{} answered a row without its timestamp or key",
                    plan.table_label
                )));
            };
            cursor = Some(Cursor {
                micros,
                key: key.to_owned(),
            });
        }
        if !events.is_empty() {
            sink.write(events).await?;
        }
        if fetched < page_rows {
            break;
        }
    }
    Ok(reader.counts.describe(&reader.label()))
}

fn too_many(plan: &MapPlan, rows: usize, limits: ReadLimits) -> ConnectorError {
    ConnectorError::Config(format!(
        "table `{}` has {rows} rows in this window, more than the {} one map may read per run; \
         add a filter to the map (for example on a status or type column) so it reads only the rows that are events",
        plan.table_label, limits.max_rows_per_map
    ))
}

/// A value as the connector types it, by the column's real type.
fn cell(raw: &Raw, column_type: ColumnType) -> Cell {
    match (raw, column_type) {
        (Raw::Null, _) => Cell::Null,
        (Raw::Int(micros), _) => Cell::Time(Timestamp::from_millis(micros.div_euclid(1_000))),
        (Raw::Text(text), ColumnType::Integer { .. }) => match text.parse::<i64>() {
            Ok(value) => Cell::Int(value),
            // An unsigned BIGINT past i64: still exact as decimal text.
            Err(_) => Cell::Decimal(text.clone()),
        },
        (Raw::Text(text), ColumnType::Decimal) => Cell::Decimal(text.clone()),
        (Raw::Text(text), ColumnType::Float) => match text.parse::<f64>() {
            Ok(value) => Cell::Float(value),
            Err(_) => Cell::Text(text.clone()),
        },
        (Raw::Text(text), ColumnType::Boolean) => match text.as_str() {
            "true" | "t" => Cell::Bool(true),
            "false" | "f" | "0" => Cell::Bool(false),
            // MySQL's TINYINT(1) may hold any small number; non-zero is true.
            other if other.parse::<i64>().is_ok() => Cell::Bool(true),
            other => Cell::Text(other.to_owned()),
        },
        (Raw::Text(text), _) => Cell::Text(text.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_follow_the_real_column_type() {
        let text = |s: &str| Raw::Text(s.to_owned());
        let int = ColumnType::Integer { unsigned: true };
        assert_eq!(cell(&text("42"), int), Cell::Int(42));
        assert_eq!(
            cell(&text("18446744073709551615"), int),
            Cell::Decimal("18446744073709551615".to_owned())
        );
        assert_eq!(
            cell(&text("19.90"), ColumnType::Decimal),
            Cell::Decimal("19.90".to_owned())
        );
        assert_eq!(cell(&text("2.5"), ColumnType::Float), Cell::Float(2.5));
        assert_eq!(cell(&text("t"), ColumnType::Boolean), Cell::Bool(true));
        assert_eq!(cell(&text("0"), ColumnType::Boolean), Cell::Bool(false));
        assert_eq!(cell(&text("1"), ColumnType::Boolean), Cell::Bool(true));
        assert_eq!(
            cell(&Raw::Int(-1), ColumnType::Time),
            Cell::Time(Timestamp::from_millis(-1))
        );
        assert_eq!(
            cell(&Raw::Int(1_500_999), ColumnType::Time),
            Cell::Time(Timestamp::from_millis(1_500))
        );
        assert_eq!(cell(&Raw::Null, ColumnType::Text), Cell::Null);
    }
}
