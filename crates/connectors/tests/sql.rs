#![allow(clippy::unwrap_used)]
//! The SQL connector against the machine's real PostgreSQL and MariaDB (or the servers named by
//! `PAYBACK_TEST_POSTGRES_URL` / `PAYBACK_TEST_MYSQL_URL`). Each test makes its own database,
//! inserts rows it generates here, and compares what the connector read with what those rows
//! should give, computed here independently of the connector's code.

#[path = "sql/support.rs"]
mod support;

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use payback_connectors::database::presets::{self, PresetError};
use payback_connectors::database::schema::{ColumnKind, DEFAULT_TABLES};
use payback_connectors::sql::{self, SqlConfig, SslMode};
use payback_connectors::{ConnectorError, SyncWindow};
use payback_domain::Timestamp;
use payback_domain::event::IncomingEvent;
use payback_domain::event_map::{EventMap, FieldSyntax, MoneyUnit, check_maps};
use serde_json::{Value, json};
use support::{Backend, RecordingSink, TestDb, date_literal, maybe, quoted, time_literal};

/// 2026-03-01T00:00:00Z in microseconds.
const T0: i64 = 1_772_323_200_000_000;
const MINUTE: i64 = 60_000_000;
const HOUR: i64 = 60 * MINUTE;
const DAY: i64 = 24 * HOUR;
/// Most orders share this instant, to the microsecond.
const SHARED: i64 = T0 + 5 * HOUR + 123_456;
/// Most signups share this one.
const SHARED_SIGNUP: i64 = T0 + DAY + 999_999;

macro_rules! on_both {
    ($($name:ident),* $(,)?) => {
        mod postgres {
            $(#[tokio::test]
            async fn $name() {
                super::$name(super::Backend::Postgres).await;
            })*
        }
        mod mysql {
            $(#[tokio::test]
            async fn $name() {
                super::$name(super::Backend::MySql).await;
            })*
        }
    };
}

on_both!(
    sync_reads_every_window_row_once_across_pages,
    filters_select_exactly_the_rows_they_name,
    a_window_over_the_row_limit_fails_before_writing,
    errors_name_what_to_fix_and_never_the_password,
    describe_lists_tables_columns_and_subsets,
    presets_fit_a_known_schema_and_their_maps_read,
    sessions_are_read_only_utc_and_say_so,
    a_slow_statement_is_cut_off,
    tls_follows_the_ssl_mode,
);

fn window(from_micros: i64, to_micros: i64) -> SyncWindow {
    SyncWindow {
        from: Timestamp::from_millis(from_micros.div_euclid(1000)),
        to: Timestamp::from_millis(to_micros.div_euclid(1000)),
    }
}

fn rfc3339(micros: i64) -> String {
    Timestamp::from_millis(micros.div_euclid(1000)).to_rfc3339()
}

fn parse_maps(value: Value) -> Vec<EventMap> {
    check_maps(serde_json::from_value(value).unwrap(), FieldSyntax::Column).unwrap()
}

async fn run(
    config: &SqlConfig,
    maps: &[EventMap],
    window: SyncWindow,
) -> Result<(String, RecordingSink), ConnectorError> {
    let mut sink = RecordingSink::default();
    let detail = sql::sync(config, maps, window, "USD", &mut sink).await?;
    Ok((detail, sink))
}

/// `-15.00` from -1500.
fn decimal(cents: i64) -> String {
    let sign = if cents < 0 { "-" } else { "" };
    format!("{sign}{}.{:02}", cents.abs() / 100, cents.abs() % 100)
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

// ---- filters ------------------------------------------------------------------------------

struct Ticket {
    id: i64,
    at: i64,
    status: Option<&'static str>,
    priority: i64,
    score_cents: i64,
    vip: bool,
}

fn tickets() -> Vec<Ticket> {
    let statuses = [Some("open"), Some("closed"), None, Some("pending")];
    (0..40i64)
        .map(|i| Ticket {
            id: i + 1,
            at: T0 + i * MINUTE,
            status: statuses[(i % 4) as usize],
            priority: i % 5,
            score_cents: (i * 373) % 2000,
            vip: i % 3 == 0,
        })
        .collect()
}

/// Creates and fills `tickets` in the default schema; answers the schema it is in.
async fn ticket_table(db: &mut TestDb) -> String {
    let ddl = match db.backend {
        Backend::Postgres => {
            "CREATE TABLE tickets (id integer PRIMARY KEY, created_at timestamptz NOT NULL, \
             status text, priority integer NOT NULL, score numeric(5,2) NOT NULL, \
             vip boolean NOT NULL)"
        }
        Backend::MySql => {
            "CREATE TABLE tickets (id INT PRIMARY KEY, created_at DATETIME(6) NOT NULL, \
             status VARCHAR(20) NULL, priority INT NOT NULL, score DECIMAL(5,2) NOT NULL, \
             vip BOOLEAN NOT NULL)"
        }
    };
    db.exec(ddl).await;
    let pg = db.backend == Backend::Postgres;
    let rows: Vec<String> = tickets()
        .iter()
        .map(|t| {
            format!(
                "({}, {}, {}, {}, {}, {})",
                t.id,
                time_literal(t.at, pg),
                maybe(t.status),
                t.priority,
                decimal(t.score_cents),
                if t.vip { "TRUE" } else { "FALSE" }
            )
        })
        .collect();
    db.exec(&format!("INSERT INTO tickets VALUES {}", rows.join(", ")))
        .await;
    match db.backend {
        Backend::Postgres => "public".to_owned(),
        Backend::MySql => db.name.clone(),
    }
}

fn ticket_map(filter: Value) -> Vec<EventMap> {
    parse_maps(
        json!([{"table": "tickets", "stage": "lead", "timestamp": "created_at",
                       "dedupe_key": "id", "filter": filter}]),
    )
}

fn ids(sink: &RecordingSink) -> BTreeSet<String> {
    sink.events().into_iter().map(|e| e.dedupe_id).collect()
}

async fn filters_select_exactly_the_rows_they_name(backend: Backend) {
    let mut db = TestDb::create(backend).await;
    ticket_table(&mut db).await;
    let config = db.config();
    type Keep = fn(&Ticket) -> bool;
    let cases: Vec<(Value, Keep)> = vec![
        (
            json!([{"column": "status", "op": "eq", "value": "open"}]),
            |t| t.status == Some("open"),
        ),
        // `ne` and `not_in` keep rows whose column is NULL.
        (
            json!([{"column": "status", "op": "ne", "value": "closed"}]),
            |t| t.status != Some("closed"),
        ),
        (
            json!([{"column": "priority", "op": "gt", "value": 2}]),
            |t| t.priority > 2,
        ),
        (
            json!([{"column": "priority", "op": "gte", "value": "2"}]),
            |t| t.priority >= 2,
        ),
        (
            json!([{"column": "priority", "op": "lt", "value": 2}]),
            |t| t.priority < 2,
        ),
        (
            json!([{"column": "score", "op": "lte", "value": 10.5}]),
            |t| t.score_cents <= 1050,
        ),
        (json!([{"column": "score", "op": "gt", "value": 3}]), |t| {
            t.score_cents > 300
        }),
        (
            json!([{"column": "status", "op": "in", "value": ["open", "pending"]}]),
            |t| matches!(t.status, Some("open" | "pending")),
        ),
        (
            json!([{"column": "status", "op": "not_in", "value": ["open"]}]),
            |t| t.status != Some("open"),
        ),
        (json!([{"column": "status", "op": "is_null"}]), |t| {
            t.status.is_none()
        }),
        (json!([{"column": "status", "op": "not_null"}]), |t| {
            t.status.is_some()
        }),
        (json!([{"column": "vip", "op": "eq", "value": true}]), |t| {
            t.vip
        }),
        (
            json!([{"column": "vip", "op": "eq", "value": false}]),
            |t| !t.vip,
        ),
        (
            json!([{"column": "STATUS", "op": "eq", "value": "open"},
                   {"column": "priority", "op": "gte", "value": 3}]),
            |t| t.status == Some("open") && t.priority >= 3,
        ),
    ];
    for (filter, keep) in cases {
        let (detail, sink) = run(&config, &ticket_map(filter.clone()), window(T0, T0 + DAY))
            .await
            .unwrap_or_else(|err| panic!("{filter}: {err}"));
        let want: BTreeSet<String> = tickets()
            .iter()
            .filter(|t| keep(t))
            .map(|t| format!("tickets/lead:{}", t.id))
            .collect();
        assert!(!want.is_empty(), "{filter} selects something");
        assert_eq!(ids(&sink), want, "{filter}");
        assert_eq!(
            detail,
            format!("tickets: {0} rows, {0} events", want.len()),
            "{filter}"
        );
    }
}

async fn a_window_over_the_row_limit_fails_before_writing(backend: Backend) {
    let mut db = TestDb::create(backend).await;
    let schema = ticket_table(&mut db).await;
    let total = tickets().len();
    let mut config = db.config();
    config.limits.max_rows_per_map = total - 1;
    let mut sink = RecordingSink::default();
    let err = sql::sync(
        &config,
        &ticket_map(json!([])),
        window(T0, T0 + DAY),
        "USD",
        &mut sink,
    )
    .await
    .expect_err("over the limit");
    let ConnectorError::Config(message) = &err else {
        panic!("{err:?}")
    };
    assert!(
        message.contains(&format!("`{schema}.tickets` has {total} rows")),
        "{message}"
    );
    assert!(message.contains("add a filter"), "{message}");
    assert!(sink.pages.is_empty());

    // A filter brings it under the limit.
    let open = json!([{"column": "status", "op": "eq", "value": "open"}]);
    let (_, sink) = run(&config, &ticket_map(open), window(T0, T0 + DAY))
        .await
        .unwrap();
    let open = tickets()
        .iter()
        .filter(|t| t.status == Some("open"))
        .count();
    assert_eq!(sink.events().len(), open);

    // Exactly at the limit is fine.
    config.limits.max_rows_per_map = total;
    let (_, sink) = run(&config, &ticket_map(json!([])), window(T0, T0 + DAY))
        .await
        .unwrap();
    assert_eq!(sink.events().len(), total);
}

// ---- errors -------------------------------------------------------------------------------

async fn errors_name_what_to_fix_and_never_the_password(backend: Backend) {
    let mut db = TestDb::create(backend).await;
    let schema = ticket_table(&mut db).await;
    let config = db.config();
    let secret = "Sup3r-Secret-Value-9";

    let missing_column = parse_maps(json!([{"table": "tickets", "stage": "lead",
        "timestamp": "created_at", "dedupe_key": "id", "email": "e_mail"}]));
    let err = run(&config, &missing_column, window(T0, T0 + DAY))
        .await
        .expect_err("missing column");
    assert!(
        matches!(&err, ConnectorError::Config(m)
            if m == &format!("column `e_mail` does not exist in table `{schema}.tickets`")),
        "{err:?}"
    );

    let missing_table = parse_maps(json!([{"table": "tickets_archive", "stage": "lead",
        "timestamp": "created_at", "dedupe_key": "id"}]));
    let err = run(&config, &missing_table, window(T0, T0 + DAY))
        .await
        .expect_err("missing table");
    assert!(
        matches!(&err, ConnectorError::Config(m) if m.contains("`tickets_archive` does not exist")),
        "{err:?}"
    );

    // Refused credentials: on MySQL this test's user with a wrong password; PostgreSQL here
    // trusts loopback, so a role that does not exist.
    let mut refused = config.clone();
    refused.credentials.password = Some(secret.to_owned());
    if backend == Backend::Postgres {
        refused.credentials.user = "payback_no_such_role".to_owned();
    }
    let err = sql::test(&refused).await.expect_err("refused");
    assert!(matches!(err, ConnectorError::Unauthorized(_)), "{err:?}");
    let text = format!("{err} {err:?}");
    assert!(!text.contains(secret), "{text}");
    assert!(text.contains(&refused.credentials.user), "{text}");
    let debug = format!("{refused:?}");
    assert!(!debug.contains(secret), "{debug}");

    // A port nothing listens on.
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let mut unreachable = config.clone();
    unreachable.credentials.host = "127.0.0.1".to_owned();
    unreachable.credentials.port = closed;
    unreachable.credentials.password = Some(secret.to_owned());
    let err = sql::test(&unreachable).await.expect_err("unreachable");
    assert!(matches!(err, ConnectorError::Unreachable(_)), "{err:?}");
    assert!(!format!("{err}").contains(secret));

    // A database that is not there (or, for this MySQL user, not theirs).
    let mut elsewhere = config.clone();
    elsewhere.credentials.database = format!("{}_missing", db.name);
    let err = sql::test(&elsewhere).await.expect_err("no database");
    assert!(
        matches!(&err, ConnectorError::Config(m) if m.contains(&elsewhere.credentials.database)),
        "{err:?}"
    );
}

// ---- describe -----------------------------------------------------------------------------

async fn describe_lists_tables_columns_and_subsets(backend: Backend) {
    let mut db = TestDb::create(backend).await;
    let pg = backend == Backend::Postgres;
    let analytics = db.schema("analytics").await;
    let mut ddl: Vec<String> = (0..33)
        .map(|i| format!("CREATE TABLE t{i:02} (id int, label varchar(20))"))
        .collect();
    ddl.push(if pg {
        "CREATE TABLE customers (id bigint PRIMARY KEY, email varchar(200), \
         balance numeric(10,2), active boolean, joined timestamptz, birthday date, \
         ratio double precision, meta jsonb)"
            .to_owned()
    } else {
        "CREATE TABLE customers (id BIGINT PRIMARY KEY, email VARCHAR(200), \
         balance DECIMAL(10,2), active BOOLEAN, joined DATETIME(6), birthday DATE, \
         ratio DOUBLE, meta BLOB)"
            .to_owned()
    });
    ddl.push("CREATE VIEW paid_orders AS SELECT id FROM t00".to_owned());
    ddl.push(format!(
        "CREATE TABLE {analytics}.sessions (id int, started_at {})",
        if pg { "timestamptz" } else { "DATETIME" }
    ));
    ddl.push(
        "INSERT INTO customers (id, email) VALUES (1, 'a@x.io'), (2, 'b@x.io'), (3, NULL)"
            .to_owned(),
    );
    ddl.push(
        if pg {
            "ANALYZE customers"
        } else {
            "ANALYZE TABLE customers"
        }
        .to_owned(),
    );
    db.exec(&ddl.join("; ")).await;
    let total_tables = 33 + 1 + 1 + 1;

    let summary = sql::describe(&db.config(), None).await.unwrap();
    let names: Vec<String> = summary.tables.iter().map(|t| t.name.clone()).collect();
    let mut want = vec!["customers".to_owned(), "paid_orders".to_owned()];
    want.extend((0..28).map(|i| format!("t{i:02}")));
    assert_eq!(names, want);
    assert_eq!(summary.tables.len(), DEFAULT_TABLES);
    assert_eq!(summary.more_tables, total_tables - DEFAULT_TABLES);
    assert!(summary.tables.iter().all(|t| t.schema.is_none()));

    let customers = &summary.tables[0];
    assert_eq!(customers.row_estimate, Some(3));
    assert_eq!(summary.tables[1].row_estimate, None);
    let columns: Vec<(&str, ColumnKind)> = customers
        .columns
        .iter()
        .map(|c| (c.name.as_str(), c.kind))
        .collect();
    assert_eq!(
        columns,
        vec![
            ("id", ColumnKind::Integer),
            ("email", ColumnKind::Text),
            ("balance", ColumnKind::Decimal),
            ("active", ColumnKind::Boolean),
            ("joined", ColumnKind::Timestamp),
            ("birthday", ColumnKind::Timestamp),
            ("ratio", ColumnKind::Decimal),
            ("meta", ColumnKind::Other),
        ]
    );
    let types: Vec<&str> = customers
        .columns
        .iter()
        .map(|c| c.data_type.as_str())
        .collect();
    if pg {
        assert_eq!(
            types,
            vec![
                "bigint",
                "character varying(200)",
                "numeric(10,2)",
                "boolean",
                "timestamp with time zone",
                "date",
                "double precision",
                "jsonb"
            ]
        );
    } else {
        let prefixes = [
            "bigint",
            "varchar(200)",
            "decimal(10,2)",
            "tinyint(1)",
            "datetime(6)",
            "date",
            "double",
            "blob",
        ];
        for (data_type, prefix) in types.iter().zip(prefixes) {
            assert!(data_type.starts_with(prefix), "{data_type} vs {prefix}");
        }
    }

    let subset = [
        "t05".to_owned(),
        format!("{analytics}.sessions"),
        "CUSTOMERS".to_owned(),
    ];
    let summary = sql::describe(&db.config(), Some(&subset)).await.unwrap();
    let named: Vec<(Option<String>, String)> = summary
        .tables
        .iter()
        .map(|t| (t.schema.clone(), t.name.clone()))
        .collect();
    assert_eq!(
        named,
        vec![
            (None, "t05".to_owned()),
            (Some(analytics.clone()), "sessions".to_owned()),
            (None, "customers".to_owned()),
        ]
    );
    assert_eq!(summary.more_tables, total_tables - 3);
    let sessions = &summary.tables[1];
    assert_eq!(sessions.columns[1].name, "started_at");
    assert_eq!(sessions.columns[1].kind, ColumnKind::Timestamp);

    let unknown = [
        "t05".to_owned(),
        "nope".to_owned(),
        format!("{analytics}.t05"),
    ];
    let err = sql::describe(&db.config(), Some(&unknown))
        .await
        .expect_err("unknown names");
    assert!(
        matches!(&err, ConnectorError::Config(m)
            if m.starts_with(&format!("unknown tables: `nope`, `{analytics}.t05`"))),
        "{err:?}"
    );
}

// ---- presets ------------------------------------------------------------------------------

async fn presets_fit_a_known_schema_and_their_maps_read(backend: Backend) {
    let mut db = TestDb::create(backend).await;
    let pg = backend == Backend::Postgres;
    // PostgreSQL: a Django project (auth_user, an app's shop_order in decimal amounts).
    // MySQL: a hand-made app (customers with utm columns, payments in integer cents).
    let users = (0..9i64).map(|i| {
        (
            i + 1,
            T0 + i * 5 * HOUR + 17,
            format!("User{i}@Mail.Example"),
        )
    });
    let sales = (0..12i64).map(|i| {
        let currency = if i == 4 { "EUR" } else { "USD" };
        (
            100 + i,
            T0 + i * 3 * HOUR + 250_001,
            990 + i * 1001,
            currency,
            (i % 9) + 1,
        )
    });
    let (user_table, sale_table) = if pg {
        db.exec(
            "CREATE TABLE auth_user (id serial PRIMARY KEY, password varchar(128) NOT NULL, \
             last_login timestamptz, is_superuser boolean NOT NULL, username varchar(150) NOT NULL, \
             first_name varchar(150) NOT NULL, last_name varchar(150) NOT NULL, \
             email varchar(254) NOT NULL, is_staff boolean NOT NULL, is_active boolean NOT NULL, \
             date_joined timestamptz NOT NULL); \
             CREATE TABLE shop_order (id bigserial PRIMARY KEY, created timestamptz NOT NULL, \
             total numeric(10,2) NOT NULL, currency varchar(3) NOT NULL, \
             user_id integer REFERENCES auth_user (id), status varchar(20) NOT NULL)",
        )
        .await;
        for (id, at, email) in users.clone() {
            db.exec(&format!(
                "INSERT INTO auth_user (id, password, is_superuser, username, first_name, \
                 last_name, email, is_staff, is_active, date_joined) VALUES ({id}, 'x', false, \
                 'u{id}', 'Zoë', 'Ångström', {}, false, true, {})",
                quoted(&email),
                time_literal(at, true)
            ))
            .await;
        }
        for (id, at, cents, currency, user) in sales.clone() {
            db.exec(&format!(
                "INSERT INTO shop_order VALUES ({id}, {}, {}, '{currency}', {user}, 'paid')",
                time_literal(at, true),
                decimal(cents)
            ))
            .await;
        }
        ("auth_user", "shop_order")
    } else {
        db.exec(
            "CREATE TABLE customers (id INT AUTO_INCREMENT PRIMARY KEY, created_at DATETIME(6) NOT NULL, \
             email VARCHAR(200) NOT NULL, utm_source VARCHAR(100), utm_campaign VARCHAR(100)); \
             CREATE TABLE payments (id BIGINT PRIMARY KEY, paid_at DATETIME(6) NOT NULL, \
             created_at DATETIME NOT NULL, amount_cents INT NOT NULL, currency CHAR(3) NOT NULL, \
             customer_id INT NOT NULL)",
        )
        .await;
        for (id, at, email) in users.clone() {
            db.exec(&format!(
                "INSERT INTO customers VALUES ({id}, {}, {}, 'newsletter', 'spring')",
                time_literal(at, false),
                quoted(&email)
            ))
            .await;
        }
        for (id, at, cents, currency, user) in sales.clone() {
            db.exec(&format!(
                "INSERT INTO payments VALUES ({id}, {}, {}, {cents}, '{currency}', {user})",
                time_literal(at, false),
                time_literal(T0 - DAY, false)
            ))
            .await;
        }
        ("customers", "payments")
    };

    let summary = sql::describe(&db.config(), None).await.unwrap();
    let suggested = presets::suggest(&summary, None).unwrap();
    let fitting: Vec<&str> = suggested
        .presets
        .iter()
        .filter(|p| p.fits)
        .map(|p| p.id.as_str())
        .collect();
    assert_eq!(
        fitting,
        if pg {
            vec!["django", "orders"]
        } else {
            vec!["signups", "orders"]
        }
    );
    let maps = check_maps(suggested.suggestions.clone(), FieldSyntax::Column).unwrap();
    assert_eq!(maps.len(), 2);
    let (signup, payment) = (&maps[0], &maps[1]);
    assert_eq!(
        (signup.table.as_str(), signup.stage.as_str()),
        (user_table, "signup")
    );
    assert_eq!(
        (payment.table.as_str(), payment.stage.as_str()),
        (sale_table, "payment")
    );
    let revenue = payment.revenue.as_ref().unwrap();
    if pg {
        assert_eq!(signup.timestamp, "date_joined");
        assert_eq!(payment.timestamp, "created");
        assert_eq!(
            (revenue.column.as_str(), revenue.unit),
            ("total", MoneyUnit::Major)
        );
    } else {
        assert_eq!(signup.timestamp, "created_at");
        assert_eq!(
            signup.attribution.get("utm_source").map(String::as_str),
            Some("utm_source")
        );
        assert_eq!(payment.timestamp, "paid_at");
        assert_eq!(
            (revenue.column.as_str(), revenue.unit),
            ("amount_cents", MoneyUnit::Cents)
        );
    }
    assert_eq!(revenue.currency.as_deref(), Some("currency"));
    let only = presets::suggest(&summary, Some("orders")).unwrap();
    assert_eq!(only.suggestions, vec![payment.clone()]);
    assert_eq!(
        presets::suggest(&summary, Some("leads")).unwrap_err(),
        PresetError::DoesNotFit("leads".to_owned())
    );

    // The suggestions read what the rows hold.
    let (from, to) = (T0, T0 + DAY);
    let (_, sink) = run(&db.config(), &maps, window(from, to)).await.unwrap();
    let mut want: Vec<(String, Option<String>, Option<i64>)> = users
        .filter(|(_, at, _)| *at < to)
        .map(|(id, _, email)| (format!("{user_table}/signup:{id}"), Some(email), None))
        .collect();
    want.extend(
        sales
            .filter(|(_, at, _, currency, _)| *at < to && *currency == "USD")
            .map(|(id, _, cents, _, _)| (format!("{sale_table}/payment:{id}"), None, Some(cents))),
    );
    want.sort();
    let mut got: Vec<(String, Option<String>, Option<i64>)> = sink
        .events()
        .into_iter()
        .map(|e| (e.dedupe_id, e.email, e.value))
        .collect();
    got.sort();
    assert_eq!(got, want);
}

// ---- the session --------------------------------------------------------------------------

/// `PostgreSQL 15.20` / `MariaDB 10.11.19`, from the server's own version string.
async fn server_label(db: &mut TestDb) -> String {
    let version = match db.backend {
        Backend::Postgres => db.text("SHOW server_version").await,
        Backend::MySql => db.text("SELECT CAST(VERSION() AS CHAR)").await,
    };
    let number: String = version
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    let product = match db.backend {
        Backend::Postgres => "PostgreSQL",
        Backend::MySql if version.contains("MariaDB") => "MariaDB",
        Backend::MySql => "MySQL",
    };
    format!("{product} {number}")
}

async fn sessions_are_read_only_utc_and_say_so(backend: Backend) {
    let mut db = TestDb::create(backend).await;
    let pg = backend == Backend::Postgres;
    let config = db.config();

    let settings = sql::session_settings(&config).await.unwrap();
    assert!(settings.read_only);
    assert_eq!(settings.server, server_label(&mut db).await);
    if pg {
        assert_eq!(settings.time_zone, "UTC");
        assert_eq!(settings.statement_timeout, "10s");
    } else {
        assert_eq!(settings.time_zone, "+00:00");
        let limit: f64 = settings.statement_timeout.parse().unwrap();
        assert!(limit == 10.0 || limit == 10_000.0, "{limit}");
    }

    // A view whose column calls a function that writes: through the connector's session the
    // write is refused; through the setup connection the same read writes.
    if pg {
        db.exec(
            "CREATE TABLE audit_log (n integer); \
             CREATE TABLE base_rows (id integer PRIMARY KEY, created_at timestamptz NOT NULL); \
             CREATE FUNCTION bump() RETURNS integer LANGUAGE plpgsql AS \
               $$ BEGIN INSERT INTO audit_log VALUES (1); RETURN 1; END $$; \
             CREATE VIEW sneaky AS SELECT id, created_at, bump() AS touched FROM base_rows",
        )
        .await;
    } else {
        db.exec(
            "CREATE TABLE audit_log (n INT); \
             CREATE TABLE base_rows (id INT PRIMARY KEY, created_at DATETIME(6) NOT NULL)",
        )
        .await;
        db.exec(
            "CREATE FUNCTION bump() RETURNS INT MODIFIES SQL DATA \
             BEGIN INSERT INTO audit_log VALUES (1); RETURN 1; END",
        )
        .await;
        db.exec("CREATE VIEW sneaky AS SELECT id, created_at, bump() AS touched FROM base_rows")
            .await;
    }
    db.exec(&format!(
        "INSERT INTO base_rows VALUES (1, {}), (2, {})",
        time_literal(T0 + HOUR, pg),
        time_literal(T0 + 2 * HOUR, pg)
    ))
    .await;
    let sneaky = parse_maps(json!([{"table": "sneaky", "stage": "signup",
        "timestamp": "created_at", "dedupe_key": "id", "user_id": "touched"}]));
    let err = run(&config, &sneaky, window(T0, T0 + DAY))
        .await
        .expect_err("the write is refused");
    // PostgreSQL refuses the write itself; MariaDB already hides such a view's columns from
    // a read-only session.
    assert!(
        match (&err, pg) {
            (ConnectorError::Vendor(m), true) =>
                m.contains("refused a write") && m.contains("read-only"),
            (ConnectorError::Config(m), false) =>
                m.contains("`sneaky` shows no columns to the connector's read-only session"),
            _ => false,
        },
        "{err:?}"
    );
    assert_eq!(db.number("SELECT COUNT(*) FROM audit_log").await, 0);
    let control = if pg {
        "SELECT COUNT(touched) FROM sneaky"
    } else {
        "SELECT CAST(COUNT(touched) AS SIGNED) FROM sneaky"
    };
    assert_eq!(db.number(control).await, 2);
    assert_eq!(db.number("SELECT COUNT(*) FROM audit_log").await, 2);

    // `test` reports the server, the database and what is readable.
    let tables = 2 + 1; // audit_log, base_rows, the view
    let detail = sql::test(&config).await.unwrap();
    assert_eq!(
        detail,
        format!(
            "{} answers; database {}, {tables} tables readable; read-only session",
            server_label(&mut db).await,
            db.name
        )
    );
}

async fn a_slow_statement_is_cut_off(backend: Backend) {
    let mut db = TestDb::create(backend).await;
    let pg = backend == Backend::Postgres;
    if pg {
        db.exec(
            "CREATE TABLE base_rows (id integer PRIMARY KEY, created_at timestamptz NOT NULL); \
             CREATE FUNCTION slow_id(n integer) RETURNS integer LANGUAGE plpgsql AS \
               $$ BEGIN PERFORM pg_sleep(0.5); RETURN n; END $$; \
             CREATE VIEW slow_rows AS SELECT slow_id(id) AS id, created_at FROM base_rows",
        )
        .await;
    } else {
        db.exec(
            "CREATE TABLE base_rows (id INT PRIMARY KEY, created_at DATETIME(6) NOT NULL); \
             CREATE VIEW slow_rows AS SELECT id + SLEEP(0.5) AS id, created_at FROM base_rows",
        )
        .await;
    }
    let rows: Vec<String> = (1..=8)
        .map(|i| format!("({i}, {})", time_literal(T0 + i * MINUTE, pg)))
        .collect();
    db.exec(&format!("INSERT INTO base_rows VALUES {}", rows.join(", ")))
        .await;
    let mut config = db.config();
    config.limits.statement_timeout = Duration::from_secs(1);
    let slow = parse_maps(json!([{"table": "slow_rows", "stage": "visit",
        "timestamp": "created_at", "dedupe_key": "id"}]));
    let started = Instant::now();
    let err = run(&config, &slow, window(T0, T0 + DAY))
        .await
        .expect_err("cut off");
    let elapsed = started.elapsed();
    assert!(
        matches!(&err, ConnectorError::Vendor(m) if m.contains("statement timed out after 1s")),
        "{err:?}"
    );
    // Eight rows at half a second each would take four.
    assert!(elapsed < Duration::from_millis(3500), "{elapsed:?}");
}

async fn tls_follows_the_ssl_mode(backend: Backend) {
    let mut db = TestDb::create(backend).await;
    let server_has_tls = match backend {
        Backend::Postgres => db.text("SHOW ssl").await == "on",
        Backend::MySql => db.text("SELECT CAST(@@have_ssl AS CHAR)").await == "YES",
    };
    let mut config = db.config();
    config.credentials.ssl_mode = SslMode::Disable;
    let plain = sql::test(&config).await.unwrap();
    assert!(plain.ends_with("read-only session"), "{plain}");

    config.credentials.ssl_mode = SslMode::Require;
    let required = sql::test(&config).await;
    if server_has_tls {
        assert_eq!(required.unwrap(), plain);
    } else {
        let err = required.expect_err("no TLS on this server");
        assert!(
            matches!(&err, ConnectorError::Unreachable(m) if m.contains("TLS")),
            "{err:?}"
        );
    }
}
