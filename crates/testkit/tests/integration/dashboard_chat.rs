//! The assistant's panel in headless Chromium (`e2e/dashboard-chat.mjs`) against the loopback
//! chat-completions fake. The model is scripted here: on a product's attribution page it reads
//! attribution and answers in streamed pieces; asked again it raises a spend proposal and says
//! so; a third question meets a gateway failure. The script checks the panel (the chips as the
//! calls happen, the replies equal to the scripted words, the link to the card in the queue,
//! the failure), and this driver checks what stayed behind: one pending card, raised through
//! chat by the person, no budget changed, and what the gateway was sent (a streamed request,
//! the page as the section, the conversation so far). Without a gateway key, the portfolio's
//! panel says the assistant is not configured.

use axum::http::StatusCode;
use payback_server::secret::Secret;
use payback_testkit::browser::{artifacts_dir, run_browser_script_with_env, spawn_on_wall_clock};
use payback_testkit::fake_gateway::{FakeGateway, ScriptedCall};
use payback_testkit::{Backend, per_backend};
use serde_json::{Value, json};

const EMAIL: &str = "chat-founder@example.com";
const SLUG: &str = "chat-shop";

const QUESTION_ONE: &str = "Which channel pays back fastest?";
/// Long enough that the fake streams it in many pieces.
const REPLY_ONE: &str = "Nothing has been attributed in the last 30 days yet: no visits or \
                         payments are recorded, so no channel pays back so far.";
const QUESTION_TWO: &str = "Raise Google to $50 a day.";
const REPLY_TWO: &str = "I proposed raising Google from $20 to $50 a day. A person approves \
                         it in the queue; nothing changes until then.";
const QUESTION_THREE: &str = "And Meta?";
/// What the service says when the gateway answers 500 (the stream's `error` event).
const FAILURE: &str = "the model gateway answered 500 Internal Server Error";

/// The proposal the model raises, in the tool's arguments (the product chat fills the slug).
fn proposal() -> String {
    json!({
        "network": "google",
        "campaign_id": "cmp-1",
        "from_cents": 2_000,
        "to_cents": 5_000,
        "rationale": "Search pays back within the month; room to grow.",
    })
    .to_string()
}

async fn conversation_panel(backend: Backend) {
    let gateway = FakeGateway::spawn().await;
    let url = gateway.base_url();
    let app = spawn_on_wall_clock(
        backend,
        move |config| {
            config.model_gateway_url = url;
            config.model_gateway_key = Some(Secret::new(FakeGateway::KEY.to_owned()));
        },
        |_| {},
    )
    .await;
    let owner = app.signup_verified(EMAIL).await;
    app.create_product(&owner.token, SLUG).await;

    // First question: one read, then the answer in words.
    gateway.script_calls(vec![ScriptedCall::new(
        "call_attr",
        "get_attribution",
        r#"{"days":30}"#,
    )]);
    gateway.script_text(REPLY_ONE);
    // Second: the proposal, then the answer.
    gateway.script_calls(vec![ScriptedCall::new(
        "call_prop",
        "propose_spend_change",
        &proposal(),
    )]);
    gateway.script_text(REPLY_TWO);
    // Third: the gateway fails.
    gateway.script_failure(StatusCode::INTERNAL_SERVER_ERROR);

    let env = [
        ("PAYBACK_E2E_EMAIL", EMAIL.to_owned()),
        ("PAYBACK_E2E_SLUG", SLUG.to_owned()),
        ("PAYBACK_E2E_QUESTION_ONE", QUESTION_ONE.to_owned()),
        ("PAYBACK_E2E_REPLY_ONE", REPLY_ONE.to_owned()),
        ("PAYBACK_E2E_QUESTION_TWO", QUESTION_TWO.to_owned()),
        ("PAYBACK_E2E_REPLY_TWO", REPLY_TWO.to_owned()),
        ("PAYBACK_E2E_QUESTION_THREE", QUESTION_THREE.to_owned()),
        ("PAYBACK_E2E_FAILURE", FAILURE.to_owned()),
    ];
    run_browser_script_with_env(&app, "dashboard-chat", &env).await;
    assert_eq!(gateway.unused(), 0, "every scripted turn was asked for");

    // One pending card, raised through chat by the person signed in; no budget changed.
    let queued = app.queue(&owner.token).await;
    assert_eq!(queued.len(), 1, "{queued:?}");
    assert_eq!(queued[0]["status"], "pending");
    assert_eq!(queued[0]["product_slug"], SLUG);
    let card = queued[0]["id"].as_str().unwrap();
    let events: Vec<(Value, Value, Value)> = app
        .history_where(&owner.token, |event| event["subject_ref"] == card)
        .await
        .into_iter()
        .map(|event| {
            (
                event["action"].clone(),
                event["actor"].clone(),
                event["via"].clone(),
            )
        })
        .collect();
    assert_eq!(
        events,
        [(json!("proposal.create"), json!(EMAIL), json!("chat"))]
    );
    let spend = app
        .get(&format!("/products/{SLUG}/spend"), Some(&owner.token))
        .await;
    assert!(
        spend.expect(200)["caps"]["networks"]
            .as_array()
            .unwrap()
            .iter()
            .all(|cap| cap["approved_budget_cents"].is_null()),
        "a proposal changes no budget"
    );

    // What the gateway was sent: streamed requests (the panel streams), the page the person was
    // on as the section, and each question with the conversation before it.
    let requests = gateway.requests();
    assert_eq!(requests.len(), 5);
    assert!(
        requests
            .iter()
            .all(|request| request.body["stream"] == true)
    );
    let system = |index: usize| {
        requests[index].messages()[0]["content"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    assert!(
        system(0).ends_with("The person is looking at this dashboard section: \"attribution\""),
        "{}",
        system(0)
    );
    assert!(system(2).ends_with("section: \"spend\""), "{}", system(2));
    assert!(
        system(0).contains(&format!("`{SLUG}`")),
        "the product's chat"
    );
    let asked = |index: usize| requests[index].messages()[1..].to_vec();
    assert_eq!(
        asked(0),
        [json!({ "role": "user", "content": QUESTION_ONE })]
    );
    assert_eq!(
        asked(2),
        [
            json!({ "role": "user", "content": QUESTION_ONE }),
            json!({ "role": "assistant", "content": REPLY_ONE }),
            json!({ "role": "user", "content": QUESTION_TWO }),
        ]
    );
    // The failed turn had no words, so it is not part of the conversation sent after it.
    assert_eq!(asked(4).len(), 5);
    assert_eq!(
        asked(4)[3..],
        [
            json!({ "role": "assistant", "content": REPLY_TWO }),
            json!({ "role": "user", "content": QUESTION_THREE }),
        ]
    );
}

/// Without a gateway key the portfolio's panel says the assistant is not configured. Run before
/// the conversation in the same test, with screenshots of its own: each run of the script
/// clears `dashboard-chat-<backend>` first, so the two runs never share (and clear) one
/// directory.
async fn unconfigured_panel(backend: Backend) {
    let app = spawn_on_wall_clock(backend, |_| {}, |_| {}).await;
    app.signup_verified(EMAIL).await;
    let artifacts = artifacts_dir("dashboard-chat-unconfigured", &app);
    let _ = std::fs::remove_dir_all(&artifacts);
    let env = [
        ("PAYBACK_E2E_CHAT_MODE", "unconfigured".to_owned()),
        ("PAYBACK_ARTIFACTS", artifacts.display().to_string()),
        ("PAYBACK_E2E_EMAIL", EMAIL.to_owned()),
        ("PAYBACK_E2E_QUESTION_ONE", QUESTION_ONE.to_owned()),
    ];
    run_browser_script_with_env(&app, "dashboard-chat", &env).await;
}

async fn chat_panel(backend: Backend) {
    unconfigured_panel(backend).await;
    conversation_panel(backend).await;
}

per_backend!(chat_panel);
