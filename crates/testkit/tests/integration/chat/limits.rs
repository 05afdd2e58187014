//! What a conversation, a credential and an account may spend of the assistant (issue 35):
//! calls per round and writes per conversation (the rest are tool errors the model reads), the
//! characters of tool results fed back, the characters of a request (400 before the gateway is
//! asked), requests per minute per key and per account, and conversations under way per account
//! (429 with `Retry-After`).

use payback_store::spend::SpendRow;

use super::*;

per_backend!(
    forty_parallel_proposals_raise_three_cards,
    tool_results_fed_back_are_bounded,
    an_oversized_request_is_refused_before_the_gateway,
    chat_requests_are_rate_limited_per_key_and_per_account,
    conversations_under_way_are_capped_per_account,
    both_routes_document_the_limits
);

const ROUND_LIMIT: &str = "not run: at most 8 tool calls run per round; ask for the others in \
                           your next turn if you still need them";
const WRITE_LIMIT: &str = "not run: at most 3 writes (propose_spend_change, record_distribution) \
                           run per conversation; tell the person what else you would propose";
const RESULTS_LIMIT: &str = "not run: this conversation's tool results reached 48000 \
                             characters; answer from what you have";

async fn forty_parallel_proposals_raise_three_cards(backend: Backend) {
    let (app, gateway) = chat_app(backend).await;
    let (owner, key) = founder(&app).await;
    let calls: Vec<ScriptedCall> = (0..40)
        .map(|i| {
            ScriptedCall::new(
                &format!("call_{i}"),
                "propose_spend_change",
                &proposal(5_000 + i * 100),
            )
        })
        .collect();
    gateway.script_calls(calls);
    gateway.script_text("I raised three proposals; the rest must wait.");

    let reply = chat(&app, "/chat", &key, ask("Propose forty budgets.")).await;
    let answer = reply.expect(200).clone();
    assert_eq!(
        answer["reply"],
        "I raised three proposals; the rest must wait."
    );

    // Exactly three cards wait in the queue: the first three calls, and no more.
    let queued = app.queue(&owner.token).await;
    assert_eq!(queued.len(), 3);
    let mut raised: Vec<i64> = queued
        .iter()
        .map(|card| card["action_spec"]["to_cents"].as_i64().unwrap())
        .collect();
    raised.sort_unstable();
    let card_ids: Vec<&str> = queued
        .iter()
        .map(|card| card["id"].as_str().unwrap())
        .collect();

    // What the gateway received next: one `tool` message per call, in order; three proposals,
    // five refused as writes over the conversation's three, thirty-two over the round's eight.
    let requests = gateway.requests();
    assert_eq!(requests.len(), 2);
    let results = requests[1].tool_results();
    let ids: Vec<String> = results.iter().map(|(id, _)| id.clone()).collect();
    let expected: Vec<String> = (0..40).map(|i| format!("call_{i}")).collect();
    assert_eq!(ids, expected);
    for (_, result) in &results[..3] {
        assert_eq!(result["status"], "pending_human");
        assert!(card_ids.contains(&result["proposal_id"].as_str().unwrap()));
    }
    for (_, result) in &results[3..8] {
        assert_eq!(result, &json!({ "error": WRITE_LIMIT, "status": 429 }));
    }
    for (_, result) in &results[8..] {
        assert_eq!(result, &json!({ "error": ROUND_LIMIT, "status": 429 }));
    }

    // The answer lists every call, and only the three that ran succeeded.
    let records = answer["tool_calls"].as_array().unwrap();
    let oks: Vec<bool> = records
        .iter()
        .map(|record| record["ok"].as_bool().unwrap())
        .collect();
    let mut expected_oks = vec![true; 3];
    expected_oks.extend([false; 37]);
    assert_eq!(oks, expected_oks);
    assert_eq!(records[3]["summary"], WRITE_LIMIT);
    assert_eq!(records[39]["summary"], ROUND_LIMIT);
    assert_eq!(records[39]["arguments"]["to_cents"], 8_900);
    // The cards are the first three calls' budgets.
    assert_eq!(raised, [5_000, 5_100, 5_200]);
}

/// Writes `count` campaigns of Google spend for `shop` on one day, each named with `name_chars`
/// characters, so the spend report is long.
async fn write_long_spend(app: &TestApp, token: &str, count: usize, name_chars: usize) {
    let product = app.get("/products/shop", Some(token)).await;
    let id = product.expect(200)["product_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let rows: Vec<SpendRow> = (0..count)
        .map(|i| SpendRow {
            day: "2026-11-20".to_owned(),
            network: "google".to_owned(),
            channel: "paid_google".to_owned(),
            campaign_id: format!("cmp-{i}"),
            // Quotes are escaped again when a result is cut: the cut must still fit.
            campaign_name: Some(format!("\"{i}\" {}", "n".repeat(name_chars))),
            spend_cents: 1_000,
            impressions: 100,
            clicks: 10,
            ..SpendRow::default()
        })
        .collect();
    let mut tx = app.state.store.begin().await.unwrap();
    payback_store::spend::upsert(&mut tx, &id, "test", &rows, app.clock.now())
        .await
        .unwrap();
    tx.commit().await.unwrap();
}

/// The `tool` messages' contents of a request, as sent (text, not parsed).
fn tool_contents(request: &payback_testkit::fake_gateway::RecordedRequest) -> Vec<String> {
    request
        .messages()
        .iter()
        .filter(|message| message["role"] == "tool")
        .map(|message| message["content"].as_str().unwrap().to_owned())
        .collect()
}

async fn tool_results_fed_back_are_bounded(backend: Backend) {
    let (app, gateway) = chat_app(backend).await;
    let (owner, _) = founder(&app).await;
    write_long_spend(&app, &owner.token, 30, 1_500).await;
    let spend = app
        .get("/products/shop/spend?days=7", Some(&owner.token))
        .await;
    let whole = spend.expect(200).to_string();
    assert!(whole.chars().count() > 45_000, "{}", whole.len());

    let read = |id: &str| ScriptedCall::new(id, "get_spend", r#"{"slug":"shop","days":7}"#);
    gateway.script_calls(vec![read("call_1"), read("call_2"), read("call_3")]);
    gateway.script_calls(vec![read("call_4")]);
    gateway.script_text("Spend is spread over thirty campaigns.");

    let reply = chat(&app, "/chat", &owner.token, ask("Where does spend go?")).await;
    assert_eq!(
        reply.expect(200)["reply"],
        "Spend is spread over thirty campaigns."
    );
    let requests = gateway.requests();
    assert_eq!(requests.len(), 3);

    // Round one: each result is cut to 24,000 characters (saying so), the second to what is
    // left of the conversation's 48,000, and the third is not run.
    let first = tool_contents(&requests[1]);
    assert_eq!(first.len(), 3);
    for content in &first[..2] {
        let chars = content.chars().count();
        assert!((23_990..=24_000).contains(&chars), "{chars}");
        let cut: Value = serde_json::from_str(content).unwrap();
        assert_eq!(cut["truncated"], true);
        assert!(cut["note"].as_str().unwrap().contains("was cut"));
        let head = cut["first_characters"].as_str().unwrap();
        assert!(head.chars().count() > 20_000);
        assert!(whole.starts_with(head));
    }
    let refused = json!({ "error": RESULTS_LIMIT, "status": 429 }).to_string();
    assert_eq!(first[2], refused);
    let fed_back: usize = first.iter().map(|content| content.chars().count()).sum();
    assert!(fed_back <= 48_000 + refused.len(), "{fed_back}");

    // Round two: the budget is spent, so the call is not run; the request grew by the refusal
    // and the assistant turn only.
    let second = tool_contents(&requests[2]);
    assert_eq!(second.len(), 4);
    assert_eq!(second[3], refused);
    let total: usize = second.iter().map(|content| content.chars().count()).sum();
    assert!(total <= 48_000 + 2 * refused.len(), "{total}");
    let grew = requests[2].body.to_string().len() - requests[1].body.to_string().len();
    assert!(grew < 1_000, "{grew}");
    // Before the limit, the three results alone were 72,000 characters, sent again each round.
    let body = requests[2].body.to_string().len();
    let opening = requests[0].body.to_string().len();
    assert!(body - opening < 110_000, "{}", body - opening);

    let calls = reply.body["tool_calls"].as_array().unwrap();
    let oks: Vec<bool> = calls
        .iter()
        .map(|call| call["ok"].as_bool().unwrap())
        .collect();
    assert_eq!(oks, [true, true, false, false]);
}

async fn an_oversized_request_is_refused_before_the_gateway(backend: Backend) {
    let (app, gateway) = chat_app(backend).await;
    let (owner, key) = founder(&app).await;
    let messages = |count: usize, chars: usize| -> Vec<Value> {
        (0..count)
            .map(|i| {
                let role = if i % 2 == 0 { "user" } else { "assistant" };
                json!({ "role": role, "content": "x".repeat(chars) })
            })
            .collect()
    };

    // 32,000 characters in all is the most a request may hold.
    gateway.script_text("That was long.");
    let mut at_most = messages(4, 8_000);
    at_most[3]["role"] = json!("user");
    let reply = chat(&app, "/chat", &key, json!({ "messages": at_most })).await;
    assert_eq!(reply.expect(200)["reply"], "That was long.");
    assert_eq!(gateway.requests().len(), 1);

    // One more character, the issue's 40 messages of 7,000, streaming or not, on both routes.
    let mut one_more = messages(4, 8_000);
    one_more.push(json!({ "role": "user", "content": "?" }));
    let cases = [
        ("/chat", json!({ "messages": one_more }), 32_001),
        (
            "/products/shop/chat",
            json!({ "messages": messages(40, 7_000) }),
            280_000,
        ),
        (
            "/chat",
            json!({ "messages": messages(40, 7_000), "stream": true }),
            280_000,
        ),
    ];
    for (path, body, total) in cases {
        for token in [&key, &owner.token] {
            let reply = chat(&app, path, token, body.clone()).await;
            assert_eq!(
                reply.expect(400)["error"],
                format!(
                    "messages: at most 32000 characters in all (their contents hold {total}); \
                     drop or shorten earlier messages"
                )
            );
        }
    }
    // The gateway saw none of them.
    assert_eq!(gateway.requests().len(), 1);
}

async fn chat_requests_are_rate_limited_per_key_and_per_account(backend: Backend) {
    let (app, gateway) = chat_app_with(backend, |config| {
        config.chat_key_per_minute = 2;
        config.chat_per_minute = 3;
    })
    .await;
    let (owner, first_key) = founder(&app).await;
    let second_key = app.api_key(&owner).await;
    let stranger = app.signup_verified("stranger@example.com").await;
    for _ in 0..4 {
        gateway.script_text("Fine.");
    }

    // Per key: two a minute (one every 30 s), whatever the route or the answer's form.
    chat(&app, "/chat", &first_key, ask("One?"))
        .await
        .expect(200);
    chat(&app, "/products/shop/chat", &first_key, ask("Two?"))
        .await
        .expect(200);
    let mut streamed = ask("Three?");
    streamed["stream"] = json!(true);
    let refused = chat(&app, "/chat", &first_key, streamed).await;
    assert_eq!(refused.status, 429, "{}", refused.text);
    assert_eq!(refused.headers["retry-after"], "30");
    assert_eq!(
        refused.body,
        json!({ "error": "too many chat requests for this API key or session: at most 2 per minute; try again in 30 s" })
    );

    // Per account: three a minute (one every 20 s), whichever key sends them.
    chat(&app, "/chat", &second_key, ask("Three?"))
        .await
        .expect(200);
    let refused = chat(&app, "/chat", &second_key, ask("Four?")).await;
    assert_eq!(refused.status, 429, "{}", refused.text);
    assert_eq!(refused.headers["retry-after"], "20");
    assert_eq!(
        refused.body,
        json!({ "error": "too many chat requests for this account: at most 3 per minute; try again in 20 s" })
    );
    let refused = chat(&app, "/chat", &owner.token, ask("Four?")).await;
    assert_eq!(refused.status, 429);

    // Another account has its own.
    chat(&app, "/chat", &stranger.token, ask("Hello?"))
        .await
        .expect(200);
    // The refused requests never reached the gateway.
    assert_eq!(gateway.requests().len(), 4);
    assert_eq!(gateway.unused(), 0);
}

async fn conversations_under_way_are_capped_per_account(backend: Backend) {
    let (app, gateway) = chat_app(backend).await;
    let (owner, key) = founder(&app).await;
    let stranger = app.signup_verified("stranger@example.com").await;
    for _ in 0..5 {
        gateway.script_text("Fine.");
    }

    // Three conversations stay open: the gateway holds their first request.
    gateway.hold();
    let open: Vec<_> = (0..3)
        .map(|_| chat_in_background(&app, "/chat", &key, ask("Hello?")))
        .collect();
    gateway.wait_for_requests(3).await;

    // A fourth of the account's, by any credential, on either route, answers 429.
    for (path, token) in [("/chat", &key), ("/products/shop/chat", &owner.token)] {
        for stream in [false, true] {
            let mut body = ask("And me?");
            body["stream"] = json!(stream);
            let refused = chat(&app, path, token, body).await;
            assert_eq!(refused.status, 429, "{}", refused.text);
            assert_eq!(refused.headers["retry-after"], "5");
            assert_eq!(
                refused.body,
                json!({ "error": "too many conversations under way for this account: at most 3 at once; try again in 5 s" })
            );
        }
    }

    // Another account's conversation is its own: it reaches the gateway.
    let theirs = chat_in_background(&app, "/chat", &stranger.token, ask("Hello?"));
    gateway.wait_for_requests(4).await;
    assert_eq!(gateway.requests().len(), 4);

    gateway.release();
    for conversation in open {
        let reply = conversation.await.unwrap();
        assert_eq!(reply.expect(200)["reply"], "Fine.");
    }
    assert_eq!(theirs.await.unwrap().expect(200)["reply"], "Fine.");
    // Conversations that ended gave their places back.
    let reply = chat(&app, "/chat", &key, ask("Again?")).await;
    assert_eq!(reply.expect(200)["reply"], "Fine.");
    assert_eq!(gateway.unused(), 0);
}

async fn both_routes_document_the_limits(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let reply = app.get("/openapi.json", None).await;
    let document = reply.expect(200);
    for path in ["/chat", "/products/{slug}/chat"] {
        let responses = &document["paths"][path]["post"]["responses"];
        let too_many = &responses["429"];
        assert!(
            too_many["description"]
                .as_str()
                .unwrap()
                .contains("conversations under way"),
            "{path}: {too_many}"
        );
        assert!(too_many["headers"]["Retry-After"].is_object(), "{path}");
        let bad = responses["400"]["description"].as_str().unwrap();
        assert!(bad.contains("`messages` over"), "{path}: {bad}");
    }
}
