//! Sync reads the window in pages into events: the orders data set and signups keyed by a nested
//! field, compared page by page and event by event with an oracle over the data model.

use super::*;
use payback_connectors::database::source::Database;

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
    let reading = config.read(&maps, window(), "USD", &mut sink);
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
