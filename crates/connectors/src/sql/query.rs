//! The statements one map reads with: a count of the window's rows, then pages in keyset order
//! on (timestamp, dedupe key). Identifiers come from the catalog and are quoted; the window
//! bounds, the cursor and every filter value are bound parameters cast to the column's type.

use payback_domain::event_map::{Condition, EventMap, FilterOp};

use super::Dialect;
use super::dialect::{ColumnInfo, ColumnType, micros};
use super::introspect::TableInfo;
use super::statement::{Builder, Slot, Statement};
use crate::ConnectorError;
use crate::SyncWindow;

/// A map resolved against the catalog: real names and types for everything it reads.
#[derive(Debug, Clone)]
pub(crate) struct MapPlan {
    dialect: Dialect,
    /// Quoted, schema-qualified.
    table_sql: String,
    /// For messages: `schema.table`.
    pub table_label: String,
    pub timestamp: ColumnInfo,
    pub key: ColumnInfo,
    /// The map's own column names with the catalog's column, in `EventMap::columns` order.
    pub columns: Vec<(String, ColumnInfo)>,
    filter: Vec<(Condition, ColumnInfo)>,
}

/// Where the previous page ended: its last row's timestamp (epoch microseconds) and dedupe key
/// (the server's text for it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Cursor {
    pub micros: i64,
    pub key: String,
}

impl MapPlan {
    /// Resolves every name the map uses; a missing column is refused naming it and the table.
    pub(crate) fn new(
        dialect: Dialect,
        map: &EventMap,
        table: &TableInfo,
    ) -> Result<Self, ConnectorError> {
        let table_label = format!("{}.{}", table.table.schema, table.table.name);
        let resolve = |name: &str| -> Result<ColumnInfo, ConnectorError> {
            table.column(name).cloned().ok_or_else(|| {
                ConnectorError::Config(format!(
                    "column `{name}` does not exist in table `{table_label}`"
                ))
            })
        };
        let timestamp = resolve(&map.timestamp)?;
        if timestamp.column_type != ColumnType::Time {
            return Err(ConnectorError::Config(format!(
                "column `{}` of `{table_label}` is `{}`, not a timestamp or date; reads are incremental on it",
                timestamp.name, timestamp.data_type
            )));
        }
        let key = resolve(&map.dedupe_key)?;
        let columns = map
            .columns()
            .into_iter()
            .map(|name| Ok((name.to_owned(), resolve(name)?)))
            .collect::<Result<Vec<_>, ConnectorError>>()?;
        let filter = map
            .filter
            .iter()
            .map(|condition| Ok((condition.clone(), resolve(&condition.column)?)))
            .collect::<Result<Vec<_>, ConnectorError>>()?;
        let table_sql = format!(
            "{}.{}",
            dialect.quote(&table.table.schema),
            dialect.quote(&table.table.name)
        );
        Ok(Self {
            dialect,
            table_sql,
            table_label,
            timestamp,
            key,
            columns,
            filter,
        })
    }

    /// `SELECT COUNT(*), COUNT(key)`: the window's rows, and how many of them have a key.
    pub(crate) fn count(&self, window: SyncWindow) -> Result<Statement, ConnectorError> {
        let mut builder = Builder::new(self.dialect);
        let key = self.dialect.quote(&self.key.name);
        builder.push(&format!(
            "SELECT COUNT(*), COUNT({key}) FROM {}",
            self.table_sql
        ));
        self.push_conditions(&mut builder, window, None)?;
        Ok(builder.finish(vec![Slot::Int, Slot::Int]))
    }

    /// The next page: the map's columns, then the key as text for the cursor; rows without a
    /// key are left out (they cannot be paged past, and `count` already counted them).
    pub(crate) fn page(
        &self,
        window: SyncWindow,
        after: Option<&Cursor>,
        rows: usize,
    ) -> Result<Statement, ConnectorError> {
        let dialect = self.dialect;
        let mut builder = Builder::new(dialect);
        let mut slots = Vec::with_capacity(self.columns.len() + 1);
        let mut select = Vec::with_capacity(self.columns.len() + 1);
        for (_, column) in &self.columns {
            select.push(dialect.read_expression(&column.name, column.column_type));
            slots.push(match column.column_type {
                ColumnType::Time => Slot::Int,
                _ => Slot::Text,
            });
        }
        select.push(dialect.read_expression(&self.key.name, ColumnType::Text));
        slots.push(Slot::Text);
        builder.push(&format!(
            "SELECT {} FROM {}",
            select.join(", "),
            self.table_sql
        ));
        self.push_conditions(&mut builder, window, after)?;
        let timestamp = dialect.quote(&self.timestamp.name);
        let key = dialect.quote(&self.key.name);
        builder.push(&format!(
            " AND {key} IS NOT NULL ORDER BY {timestamp}, {key} LIMIT {rows}"
        ));
        Ok(builder.finish(slots))
    }

    /// `WHERE` the window, the cursor and the map's filter.
    fn push_conditions(
        &self,
        builder: &mut Builder,
        window: SyncWindow,
        after: Option<&Cursor>,
    ) -> Result<(), ConnectorError> {
        let dialect = self.dialect;
        let timestamp = dialect.quote(&self.timestamp.name);
        let from = self.time_value(builder, micros(window.from))?;
        let to = self.time_value(builder, micros(window.to))?;
        builder.push(&format!(
            " WHERE {timestamp} >= {from} AND {timestamp} < {to}"
        ));
        if let Some(cursor) = after {
            let key = dialect.quote(&self.key.name);
            let later = self.time_value(builder, cursor.micros)?;
            let same = self.time_value(builder, cursor.micros)?;
            let placeholder = builder.bind(cursor.key.clone());
            let past_key = dialect.cast_parameter(&placeholder, &self.key);
            builder.push(&format!(
                " AND ({timestamp} > {later} OR ({timestamp} = {same} AND {key} > {past_key}))"
            ));
        }
        for (condition, column) in &self.filter {
            let clause = self.condition(builder, condition, column)?;
            builder.push(&format!(" AND {clause}"));
        }
        Ok(())
    }

    fn time_value(&self, builder: &mut Builder, micros: i64) -> Result<String, ConnectorError> {
        let text = self
            .dialect
            .time_parameter(micros)
            .ok_or_else(|| ConnectorError::Config(format!("instant {micros}µs is out of range")))?;
        let placeholder = builder.bind(text);
        Ok(self.dialect.cast_parameter(&placeholder, &self.timestamp))
    }

    /// One filter condition. `ne` and `not_in` also keep rows where the column is NULL (a row
    /// without a status is not `refunded`), as a document database's `$ne`/`$nin` do.
    fn condition(
        &self,
        builder: &mut Builder,
        condition: &Condition,
        column: &ColumnInfo,
    ) -> Result<String, ConnectorError> {
        let dialect = self.dialect;
        let quoted = dialect.quote(&column.name);
        let mut bind_value = |value: &serde_json::Value| {
            let placeholder = builder.bind(dialect.value_text(value, column));
            dialect.cast_parameter(&placeholder, column)
        };
        let missing = || {
            ConnectorError::Config(format!(
                "the filter on `{}` of `{}` needs a value",
                column.name, self.table_label
            ))
        };
        let scalar = |op: &str, value: &mut dyn FnMut(&serde_json::Value) -> String| {
            condition
                .value
                .as_ref()
                .map(|v| format!("{quoted} {op} {}", value(v)))
                .ok_or_else(missing)
        };
        Ok(match condition.op {
            FilterOp::Eq => scalar("=", &mut bind_value)?,
            FilterOp::Ne => format!("({} OR {quoted} IS NULL)", scalar("<>", &mut bind_value)?),
            FilterOp::Gt => scalar(">", &mut bind_value)?,
            FilterOp::Gte => scalar(">=", &mut bind_value)?,
            FilterOp::Lt => scalar("<", &mut bind_value)?,
            FilterOp::Lte => scalar("<=", &mut bind_value)?,
            FilterOp::In | FilterOp::NotIn => {
                let values = match &condition.value {
                    Some(serde_json::Value::Array(values)) if !values.is_empty() => values,
                    _ => return Err(missing()),
                };
                let list: Vec<String> = values.iter().map(&mut bind_value).collect();
                if condition.op == FilterOp::In {
                    format!("{quoted} IN ({})", list.join(", "))
                } else {
                    format!(
                        "({quoted} NOT IN ({}) OR {quoted} IS NULL)",
                        list.join(", ")
                    )
                }
            }
            FilterOp::IsNull => format!("{quoted} IS NULL"),
            FilterOp::NotNull => format!("{quoted} IS NOT NULL"),
        })
    }
}

#[cfg(test)]
mod tests {
    use payback_domain::Timestamp;
    use payback_domain::event_map::{FieldSyntax, check_maps};
    use serde_json::json;

    use super::*;
    use crate::sql::introspect::TableRef;

    fn column(name: &str, column_type: ColumnType, cast_type: &str) -> ColumnInfo {
        ColumnInfo {
            name: name.to_owned(),
            data_type: cast_type.to_owned(),
            cast_type: cast_type.to_owned(),
            column_type,
        }
    }

    fn orders() -> TableInfo {
        TableInfo {
            table: TableRef {
                schema: "shop".to_owned(),
                name: "orders".to_owned(),
                is_default: false,
                row_estimate: None,
            },
            columns: vec![
                column("id", ColumnType::Integer { unsigned: false }, "bigint"),
                column("paid_at", ColumnType::Time, "timestamp with time zone"),
                column("Status", ColumnType::Text, "text"),
                column("total", ColumnType::Decimal, "numeric"),
            ],
        }
    }

    fn map(value: serde_json::Value) -> EventMap {
        let maps = serde_json::from_value(json!([value])).expect("parses");
        check_maps(maps, FieldSyntax::Column)
            .expect("valid")
            .remove(0)
    }

    const WINDOW: SyncWindow = SyncWindow {
        from: Timestamp::from_millis(1_767_225_600_000),
        to: Timestamp::from_millis(1_767_312_000_000),
    };

    #[test]
    fn a_page_binds_the_window_cursor_and_filters_as_parameters() {
        let map = map(
            json!({"table": "orders", "schema": "shop", "stage": "payment",
            "timestamp": "paid_at", "dedupe_key": "id",
            "revenue": {"column": "total", "unit": "major"},
            "filter": [{"column": "status", "op": "not_in", "value": ["void", "x'); DROP"]}]}),
        );
        let plan = MapPlan::new(Dialect::Postgres, &map, &orders()).expect("resolves");
        let cursor = Cursor {
            micros: 1_767_225_600_000_001,
            key: "42".to_owned(),
        };
        let page = plan.page(WINDOW, Some(&cursor), 7).expect("statement");
        assert_eq!(
            page.sql,
            "SELECT (CAST(EXTRACT(EPOCH FROM date_trunc('second', CAST(\"paid_at\" AS timestamptz))) AS bigint) * 1000000 \
             + CAST(EXTRACT(MICROSECONDS FROM CAST(\"paid_at\" AS timestamptz)) AS bigint) % 1000000), \
             CAST(\"id\" AS text), CAST(\"total\" AS text), CAST(\"id\" AS text) \
             FROM \"shop\".\"orders\" \
             WHERE \"paid_at\" >= CAST($1 AS timestamptz) AND \"paid_at\" < CAST($2 AS timestamptz) \
             AND (\"paid_at\" > CAST($3 AS timestamptz) OR (\"paid_at\" = CAST($4 AS timestamptz) AND \"id\" > CAST($5 AS bigint))) \
             AND (\"Status\" NOT IN (CAST($6 AS text), CAST($7 AS text)) OR \"Status\" IS NULL) \
             AND \"id\" IS NOT NULL ORDER BY \"paid_at\", \"id\" LIMIT 7"
        );
        assert_eq!(
            page.params,
            vec![
                "2026-01-01 00:00:00.000000+00",
                "2026-01-02 00:00:00.000000+00",
                "2026-01-01 00:00:00.000001+00",
                "2026-01-01 00:00:00.000001+00",
                "42",
                "void",
                "x'); DROP",
            ]
        );
        assert_eq!(
            page.slots,
            vec![Slot::Int, Slot::Text, Slot::Text, Slot::Text]
        );
    }

    #[test]
    fn mysql_counts_with_question_marks_and_typed_casts() {
        let map = map(
            json!({"table": "orders", "stage": "payment", "timestamp": "paid_at",
            "dedupe_key": "id", "filter": [{"column": "id", "op": "gte", "value": 10},
                                           {"column": "total", "op": "is_null"}]}),
        );
        let plan = MapPlan::new(Dialect::MySql, &map, &orders()).expect("resolves");
        let count = plan.count(WINDOW).expect("statement");
        assert_eq!(
            count.sql,
            "SELECT COUNT(*), COUNT(`id`) FROM `shop`.`orders` \
             WHERE `paid_at` >= CAST(? AS DATETIME(6)) AND `paid_at` < CAST(? AS DATETIME(6)) \
             AND `id` >= CAST(? AS SIGNED) AND `total` IS NULL"
        );
        assert_eq!(count.params[2], "10");
    }

    #[test]
    fn missing_and_mistyped_columns_are_named() {
        let missing = map(
            json!({"table": "orders", "stage": "signup", "timestamp": "paid_at",
            "dedupe_key": "id", "email": "email"}),
        );
        let err = MapPlan::new(Dialect::Postgres, &missing, &orders()).expect_err("missing");
        assert_eq!(
            err.to_string(),
            "column `email` does not exist in table `shop.orders`"
        );
        let text_time = map(
            json!({"table": "orders", "stage": "signup", "timestamp": "status",
            "dedupe_key": "id"}),
        );
        let err = MapPlan::new(Dialect::Postgres, &text_time, &orders()).expect_err("not a time");
        assert!(err.to_string().contains("not a timestamp"), "{err}");
    }
}
