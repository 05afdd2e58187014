//! The scorecard as a table, for the CSV and XLSX exports and the Sheets sync: a header
//! `section, metric, label, unit, <week keys>`, then a row per scorecard row with the matrix's
//! values (empty for null). Numbers stay numbers; text is text (never a formula).

use rust_xlsxwriter::Workbook;

use crate::error::{ApiError, ApiResult};
use crate::services::exports::neutralize;
use crate::services::scorecard::matrix::Matrix;
use crate::services::scorecard::values::Figure;

/// One cell of the table.
#[derive(Debug, Clone, PartialEq)]
pub enum TableCell {
    Text(String),
    Number(Figure),
    Empty,
}

/// The name of the sheet (XLSX, Sheets) the table lands on.
pub const SHEET_NAME: &str = "Scorecard";

/// The header and a row per scorecard row.
pub fn table(matrix: &Matrix) -> Vec<Vec<TableCell>> {
    let mut header: Vec<TableCell> = ["section", "metric", "label", "unit"]
        .into_iter()
        .map(|name| TableCell::Text(name.to_owned()))
        .collect();
    header.extend(
        matrix
            .weeks
            .iter()
            .map(|week| TableCell::Text(week.key.clone())),
    );
    let mut rows = vec![header];
    for section in &matrix.sections {
        for row in &section.rows {
            let mut cells = vec![
                TableCell::Text(section.label.clone()),
                TableCell::Text(row.metric.clone()),
                TableCell::Text(row.label.clone()),
                TableCell::Text(row.unit.word().to_owned()),
            ];
            cells.extend(row.values.iter().map(|cell| match cell.value {
                Some(value) => TableCell::Number(value),
                None => TableCell::Empty,
            }));
            rows.push(cells);
        }
    }
    rows
}

fn number_text(value: Figure) -> String {
    match value {
        Figure::Whole(n) => n.to_string(),
        Figure::Real(x) => x.to_string(),
    }
}

/// RFC 4180 CSV of the table; text starting with `=`, `+`, `-` or `@` (or a tab or CR) gets a
/// leading `'`, so no spreadsheet reads it as a formula; numbers are written as numbers.
pub fn csv(matrix: &Matrix) -> ApiResult<Vec<u8>> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    for row in table(matrix) {
        let record: Vec<String> = row
            .into_iter()
            .map(|cell| match cell {
                TableCell::Text(text) => neutralize(&text),
                TableCell::Number(value) => number_text(value),
                TableCell::Empty => String::new(),
            })
            .collect();
        writer.write_record(&record).map_err(ApiError::internal)?;
    }
    writer.into_inner().map_err(ApiError::internal)
}

/// An XLSX workbook whose first (only) sheet, `Scorecard`, holds the table: numeric cells as
/// numbers, text as strings, no formulas.
pub fn xlsx(matrix: &Matrix) -> ApiResult<Vec<u8>> {
    let mut workbook = Workbook::new();
    let sheet = workbook.add_worksheet();
    sheet.set_name(SHEET_NAME).map_err(ApiError::internal)?;
    for (r, row) in table(matrix).into_iter().enumerate() {
        let r = u32::try_from(r).map_err(ApiError::internal)?;
        for (c, cell) in row.into_iter().enumerate() {
            let c = u16::try_from(c).map_err(ApiError::internal)?;
            match cell {
                TableCell::Text(text) => {
                    sheet.write_string(r, c, text).map_err(ApiError::internal)?;
                }
                TableCell::Number(value) => {
                    sheet
                        .write_number(r, c, value.as_f64())
                        .map_err(ApiError::internal)?;
                }
                TableCell::Empty => {}
            }
        }
    }
    workbook.save_to_buffer().map_err(ApiError::internal)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_are_neutralized_numbers_are_not() {
        assert_eq!(neutralize("=SUM(A1)"), "'=SUM(A1)");
        assert_eq!(neutralize("@x"), "'@x");
        assert_eq!(number_text(Figure::Whole(-5)), "-5");
        assert_eq!(number_text(Figure::Real(12.5)), "12.5");
    }
}
