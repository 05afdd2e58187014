//! `stream: true`: the answer is `text/event-stream` with `tool` (each call and its outcome),
//! `delta` (the reply as the gateway streams it) and `done` (the final object), in that order;
//! a gateway failure once streaming is an `error` event, and the stream ends there.

use axum::http::StatusCode;

use super::*;

per_backend!(
    events_come_in_order_and_add_up_to_the_answer,
    a_gateway_failure_is_an_error_event
);

async fn events_come_in_order_and_add_up_to_the_answer(backend: Backend) {
    let (app, gateway) = chat_app(backend).await;
    let (owner, _) = founder(&app).await;
    gateway.script_calls(vec![
        ScriptedCall::new("call_1", "get_spend", r#"{"days":7}"#),
        ScriptedCall::new("call_2", "list_queue", "{}"),
    ]);
    gateway.script_text("Spend was flat this week, and nothing waits in the queue.");

    let mut body = ask("How did spend go?");
    body["stream"] = json!(true);
    let reply = chat(&app, "/products/shop/chat", &owner.token, body).await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert!(
        reply.headers["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/event-stream")
    );
    let events = events(&reply);
    let names: Vec<&str> = events.iter().map(|(name, _)| name.as_str()).collect();
    let deltas = names.iter().filter(|name| **name == "delta").count();
    assert!(deltas > 1, "the reply came in pieces: {names:?}");
    let mut expected = vec!["tool", "tool"];
    expected.extend(std::iter::repeat_n("delta", deltas));
    expected.push("done");
    assert_eq!(names, expected);

    assert_eq!(events[0].1["name"], "get_spend");
    assert_eq!(events[0].1["ok"], true);
    assert_eq!(events[1].1["name"], "list_queue");
    let text: String = events
        .iter()
        .filter(|(name, _)| name == "delta")
        .map(|(_, data)| data["text"].as_str().unwrap())
        .collect();
    let done = &events.last().unwrap().1;
    assert_eq!(
        text,
        "Spend was flat this week, and nothing waits in the queue."
    );
    assert_eq!(done["reply"], text);
    assert_eq!(done["tool_calls"].as_array().unwrap().len(), 2);
    assert_eq!(done["model"], payback_testkit::fake_gateway::MODEL);
    // The gateway was asked to stream every round.
    assert!(
        gateway
            .requests()
            .iter()
            .all(|request| request.body["stream"] == true)
    );
}

async fn a_gateway_failure_is_an_error_event(backend: Backend) {
    let (app, gateway) = chat_app(backend).await;
    let (owner, _) = founder(&app).await;
    gateway.script_calls(vec![ScriptedCall::new("call_1", "list_products", "{}")]);
    gateway.script_failure(StatusCode::INTERNAL_SERVER_ERROR);

    let mut body = ask("What products do I have?");
    body["stream"] = json!(true);
    let reply = chat(&app, "/chat", &owner.token, body).await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    let events = events(&reply);
    let names: Vec<&str> = events.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names, ["tool", "error"]);
    assert_eq!(events[1].1["status"], 502);
    assert_eq!(
        events[1].1["error"],
        "the model gateway answered 500 Internal Server Error"
    );
}
