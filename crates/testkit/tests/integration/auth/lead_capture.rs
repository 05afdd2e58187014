//! Lead capture: the lead prompt mails the prompt.

use super::*;

async fn lead_prompt_mails_the_prompt(app: TestApp) {
    let reply = app
        .post(
            "/auth/lead-prompt",
            None,
            json!({ "email": "lead@example.com" }),
        )
        .await;
    let body = reply.expect(200).clone();
    assert_eq!(body["ok"], true);
    let message = body["message"].as_str().unwrap();
    assert!(message.contains("lead@example.com"), "{message}");
    assert!(
        message.contains("payback"),
        "default prompt type: {message}"
    );
    let mail = app.last_mail_to("lead@example.com");
    assert!(mail.subject.contains("payback"), "{}", mail.subject);
    assert!(mail.body.contains("/proposals"), "{}", mail.body);

    for prompt_type in ["growth-engine", "payback", "mcp"] {
        let email = format!("{prompt_type}@example.com");
        let reply = app
            .post(
                "/auth/lead-prompt",
                None,
                json!({ "email": email, "prompt_type": prompt_type, "meta": { "page": "/pricing" } }),
            )
            .await;
        let body = reply.expect(200);
        assert_eq!(body["ok"], true);
        assert!(
            body["message"].as_str().unwrap().contains(prompt_type),
            "{body}"
        );
        let mails = mails_to(&app, &email);
        assert_eq!(mails.len(), 1);
        assert!(
            mails[0].subject.contains(prompt_type),
            "{}",
            mails[0].subject
        );
        assert!(!mails[0].body.trim().is_empty());
    }

    let mails_before = app.mails().len();
    app.post(
        "/auth/lead-prompt",
        None,
        json!({ "email": "lead@example.com", "prompt_type": "poetry" }),
    )
    .await
    .expect_error(400, "prompt_type");
    app.post(
        "/auth/lead-prompt",
        None,
        json!({ "email": "not-an-email", "prompt_type": "mcp" }),
    )
    .await
    .expect_error(400, "email");
    app.post("/auth/lead-prompt", None, json!({}))
        .await
        .expect_error(400, "email");
    assert_eq!(
        app.mails().len(),
        mails_before,
        "rejected leads send nothing"
    );
}

backend_tests!(lead_prompt_mails_the_prompt);
