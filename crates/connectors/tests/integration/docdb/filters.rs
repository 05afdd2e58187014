//! Filters and the row limit: the documents each filter operator selects, and a window over the
//! per-map row limit failing before anything is written.

use super::*;
use payback_connectors::database::source::Database;

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
        let detail = config("filters", limits(7, 1_000))
            .read(&maps, window(), "USD", &mut sink)
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
    let detail = config("row_limit", limits(5, 12))
        .read(&maps, window, "USD", &mut sink)
        .await
        .unwrap();
    assert_eq!(detail, "visits: 12 rows, 12 events");
    assert_eq!(
        sink.pages.iter().map(Vec::len).collect::<Vec<_>>(),
        vec![5, 5, 2]
    );

    let mut sink = RecordingSink::default();
    let error = config("row_limit", limits(5, 11))
        .read(&maps, window, "USD", &mut sink)
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
