//! CSV and XLSX exports: the matrix's table cell for cell (section label, metric, label, unit,
//! a column per week, empty for null), numbers as numbers, no cell a formula.

use std::collections::BTreeMap;
use std::io::Read;

use payback_domain::Clock;
use payback_domain::connection::ConnectionKind;
use payback_testkit::{TestApp, backend_tests};
use serde_json::{Value, json};

use super::{connect, data, setup};

/// The table the exports must hold, computed from the matrix JSON: text, or a number's JSON.
fn table_of(matrix: &Value) -> Vec<Vec<Value>> {
    let mut header: Vec<Value> = ["section", "metric", "label", "unit"]
        .into_iter()
        .map(Value::from)
        .collect();
    header.extend(
        matrix["weeks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w["key"].clone()),
    );
    let mut rows = vec![header];
    for section in matrix["sections"].as_array().unwrap() {
        for row in section["rows"].as_array().unwrap() {
            let mut cells = vec![
                section["label"].clone(),
                row["metric"].clone(),
                row["label"].clone(),
                row["unit"].clone(),
            ];
            cells.extend(
                row["values"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| c["value"].clone()),
            );
            rows.push(cells);
        }
    }
    rows
}

fn csv_text(cell: &Value) -> String {
    match cell {
        Value::Null => String::new(),
        Value::String(text) if text.starts_with(['=', '+', '-', '@']) => format!("'{text}"),
        Value::String(text) => text.clone(),
        Value::Number(n) if n.is_i64() => n.to_string(),
        Value::Number(n) => n.as_f64().unwrap().to_string(),
        other => panic!("unexpected cell {other}"),
    }
}

async fn loaded(app: &TestApp) -> String {
    let (owner, key, product_id) = setup(app).await;
    connect(app, &owner, &product_id, ConnectionKind::SearchAds).await;
    data::generate(app.clock.now())
        .load(app, &key, &product_id)
        .await;
    app.post(
        "/products/shop/scorecard",
        Some(&key),
        json!({"sections": [
            {"label": "+Growth", "rows": [
                {"metric": "visits", "label": "@visits"},
                {"metric": "visit_to_signup"},
                {"metric": "spend"},
                {"metric": "roas"},
                {"metric": "search_clicks"}
            ]},
            {"label": "Typed", "rows": [
                {"metric": "formula", "label": "=HYPERLINK(\"http://x\")", "manual": true},
                {"metric": "margin", "label": "-margin", "manual": true, "unit": "percent"}
            ]}
        ]}),
    )
    .await
    .expect(200);
    app.post(
        "/products/shop/scorecard/values",
        Some(&key),
        json!({"cells": [
            {"metric": "formula", "week": "2026-W46", "value": -12.25},
            {"metric": "margin", "week": "2026-W45", "value": 40}
        ]}),
    )
    .await
    .expect(200);
    key
}

async fn csv_equals_the_matrix(app: TestApp) {
    let key = loaded(&app).await;
    for query in ["", "?weeks=4", "?weeks=3&current=1"] {
        let matrix = app
            .get(&format!("/products/shop/scorecard{query}"), Some(&key))
            .await
            .expect(200)
            .clone();
        let reply = app
            .get(
                &format!("/products/shop/scorecard/export.csv{query}"),
                Some(&key),
            )
            .await;
        assert_eq!(reply.status, 200);
        assert_eq!(
            reply.header("content-type"),
            Some("text/csv; charset=utf-8")
        );
        assert_eq!(
            reply.header("content-disposition"),
            Some("attachment; filename=\"shop-scorecard.csv\"")
        );
        assert_eq!(reply.header("cache-control"), Some("no-store"));
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(reply.text.as_bytes());
        let got: Vec<Vec<String>> = reader
            .records()
            .map(|r| r.unwrap().iter().map(str::to_owned).collect())
            .collect();
        let want: Vec<Vec<String>> = table_of(&matrix)
            .iter()
            .map(|row| row.iter().map(csv_text).collect())
            .collect();
        assert_eq!(got, want, "{query}");
        assert_eq!(got[1][0], "'+Growth");
        assert_eq!(got[1][2], "'@visits");
        assert!(got.iter().any(|row| row[2] == "'=HYPERLINK(\"http://x\")"));
        assert!(got.iter().any(|row| row[2] == "'-margin"));
        // Negative numbers are numbers, not neutralized text.
        if query.is_empty() {
            let formula = got.iter().find(|row| row[1] == "formula").unwrap();
            assert_eq!(formula.last().unwrap(), "-12.25");
        }
    }
}

backend_tests!(csv_equals_the_matrix);

/// One worksheet cell: a shared string, a number, or an inline string.
#[derive(Debug, Clone, PartialEq)]
enum XlsxCell {
    Text(String),
    Number(f64),
}

fn part(zip: &mut zip::ZipArchive<std::io::Cursor<Vec<u8>>>, name: &str) -> String {
    let mut text = String::new();
    zip.by_name(name)
        .unwrap()
        .read_to_string(&mut text)
        .unwrap();
    text
}

fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

fn column_index(letters: &str) -> usize {
    letters
        .bytes()
        .fold(0, |n, b| n * 26 + usize::from(b - b'A' + 1))
        - 1
}

/// The first worksheet as rows of cells (absent cells `None`), and its name.
fn read_xlsx(bytes: Vec<u8>) -> (String, Vec<Vec<Option<XlsxCell>>>) {
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    let workbook = part(&mut zip, "xl/workbook.xml");
    let name = regex::Regex::new(r#"<sheet name="([^"]+)""#)
        .unwrap()
        .captures(&workbook)
        .unwrap()[1]
        .to_owned();
    let strings_xml = part(&mut zip, "xl/sharedStrings.xml");
    let strings: Vec<String> = regex::Regex::new(r"(?s)<si>.*?<t[^>]*>(.*?)</t>.*?</si>")
        .unwrap()
        .captures_iter(&strings_xml)
        .map(|c| unescape(&c[1]))
        .collect();
    let sheet = part(&mut zip, "xl/worksheets/sheet1.xml");
    assert!(
        !sheet.contains("<f>") && !sheet.contains("<f "),
        "no cell is a formula"
    );
    let cell = regex::Regex::new(r#"<c r="([A-Z]+)(\d+)"([^>]*?)(?:/>|>(.*?)</c>)"#).unwrap();
    let value = regex::Regex::new(r"<v>(.*?)</v>").unwrap();
    let mut grid: BTreeMap<(usize, usize), XlsxCell> = BTreeMap::new();
    for found in cell.captures_iter(&sheet) {
        let col = column_index(&found[1]);
        let row: usize = found[2].parse::<usize>().unwrap() - 1;
        let Some(inner) = found.get(4) else { continue };
        let Some(v) = value.captures(inner.as_str()) else {
            continue;
        };
        let parsed = if found[3].contains(r#"t="s""#) {
            XlsxCell::Text(strings[v[1].parse::<usize>().unwrap()].clone())
        } else {
            XlsxCell::Number(v[1].parse().unwrap())
        };
        grid.insert((row, col), parsed);
    }
    let rows = grid.keys().map(|(r, _)| r + 1).max().unwrap_or(0);
    let cols = grid.keys().map(|(_, c)| c + 1).max().unwrap_or(0);
    let table = (0..rows)
        .map(|r| (0..cols).map(|c| grid.get(&(r, c)).cloned()).collect())
        .collect();
    (name, table)
}

async fn xlsx_equals_the_matrix(app: TestApp) {
    let key = loaded(&app).await;
    let matrix = app
        .get("/products/shop/scorecard?weeks=5&current=1", Some(&key))
        .await
        .expect(200)
        .clone();
    let response = app
        .client
        .get(app.url("/products/shop/scorecard/export.xlsx?weeks=5&current=1"))
        .bearer_auth(&key)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.headers()["content-type"],
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    );
    assert_eq!(
        response.headers()["content-disposition"],
        "attachment; filename=\"shop-scorecard.xlsx\""
    );
    let (name, got) = read_xlsx(response.bytes().await.unwrap().to_vec());
    assert_eq!(name, "Scorecard");
    let want: Vec<Vec<Option<XlsxCell>>> = table_of(&matrix)
        .iter()
        .map(|row| {
            row.iter()
                .map(|cell| match cell {
                    Value::Null => None,
                    Value::String(text) => Some(XlsxCell::Text(text.clone())),
                    Value::Number(n) => Some(XlsxCell::Number(n.as_f64().unwrap())),
                    other => panic!("unexpected {other}"),
                })
                .collect()
        })
        .collect();
    assert_eq!(got, want);
    // The formula-looking label is a string cell, the typed negative value a number.
    assert!(
        got.iter()
            .flatten()
            .any(|c| *c == Some(XlsxCell::Text("=HYPERLINK(\"http://x\")".to_owned())))
    );
    assert!(
        got.iter()
            .flatten()
            .any(|c| *c == Some(XlsxCell::Number(-12.25)))
    );
}

backend_tests!(xlsx_equals_the_matrix);
