//! The schema summary: the first collections or the named ones, columns (nested paths included)
//! and their types as sampled from the newest documents, and unknown names refused.

use super::*;

use payback_connectors::database::schema::{ColumnKind, ColumnSummary};

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
