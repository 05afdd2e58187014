//! The dashboard's Scorecard page and the shared view in headless Chromium
//! (`e2e/dashboard-scorecard.mjs`): the matrix with the weeks and visits this test computes from
//! the events it sends (the last two completed ISO weeks before today), the week-on-week
//! insight, a template applied, a typed row added in the layout editor and a cell typed into it,
//! the CSV export, a share link read without a session and dead after its revoke, and the sync
//! to the Sheets fake, whose sheet this test then compares with the matrix.

use payback_domain::{Clock as _, DAY_MS, Timestamp};
use payback_testkit::browser::{run_browser_script_with_env, spawn_on_wall_clock};
use payback_testkit::fakes::sheets::FakeSheets;
use payback_testkit::{Backend, per_backend};
use serde_json::{Value, json};

/// Visitors of the week before last and of last week: +50%, a highlight.
const VISITS_BEFORE: i64 = 2;
const VISITS_LAST: i64 = 3;

/// The Monday (ms) of the ISO week holding `at` (1970-01-01 was a Thursday).
fn monday_of(at: Timestamp) -> i64 {
    let day = at.millis().div_euclid(DAY_MS);
    (day - (day + 3).rem_euclid(7)) * DAY_MS
}

/// `YYYY-Www` of the week starting on the Monday `monday` (ms): the year and week of its
/// Thursday.
fn week_key(monday: i64) -> String {
    let thursday = Timestamp::from_millis(monday + 3 * DAY_MS);
    let year: i32 = thursday.day()[..4].parse().unwrap();
    let january_first = Timestamp::parse_day(&format!("{year}-01-01")).unwrap();
    let day_of_year = (thursday.millis() - january_first.millis()) / DAY_MS;
    format!("{year}-W{:02}", day_of_year / 7 + 1)
}

async fn scorecard_in_the_browser(backend: Backend) {
    let sheets = FakeSheets::spawn().await;
    let dir = tempfile::tempdir().unwrap();
    let key_file = dir.path().join("service-account.json");
    std::fs::write(&key_file, sheets.key_json()).unwrap();
    let base = sheets.base_url();
    let app = spawn_on_wall_clock(
        backend,
        |config| {
            config.sheets_service_account_key_file = Some(key_file.display().to_string());
            config.sheets_api_url = base.clone();
            config.drive_api_url = base;
        },
        |_| {},
    )
    .await;
    let owner = app.signup_verified("founder@example.com").await;
    let key = app.api_key(&owner).await;
    app.create_product(&key, "shop").await;

    let this_monday = monday_of(app.clock.now());
    let last = this_monday - 7 * DAY_MS;
    let before = last - 7 * DAY_MS;
    let mut events = Vec::new();
    for (week, visitors, prefix) in [(before, VISITS_BEFORE, "b"), (last, VISITS_LAST, "l")] {
        for i in 0..visitors {
            let at = Timestamp::from_millis(week + DAY_MS + i * 3_600_000);
            events.push(json!({
                "dedupe_id": format!("{prefix}{i}"),
                "stage": "visit",
                "occurred_at": at.to_rfc3339(),
                "user_id": format!("{prefix}-visitor-{i}"),
            }));
        }
    }
    app.send_events(&key, "shop", Value::from(events)).await;

    run_browser_script_with_env(
        &app,
        "dashboard-scorecard",
        &[
            ("PAYBACK_E2E_EMAIL", owner.email.clone()),
            ("PAYBACK_E2E_SLUG", "shop".to_owned()),
            ("PAYBACK_E2E_WEEK_LAST", week_key(last)),
            ("PAYBACK_E2E_WEEK_BEFORE", week_key(before)),
            ("PAYBACK_E2E_VISITS_LAST", VISITS_LAST.to_string()),
            ("PAYBACK_E2E_VISITS_BEFORE", VISITS_BEFORE.to_string()),
        ],
    )
    .await;

    // The script synced: the sheet holds the matrix of the default weeks, the typed cell too.
    let matrix = app
        .get("/products/shop/scorecard", Some(&key))
        .await
        .expect(200)
        .clone();
    let id = matrix["spreadsheet_id"]
        .as_str()
        .expect("synced")
        .to_owned();
    let sheet = sheets.values(&id, "Scorecard");
    let header: Vec<Value> = sheet[0].clone();
    assert_eq!(header[4..].len(), 13);
    assert_eq!(header.last().unwrap(), &json!(week_key(last)));
    let mrr = sheet
        .iter()
        .find(|row| row[1] == "mrr")
        .expect("the typed row");
    assert_eq!(mrr.last().unwrap().as_f64(), Some(1234.0));
    assert_eq!(
        matrix["share_url"],
        Value::Null,
        "the script revoked the link"
    );
}

per_backend!(scorecard_in_the_browser);
