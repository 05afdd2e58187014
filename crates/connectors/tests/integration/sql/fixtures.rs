//! The `tickets` table (40 rows over 40 minutes, NULL statuses among them) that the filter,
//! row-limit and error tests read.

use super::*;

pub(super) struct Ticket {
    pub(super) id: i64,
    pub(super) at: i64,
    pub(super) status: Option<&'static str>,
    pub(super) priority: i64,
    pub(super) score_cents: i64,
    pub(super) vip: bool,
}

pub(super) fn tickets() -> Vec<Ticket> {
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
pub(super) async fn ticket_table(db: &mut TestDb) -> String {
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

pub(super) fn ticket_map(filter: Value) -> Vec<EventMap> {
    parse_maps(
        json!([{"table": "tickets", "stage": "lead", "timestamp": "created_at",
                       "dedupe_key": "id", "filter": filter}]),
    )
}
