//! The OAuth flow over HTTP: the code flow with PKCE, refresh until revocation, the human's
//! refusal and a refresh token only on the first consent.

use serde_json::{Value, json};

use crate::fakes::google::test_support::{
    CALLBACK, VERIFIER, ads_error, auth_url, exchange, http, location_param, search, seeded, token,
};
use crate::fakes::google::{ADWORDS_SCOPE, FakeGoogle};

#[tokio::test]
async fn the_code_flow_checks_pkce_and_issues_offline_tokens() {
    let google = FakeGoogle::spawn().await;
    let location = google.authorize(&auth_url(&google, &[])).await;
    assert!(location.starts_with(CALLBACK), "{location}");
    assert_eq!(location_param(&location, "state").as_deref(), Some("st-1"));
    assert_eq!(
        location_param(&location, "scope").as_deref(),
        Some(ADWORDS_SCOPE)
    );
    let code = location_param(&location, "code").expect("a code");

    let (status, body) = exchange(
        &google,
        &code,
        "wrong-verifier-wrong-verifier-wrong-verifier-x",
    )
    .await;
    assert_eq!(
        (status, body["error"].as_str()),
        (400, Some("invalid_grant")),
        "{body}"
    );
    let (status, body) = token(
        &google,
        &[
            ("grant_type", "authorization_code"),
            ("code", &code),
            ("redirect_uri", CALLBACK),
            ("client_id", google.client_id()),
            ("client_secret", google.client_secret()),
        ],
    )
    .await;
    assert_eq!(
        (status, body["error_description"].as_str()),
        (400, Some("Missing code verifier.")),
        "{body}"
    );

    let (status, body) = exchange(&google, &code, VERIFIER).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["token_type"], "Bearer");
    assert_eq!(body["expires_in"], 3599);
    assert_eq!(body["scope"], ADWORDS_SCOPE);
    let access = body["access_token"]
        .as_str()
        .expect("access token")
        .to_owned();
    assert!(body["refresh_token"].is_string(), "offline access: {body}");

    // A replayed code is refused and revokes what it was exchanged for.
    let (status, body) = exchange(&google, &code, VERIFIER).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (400, Some("invalid_grant"))
    );
    let response = http()
        .get(format!(
            "{}/v21/customers:listAccessibleCustomers",
            google.ads_base_url()
        ))
        .bearer_auth(&access)
        .header("developer-token", google.developer_token())
        .send()
        .await
        .expect("ads");
    assert_eq!(response.status().as_u16(), 401);
}

#[tokio::test]
async fn refresh_works_until_revocation_and_basic_auth_is_accepted() {
    let google = seeded().await;
    let location = google.authorize(&auth_url(&google, &[])).await;
    let code = location_param(&location, "code").expect("code");
    let response = http()
        .post(google.token_url())
        .basic_auth(google.client_id(), Some(google.client_secret()))
        .form(&[
            ("grant_type", "authorization_code"),
            ("code", code.as_str()),
            ("redirect_uri", CALLBACK),
            ("code_verifier", VERIFIER),
        ])
        .send()
        .await
        .expect("token");
    assert_eq!(response.status().as_u16(), 200);
    let body: Value = response.json().await.expect("json");
    let refresh = body["refresh_token"]
        .as_str()
        .expect("refresh token")
        .to_owned();

    let refresh_form = [
        ("grant_type", "refresh_token"),
        ("refresh_token", refresh.as_str()),
        ("client_id", google.client_id()),
        ("client_secret", google.client_secret()),
    ];
    let (status, body) = token(&google, &refresh_form).await;
    assert_eq!(status, 200, "{body}");
    assert!(
        body.get("refresh_token").is_none(),
        "a refresh answers no new refresh token: {body}"
    );
    let access = body["access_token"].as_str().expect("access").to_owned();
    assert_eq!(
        search(&google, &access, "SELECT customer.id FROM customer")
            .await
            .0,
        200
    );

    let response = http()
        .post(google.revoke_url())
        .form(&[("token", refresh.as_str())])
        .send()
        .await
        .expect("revoke");
    assert_eq!(response.status().as_u16(), 200);
    let (status, body) = token(&google, &refresh_form).await;
    assert_eq!(
        (
            status,
            body["error"].as_str(),
            body["error_description"].as_str()
        ),
        (
            400,
            Some("invalid_grant"),
            Some("Token has been expired or revoked.")
        )
    );
    let (status, body) = search(&google, &access, "SELECT customer.id FROM customer").await;
    assert_eq!(status, 401);
    assert_eq!(
        ads_error(&body),
        (
            "UNAUTHENTICATED".to_owned(),
            json!({"authenticationError": "OAUTH_TOKEN_REVOKED"})
        )
    );
}

#[tokio::test]
async fn the_human_can_refuse_and_a_refresh_token_comes_once_without_prompt_consent() {
    let google = FakeGoogle::spawn().await;
    google.set_human_refuses(true);
    let location = google.authorize(&auth_url(&google, &[])).await;
    assert_eq!(
        location_param(&location, "error").as_deref(),
        Some("access_denied")
    );
    assert_eq!(location_param(&location, "state").as_deref(), Some("st-1"));
    assert!(location_param(&location, "code").is_none());
    google.set_human_refuses(false);

    let plain = |google: &FakeGoogle| {
        let url = auth_url(google, &[]);
        url.replace("&prompt=consent", "")
    };
    for (round, expect_refresh) in [(1, true), (2, false)] {
        let location = google.authorize(&plain(&google)).await;
        let code = location_param(&location, "code").expect("code");
        let (status, body) = exchange(&google, &code, VERIFIER).await;
        assert_eq!(status, 200);
        assert_eq!(
            body["refresh_token"].is_string(),
            expect_refresh,
            "round {round}: {body}"
        );
    }

    let page = google
        .try_authorize(&auth_url(&google, &[]).replace(google.client_id(), "someone-else"))
        .await
        .expect_err("an error page");
    assert_eq!(page.status, 401);
    google.register_redirect_uri("https://app.example/callback");
    let page = google
        .try_authorize(&auth_url(&google, &[]))
        .await
        .expect_err("an error page");
    assert!(page.body.contains("redirect_uri_mismatch"), "{}", page.body);
}
