//! The chat assistant (`POST /chat`, `POST /products/{slug}/chat`) against the loopback
//! chat-completions fake (`payback_testkit::fake_gateway`), on both backends.
//!
//! - `conversation`: a scripted conversation reads attribution and proposes a spend change,
//!   which ends as a pending card recorded `via: chat` with no spend changed; an over-cap
//!   proposal, malformed arguments, an unknown tool and another product's slug come back to the
//!   model as tool errors (checked in the `tool` messages the fake received).
//! - `injection`: a campaign name telling the model to approve the card changes nothing.
//! - `stream`: `stream: true` answers `tool`, `delta`..., `done` in order, the deltas adding up
//!   to the reply; a gateway failure is an `error` event.
//! - `refusals`: 503 without a key, 502 when the gateway fails, 404 for another account's
//!   product, 400 naming the field for requests out of bounds.
//! - `limits` (issue 35): forty parallel proposals in one round raise three cards, the rest are
//!   tool errors; tool results fed back are bounded in all; an over-size request is refused
//!   before the gateway; rates per key and per account, and conversations under way per
//!   account, answer 429 with `Retry-After`.
//! - `disconnect` (issue 35): a client that hangs up, streaming or not, stops the conversation:
//!   the gateway is asked nothing more and no tool runs.

use payback_domain::Clock;
use payback_server::Config;
use payback_server::secret::Secret;
use payback_store::spend::SpendRow;
use payback_testkit::fake_gateway::{FakeGateway, ScriptedCall};
use payback_testkit::{Backend, Reply, Session, TestApp, per_backend};
use serde_json::{Value, json};

mod conversation;
mod disconnect;
mod injection;
mod limits;
mod refusals;
mod stream;

const OWNER: &str = "owner@example.com";

/// The app configured with the fake gateway, and the fake.
async fn chat_app(backend: Backend) -> (TestApp, FakeGateway) {
    chat_app_with(backend, |_| {}).await
}

/// [`chat_app`] after `configure` adjusted the configuration (the chat limits, say).
async fn chat_app_with(
    backend: Backend,
    configure: impl FnOnce(&mut Config),
) -> (TestApp, FakeGateway) {
    let gateway = FakeGateway::spawn().await;
    let url = gateway.base_url();
    let app = TestApp::spawn_with(backend, move |config| {
        config.model_gateway_url = url;
        config.model_gateway_key = Some(Secret::new(FakeGateway::KEY.to_owned()));
        configure(config);
    })
    .await;
    (app, gateway)
}

/// An owner with the product `shop` and an API key.
async fn founder(app: &TestApp) -> (Session, String) {
    let owner = app.signup_verified(OWNER).await;
    app.create_product(&owner.token, "shop").await;
    let key = app.api_key(&owner).await;
    (owner, key)
}

/// Writes a day of Google spend for `shop`'s campaign `cmp-1`, named `campaign_name`.
async fn write_spend(app: &TestApp, token: &str, campaign_name: &str) {
    let product = app.get("/products/shop", Some(token)).await;
    let id = product.expect(200)["product_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let row = SpendRow {
        day: "2026-11-20".to_owned(),
        network: "google".to_owned(),
        channel: "paid_google".to_owned(),
        campaign_id: "cmp-1".to_owned(),
        campaign_name: Some(campaign_name.to_owned()),
        spend_cents: 2_000,
        impressions: 900,
        clicks: 40,
        ..SpendRow::default()
    };
    let mut tx = app.state.store.begin().await.unwrap();
    payback_store::spend::upsert(&mut tx, &id, "test", &[row], app.clock.now())
        .await
        .unwrap();
    tx.commit().await.unwrap();
}

/// A request body asking `question`.
fn ask(question: &str) -> Value {
    json!({ "messages": [{ "role": "user", "content": question }] })
}

async fn chat(app: &TestApp, path: &str, token: &str, body: Value) -> Reply {
    app.post(path, Some(token), body).await
}

/// A chat request sent on a task of its own (a conversation left open while the test goes on).
fn chat_in_background(
    app: &TestApp,
    path: &str,
    token: &str,
    body: Value,
) -> tokio::task::JoinHandle<Reply> {
    let request = app
        .client
        .post(app.url(path))
        .bearer_auth(token)
        .json(&body);
    tokio::spawn(async move { Reply::read(request.send().await.expect("POST")).await })
}

/// The arguments of a proposal for `shop`'s Google campaign.
fn proposal(to_cents: i64) -> String {
    json!({
        "slug": "shop",
        "network": "google",
        "campaign_id": "cmp-1",
        "from_cents": 2_000,
        "to_cents": to_cents,
        "rationale": "CAC on search is well under target; room to grow.",
    })
    .to_string()
}

/// The approved budgets `GET /products/shop/spend` shows, per network.
async fn approved_budgets(app: &TestApp, token: &str) -> Vec<Value> {
    let spend = app.get("/products/shop/spend", Some(token)).await;
    spend.expect(200)["caps"]["networks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|cap| cap["approved_budget_cents"].clone())
        .collect()
}

/// `(action, actor, via)` of the events of `card_id`, oldest first.
async fn card_history(app: &TestApp, owner: &str, card_id: &str) -> Vec<(String, String, String)> {
    let word = |event: &Value, field: &str| event[field].as_str().unwrap_or_default().to_owned();
    app.history_where(owner, |event| event["subject_ref"] == card_id)
        .await
        .iter()
        .map(|event| {
            (
                word(event, "action"),
                word(event, "actor"),
                word(event, "via"),
            )
        })
        .collect()
}

/// The server-sent events of a whole stream: `(event, data as JSON)`.
fn events(reply: &Reply) -> Vec<(String, Value)> {
    reply
        .text
        .split("\n\n")
        .filter_map(|block| {
            let mut name = None;
            let mut data = String::new();
            for line in block.lines() {
                if let Some(value) = line.strip_prefix("event:") {
                    name = Some(value.trim().to_owned());
                } else if let Some(value) = line.strip_prefix("data:") {
                    data.push_str(value.trim_start());
                }
            }
            Some((name?, serde_json::from_str(&data).unwrap()))
        })
        .collect()
}
