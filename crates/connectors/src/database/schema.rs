//! What a customer's database holds, as `suggest-mappings` shows it (`schema_summary`) and as
//! presets and the model read it: tables (or collections) with their columns (or field paths)
//! and a coarse type.

use serde::Serialize;

/// How many tables a summary covers when no subset is named.
pub const DEFAULT_TABLES: usize = 30;

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct SchemaSummary {
    pub tables: Vec<TableSummary>,
    /// Tables beyond the first [`DEFAULT_TABLES`] (or the named subset) that were left out.
    pub more_tables: usize,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TableSummary {
    /// The schema (PostgreSQL) or database (MySQL); `None` for the default one and for
    /// document collections.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    pub name: String,
    pub columns: Vec<ColumnSummary>,
    /// The database's own estimate, when it keeps one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub row_estimate: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ColumnSummary {
    /// The column, or a dot-notation path in a document.
    pub name: String,
    /// The source's own type name (`timestamp with time zone`, `decimal(10,2)`, `date`).
    pub data_type: String,
    pub kind: ColumnKind,
}

/// The coarse type presets and the model reason about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ColumnKind {
    Timestamp,
    Integer,
    Decimal,
    Text,
    Boolean,
    Other,
}

impl TableSummary {
    pub fn column(&self, name: &str) -> Option<&ColumnSummary> {
        self.columns
            .iter()
            .find(|column| column.name.eq_ignore_ascii_case(name))
    }
}
