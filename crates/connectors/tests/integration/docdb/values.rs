//! Values over the wire: an ObjectId, a date, small and big integers, a double and a boolean
//! reach the event as the values they are, and a non-email is skipped saying why.

use super::*;
use payback_connectors::database::source::Database;

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
    let detail = config("wire_values", limits(7, 100))
        .read(&maps, window(), "USD", &mut sink)
        .await
        .unwrap();
    // `label` is no email: the one document is skipped and says why.
    assert_eq!(
        detail,
        "things: 1 rows, 0 events, 1 skipped (first: row 5a5a5a5a5a5a5a5a5a5a5a5a: email: must be an email address)"
    );

    let maps = maps_without_email(maps);
    let mut sink = RecordingSink::default();
    config("wire_values", limits(7, 100))
        .read(&maps, window(), "USD", &mut sink)
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
