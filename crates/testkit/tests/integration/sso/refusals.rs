//! Refusals: every ID-token fault and provider failure is 400 with nothing created or linked; a
//! person linked to one `sub` is never linked to another; 503 without a client or discovery.

use super::*;

use payback_testkit::fake_oidc::{Fault, Human};

/// What a refused sign-in must leave untouched.
async fn nothing_created(app: &TestApp) {
    assert_eq!(count(app, "users").await, 0);
    assert_eq!(count(app, "accounts").await, 0);
    assert_eq!(count(app, "sso_identities").await, 0);
    assert_eq!(count(app, "sso_tickets").await, 0);
    assert_eq!(count(app, "sessions").await, 0);
}

/// Each fault of the ID token (and of the provider) is answered 400 `{error}` naming what
/// failed, with nothing created; the JWKS of a forged `jku` is never read, an unknown `kid`
/// costs one refetch of the provider's key set.
async fn every_id_token_fault_is_refused_with_nothing_created(backend: Backend) {
    let sso = sso_app(backend).await;
    let cases = [
        (Fault::WrongIssuer, "issuer"),
        (Fault::OtherAudience, "audience"),
        (Fault::Expired, "expired"),
        (Fault::WrongNonce, "nonce"),
        (Fault::UnverifiedEmail, "not verified the email"),
        (Fault::Hs256, "signature"),
        (Fault::AlgNone, "signature"),
        (Fault::UnknownKid, "signature"),
        (Fault::Jku, "signature"),
        (Fault::MissingIdToken, "id_token"),
        (Fault::TokenRefused, "invalid_grant"),
        (Fault::ProviderError, "access_denied"),
    ];
    // Discovery (and the first read of the key set) happens at the first start.
    start(&sso.app).await;
    for (fault, needle) in cases {
        sso.provider.set_fault(Some(fault));
        let keys_before = sso.provider.requests_to("/oauth2/v3/certs").len();
        let exchanges_before = sso.provider.requests_to("/token").len();
        let reply = through_callback(&sso).await;
        assert_eq!(reply.status, 400, "{fault:?}: {}", reply.text);
        reply.expect_error(400, needle);
        assert_eq!(reply.header("location"), None, "{fault:?}");
        assert_eq!(reply.body.as_object().unwrap().len(), 1, "{}", reply.text);
        nothing_created(&sso.app).await;
        let refetches = sso.provider.requests_to("/oauth2/v3/certs").len() - keys_before;
        let exchanges = sso.provider.requests_to("/token").len() - exchanges_before;
        match fault {
            Fault::UnknownKid | Fault::Jku => assert_eq!(refetches, 1, "{fault:?}"),
            _ => assert_eq!(refetches, 0, "{fault:?}"),
        }
        let expected_exchanges = usize::from(fault != Fault::ProviderError);
        assert_eq!(exchanges, expected_exchanges, "{fault:?}");
    }
    assert!(
        sso.provider.requests_to("/attacker/certs").is_empty(),
        "a token's jku is never followed"
    );
    // Without the fault, the same person signs in.
    sso.provider.set_fault(None);
    assert_eq!(sign_in(&sso).await["is_new"], true);
}

/// A person linked to one `sub` is never linked to another: another `sub` with their email is
/// refused, so an address recycled at the provider cannot reach them.
async fn another_sub_for_a_linked_person_is_refused(backend: Backend) {
    let sso = sso_app(backend).await;
    sso.provider
        .sign_in_as(Human::new("sub-first", "kim@example.com", None));
    let first = sign_in(&sso).await;
    sso.provider
        .sign_in_as(Human::new("sub-recycled", "kim@example.com", None));
    let reply = through_callback(&sso).await;
    reply.expect_error(400, "another account of the provider");
    assert_eq!(count(&sso.app, "sso_identities").await, 1);
    assert_eq!(count(&sso.app, "sso_tickets").await, 1, "only the first's");
    assert_eq!(count(&sso.app, "users").await, 1);
    // The first `sub` still signs in.
    sso.provider
        .sign_in_as(Human::new("sub-first", "kim@example.com", None));
    assert_eq!(sign_in(&sso).await["account"]["id"], first["account"]["id"]);
}

/// Without the client id or secret, start answers 503 and asks the provider nothing; the
/// callback and complete refuse (400 for what they cannot find).
async fn without_a_client_start_answers_503(backend: Backend) {
    let provider = FakeOidc::spawn().await;
    let issuer = provider.issuer();
    let app = TestApp::spawn_with(backend, |config| {
        config.sso_issuer = issuer;
        config.sso_client_id = Some(fake_oidc::CLIENT_ID.to_owned());
    })
    .await;
    app.get("/auth/sso/start", None)
        .await
        .expect_error(503, "not configured");
    app.get(
        "/auth/sso/callback?state=abcdefghijklmnopqrstuv&code=x",
        None,
    )
    .await
    .expect_error(400, "state");
    complete(&app, "unknown-ticket")
        .await
        .expect_error(400, "token");
    assert!(provider.requests().is_empty());
}

/// Discovery that fails (not kept: the next start tries again) or names another issuer is 503.
async fn failed_or_mismatched_discovery_answers_503(backend: Backend) {
    let sso = sso_app(backend).await;
    sso.provider.set_discovery_down(true);
    sso.app
        .get("/auth/sso/start", None)
        .await
        .expect_error(503, "provider");
    sso.provider.set_discovery_down(false);
    start(&sso.app).await;

    let other = sso_app(backend).await;
    other
        .provider
        .announce_issuer("https://accounts.google.com");
    other
        .app
        .get("/auth/sso/start", None)
        .await
        .expect_error(503, "provider");
    assert_eq!(count(&other.app, "sso_states").await, 0);
}

payback_testkit::per_backend!(
    every_id_token_fault_is_refused_with_nothing_created,
    another_sub_for_a_linked_person_is_refused,
    without_a_client_start_answers_503,
    failed_or_mismatched_discovery_answers_503,
);
