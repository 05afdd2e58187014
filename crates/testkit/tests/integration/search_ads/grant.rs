//! The search-engine grant's connect flow and its refusals.

use payback_testkit::{Backend, FakeGoogle, TestApp, per_backend};
use serde_json::json;

use super::*;

/// The token requests that exchanged an authorization code (the others refresh access tokens).
fn code_exchanges(google: &FakeGoogle) -> Vec<payback_testkit::fake_google::RecordedRequest> {
    google
        .requests_to("/token")
        .into_iter()
        .filter(|request| {
            request
                .form()
                .iter()
                .any(|(key, value)| key == "grant_type" && value == "authorization_code")
        })
        .collect()
}

async fn a_founder_connects_search_ads(backend: Backend) {
    let google = FakeGoogle::spawn().await;
    seed(&google);
    let app = spawn(backend, &google).await;
    let (owner, _) = founder(&app).await;

    let started = start_grant(&app, &owner.token, "api").await;
    let state = started["state"].as_str().unwrap().to_owned();
    assert_eq!(started["expires_at"], "2026-11-21T12:15:00.000Z");
    assert_eq!(
        started["auth_url"],
        app.url(&format!("/connect/searchco/confirm?state={state}"))
    );
    // The person confirms on Payback's page, which sends them on to Google's consent screen.
    let auth_url = reqwest::Url::parse(
        &app.confirm_grant(started["auth_url"].as_str().unwrap())
            .await,
    )
    .unwrap();
    let param = |name: &str| {
        auth_url
            .query_pairs()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.into_owned())
    };
    assert_eq!(param("access_type").as_deref(), Some("offline"));
    assert_eq!(param("prompt").as_deref(), Some("consent"));
    assert_eq!(param("code_challenge_method").as_deref(), Some("S256"));
    assert_eq!(param("state").as_deref(), Some(state.as_str()));
    assert_eq!(param("client_id").as_deref(), Some(google.client_id()));
    assert!(
        param("scope")
            .unwrap()
            .contains("https://www.googleapis.com/auth/adwords")
    );
    assert_eq!(
        param("redirect_uri").unwrap(),
        app.url("/connect/searchco/callback")
    );

    // Before consent: pending, nothing to choose, nothing to select.
    let status = app
        .get(
            &format!("/connect/searchco/status?state={state}"),
            Some(&owner.token),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(status["status"], "pending");
    assert_eq!(status["product_slug"], "shop");
    app.post(
        "/connect/searchco/select",
        Some(&owner.token),
        json!({ "state": state, "ads_customer_id": "1234567890" }),
    )
    .await
    .expect_error(
        409,
        "the human has not completed consent yet; poll status until it is complete",
    );

    // The human consents; the callback exchanges the code with the PKCE verifier.
    let back = google.authorize(auth_url.as_str()).await;
    let page = app.follow_callback(&back).await;
    assert_eq!(page.status().as_u16(), 200);
    assert!(page.text().await.unwrap().contains("Google is connected"));
    let exchange = code_exchanges(&google);
    assert_eq!(exchange.len(), 1);
    let form = exchange[0].form();
    let field = |name: &str| form.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
    assert_eq!(field("grant_type").as_deref(), Some("authorization_code"));
    assert!(field("code_verifier").is_some_and(|v| v.len() >= 43));

    // Replaying the callback changes nothing.
    let replay = app.follow_callback(&back).await;
    assert_eq!(replay.status().as_u16(), 400);
    assert!(replay.text().await.unwrap().contains("already used"));

    let status = app
        .get(
            &format!("/connect/searchco/status?state={state}"),
            Some(&owner.token),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(status["status"], "complete");
    let customers = status["options"]["ads_customers"]
        .as_array()
        .unwrap()
        .clone();
    let by_id = |id: &str| {
        customers
            .iter()
            .find(|c| c["customer_id"] == id)
            .cloned()
            .unwrap_or_else(|| panic!("{id} in {customers:?}"))
    };
    assert_eq!(by_id("1234567890")["manager"], false);
    assert_eq!(by_id("1234567890")["currency_code"], "USD");
    assert_eq!(by_id("9990001111")["manager"], true);
    // An account under a manager is called through the manager.
    assert_eq!(by_id("5550002222")["login_customer_id"], "9990001111");

    // A manager cannot be connected, an unknown account neither.
    app.post(
        "/connect/searchco/select",
        Some(&owner.token),
        json!({ "state": state, "ads_customer_id": "999-000-1111" }),
    )
    .await
    .expect_error(
        400,
        "ads_customer_id: 9990001111 is a manager account; choose one of the accounts it manages",
    );
    app.post(
        "/connect/searchco/select",
        Some(&owner.token),
        json!({ "state": state, "ads_customer_id": "42" }),
    )
    .await
    .expect_error(
        400,
        "ads_customer_id: 42 is not an account this grant reaches",
    );
    // Several accounts and none named: the person must choose.
    app.post(
        "/connect/searchco/select",
        Some(&owner.token),
        json!({ "state": state }),
    )
    .await
    .expect_error(400, "ads_customer_id: choose one of 1234567890, 5550002222");

    let selected = app
        .post(
            "/connect/searchco/select",
            Some(&owner.token),
            json!({ "state": state, "ads_customer_id": "123-456-7890" }),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(selected, json!({ "ok": true, "activated": ["search_ads"] }));
    app.post(
        "/connect/searchco/select",
        Some(&owner.token),
        json!({ "state": state, "ads_customer_id": "123-456-7890" }),
    )
    .await
    .expect_error(
        409,
        "this grant's accounts were already selected; start again to connect another",
    );

    let connection = search_ads_connection(&app, &owner.token).await;
    assert_eq!(connection["status"], "active");
    assert_eq!(connection["config"]["customer_id"], "1234567890");
    // No token anywhere in what the API shows.
    let shown = app
        .get("/connections", Some(&owner.token))
        .await
        .expect(200)
        .to_string();
    assert!(!shown.contains("refresh"), "{shown}");
    let actions: Vec<String> = app
        .history(&owner.token, "?limit=50")
        .await
        .iter()
        .map(|e| e["action"].as_str().unwrap().to_owned())
        .collect();
    assert!(actions.contains(&"connect.start".to_owned()), "{actions:?}");
    assert!(
        actions.contains(&"connection.connect".to_owned()),
        "{actions:?}"
    );
}

per_backend!(a_founder_connects_search_ads);

async fn the_dashboard_is_sent_back_to_the_connections_page(backend: Backend) {
    let google = FakeGoogle::spawn().await;
    seed(&google);
    let app = spawn(backend, &google).await;
    let (owner, _) = founder(&app).await;
    let started = start_grant(&app, &owner.token, "dashboard").await;
    let state = started["state"].as_str().unwrap();
    let consent_url = app
        .confirm_grant(started["auth_url"].as_str().unwrap())
        .await;
    let back = google.authorize(&consent_url).await;
    let answer = app.follow_callback(&back).await;
    assert_eq!(answer.status().as_u16(), 302);
    assert_eq!(
        answer.headers()["location"].to_str().unwrap(),
        format!(
            "{}/#/p/shop/connections?searchco_state={state}",
            app.base_url
        )
    );
}

per_backend!(the_dashboard_is_sent_back_to_the_connections_page);

async fn refusals_of_the_flow(backend: Backend) {
    let google = FakeGoogle::spawn().await;
    seed(&google);
    let app = spawn(backend, &google).await;
    let (owner, _) = founder(&app).await;
    let start = |body| app.post("/connect/searchco/start", Some(&owner.token), body);

    start(json!({ "product_slug": "shop", "kinds": [] }))
        .await
        .expect_error(400, "kinds:");
    start(json!({ "product_slug": "shop", "kinds": ["social_ads_a"] }))
        .await
        .expect(400);
    // Search Console is off until the operator switches it on.
    start(json!({ "product_slug": "shop", "kinds": ["search_ads", "search_console"] }))
        .await
        .expect_error(
            400,
            "kinds: search_console is not available yet; connect analytics_a or tagmgr or search_ads now and search_console once it arrives",
        );
    start(json!({ "product_slug": "shop", "kinds": ["search_ads"], "client": "fax" }))
        .await
        .expect(400);
    start(json!({ "product_slug": "nope", "kinds": ["search_ads"] }))
        .await
        .expect(404);

    // Another account sees neither the product nor the state.
    let other = app.signup_verified("other@example.com").await;
    app.post(
        "/connect/searchco/start",
        Some(&other.token),
        json!({ "product_slug": "shop", "kinds": ["search_ads"] }),
    )
    .await
    .expect(404);
    let state = consent(&app, &google, &owner.token).await;
    app.get(
        &format!("/connect/searchco/status?state={state}"),
        Some(&other.token),
    )
    .await
    .expect(404);
    app.post(
        "/connect/searchco/select",
        Some(&other.token),
        json!({ "state": state, "ads_customer_id": "1234567890" }),
    )
    .await
    .expect(404);
    app.get(
        "/connect/searchco/status?state=sc_unknown",
        Some(&owner.token),
    )
    .await
    .expect(404);
    // No bearer at all.
    app.get(&format!("/connect/searchco/status?state={state}"), None)
        .await
        .expect(401);

    // The human refuses consent.
    google.set_human_refuses(true);
    let refused = start_grant(&app, &owner.token, "api").await;
    let refused_state = refused["state"].as_str().unwrap();
    let consent_url = app
        .confirm_grant(refused["auth_url"].as_str().unwrap())
        .await;
    let back = google.authorize(&consent_url).await;
    let page = app.follow_callback(&back).await;
    assert_eq!(page.status().as_u16(), 400);
    let status = app
        .get(
            &format!("/connect/searchco/status?state={refused_state}"),
            Some(&owner.token),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(status["status"], "error");
    assert!(
        status["error"]
            .as_str()
            .unwrap()
            .contains("consent was refused")
    );
    app.post(
        "/connect/searchco/select",
        Some(&owner.token),
        json!({ "state": refused_state, "ads_customer_id": "1234567890" }),
    )
    .await
    .expect(409);
    google.set_human_refuses(false);

    // A state older than 15 minutes is expired, whether or not the human comes back.
    let late = start_grant(&app, &owner.token, "api").await;
    let late_state = late["state"].as_str().unwrap();
    let consent_url = app.confirm_grant(late["auth_url"].as_str().unwrap()).await;
    let back = google.authorize(&consent_url).await;
    app.clock.advance(16 * 60_000);
    let status = app
        .get(
            &format!("/connect/searchco/status?state={late_state}"),
            Some(&owner.token),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(status["status"], "error");
    let page = app.follow_callback(&back).await;
    assert_eq!(page.status().as_u16(), 400);
    assert!(page.text().await.unwrap().contains("expired"));
    // An unknown state at the callback is a page, not a crash.
    let page = app
        .client
        .get(app.url("/connect/searchco/callback?state=sc_forged&code=abc"))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status().as_u16(), 400);
    // Only the refused and expired flows exchanged nothing: one code exchange in all.
    assert_eq!(code_exchanges(&google).len(), 1);
}

per_backend!(refusals_of_the_flow);

async fn an_account_in_another_currency_is_refused(backend: Backend) {
    let google = FakeGoogle::spawn().await;
    google.add_customer(CustomerSeed::new(CUSTOMER, "Euro shop", "EUR"));
    let app = spawn(backend, &google).await;
    let (owner, _) = founder(&app).await;
    let state = consent(&app, &google, &owner.token).await;
    app.post("/connect/searchco/select", Some(&owner.token), json!({ "state": state }))
        .await
        .expect_error(
            400,
            "ads_customer_id: the account reports in EUR but shop counts in USD; spend is never mixed across currencies",
        );
}

per_backend!(an_account_in_another_currency_is_refused);

async fn unconfigured_grant_answers_503(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, _) = founder(&app).await;
    app.post(
        "/connect/searchco/start",
        Some(&owner.token),
        json!({ "product_slug": "shop", "kinds": ["search_ads"] }),
    )
    .await
    .expect_error(
        503,
        "the search-engine grant is not configured (set PAYBACK_SEARCHCO_CLIENT_ID and PAYBACK_SEARCHCO_CLIENT_SECRET)",
    );
}

per_backend!(unconfigured_grant_answers_503);

/// A grant consented to but never selected does not keep Payback's access: after a day the
/// sweep revokes the token at Google and deletes it; a late selection is refused.
async fn an_abandoned_grant_is_revoked(backend: Backend) {
    let google = FakeGoogle::spawn().await;
    seed(&google);
    let app = spawn(backend, &google).await;
    let (owner, _) = founder(&app).await;
    let state = consent(&app, &google, &owner.token).await;
    let credentials = || app.sql_value::<i64>("SELECT COUNT(*) FROM credentials", &[]);
    assert_eq!(credentials().await, 1);

    // Within the day nothing happens.
    app.clock.advance(23 * 3_600_000);
    payback_server::jobs::run_due(&app.state, "test-runner")
        .await
        .unwrap();
    assert!(google.requests_to("/revoke").is_empty());
    assert_eq!(credentials().await, 1);

    app.clock.advance(2 * 3_600_000);
    payback_server::jobs::run_due(&app.state, "test-runner")
        .await
        .unwrap();
    assert_eq!(google.requests_to("/revoke").len(), 1);
    assert_eq!(credentials().await, 0);
    let status = app
        .get(
            &format!("/connect/searchco/status?state={state}"),
            Some(&owner.token),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(status["status"], "error");
    assert!(
        status["error"]
            .as_str()
            .unwrap()
            .contains("no account was selected")
    );
    app.post(
        "/connect/searchco/select",
        Some(&owner.token),
        json!({ "state": state, "ads_customer_id": "1234567890" }),
    )
    .await
    .expect(409);
}

per_backend!(an_abandoned_grant_is_revoked);
