//! CSV exports of events and revenue rows: every column of every row against what was sent,
//! quoting of commas, quotes and line breaks, formula neutralization, streaming past one page,
//! headers, and the auth answers, on both backends.

use std::collections::{BTreeMap, BTreeSet};

use payback_testkit::{Reply, TestApp, backend_tests};
use serde_json::{Value, json};

const EVENT_HEADER: &[&str] = &[
    "id",
    "occurred_at",
    "day",
    "namespace",
    "dedupe_id",
    "stage",
    "name",
    "identity",
    "anonymous_id",
    "user_id",
    "email",
    "value_cents",
    "currency",
    "channel",
    "utm_source",
    "utm_medium",
    "utm_campaign",
    "utm_content",
    "utm_term",
    "gclid",
    "fbclid",
    "referrer",
    "landing_url",
    "properties",
];

const TRANSACTION_HEADER: &[&str] = &[
    "id",
    "occurred_at",
    "day",
    "source",
    "source_ref",
    "kind",
    "stage",
    "identity",
    "amount_cents",
    "currency",
    "first_channel",
    "last_channel",
];

/// A parsed CSV: its header and each record as column -> value.
struct Csv {
    header: Vec<String>,
    rows: Vec<BTreeMap<String, String>>,
}

fn parse(text: &str) -> Csv {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_owned)
        .collect();
    let rows = reader
        .records()
        .map(|record| {
            let record = record.unwrap();
            assert_eq!(record.len(), header.len(), "ragged record {record:?}");
            header
                .iter()
                .cloned()
                .zip(record.iter().map(str::to_owned))
                .collect()
        })
        .collect();
    Csv { header, rows }
}

async fn export(app: &TestApp, key: &str, slug: &str, what: &str) -> Csv {
    let reply = app
        .get(&format!("/products/{slug}/export/{what}.csv"), Some(key))
        .await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    parse(&reply.text)
}

async fn setup(app: &TestApp) -> String {
    let session = app.signup_verified("founder@example.com").await;
    let key = app.api_key(&session).await;
    app.create_product(&key, "shop").await;
    app.post("/products/shop", Some(&key), json!({"domain": "shop.test"}))
        .await
        .expect(200);
    key
}

async fn send(app: &TestApp, key: &str, events: &[Value]) {
    app.post(
        "/products/shop/events",
        Some(key),
        json!({ "events": events }),
    )
    .await
    .expect(200);
}

/// What a spreadsheet must not run: the export prefixes such text cells with `'`.
fn neutral(text: &str) -> String {
    if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{text}")
    } else {
        text.to_owned()
    }
}

/// One hand-made event with the identity and channel it must end up with.
struct Sent {
    event: Value,
    identity: Option<&'static str>,
    channel: Option<&'static str>,
}

fn sent(event: Value, identity: Option<&'static str>, channel: Option<&'static str>) -> Sent {
    Sent {
        event,
        identity,
        channel,
    }
}

fn dataset() -> Vec<Sent> {
    vec![
        sent(
            json!({"dedupe_id": "v1", "stage": "visit", "anonymous_id": "a1", "occurred_at": "2026-11-20T10:00:00.000Z",
                   "name": "Landing, \"hero\"\nline two",
                   "properties": {"note": "comma, \"quote\"\nnewline", "n": 1},
                   "attribution": {"utm_source": "google", "utm_medium": "cpc", "utm_campaign": "Spring, \"Big\" sale",
                                   "utm_term": "red shoes", "utm_content": "ad one", "gclid": "G1",
                                   "landing_url": "https://shop.test/?q=1,2"}}),
            Some("u:u1"),
            Some("paid_google"),
        ),
        sent(
            json!({"dedupe_id": "s1", "stage": "signup", "anonymous_id": "a1", "user_id": "u1",
                   "email": "Ann@Example.COM", "occurred_at": "2026-11-20T10:05:00.000Z"}),
            Some("u:u1"),
            None,
        ),
        sent(
            json!({"dedupe_id": "p1", "stage": "payment", "user_id": "u1", "value": 4900,
                   "occurred_at": "2026-11-20T11:00:00.000Z"}),
            Some("u:u1"),
            None,
        ),
        sent(
            json!({"dedupe_id": "e1", "stage": "visit", "user_id": "u1", "occurred_at": "2026-11-20T12:00:00.000Z",
                   "attribution": {"utm_source": "newsletter", "utm_medium": "email", "utm_campaign": "digest"}}),
            Some("u:u1"),
            Some("email"),
        ),
        sent(
            json!({"dedupe_id": "p2", "stage": "payment", "user_id": "u1", "value": 4900, "currency": "USD",
                   "occurred_at": "2026-11-20T13:00:00.000Z"}),
            Some("u:u1"),
            None,
        ),
        sent(
            json!({"dedupe_id": "r1", "stage": "payment", "user_id": "u1", "value": -4900,
                   "occurred_at": "2026-11-20T14:00:00.000Z", "name": "refund"}),
            Some("u:u1"),
            None,
        ),
        sent(
            json!({"dedupe_id": "x1", "stage": "payment", "value": 1000, "occurred_at": "2026-11-20T15:00:00.000Z"}),
            None,
            None,
        ),
        sent(
            json!({"dedupe_id": "m1", "stage": "visit", "anonymous_id": "a2", "occurred_at": "2026-11-20T09:00:00.000Z",
                   "attribution": {"utm_source": "facebook", "utm_medium": "paid_social", "utm_content": "Video, 30s",
                                   "fbclid": "F1"}}),
            Some("a:a2"),
            Some("paid_meta"),
        ),
        sent(
            json!({"dedupe_id": "c1", "stage": "converted", "anonymous_id": "a2", "value": 2500,
                   "occurred_at": "2026-11-20T09:30:00.000Z", "properties": {"plan": "pro"}}),
            Some("a:a2"),
            None,
        ),
        sent(
            json!({"dedupe_id": "+d6", "stage": "visit", "user_id": "=u9", "name": "=HYPERLINK(\"http://evil\")",
                   "occurred_at": "2026-11-20T08:00:00.000Z",
                   "attribution": {"referrer": "https://www.google.com/search?q=a,b", "utm_term": "@term"}}),
            Some("u:=u9"),
            // A utm tag outranks the referrer: a source-less utm is a referral.
            Some("referral"),
        ),
        sent(
            json!({"dedupe_id": "p9", "stage": "payment", "user_id": "=u9", "value": 700,
                   "occurred_at": "2026-11-20T16:00:00.000Z"}),
            Some("u:=u9"),
            None,
        ),
        sent(
            json!({"dedupe_id": "n1", "stage": "payment", "user_id": "u4", "value": 300,
                   "occurred_at": "2026-11-20T08:30:00.000Z"}),
            Some("u:u4"),
            None,
        ),
        sent(
            json!({"dedupe_id": "l1", "stage": "lead", "anonymous_id": "a3", "occurred_at": "2026-11-19T23:59:59.999Z"}),
            Some("a:a3"),
            None,
        ),
    ]
}

fn text_of(value: &Value) -> String {
    value.as_str().map(neutral).unwrap_or_default()
}

/// The events CSV row each sent event must become, without the id.
fn expected_event_row(item: &Sent) -> BTreeMap<String, String> {
    let e = &item.event;
    let occurred_at = e["occurred_at"].as_str().unwrap().to_owned();
    let attribution = &e["attribution"];
    let mut row: BTreeMap<String, String> = BTreeMap::new();
    row.insert("day".into(), occurred_at[..10].to_owned());
    row.insert("occurred_at".into(), occurred_at);
    row.insert("namespace".into(), "api:shop".into());
    row.insert("dedupe_id".into(), text_of(&e["dedupe_id"]));
    row.insert("stage".into(), text_of(&e["stage"]));
    row.insert("name".into(), text_of(&e["name"]));
    row.insert(
        "identity".into(),
        item.identity.unwrap_or_default().to_owned(),
    );
    row.insert("anonymous_id".into(), text_of(&e["anonymous_id"]));
    row.insert("user_id".into(), text_of(&e["user_id"]));
    row.insert(
        "email".into(),
        e["email"]
            .as_str()
            .map(str::to_lowercase)
            .unwrap_or_default(),
    );
    let value = e["value"].as_i64();
    row.insert(
        "value_cents".into(),
        value.map(|v| v.to_string()).unwrap_or_default(),
    );
    row.insert(
        "currency".into(),
        if value.is_some() { "USD" } else { "" }.into(),
    );
    row.insert("channel".into(), item.channel.unwrap_or_default().into());
    for key in [
        "utm_source",
        "utm_medium",
        "utm_campaign",
        "utm_content",
        "utm_term",
        "gclid",
        "fbclid",
        "referrer",
        "landing_url",
    ] {
        row.insert(key.into(), text_of(&attribution[key]));
    }
    row
}

async fn both_exports_match_what_was_sent(app: TestApp) {
    let key = setup(&app).await;
    let data = dataset();
    // One request each: the visit of `a1` is stored before the signup links `a1` to `u1`, so
    // the export must show it under the identity it counts under now, not the one it was
    // stored under. Each is folded before the next is sent: folded together, the signup's link
    // would come first and the visit would be stored under `u1` already.
    for item in &data {
        send(&app, &key, std::slice::from_ref(&item.event)).await;
        app.settle().await;
    }
    let stored: String = app
        .sql_value("SELECT identity FROM events WHERE dedupe_id = 'v1'", &[])
        .await;
    assert_eq!(stored, "a:a1", "the stored event keeps its identity");

    let csv = export(&app, &key, "shop", "events").await;
    assert_eq!(csv.header, EVENT_HEADER);
    assert_eq!(csv.rows.len(), data.len());
    let ids: Vec<i64> = csv.rows.iter().map(|r| r["id"].parse().unwrap()).collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "id order: {ids:?}");
    let mut event_ids: BTreeMap<String, String> = BTreeMap::new();
    for item in &data {
        let dedupe = neutral(item.event["dedupe_id"].as_str().unwrap());
        let row = csv
            .rows
            .iter()
            .find(|r| r["dedupe_id"] == dedupe)
            .unwrap_or_else(|| panic!("no row for {dedupe}"));
        let mut actual = row.clone();
        let id = actual.remove("id").unwrap();
        let properties = actual.remove("properties").unwrap();
        assert_eq!(actual, expected_event_row(item), "event {dedupe}");
        let expected_properties = &item.event["properties"];
        if expected_properties.is_null() {
            assert_eq!(properties, "", "event {dedupe}");
        } else {
            let parsed: Value = serde_json::from_str(&properties).unwrap();
            assert_eq!(&parsed, expected_properties, "event {dedupe}");
        }
        event_ids.insert(item.event["dedupe_id"].as_str().unwrap().to_owned(), id);
    }

    // Revenue rows, by hand: (event, kind, stage, identity, amount, first touch, last touch).
    let expected = [
        (
            "p1",
            "sale",
            "payment",
            "u:u1",
            4900,
            "paid_google",
            "paid_google",
        ),
        (
            "p2",
            "sale",
            "payment",
            "u:u1",
            4900,
            "paid_google",
            "email",
        ),
        (
            "r1",
            "refund",
            "payment",
            "u:u1",
            -4900,
            "paid_google",
            "email",
        ),
        (
            "x1",
            "sale",
            "payment",
            "",
            1000,
            "unattributed",
            "unattributed",
        ),
        (
            "c1",
            "sale",
            "converted",
            "a:a2",
            2500,
            "paid_meta",
            "paid_meta",
        ),
        (
            "p9", "sale", "payment", "u:=u9", 700, "referral", "referral",
        ),
        (
            "n1",
            "sale",
            "payment",
            "u:u4",
            300,
            "unattributed",
            "unattributed",
        ),
    ];
    let csv = export(&app, &key, "shop", "transactions").await;
    assert_eq!(csv.header, TRANSACTION_HEADER);
    assert_eq!(csv.rows.len(), expected.len());
    let ids: Vec<i64> = csv.rows.iter().map(|r| r["id"].parse().unwrap()).collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "id order: {ids:?}");
    for (dedupe, kind, stage, identity, amount, first, last) in expected {
        let source_ref = &event_ids[dedupe];
        let row = csv
            .rows
            .iter()
            .find(|r| &r["source_ref"] == source_ref)
            .unwrap_or_else(|| panic!("no revenue row for {dedupe}"));
        let occurred_at = data
            .iter()
            .find(|s| s.event["dedupe_id"] == dedupe)
            .unwrap()
            .event["occurred_at"]
            .as_str()
            .unwrap();
        let mut actual = row.clone();
        actual.remove("id");
        let wanted: BTreeMap<String, String> = [
            ("occurred_at", occurred_at.to_owned()),
            ("day", occurred_at[..10].to_owned()),
            ("source", "event".to_owned()),
            ("source_ref", source_ref.clone()),
            ("kind", kind.to_owned()),
            ("stage", stage.to_owned()),
            ("identity", identity.to_owned()),
            ("amount_cents", amount.to_string()),
            ("currency", "USD".to_owned()),
            ("first_channel", first.to_owned()),
            ("last_channel", last.to_owned()),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v))
        .collect();
        assert_eq!(actual, wanted, "revenue row of {dedupe}");
    }
}

async fn quoting_survives_line_breaks_in_the_raw_body(app: TestApp) {
    let key = setup(&app).await;
    send(&app, &key, &[dataset().remove(0).event]).await;
    let reply = app
        .get("/products/shop/export/events.csv", Some(&key))
        .await;
    assert_eq!(reply.status, 200);
    // The name's line break sits inside a quoted field with its quotes doubled; records end
    // with CRLF.
    assert!(
        reply.text.contains("\"Landing, \"\"hero\"\"\nline two\""),
        "{}",
        reply.text
    );
    assert!(reply.text.contains("\"Spring, \"\"Big\"\" sale\""));
    assert!(reply.text.ends_with("\r\n"));
    assert_eq!(
        reply.text.matches("\r\n").count(),
        2,
        "header and one record"
    );
}

async fn an_empty_product_exports_the_header_alone(app: TestApp) {
    let key = setup(&app).await;
    for (what, header) in [
        ("events", EVENT_HEADER),
        ("transactions", TRANSACTION_HEADER),
    ] {
        let reply = app
            .get(&format!("/products/shop/export/{what}.csv"), Some(&key))
            .await;
        assert_eq!(reply.status, 200);
        assert_eq!(reply.text, format!("{}\r\n", header.join(",")));
    }
}

async fn headers_name_the_file_and_the_type(app: TestApp) {
    let key = setup(&app).await;
    for what in ["events", "transactions"] {
        let reply = app
            .get(&format!("/products/shop/export/{what}.csv"), Some(&key))
            .await;
        assert_eq!(reply.status, 200);
        assert_eq!(
            reply.header("content-type"),
            Some("text/csv; charset=utf-8")
        );
        assert_eq!(
            reply.header("content-disposition"),
            Some(format!("attachment; filename=\"shop-{what}.csv\"").as_str())
        );
        assert_eq!(reply.header("cache-control"), Some("no-store"));
    }
}

async fn more_than_a_page_streams_completely_in_id_order(app: TestApp) {
    let key = setup(&app).await;
    let total = 2_500;
    let events: Vec<Value> = (0..total)
        .map(|n| {
            json!({"dedupe_id": format!("bulk-{n:05}"), "stage": "payment", "user_id": format!("u{}", n % 40),
                   "value": n + 1, "occurred_at": "2026-11-20T10:00:00.000Z"})
        })
        .collect();
    for batch in events.chunks(1000) {
        send(&app, &key, batch).await;
    }
    let reply = app
        .get("/products/shop/export/events.csv", Some(&key))
        .await;
    assert_eq!(reply.status, 200);
    // Streamed in pages: the length is not known up front.
    assert_eq!(reply.header("content-length"), None);
    let csv = parse(&reply.text);
    assert_eq!(csv.rows.len(), total);
    let ids: Vec<i64> = csv.rows.iter().map(|r| r["id"].parse().unwrap()).collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "events in id order");
    let dedupes: BTreeSet<&str> = csv.rows.iter().map(|r| r["dedupe_id"].as_str()).collect();
    let sent: BTreeSet<String> = (0..total).map(|n| format!("bulk-{n:05}")).collect();
    assert_eq!(
        dedupes,
        sent.iter().map(String::as_str).collect::<BTreeSet<_>>()
    );

    let csv = export(&app, &key, "shop", "transactions").await;
    assert_eq!(csv.rows.len(), total);
    let ids: Vec<i64> = csv.rows.iter().map(|r| r["id"].parse().unwrap()).collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "revenue in id order");
    let amounts: i64 = csv
        .rows
        .iter()
        .map(|r| r["amount_cents"].parse::<i64>().unwrap())
        .sum();
    let total = i64::try_from(total).unwrap();
    assert_eq!(amounts, total * (total + 1) / 2);
}

async fn another_account_and_no_bearer_are_refused(app: TestApp) {
    let key = setup(&app).await;
    send(&app, &key, &[dataset().remove(0).event]).await;
    let other = app.signup_verified("other@example.com").await;
    let other_key = app.api_key(&other).await;
    for what in ["events", "transactions"] {
        let path = format!("/products/shop/export/{what}.csv");
        let reply: Reply = app.get(&path, Some(&other_key)).await;
        reply.expect_error(404, "not found");
        app.get(&format!("/products/nope/export/{what}.csv"), Some(&key))
            .await
            .expect_error(404, "not found");
        assert_eq!(app.get(&path, None).await.status, 401);
        assert_eq!(app.get(&path, Some("svc_live_wrong")).await.status, 401);
        // A session works like a key.
        assert_eq!(app.get(&path, Some(&other.token)).await.status, 404);
    }
}

backend_tests!(
    both_exports_match_what_was_sent,
    quoting_survives_line_breaks_in_the_raw_body,
    an_empty_product_exports_the_header_alone,
    headers_name_the_file_and_the_type,
    more_than_a_page_streams_completely_in_id_order,
    another_account_and_no_bearer_are_refused,
);
