//! The social-network grant: the Login dialog URL asks for the kinds' permissions; the callback
//! exchanges the code for a long-lived token and lists what it reaches; `select` connects the
//! chosen ad account and page once; every refusal of the flow answers in words.

use payback_testkit::{Backend, FakeLinkedIn, FakeMeta, TestApp, per_backend};
use serde_json::{Value, json};

use super::*;

/// Starts the grant for both kinds, plays the human, follows the callback; answers the state.
async fn consent(app: &TestApp, meta: &FakeMeta, token: &str) -> String {
    let started = start_grant(app, token, json!({ "product_slug": "shop" })).await;
    let state = started["state"].as_str().unwrap().to_owned();
    let dialog = app
        .confirm_grant(started["auth_url"].as_str().unwrap())
        .await;
    let back = meta.authorize(&dialog).await;
    let page = app.follow_callback(&back).await;
    let status = page.status().as_u16();
    assert_eq!(status, 200, "{}", page.text().await.unwrap());
    state
}

async fn the_grant_connects_the_chosen_account_and_page(backend: Backend) {
    let (meta, linkedin) = (FakeMeta::spawn().await, FakeLinkedIn::spawn().await);
    seed_meta(&meta);
    let app = spawn(backend, &meta, &linkedin).await;
    let (owner, key) = founder(&app).await;

    let started = start_grant(&app, &key, json!({ "product_slug": "shop" })).await;
    let auth_url = started["auth_url"].as_str().unwrap();
    assert_eq!(
        auth_url,
        app.url(&format!(
            "/connect/socialco/confirm?state={}",
            started["state"].as_str().unwrap()
        ))
    );
    // The person confirms on Payback's page, which sends them on to the Login dialog.
    let dialog_url = app.confirm_grant(auth_url).await;
    assert!(dialog_url.starts_with(&meta.dialog_url()), "{dialog_url}");
    let dialog = reqwest::Url::parse(&dialog_url).unwrap();
    let param = |name: &str| {
        dialog
            .query_pairs()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.into_owned())
    };
    assert_eq!(param("client_id").as_deref(), Some(meta.app_id()));
    assert_eq!(param("state").as_deref(), started["state"].as_str());
    assert_eq!(
        param("redirect_uri"),
        Some(app.url("/connect/socialco/callback"))
    );
    let scopes = param("scope").unwrap();
    for scope in [
        "ads_read",
        "ads_management",
        "pages_show_list",
        "read_insights",
    ] {
        assert!(scopes.split(',').any(|s| s == scope), "{scopes}");
    }
    // Pending until the human has been through the dialog.
    let state = started["state"].as_str().unwrap();
    assert_eq!(grant_status(&app, &key, state).await["status"], "pending");

    let back = meta.authorize(&dialog_url).await;
    let page = app.follow_callback(&back).await;
    assert_eq!(page.status().as_u16(), 200);
    assert!(page.text().await.unwrap().contains("Meta is connected"));
    let complete = grant_status(&app, &key, state).await;
    assert_eq!(complete["status"], "complete", "{complete}");
    let accounts = complete["options"]["ad_accounts"].as_array().unwrap();
    let ids: Vec<&str> = accounts.iter().map(|a| a["id"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), 3, "{accounts:?}");
    for id in ["1001", "1002", "1003"] {
        assert!(ids.contains(&id), "{ids:?}");
    }
    let usd = accounts.iter().find(|a| a["id"] == "1001").unwrap();
    assert_eq!(
        (
            usd["name"].as_str(),
            usd["currency"].as_str(),
            usd["status"].as_str()
        ),
        (Some("Shop Ads"), Some("USD"), Some("active"))
    );
    assert_eq!(
        accounts.iter().find(|a| a["id"] == "1003").unwrap()["status"],
        "disabled"
    );
    let pages = complete["options"]["pages"].as_array().unwrap();
    assert_eq!(pages.len(), 1);
    assert_eq!(pages[0]["id"], PAGE.to_string());
    assert_eq!(pages[0]["instagram_account"]["id"], INSTAGRAM.to_string());
    // The long-lived token never leaves the server.
    let exchanges = meta.requests_to("oauth/access_token");
    assert_eq!(exchanges.len(), 2, "the code, then the long-lived exchange");
    assert_eq!(
        exchanges[1].param("grant_type").as_deref(),
        Some("fb_exchange_token")
    );
    let minted = exchanges[1].param("fb_exchange_token").unwrap();
    assert!(!complete.to_string().contains(&minted));

    // A choice the grant does not offer, or an account that cannot be read in USD, is 400.
    for (choice, field) in [
        (json!({ "ad_account_id": "999" }), "ad_account_id"),
        (json!({ "ad_account_id": "1002" }), "ad_account_id"),
        (json!({ "ad_account_id": "1003" }), "ad_account_id"),
        (json!({ "ad_account_id": "act_x" }), "ad_account_id"),
        (
            json!({ "ad_account_id": "1001", "page_id": "42" }),
            "page_id",
        ),
    ] {
        let mut body = choice.clone();
        body["state"] = json!(state);
        let refused = app
            .post("/connect/socialco/select", Some(&key), body)
            .await
            .expect(400)
            .clone();
        assert!(
            refused["error"].as_str().unwrap().starts_with(field),
            "{choice} -> {refused}"
        );
    }
    let selected = select_grant(
        &app,
        &key,
        json!({ "state": state, "ad_account_id": "1001", "page_id": PAGE.to_string() }),
    )
    .await;
    assert_eq!(
        selected,
        json!({ "ok": true, "activated": ["social_ads_a", "social_a"] })
    );
    let ads = connection(&app, &owner.token, "social_ads_a")
        .await
        .unwrap();
    assert_eq!(ads["status"], "active");
    assert_eq!(ads["config"]["ad_account_id"], "1001");
    assert_eq!(ads["config"]["currency"], "USD");
    assert_eq!(ads["config"]["grant"], "socialco");
    let page = connection(&app, &owner.token, "social_a").await.unwrap();
    assert_eq!(page["config"]["page_id"], PAGE.to_string());
    assert_eq!(
        page["config"]["instagram_account_id"],
        INSTAGRAM.to_string()
    );
    let listed = app
        .get("/connections", Some(&owner.token))
        .await
        .expect(200)
        .to_string();
    assert!(!listed.contains(&minted), "the token never appears");
    // Once only.
    app.post(
        "/connect/socialco/select",
        Some(&key),
        json!({ "state": state, "ad_account_id": "1001" }),
    )
    .await
    .expect(409);
    let history = app.history(&owner.token, "?limit=20").await;
    let connects: Vec<&Value> = history
        .iter()
        .filter(|e| e["action"] == "connection.connect")
        .collect();
    assert_eq!(connects.len(), 2, "{history:?}");
    assert!(connects.iter().all(|e| e["payload"]["grant"] == "socialco"));
    assert!(history.iter().any(|e| e["action"] == "connect.start"));

    // A grant's connection revokes its token at Meta when the last connection using it goes.
    let first = app
        .post(
            "/products/shop/connections/social-ads-a/disconnect",
            Some(&owner.token),
            json!({}),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(first["revoked_upstream"], false, "the page still uses it");
    assert!(!meta.revoked(&minted));
    let last = app
        .post(
            "/products/shop/connections/social-a/disconnect",
            Some(&owner.token),
            json!({}),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(
        (
            last["credential_deleted"].clone(),
            last["revoked_upstream"].clone()
        ),
        (json!(true), json!(true))
    );
    assert!(meta.revoked(&minted));
}

async fn the_flow_refuses_in_words(backend: Backend) {
    let (meta, linkedin) = (FakeMeta::spawn().await, FakeLinkedIn::spawn().await);
    seed_meta(&meta);
    let app = spawn(backend, &meta, &linkedin).await;
    let (owner, key) = founder(&app).await;

    for (body, field) in [
        (json!({ "product_slug": "shop", "kinds": [] }), "kinds"),
        (
            json!({ "product_slug": "shop", "kinds": ["search_ads"] }),
            "kinds",
        ),
        (
            json!({ "product_slug": "shop", "kinds": ["social_a", "social_a", "social_ads_a"] }),
            "kinds",
        ),
        (json!({ "product_slug": "" }), "product_slug"),
        (
            json!({ "product_slug": "shop", "client": "desktop" }),
            "client",
        ),
    ] {
        let refused = app
            .post("/connect/socialco/start", Some(&key), body.clone())
            .await
            .expect(400)
            .clone();
        assert!(
            refused["error"].as_str().unwrap().contains(field),
            "{body} -> {refused}"
        );
    }
    app.post(
        "/connect/socialco/start",
        Some(&key),
        json!({ "product_slug": "nope" }),
    )
    .await
    .expect(404);
    app.post(
        "/connect/socialco/start",
        None,
        json!({ "product_slug": "shop" }),
    )
    .await
    .expect(401);

    // Before consent, select is 409; another account's state is 404 at status and select.
    let started = start_grant(
        &app,
        &key,
        json!({ "product_slug": "shop", "kinds": ["social_ads_a"] }),
    )
    .await;
    let state = started["state"].as_str().unwrap();
    app.post(
        "/connect/socialco/select",
        Some(&key),
        json!({ "state": state }),
    )
    .await
    .expect(409);
    let stranger = app.signup_verified("stranger@example.com").await;
    app.get(
        &format!("/connect/socialco/status?state={state}"),
        Some(&stranger.token),
    )
    .await
    .expect(404);
    app.post(
        "/connect/socialco/select",
        Some(&stranger.token),
        json!({ "state": state }),
    )
    .await
    .expect(404);
    // A state of the search-engine grant is not a state of this one.
    app.get("/connect/socialco/status?state=sc_unknown", Some(&key))
        .await
        .expect(404);

    // The human refuses: the state ends in an error a person understands.
    meta.set_human_refuses(true);
    let dialog = app
        .confirm_grant(started["auth_url"].as_str().unwrap())
        .await;
    let back = meta.authorize(&dialog).await;
    let page = app.follow_callback(&back).await;
    assert_eq!(page.status().as_u16(), 400);
    let ended = grant_status(&app, &key, state).await;
    assert_eq!(ended["status"], "error");
    assert!(
        ended["error"]
            .as_str()
            .unwrap()
            .contains("consent was refused at Meta"),
        "{ended}"
    );
    meta.set_human_refuses(false);
    // A replayed callback changes nothing.
    let replay = app.follow_callback(&back).await;
    assert_eq!(replay.status().as_u16(), 400);
    assert_eq!(grant_status(&app, &key, state).await["status"], "error");

    // Only ads asked: a page choice is refused; the one usable USD account is taken without
    // naming it.
    let state = consent_ads_only(&app, &meta, &key).await;
    let refused = app
        .post(
            "/connect/socialco/select",
            Some(&key),
            json!({ "state": state, "page_id": PAGE.to_string() }),
        )
        .await
        .expect(400)
        .clone();
    assert!(refused["error"].as_str().unwrap().starts_with("page_id"));
    let selected = select_grant(&app, &key, json!({ "state": state })).await;
    assert_eq!(selected["activated"], json!(["social_ads_a"]));
    assert_eq!(
        connection(&app, &owner.token, "social_ads_a")
            .await
            .unwrap()["config"]["ad_account_id"],
        "1001"
    );
    assert!(connection(&app, &owner.token, "social_a").await.is_none());
}

async fn consent_ads_only(app: &TestApp, meta: &FakeMeta, token: &str) -> String {
    let started = start_grant(
        app,
        token,
        json!({ "product_slug": "shop", "kinds": ["social_ads_a"] }),
    )
    .await;
    let dialog = app
        .confirm_grant(started["auth_url"].as_str().unwrap())
        .await;
    let back = meta.authorize(&dialog).await;
    let page = app.follow_callback(&back).await;
    assert_eq!(page.status().as_u16(), 200);
    started["state"].as_str().unwrap().to_owned()
}

/// Without the Meta app configured the grant answers 503; the key connects still work.
async fn an_unconfigured_grant_answers_503(backend: Backend) {
    let app = TestApp::spawn_with(backend, |config| {
        config.secret_key = Some(Secret::new(
            base64::engine::general_purpose::STANDARD.encode([5_u8; 32]),
        ));
    })
    .await;
    let (_, key) = founder(&app).await;
    let refused = app
        .post(
            "/connect/socialco/start",
            Some(&key),
            json!({ "product_slug": "shop" }),
        )
        .await
        .expect(503)
        .clone();
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains("PAYBACK_SOCIALCO_CLIENT_ID"),
        "{refused}"
    );
}

per_backend!(
    the_grant_connects_the_chosen_account_and_page,
    the_flow_refuses_in_words,
    an_unconfigured_grant_answers_503,
);

/// Used by `keys` for the grant's policy wall.
pub(super) async fn consent_state(app: &TestApp, meta: &FakeMeta, token: &str) -> String {
    consent(app, meta, token).await
}
