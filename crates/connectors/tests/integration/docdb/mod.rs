//! The docdb connector over the wire, against nx-27017 on loopback (see `nx_server`). Each test
//! inserts its documents with the driver into its own database and computes the expected
//! events from its own data model, independently of the connector's mapping code.
//!
//! nx-27017 answers Int64 as Int32 and stores neither Decimal128 nor BSON Timestamps, so these
//! tests compare values; the type-exact mapping is tested in process (`docdb::mapping`).
//!
//! The modules:
//! - `nx_server` (in `tests/nx_server`, shared with the server's tests): the server on loopback;
//! - `paging`: the orders data set, read in pages into events;
//! - `filters`: each filter operator against an oracle, and the per-map row limit;
//! - `describe`: the schema summary, sampled from the newest documents;
//! - `values`: values that cross the wire (ids, dates, big integers, doubles, booleans);
//! - `connection`: `test` pinging and counting, a closed port, a refused login, only the checked
//!   seed dialed (never a name again, never an announced replica-set member; the stand-in
//!   primary is `fake_replica_set`).

use crate::{fake_replica_set, nx_server};

mod connection;
mod describe;
mod filters;
mod paging;
mod values;

use std::collections::BTreeSet;
use std::future::Future;
use std::time::Duration;

use bson::oid::ObjectId;
use bson::{Bson, DateTime, Document, doc};
use payback_connectors::database::{EventSink, ReadLimits};
use payback_connectors::docdb::{self, DocdbConfig, DocdbCredentials, Seed};
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
        seeds: vec![loopback(nx_server::server().port)],
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

/// The seed the server's host guard would hand the connector for `127.0.0.1:<port>`.
fn loopback(port: u16) -> Seed {
    Seed {
        host: "127.0.0.1".to_owned(),
        port,
        addresses: vec![std::net::Ipv4Addr::LOCALHOST.into()],
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
