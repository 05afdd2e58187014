//! The flow that succeeds: what start sends, a new identity, linking, rotation, history.

use super::*;

use payback_testkit::TEST_PASSWORD;
use payback_testkit::fake_oidc::Human;
use sha2::{Digest, Sha256};

/// Start sends the documented request: the discovered endpoint, `response_type=code`, the
/// client id, the callback as `redirect_uri`, exactly `openid email profile`, a fresh state and
/// nonce, PKCE S256 and no offline access; discovery is read at the first start only.
async fn start_sends_the_documented_request(backend: Backend) {
    let sso = sso_app(backend).await;
    assert!(
        sso.provider.requests().is_empty(),
        "nothing is read from the provider before the first sign-in"
    );
    let first = start(&sso.app).await;
    let second = start(&sso.app).await;
    let expected_endpoint = format!("{}/o/oauth2/v2/auth?", sso.provider.issuer());
    let mut seen = Vec::new();
    for url in [&first, &second] {
        assert!(url.starts_with(&expected_endpoint), "{url}");
        let pairs = query_of(url);
        assert_eq!(param(&pairs, "response_type"), Some("code"));
        assert_eq!(param(&pairs, "client_id"), Some(fake_oidc::CLIENT_ID));
        let callback = format!("{}/auth/sso/callback", sso.app.base_url);
        assert_eq!(param(&pairs, "redirect_uri"), Some(callback.as_str()));
        assert_eq!(param(&pairs, "scope"), Some("openid email profile"));
        assert_eq!(param(&pairs, "code_challenge_method"), Some("S256"));
        let challenge = param(&pairs, "code_challenge").unwrap();
        assert_eq!(challenge.len(), 43, "{challenge}");
        let state = param(&pairs, "state").unwrap().to_owned();
        let nonce = param(&pairs, "nonce").unwrap().to_owned();
        assert!(state.len() >= 16 && nonce.len() >= 16, "{state} {nonce}");
        assert_eq!(param(&pairs, "access_type"), None, "no offline access");
        assert!(!url.contains(fake_oidc::CLIENT_SECRET));
        seen.push((state, nonce, challenge.to_owned()));
    }
    assert_ne!(seen[0], seen[1], "each start is fresh");
    assert_eq!(
        sso.provider
            .requests_to("/.well-known/openid-configuration")
            .len(),
        1,
        "discovery is read once per app"
    );
    assert_eq!(sso.provider.requests_to("/oauth2/v3/certs").len(), 1);
    let reply = sso.app.get("/auth/sso/start", None).await;
    assert_eq!(reply.header("cache-control"), Some("no-store"));
}

/// A new identity: a new verified person without a password (named by the `name` claim)
/// owning a new account, signed in at once with `is_new: true`; the code was exchanged once
/// with the state's verifier, the same redirect URI and HTTP Basic client authentication.
async fn a_new_identity_becomes_a_tenant_whose_owner_works_at_once(backend: Backend) {
    let sso = sso_app(backend).await;
    sso.provider.sign_in_as(Human::new(
        "110169484474386276334",
        "ada@example.com",
        Some("Ada Lovelace"),
    ));
    let authorization_url = start(&sso.app).await;
    let challenge = param(&query_of(&authorization_url), "code_challenge")
        .unwrap()
        .to_owned();
    let back = sso.provider.authorize(&authorization_url).await;
    let callback = get_absolute(&sso.app, &back).await;
    let ticket = ticket_of(&sso.app, &callback);
    let body = complete(&sso.app, &ticket).await.expect(200).clone();

    assert_eq!(body["is_new"], true);
    let token = body["token"].as_str().unwrap();
    assert!(token.starts_with("svc_sess_"), "{token}");
    assert!(body["expires_at"].is_string());
    assert_eq!(body["account"]["email"], "ada@example.com");
    assert_eq!(body["account"]["name"], "Ada Lovelace");
    assert_eq!(body["account"]["verified"], true);
    assert_eq!(body["account"]["member_role"], "owner");
    assert_eq!(body["account"]["account_name"], "ada");
    assert_eq!(body["accounts"].as_array().unwrap().len(), 1);
    assert_eq!(body["accounts"][0]["id"], body["account"]["id"]);

    // The owner works at once: a product, then the portfolio lists it.
    sso.app.create_product(token, "ada-app").await;
    let me = sso.app.get("/auth/me", Some(token)).await;
    assert_eq!(me.expect(200)["id"], body["account"]["id"]);
    let portfolio = sso.app.get("/portfolio", Some(token)).await;
    let rows = portfolio.expect(200);
    assert!(rows.to_string().contains("ada-app"), "{rows}");

    // No password: a password login is refused.
    let password: Option<String> = sso
        .app
        .sql_value(
            "SELECT password_hash FROM users WHERE email = $1",
            &["ada@example.com".into()],
        )
        .await;
    assert_eq!(password, None);
    sso.app
        .post(
            "/auth/login",
            None,
            json!({ "email": "ada@example.com", "password": TEST_PASSWORD }),
        )
        .await
        .expect_error(401, "wrong email or password");

    // The exchange: once, the state's verifier, the same redirect URI, HTTP Basic.
    let exchanges = sso.provider.requests_to("/token");
    assert_eq!(exchanges.len(), 1);
    let exchange = &exchanges[0];
    let verifier = exchange.param("code_verifier").unwrap();
    use base64::Engine;
    let computed = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .encode(Sha256::digest(verifier.as_bytes()));
    assert_eq!(computed, challenge);
    assert_eq!(
        exchange.param("redirect_uri").unwrap(),
        format!("{}/auth/sso/callback", sso.app.base_url)
    );
    assert!(
        exchange
            .header("authorization")
            .unwrap()
            .starts_with("Basic ")
    );
    assert_eq!(exchange.param("client_secret"), None);
    assert_eq!(
        sso.provider.token_auth_methods(),
        vec!["client_secret_basic"]
    );

    // The same person again: the same user and account, not new.
    let again = sign_in(&sso).await;
    assert_eq!(again["is_new"], false);
    assert_eq!(again["account"]["id"], body["account"]["id"]);
    assert_eq!(count(&sso.app, "users").await, 1);
    assert_eq!(count(&sso.app, "accounts").await, 1);
    assert_eq!(count(&sso.app, "sso_identities").await, 1);
}

/// A verified password user with the email (in other letters' case) is linked and signed in
/// into their own account; their password keeps working.
async fn a_verified_password_user_is_linked(backend: Backend) {
    let sso = sso_app(backend).await;
    let grace = sso.app.signup_verified("grace@example.com").await;
    sso.provider.sign_in_as(Human::new(
        "sub-grace",
        "Grace@Example.COM",
        Some("Grace H"),
    ));
    let body = sign_in(&sso).await;
    assert_eq!(body["is_new"], false);
    assert_eq!(body["account"]["id"], grace.account_id.as_str());
    assert_eq!(body["account"]["email"], "grace@example.com");
    assert_eq!(count(&sso.app, "users").await, 1);
    let linked: String = sso
        .app
        .sql_value(
            "SELECT user_id FROM sso_identities WHERE sub = $1",
            &["sub-grace".into()],
        )
        .await;
    assert_eq!(linked, grace.user_id);
    // The password is kept.
    sso.app.login("grace@example.com").await;

    // (1) The linked `sub` signs into her whatever email it now carries; hers is unchanged.
    sso.provider
        .sign_in_as(Human::new("sub-grace", "grace.new@example.com", None));
    let later = sign_in(&sso).await;
    assert_eq!(later["account"]["id"], grace.account_id.as_str());
    assert_eq!(later["account"]["email"], "grace@example.com");
    assert_eq!(count(&sso.app, "users").await, 1);
}

/// An unconfirmed sign-up with the email becomes verified, and the password its author chose
/// is gone: a password login fails, and the old confirmation link does nothing.
async fn an_unconfirmed_signup_loses_its_pending_password(backend: Backend) {
    let sso = sso_app(backend).await;
    sso.app
        .post(
            "/auth/signup",
            None,
            json!({ "email": "mallory-typed@example.com", "password": TEST_PASSWORD }),
        )
        .await
        .expect(200);
    let link = sso
        .app
        .last_mail_to("mallory-typed@example.com")
        .link_starting_with(&format!("{}/auth/verify?token=", sso.app.base_url))
        .unwrap();
    sso.provider
        .sign_in_as(Human::new("sub-owner", "mallory-typed@example.com", None));
    let body = sign_in(&sso).await;
    assert_eq!(body["is_new"], false, "the account existed");
    assert_eq!(body["account"]["verified"], true);
    let password: Option<String> = sso
        .app
        .sql_value(
            "SELECT password_hash FROM users WHERE email = $1",
            &["mallory-typed@example.com".into()],
        )
        .await;
    assert_eq!(password, None);
    let login = json!({ "email": "mallory-typed@example.com", "password": TEST_PASSWORD });
    sso.app
        .post("/auth/login", None, login.clone())
        .await
        .expect_error(401, "wrong email or password");
    let old_link = get_absolute(&sso.app, &link).await;
    old_link.expect_error(400, "token");
    sso.app
        .post("/auth/login", None, login)
        .await
        .expect_error(401, "wrong email or password");
}

/// The provider rotated its keys: a token under a `kid` the app has not seen is verified after
/// one refetch of the key set.
async fn key_rotation_is_followed_with_one_refetch(backend: Backend) {
    let sso = sso_app(backend).await;
    sign_in(&sso).await;
    assert_eq!(sso.provider.requests_to("/oauth2/v3/certs").len(), 1);
    sign_in(&sso).await;
    assert_eq!(
        sso.provider.requests_to("/oauth2/v3/certs").len(),
        1,
        "known keys are not read again"
    );
    sso.provider.rotate_keys();
    let body = sign_in(&sso).await;
    assert_eq!(body["account"]["email"], "founder@example.com");
    assert_eq!(sso.provider.requests_to("/oauth2/v3/certs").len(), 2);
    sign_in(&sso).await;
    assert_eq!(sso.provider.requests_to("/oauth2/v3/certs").len(), 2);
}

/// Each completion is `auth.sso_login` by the email via the dashboard, with no product, ticket
/// or token; operators see it, tenants never do.
async fn history_records_each_completion_for_operators_only(backend: Backend) {
    let sso = sso_app(backend).await;
    let callback = through_callback(&sso).await;
    let ticket = ticket_of(&sso.app, &callback);
    let body = complete(&sso.app, &ticket).await.expect(200).clone();
    let token = body["token"].as_str().unwrap().to_owned();
    let second = sign_in(&sso).await;
    let operator = sso
        .app
        .history(&sso.app.operator_token, "?days=30&limit=1000")
        .await;
    let logins: Vec<&Value> = operator
        .iter()
        .filter(|e| e["action"] == "auth.sso_login")
        .collect();
    assert_eq!(logins.len(), 2, "{operator:?}");
    for event in &logins {
        assert_eq!(event["actor"], "founder@example.com");
        assert_eq!(event["via"], "dashboard");
        assert_eq!(event["product_slug"], Value::Null);
        let text = event.to_string();
        let second_token = second["token"].as_str().unwrap();
        for secret in [ticket.as_str(), token.as_str(), second_token] {
            assert!(!text.contains(secret), "{text}");
        }
    }
    let own = sso.app.history(&token, "?days=30&include=account").await;
    assert!(
        own.iter().all(|e| e["action"] != "auth.sso_login"),
        "{own:?}"
    );
}

/// A provider listing only `client_secret_post` gets the secret in the form body, not in HTTP
/// Basic.
async fn a_provider_taking_only_the_post_method_gets_it(backend: Backend) {
    let sso = sso_app(backend).await;
    sso.provider.offer_auth_methods(&["client_secret_post"]);
    assert_eq!(sign_in(&sso).await["is_new"], true);
    let exchanges = sso.provider.requests_to("/token");
    assert_eq!(exchanges.len(), 1);
    assert_eq!(exchanges[0].header("authorization"), None);
    assert_eq!(
        exchanges[0].param("client_id").as_deref(),
        Some(fake_oidc::CLIENT_ID)
    );
    assert_eq!(
        exchanges[0].param("client_secret").as_deref(),
        Some(fake_oidc::CLIENT_SECRET)
    );
    assert_eq!(
        sso.provider.token_auth_methods(),
        vec!["client_secret_post"]
    );
}

/// The dashboard's switch: `enabled` with a client configured, not without.
async fn config_tells_the_dashboard_whether_to_offer_the_button(backend: Backend) {
    let sso = sso_app(backend).await;
    let on = sso.app.get("/auth/sso/config", None).await;
    assert_eq!(on.expect(200), &json!({ "enabled": true }));
    let plain = TestApp::spawn(backend).await;
    let off = plain.get("/auth/sso/config", None).await;
    assert_eq!(off.expect(200), &json!({ "enabled": false }));
}

payback_testkit::per_backend!(
    start_sends_the_documented_request,
    a_new_identity_becomes_a_tenant_whose_owner_works_at_once,
    a_verified_password_user_is_linked,
    an_unconfirmed_signup_loses_its_pending_password,
    key_rotation_is_followed_with_one_refetch,
    history_records_each_completion_for_operators_only,
    config_tells_the_dashboard_whether_to_offer_the_button,
    a_provider_taking_only_the_post_method_gets_it,
);
