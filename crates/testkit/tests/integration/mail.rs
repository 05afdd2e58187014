//! Mail transports: `smtp://` speaks real SMTP; `file:` writes one RFC 5322 `.eml` per message.

use payback_testkit::{Backend, SmtpSink, TEST_PASSWORD, TestApp};
use serde_json::json;

#[tokio::test]
async fn verification_mail_goes_through_smtp() {
    let sink = SmtpSink::start().await;
    let app = TestApp::spawn_with(Backend::Sqlite, |config| {
        config.mail = format!("smtp://127.0.0.1:{}", sink.port).into()
    })
    .await;
    let reply = app
        .post(
            "/auth/signup",
            None,
            json!({ "email": "smtp@example.com", "password": TEST_PASSWORD }),
        )
        .await;
    reply.expect(200);
    let messages = sink.messages();
    assert_eq!(messages.len(), 1, "one message over SMTP");
    let message = &messages[0];
    assert!(message.contains("To: smtp@example.com"), "{message}");
    assert!(
        message.contains("Subject: Confirm your email for Payback"),
        "{message}"
    );
    assert!(
        message.contains(&format!("{}/auth/verify?token=", app.base_url)),
        "{message}"
    );
    assert!(app.mails().is_empty(), "nothing went to the file transport");
}

#[tokio::test]
async fn file_transport_writes_parseable_messages_with_working_links() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    app.post(
        "/auth/signup",
        None,
        json!({ "email": "file@example.com", "password": TEST_PASSWORD }),
    )
    .await
    .expect(200);
    let mails = app.mails();
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].to, "file@example.com");
    assert_eq!(mails[0].subject, "Confirm your email for Payback");
    let link = mails[0]
        .link_starting_with(&format!("{}/auth/verify?token=", app.base_url))
        .unwrap();
    let verified = app.client.get(&link).send().await.unwrap();
    assert_eq!(verified.status().as_u16(), 302);
}

#[tokio::test]
async fn undeliverable_mail_does_not_fail_the_request() {
    // Nothing listens on this port: the sign-up still answers, and the failure is only logged.
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let app = TestApp::spawn_with(Backend::Sqlite, |config| {
        config.mail = format!("smtp://127.0.0.1:{closed}").into()
    })
    .await;
    let reply = app
        .post(
            "/auth/signup",
            None,
            json!({ "email": "lost@example.com", "password": TEST_PASSWORD }),
        )
        .await;
    assert_eq!(reply.expect(200)["status"], "verification_sent");
}
