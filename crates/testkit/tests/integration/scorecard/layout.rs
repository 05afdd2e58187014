//! The catalog, the layout (provisioned once, stable across reads and new connections, saved,
//! replaced by templates, audited), validation naming the field, and manual cells.

use payback_domain::connection::ConnectionKind;
use payback_testkit::{TestApp, backend_tests};
use serde_json::{Value, json};

use super::{connect, metrics, row, setup};

async fn catalog_says_what_is_available(app: TestApp) {
    let (owner, key, product_id) = setup(&app).await;
    let catalog = app
        .get("/products/shop/scorecard/catalog", Some(&key))
        .await
        .expect(200)["catalog"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(catalog.len(), 14);
    let entry = |catalog: &[Value], metric: &str| {
        catalog
            .iter()
            .find(|e| e["metric"] == metric)
            .unwrap()
            .clone()
    };
    assert_eq!(
        entry(&catalog, "visits"),
        json!({"metric": "visits", "label": "Visits", "unit": "count", "source": "first_party", "available": true})
    );
    assert_eq!(entry(&catalog, "cac")["unit"], "cents");
    assert_eq!(entry(&catalog, "roas")["unit"], "ratio");
    assert_eq!(entry(&catalog, "visit_to_signup")["unit"], "percent");
    for metric in [
        "spend",
        "cac",
        "roas",
        "ltv_cac",
        "search_clicks",
        "social_followers",
    ] {
        assert_eq!(entry(&catalog, metric)["available"], false, "{metric}");
    }
    connect(&app, &owner, &product_id, ConnectionKind::SocialAdsB).await;
    connect(&app, &owner, &product_id, ConnectionKind::SearchB).await;
    let catalog = app
        .get("/products/shop/scorecard/catalog", Some(&key))
        .await
        .expect(200)["catalog"]
        .as_array()
        .unwrap()
        .clone();
    for metric in [
        "spend",
        "cac",
        "roas",
        "ltv_cac",
        "search_clicks",
        "search_impressions",
    ] {
        assert_eq!(entry(&catalog, metric)["available"], true, "{metric}");
    }
    assert_eq!(entry(&catalog, "social_followers")["available"], false);
}

backend_tests!(catalog_says_what_is_available);

async fn the_layout_is_provisioned_once_and_stays(app: TestApp) {
    let (owner, key, product_id) = setup(&app).await;
    connect(&app, &owner, &product_id, ConnectionKind::SearchConsole).await;
    let first = app
        .get("/products/shop/scorecard", Some(&key))
        .await
        .expect(200)
        .clone();
    assert_eq!(
        metrics(&first),
        [
            "visits",
            "leads",
            "signups",
            "visit_to_signup",
            "customers",
            "revenue",
            "signup_to_customer",
            "search_clicks",
            "search_impressions"
        ]
    );
    assert_eq!(first["template"], "default");
    assert_eq!(first["share_url"], Value::Null);
    assert_eq!(first["spreadsheet_id"], Value::Null);
    assert_eq!(first["sheets_enabled"], false);
    assert_eq!(first["catalog"].as_array().unwrap().len(), 14);
    // A new connection does not change the stored layout; reads are stable.
    connect(&app, &owner, &product_id, ConnectionKind::SearchAds).await;
    for _ in 0..2 {
        let again = app
            .get("/products/shop/scorecard", Some(&key))
            .await
            .expect(200)
            .clone();
        assert_eq!(again["sections"], first["sections"]);
    }
    // A custom save: renamed rows, a manual row, template null; then stable too.
    let saved = app
        .post(
            "/products/shop/scorecard",
            Some(&key),
            json!({"sections": [
                {"label": "Top of funnel", "rows": [{"metric": "visits", "label": "Sessions"}, {"metric": "spend"}]},
                {"key": "money", "label": "Money", "rows": [
                    {"metric": "mrr", "label": "MRR", "manual": true, "unit": "cents"},
                    {"metric": "calls", "label": "Sales calls", "manual": true}
                ]}
            ]}),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(saved["template"], Value::Null);
    assert_eq!(saved["sections"][0]["key"], "top_of_funnel");
    assert_eq!(saved["sections"][0]["label"], "Top of funnel");
    assert_eq!(saved["sections"][1]["key"], "money");
    assert_eq!(metrics(&saved), ["visits", "spend", "mrr", "calls"]);
    assert_eq!(row(&saved, "visits")["label"], "Sessions");
    assert_eq!(row(&saved, "spend")["label"], "Ad spend");
    let mrr = row(&saved, "mrr");
    assert_eq!(mrr["manual"], true);
    assert_eq!(mrr["source"], "manual");
    assert_eq!(mrr["unit"], "cents");
    assert_eq!(row(&saved, "calls")["unit"], "count");
    assert!(
        mrr["values"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["value"].is_null())
    );
    let read = app
        .get("/products/shop/scorecard", Some(&key))
        .await
        .expect(200)
        .clone();
    assert_eq!(read["sections"], saved["sections"]);

    // A template replaces it, keeping rows of sources not connected.
    let applied = app
        .post(
            "/products/shop/scorecard/template",
            Some(&key),
            json!({"template": "content_led"}),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(applied["template"], "content_led");
    let held = metrics(&applied);
    for metric in ["visits", "search_clicks", "signups", "social_followers"] {
        assert!(held.contains(&metric.to_owned()), "{metric}");
    }
    assert!(row(&applied, "social_followers")["values"][0]["value"].is_null());
    for template in ["default", "saas_waitlist", "paid_acquisition"] {
        let applied = app
            .post(
                "/products/shop/scorecard/template",
                Some(&key),
                json!({"template": template}),
            )
            .await
            .expect(200)
            .clone();
        assert_eq!(applied["template"], template);
    }
    let full = app
        .get("/products/shop/scorecard", Some(&key))
        .await
        .expect(200)
        .clone();
    assert_eq!(metrics(&full).len(), 8, "paid_acquisition's rows");

    // Saves and templates are in the history, with what they replaced.
    let history = app
        .history_where(&owner.token, |event| {
            event["action"]
                .as_str()
                .unwrap_or("")
                .starts_with("scorecard.")
        })
        .await;
    let actions: Vec<&str> = history
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    assert_eq!(
        actions.iter().filter(|a| **a == "scorecard.save").count(),
        1
    );
    assert_eq!(
        actions
            .iter()
            .filter(|a| **a == "scorecard.template")
            .count(),
        4
    );
    let save = history
        .iter()
        .find(|e| e["action"] == "scorecard.save")
        .unwrap();
    assert_eq!(save["product_slug"], "shop");
    assert_eq!(save["payload"]["before"]["template"], "default");
    assert_eq!(save["payload"]["after"]["template"], Value::Null);
}

backend_tests!(the_layout_is_provisioned_once_and_stays);

/// `n` manual rows keyed `<prefix>0`, `<prefix>1`, ...
fn rows_named(prefix: &str, n: usize) -> Vec<Value> {
    (0..n)
        .map(|i| json!({"metric": format!("{prefix}{i:02}"), "label": "x", "manual": true}))
        .collect()
}

async fn a_bad_layout_is_refused_naming_the_field(app: TestApp) {
    let (_owner, key, _) = setup(&app).await;
    let before = app
        .get("/products/shop/scorecard", Some(&key))
        .await
        .expect(200)
        .clone();
    let section = |rows: Value| json!({"sections": [{"label": "S", "rows": rows}]});
    let many_sections: Vec<Value> = (0..13)
        .map(|i| json!({"label": format!("S{i}"), "rows": []}))
        .collect();
    let many_rows: Vec<Value> = (0..61)
        .map(|i| json!({"metric": format!("m{i:02}"), "label": "x", "manual": true}))
        .collect();
    let cases: Vec<(Value, &str)> = vec![
        (json!({}), "sections"),
        (json!({"sections": "x"}), "sections"),
        (json!({"sections": many_sections}), "sections: at most 12"),
        (
            section(Value::from(many_rows)),
            "sections[0].rows: at most 60",
        ),
        (
            json!({"sections": [
                {"label": "A", "rows": Value::from(rows_named("a", 31))},
                {"label": "B", "rows": Value::from(rows_named("b", 30))}
            ]}),
            "sections: at most 60 rows in all",
        ),
        (json!({"sections": [{"rows": []}]}), "missing field `label`"),
        (
            json!({"sections": [{"label": "x".repeat(81), "rows": []}]}),
            "sections[0].label",
        ),
        (
            json!({"sections": [{"label": "  ", "rows": []}]}),
            "sections[0].label",
        ),
        (
            json!({"sections": [{"key": "Bad Key", "label": "S", "rows": []}]}),
            "sections[0].key",
        ),
        (
            json!({"sections": [{"key": "a", "label": "S", "rows": []}, {"key": "a", "label": "T", "rows": []}]}),
            "sections[1].key",
        ),
        (
            section(json!([{"metric": "bogus_metric"}])),
            "unknown metric \"bogus_metric\"",
        ),
        (section(json!([{"label": "x"}])), "missing field `metric`"),
        (
            section(json!([{"metric": "visits"}, {"metric": "visits"}])),
            "sections[0].rows[1].metric",
        ),
        (
            section(json!([{"metric": "mrr", "manual": true}])),
            "sections[0].rows[0].label",
        ),
        (
            section(json!([{"metric": "Mrr", "label": "M", "manual": true}])),
            "sections[0].rows[0].metric",
        ),
        (
            section(json!([{"metric": "m", "label": "M", "manual": true}])),
            "sections[0].rows[0].metric",
        ),
        (
            section(json!([{"metric": "visits", "label": "V", "manual": true}])),
            "catalog metric",
        ),
        (
            section(json!([{"metric": "mrr", "label": "M", "manual": true, "unit": "yen"}])),
            "unit",
        ),
        (
            section(json!([{"metric": "visits", "label": ""}])),
            "sections[0].rows[0].label",
        ),
        (json!({"sections": [], "template": "nope"}), "template"),
    ];
    for (body, needle) in cases {
        app.post("/products/shop/scorecard", Some(&key), body.clone())
            .await
            .expect_error(400, needle);
    }
    for body in [
        json!({}),
        json!({"template": "fancy"}),
        json!({"template": 3}),
    ] {
        app.post("/products/shop/scorecard/template", Some(&key), body)
            .await
            .expect_error(400, "template");
    }
    let after = app
        .get("/products/shop/scorecard", Some(&key))
        .await
        .expect(200)
        .clone();
    assert_eq!(
        after["sections"], before["sections"],
        "nothing refused was stored"
    );
    // 12 sections and 60 rows are fine.
    let sections: Vec<Value> = (0..12)
        .map(|s| {
            let rows: Vec<Value> = (0..5)
                .map(|r| json!({"metric": format!("m{s}_{r}"), "label": "x", "manual": true}))
                .collect();
            json!({"label": format!("S{s}"), "rows": rows})
        })
        .collect();
    app.post(
        "/products/shop/scorecard",
        Some(&key),
        json!({"sections": sections}),
    )
    .await
    .expect(200);
}

backend_tests!(a_bad_layout_is_refused_naming_the_field);

async fn manual_cells_are_typed_whole_or_not_at_all(app: TestApp) {
    let (_owner, key, _) = setup(&app).await;
    app.post(
        "/products/shop/scorecard",
        Some(&key),
        json!({"sections": [{"label": "Manual", "rows": [
            {"metric": "mrr", "label": "MRR", "manual": true, "unit": "cents"},
            {"metric": "nps", "label": "NPS", "manual": true, "unit": "ratio"},
            {"metric": "visits"}
        ]}]}),
    )
    .await
    .expect(200);
    let ok = app
        .post(
            "/products/shop/scorecard/values",
            Some(&key),
            json!({"cells": [
                {"metric": "mrr", "week": "2026-W46", "value": 120000},
                {"metric": "mrr", "week": "2026-W45", "value": 99000},
                {"metric": "nps", "week": "2026-W46", "value": 41.5},
                {"metric": "nps", "week": "2026-W47", "value": 7}
            ]}),
        )
        .await;
    assert_eq!(ok.expect(200), &json!({"ok": true}));
    let matrix = app
        .get("/products/shop/scorecard?weeks=3&current=1", Some(&key))
        .await
        .expect(200)
        .clone();
    let values = |metric: &str| -> Vec<Value> {
        row(&matrix, metric)["values"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["value"].clone())
            .collect()
    };
    assert_eq!(
        values("mrr"),
        [Value::Null, json!(99000), json!(120000), Value::Null]
    );
    assert_eq!(
        values("nps"),
        [Value::Null, Value::Null, json!(41.5), json!(7)]
    );
    // Null clears a cell.
    app.post(
        "/products/shop/scorecard/values",
        Some(&key),
        json!({"cells": [{"metric": "mrr", "week": "2026-W46", "value": null}]}),
    )
    .await
    .expect(200);
    let matrix = app
        .get("/products/shop/scorecard?weeks=1", Some(&key))
        .await
        .expect(200)
        .clone();
    assert_eq!(row(&matrix, "mrr")["values"][0]["value"], Value::Null);

    let too_many: Vec<Value> = (0..501)
        .map(|i| json!({"metric": "mrr", "week": format!("20{:02}-W10", i % 100), "value": 1}))
        .collect();
    let cases: Vec<(Value, &str)> = vec![
        (json!({}), "cells"),
        (json!({"cells": []}), "cells"),
        (json!({"cells": too_many}), "cells"),
        (
            json!({"cells": [{"week": "2026-W46", "value": 1}]}),
            "missing field `metric`",
        ),
        (
            json!({"cells": [{"metric": "visits", "week": "2026-W46", "value": 1}]}),
            "cells[0].metric",
        ),
        (
            json!({"cells": [{"metric": "ghost", "week": "2026-W46", "value": 1}]}),
            "cells[0].metric",
        ),
        (
            json!({"cells": [{"metric": "mrr", "value": 1}]}),
            "missing field `week`",
        ),
        (
            json!({"cells": [{"metric": "mrr", "week": "2026-46", "value": 1}]}),
            "cells[0].week",
        ),
        (
            json!({"cells": [{"metric": "mrr", "week": "2025-W53", "value": 1}]}),
            "cells[0].week",
        ),
        (
            json!({"cells": [{"metric": "mrr", "week": "2026-W48", "value": 1}]}),
            "cells[0].week",
        ),
        (
            json!({"cells": [{"metric": "mrr", "week": "2026-W40"}]}),
            "cells[0].value",
        ),
        (
            json!({"cells": [{"metric": "mrr", "week": "2026-W40", "value": "12"}]}),
            "cells[0].value",
        ),
        (
            json!({"cells": [
                {"metric": "mrr", "week": "2026-W40", "value": 5},
                {"metric": "mrr", "week": "2026-W40", "value": 6}
            ]}),
            "cells[1]",
        ),
    ];
    for (body, needle) in cases {
        app.post("/products/shop/scorecard/values", Some(&key), body.clone())
            .await
            .expect_error(400, needle);
    }
    // All or nothing: the valid first cell of a refused batch was not written.
    app.post(
        "/products/shop/scorecard/values",
        Some(&key),
        json!({"cells": [
            {"metric": "mrr", "week": "2026-W44", "value": 5},
            {"metric": "mrr", "week": "2026-W49", "value": 6}
        ]}),
    )
    .await
    .expect_error(400, "cells[1].week");
    let matrix = app
        .get("/products/shop/scorecard?weeks=3", Some(&key))
        .await
        .expect(200)
        .clone();
    assert_eq!(row(&matrix, "mrr")["values"][0]["week"], "2026-W44");
    assert_eq!(row(&matrix, "mrr")["values"][0]["value"], Value::Null);
}

backend_tests!(manual_cells_are_typed_whole_or_not_at_all);
