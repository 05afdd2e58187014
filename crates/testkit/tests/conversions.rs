//! Conversion definitions: upsert by key, list with 30-day volume and value, deletion, audit,
//! every validation rule, and the report (current against previous window, channel split)
//! checked against an oracle computed straight from the synthetic events, on both backends.

#![allow(clippy::unwrap_used)]

use std::collections::{BTreeMap, HashMap};

use payback_domain::span::Span;
use payback_domain::{Clock, DAY_MS, Stage, Timestamp};
use payback_store::Db;
use payback_testkit::synthetic::{self, Dataset, SynthConfig, SynthEvent};
use payback_testkit::{TestApp, backend_tests};
use serde_json::{Value, json};

async fn setup(app: &TestApp) -> (String, String) {
    let session = app.signup_verified("founder@example.com").await;
    let key = app.api_key(&session).await;
    app.create_product(&key, "shop").await;
    (session.token, key)
}

async fn save(app: &TestApp, token: &str, body: Value) -> Value {
    app.post("/products/shop/conversions", Some(token), body)
        .await
        .expect(200)["conversion"]
        .clone()
}

async fn send(app: &TestApp, key: &str, events: Value) {
    app.post(
        "/products/shop/events",
        Some(key),
        json!({ "events": events }),
    )
    .await
    .expect(200);
}

fn at(days_ago: i64, hour: i64) -> String {
    let now = Timestamp::parse_rfc3339("2026-11-21T00:00:00Z").unwrap();
    now.minus_millis(days_ago * DAY_MS)
        .plus_millis(hour * 3_600_000)
        .to_rfc3339()
}

async fn definitions_are_upserted_listed_and_deleted(app: TestApp) {
    let (token, key) = setup(&app).await;
    let first = save(
        &app,
        &token,
        json!({"key": "demo_booked", "label": "Demo booked", "tier": "secondary", "stage": "lead"}),
    )
    .await;
    assert_eq!(
        first,
        json!({
            "key": "demo_booked", "label": "Demo booked", "tier": "secondary", "stage": "lead",
            "source": null, "event_name": null, "value_mode": "none", "fixed_value_cents": null,
            "currency": null, "score_mode": "none", "target_cpa_cents": null, "grade_weights": null,
            "is_active": true, "created_at": "2026-11-21T12:00:00.000Z", "updated_at": "2026-11-21T12:00:00.000Z",
        })
    );
    app.clock.advance(60_000);
    let paid = json!({
        "key": "paid-plan", "label": "Paid plan", "tier": "primary", "stage": "payment",
        "source": "payments", "event_name": "subscription", "value_mode": "transaction",
        "currency": "usd", "score_mode": "numeric", "target_cpa_cents": 12000,
        "grade_weights": {"A": 1.0, "B": 0.5}, "is_active": false,
    });
    let second = save(&app, &key, paid).await;
    assert_eq!(second["currency"], "USD");
    assert_eq!(second["grade_weights"], json!({"A": 1.0, "B": 0.5}));
    assert_eq!(second["is_active"], false);
    assert_eq!(second["source"], "payments");

    // Upsert replaces every field; omitted optional fields fall back to their defaults, the
    // creation time stays.
    app.clock.advance(60_000);
    let replaced = save(
        &app,
        &token,
        json!({"key": "demo_booked", "label": "Demo held", "tier": "primary", "stage": "qualified",
               "value_mode": "fixed", "fixed_value_cents": 2500, "event_name": "demo"}),
    )
    .await;
    assert_eq!(replaced["label"], "Demo held");
    assert_eq!(replaced["tier"], "primary");
    assert_eq!(replaced["stage"], "qualified");
    assert_eq!(replaced["fixed_value_cents"], 2500);
    assert_eq!(replaced["event_name"], "demo");
    assert_eq!(replaced["created_at"], "2026-11-21T12:00:00.000Z");
    assert_eq!(replaced["updated_at"], "2026-11-21T12:02:00.000Z");

    let list = app.get("/products/shop/conversions", Some(&token)).await;
    let list = list.expect(200)["conversions"].as_array().unwrap().clone();
    let keys: Vec<&str> = list.iter().map(|c| c["key"].as_str().unwrap()).collect();
    assert_eq!(keys, ["demo_booked", "paid-plan"], "oldest first");
    let mut expected_first = replaced.clone();
    expected_first["volume_30d"] = json!(0);
    expected_first["value_30d_cents"] = json!(0);
    assert_eq!(list[0], expected_first);
    assert_eq!(list[1]["volume_30d"], 0);

    let deleted = app
        .post(
            "/products/shop/conversions/paid-plan/delete",
            Some(&token),
            json!({}),
        )
        .await;
    assert_eq!(deleted.expect(200), &json!({"ok": true}));
    app.post(
        "/products/shop/conversions/paid-plan/delete",
        Some(&token),
        json!({}),
    )
    .await
    .expect_error(404, "conversion");
    app.post(
        "/products/shop/conversions/nope/delete",
        Some(&token),
        json!({}),
    )
    .await
    .expect_error(404, "conversion");
    let list = app.get("/products/shop/conversions", Some(&token)).await;
    assert_eq!(list.expect(200)["conversions"].as_array().unwrap().len(), 1);

    // Audited with who and through which door, newest first.
    let events = app.history(&token, "?product=shop").await;
    let trail: Vec<(&str, &str, &str)> = events
        .iter()
        .filter(|e| e["action"].as_str().unwrap().starts_with("conversion."))
        .map(|e| {
            (
                e["action"].as_str().unwrap(),
                e["actor"].as_str().unwrap(),
                e["via"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        trail,
        [
            ("conversion.delete", "founder@example.com", "dashboard"),
            ("conversion.upsert", "founder@example.com", "dashboard"),
            ("conversion.upsert", "keeper", "api"),
            ("conversion.upsert", "founder@example.com", "dashboard"),
        ]
    );
    let upserts: Vec<&Value> = events
        .iter()
        .filter(|e| e["action"] == "conversion.upsert")
        .collect();
    assert_eq!(upserts[0]["payload"]["created"], false);
    assert_eq!(upserts[0]["payload"]["before"]["label"], "Demo booked");
    assert_eq!(upserts[0]["payload"]["after"]["label"], "Demo held");
    assert_eq!(upserts[2]["payload"]["created"], true);
    assert_eq!(events[0]["payload"]["key"], "paid-plan");
    assert_eq!(events[0]["product_slug"], "shop");
}

async fn deleting_a_definition_leaves_events(app: TestApp) {
    let (token, key) = setup(&app).await;
    send(
        &app,
        &key,
        json!([{"dedupe_id": "l1", "stage": "lead", "user_id": "u1", "occurred_at": at(1, 9)}]),
    )
    .await;
    save(
        &app,
        &token,
        json!({"key": "leads", "label": "Leads", "tier": "secondary", "stage": "lead"}),
    )
    .await;
    app.post(
        "/products/shop/conversions/leads/delete",
        Some(&token),
        json!({}),
    )
    .await
    .expect(200);
    let again = save(
        &app,
        &token,
        json!({"key": "leads", "label": "Leads", "tier": "secondary", "stage": "lead"}),
    )
    .await;
    assert_eq!(again["key"], "leads");
    let list = app.get("/products/shop/conversions", Some(&token)).await;
    assert_eq!(list.expect(200)["conversions"][0]["volume_30d"], 1);
}

async fn every_rule_answers_400_naming_the_field(app: TestApp) {
    let (token, _) = setup(&app).await;
    let base = json!({"key": "k", "label": "L", "tier": "primary", "stage": "lead"});
    let with = |field: &str, value: Value| {
        let mut body = base.clone();
        body[field] = value;
        body
    };
    let without = |field: &str| {
        let mut body = base.clone();
        body.as_object_mut().unwrap().remove(field);
        body
    };
    let cases = [
        (without("key"), "key"),
        (without("label"), "label"),
        (without("tier"), "tier"),
        (without("stage"), "stage"),
        (with("key", json!("")), "key"),
        (with("key", json!("Has Caps")), "key"),
        (with("key", json!("k".repeat(61))), "key"),
        (with("key", json!("dots.no")), "key"),
        (with("label", json!("   ")), "label"),
        (with("label", json!("l".repeat(81))), "label"),
        (with("tier", json!("tertiary")), "tier"),
        (with("stage", json!("purchase")), "stage"),
        (with("source", json!("stripe")), "source"),
        (with("event_name", json!("")), "event_name"),
        (with("event_name", json!("n".repeat(121))), "event_name"),
        (with("value_mode", json!("sum")), "value_mode"),
        (with("value_mode", json!("fixed")), "fixed_value_cents"),
        (
            json!({"key": "k", "label": "L", "tier": "primary", "stage": "lead", "value_mode": "fixed", "fixed_value_cents": -1}),
            "fixed_value_cents",
        ),
        (with("fixed_value_cents", json!(100)), "fixed_value_cents"),
        (with("fixed_value_cents", json!(1.5)), "fixed_value_cents"),
        (with("currency", json!("EUR")), "currency"),
        (with("currency", json!("dollars")), "currency"),
        (with("score_mode", json!("letters")), "score_mode"),
        (with("target_cpa_cents", json!(-5)), "target_cpa_cents"),
        (with("grade_weights", json!([1, 2])), "grade_weights"),
        (
            with("grade_weights", json!({"x": "y".repeat(5000)})),
            "grade_weights",
        ),
        (with("is_active", json!("yes")), "is_active"),
        (with("value_mod", json!("fixed")), "value_mod"),
    ];
    for (body, field) in cases {
        let reply = app
            .post("/products/shop/conversions", Some(&token), body.clone())
            .await;
        reply.expect_error(400, field);
    }
    let list = app.get("/products/shop/conversions", Some(&token)).await;
    assert_eq!(list.expect(200)["conversions"], json!([]), "nothing stored");
    // Null is "not set" for every optional field.
    let nulls = json!({"key": "k", "label": "L", "tier": "primary", "stage": "lead", "source": null,
        "event_name": null, "value_mode": null, "fixed_value_cents": null, "currency": null,
        "score_mode": null, "target_cpa_cents": null, "grade_weights": null, "is_active": null});
    let saved = save(&app, &token, nulls).await;
    assert_eq!(saved["value_mode"], "none");
    assert_eq!(saved["is_active"], true);
}

async fn doors_are_guarded(app: TestApp) {
    let (token, _) = setup(&app).await;
    save(
        &app,
        &token,
        json!({"key": "leads", "label": "Leads", "tier": "secondary", "stage": "lead"}),
    )
    .await;
    let body = json!({"key": "x", "label": "X", "tier": "primary", "stage": "lead"});
    let stranger = app.signup_verified("stranger@example.com").await;
    let stranger_key = app.api_key(&stranger).await;
    for credential in [Some(stranger.token.as_str()), Some(stranger_key.as_str())] {
        app.get("/products/shop/conversions", credential)
            .await
            .expect_error(404, "product");
        app.post("/products/shop/conversions", credential, body.clone())
            .await
            .expect_error(404, "product");
        app.post(
            "/products/shop/conversions/leads/delete",
            credential,
            json!({}),
        )
        .await
        .expect_error(404, "product");
        app.get("/products/shop/conversions/report", credential)
            .await
            .expect_error(404, "product");
    }
    app.get("/products/shop/conversions", None)
        .await
        .expect_error(401, "bearer");
    app.post("/products/shop/conversions", None, body)
        .await
        .expect_error(401, "bearer");
    app.post("/products/shop/conversions/leads/delete", None, json!({}))
        .await
        .expect_error(401, "bearer");
    app.get("/products/shop/conversions/report", None)
        .await
        .expect_error(401, "bearer");
    for bad in ["0", "3651", "-1", "week"] {
        app.get(
            &format!("/products/shop/conversions/report?days={bad}"),
            Some(&token),
        )
        .await
        .expect_error(400, "days");
    }
    let list = app.get("/products/shop/conversions", Some(&token)).await;
    assert_eq!(
        list.expect(200)["conversions"].as_array().unwrap().len(),
        1,
        "the stranger changed nothing"
    );
}

/// Hand-made events: names, own channels, first-touch fallback, unattributed, windows.
async fn names_channels_and_windows(app: TestApp) {
    let (token, key) = setup(&app).await;
    send(
        &app,
        &key,
        json!([
            // u1 first came through a podcast; their later demo carries no channel of its own.
            {"dedupe_id": "v1", "stage": "visit", "user_id": "u1", "occurred_at": at(20, 9), "attribution": {"channel": "podcast"}},
            {"dedupe_id": "d1", "stage": "lead", "name": "demo", "user_id": "u1", "occurred_at": at(2, 9)},
            {"dedupe_id": "o1", "stage": "lead", "name": "ebook", "user_id": "u1", "occurred_at": at(2, 10)},
            // u2's demo carries its own channel, which wins over u2's first touch.
            {"dedupe_id": "v2", "stage": "visit", "user_id": "u2", "occurred_at": at(25, 9), "attribution": {"channel": "podcast"}},
            {"dedupe_id": "d2", "stage": "lead", "name": "demo", "user_id": "u2", "occurred_at": at(1, 9),
             "attribution": {"utm_source": "newsletter", "utm_medium": "email"}},
            // No identity and no channel; an identity that never had a channel.
            {"dedupe_id": "d3", "stage": "lead", "name": "demo", "occurred_at": at(3, 9)},
            {"dedupe_id": "d4", "stage": "lead", "name": "demo", "anonymous_id": "a4", "occurred_at": at(4, 9)},
            // The previous 7-day window: two demos.
            {"dedupe_id": "d5", "stage": "lead", "name": "demo", "user_id": "u1", "occurred_at": at(9, 9)},
            {"dedupe_id": "d6", "stage": "lead", "name": "demo", "occurred_at": at(12, 9)},
            // Outside both 7-day windows.
            {"dedupe_id": "d7", "stage": "lead", "name": "demo", "occurred_at": at(15, 9)},
            // Revenue, including a refund.
            {"dedupe_id": "p1", "stage": "payment", "user_id": "u1", "value": 4900, "occurred_at": at(2, 11)},
            {"dedupe_id": "p2", "stage": "payment", "user_id": "u2", "value": 9900, "occurred_at": at(1, 11)},
            {"dedupe_id": "p3", "stage": "payment", "user_id": "u2", "value": -9900, "occurred_at": at(0, 11)},
            {"dedupe_id": "p4", "stage": "payment", "user_id": "u1", "value": 1900, "occurred_at": at(10, 11)},
        ]),
    )
    .await;
    for body in [
        json!({"key": "demo", "label": "Demo", "tier": "secondary", "stage": "lead", "event_name": "demo",
               "value_mode": "fixed", "fixed_value_cents": 2500}),
        json!({"key": "leads", "label": "Leads", "tier": "secondary", "stage": "lead"}),
        json!({"key": "revenue", "label": "Revenue", "tier": "primary", "stage": "payment", "value_mode": "transaction"}),
        json!({"key": "paused", "label": "Paused", "tier": "secondary", "stage": "lead", "is_active": false}),
        json!({"key": "db-signups", "label": "DB signups", "tier": "secondary", "stage": "signup", "source": "sql_a"}),
        json!({"key": "signups", "label": "Signups", "tier": "secondary", "stage": "signup"}),
    ] {
        // Definitions list oldest first; same-millisecond ties would fall back to the key.
        app.clock.advance(1_000);
        save(&app, &token, body).await;
    }
    // A database source's daily aggregate rows: only a definition naming the source reads them.
    let product = app.get("/products/shop", Some(&token)).await;
    let product_id = product.body["product_id"].as_str().unwrap().to_owned();
    let insert = "INSERT INTO aggregate_stage_days (product_id, day, stage, source, volume) VALUES ($1, $2, 'signup', $3, $4)";
    for (day, source, volume) in [
        ("2026-11-20", "sql_a", 5_i64),
        ("2026-11-10", "sql_a", 2),
        ("2026-11-20", "sql_b", 7),
    ] {
        match &app.state.store {
            Db::Sqlite(pool) => sqlx::query(insert)
                .bind(&product_id)
                .bind(day)
                .bind(source)
                .bind(volume)
                .execute(pool)
                .await
                .map(drop)
                .unwrap(),
            Db::Postgres(pool) => sqlx::query(insert)
                .bind(&product_id)
                .bind(day)
                .bind(source)
                .bind(volume)
                .execute(pool)
                .await
                .map(drop)
                .unwrap(),
        }
    }

    let report = app
        .get("/products/shop/conversions/report?days=7", Some(&token))
        .await;
    let report = report.expect(200).clone();
    assert_eq!(report["window_days"], 7);
    let entries = report["conversions"].as_array().unwrap();
    let keys: Vec<&str> = entries.iter().map(|e| e["key"].as_str().unwrap()).collect();
    assert_eq!(
        keys,
        ["demo", "leads", "revenue", "db-signups", "signups"],
        "active definitions only, oldest first"
    );
    assert_eq!(
        entries[0],
        json!({
            "key": "demo", "label": "Demo", "tier": "secondary", "stage": "lead",
            "current": {"count": 4, "value_cents": 10000},
            "previous": {"count": 2, "value_cents": 5000},
            "change_pct": 100.0,
            "channels": [
                {"channel": "unattributed", "count": 2, "value_cents": 5000},
                {"channel": "email", "count": 1, "value_cents": 2500},
                {"channel": "podcast", "count": 1, "value_cents": 2500},
            ],
        })
    );
    assert_eq!(entries[1]["current"], json!({"count": 5, "value_cents": 0}));
    assert_eq!(
        entries[1]["channels"],
        json!([
            {"channel": "podcast", "count": 2, "value_cents": 0},
            {"channel": "unattributed", "count": 2, "value_cents": 0},
            {"channel": "email", "count": 1, "value_cents": 0},
        ])
    );
    assert_eq!(entries[1]["change_pct"], 150.0);
    assert_eq!(
        entries[2]["current"],
        json!({"count": 3, "value_cents": 4900})
    );
    assert_eq!(
        entries[2]["previous"],
        json!({"count": 1, "value_cents": 1900})
    );
    assert_eq!(
        entries[2]["channels"],
        json!([{"channel": "podcast", "count": 3, "value_cents": 4900}])
    );
    assert_eq!(entries[2]["change_pct"], 200.0);
    assert_eq!(entries[3]["current"], json!({"count": 5, "value_cents": 0}));
    assert_eq!(
        entries[3]["previous"],
        json!({"count": 2, "value_cents": 0})
    );
    assert_eq!(
        entries[3]["channels"],
        json!([{"channel": "unattributed", "count": 5, "value_cents": 0}])
    );
    assert_eq!(entries[4]["current"], json!({"count": 0, "value_cents": 0}));
    assert_eq!(entries[4]["change_pct"], Value::Null, "no previous count");
    assert_eq!(entries[4]["channels"], json!([]));

    // The list: 30 days, every definition (the paused one too).
    let list = app.get("/products/shop/conversions", Some(&token)).await;
    let list = list.expect(200)["conversions"].as_array().unwrap().clone();
    let volumes: Vec<(&str, i64, i64)> = list
        .iter()
        .map(|c| {
            (
                c["key"].as_str().unwrap(),
                c["volume_30d"].as_i64().unwrap(),
                c["value_30d_cents"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        volumes,
        [
            ("demo", 7, 17500),
            ("leads", 8, 0),
            ("revenue", 4, 6800),
            ("paused", 8, 0),
            ("db-signups", 7, 0),
            ("signups", 0, 0),
        ]
    );
}

/// Canonical identities and first touches, resolved from the dataset alone.
struct Oracle {
    identity: Vec<Option<String>>,
    first_touch: HashMap<String, &'static str>,
}

impl Oracle {
    fn new(events: &[SynthEvent]) -> Self {
        // An anonymous id seen with a user id belongs to that user; the first link wins.
        let mut links: HashMap<&str, &str> = HashMap::new();
        for event in events {
            if let (Some(anonymous), Some(user)) = (&event.anonymous_id, &event.user_id) {
                links.entry(anonymous).or_insert(user);
            }
        }
        let identity: Vec<Option<String>> = events
            .iter()
            .map(|e| match (&e.user_id, &e.anonymous_id) {
                (Some(user), _) => Some(format!("u:{user}")),
                (None, Some(anonymous)) => Some(match links.get(anonymous.as_str()) {
                    Some(user) => format!("u:{user}"),
                    None => format!("a:{anonymous}"),
                }),
                (None, None) => None,
            })
            .collect();
        // First touch: the channel of the identity's earliest event with one (ties: the event
        // that arrived first).
        let mut earliest: HashMap<String, (Timestamp, &'static str)> = HashMap::new();
        for (event, id) in events.iter().zip(&identity) {
            let (Some(id), Some(channel)) = (id, event.intended_channel) else {
                continue;
            };
            let entry = earliest
                .entry(id.clone())
                .or_insert((event.occurred_at, channel));
            if event.occurred_at < entry.0 {
                *entry = (event.occurred_at, channel);
            }
        }
        let first_touch = earliest.into_iter().map(|(k, (_, c))| (k, c)).collect();
        Self {
            identity,
            first_touch,
        }
    }
}

/// What `count` events carrying `amount` in total are worth under a definition's value mode.
type Valuer<'a> = &'a dyn Fn(i64, i64) -> i64;

/// What a definition should report for `days`, computed from the events.
struct Expected {
    current: (i64, i64),
    previous: (i64, i64),
    channels: BTreeMap<String, (i64, i64)>,
}

fn expected(
    dataset: &Dataset,
    oracle: &Oracle,
    stage: Stage,
    value: Valuer,
    days: i64,
) -> Expected {
    let span = Span::days_ending(dataset.now, days);
    let previous = span.previous();
    let mut current = (0, 0);
    let mut before = (0, 0);
    let mut channels: BTreeMap<String, (i64, i64)> = BTreeMap::new();
    for (event, id) in dataset.events.iter().zip(&oracle.identity) {
        if event.stage != stage {
            continue;
        }
        let amount = event.value.unwrap_or(0);
        let in_window = |s: Span| s.start <= event.occurred_at && event.occurred_at < s.end;
        if in_window(span) {
            current.0 += 1;
            current.1 += amount;
            let channel = event
                .intended_channel
                .or_else(|| {
                    id.as_ref()
                        .and_then(|id| oracle.first_touch.get(id).copied())
                })
                .unwrap_or("unattributed");
            let entry = channels.entry(channel.to_owned()).or_default();
            entry.0 += 1;
            entry.1 += amount;
        } else if in_window(previous) {
            before.0 += 1;
            before.1 += amount;
        }
    }
    Expected {
        current: (current.0, value(current.0, current.1)),
        previous: (before.0, value(before.0, before.1)),
        channels: channels
            .into_iter()
            .map(|(c, (n, amount))| (c, (n, value(n, amount))))
            .collect(),
    }
}

fn expected_json(key: &str, stage: Stage, e: &Expected) -> Value {
    let mut channels: Vec<(&String, &(i64, i64))> = e.channels.iter().collect();
    channels.sort_by(|a, b| b.1.0.cmp(&a.1.0).then_with(|| a.0.cmp(b.0)));
    let change = (e.previous.0 != 0).then(|| {
        let pct = (e.current.0 - e.previous.0) as f64 / e.previous.0 as f64 * 100.0;
        (pct * 10.0).round() / 10.0
    });
    json!({
        "key": key, "label": key, "tier": "secondary", "stage": stage.as_str(),
        "current": {"count": e.current.0, "value_cents": e.current.1},
        "previous": {"count": e.previous.0, "value_cents": e.previous.1},
        "change_pct": change,
        "channels": channels.iter().map(|(c, (n, v))| json!({"channel": c, "count": n, "value_cents": v})).collect::<Vec<_>>(),
    })
}

async fn synthetic_volumes_values_and_channels_match_the_oracle(app: TestApp) {
    for (index, seed) in [3_u64, 11, 29].into_iter().enumerate() {
        let session = app
            .signup_verified(&format!("founder{index}@example.com"))
            .await;
        let key = app.api_key(&session).await;
        let slug = format!("synth-{seed}");
        app.create_product(&key, &slug).await;
        let config = SynthConfig {
            seed,
            identities: 120,
            days: 90,
        };
        let dataset = synthetic::generate(config, app.clock.now());
        dataset.load(&app, &key, &slug).await;
        let oracle = Oracle::new(&dataset.events);

        let none = |_: i64, _: i64| 0;
        let transaction = |_: i64, amount: i64| amount;
        let fixed = |n: i64, _: i64| n * 1500;
        let definitions: [(&str, Stage, Value, Valuer); 5] = [
            ("visits", Stage::Visit, json!({}), &none),
            ("signups", Stage::Signup, json!({}), &none),
            (
                "purchases",
                Stage::Converted,
                json!({"value_mode": "transaction"}),
                &transaction,
            ),
            (
                "payments",
                Stage::Payment,
                json!({"value_mode": "fixed", "fixed_value_cents": 1500}),
                &fixed,
            ),
            (
                "payment-revenue",
                Stage::Payment,
                json!({"value_mode": "transaction"}),
                &transaction,
            ),
        ];
        for (name, stage, extra, _) in &definitions {
            let mut body =
                json!({"key": name, "label": name, "tier": "secondary", "stage": stage.as_str()});
            for (field, value) in extra.as_object().unwrap() {
                body[field] = value.clone();
            }
            let path = format!("/products/{slug}/conversions");
            app.clock.advance(1);
            app.post(&path, Some(&key), body).await.expect(200);
        }
        // Synthetic events carry no names and no source wrote anything: both read 0.
        for body in [
            json!({"key": "named", "label": "named", "tier": "secondary", "stage": "visit", "event_name": "pricing"}),
            json!({"key": "from-db", "label": "from-db", "tier": "secondary", "stage": "signup", "source": "sql_a"}),
        ] {
            let path = format!("/products/{slug}/conversions");
            app.clock.advance(1);
            app.post(&path, Some(&key), body).await.expect(200);
        }

        let list = app
            .get(&format!("/products/{slug}/conversions"), Some(&key))
            .await;
        let list = list.expect(200)["conversions"].as_array().unwrap().clone();
        for (position, (name, stage, _, value)) in definitions.iter().enumerate() {
            let e = expected(&dataset, &oracle, *stage, *value, 30);
            assert_eq!(list[position]["key"], *name);
            assert_eq!(
                (
                    list[position]["volume_30d"].as_i64().unwrap(),
                    list[position]["value_30d_cents"].as_i64().unwrap()
                ),
                e.current,
                "seed {seed}: {name} list"
            );
            assert!(e.current.0 > 0, "seed {seed}: {name} has data to check");
        }
        for position in [5, 6] {
            assert_eq!(list[position]["volume_30d"], 0, "seed {seed}");
            assert_eq!(list[position]["value_30d_cents"], 0, "seed {seed}");
        }

        for days in [7, 30, 45] {
            let report = app
                .get(
                    &format!("/products/{slug}/conversions/report?days={days}"),
                    Some(&key),
                )
                .await;
            let report = report.expect(200).clone();
            assert_eq!(report["window_days"], days);
            for (position, (name, stage, _, value)) in definitions.iter().enumerate() {
                let e = expected(&dataset, &oracle, *stage, *value, days);
                assert_eq!(
                    report["conversions"][position],
                    expected_json(name, *stage, &e),
                    "seed {seed}, days {days}: {name}"
                );
            }
            assert_eq!(report["conversions"][5]["current"]["count"], 0);
            assert_eq!(report["conversions"][6]["channels"], json!([]));
        }
    }
}

backend_tests!(
    definitions_are_upserted_listed_and_deleted,
    deleting_a_definition_leaves_events,
    every_rule_answers_400_naming_the_field,
    doors_are_guarded,
    names_channels_and_windows,
    synthetic_volumes_values_and_channels_match_the_oracle,
);
