//! The documented shapes Payback reads back: a `Spreadsheet` (its id and URL) and an
//! `UpdateValuesResponse` (a Drive `Permission` and a `ClearValuesResponse` are read as any JSON).

use serde::Deserialize;

/// What `spreadsheets.create` answered that the sync keeps.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Created {
    pub spreadsheet_id: String,
    pub spreadsheet_url: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Updated {
    pub updated_cells: Option<i64>,
}
