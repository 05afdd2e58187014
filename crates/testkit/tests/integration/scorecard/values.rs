//! Every weekly value of the matrix against the data's own weekly sums (ISO weeks in UTC, a
//! retried batch counted once), and the null rules.

use payback_domain::Clock;
use payback_domain::connection::ConnectionKind;
use payback_testkit::{TestApp, backend_tests};
use serde_json::Value;

use super::data::{self, week_key};
use super::{connect, row, setup};

fn number(value: &Value) -> Option<f64> {
    (!value.is_null()).then(|| value.as_f64().unwrap())
}

async fn weekly_values_equal_the_data_s_own_sums(app: TestApp) {
    let (owner, key, product_id) = setup(&app).await;
    for kind in [
        ConnectionKind::SearchAds,
        ConnectionKind::SearchConsole,
        ConnectionKind::SocialA,
    ] {
        connect(&app, &owner, &product_id, kind).await;
    }
    let data = data::generate(app.clock.now());
    data.load(&app, &key, &product_id).await;

    let matrix = app
        .get("/products/shop/scorecard?weeks=7&current=1", Some(&key))
        .await
        .expect(200)
        .clone();
    let keys: Vec<&str> = matrix["weeks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|week| week["key"].as_str().unwrap())
        .collect();
    let expected_keys: Vec<String> = (0..8).map(week_key).collect();
    assert_eq!(keys, expected_keys);
    assert_eq!(matrix["weeks"][0]["start"], "2026-09-28");
    assert_eq!(matrix["weeks"][0]["end"], "2026-10-04");
    assert_eq!(matrix["weeks"][7]["current"], true);
    assert_eq!(matrix["weeks"][6]["current"], false);
    assert_eq!(matrix["template"], "default");
    assert_eq!(matrix["clamped"], false);
    assert_eq!(matrix["currency"], "USD");

    let expected = data::expected(&data, 8);
    for (metric, weeks) in &expected {
        let got = row(&matrix, metric);
        let values = got["values"].as_array().unwrap();
        assert_eq!(values.len(), 8, "{metric}");
        for (index, want) in weeks.iter().enumerate() {
            assert_eq!(values[index]["week"], week_key(index), "{metric}");
            let value = number(&values[index]["value"]);
            match (value, want) {
                (Some(got), Some(want)) => assert!(
                    (got - want).abs() < 1e-9,
                    "{metric} in {}: got {got}, want {want}",
                    week_key(index)
                ),
                (got, want) => assert_eq!(got, *want, "{metric} in {}", week_key(index)),
            }
        }
        // Something happened: the comparison is not all zeros.
        assert!(
            weeks.iter().any(|v| v.is_some_and(|v| v != 0.0)),
            "{metric} is never set"
        );
    }
    // Counts and cents are whole numbers on the wire.
    assert!(row(&matrix, "visits")["values"][1]["value"].is_i64());
    assert!(row(&matrix, "revenue")["values"][1]["value"].is_i64());
    assert_eq!(row(&matrix, "revenue")["unit"], "cents");
    assert_eq!(row(&matrix, "visit_to_signup")["unit"], "percent");
    assert_eq!(row(&matrix, "spend")["source"], "ads");
}

backend_tests!(weekly_values_equal_the_data_s_own_sums);

async fn rows_of_sources_not_connected_are_null(app: TestApp) {
    let (_owner, key, product_id) = setup(&app).await;
    let data = data::generate(app.clock.now());
    data.load(&app, &key, &product_id).await;
    // Nothing connected: the first read provisions the first-party rows only.
    let matrix = app
        .get("/products/shop/scorecard?weeks=3", Some(&key))
        .await
        .expect(200)
        .clone();
    assert_eq!(
        super::metrics(&matrix),
        [
            "visits",
            "leads",
            "signups",
            "visit_to_signup",
            "customers",
            "revenue",
            "signup_to_customer"
        ]
    );
    // A template keeps every row: the ad, search and social rows read null, spend included.
    let applied = app
        .post(
            "/products/shop/scorecard/template",
            Some(&key),
            serde_json::json!({"template": "paid_acquisition"}),
        )
        .await
        .expect(200)
        .clone();
    for metric in ["spend", "cac", "roas", "ltv_cac"] {
        for cell in row(&applied, metric)["values"].as_array().unwrap() {
            assert_eq!(cell["value"], Value::Null, "{metric}");
        }
    }
    assert!(
        row(&applied, "customers")["values"]
            .as_array()
            .unwrap()
            .iter()
            .all(|cell| cell["value"].is_i64())
    );
    // An empty product: zeros where a count is honest, null where a denominator is missing.
    app.create_product(&key, "empty").await;
    let empty = app
        .get("/products/empty/scorecard?weeks=2", Some(&key))
        .await
        .expect(200)
        .clone();
    assert_eq!(row(&empty, "visits")["values"][0]["value"], 0);
    assert_eq!(row(&empty, "revenue")["values"][1]["value"], 0);
    assert_eq!(
        row(&empty, "visit_to_signup")["values"][0]["value"],
        Value::Null
    );
    assert_eq!(
        row(&empty, "signup_to_customer")["values"][1]["value"],
        Value::Null
    );
}

backend_tests!(rows_of_sources_not_connected_are_null);

async fn weeks_are_checked_and_clamped(app: TestApp) {
    let (_owner, key, _) = setup(&app).await;
    let default = app.get("/products/shop/scorecard", Some(&key)).await;
    let default = default.expect(200);
    assert_eq!(default["weeks"].as_array().unwrap().len(), 13);
    assert_eq!(default["weeks"][12]["key"], "2026-W46");
    assert_eq!(default["weeks"][12]["end"], "2026-11-15");
    let clamped = app
        .get("/products/shop/scorecard?weeks=600", Some(&key))
        .await;
    let clamped = clamped.expect(200);
    assert_eq!(clamped["weeks"].as_array().unwrap().len(), 521);
    assert_eq!(clamped["clamped"], true);
    for bad in ["0", "-1", "abc", "1.5"] {
        app.get(&format!("/products/shop/scorecard?weeks={bad}"), Some(&key))
            .await
            .expect_error(400, "weeks");
    }
    app.get("/products/shop/scorecard?current=yes", Some(&key))
        .await
        .expect_error(400, "current");
    app.get("/products/shop/scorecard/insights?weeks=0", Some(&key))
        .await
        .expect_error(400, "weeks");
    app.get("/products/shop/scorecard/export.csv?weeks=x", Some(&key))
        .await
        .expect_error(400, "weeks");
}

backend_tests!(weeks_are_checked_and_clamped);

async fn another_account_s_product_is_not_found(app: TestApp) {
    let (_owner, key, _) = setup(&app).await;
    let stranger = app.signup_verified("stranger@example.com").await;
    let stranger_key = app.api_key(&stranger).await;
    for path in [
        "/products/shop/scorecard",
        "/products/shop/scorecard/catalog",
        "/products/shop/scorecard/insights",
        "/products/shop/scorecard/export.csv",
        "/products/shop/scorecard/export.xlsx",
    ] {
        app.get(path, Some(&stranger_key))
            .await
            .expect_error(404, "not found");
        app.get(path, None).await.expect(401);
    }
    for (path, body) in [
        (
            "/products/shop/scorecard",
            serde_json::json!({"sections": []}),
        ),
        (
            "/products/shop/scorecard/template",
            serde_json::json!({"template": "default"}),
        ),
        (
            "/products/shop/scorecard/values",
            serde_json::json!({"cells": [{"metric": "mrr", "week": "2026-W46", "value": 1}]}),
        ),
        ("/products/shop/scorecard/suggest", serde_json::json!({})),
        ("/products/shop/scorecard/share", serde_json::json!({})),
        (
            "/products/shop/scorecard/share/revoke",
            serde_json::json!({}),
        ),
    ] {
        app.post(path, Some(&stranger_key), body.clone())
            .await
            .expect_error(404, "not found");
        app.post(path, None, body).await.expect(401);
    }
    // The owner's scorecard is untouched by all of that.
    let matrix = app.get("/products/shop/scorecard", Some(&key)).await;
    assert_eq!(matrix.expect(200)["template"], "default");
}

backend_tests!(another_account_s_product_is_not_found);
