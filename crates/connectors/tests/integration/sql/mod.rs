//! The SQL connector against the machine's real PostgreSQL and MariaDB (or the servers named by
//! `PAYBACK_TEST_POSTGRES_URL` / `PAYBACK_TEST_MYSQL_URL`). Each test makes its own database,
//! inserts rows it generates here, and compares what the connector read with what those rows
//! should give, computed here independently of the connector's code.
//!
//! Every test runs on both servers (`on_both!`, invoked by each module for its tests):
//! - `support`: the servers, a fresh database per test, SQL literals, a recording sink;
//! - `fixtures`: the `tickets` table the filter, row-limit and error tests read;
//! - `paging`: the shop data set, read in pages and in adjacent windows;
//! - `filters`: each filter operator, and the per-map row limit;
//! - `errors`: what an error names, and that it never shows the password;
//! - `describe`: the schema summary, its default subset and named tables;
//! - `presets`: presets fitting known schemas, and their suggested maps reading;
//! - `session`: read-only UTC sessions, the statement timeout, TLS by the SSL mode.

mod support;

use payback_connectors::database::source::Database;
use payback_connectors::sql::{self, SqlConfig};
use payback_connectors::{ConnectorError, SyncWindow};
use payback_domain::Timestamp;
use payback_domain::event_map::{EventMap, FieldSyntax, check_maps};
use serde_json::{Value, json};
use support::{Backend, RecordingSink, TestDb, maybe, quoted, time_literal};

/// 2026-03-01T00:00:00Z in microseconds.
const T0: i64 = 1_772_323_200_000_000;
const MINUTE: i64 = 60_000_000;
const HOUR: i64 = 60 * MINUTE;
const DAY: i64 = 24 * HOUR;

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

mod describe;
mod errors;
mod filters;
mod fixtures;
mod paging;
mod presets;
mod session;

fn window(from_micros: i64, to_micros: i64) -> SyncWindow {
    SyncWindow {
        from: Timestamp::from_millis(from_micros.div_euclid(1000)),
        to: Timestamp::from_millis(to_micros.div_euclid(1000)),
    }
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
    let detail = config.read(maps, window, "USD", &mut sink).await?;
    Ok((detail, sink))
}

/// `-15.00` from -1500.
fn decimal(cents: i64) -> String {
    let sign = if cents < 0 { "-" } else { "" };
    format!("{sign}{}.{:02}", cents.abs() / 100, cents.abs() % 100)
}
