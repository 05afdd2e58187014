//! `suggest-mappings` against a real PostgreSQL customer database: the preset path proposes
//! maps for a recognised schema and says which presets fit; the AI path asks a chat-completions
//! fake on loopback (the OpenAI request shape, bearer key, the schema in the prompt) and admits
//! only proposals that pass the map rules and name tables and columns that exist. Nothing is
//! saved. Errors: 400 (source, empty tables on the AI path, unknown tables), 404 (connection,
//! preset), 409 (no credentials), 502 (gateway failure), 503 (no gateway key).

use std::sync::{Arc, Mutex};

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use base64::Engine as _;
use payback_server::secret::Secret;
use payback_testkit::customer_db::{CustomerDb, Engine};
use payback_testkit::{Backend, Session, TestApp, per_backend};
use serde_json::{Value, json};

/// One request the fake received: its `Authorization` header and its body.
type Recorded = (Option<String>, Value);

/// A chat-completions endpoint that records each request and answers `content`, or `status`.
#[derive(Clone)]
struct GatewayFake {
    requests: Arc<Mutex<Vec<Recorded>>>,
    content: String,
    status: StatusCode,
}

impl GatewayFake {
    async fn start(content: Value, status: StatusCode) -> (Self, String) {
        let fake = Self {
            requests: Arc::default(),
            content: content.to_string(),
            status,
        };
        let app = axum::Router::new()
            .route("/v1/chat/completions", post(answer))
            .with_state(fake.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/v1", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        (fake, url)
    }
}

async fn answer(
    State(fake): State<GatewayFake>,
    headers: HeaderMap,
    axum::Json(body): axum::Json<Value>,
) -> (StatusCode, axum::Json<Value>) {
    let auth = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    fake.requests.lock().unwrap().push((auth, body));
    if fake.status != StatusCode::OK {
        return (
            fake.status,
            axum::Json(json!({ "error": { "message": "overloaded" } })),
        );
    }
    let completion = json!({
        "id": "chatcmpl-1", "object": "chat.completion", "created": 1_795_262_400,
        "model": "gpt-4o-mini-2024-07-18",
        "choices": [{ "index": 0, "finish_reason": "stop",
                      "message": { "role": "assistant", "content": fake.content } }],
        "usage": { "prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20 }
    });
    (StatusCode::OK, axum::Json(completion))
}

fn secret_key() -> Secret {
    Secret::new(base64::engine::general_purpose::STANDARD.encode([5_u8; 32]))
}

async fn shop_database() -> CustomerDb {
    let db = CustomerDb::create(Engine::Postgres).await;
    db.execute(&[
        "CREATE TABLE users (id BIGSERIAL PRIMARY KEY, email TEXT NOT NULL, created_at TIMESTAMPTZ NOT NULL, \
         utm_source TEXT, utm_medium TEXT, utm_campaign TEXT)",
        "CREATE TABLE orders (id BIGSERIAL PRIMARY KEY, user_id BIGINT NOT NULL, amount_cents INTEGER NOT NULL, \
         currency TEXT NOT NULL, created_at TIMESTAMPTZ NOT NULL)",
        "CREATE TABLE feature_flags (name TEXT PRIMARY KEY, enabled BOOLEAN NOT NULL)",
    ])
    .await;
    db
}

async fn connected(app: &TestApp, db: &CustomerDb) -> Session {
    let owner = app.signup_verified("founder@example.com").await;
    app.create_product(&owner.token, "shop").await;
    app.post(
        "/products/shop/connections/sql-a",
        Some(&owner.token),
        json!({ "credentials": db.credentials() }),
    )
    .await
    .expect(200);
    owner
}

fn suggest_path() -> &'static str {
    "/products/shop/connections/sql-a/suggest-mappings"
}

async fn connections_unchanged(app: &TestApp, token: &str) {
    let list = app
        .get("/connections", Some(token))
        .await
        .expect(200)
        .clone();
    assert_eq!(
        list[0]["event_maps"],
        json!([]),
        "suggestions are never saved"
    );
    assert_eq!(list[0]["status"], "pending");
}

async fn the_ai_path_admits_only_what_exists(backend: Backend) {
    let proposals = json!({ "suggestions": [
        { "table": "users", "stage": "signup", "timestamp": "created_at", "dedupe_key": "id",
          "email": "email", "attribution": { "utm_source": "utm_source" } },
        { "table": "orders", "stage": "payment", "timestamp": "created_at", "dedupe_key": "id",
          "user_id": "user_id", "revenue": { "column": "total", "unit": "cents" } },
        { "table": "users", "stage": "sale", "timestamp": "created_at", "dedupe_key": "id" },
        { "table": "ghosts", "stage": "lead", "timestamp": "created_at", "dedupe_key": "id" },
        "not a map"
    ]});
    let (fake, url) = GatewayFake::start(proposals, StatusCode::OK).await;
    let db = shop_database().await;
    let app = TestApp::spawn_with(backend, move |config| {
        config.secret_key = Some(secret_key());
        config.model_gateway_url = url;
        config.model_gateway_key = Some(Secret::new("gw-key-123".to_owned()));
        config.model = "gpt-4o-mini".to_owned();
    })
    .await;
    let owner = connected(&app, &db).await;
    let reply = app
        .post(
            suggest_path(),
            Some(&owner.token),
            json!({ "source": "ai", "tables": ["users", "orders"] }),
        )
        .await;
    let body = reply.expect(200).clone();
    assert_eq!(body["source"], "ai");
    assert_eq!(body["model"], "gpt-4o-mini-2024-07-18");
    assert_eq!(body["rejected"], 4);
    assert_eq!(
        body["suggestions"],
        json!([{ "table": "users", "stage": "signup", "timestamp": "created_at", "dedupe_key": "id",
                 "email": "email", "attribution": { "utm_source": "utm_source" } }])
    );
    let tables: Vec<&str> = body["schema_summary"]["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(tables, ["users", "orders"]);

    // The request: OpenAI's shape, the bearer key, the model, the schema in the user message.
    let requests = fake.requests.lock().unwrap().clone();
    assert_eq!(requests.len(), 1);
    let (auth, request) = &requests[0];
    assert_eq!(auth.as_deref(), Some("Bearer gw-key-123"));
    assert_eq!(request["model"], "gpt-4o-mini");
    assert_eq!(request["response_format"]["type"], "json_object");
    assert_eq!(request["messages"][0]["role"], "system");
    let prompt = request["messages"][1]["content"].as_str().unwrap();
    assert!(
        prompt.contains("amount_cents") && !prompt.contains("feature_flags"),
        "{prompt}"
    );
    connections_unchanged(&app, &owner.token).await;

    // An empty table list is refused on the AI path; an unknown table names itself.
    app.post(
        suggest_path(),
        Some(&owner.token),
        json!({ "source": "ai", "tables": [] }),
    )
    .await
    .expect_error(400, "tables");
    app.post(
        suggest_path(),
        Some(&owner.token),
        json!({ "source": "ai", "tables": ["nope"] }),
    )
    .await
    .expect_error(400, "nope");
    app.post(
        suggest_path(),
        Some(&owner.token),
        json!({ "source": "magic" }),
    )
    .await
    .expect_error(400, "source");
}

async fn a_failing_gateway_is_a_502(backend: Backend) {
    let (_fake, url) = GatewayFake::start(json!({}), StatusCode::SERVICE_UNAVAILABLE).await;
    let db = shop_database().await;
    let app = TestApp::spawn_with(backend, move |config| {
        config.secret_key = Some(secret_key());
        config.model_gateway_url = url;
        config.model_gateway_key = Some(Secret::new("gw-key-123".to_owned()));
    })
    .await;
    let owner = connected(&app, &db).await;
    let reply = app
        .post(
            suggest_path(),
            Some(&owner.token),
            json!({ "source": "ai" }),
        )
        .await;
    reply.expect_error(502, "model gateway answered 503");
    assert!(!reply.expect(502).to_string().contains("gw-key-123"));
}

async fn no_gateway_no_ai(backend: Backend) {
    let db = shop_database().await;
    let app = TestApp::spawn_with(backend, |config| config.secret_key = Some(secret_key())).await;
    let owner = connected(&app, &db).await;
    app.post(
        suggest_path(),
        Some(&owner.token),
        json!({ "source": "ai" }),
    )
    .await
    .expect_error(503, "PAYBACK_MODEL_GATEWAY_KEY");
    // Without a connection: 404 before anything else.
    app.post(
        "/products/shop/connections/sql-b/suggest-mappings",
        Some(&owner.token),
        json!({ "source": "preset" }),
    )
    .await
    .expect_error(404, "sql-b");
}

async fn presets_recognise_the_schema(backend: Backend) {
    let db = shop_database().await;
    let app = TestApp::spawn_with(backend, |config| config.secret_key = Some(secret_key())).await;
    let owner = connected(&app, &db).await;
    let token = Some(owner.token.as_str());
    let body = app
        .post(suggest_path(), token, json!({ "source": "preset" }))
        .await
        .expect(200)
        .clone();
    assert_eq!(body["source"], "preset");
    assert!(body.get("model").is_none());
    let fits = |id: &str| {
        body["presets"]
            .as_array()
            .unwrap()
            .iter()
            .find(|preset| preset["id"] == id)
            .map(|preset| preset["fits"].clone())
    };
    assert_eq!(fits("signups"), Some(json!(true)));
    assert_eq!(fits("orders"), Some(json!(true)));
    assert_eq!(fits("django"), Some(json!(false)));
    let tables: Vec<&str> = body["schema_summary"]["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(tables, ["feature_flags", "orders", "users"]);
    assert_eq!(body["schema_summary"]["more_tables"], 0);

    let suggestions = body["suggestions"].as_array().unwrap();
    assert_eq!(suggestions.len(), 2, "{suggestions:?}");
    let users = suggestions.iter().find(|m| m["table"] == "users").unwrap();
    assert_eq!(users["stage"], "signup");
    assert_eq!(users["timestamp"], "created_at");
    assert_eq!(users["dedupe_key"], "id");
    assert_eq!(users["email"], "email");
    assert_eq!(users["attribution"]["utm_source"], "utm_source");
    let orders = suggestions.iter().find(|m| m["table"] == "orders").unwrap();
    assert_eq!(orders["stage"], "payment");
    assert_eq!(orders["user_id"], "user_id");
    assert_eq!(
        orders["revenue"],
        json!({ "column": "amount_cents", "unit": "cents", "currency": "currency" })
    );

    // The proposals are valid maps: saving them as they are works.
    app.post(
        "/products/shop/connections/sql-a/event-maps",
        token,
        json!({ "event_maps": suggestions }),
    )
    .await
    .expect(200);

    // One preset only; an unknown one or one that does not fit is a 404.
    let only = app
        .post(
            suggest_path(),
            token,
            json!({ "source": "preset", "preset_id": "orders" }),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(only["suggestions"].as_array().unwrap().len(), 1);
    assert_eq!(only["suggestions"][0]["table"], "orders");
    app.post(
        suggest_path(),
        token,
        json!({ "source": "preset", "preset_id": "django" }),
    )
    .await
    .expect_error(404, "does not fit");
    app.post(
        suggest_path(),
        token,
        json!({ "source": "preset", "preset_id": "nope" }),
    )
    .await
    .expect_error(404, "nope");
}

per_backend!(
    presets_recognise_the_schema,
    the_ai_path_admits_only_what_exists,
    a_failing_gateway_is_a_502,
    no_gateway_no_ai
);
