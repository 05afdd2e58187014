//! A product's MongoDB (`docdb`) end to end, over the wire against nx-27017 on loopback:
//! connecting with a connection string and dot-path maps, the sync reads signups and orders,
//! and the attribution report equals an independent sum of the inserted documents (the
//! cancelled order filtered out, the untagged users `unattributed`). The connection string's
//! password never shows. A server announcing another replica-set member never gets it dialed.

use crate::{fake_replica_set, nx_server};

use base64::Engine as _;
use bson::{DateTime, Document, doc};
use payback_domain::{Clock, DAY_MS, HOUR_MS};
use payback_server::secret::Secret;
use payback_server::services::sync;
use payback_testkit::{Backend, TEST_START, TestApp, per_backend};
use serde_json::{Value, json};

const USERS: i64 = 12;

fn at(days_ago: i64, plus_hours: i64) -> DateTime {
    DateTime::from_millis(TEST_START.millis() - days_ago * DAY_MS + plus_hours * HOUR_MS)
}

/// User `i` signed up `2i + 1` days ago; users 0, 2, 4... came from a Google ad, the rest
/// untagged. Users divisible by 3 ordered (amount 500 + 100 i cents) an hour later; user 9's
/// order was cancelled.
fn documents() -> (Vec<Document>, Vec<Document>) {
    let mut users = Vec::new();
    let mut orders = Vec::new();
    for i in 0..USERS {
        let mut user = doc! {
            "_id": format!("u{i:02}"), "created_at": at(2 * i + 1, 0),
            "profile": { "email": format!("person{i}@example.com") },
        };
        if i % 2 == 0 {
            user.insert("utm", doc! { "source": "google", "medium": "cpc" });
        }
        users.push(user);
        if i % 3 == 0 {
            let status = if i == 9 { "cancelled" } else { "paid" };
            orders.push(doc! {
                "_id": format!("o{i:02}"), "customer": { "id": format!("u{i:02}") },
                "paid_at": at(2 * i + 1, 1), "amount_cents": 500 + 100 * i, "status": status,
            });
        }
    }
    (users, orders)
}

fn expected_by_channel() -> (i64, i64) {
    let (mut google, mut unattributed) = (0, 0);
    for i in (0..USERS).filter(|i| i % 3 == 0 && *i != 9) {
        if i % 2 == 0 {
            google += 500 + 100 * i;
        } else {
            unattributed += 500 + 100 * i;
        }
    }
    (google, unattributed)
}

async fn docdb_numbers(backend: Backend) {
    let server = nx_server::server();
    let database = format!("shop_{}", uuid::Uuid::new_v4().simple());
    let client = mongodb::Client::with_uri_str(server.uri(&database))
        .await
        .unwrap();
    let (users, orders) = documents();
    let db = client.database(&database);
    db.collection::<Document>("users")
        .insert_many(users)
        .await
        .unwrap();
    db.collection::<Document>("orders")
        .insert_many(orders)
        .await
        .unwrap();

    let app = TestApp::spawn_with(backend, |config| {
        config.secret_key = Some(Secret::new(
            base64::engine::general_purpose::STANDARD.encode([3_u8; 32]),
        ));
    })
    .await;
    let owner = app.signup_verified("founder@example.com").await;
    app.create_product(&owner.token, "shop").await;
    // nx-27017 accepts any user; the password must still never show.
    let uri = server
        .uri(&database)
        .replace("mongodb://", "mongodb://reader:s3cret-mongo-pw@");
    let maps = json!([
        { "collection": "users", "stage": "signup", "timestamp": "created_at", "dedupe_key": "_id",
          "user_id": "_id", "email": "profile.email",
          "attribution": { "utm_source": "utm.source", "utm_medium": "utm.medium" } },
        { "collection": "orders", "stage": "payment", "timestamp": "paid_at", "dedupe_key": "_id",
          "user_id": "customer.id", "revenue": { "column": "amount_cents", "unit": "cents" },
          "filter": [{ "column": "status", "op": "eq", "value": "paid" }] }
    ]);
    let uri_without_user = server.uri(&database);
    let reply = app
        .post(
            "/products/shop/connections/docdb",
            Some(&owner.token),
            json!({ "credentials": { "uri": uri_without_user }, "event_maps": maps }),
        )
        .await;
    assert_eq!(reply.expect(200)["status"], "active");
    let ran = sync::run_due(&app.state, app.clock.now()).await.unwrap();
    assert_eq!(ran, "1 sync runs");
    let list = app
        .get("/connections", Some(&owner.token))
        .await
        .expect(200)
        .clone();
    assert_eq!(list[0]["last_error"], Value::Null, "{list}");
    assert_eq!(list[0]["backfill_days"], 30);
    assert_eq!(
        list[0]["config"]["target"],
        format!("mongodb://127.0.0.1:{}/{database}", server.port)
    );

    let report = app
        .get("/products/shop/attribution?days=30", Some(&owner.token))
        .await
        .expect(200)
        .clone();
    let (google, unattributed) = expected_by_channel();
    let revenue_of = |channel: &str| {
        report["channels"]
            .as_array()
            .unwrap()
            .iter()
            .find(|row| row["channel"] == channel)
            .map_or(0, |row| row["revenue_first_cents"].as_i64().unwrap())
    };
    assert_eq!(revenue_of("paid_google"), google);
    assert_eq!(revenue_of("unattributed"), unattributed);
    assert_eq!(report["totals"]["revenue_cents"], google + unattributed);

    // Re-connecting with a password in the URI: the inventory and history never show it.
    app.post(
        "/products/shop/connections/docdb",
        Some(&owner.token),
        json!({ "credentials": { "uri": uri } }),
    )
    .await
    .expect(200);
    let shown = app
        .get("/connections", Some(&owner.token))
        .await
        .expect(200)
        .to_string();
    let history = json!(app.history(&owner.token, "?limit=100").await).to_string();
    for text in [shown, history] {
        assert!(
            !text.contains("s3cret-mongo-pw") && !text.contains("reader:"),
            "{text}"
        );
    }
}

/// The server a tenant names may announce other replica-set members (an address next to the
/// API host, say) in its `hello`: the connection test and a sync run talk to the checked host
/// only, over a direct connection, and never dial the announced member.
async fn announced_members_are_never_dialed(backend: Backend) {
    let set = fake_replica_set::FakeReplicaSet::start().await;
    let app = TestApp::spawn_with(backend, |config| {
        config.secret_key = Some(Secret::new(
            base64::engine::general_purpose::STANDARD.encode([3_u8; 32]),
        ));
    })
    .await;
    let owner = app.signup_verified("founder@example.com").await;
    app.create_product(&owner.token, "shop").await;
    let token = Some(owner.token.as_str());
    let maps = json!([{ "collection": "users", "stage": "signup", "timestamp": "created_at",
                        "dedupe_key": "_id" }]);
    app.post(
        "/products/shop/connections/docdb",
        token,
        json!({ "credentials": { "uri": set.uri("shop") }, "event_maps": maps }),
    )
    .await
    .expect(200);
    let tested = app
        .post("/products/shop/connections/docdb/test", token, json!({}))
        .await
        .expect(200)
        .clone();
    assert_eq!(tested["ok"], true, "{tested}");
    sync::run_due(&app.state, app.clock.now()).await.unwrap();
    // The driver's monitors start at once; give one the time to follow the announcement.
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert_eq!(set.member_connections(), 0, "port {}", set.member_port);
}

per_backend!(docdb_numbers, announced_members_are_never_dialed);
