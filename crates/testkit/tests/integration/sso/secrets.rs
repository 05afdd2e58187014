//! No provider code, access or ID token, client secret or session token in any answer
//! (redirects included) or log line.

use super::*;

use payback_testkit::fake_oidc::Fault;

use crate::log_capture::LogCapture;

async fn no_provider_secret_in_any_answer_or_log_line(backend: Backend) {
    let capture = LogCapture::start();
    let sso = sso_app(backend).await;
    let mut answers = Vec::new();
    let mut keep = |reply: &Reply| {
        let headers: Vec<String> = reply
            .headers
            .iter()
            .map(|(name, value)| format!("{name}: {}", value.to_str().unwrap_or_default()))
            .collect();
        answers.push(format!("{}\n{}", headers.join("\n"), reply.text));
    };

    // A refused sign-in (its log line says why) and a successful one.
    sso.provider.set_fault(Some(Fault::WrongNonce));
    let refused = through_callback(&sso).await;
    assert_eq!(refused.status, 400);
    keep(&refused);
    sso.provider.set_fault(None);
    let start_reply = sso.app.get("/auth/sso/start", None).await;
    keep(&start_reply);
    let back = sso
        .provider
        .authorize(start_reply.header("location").unwrap())
        .await;
    let callback = get_absolute(&sso.app, &back).await;
    keep(&callback);
    let ticket = ticket_of(&sso.app, &callback);
    let completed = complete(&sso.app, &ticket).await;
    keep(&completed);
    let session = completed.expect(200)["token"].as_str().unwrap().to_owned();
    let me = sso.app.get("/auth/me", Some(&session)).await;
    keep(&me);
    let history = sso
        .app
        .get("/history?days=30&limit=1000", Some(&sso.app.operator_token))
        .await;
    keep(&history);

    let issued = sso.provider.issued_secrets();
    assert!(
        issued.len() >= 6,
        "two codes, two access tokens and an ID token each: {}",
        issued.len()
    );
    let log = capture.text();
    assert!(
        log.contains("sso: callback refused"),
        "the refusal is logged"
    );
    for secret in issued.iter().chain([&fake_oidc::CLIENT_SECRET.to_owned()]) {
        for answer in &answers {
            assert!(!answer.contains(secret.as_str()), "{secret} in {answer}");
        }
        assert!(!log.contains(secret.as_str()), "{secret} in the log");
    }
    assert!(!log.contains(&session), "the session token in the log");
    assert!(!log.contains(&ticket), "the ticket in the log");
    // The callback's redirect carries only the ticket, in the fragment.
    let location = callback.header("location").unwrap();
    assert!(!location.contains("code="), "{location}");
    assert_eq!(callback.header("referrer-policy"), Some("no-referrer"));
}

payback_testkit::per_backend!(no_provider_secret_in_any_answer_or_log_line);
