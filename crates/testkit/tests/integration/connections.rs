//! Connections end to end against a Stripe fake on loopback: connecting seals the key (the
//! stored bytes never contain it, no response or history line shows it), runs climb the
//! backfill ladder and land charges and refunds as revenue equal to an independent sum of the
//! fake's data, re-reads store nothing twice, failures back off and "sync now" clears the
//! backoff, the lease lets one runner at a time, and every error the spec lists.

// The connector's own tests and these share one fake; these use only part of its controls.
use crate::stripe_fake;

use base64::Engine as _;
use payback_domain::{Clock, DAY_MS, HOUR_MS, MINUTE_MS};
use payback_server::secret::Secret;
use payback_server::services::sync;
use payback_store::connections as store;
use payback_testkit::{Backend, Session, TestApp, backend_tests, per_backend};
use serde_json::{Value, json};
use stripe_fake::{FakeCharge, FakeRefund, Seed, StripeFake};

const KEY: &str = "sk_test_51PaybackFakeKey0123456789";

fn secret_key() -> Secret {
    Secret::new(base64::engine::general_purpose::STANDARD.encode([42_u8; 32]))
}

/// Unix seconds `days` before the test clock's start.
fn days_ago(days: i64) -> i64 {
    (payback_testkit::TEST_START.millis() - days * DAY_MS) / 1000
}

/// Three charges (2, 10 and 40 days old) and a refund of part of the first.
fn seed() -> Seed {
    let mut first = FakeCharge::succeeded("ch_1", 5_000, "usd", days_ago(2));
    first.metadata.insert("user_id".into(), "u-1".into());
    let mut second = FakeCharge::succeeded("ch_2", 3_000, "usd", days_ago(10));
    second.billing_email = Some("buyer@example.com".into());
    let old = FakeCharge::succeeded("ch_3", 2_000, "usd", days_ago(40));
    Seed {
        charges: vec![first, second, old],
        refunds: vec![FakeRefund::succeeded(
            "re_1",
            1_000,
            "ch_1",
            "usd",
            days_ago(1),
        )],
        ..Seed::default()
    }
}

async fn spawn(backend: Backend, fake: &StripeFake) -> TestApp {
    let base = fake.base_url.clone();
    TestApp::spawn_with(backend, move |config| {
        config.secret_key = Some(secret_key());
        config.stripe_api_base = base;
    })
    .await
}

async fn founder(app: &TestApp) -> (Session, String) {
    let owner = app.signup_verified("founder@example.com").await;
    let product = app.create_product(&owner.token, "shop").await;
    (owner, product["id"].as_str().unwrap().to_owned())
}

async fn connect(app: &TestApp, token: &str, key: &str) -> String {
    let reply = app
        .post(
            "/products/shop/connections/payments",
            Some(token),
            json!({ "api_key": key, "default_stage": "payment" }),
        )
        .await;
    let body = reply.expect(200).clone();
    assert_eq!(body["ok"], true);
    body["connection_id"].as_str().unwrap().to_owned()
}

async fn connection(app: &TestApp, token: &str) -> Value {
    let list = app.get("/connections", Some(token)).await;
    let list = list.expect(200).as_array().unwrap().clone();
    assert_eq!(list.len(), 1, "{list:?}");
    list[0].clone()
}

async fn revenue(app: &TestApp, token: &str, days: i64) -> i64 {
    let report = app
        .get(
            &format!("/products/shop/attribution?days={days}"),
            Some(token),
        )
        .await;
    report.expect(200)["totals"]["revenue_cents"]
        .as_i64()
        .unwrap()
}

async fn run_now(app: &TestApp) -> String {
    sync::run_due(&app.state, app.clock.now()).await.unwrap()
}

async fn connect_sync_and_climb_the_ladder(backend: Backend) {
    let fake = StripeFake::start(KEY, seed()).await;
    let app = spawn(backend, &fake).await;
    let (owner, product_id) = founder(&app).await;
    let id = connect(&app, &owner.token, KEY).await;

    // The inventory shows the connection, redacted; nothing anywhere repeats the key.
    let shown = connection(&app, &owner.token).await;
    assert_eq!(shown["id"], id.as_str());
    assert_eq!(shown["kind"], "payments");
    assert_eq!(shown["status"], "active");
    assert_eq!(shown["product_slug"], "shop");
    assert_eq!(shown["backfill_days"], 0);
    assert_eq!(shown["syncing"], false);
    assert_eq!(shown["config"]["default_stage"], "payment");
    assert_eq!(shown["config"]["key"], "secret key (test mode)");
    let history = app.history(&owner.token, "?limit=1000").await;
    for text in [shown.to_string(), json!(history).to_string()] {
        assert!(!text.contains(KEY), "the key leaked: {text}");
    }
    // At rest the credential is sealed: its bytes do not contain the key.
    let row = store::find(&app.state.store, &product_id, "payments")
        .await
        .unwrap()
        .unwrap();
    let sealed = store::credential(&app.state.store, row.credential_id.as_deref().unwrap())
        .await
        .unwrap()
        .unwrap();
    assert!(
        !sealed
            .ciphertext
            .windows(KEY.len())
            .any(|w| w == KEY.as_bytes())
    );

    // First run: 30 days. ch_1 (5000) and ch_2 (3000) with the refund (-1000); ch_3 is older.
    assert_eq!(run_now(&app).await, "1 sync runs");
    let after_first = connection(&app, &owner.token).await;
    assert_eq!(after_first["backfill_days"], 30);
    assert_eq!(after_first["status"], "active");
    assert_eq!(after_first["last_error"], Value::Null);
    assert_eq!(after_first["last_sync_at"], app.clock.now().to_rfc3339());
    assert_eq!(
        after_first["last_detail"],
        "2 charges, 1 refund, 0 disputes read"
    );
    assert_eq!(revenue(&app, &owner.token, 30).await, 5_000 + 3_000 - 1_000);
    let asked = fake.requests();
    let charges = asked.iter().find(|r| r.path == "/v1/charges").unwrap();
    assert_eq!(
        charges.param("created[gte]"),
        Some(days_ago(30).to_string().as_str())
    );

    // Not due again before the hourly cadence.
    assert_eq!(run_now(&app).await, "0 sync runs");
    app.clock.advance(HOUR_MS);
    assert_eq!(run_now(&app).await, "1 sync runs");
    assert_eq!(connection(&app, &owner.token).await["backfill_days"], 365);
    // ch_3 arrived; the 30-day total is unchanged, the re-read stored nothing twice.
    assert_eq!(revenue(&app, &owner.token, 30).await, 7_000);
    assert_eq!(revenue(&app, &owner.token, 90).await, 7_000 + 2_000);

    app.clock.advance(HOUR_MS);
    run_now(&app).await;
    assert_eq!(connection(&app, &owner.token).await["backfill_days"], 3650);
    app.clock.advance(HOUR_MS);
    run_now(&app).await;
    let last = fake
        .requests()
        .into_iter()
        .rev()
        .find(|r| r.path == "/v1/charges")
        .unwrap();
    let since = (app.clock.now().millis() - 7 * DAY_MS) / 1000;
    assert_eq!(last.param("created[gte]"), Some(since.to_string().as_str()));
    assert_eq!(revenue(&app, &owner.token, 90).await, 9_000);

    // Disconnecting deletes the credential and keeps the revenue.
    let reply = app
        .post(
            "/products/shop/connections/payments/disconnect",
            Some(&owner.token),
            json!({}),
        )
        .await;
    assert_eq!(
        reply.expect(200),
        &json!({ "ok": true, "credential_deleted": true, "revoked_upstream": false })
    );
    assert!(
        store::credential(&app.state.store, row.credential_id.as_deref().unwrap())
            .await
            .unwrap()
            .is_none()
    );
    assert_eq!(
        app.get("/connections", Some(&owner.token))
            .await
            .expect(200),
        &json!([])
    );
    assert_eq!(revenue(&app, &owner.token, 90).await, 9_000);
    let actions: Vec<String> = app
        .history_where(&owner.token, |e| {
            e["action"].as_str().unwrap().starts_with("connection.")
        })
        .await
        .iter()
        .map(|e| e["action"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(actions, vec!["connection.connect", "connection.disconnect"]);
}

/// Connects of one product and kind that arrive together all succeed and leave one connection
/// (on PostgreSQL each used to find no row and insert one; all but the first failed with 500).
async fn concurrent_connects_leave_one_connection(backend: Backend) {
    let fake = StripeFake::start(KEY, seed()).await;
    let app = spawn(backend, &fake).await;
    let (owner, _) = founder(&app).await;
    let token = owner.token.as_str();
    let ids = tokio::join!(
        connect(&app, token, KEY),
        connect(&app, token, KEY),
        connect(&app, token, KEY),
        connect(&app, token, KEY),
        connect(&app, token, KEY),
        connect(&app, token, KEY),
    );
    let ids = [ids.0, ids.1, ids.2, ids.3, ids.4, ids.5];
    let shown = connection(&app, token).await;
    assert!(
        ids.iter().all(|id| shown["id"] == id.as_str()),
        "{ids:?} vs {shown}"
    );
    let credentials: i64 = app.sql_value("SELECT COUNT(*) FROM credentials", &[]).await;
    assert_eq!(
        credentials, 1,
        "replaced credentials are deleted with their connection's update"
    );
}

async fn failures_back_off_and_sync_now_clears_the_backoff(backend: Backend) {
    let fake = StripeFake::start(KEY, seed()).await;
    let app = spawn(backend, &fake).await;
    let (owner, _) = founder(&app).await;
    let wrong = "sk_test_51WrongKey9876543210";
    connect(&app, &owner.token, wrong).await;

    run_now(&app).await;
    let failed = connection(&app, &owner.token).await;
    assert_eq!(failed["status"], "error");
    let error = failed["last_error"].as_str().unwrap();
    assert!(error.contains("refused"), "{error}");
    assert!(!error.contains(wrong), "{error}");
    let first_retry = app.clock.now().plus_millis(5 * MINUTE_MS).to_rfc3339();
    assert_eq!(failed["next_sync_at"], first_retry);
    assert_eq!(failed["backfill_days"], 0);

    // Not before the backoff ends; then it doubles.
    assert_eq!(run_now(&app).await, "0 sync runs");
    app.clock.advance(5 * MINUTE_MS);
    assert_eq!(run_now(&app).await, "1 sync runs");
    let second_retry = app.clock.now().plus_millis(10 * MINUTE_MS).to_rfc3339();
    assert_eq!(
        connection(&app, &owner.token).await["next_sync_at"],
        second_retry
    );

    // The test call says why, as an answer rather than an error.
    let tested = app
        .post(
            "/products/shop/connections/payments/test",
            Some(&owner.token),
            json!({}),
        )
        .await;
    let tested = tested.expect(200);
    assert_eq!(tested["ok"], false);
    assert!(tested["detail"].as_str().unwrap().contains("refused"));

    // Re-keyed and synced now: the backoff is forgotten and the run succeeds.
    connect(&app, &owner.token, KEY).await;
    let started = app
        .post(
            "/products/shop/connections/payments/sync",
            Some(&owner.token),
            json!({}),
        )
        .await;
    let started = started.expect(200).clone();
    assert_eq!(started["started"], true);
    assert_eq!(started["days"], 30);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let shown = connection(&app, &owner.token).await;
        if shown["status"] == "active" && shown["backfill_days"] == 30 {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "sync now never finished: {shown}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(revenue(&app, &owner.token, 30).await, 7_000);
    let tested = app
        .post(
            "/products/shop/connections/payments/test",
            Some(&owner.token),
            json!({}),
        )
        .await;
    assert_eq!(tested.expect(200)["ok"], true);
}

/// The run lease: one claim wins while a run is live; a stamp older than 15 minutes is dead,
/// reads `syncing: false`, and may be taken over. A second "sync now" meanwhile starts nothing.
async fn one_runner_at_a_time(backend: Backend) {
    let fake = StripeFake::start(KEY, seed()).await;
    let app = spawn(backend, &fake).await;
    let (owner, _) = founder(&app).await;
    let id = connect(&app, &owner.token, KEY).await;
    let now = app.clock.now();
    let (a, b) = tokio::join!(
        store::claim(&app.state.store, &id, "instance-a", now),
        store::claim(&app.state.store, &id, "instance-b", now)
    );
    assert!(a.unwrap() ^ b.unwrap(), "exactly one claim wins");
    let shown = connection(&app, &owner.token).await;
    assert_eq!(shown["syncing"], true);
    assert_eq!(shown["sync_phase"], "starting");
    assert_eq!(run_now(&app).await, "0 sync runs");
    let again = app
        .post(
            "/products/shop/connections/payments/sync",
            Some(&owner.token),
            json!({}),
        )
        .await;
    assert_eq!(again.expect(200)["started"], false);

    app.clock.advance(15 * MINUTE_MS);
    assert_eq!(connection(&app, &owner.token).await["syncing"], false);
    assert_eq!(run_now(&app).await, "1 sync runs");
    assert_eq!(connection(&app, &owner.token).await["backfill_days"], 30);
}

async fn connection_errors(app: TestApp) {
    let (owner, _) = founder(&app).await;
    // Without PAYBACK_SECRET_KEY nothing can be stored.
    app.post(
        "/products/shop/connections/payments",
        Some(&owner.token),
        json!({ "api_key": KEY }),
    )
    .await
    .expect_error(503, "PAYBACK_SECRET_KEY");
    for (body, field) in [
        (json!({}), "api_key"),
        (json!({ "api_key": "   " }), "api_key"),
        (json!({ "api_key": KEY, "stage": "payment" }), "stage"),
    ] {
        app.post(
            "/products/shop/connections/payments",
            Some(&owner.token),
            body,
        )
        .await
        .expect_error(400, field);
    }
    app.post(
        "/products/shop/connections/payments",
        None,
        json!({ "api_key": KEY }),
    )
    .await
    .expect_error(401, "");
    for action in ["test", "sync", "disconnect"] {
        app.post(
            &format!("/products/shop/connections/payments/{action}"),
            Some(&owner.token),
            json!({}),
        )
        .await
        .expect_error(404, "payments");
    }
    app.post(
        "/products/shop/connections/seo-a/sync",
        Some(&owner.token),
        json!({}),
    )
    .await
    .expect_error(400, "seo-a");
    app.post(
        "/products/nope/connections/payments/test",
        Some(&owner.token),
        json!({}),
    )
    .await
    .expect_error(404, "product");
    assert_eq!(
        app.get("/connections", Some(&owner.token))
            .await
            .expect(200),
        &json!([])
    );
}

async fn keys_and_other_accounts(backend: Backend) {
    let fake = StripeFake::start(KEY, seed()).await;
    let app = spawn(backend, &fake).await;
    let (owner, _) = founder(&app).await;
    for (key, why) in [("pk_test_123", "publishable"), ("whatever", "key")] {
        let reply = app
            .post(
                "/products/shop/connections/payments",
                Some(&owner.token),
                json!({ "api_key": key }),
            )
            .await;
        reply.expect_error(400, "api_key");
        assert!(
            !reply.text.contains(key) || key == "whatever",
            "{}: {}",
            why,
            reply.text
        );
    }
    app.post(
        "/products/shop/connections/payments",
        Some(&owner.token),
        json!({ "api_key": KEY, "default_stage": "signup" }),
    )
    .await
    .expect_error(400, "default_stage");
    connect(&app, &owner.token, KEY).await;

    // Another account sees none of it and reaches none of it.
    let stranger = app.signup_verified("stranger@example.com").await;
    app.create_product(&stranger.token, "theirs").await;
    assert_eq!(
        app.get("/connections", Some(&stranger.token))
            .await
            .expect(200),
        &json!([])
    );
    for action in ["test", "sync", "disconnect"] {
        app.post(
            &format!("/products/shop/connections/payments/{action}"),
            Some(&stranger.token),
            json!({}),
        )
        .await
        .expect_error(404, "");
    }
    // An API key of the account may connect and read the inventory.
    let key = app.api_key(&owner).await;
    assert_eq!(
        app.get("/connections", Some(&key))
            .await
            .expect(200)
            .as_array()
            .unwrap()
            .len(),
        1
    );
    // Operators see every account's.
    let all = app.get("/connections", Some(&app.operator_token)).await;
    assert_eq!(all.expect(200).as_array().unwrap().len(), 1);
}

/// `GET /health` against numbers computed here: 9000 cents bought through paid search plus the
/// fake's 7000 cents nobody can place make the unattributed share 7000 / 16000 (over 25%: fail);
/// sources go from never to fresh to stale; the queue counts what waits and what expires soon.
async fn health_reads_sources_attribution_and_the_queue(backend: Backend) {
    let fake = StripeFake::start(KEY, seed()).await;
    let app = spawn(backend, &fake).await;
    let (owner, _) = founder(&app).await;
    let key = app.api_key(&owner).await;
    let events = json!({ "events": [
        { "dedupe_id": "v-9", "stage": "visit", "user_id": "u-9",
          "attribution": { "utm_source": "google", "utm_medium": "cpc" } },
        { "dedupe_id": "c-9", "stage": "converted", "user_id": "u-9", "value": 9_000 },
    ]});
    app.post("/products/shop/events", Some(&key), events)
        .await
        .expect(200);
    connect(&app, &owner.token, KEY).await;

    let health = app
        .get("/health", Some(&owner.token))
        .await
        .expect(200)
        .clone();
    assert_eq!(health["now"], app.clock.now().to_rfc3339());
    assert_eq!(health["jobs"], json!([]));
    let source = |health: &Value, name: &str| {
        health["sources"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["source"] == name)
            .unwrap()
            .clone()
    };
    assert_eq!(source(&health, "tracking")["status"], "fresh");
    assert_eq!(source(&health, "payments")["status"], "never");
    assert_eq!(health["attribution"][0]["revenue_cents"], 9_000);
    assert_eq!(health["attribution"][0]["status"], "healthy");

    run_now(&app).await;
    let health = app
        .get("/health", Some(&owner.token))
        .await
        .expect(200)
        .clone();
    assert_eq!(source(&health, "payments")["status"], "fresh");
    let attribution = &health["attribution"][0];
    let (revenue, unattributed) = (9_000 + 7_000, 7_000);
    assert_eq!(attribution["product_slug"], "shop");
    assert_eq!(attribution["window_days"], 30);
    assert_eq!(attribution["revenue_cents"], revenue);
    assert_eq!(attribution["unattributed_cents"], unattributed);
    assert_eq!(attribution["unattributed_share"], json!(7_000.0 / 16_000.0));
    assert_eq!(attribution["status"], "fail");
    assert_eq!(health["products"][0]["slug"], "shop");
    assert_eq!(health["products"][0]["status"], "fail");
    assert_eq!(health["queue"]["pending"], 0);

    // An agent's proposal waits; near its 72 hours it counts as expiring.
    let proposal = json!({ "network": "google", "to_cents": 2_000, "rationale": "Search pays back; raise it." });
    app.post("/products/shop/proposals", Some(&key), proposal)
        .await
        .expect(202);
    let queued_at = app.clock.now().to_rfc3339();
    let health = app
        .get("/health", Some(&owner.token))
        .await
        .expect(200)
        .clone();
    assert_eq!(
        health["queue"],
        json!({ "pending": 1, "oldest_pending_at": queued_at, "expiring_within_24h": 0 })
    );
    app.clock.advance(49 * HOUR_MS);
    let health = app
        .get("/health", Some(&owner.token))
        .await
        .expect(200)
        .clone();
    assert_eq!(health["queue"]["expiring_within_24h"], 1);
    // 49 hours without a run or an event: both sources are stale.
    assert_eq!(source(&health, "payments")["status"], "stale");
    assert_eq!(source(&health, "tracking")["status"], "stale");

    // Another account sees only its own (nothing); no bearer is a 401.
    let stranger = app.signup_verified("stranger@example.com").await;
    let theirs = app
        .get("/health", Some(&stranger.token))
        .await
        .expect(200)
        .clone();
    assert_eq!(theirs["products"], json!([]));
    assert_eq!(theirs["sources"], json!([]));
    assert_eq!(theirs["queue"]["pending"], 0);
    app.get("/health", None).await.expect_error(401, "");
}

per_backend!(
    connect_sync_and_climb_the_ladder,
    concurrent_connects_leave_one_connection,
    failures_back_off_and_sync_now_clears_the_backoff,
    one_runner_at_a_time,
    keys_and_other_accounts,
    health_reads_sources_attribution_and_the_queue,
);
backend_tests!(connection_errors);
