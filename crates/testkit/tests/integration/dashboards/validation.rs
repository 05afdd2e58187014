//! Every rule answers 400 naming the field (`spec.widgets[3].layout.w: ...`), on creation,
//! edits and generation, and a refused request stores nothing.

use super::*;

/// What a case does to the base body at a JSON pointer.
enum Change {
    Set(&'static str, Value),
    Remove(&'static str),
    /// Replaces the whole body.
    Body(Value),
}

fn apply(base: &Value, change: &Change) -> Value {
    let mut body = base.clone();
    match change {
        Change::Set(pointer, value) => {
            let (parent, key) = pointer.rsplit_once('/').unwrap();
            body.pointer_mut(parent).unwrap()[key] = value.clone();
        }
        Change::Remove(pointer) => {
            let (parent, key) = pointer.rsplit_once('/').unwrap();
            body.pointer_mut(parent)
                .unwrap()
                .as_object_mut()
                .unwrap()
                .remove(key);
        }
        Change::Body(value) => body = value.clone(),
    }
    body
}

/// 400 whose message starts with `field` and says `words`.
#[track_caller]
fn refused(reply: &payback_testkit::Reply, field: &str, words: &str, case: &str) {
    assert_eq!(reply.status, 400, "{case}: {}", reply.text);
    let error = reply.body["error"].as_str().unwrap();
    assert!(
        error.starts_with(field) && error.contains(words),
        "{case}: {error:?} should name {field:?} and say {words:?}"
    );
}

fn many_widgets(n: usize) -> Value {
    let widgets: Vec<Value> = (0..n)
        .map(|i| json!({"id": format!("w{i}"), "type": "payback"}))
        .collect();
    Value::Array(widgets)
}

/// `(change, field the error starts with, words it says)` for a body `{name, spec}`.
fn spec_cases() -> Vec<(Change, &'static str, &'static str)> {
    use Change::{Remove, Set};
    let layout = |x: i64, y: i64, w: i64, h: i64| json!({"x": x, "y": y, "w": w, "h": h});
    vec![
        (Remove("/spec/widgets"), "spec", "missing field `widgets`"),
        (
            Set("/spec/widgets", many_widgets(25)),
            "spec.widgets:",
            "at most 24 widgets, got 25",
        ),
        (
            Set("/spec/colour", json!("red")),
            "spec",
            "unknown field `colour`",
        ),
        (
            Set("/spec/widgets/0/id", json!("")),
            "spec.widgets[0].id:",
            "1-40",
        ),
        (
            Set("/spec/widgets/0/id", json!("x".repeat(41))),
            "spec.widgets[0].id:",
            "got 41",
        ),
        (
            Set("/spec/widgets/1/id", json!("spend")),
            "spec.widgets[1].id:",
            "widgets[0]",
        ),
        (
            Remove("/spec/widgets/0/id"),
            "spec.widgets[0]",
            "missing field `id`",
        ),
        (
            Remove("/spec/widgets/0/type"),
            "spec.widgets[0]",
            "missing field `type`",
        ),
        (
            Set("/spec/widgets/0/type", json!("pie")),
            "spec.widgets[0].type:",
            "unknown variant",
        ),
        (
            Set("/spec/widgets/0/title", json!("t".repeat(81))),
            "spec.widgets[0].title:",
            "80",
        ),
        (
            Set("/spec/widgets/0/size", json!("xl")),
            "spec.widgets[0].size:",
            "unknown variant",
        ),
        (
            Set("/spec/widgets/0/colour", json!(1)),
            "spec.widgets[0]",
            "unknown field `colour`",
        ),
        (
            Set("/spec/widgets/0/layout", layout(-1, 0, 3, 2)),
            "spec.widgets[0].layout.x:",
            "0-11",
        ),
        (
            Set("/spec/widgets/0/layout", layout(12, 0, 1, 2)),
            "spec.widgets[0].layout.x:",
            "got 12",
        ),
        (
            Set("/spec/widgets/0/layout", layout(0, -1, 3, 2)),
            "spec.widgets[0].layout.y:",
            "0-500",
        ),
        (
            Set("/spec/widgets/0/layout", layout(0, 501, 3, 2)),
            "spec.widgets[0].layout.y:",
            "0-500",
        ),
        (
            Set("/spec/widgets/0/layout", layout(0, 0, 0, 2)),
            "spec.widgets[0].layout.w:",
            "1-12",
        ),
        (
            Set("/spec/widgets/0/layout", layout(0, 0, 13, 2)),
            "spec.widgets[0].layout.w:",
            "1-12",
        ),
        (
            Set("/spec/widgets/0/layout", layout(8, 0, 6, 2)),
            "spec.widgets[0].layout.w:",
            "x + w",
        ),
        (
            Set("/spec/widgets/0/layout", layout(0, 0, 3, 0)),
            "spec.widgets[0].layout.h:",
            "1-60",
        ),
        (
            Set("/spec/widgets/0/layout", layout(0, 0, 3, 61)),
            "spec.widgets[0].layout.h:",
            "1-60",
        ),
        (
            Remove("/spec/widgets/0/layout/x"),
            "spec.widgets[0].layout",
            "missing field `x`",
        ),
        (
            Remove("/spec/widgets/0/layout/y"),
            "spec.widgets[0].layout",
            "missing field `y`",
        ),
        (
            Remove("/spec/widgets/0/layout/w"),
            "spec.widgets[0].layout",
            "missing field `w`",
        ),
        (
            Remove("/spec/widgets/0/layout/h"),
            "spec.widgets[0].layout",
            "missing field `h`",
        ),
        (
            Set("/spec/widgets/0/layout/x", json!("1")),
            "spec.widgets[0].layout.x:",
            "invalid type",
        ),
        (
            Set("/spec/widgets/0/layout/w", json!(1.5)),
            "spec.widgets[0].layout.w:",
            "invalid type",
        ),
        // Each type's required field and allowed values.
        (
            Remove("/spec/widgets/0/metric"),
            "spec.widgets[0].metric:",
            "required for a metric widget",
        ),
        (
            Set("/spec/widgets/0/metric", json!("roas")),
            "spec.widgets[0].metric:",
            "unknown variant",
        ),
        (
            Remove("/spec/widgets/2/series"),
            "spec.widgets[2].series:",
            "required for a timeseries widget",
        ),
        (
            Set("/spec/widgets/2/series", json!("ctr")),
            "spec.widgets[2].series:",
            "unknown variant",
        ),
        (
            Remove("/spec/widgets/6/measure"),
            "spec.widgets[6].measure:",
            "required for a breakdown widget",
        ),
        (
            Set("/spec/widgets/6/measure", json!("clicks")),
            "spec.widgets[6].measure:",
            "unknown variant",
        ),
        (
            Remove("/spec/widgets/7/text"),
            "spec.widgets[7].text:",
            "required for a note widget",
        ),
        (
            Set("/spec/widgets/7/text", json!("é".repeat(2001))),
            "spec.widgets[7].text:",
            "2000",
        ),
        // Fields of another type.
        (
            Set("/spec/widgets/0/days", json!(30)),
            "spec.widgets[0].days:",
            "not a field of a metric widget",
        ),
        (
            Set("/spec/widgets/4/text", json!("x")),
            "spec.widgets[4].text:",
            "not a field of a payback widget",
        ),
        (
            Set("/spec/widgets/5/days", json!(7)),
            "spec.widgets[5].days:",
            "not a field of a queue widget",
        ),
        (
            Set("/spec/widgets/3/series", json!("spend")),
            "spec.widgets[3].series:",
            "not a field of a funnel widget",
        ),
        (
            Set("/spec/widgets/7/metric", json!("cac")),
            "spec.widgets[7].metric:",
            "not a field of a note widget",
        ),
        (
            Set("/spec/widgets/2/measure", json!("spend")),
            "spec.widgets[2].measure:",
            "not a field of a timeseries widget",
        ),
        // `days` 1-365.
        (
            Set("/spec/widgets/2/days", json!(0)),
            "spec.widgets[2].days:",
            "1-365",
        ),
        (
            Set("/spec/widgets/3/days", json!(366)),
            "spec.widgets[3].days:",
            "got 366",
        ),
        (
            Set("/spec/widgets/6/days", json!(-1)),
            "spec.widgets[6].days:",
            "1-365",
        ),
        (
            Set("/spec/widgets/6/days", json!("30")),
            "spec.widgets[6].days:",
            "invalid type",
        ),
    ]
}

async fn creation_refuses_each_rule_by_name(app: TestApp) {
    use Change::{Body, Remove, Set};
    let (token, _) = setup(&app).await;
    let base = json!({"name": "Board", "spec": full_spec()});
    let mut cases = vec![
        (Remove("/name"), "invalid JSON body", "missing field `name`"),
        (Set("/name", json!("")), "name:", "1-80"),
        (Set("/name", json!("   ")), "name:", "must not be blank"),
        (Set("/name", json!("n".repeat(81))), "name:", "got 81"),
        (Set("/name", json!(null)), "name:", "invalid type"),
        (
            Set("/description", json!("d".repeat(301))),
            "description:",
            "at most 300",
        ),
        (
            Set("/layout", json!({})),
            "layout",
            "unknown field `layout`",
        ),
        (
            Body(json!({"name": "P", "prompt": "ab"})),
            "prompt:",
            "3-500",
        ),
        (
            Body(json!({"name": "P", "prompt": "p".repeat(501)})),
            "prompt:",
            "got 501",
        ),
        (
            Body(json!({"name": "P", "prompt": "    "})),
            "prompt:",
            "must not be blank",
        ),
        (
            Body(json!({"name": "P", "prompt": 5})),
            "prompt:",
            "invalid type",
        ),
    ];
    cases.extend(spec_cases());
    for (change, field, words) in &cases {
        let body = apply(&base, change);
        let reply = app
            .post("/products/shop/dashboards", Some(&token), body.clone())
            .await;
        refused(&reply, field, words, &body.to_string());
    }
    let listed = app.get("/products/shop/dashboards", Some(&token)).await;
    assert_eq!(listed.expect(200), &json!([]), "nothing stored");
}

async fn edits_refuse_each_rule_by_name(app: TestApp) {
    use Change::{Body, Set};
    let (token, _) = setup(&app).await;
    let created = create(&app, &token, json!({"name": "Board", "spec": full_spec()})).await;
    let path = format!("/dashboards/{}", created["id"].as_str().unwrap());
    let base = json!({"name": "Board", "description": "d", "spec": full_spec()});
    let mut cases = vec![
        (
            Body(json!({})),
            "nothing to update",
            "name, description or spec",
        ),
        (
            Body(json!({"name": null, "spec": null})),
            "nothing to update",
            "",
        ),
        (Set("/name", json!("")), "name:", "1-80"),
        (Set("/name", json!(" ")), "name:", "must not be blank"),
        (Set("/name", json!("n".repeat(81))), "name:", "got 81"),
        (
            Set("/description", json!("d".repeat(301))),
            "description:",
            "at most 300",
        ),
        (
            Set("/prompt", json!("cac")),
            "prompt",
            "unknown field `prompt`",
        ),
    ];
    cases.extend(spec_cases());
    for (change, field, words) in &cases {
        let body = apply(&base, change);
        let reply = app.post(&path, Some(&token), body.clone()).await;
        refused(&reply, field, words, &body.to_string());
    }
    let listed = app.get("/products/shop/dashboards", Some(&token)).await;
    assert_eq!(listed.expect(200), &json!([created]), "nothing changed");
}

async fn generation_refuses_a_bad_prompt_by_name(app: TestApp) {
    let (token, _) = setup(&app).await;
    let cases = [
        (json!({}), "invalid JSON body", "missing field `prompt`"),
        (
            json!({"prompt": "ab"}),
            "prompt:",
            "must be 3-500 characters, got 2",
        ),
        (json!({"prompt": "p".repeat(501)}), "prompt:", "got 501"),
        (json!({"prompt": "   "}), "prompt:", "must not be blank"),
        (json!({"prompt": null}), "prompt:", "invalid type"),
        (
            json!({"prompt": "cac", "spec": {}}),
            "spec",
            "unknown field `spec`",
        ),
    ];
    for (body, field, words) in cases {
        let reply = app
            .post(
                "/products/shop/dashboards/generate",
                Some(&token),
                body.clone(),
            )
            .await;
        refused(&reply, field, words, &body.to_string());
    }
    // The edges are taken.
    for prompt in ["cac".to_owned(), "p".repeat(500)] {
        app.post(
            "/products/shop/dashboards/generate",
            Some(&token),
            json!({ "prompt": prompt }),
        )
        .await
        .expect(200);
    }
}

backend_tests!(
    creation_refuses_each_rule_by_name,
    edits_refuse_each_rule_by_name,
    generation_refuses_a_bad_prompt_by_name,
);
