//! What the database holds, read from its catalog: the readable tables and views of user
//! schemas, their columns and real types. `describe` summarizes them for `suggest-mappings`;
//! the reader resolves a map's table and columns here before it reads a row.

use super::Dialect;
use super::dialect::{ColumnInfo, ColumnType};
use super::session::Session;
use super::statement::{Builder, Raw, Slot};
use crate::ConnectorError;
use crate::database::schema::{ColumnSummary, DEFAULT_TABLES, SchemaSummary, TableSummary};

/// A table or view as the catalog names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TableRef {
    pub schema: String,
    pub name: String,
    /// In the connection's current schema (PostgreSQL) or database (MySQL).
    pub is_default: bool,
    pub row_estimate: Option<i64>,
}

/// A table with its columns in ordinal order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TableInfo {
    pub table: TableRef,
    pub columns: Vec<ColumnInfo>,
}

impl TableInfo {
    /// The column named exactly so, or else the one column named so ignoring case.
    pub(crate) fn column(&self, name: &str) -> Option<&ColumnInfo> {
        self.columns
            .iter()
            .find(|column| column.name == name)
            .or_else(|| {
                unique(
                    self.columns
                        .iter()
                        .filter(|c| c.name.eq_ignore_ascii_case(name)),
                )
            })
    }
}

fn unique<T>(mut items: impl Iterator<Item = T>) -> Option<T> {
    let first = items.next()?;
    items.next().is_none().then_some(first)
}

/// The readable tables and views of user schemas: the default schema's first, then by schema
/// and name. `only` narrows to one name (schema `None`: the default schema), ignoring case.
pub(crate) async fn list_tables(
    session: &mut Session,
    only: Option<(Option<&str>, &str)>,
) -> Result<Vec<TableRef>, ConnectorError> {
    let mut builder = Builder::new(session.dialect);
    match session.dialect {
        Dialect::Postgres => {
            builder.push(
                "SELECT CAST(n.nspname AS text), CAST(c.relname AS text), \
                 CAST(CASE WHEN n.nspname = current_schema() THEN 1 ELSE 0 END AS bigint), \
                 CASE WHEN c.relkind IN ('r', 'p', 'm') AND c.reltuples >= 0 \
                      THEN CAST(c.reltuples AS bigint) END \
                 FROM pg_catalog.pg_class c \
                 JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace \
                 WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND NOT c.relispartition \
                 AND n.nspname NOT IN ('pg_catalog', 'information_schema') \
                 AND n.nspname NOT LIKE 'pg\\_%' \
                 AND has_table_privilege(c.oid, 'SELECT')",
            );
            if let Some((schema, name)) = only {
                let schema = builder.bind(schema.unwrap_or_default().to_owned());
                let name = builder.bind(name.to_owned());
                builder.push(&format!(
                    " AND lower(n.nspname) = lower(COALESCE(NULLIF({schema}, ''), current_schema())) \
                     AND lower(c.relname) = lower({name})"
                ));
            }
            builder.push(" ORDER BY n.nspname = current_schema() DESC, n.nspname, c.relname");
        }
        Dialect::MySql => {
            builder.push(
                "SELECT CAST(TABLE_SCHEMA AS CHAR), CAST(TABLE_NAME AS CHAR), \
                 CAST(COALESCE(TABLE_SCHEMA = DATABASE(), 0) AS SIGNED), \
                 CAST(TABLE_ROWS AS SIGNED) \
                 FROM information_schema.TABLES \
                 WHERE TABLE_SCHEMA NOT IN ('mysql', 'information_schema', 'performance_schema', 'sys') \
                 AND TABLE_TYPE IN ('BASE TABLE', 'VIEW', 'SYSTEM VERSIONED')",
            );
            if let Some((schema, name)) = only {
                let schema = builder.bind(schema.unwrap_or_default().to_owned());
                let name = builder.bind(name.to_owned());
                builder.push(&format!(
                    " AND LOWER(CAST(TABLE_SCHEMA AS CHAR)) = LOWER(COALESCE(NULLIF({schema}, ''), DATABASE())) \
                     AND LOWER(CAST(TABLE_NAME AS CHAR)) = LOWER({name})"
                ));
            }
            builder.push(
                " ORDER BY COALESCE(TABLE_SCHEMA = DATABASE(), 0) DESC, TABLE_SCHEMA, TABLE_NAME",
            );
        }
    }
    let statement = builder.finish(vec![Slot::Text, Slot::Text, Slot::Int, Slot::Int]);
    let rows = session.fetch(&statement, "listing tables").await?;
    Ok(rows
        .into_iter()
        .map(|row| TableRef {
            schema: text_at(&row, 0),
            name: text_at(&row, 1),
            is_default: row.get(2).and_then(Raw::int) == Some(1),
            row_estimate: row.get(3).and_then(Raw::int),
        })
        .collect())
}

/// The columns of the given tables, in ordinal order.
pub(crate) async fn with_columns(
    session: &mut Session,
    tables: Vec<TableRef>,
) -> Result<Vec<TableInfo>, ConnectorError> {
    if tables.is_empty() {
        return Ok(Vec::new());
    }
    let mut builder = Builder::new(session.dialect);
    let (select, schema_column, table_column, order) = match session.dialect {
        Dialect::Postgres => (
            "SELECT CAST(n.nspname AS text), CAST(c.relname AS text), CAST(a.attname AS text), \
             format_type(a.atttypid, a.atttypmod), format_type(a.atttypid, NULL), \
             CAST(b.typname AS text), CAST(b.typtype AS text) \
             FROM pg_catalog.pg_attribute a \
             JOIN pg_catalog.pg_class c ON c.oid = a.attrelid \
             JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace \
             JOIN pg_catalog.pg_type t ON t.oid = a.atttypid \
             JOIN pg_catalog.pg_type b \
               ON b.oid = CASE WHEN t.typtype = 'd' THEN t.typbasetype ELSE t.oid END \
             WHERE a.attnum > 0 AND NOT a.attisdropped AND (",
            "n.nspname",
            "c.relname",
            ") ORDER BY n.nspname, c.relname, a.attnum",
        ),
        Dialect::MySql => (
            "SELECT CAST(TABLE_SCHEMA AS CHAR), CAST(TABLE_NAME AS CHAR), \
             CAST(COLUMN_NAME AS CHAR), CAST(COLUMN_TYPE AS CHAR), CAST(DATA_TYPE AS CHAR), \
             CAST(DATA_TYPE AS CHAR), '' \
             FROM information_schema.COLUMNS WHERE (",
            "TABLE_SCHEMA",
            "TABLE_NAME",
            ") ORDER BY TABLE_SCHEMA, TABLE_NAME, ORDINAL_POSITION",
        ),
    };
    builder.push(select);
    for (index, table) in tables.iter().enumerate() {
        let schema = builder.bind(table.schema.clone());
        let name = builder.bind(table.name.clone());
        if index > 0 {
            builder.push(" OR ");
        }
        builder.push(&format!(
            "({schema_column} = {schema} AND {table_column} = {name})"
        ));
    }
    builder.push(order);
    let statement = builder.finish(vec![Slot::Text; 7]);
    let rows = session.fetch(&statement, "reading columns").await?;
    let dialect = session.dialect;
    let mut infos: Vec<TableInfo> = tables
        .into_iter()
        .map(|table| TableInfo {
            table,
            columns: Vec::new(),
        })
        .collect();
    for row in rows {
        let (schema, table) = (text_at(&row, 0), text_at(&row, 1));
        let Some(info) = infos
            .iter_mut()
            .find(|info| info.table.schema == schema && info.table.name == table)
        else {
            continue;
        };
        let column_type = match dialect {
            Dialect::Postgres => ColumnType::postgres(&text_at(&row, 5), &text_at(&row, 6)),
            Dialect::MySql => ColumnType::mysql(&text_at(&row, 4), &text_at(&row, 3)),
        };
        info.columns.push(ColumnInfo {
            name: text_at(&row, 2),
            data_type: text_at(&row, 3),
            cast_type: text_at(&row, 4),
            column_type,
        });
    }
    Ok(infos)
}

/// The table a map names: `schema` `None` is the default schema; an exact name wins over one
/// that matches only ignoring case. `user` is how messages name the user (``user `app` ``).
pub(crate) async fn find_table(
    session: &mut Session,
    schema: Option<&str>,
    name: &str,
    user: &str,
) -> Result<TableInfo, ConnectorError> {
    let candidates = list_tables(session, Some((schema, name))).await?;
    let wanted = match schema {
        Some(schema) => format!("{schema}.{name}"),
        None => name.to_owned(),
    };
    let exact = candidates
        .iter()
        .position(|t| t.name == name && schema.is_none_or(|s| s == t.schema));
    let table = match (exact, candidates.len()) {
        (Some(index), _) => candidates[index].clone(),
        (None, 1) => candidates[0].clone(),
        (None, 0) => {
            return Err(ConnectorError::Config(format!(
                "table `{wanted}` does not exist or {user} may not read it"
            )));
        }
        (None, _) => {
            return Err(ConnectorError::Config(format!(
                "table `{wanted}` matches several tables that differ only in case; name it exactly"
            )));
        }
    };
    let info = with_columns(session, vec![table]).await?.pop();
    // MariaDB hides the columns of a view whose functions write from a read-only session.
    info.filter(|info| !info.columns.is_empty()).ok_or_else(|| {
        ConnectorError::Config(format!(
            "`{wanted}` shows no columns to the connector's read-only session \
             (a view calling a function that writes, or columns {user} may not read)"
        ))
    })
}

/// The summary `suggest-mappings` shows: the first [`DEFAULT_TABLES`] tables, or the named
/// ones (`table` or `schema.table`; unknown names are refused together).
pub(crate) async fn describe(
    session: &mut Session,
    names: Option<&[String]>,
) -> Result<SchemaSummary, ConnectorError> {
    let all = list_tables(session, None).await?;
    let chosen: Vec<TableRef> = match names {
        None => all.iter().take(DEFAULT_TABLES).cloned().collect(),
        Some(names) => pick(&all, names)?,
    };
    let more_tables = all.len().saturating_sub(chosen.len());
    let infos = with_columns(session, chosen).await?;
    Ok(SchemaSummary {
        tables: infos.into_iter().map(summary).collect(),
        more_tables,
    })
}

/// The named tables in the order named, each once.
fn pick(all: &[TableRef], names: &[String]) -> Result<Vec<TableRef>, ConnectorError> {
    let mut chosen: Vec<TableRef> = Vec::new();
    let mut unknown = Vec::new();
    for raw in names {
        let name = raw.trim();
        let (schema, table) = match name.split_once('.') {
            Some((schema, table)) => (Some(schema), table),
            None => (None, name),
        };
        let matches = |exact: bool| {
            let same = |a: &str, b: &str| {
                if exact {
                    a == b
                } else {
                    a.eq_ignore_ascii_case(b)
                }
            };
            all.iter()
                .filter(|t| same(&t.name, table))
                .filter(|t| match schema {
                    Some(schema) => same(&t.schema, schema),
                    None => true,
                })
                .collect::<Vec<_>>()
        };
        // A bare name prefers the default schema, then a table of that name anywhere.
        let found = [true, false].into_iter().find_map(|exact| {
            let found = matches(exact);
            found
                .iter()
                .find(|t| schema.is_some() || t.is_default)
                .copied()
                .or_else(|| unique(found.into_iter()))
        });
        match found {
            Some(table) if !chosen.contains(table) => chosen.push(table.clone()),
            Some(_) => {}
            None => unknown.push(format!("`{name}`")),
        }
    }
    if !unknown.is_empty() {
        return Err(ConnectorError::Config(format!(
            "unknown tables: {} (name them as `table` or `schema.table`)",
            unknown.join(", ")
        )));
    }
    Ok(chosen)
}

fn summary(info: TableInfo) -> TableSummary {
    TableSummary {
        schema: (!info.table.is_default).then_some(info.table.schema),
        name: info.table.name,
        columns: info
            .columns
            .into_iter()
            .map(|column| ColumnSummary {
                kind: column.column_type.kind(),
                name: column.name,
                data_type: column.data_type,
            })
            .collect(),
        row_estimate: info.table.row_estimate,
    }
}

fn text_at(row: &[Raw], index: usize) -> String {
    row.get(index)
        .and_then(Raw::text)
        .unwrap_or_default()
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(schema: &str, name: &str, is_default: bool) -> TableRef {
        TableRef {
            schema: schema.to_owned(),
            name: name.to_owned(),
            is_default,
            row_estimate: None,
        }
    }

    #[test]
    fn named_tables_resolve_by_schema_default_first_and_case() {
        let all = vec![
            table("public", "orders", true),
            table("public", "users", true),
            table("auth", "users", false),
            table("billing", "Invoices", false),
        ];
        let names = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let chosen = pick(
            &all,
            &names(&["users", "auth.users", "invoices", "ORDERS", "users"]),
        )
        .expect("all known");
        let labels: Vec<String> = chosen
            .iter()
            .map(|t| format!("{}.{}", t.schema, t.name))
            .collect();
        assert_eq!(
            labels,
            vec![
                "public.users",
                "auth.users",
                "billing.Invoices",
                "public.orders"
            ]
        );
        let err = pick(&all, &names(&["users", "nope", "auth.orders"])).expect_err("unknown");
        assert_eq!(
            err.to_string(),
            "unknown tables: `nope`, `auth.orders` (name them as `table` or `schema.table`)"
        );
    }
}
