#![allow(clippy::unwrap_used)]
//! The docdb connector over the wire, against nx-27017 on loopback (see `nx_server`). Each test
//! inserts its documents with the driver into its own database and computes the expected
//! events from its own data model, independently of the connector's mapping code.
//!
//! nx-27017 answers Int64 as Int32 and stores neither Decimal128 nor BSON Timestamps, so these
//! tests compare values; the type-exact mapping is tested in process (`docdb::mapping`).

mod nx_server;

use std::collections::BTreeSet;
use std::future::Future;
use std::time::{Duration, Instant};

use bson::oid::ObjectId;
use bson::{Bson, DateTime, Document, doc};
use payback_connectors::database::schema::{ColumnKind, ColumnSummary};
use payback_connectors::database::{EventSink, ReadLimits};
use payback_connectors::docdb::{self, DocdbConfig, DocdbCredentials};
use payback_connectors::{ConnectorError, SyncWindow};
use payback_domain::Timestamp;
use payback_domain::channel::Attribution;
use payback_domain::event::IncomingEvent;
use payback_domain::event_map::{EventMap, FieldSyntax, check_maps};
use serde_json::{Value, json};

const MINUTE: i64 = 60_000;
const HOUR: i64 = 60 * MINUTE;
const DAY: i64 = 24 * HOUR;
/// 2026-03-01T00:00:00Z.
const T0: i64 = 1_772_323_200_000;

fn window() -> SyncWindow {
    SyncWindow {
        from: Timestamp::from_millis(T0 + HOUR),
        to: Timestamp::from_millis(T0 + HOUR + 2 * DAY),
    }
}

fn config(database: &str, limits: ReadLimits) -> DocdbConfig {
    let uri = nx_server::server().uri(database);
    DocdbConfig {
        credentials: DocdbCredentials::from_json(&json!({ "uri": uri })).unwrap(),
        limits,
    }
}

fn limits(page_rows: usize, max_rows_per_map: usize) -> ReadLimits {
    ReadLimits {
        page_rows,
        max_rows_per_map,
        statement_timeout: Duration::from_secs(10),
    }
}

/// The test's own client, for inserting.
async fn database(name: &str) -> mongodb::Database {
    let uri = nx_server::server().uri(name);
    mongodb::Client::with_uri_str(&uri)
        .await
        .unwrap()
        .database(name)
}

async fn insert(database: &mongodb::Database, collection: &str, documents: Vec<Document>) {
    database
        .collection::<Document>(collection)
        .insert_many(documents)
        .await
        .unwrap();
}

fn maps(value: Value) -> Vec<EventMap> {
    check_maps(serde_json::from_value(value).unwrap(), FieldSyntax::Path).unwrap()
}

/// Every page the connector wrote, as written.
#[derive(Default)]
struct RecordingSink {
    pages: Vec<Vec<IncomingEvent>>,
}

impl EventSink for RecordingSink {
    fn write(
        &mut self,
        events: Vec<IncomingEvent>,
    ) -> impl Future<Output = Result<(), ConnectorError>> + Send {
        self.pages.push(events);
        std::future::ready(Ok(()))
    }
}

impl RecordingSink {
    fn events(&self) -> Vec<&IncomingEvent> {
        self.pages.iter().flatten().collect()
    }

    fn ids(&self) -> BTreeSet<String> {
        self.events()
            .iter()
            .map(|event| event.dedupe_id.clone())
            .collect()
    }
}

/// An event's fields, comparable.
#[derive(Debug, PartialEq)]
struct EventView {
    dedupe_id: String,
    stage: String,
    name: Option<String>,
    occurred_at: Option<String>,
    anonymous_id: Option<String>,
    user_id: Option<String>,
    email: Option<String>,
    value: Option<i64>,
    currency: Option<String>,
    attribution: Option<Attribution>,
    properties: Option<Value>,
}

fn view(event: &IncomingEvent) -> EventView {
    EventView {
        dedupe_id: event.dedupe_id.clone(),
        stage: event.stage.clone(),
        name: event.name.clone(),
        occurred_at: event.occurred_at.clone(),
        anonymous_id: event.anonymous_id.clone(),
        user_id: event.user_id.clone(),
        email: event.email.clone(),
        value: event.value,
        currency: event.currency.clone(),
        attribution: event.attribution.clone(),
        properties: event.properties.clone(),
    }
}

fn assert_send<T: Send>(_: &T) {}

fn rfc3339(millis: i64) -> String {
    Timestamp::from_millis(millis).to_rfc3339()
}

// ---------------------------------------------------------------------------------------------
// The orders data set: nested fields, dates in and out of the window, three amount forms, a
// foreign currency, missing fields and a dozen documents sharing one timestamp.

#[derive(Debug, Clone, Copy)]
enum AmountForm {
    /// Whole units as an integer.
    Integer,
    /// Units as a double, such as 12.37.
    Double,
    /// Units as decimal text, such as "12.37".
    Text,
    /// Text that is no amount.
    Garbage,
}

#[derive(Debug, Clone)]
struct Order {
    id: i32,
    paid_at: i64,
    customer: Option<(i64, String)>,
    anonymous: Option<String>,
    utm_source: Option<&'static str>,
    gclid: Option<String>,
    cents: i64,
    form: AmountForm,
    currency: Option<&'static str>,
}

fn orders() -> Vec<Order> {
    let window = window();
    let (from, to) = (window.from.millis(), window.to.millis());
    (1..=50)
        .map(|id: i32| {
            let i = i64::from(id);
            let paid_at = match id {
                1..=3 => T0 + i * MINUTE,
                4 => from,
                5..=16 => from + 5 * HOUR,
                17..=45 => from + i * 47 * MINUTE + i * 13,
                46 => to - 1,
                47 => to,
                _ => to + i * HOUR,
            };
            let form = match id {
                40 => AmountForm::Garbage,
                _ if id % 3 == 0 => AmountForm::Integer,
                _ if id % 3 == 1 => AmountForm::Double,
                _ => AmountForm::Text,
            };
            let cents = match form {
                AmountForm::Integer => (10 + i) * 100,
                _ => 1000 + i * 137,
            };
            let email = if id == 20 {
                "not-an-email".to_owned()
            } else {
                format!("buyer{id}@example.com")
            };
            Order {
                id,
                paid_at,
                // Beyond Int32, so a value squeezed into 32 bits would show.
                customer: (id % 7 != 0).then(|| (9_000_000_000 + i, email)),
                anonymous: (id % 3 == 0).then(|| format!("anon-{id}")),
                utm_source: (id % 2 == 0)
                    .then(|| ["google", "newsletter", "bing"][(id % 3) as usize]),
                gclid: (id % 5 == 0).then(|| format!("gc-{id}")),
                cents,
                form,
                currency: match id {
                    30 => Some("EUR"),
                    _ if id % 4 == 0 => None,
                    _ => Some("usd"),
                },
            }
        })
        .collect()
}

/// `ord-007`: string ids, zero-padded, so their order is the same compared as text (nx-27017
/// compares some numeric `_id`s as text) or by number.
fn order_key(order: &Order) -> String {
    format!("ord-{:03}", order.id)
}

fn order_document(order: &Order) -> Document {
    let mut document = doc! {
        "_id": order_key(order),
        "meta": { "paid_at": DateTime::from_millis(order.paid_at), "source": "checkout" },
        "status": "paid",
    };
    if let Some((id, email)) = &order.customer {
        document.insert(
            "customer",
            doc! { "id": *id, "email": email.as_str(), "tier": "gold" },
        );
    }
    if let Some(anonymous) = &order.anonymous {
        document.insert("anon", anonymous.as_str());
    }
    let mut utm = Document::new();
    if let Some(source) = order.utm_source {
        utm.insert("source", source);
    }
    if !utm.is_empty() {
        document.insert("utm", utm);
    }
    if let Some(gclid) = &order.gclid {
        document.insert("gclid", gclid.as_str());
    }
    let units = format!("{}.{:02}", order.cents / 100, order.cents % 100);
    let amount = match order.form {
        AmountForm::Integer => Bson::Int64(order.cents / 100),
        AmountForm::Double => Bson::Double(units.parse().unwrap()),
        AmountForm::Text => Bson::String(units),
        AmountForm::Garbage => Bson::String("n/a".to_owned()),
    };
    document.insert("amount", amount);
    if let Some(currency) = order.currency {
        document.insert("currency", currency);
    }
    document
}

fn orders_map() -> Value {
    json!({
        "collection": "orders", "stage": "payment", "timestamp": "meta.paid_at",
        "dedupe_key": "_id", "user_id": "customer.id", "email": "customer.email",
        "anonymous_id": "anon",
        "attribution": {"utm_source": "utm.source", "gclid": "gclid"},
        "revenue": {"column": "amount", "unit": "major", "currency": "currency"}
    })
}

/// Why the reader must skip an order, in its words; `None` for a good one.
fn refusal(order: &Order) -> Option<String> {
    if matches!(order.form, AmountForm::Garbage) {
        return Some(format!("row {}: amount is not an amount", order_key(order)));
    }
    match &order.customer {
        Some((_, email)) if !email.contains('@') => Some(format!(
            "row {}: email: must be an email address",
            order_key(order)
        )),
        _ => None,
    }
}

fn expected_order_event(order: &Order) -> EventView {
    let attribution = (order.utm_source.is_some() || order.gclid.is_some()).then(|| Attribution {
        utm_source: order.utm_source.map(str::to_owned),
        gclid: order.gclid.clone(),
        ..Attribution::default()
    });
    EventView {
        dedupe_id: format!("orders/payment:{}", order_key(order)),
        stage: "payment".to_owned(),
        name: Some("orders".to_owned()),
        occurred_at: Some(rfc3339(order.paid_at)),
        anonymous_id: order.anonymous.clone(),
        user_id: order.customer.as_ref().map(|(id, _)| id.to_string()),
        email: order.customer.as_ref().map(|(_, email)| email.clone()),
        value: Some(order.cents),
        currency: Some("USD".to_owned()),
        attribution,
        properties: Some(json!({"table": "orders", "row": order_key(order)})),
    }
}

#[tokio::test]
async fn sync_reads_the_window_in_pages_into_events() {
    let db = database("sync_pages").await;
    let orders = orders();
    // Inserted in a scrambled order, so only the connector's sort puts them in time order.
    let mut scrambled = orders.clone();
    scrambled.sort_by_key(|order| (order.id * 37) % 53);
    insert(
        &db,
        "orders",
        scrambled.iter().map(order_document).collect(),
    )
    .await;

    let signup_ids: Vec<ObjectId> = (0..9_u8)
        .map(|n| ObjectId::from_bytes([n + 1; 12]))
        .collect();
    let signups: Vec<Document> = signup_ids
        .iter()
        .enumerate()
        .map(|(n, oid)| {
            let n = n as i64;
            let mut document = doc! {
                "_id": *oid,
                "created": DateTime::from_millis(window().from.millis() + n * HOUR),
                "profile": { "email": format!("new{n}@example.com") },
            };
            if n != 4 {
                document.insert("ref", doc! { "code": format!("R-{n}") });
            }
            document
        })
        .collect();
    insert(&db, "signups", signups).await;

    let mut maps_json = vec![orders_map()];
    maps_json.push(json!({
        "collection": "signups", "stage": "signup", "name": "signed_up",
        "timestamp": "created", "dedupe_key": "ref.code", "email": "profile.email"
    }));
    let maps = maps(json!(maps_json));
    let mut sink = RecordingSink::default();
    let config = config("sync_pages", limits(7, 10_000));
    let reading = docdb::sync(&config, &maps, window(), "USD", &mut sink);
    // The sync engine runs reads on spawned tasks.
    assert_send(&reading);
    let detail = reading.await.unwrap();

    // The oracle: orders in [from, to), by (paid_at, _id), read 7 to a page.
    let window = window();
    let mut read: Vec<&Order> = orders
        .iter()
        .filter(|order| order.paid_at >= window.from.millis() && order.paid_at < window.to.millis())
        .collect();
    read.sort_by_key(|order| (order.paid_at, order.id));
    let sendable = |order: &Order| order.currency != Some("EUR") && refusal(order).is_none();
    let mut expected_pages: Vec<Vec<String>> = read
        .chunks(7)
        .map(|chunk| {
            chunk
                .iter()
                .filter(|order| sendable(order))
                .map(|order| format!("orders/payment:{}", order_key(order)))
                .collect::<Vec<_>>()
        })
        .filter(|page: &Vec<String>| !page.is_empty())
        .collect();
    // The signups map follows: 9 documents in one page of 7 and one of 2, the fifth without a key.
    expected_pages.push(
        (0..7)
            .filter(|n| *n != 4)
            .map(|n| format!("signups/signup:R-{n}"))
            .collect(),
    );
    expected_pages.push((7..9).map(|n| format!("signups/signup:R-{n}")).collect());
    let pages: Vec<Vec<String>> = sink
        .pages
        .iter()
        .map(|page| page.iter().map(|event| event.dedupe_id.clone()).collect())
        .collect();
    assert_eq!(pages, expected_pages);

    let order_events: Vec<EventView> = sink
        .events()
        .into_iter()
        .filter(|event| event.stage == "payment")
        .map(view)
        .collect();
    let expected_events: Vec<EventView> = read
        .iter()
        .filter(|order| sendable(order))
        .map(|order| expected_order_event(order))
        .collect();
    assert_eq!(order_events, expected_events);

    let signup = sink
        .events()
        .into_iter()
        .find(|event| event.dedupe_id == "signups/signup:R-2")
        .map(view)
        .unwrap();
    assert_eq!(
        signup,
        EventView {
            dedupe_id: "signups/signup:R-2".to_owned(),
            stage: "signup".to_owned(),
            name: Some("signed_up".to_owned()),
            occurred_at: Some(rfc3339(window.from.millis() + 2 * HOUR)),
            anonymous_id: None,
            user_id: None,
            email: Some("new2@example.com".to_owned()),
            value: None,
            currency: None,
            attribution: None,
            properties: Some(json!({"table": "signups", "row": "R-2"})),
        }
    );

    let other_currency = read.iter().filter(|o| o.currency == Some("EUR")).count();
    let skipped: Vec<String> = read.iter().filter_map(|order| refusal(order)).collect();
    let events = read.iter().filter(|order| sendable(order)).count();
    assert_eq!(
        detail,
        format!(
            "orders: {} rows, {events} events, {other_currency} in another currency, {} skipped (first: {}); \
             signups: 9 rows, 8 events, 1 skipped (first: row ?: ref.code is empty)",
            read.len(),
            skipped.len(),
            skipped[0]
        )
    );
    // The data set covers what it claims to.
    assert_eq!((other_currency, skipped.len()), (1, 2));
    assert!(
        read.iter()
            .any(|order| order.paid_at == window.from.millis())
    );
    assert!(
        read.iter()
            .any(|order| order.paid_at == window.to.millis() - 1)
    );
    assert!(
        orders
            .iter()
            .any(|order| order.paid_at == window.to.millis())
    );
}

// ---------------------------------------------------------------------------------------------
// Filters: each operator against an oracle over the inserted leads, with MongoDB's semantics for
// missing fields.

#[derive(Debug, Clone)]
struct Lead {
    id: i32,
    /// `None`: no field; `Some(None)`: null.
    status: Option<Option<&'static str>>,
    score: Option<i32>,
    plan: &'static str,
    tier: &'static str,
    vip: bool,
}

fn leads() -> Vec<Lead> {
    (1..=30)
        .map(|id: i32| Lead {
            id,
            status: match id % 5 {
                0 => None,
                1 => Some(None),
                2 => Some(Some("new")),
                3 => Some(Some("won")),
                _ => Some(Some("lost")),
            },
            score: (id % 6 != 0).then_some(id),
            plan: ["free", "pro", "team"][(id % 3) as usize],
            tier: if id % 4 == 0 { "gold" } else { "silver" },
            vip: id % 2 == 0,
        })
        .collect()
}

fn lead_document(lead: &Lead) -> Document {
    let mut document = doc! {
        "_id": lead.id,
        "created": DateTime::from_millis(window().from.millis() + i64::from(lead.id) * MINUTE),
        "plan": lead.plan,
        "customer": { "tier": lead.tier },
        "vip": lead.vip,
    };
    match lead.status {
        Some(Some(status)) => {
            document.insert("status", status);
        }
        Some(None) => {
            document.insert("status", Bson::Null);
        }
        None => {}
    }
    if let Some(score) = lead.score {
        document.insert("score", score);
    }
    document
}

#[tokio::test]
async fn each_filter_operator_selects_what_mongodb_would() {
    let db = database("filters").await;
    let leads = leads();
    insert(&db, "leads", leads.iter().map(lead_document).collect()).await;
    let status = |lead: &Lead| lead.status.flatten();
    type Oracle = Box<dyn Fn(&Lead) -> bool>;
    let cases: Vec<(Value, Oracle)> = vec![
        (
            json!([{"column": "status", "op": "eq", "value": "won"}]),
            Box::new(move |l| status(l) == Some("won")),
        ),
        // On a field every lead has: nx-27017 drops documents without the field from `$ne` once
        // another condition joins it, where MongoDB keeps them.
        (
            json!([{"column": "plan", "op": "ne", "value": "free"}]),
            Box::new(|l| l.plan != "free"),
        ),
        (
            json!([{"column": "score", "op": "gt", "value": 20}]),
            Box::new(|l| l.score.is_some_and(|s| s > 20)),
        ),
        (
            json!([{"column": "score", "op": "gte", "value": 20}]),
            Box::new(|l| l.score.is_some_and(|s| s >= 20)),
        ),
        (
            json!([{"column": "score", "op": "lt", "value": 5}]),
            Box::new(|l| l.score.is_some_and(|s| s < 5)),
        ),
        (
            json!([{"column": "score", "op": "lte", "value": 5}]),
            Box::new(|l| l.score.is_some_and(|s| s <= 5)),
        ),
        (
            json!([{"column": "score", "op": "gte", "value": 10.5}]),
            Box::new(|l| l.score.is_some_and(|s| f64::from(s) >= 10.5)),
        ),
        (
            json!([{"column": "plan", "op": "in", "value": ["pro", "team"]}]),
            Box::new(|l| l.plan != "free"),
        ),
        (
            json!([{"column": "status", "op": "not_in", "value": ["new", "lost"]}]),
            Box::new(move |l| !matches!(status(l), Some("new" | "lost"))),
        ),
        (
            json!([{"column": "status", "op": "is_null"}]),
            Box::new(move |l| status(l).is_none()),
        ),
        (
            json!([{"column": "status", "op": "not_null"}]),
            Box::new(move |l| status(l).is_some()),
        ),
        (
            json!([{"column": "customer.tier", "op": "eq", "value": "gold"}]),
            Box::new(|l| l.tier == "gold"),
        ),
        (
            json!([{"column": "vip", "op": "eq", "value": true}]),
            Box::new(|l| l.vip),
        ),
        (
            json!([{"column": "vip", "op": "eq", "value": false}, {"column": "score", "op": "lt", "value": 12}]),
            Box::new(|l| !l.vip && l.score.is_some_and(|s| s < 12)),
        ),
    ];
    for (filter, oracle) in cases {
        let maps = maps(json!([{
            "collection": "leads", "stage": "lead", "timestamp": "created",
            "dedupe_key": "_id", "filter": filter
        }]));
        let mut sink = RecordingSink::default();
        let detail = docdb::sync(
            &config("filters", limits(7, 1_000)),
            &maps,
            window(),
            "USD",
            &mut sink,
        )
        .await
        .unwrap();
        let expected: BTreeSet<String> = leads
            .iter()
            .filter(|lead| oracle(lead))
            .map(|lead| format!("leads/lead:{}", lead.id))
            .collect();
        assert!(
            !expected.is_empty() && expected.len() < leads.len(),
            "{filter}"
        );
        assert_eq!(sink.ids(), expected, "{filter}");
        assert_eq!(
            detail,
            format!("leads: {n} rows, {n} events", n = expected.len()),
            "{filter}"
        );
    }
}

// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn a_window_over_the_row_limit_fails_before_writing_anything() {
    let db = database("row_limit").await;
    let window = window();
    let inside = (1..=12).map(|id: i32| {
        doc! {
            "_id": id,
            "at": DateTime::from_millis(window.from.millis() + i64::from(id) * MINUTE),
        }
    });
    let outside = (13..=17).map(|id: i32| {
        doc! {
            "_id": id,
            "at": DateTime::from_millis(window.to.millis() + i64::from(id) * MINUTE),
        }
    });
    insert(&db, "visits", inside.chain(outside).collect()).await;
    let maps = maps(json!([{
        "collection": "visits", "stage": "visit", "timestamp": "at", "dedupe_key": "_id"
    }]));

    let mut sink = RecordingSink::default();
    let detail = docdb::sync(
        &config("row_limit", limits(5, 12)),
        &maps,
        window,
        "USD",
        &mut sink,
    )
    .await
    .unwrap();
    assert_eq!(detail, "visits: 12 rows, 12 events");
    assert_eq!(
        sink.pages.iter().map(Vec::len).collect::<Vec<_>>(),
        vec![5, 5, 2]
    );

    let mut sink = RecordingSink::default();
    let error = docdb::sync(
        &config("row_limit", limits(5, 11)),
        &maps,
        window,
        "USD",
        &mut sink,
    )
    .await
    .unwrap_err();
    match error {
        ConnectorError::Config(message) => assert_eq!(
            message,
            "collection `visits` holds more than 11 documents in the sync window; add a filter to its map so one run reads fewer"
        ),
        other => panic!("expected a config error, got {other:?}"),
    }
    assert!(sink.pages.is_empty());
}

// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn test_pings_and_counts_the_collections() {
    let db = database("probe").await;
    for name in ["orders", "users", "carts", "refunds"] {
        insert(&db, name, vec![doc! { "_id": 1 }]).await;
    }
    let config_probe = config("probe", limits(7, 100));
    let probing = docdb::test(&config_probe);
    assert_send(&probing);
    let answer = probing.await.unwrap();
    assert_eq!(answer, "MongoDB answers; database probe, 4 collections");

    let single = database("probe_one").await;
    insert(&single, "orders", vec![doc! { "_id": 1 }]).await;
    let answer = docdb::test(&config("probe_one", limits(7, 100)))
        .await
        .unwrap();
    assert_eq!(answer, "MongoDB answers; database probe_one, 1 collection");
}

fn column(name: &str, data_type: &str, kind: ColumnKind) -> ColumnSummary {
    ColumnSummary {
        name: name.to_owned(),
        data_type: data_type.to_owned(),
        kind,
    }
}

#[tokio::test]
async fn describe_samples_the_first_collections_or_the_named_ones() {
    let db = database("describe").await;
    let placed = window().from.millis();
    let orders: Vec<Document> = (1..=60)
        .map(|id: i32| {
            let total = if id % 2 == 0 {
                Bson::Double(f64::from(id) + 0.5)
            } else {
                Bson::Int32(id)
            };
            let mut document = doc! {
                // Zero-padded text: the sample takes the greatest `_id`s.
                "_id": format!("o-{id:02}"),
                "placed": DateTime::from_millis(placed + i64::from(id) * MINUTE),
                "total": total,
                "customer": {
                    "email": format!("c{id}@example.com"),
                    "address": { "city": "Oslo", "geo": { "lat": 59.9 } },
                },
                "tags": ["a", "b"],
                "paid": id % 3 == 0,
                "note": Bson::Null,
                "maybe": if id % 4 == 0 { Bson::String("x".into()) } else { Bson::Null },
                "ref": ObjectId::from_bytes([id as u8; 12]),
            };
            // Only in the ten oldest documents, which the 50-document sample leaves out.
            if id <= 10 {
                document.insert("legacy", "old");
            }
            document
        })
        .collect();
    insert(&db, "a_orders", orders).await;
    for n in 0..32 {
        insert(&db, &format!("c{n:02}"), vec![doc! { "_id": 1, "n": n }]).await;
    }
    let config = config("describe", limits(7, 100));

    let describing = docdb::describe(&config, None);
    assert_send(&describing);
    let summary = describing.await.unwrap();
    let names: Vec<&str> = summary.tables.iter().map(|t| t.name.as_str()).collect();
    let mut expected_names = vec!["a_orders".to_owned()];
    expected_names.extend((0..29).map(|n| format!("c{n:02}")));
    assert_eq!(names, expected_names);
    assert_eq!(summary.more_tables, 3);
    let orders = &summary.tables[0];
    assert_eq!(orders.schema, None);
    assert_eq!(orders.row_estimate, Some(60));
    assert_eq!(
        orders.columns,
        vec![
            column("_id", "string", ColumnKind::Text),
            column("placed", "date", ColumnKind::Timestamp),
            // The newest document (60) holds a double, so its type is seen first.
            column("total", "double|int", ColumnKind::Other),
            column("customer.email", "string", ColumnKind::Text),
            column("customer.address.city", "string", ColumnKind::Text),
            column("customer.address.geo", "object", ColumnKind::Other),
            column("tags", "array", ColumnKind::Other),
            column("paid", "bool", ColumnKind::Boolean),
            column("note", "null", ColumnKind::Other),
            column("maybe", "string", ColumnKind::Text),
            column("ref", "objectId", ColumnKind::Text),
        ]
    );
    assert_eq!(
        summary.tables[1].columns,
        vec![
            column("_id", "int", ColumnKind::Integer),
            column("n", "int", ColumnKind::Integer)
        ]
    );

    let subset = ["c05".to_owned(), "a_orders".to_owned(), "c05".to_owned()];
    let summary = docdb::describe(&config, Some(&subset)).await.unwrap();
    let names: Vec<&str> = summary.tables.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, vec!["c05", "a_orders"]);
    assert_eq!(summary.more_tables, 31);

    let unknown = ["c01".to_owned(), "nope".to_owned(), "zz".to_owned()];
    match docdb::describe(&config, Some(&unknown)).await.unwrap_err() {
        ConnectorError::Config(message) => assert_eq!(
            message,
            "no collection named `nope`, `zz` in database describe"
        ),
        other => panic!("expected a config error, got {other:?}"),
    }
}

// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn values_survive_the_wire() {
    // nx-27017 answers Int64 as Int32: values are compared, not types.
    let db = database("wire_values").await;
    let at = window().from.millis() + 90 * MINUTE + 7;
    insert(
        &db,
        "things",
        vec![doc! {
            "_id": ObjectId::from_bytes([0x5a; 12]),
            "at": DateTime::from_millis(at),
            "small": 7_i64,
            "big": 9_007_199_254_740_993_i64,
            "price": 19.9,
            "label": "Box",
            "flag": true,
        }],
    )
    .await;
    let maps = maps(json!([{
        "collection": "things", "stage": "visit", "timestamp": "at", "dedupe_key": "_id",
        "user_id": "big", "anonymous_id": "small", "email": "label",
        "attribution": {"utm_content": "price", "utm_term": "flag"}
    }]));
    let mut sink = RecordingSink::default();
    let detail = docdb::sync(
        &config("wire_values", limits(7, 100)),
        &maps,
        window(),
        "USD",
        &mut sink,
    )
    .await
    .unwrap();
    // `label` is no email: the one document is skipped and says why.
    assert_eq!(
        detail,
        "things: 1 rows, 0 events, 1 skipped (first: row 5a5a5a5a5a5a5a5a5a5a5a5a: email: must be an email address)"
    );

    let maps = maps_without_email(maps);
    let mut sink = RecordingSink::default();
    docdb::sync(
        &config("wire_values", limits(7, 100)),
        &maps,
        window(),
        "USD",
        &mut sink,
    )
    .await
    .unwrap();
    let events = sink.events();
    assert_eq!(events.len(), 1);
    let event = view(events[0]);
    assert_eq!(event.dedupe_id, "things/visit:5a5a5a5a5a5a5a5a5a5a5a5a");
    assert_eq!(event.occurred_at, Some(rfc3339(at)));
    assert_eq!(event.user_id.as_deref(), Some("9007199254740993"));
    assert_eq!(event.anonymous_id.as_deref(), Some("7"));
    let attribution = event.attribution.unwrap();
    assert_eq!(attribution.utm_content.as_deref(), Some("19.9"));
    assert_eq!(attribution.utm_term.as_deref(), Some("true"));
}

fn maps_without_email(mut maps: Vec<EventMap>) -> Vec<EventMap> {
    for map in &mut maps {
        map.email = None;
    }
    maps
}

// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn a_closed_port_is_unreachable_quickly() {
    let port = nx_server::free_port();
    let uri = format!("mongodb://reader:hunter2-secret@127.0.0.1:{port}/shop");
    let config = DocdbConfig {
        credentials: DocdbCredentials::from_json(&json!({ "uri": uri })).unwrap(),
        limits: ReadLimits {
            statement_timeout: Duration::from_secs(2),
            ..ReadLimits::default()
        },
    };
    let started = Instant::now();
    let maps = maps(json!([{
        "collection": "orders", "stage": "visit", "timestamp": "at", "dedupe_key": "_id"
    }]));
    let errors = [
        docdb::test(&config).await.unwrap_err(),
        docdb::describe(&config, None).await.unwrap_err(),
        docdb::sync(
            &config,
            &maps,
            window(),
            "USD",
            &mut RecordingSink::default(),
        )
        .await
        .unwrap_err(),
    ];
    for error in errors {
        assert!(
            matches!(&error, ConnectorError::Unreachable(m) if m.contains("Connection refused")),
            "{error:?}"
        );
        assert!(!error.to_string().contains("hunter2"), "{error}");
    }
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn a_refused_login_is_unauthorized_without_the_password() {
    let server = nx_server::server();
    let uri = format!(
        "mongodb://reader:hunter2-secret@127.0.0.1:{}/shop",
        server.port
    );
    let config = DocdbConfig {
        credentials: DocdbCredentials::from_json(&json!({ "uri": uri })).unwrap(),
        limits: limits(7, 100),
    };
    let error = docdb::test(&config).await.unwrap_err();
    // nx-27017 speaks no SCRAM: the driver's login fails as it does against a wrong password.
    assert!(
        matches!(&error, ConnectorError::Unauthorized(m) if m.starts_with("MongoDB refused the login: SCRAM failure")),
        "{error:?}"
    );
    assert!(!error.to_string().contains("hunter2"), "{error}");
}
