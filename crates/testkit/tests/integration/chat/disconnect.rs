//! A client that hangs up mid-conversation stops it (issue 35): the server abandons the
//! gateway request under way, asks nothing more, runs no tool the model asked for after the
//! client left, and gives the account's place back, whether the answer was to be JSON or a
//! stream.

use std::io::Write;
use std::net::TcpStream;
use std::time::Duration;

use super::*;

per_backend!(
    a_client_that_hangs_up_stops_the_conversation,
    a_stream_whose_client_hangs_up_stops_the_conversation
);

async fn a_client_that_hangs_up_stops_the_conversation(backend: Backend) {
    hang_up_mid_conversation(backend, false).await;
}

async fn a_stream_whose_client_hangs_up_stops_the_conversation(backend: Backend) {
    hang_up_mid_conversation(backend, true).await;
}

/// Sends a chat request over a connection of its own and leaves it open, unread; dropping the
/// returned stream hangs up.
fn send_and_stay(app: &TestApp, path: &str, token: &str, body: &Value) -> TcpStream {
    let address = app.base_url.trim_start_matches("http://");
    let body = body.to_string();
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: {address}\r\nAuthorization: Bearer {token}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut stream = TcpStream::connect(address).unwrap();
    // A few hundred bytes on loopback: the write does not wait.
    stream.write_all(request.as_bytes()).unwrap();
    stream
}

async fn hang_up_mid_conversation(backend: Backend, streaming: bool) {
    // One conversation at a time, so the next request shows whether the place was given back.
    let (app, gateway) = chat_app_with(backend, |config| config.chat_concurrent = 1).await;
    let (owner, key) = founder(&app).await;
    // Were the conversation to go on, the model's first turn raises a proposal and its second
    // answers.
    gateway.script_calls(vec![ScriptedCall::new(
        "call_1",
        "propose_spend_change",
        &proposal(5_000),
    )]);
    gateway.script_text("I raised a proposal.");

    gateway.hold();
    let mut body = ask("Raise Google to $50/day.");
    body["stream"] = json!(streaming);
    let client = send_and_stay(&app, "/chat", &key, &body);
    gateway.wait_for_requests(1).await;
    drop(client);

    // The server stops waiting for the model: its request is abandoned, unanswered.
    gateway.wait_for_abandoned(1).await;
    gateway.release();
    // Time for a conversation that went on to run the call and ask again.
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(gateway.requests().len(), 1);
    assert_eq!(gateway.unused(), 2);
    assert!(app.queue(&owner.token).await.is_empty());

    // The account's only place was given back: the next conversation runs (and, honestly
    // asked this time, raises the proposal).
    let reply = chat(&app, "/chat", &key, ask("Raise Google to $50/day.")).await;
    assert_eq!(reply.expect(200)["reply"], "I raised a proposal.");
    assert_eq!(app.queue(&owner.token).await.len(), 1);
    assert_eq!(gateway.requests().len(), 3);
}
