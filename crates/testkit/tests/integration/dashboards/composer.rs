//! The composer through `POST /products/{slug}/dashboards/generate`: deterministic, saving
//! nothing, and saying which words it matched.

use super::*;

async fn generate(app: &TestApp, token: &str, prompt: &str) -> Value {
    app.post(
        "/products/shop/dashboards/generate",
        Some(token),
        json!({ "prompt": prompt }),
    )
    .await
    .expect(200)
    .clone()
}

fn ids(composed: &Value) -> Vec<&str> {
    composed["spec"]["widgets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["id"].as_str().unwrap())
        .collect()
}

async fn the_same_prompt_gives_the_same_spec(app: TestApp) {
    let (token, key) = setup(&app).await;
    let prompt = "Ads, signups, revenue and payback for the last 90 days, plus the queue";
    let first = generate(&app, &token, prompt).await;
    app.clock.advance(86_400_000);
    let second = generate(&app, &key, prompt).await;
    assert_eq!(first, second);
    // Case and punctuation do not change the words.
    let shouted = generate(&app, &token, &prompt.to_uppercase().replace(',', ";")).await;
    assert_eq!(first, shouted);
    assert_eq!(
        first["matched"],
        json!(["ads", "signups", "revenue", "payback", "90 days", "queue"])
    );
    let days: Vec<&Value> = first["spec"]["widgets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| &w["days"])
        .collect();
    // Tiles read 30 days; the charts that take a window read the prompt's.
    assert_eq!(
        days,
        [
            &Value::Null,
            &Value::Null,
            &Value::Null,
            &json!(90),
            &json!(90),
            &json!(90),
            &Value::Null,
            &Value::Null
        ]
    );
    let listed = app.get("/products/shop/dashboards", Some(&token)).await;
    assert_eq!(listed.expect(200), &json!([]), "generating saves nothing");
    // What it composes is a spec the API takes back as it is.
    let saved = create(
        &app,
        &token,
        json!({"name": first["name"], "spec": first["spec"]}),
    )
    .await;
    assert_eq!(saved["spec"], first["spec"]);
}

async fn matched_words_for_several_prompts(app: TestApp) {
    let (token, _) = setup(&app).await;
    let cases: [(&str, Value, &[&str], &str); 6] = [
        (
            "CAC and cost per customer for our ads",
            json!(["cac", "cost per customer", "ads"]),
            &["cac", "spend-30d", "spend-daily"],
            "CAC and Spend",
        ),
        (
            "Signups, revenue and the funnel over the last 2 weeks",
            json!(["signups", "revenue", "funnel", "2 weeks"]),
            &["revenue-30d", "funnel", "revenue-daily"],
            "Funnel and Revenue",
        ),
        (
            "Payback by cohort, ROAS and LTV:CAC",
            json!(["payback", "cohort", "roas", "ltv:cac"]),
            &["ltv-cac", "payback"],
            "Payback and LTV:CAC",
        ),
        (
            "visitors, leads and the approval queue",
            json!(["visitors", "leads", "approval", "queue"]),
            &[
                "visits-30d",
                "leads-30d",
                "pending-cards",
                "visits-daily",
                "leads-daily",
                "queue",
            ],
            "Visits, Leads and Approvals",
        ),
        (
            "spend by channel against last touch revenue",
            json!(["spend by channel", "last touch", "revenue"]),
            &[
                "revenue-30d",
                "channels-spend",
                "channels-last-touch",
                "revenue-daily",
            ],
            "Spend by channel, Last touch and Revenue",
        ),
        ("hello world", json!([]), &["note"], "New dashboard"),
    ];
    for (prompt, matched, widgets, name) in cases {
        let composed = generate(&app, &token, prompt).await;
        assert_eq!(composed["matched"], matched, "{prompt}");
        assert_eq!(ids(&composed), widgets, "{prompt}");
        assert_eq!(composed["name"], name, "{prompt}");
        // Laid out on the grid: every widget placed, inside the 12 columns, none overlapping.
        let placed: Vec<(i64, i64, i64, i64)> = composed["spec"]["widgets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| {
                let l = &w["layout"];
                let at = |k: &str| l[k].as_i64().unwrap();
                (at("x"), at("y"), at("w"), at("h"))
            })
            .collect();
        for (i, a) in placed.iter().enumerate() {
            assert!(a.0 + a.2 <= 12, "{prompt}: {a:?}");
            for b in &placed[i + 1..] {
                let apart =
                    a.0 + a.2 <= b.0 || b.0 + b.2 <= a.0 || a.1 + a.3 <= b.1 || b.1 + b.3 <= a.1;
                assert!(apart, "{prompt}: {a:?} overlaps {b:?}");
            }
        }
    }
    let note = generate(&app, &token, "hello world").await;
    assert!(
        note["spec"]["widgets"][0]["text"]
            .as_str()
            .unwrap()
            .contains("cost per customer"),
        "the note says which words work"
    );
}

backend_tests!(
    the_same_prompt_gives_the_same_spec,
    matched_words_for_several_prompts,
);
