//! The Sheets sync against an independent fake of Google's Sheets v4 and Drive v3 (behind its
//! service-account token endpoint): the first sync creates and shares the spreadsheet and
//! writes exactly the matrix; later syncs rewrite it; a deleted spreadsheet is re-created; a
//! refusal is a 502 that links nothing; unset, 503.

use axum::http::StatusCode;
use payback_domain::Clock;
use payback_domain::connection::ConnectionKind;
use payback_testkit::fakes::sheets::FakeSheets;
use payback_testkit::{Backend, TestApp, backend_tests, per_backend};
use serde_json::{Value, json};

use super::{connect, data, setup};

/// The app with the Sheets sync pointed at `sheets`; the key file lives in `dir`.
async fn app_with(backend: Backend, sheets: &FakeSheets, dir: &tempfile::TempDir) -> TestApp {
    let path = dir.path().join("service-account.json");
    std::fs::write(&path, sheets.key_json()).unwrap();
    let base = sheets.base_url();
    TestApp::spawn_with(backend, |config| {
        config.sheets_service_account_key_file = Some(path.display().to_string());
        config.sheets_api_url = base.clone();
        config.drive_api_url = base;
    })
    .await
}

/// The rows the sheet must hold, from the matrix JSON: the export's table, `""` for null.
fn expected_rows(matrix: &Value) -> Vec<Vec<Value>> {
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
                    .map(|c| match &c["value"] {
                        Value::Null => json!(""),
                        Value::Number(n) => json!(n.as_f64().unwrap()),
                        other => other.clone(),
                    }),
            );
            rows.push(cells);
        }
    }
    rows
}

/// Numbers compared as numbers (the fake keeps what was sent: `12.0` or `12`).
fn normalized(rows: Vec<Vec<Value>>) -> Vec<Vec<Value>> {
    rows.into_iter()
        .map(|row| {
            row.into_iter()
                .map(|cell| match cell {
                    Value::Number(n) => json!(n.as_f64().unwrap()),
                    other => other,
                })
                .collect()
        })
        .collect()
}

async fn the_sync_writes_exactly_the_matrix(backend: Backend) {
    let sheets = FakeSheets::spawn().await;
    let dir = tempfile::tempdir().unwrap();
    let app = app_with(backend, &sheets, &dir).await;
    let (owner, key, product_id) = setup(&app).await;
    connect(&app, &owner, &product_id, ConnectionKind::SearchAds).await;
    data::generate(app.clock.now())
        .load(&app, &key, &product_id)
        .await;
    let co_owner = app
        .add_member(&owner, "cofounder@example.com", "owner")
        .await;
    app.add_member(&owner, "helper@example.com", "member").await;
    // A label that looks like a formula stays text (RAW).
    app.post(
        "/products/shop/scorecard",
        Some(&key),
        json!({"sections": [
            {"label": "Funnel", "rows": [{"metric": "visits"}, {"metric": "visit_to_signup"}, {"metric": "cac"}]},
            {"label": "Typed", "rows": [{"metric": "calls", "label": "=1+1", "manual": true}]}
        ]}),
    )
    .await
    .expect(200);
    let before = app
        .get("/products/shop/scorecard", Some(&key))
        .await
        .expect(200)
        .clone();
    assert_eq!(before["sheets_enabled"], true);
    assert_eq!(before["spreadsheet_id"], Value::Null);

    let reply = app
        .post(
            "/products/shop/scorecard/sheets/sync",
            Some(&co_owner.token),
            json!({}),
        )
        .await;
    assert!(
        !reply.text.contains("ya29"),
        "no access token in the answer"
    );
    let synced = reply.expect(200).clone();
    let id = synced["spreadsheet_id"].as_str().unwrap().to_owned();
    assert_eq!(
        synced["spreadsheet_url"],
        format!("https://docs.google.com/spreadsheets/d/{id}/edit")
    );
    let spreadsheet = sheets.spreadsheet(&id).unwrap();
    assert!(spreadsheet.title.contains("shop"), "{}", spreadsheet.title);
    assert_eq!(spreadsheet.sheets, ["Scorecard"]);
    let mut writers: Vec<(String, String, String)> = spreadsheet
        .permissions
        .iter()
        .map(|p| (p.email.clone(), p.role.clone(), p.kind.clone()))
        .collect();
    writers.sort();
    assert_eq!(
        writers,
        [
            (
                "cofounder@example.com".to_owned(),
                "writer".to_owned(),
                "user".to_owned()
            ),
            (
                "founder@example.com".to_owned(),
                "writer".to_owned(),
                "user".to_owned()
            ),
        ]
    );
    let matrix = app
        .get("/products/shop/scorecard", Some(&key))
        .await
        .expect(200)
        .clone();
    assert_eq!(matrix["spreadsheet_id"], id.as_str());
    assert_eq!(
        normalized(sheets.values(&id, "Scorecard")),
        expected_rows(&matrix)
    );
    assert!(
        sheets
            .values(&id, "Scorecard")
            .iter()
            .any(|row| row[2] == "=1+1")
    );
    // The documented requests: the JWT bearer grant with both scopes, RAW at Scorecard!A1.
    let requests = sheets.requests();
    let token = requests.iter().find(|r| r.path == "/token").unwrap();
    assert_eq!(
        token.param("grant_type").as_deref(),
        Some("urn:ietf:params:oauth:grant-type:jwt-bearer")
    );
    let update = requests.iter().find(|r| r.method == "PUT").unwrap();
    assert_eq!(
        update.path,
        format!("/v4/spreadsheets/{id}/values/Scorecard%21A1")
    );
    assert_eq!(update.param("valueInputOption").as_deref(), Some("RAW"));
    assert!(
        update
            .header("authorization")
            .unwrap()
            .starts_with("Bearer ya29.")
    );

    // A later sync clears and rewrites the same spreadsheet.
    app.post(
        "/products/shop/scorecard/values",
        Some(&key),
        json!({"cells": [{"metric": "calls", "week": "2026-W46", "value": 17}]}),
    )
    .await
    .expect(200);
    let again = app
        .post(
            "/products/shop/scorecard/sheets/sync",
            Some(&key),
            json!({}),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(again, synced);
    assert_eq!(sheets.created().len(), 1);
    assert!(
        sheets
            .requests()
            .iter()
            .any(|r| r.path.ends_with("/values/Scorecard:clear"))
    );
    let matrix = app
        .get("/products/shop/scorecard", Some(&key))
        .await
        .expect(200)
        .clone();
    assert_eq!(
        normalized(sheets.values(&id, "Scorecard")),
        expected_rows(&matrix)
    );
    assert_eq!(
        sheets
            .values(&id, "Scorecard")
            .last()
            .unwrap()
            .last()
            .unwrap()
            .as_f64(),
        Some(17.0)
    );

    // A failure upstream is a 502 and leaves the link as it was.
    sheets.fail_next("/values/", 1, StatusCode::INTERNAL_SERVER_ERROR);
    app.post(
        "/products/shop/scorecard/sheets/sync",
        Some(&key),
        json!({}),
    )
    .await
    .expect_error(502, "Google Sheets answered 500");
    let matrix = app
        .get("/products/shop/scorecard", Some(&key))
        .await
        .expect(200)
        .clone();
    assert_eq!(matrix["spreadsheet_id"], id.as_str());

    // Deleted at Google: the next sync creates a new one (404 re-creates).
    sheets.delete(&id);
    let recreated = app
        .post(
            "/products/shop/scorecard/sheets/sync",
            Some(&key),
            json!({}),
        )
        .await
        .expect(200)
        .clone();
    let new_id = recreated["spreadsheet_id"].as_str().unwrap().to_owned();
    assert_ne!(new_id, id);
    assert_eq!(sheets.created().len(), 2);
    assert_eq!(
        normalized(sheets.values(&new_id, "Scorecard")),
        expected_rows(&matrix)
    );
    assert_eq!(sheets.spreadsheet(&new_id).unwrap().permissions.len(), 2);
    let matrix = app
        .get("/products/shop/scorecard", Some(&key))
        .await
        .expect(200)
        .clone();
    assert_eq!(matrix["spreadsheet_id"], new_id.as_str());

    // A first sync that fails links nothing.
    app.create_product(&key, "second").await;
    sheets.fail_next("/drive/v3/files/", 1, StatusCode::FORBIDDEN);
    app.post(
        "/products/second/scorecard/sheets/sync",
        Some(&key),
        json!({}),
    )
    .await
    .expect_error(502, "Google Drive answered 403");
    let second = app
        .get("/products/second/scorecard", Some(&key))
        .await
        .expect(200)
        .clone();
    assert_eq!(second["spreadsheet_id"], Value::Null);

    // Another account's product is not found.
    let stranger = app.signup_verified("stranger@example.com").await;
    app.post(
        "/products/shop/scorecard/sheets/sync",
        Some(&stranger.token),
        json!({}),
    )
    .await
    .expect_error(404, "not found");
}

per_backend!(the_sync_writes_exactly_the_matrix);

async fn a_key_google_refuses_is_a_bad_gateway(backend: Backend) {
    let sheets = FakeSheets::spawn().await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("key.json");
    std::fs::write(
        &path,
        payback_testkit::fake_google::service_account::untrusted_key_json(&sheets.token_url()),
    )
    .unwrap();
    let base = sheets.base_url();
    let app = TestApp::spawn_with(backend, |config| {
        config.sheets_service_account_key_file = Some(path.display().to_string());
        config.sheets_api_url = base.clone();
        config.drive_api_url = base;
    })
    .await;
    let (_owner, key, _) = setup(&app).await;
    let reply = app
        .post(
            "/products/shop/scorecard/sheets/sync",
            Some(&key),
            json!({}),
        )
        .await;
    reply.expect_error(502, "Sheets sync failed");
    assert!(!reply.text.contains("PRIVATE KEY"));
    assert!(sheets.created().is_empty());
}

per_backend!(a_key_google_refuses_is_a_bad_gateway);

async fn without_a_key_the_sync_is_unavailable(app: TestApp) {
    let (_owner, key, _) = setup(&app).await;
    app.post(
        "/products/shop/scorecard/sheets/sync",
        Some(&key),
        json!({}),
    )
    .await
    .expect_error(503, "PAYBACK_SHEETS_SERVICE_ACCOUNT_KEY_FILE");
    let matrix = app
        .get("/products/shop/scorecard", Some(&key))
        .await
        .expect(200)
        .clone();
    assert_eq!(matrix["sheets_enabled"], false);
}

backend_tests!(without_a_key_the_sync_is_unavailable);
