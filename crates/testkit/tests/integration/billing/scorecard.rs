//! The scorecard's plan gates (issue 40's scorecard, issue 41's plans): CSV/XLSX exports and
//! the Sheets sync need Growth (402 before the sheets configuration's 503), suggestions Indie;
//! below Growth insights ask no model (`ai: false`, `model: null`); the weeks served are clamped
//! to the plan's `history_days // 7` (`clamped: true`).

use payback_domain::DAY_MS;
use payback_server::secret::Secret;
use payback_testkit::{Backend, FakeGateway, TestApp, per_backend};
use serde_json::{Value, json};

use super::support::{billed_configured, subscribe};

async fn weeks(app: &TestApp, token: &str, asked: usize) -> (usize, Value) {
    let matrix = app
        .get(
            &format!("/products/shop/scorecard?weeks={asked}"),
            Some(token),
        )
        .await
        .expect(200)
        .clone();
    (
        matrix["weeks"].as_array().unwrap().len(),
        matrix["clamped"].clone(),
    )
}

fn refused(reply: &payback_testkit::Reply, plan: &str) {
    assert_eq!(reply.status, 402, "{}", reply.text);
    assert_eq!(reply.body["required_plan"], plan, "{}", reply.text);
}

async fn the_scorecard_follows_the_plan(backend: Backend) {
    let gateway = FakeGateway::spawn().await;
    let gateway_url = gateway.base_url();
    let billed = billed_configured(backend, move |config| {
        config.model_gateway_url = gateway_url;
        config.model_gateway_key = Some(Secret::new(FakeGateway::KEY.to_owned()));
    })
    .await;
    let app = &billed.app;
    let owner = app.signup_verified("founder@example.com").await;
    app.create_product(&owner.token, "shop").await;

    // Trialing Growth: ten years of weeks at most.
    assert_eq!(weeks(app, &owner.token, 600).await, (521, json!(true)));
    assert_eq!(weeks(app, &owner.token, 20).await, (20, json!(false)));

    // Indie: a year of weeks, suggestions but no exports, no sheets, no model insights.
    subscribe(&billed, &owner, "indie").await;
    assert_eq!(weeks(app, &owner.token, 100).await, (52, json!(true)));
    for path in [
        "/products/shop/scorecard/export.csv",
        "/products/shop/scorecard/export.xlsx",
    ] {
        refused(&app.get(path, Some(&owner.token)).await, "growth");
    }
    // No sheets configuration here: the plan's 402 comes before its 503.
    let sheets = app
        .post(
            "/products/shop/scorecard/sheets/sync",
            Some(&owner.token),
            json!({}),
        )
        .await;
    refused(&sheets, "growth");
    let asked_before = gateway.requests().len();
    let insights = app
        .get("/products/shop/scorecard/insights", Some(&owner.token))
        .await;
    let insights = insights.expect(200);
    assert_eq!(insights["ai"], false);
    assert_eq!(insights["model"], Value::Null);
    assert_eq!(
        gateway.requests().len(),
        asked_before,
        "no model asked below Growth"
    );
    // The 404 of a product that is not there comes first.
    let missing = app
        .get("/products/nope/scorecard/export.csv", Some(&owner.token))
        .await;
    assert_eq!(missing.status, 404);

    // A free workspace (its trial over, never subscribed): four weeks, no suggestions.
    let other = app.signup_verified("other@example.com").await;
    app.create_product(&other.token, "shop").await;
    app.clock.advance(31 * DAY_MS);
    let other = app.login(&other.email).await;
    assert_eq!(weeks(app, &other.token, 13).await, (4, json!(true)));
    let suggest = app
        .post(
            "/products/shop/scorecard/suggest",
            Some(&other.token),
            json!({}),
        )
        .await;
    refused(&suggest, "indie");
}

per_backend!(the_scorecard_follows_the_plan);
