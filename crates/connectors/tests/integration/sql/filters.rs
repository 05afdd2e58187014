//! Filters: each operator selects exactly the rows it names (NULLs included where SQL keeps
//! them), and a window over the per-map row limit fails before writing anything.

use super::*;
use payback_connectors::database::source::Database;

use std::collections::BTreeSet;

use super::fixtures::{Ticket, ticket_map, ticket_table, tickets};

on_both!(
    filters_select_exactly_the_rows_they_name,
    a_window_over_the_row_limit_fails_before_writing,
);

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
    let err = config
        .read(
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
