//! Incremental reads: the shop (orders in a second schema, signups in the default one, daily
//! totals) read in pages of at most 7 rows, whole and in two adjacent windows, compared with
//! the events its rows must give.

use super::*;

use payback_domain::event::IncomingEvent;

use super::support::date_literal;

on_both!(sync_reads_every_window_row_once_across_pages);

/// Most orders share this instant, to the microsecond.
const SHARED: i64 = T0 + 5 * HOUR + 123_456;
/// Most signups share this one.
const SHARED_SIGNUP: i64 = T0 + DAY + 999_999;

fn rfc3339(micros: i64) -> String {
    Timestamp::from_millis(micros.div_euclid(1000)).to_rfc3339()
}

/// The label `MapCounts::describe` writes, as expected here.
fn counts_line(
    label: &str,
    rows: usize,
    events: usize,
    other: usize,
    skipped: usize,
    first: Option<&str>,
) -> String {
    let mut line = format!("{label}: {rows} rows, {events} events");
    if other > 0 {
        line.push_str(&format!(", {other} in another currency"));
    }
    if skipped > 0 {
        line.push_str(&format!(", {skipped} skipped (first: {})", first.unwrap()));
    }
    line
}

/// An event reduced to what the tests compare.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Seen {
    dedupe_id: String,
    stage: String,
    name: Option<String>,
    occurred_at: Option<String>,
    user_id: Option<String>,
    email: Option<String>,
    value: Option<i64>,
    currency: Option<String>,
    utm_source: Option<String>,
    utm_campaign: Option<String>,
    properties: Option<String>,
}

fn seen(event: &IncomingEvent) -> Seen {
    let attribution = event.attribution.clone().unwrap_or_default();
    Seen {
        dedupe_id: event.dedupe_id.clone(),
        stage: event.stage.clone(),
        name: event.name.clone(),
        occurred_at: event.occurred_at.clone(),
        user_id: event.user_id.clone(),
        email: event.email.clone(),
        value: event.value,
        currency: event.currency.clone(),
        utm_source: attribution.utm_source,
        utm_campaign: attribution.utm_campaign,
        properties: event.properties.as_ref().map(Value::to_string),
    }
}

fn sorted_seen(sink: &RecordingSink) -> Vec<Seen> {
    let mut events: Vec<Seen> = sink.events().iter().map(seen).collect();
    events.sort();
    events
}

// ---- the shop: orders (a second schema), signups (the default one), daily totals ----------

struct Order {
    id: i64,
    paid: Option<i64>,
    user_id: Option<i64>,
    email: Option<String>,
    total_cents: Option<i64>,
    currency: Option<&'static str>,
    utm_source: Option<&'static str>,
}

fn orders() -> Vec<Order> {
    (0..64i64)
        .map(|i| Order {
            // A permutation of 1000..1064, so ids do not follow insertion or time order.
            id: 1000 + (i * 37) % 64,
            paid: match i {
                30 => Some(T0),
                31 => None,
                _ if i % 16 == 3 => Some(T0 - 1),
                _ if i % 16 == 7 => Some(T0 + 2 * DAY),
                _ if i < 26 => Some(SHARED),
                _ => Some(T0 + i * 41 * MINUTE + (i * 7919) % 1_000_000),
            },
            user_id: (i % 5 != 0).then_some(500 + i),
            email: match i {
                40 => Some("not-an-email".to_owned()),
                50 => Some("   ".to_owned()),
                _ if i % 9 == 0 => None,
                _ => Some(format!("Buyer.{i}@Example.COM")),
            },
            total_cents: match i {
                33 => Some(-1500),
                _ if i % 11 == 0 => None,
                _ => Some(1999 + i * 105),
            },
            currency: match i {
                44 => Some("EUR"),
                45 => None,
                _ if i % 4 == 0 => Some("usd"),
                _ => Some("USD"),
            },
            utm_source: match i % 3 {
                0 => Some("google"),
                1 => Some("Früh-Newsletter ✉"),
                _ => None,
            },
        })
        .collect()
}

struct Signup {
    id: Option<String>,
    at: i64,
    email: String,
    campaign: &'static str,
}

fn signups() -> Vec<Signup> {
    (0..30i64)
        .map(|i| Signup {
            id: (i != 29).then(|| {
                format!(
                    "{:08x}-0000-4000-8000-{:012x}",
                    (i * 2_654_435_761) % (1 << 32),
                    i
                )
            }),
            at: match i {
                12 => T0 + 2 * DAY + HOUR,
                13 => T0 - DAY,
                _ if i < 12 => SHARED_SIGNUP,
                _ => T0 + i * HOUR + i,
            },
            email: format!("Émile.{i}@Exämple.ORG"),
            campaign: if i % 2 == 0 {
                "spring_sale"
            } else {
                "été-2026 🚀"
            },
        })
        .collect()
}

/// (id, day at midnight UTC, cents)
const DAY_TOTALS: [(i64, i64, i64); 4] = [
    (1, T0 - DAY, 500),
    (2, T0, 12_345),
    (3, T0 + DAY, -250),
    (4, T0 + 2 * DAY, 999),
];

/// Creates and fills the shop; answers the orders' schema (a database on MySQL).
async fn shop(db: &mut TestDb) -> String {
    let shop = db.schema("shop").await;
    let pg = db.backend == Backend::Postgres;
    let ddl = if pg {
        format!(
            "CREATE TABLE {shop}.orders (id bigint PRIMARY KEY, paid_at timestamptz, \
               user_id integer, customer_email text, total numeric(10,2), currency char(3), \
               utm_source text); \
             CREATE TABLE signups (id uuid, signed_up_at timestamp NOT NULL, \
               email varchar(200), utm_campaign text); \
             CREATE TABLE {shop}.daily_totals (id integer PRIMARY KEY, day date NOT NULL, \
               amount_cents integer NOT NULL)"
        )
    } else {
        format!(
            "CREATE TABLE {shop}.orders (id BIGINT PRIMARY KEY, paid_at DATETIME(6) NULL, \
               user_id INT NULL, customer_email VARCHAR(200) NULL, total DECIMAL(10,2) NULL, \
               currency CHAR(3) NULL, utm_source VARCHAR(100) NULL); \
             CREATE TABLE signups (id CHAR(36) NULL, signed_up_at TIMESTAMP(6) NOT NULL, \
               email VARCHAR(200) NULL, utm_campaign VARCHAR(100) NULL); \
             CREATE TABLE {shop}.daily_totals (id INT PRIMARY KEY, day DATE NOT NULL, \
               amount_cents INT NOT NULL)"
        )
    };
    db.exec(&ddl).await;
    let rows: Vec<String> = orders()
        .iter()
        .map(|o| {
            format!(
                "({}, {}, {}, {}, {}, {}, {})",
                o.id,
                o.paid.map_or("NULL".to_owned(), |at| time_literal(at, pg)),
                o.user_id.map_or("NULL".to_owned(), |u| u.to_string()),
                maybe(o.email.as_deref()),
                o.total_cents.map_or("NULL".to_owned(), decimal),
                maybe(o.currency),
                maybe(o.utm_source),
            )
        })
        .collect();
    db.exec(&format!(
        "INSERT INTO {shop}.orders VALUES {}",
        rows.join(", ")
    ))
    .await;
    let rows: Vec<String> = signups()
        .iter()
        .map(|s| {
            format!(
                "({}, {}, {}, {})",
                maybe(s.id.as_deref()),
                time_literal(s.at, false),
                quoted(&s.email),
                quoted(s.campaign)
            )
        })
        .collect();
    db.exec(&format!("INSERT INTO signups VALUES {}", rows.join(", ")))
        .await;
    let rows: Vec<String> = DAY_TOTALS
        .iter()
        .map(|(id, day, cents)| format!("({id}, {}, {cents})", date_literal(*day)))
        .collect();
    db.exec(&format!(
        "INSERT INTO {shop}.daily_totals VALUES {}",
        rows.join(", ")
    ))
    .await;
    shop
}

fn shop_maps(shop: &str) -> Vec<EventMap> {
    parse_maps(json!([
        {"table": "orders", "schema": shop, "stage": "payment", "timestamp": "paid_at",
         "dedupe_key": "id", "user_id": "user_id", "email": "customer_email",
         "attribution": {"utm_source": "utm_source"},
         "revenue": {"column": "total", "unit": "major", "currency": "currency"}},
        {"table": "signups", "stage": "signup", "timestamp": "signed_up_at",
         "dedupe_key": "id", "email": "email", "attribution": {"utm_campaign": "utm_campaign"}},
        {"table": "daily_totals", "schema": shop, "stage": "payment", "name": "daily",
         "timestamp": "day", "dedupe_key": "id", "revenue": {"column": "amount_cents"}}
    ]))
}

/// What the shop's rows in `[from, to)` must give, and the status line.
fn expected_shop(shop: &str, from: i64, to: i64) -> (Vec<Seen>, String) {
    let inside = |at: i64| at >= from && at < to;
    let mut events = Vec::new();
    let mut lines = Vec::new();

    let label = format!("{shop}.orders");
    let mut rows: Vec<Order> = orders()
        .into_iter()
        .filter(|o| o.paid.is_some_and(inside))
        .collect();
    rows.sort_by_key(|o| (o.paid, o.id));
    let (mut other, mut skipped, mut first) = (0, 0, None);
    for o in &rows {
        if o.currency.is_some_and(|c| !c.eq_ignore_ascii_case("USD")) {
            other += 1;
            continue;
        }
        if o.email.as_deref() == Some("not-an-email") {
            skipped += 1;
            first.get_or_insert(format!("row {}: email: must be an email address", o.id));
            continue;
        }
        events.push(Seen {
            dedupe_id: format!("{label}/payment:{}", o.id),
            stage: "payment".to_owned(),
            name: Some("orders".to_owned()),
            occurred_at: o.paid.map(rfc3339),
            user_id: o.user_id.map(|u| u.to_string()),
            email: o
                .email
                .as_deref()
                .map(str::trim)
                .filter(|e| !e.is_empty())
                .map(str::to_owned),
            value: o.total_cents,
            currency: o.total_cents.map(|_| "USD".to_owned()),
            utm_source: o.utm_source.map(str::to_owned),
            utm_campaign: None,
            properties: Some(json!({"table": label, "row": o.id.to_string()}).to_string()),
        });
    }
    let produced = rows.len() - other - skipped;
    lines.push(counts_line(
        &label,
        rows.len(),
        produced,
        other,
        skipped,
        first.as_deref(),
    ));

    let rows: Vec<Signup> = signups().into_iter().filter(|s| inside(s.at)).collect();
    let keyless = rows.iter().filter(|s| s.id.is_none()).count();
    for s in &rows {
        let Some(id) = &s.id else { continue };
        events.push(Seen {
            dedupe_id: format!("signups/signup:{id}"),
            stage: "signup".to_owned(),
            name: Some("signups".to_owned()),
            occurred_at: Some(rfc3339(s.at)),
            user_id: None,
            email: Some(s.email.clone()),
            value: None,
            currency: None,
            utm_source: None,
            utm_campaign: Some(s.campaign.to_owned()),
            properties: Some(json!({"table": "signups", "row": id}).to_string()),
        });
    }
    lines.push(counts_line(
        "signups",
        rows.len(),
        rows.len() - keyless,
        0,
        keyless,
        Some("row ?: id is empty"),
    ));

    let label = format!("{shop}.daily_totals");
    let days: Vec<_> = DAY_TOTALS.iter().filter(|d| inside(d.1)).collect();
    for (id, day, cents) in &days {
        events.push(Seen {
            dedupe_id: format!("{label}/payment:{id}"),
            stage: "payment".to_owned(),
            name: Some("daily".to_owned()),
            occurred_at: Some(rfc3339(*day)),
            user_id: None,
            email: None,
            value: Some(*cents),
            currency: Some("USD".to_owned()),
            utm_source: None,
            utm_campaign: None,
            properties: Some(json!({"table": label, "row": id.to_string()}).to_string()),
        });
    }
    lines.push(counts_line(&label, days.len(), days.len(), 0, 0, None));
    events.sort();
    (events, lines.join("; "))
}

async fn sync_reads_every_window_row_once_across_pages(backend: Backend) {
    let mut db = TestDb::create(backend).await;
    let shop = shop(&mut db).await;
    let maps = shop_maps(&shop);
    let config = db.config();
    let (from, to) = (T0, T0 + 2 * DAY);

    let (detail, sink) = run(&config, &maps, window(from, to)).await.unwrap();
    let (expected, line) = expected_shop(&shop, from, to);
    assert_eq!(detail, line);
    let got = sorted_seen(&sink);
    assert_eq!(got.len(), expected.len());
    for (got, want) in got.iter().zip(&expected) {
        assert_eq!(got, want);
    }
    // Pages of at most 7 rows, each written before the next was read.
    assert!(sink.pages.iter().all(|page| page.len() <= 7));
    assert!(
        sink.pages.len() >= expected.len() / 7,
        "{}",
        sink.pages.len()
    );
    // The sanity of the fixture: a shared instant spans several pages.
    let shared = orders().iter().filter(|o| o.paid == Some(SHARED)).count();
    assert!(shared > 3 * 7, "{shared}");

    // Two adjacent windows read the same rows as the whole, none twice.
    let (_, first) = run(&config, &maps, window(from, SHARED)).await.unwrap();
    let (_, second) = run(&config, &maps, window(SHARED, to)).await.unwrap();
    let mut halves: Vec<Seen> = sorted_seen(&first);
    halves.extend(sorted_seen(&second));
    halves.sort();
    assert_eq!(halves, expected);

    // A window with nothing in it reads nothing.
    let (detail, empty) = run(&config, &maps[2..], window(T0 + 3 * DAY, T0 + 4 * DAY))
        .await
        .unwrap();
    assert!(empty.pages.is_empty());
    assert_eq!(detail, format!("{shop}.daily_totals: 0 rows, 0 events"));
}
