//! `/openapi.json` describes dashboards as the spec does: the Dashboard's fields, the widget's
//! common and extra fields, the layout's four required integers, and each type's own field.

use std::collections::BTreeSet;

use super::*;

fn keys(value: &Value) -> BTreeSet<&str> {
    value
        .as_object()
        .unwrap_or_else(|| panic!("not an object: {value}"))
        .keys()
        .map(String::as_str)
        .collect()
}

fn strings(value: &Value) -> BTreeSet<&str> {
    value
        .as_array()
        .unwrap_or_else(|| panic!("not an array: {value}"))
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect()
}

async fn the_document_describes_dashboards_as_the_spec_does(app: TestApp) {
    let doc = app.get("/openapi.json", None).await.expect(200).clone();
    let schemas = &doc["components"]["schemas"];
    assert_eq!(
        keys(&schemas["DashboardView"]["properties"]),
        BTreeSet::from([
            "id",
            "product_slug",
            "name",
            "description",
            "spec",
            "created_by",
            "updated_by",
            "created_at",
            "updated_at"
        ])
    );
    assert_eq!(
        keys(&schemas["ComposedDashboard"]["properties"]),
        BTreeSet::from(["name", "spec", "matched"])
    );
    assert_eq!(
        strings(&schemas["DashboardSpec"]["required"]),
        BTreeSet::from(["widgets"])
    );
    assert_eq!(
        schemas["DashboardSpec"]["properties"]["widgets"]["maxItems"],
        24
    );
    let widget = &schemas["Widget"];
    assert_eq!(
        keys(&widget["properties"]),
        BTreeSet::from([
            "id", "type", "title", "size", "layout", "metric", "series", "measure", "days", "text"
        ])
    );
    assert_eq!(strings(&widget["required"]), BTreeSet::from(["id", "type"]));
    assert_eq!(widget["properties"]["id"]["maxLength"], 40);
    assert_eq!(widget["properties"]["title"]["maxLength"], 80);
    assert_eq!(widget["properties"]["text"]["maxLength"], 2000);
    assert_eq!(widget["properties"]["days"]["maximum"], 365);
    assert_eq!(widget["properties"]["days"]["default"], 30);
    // Each type requires its own field (funnel, payback and queue none) and refuses the others'.
    let required_by_type: Vec<(String, Value)> = widget["allOf"]
        .as_array()
        .unwrap()
        .iter()
        .map(|rule| {
            (
                rule["if"]["properties"]["type"]["const"]
                    .as_str()
                    .unwrap()
                    .to_owned(),
                rule["then"]["required"].clone(),
            )
        })
        .collect();
    let refused_on_payback: Vec<&Value> = widget["allOf"][3]["then"]["not"]["anyOf"]
        .as_array()
        .unwrap()
        .iter()
        .map(|alternative| &alternative["required"][0])
        .collect();
    assert_eq!(
        refused_on_payback,
        [
            &json!("metric"),
            &json!("series"),
            &json!("measure"),
            &json!("days"),
            &json!("text")
        ]
    );
    assert_eq!(
        required_by_type,
        [
            ("metric".to_owned(), json!(["metric"])),
            ("timeseries".to_owned(), json!(["series"])),
            ("funnel".to_owned(), Value::Null),
            ("payback".to_owned(), Value::Null),
            ("queue".to_owned(), Value::Null),
            ("breakdown".to_owned(), json!(["measure"])),
            ("note".to_owned(), json!(["text"])),
        ]
    );
    assert_eq!(
        schemas["WidgetType"]["enum"],
        json!([
            "metric",
            "timeseries",
            "funnel",
            "payback",
            "queue",
            "breakdown",
            "note"
        ])
    );
    assert_eq!(
        schemas["WidgetSize"]["enum"],
        json!(["xs", "sm", "md", "lg"])
    );
    assert_eq!(
        schemas["WidgetMetric"]["enum"],
        json!([
            "spend_30d",
            "revenue_30d",
            "customers_30d",
            "cac",
            "ltv",
            "ltv_cac",
            "visits_30d",
            "leads_30d",
            "pending_cards"
        ])
    );
    assert_eq!(
        schemas["WidgetSeries"]["enum"],
        json!(["spend", "revenue", "visits", "leads", "customers"])
    );
    assert_eq!(
        schemas["WidgetMeasure"]["enum"],
        json!(["spend", "revenue_first", "revenue_last"])
    );
    let layout = &schemas["WidgetLayout"];
    assert_eq!(
        strings(&layout["required"]),
        BTreeSet::from(["x", "y", "w", "h"])
    );
    let bounds: Vec<(i64, i64)> = ["x", "y", "w", "h"]
        .iter()
        .map(|k| {
            let p = &layout["properties"][*k];
            (
                p["minimum"].as_i64().unwrap(),
                p["maximum"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(bounds, [(0, 11), (0, 500), (1, 12), (1, 60)]);
    let create = &schemas["CreateDashboardRequest"];
    assert_eq!(strings(&create["required"]), BTreeSet::from(["name"]));
    assert_eq!(create["properties"]["prompt"]["minLength"], 3);
    assert_eq!(create["properties"]["prompt"]["maxLength"], 500);
    assert_eq!(create["properties"]["description"]["maxLength"], 300);
    assert_eq!(create["properties"]["name"]["maxLength"], 80);
}

backend_tests!(the_document_describes_dashboards_as_the_spec_does);
