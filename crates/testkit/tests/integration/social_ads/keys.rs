//! Key-based connects of the social kinds: a token proven by a live read before it is stored,
//! discovery when no id is given (one usable account connected, several listed), the fields
//! named in every refusal, the adult-adjacent wall on the social network's ads (key and grant
//! alike), test, and disconnect leaving a pasted token alone.

use payback_testkit::fake_linkedin::AccountSeed;
use payback_testkit::fake_meta::AdAccountSeed;
use payback_testkit::{Backend, FakeLinkedIn, FakeMeta, per_backend};
use serde_json::json;

use super::*;

async fn meta_key_connects(backend: Backend) {
    let (meta, linkedin) = (FakeMeta::spawn().await, FakeLinkedIn::spawn().await);
    seed_meta(&meta);
    let app = spawn(backend, &meta, &linkedin).await;
    let (owner, key) = founder(&app).await;

    // Refusals name the field; nothing is stored.
    for (body, status, field) in [
        (json!({ "ad_account_id": "1001" }), 400, "access_token"),
        (
            json!({ "access_token": "EAA-unknown", "ad_account_id": "1001" }),
            400,
            "access_token",
        ),
        (
            json!({ "access_token": META_TOKEN, "ad_account_id": "act_10x1" }),
            400,
            "ad_account_id",
        ),
        (
            json!({ "access_token": META_TOKEN, "ad_account_id": "1002" }),
            400,
            "ad_account_id",
        ),
        (
            json!({ "access_token": META_TOKEN, "campaign_name_prefixes": ["x".repeat(201)] }),
            400,
            "campaign_name_prefixes",
        ),
        (
            json!({ "access_token": META_TOKEN, "surprise": true }),
            400,
            "surprise",
        ),
    ] {
        let refused = app
            .post(
                "/products/shop/connections/social-ads-a",
                Some(&key),
                body.clone(),
            )
            .await
            .expect(status)
            .clone();
        assert!(
            refused["error"].as_str().unwrap().contains(field),
            "{body} -> {refused}"
        );
        assert!(!refused.to_string().contains(META_TOKEN));
    }
    assert!(
        connection(&app, &owner.token, "social_ads_a")
            .await
            .is_none()
    );

    // Without an id: the token's accounts are listed, and the only active USD one connected.
    let connected = app
        .post(
            "/products/shop/connections/social-ads-a",
            Some(&key),
            json!({ "access_token": META_TOKEN, "campaign_name_prefixes": [" Brand ", "Brand", ""] }),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(connected["ok"], true);
    assert!(connected["connection_id"].is_string(), "{connected}");
    assert_eq!(connected["accounts"].as_array().unwrap().len(), 3);
    let listed = connection(&app, &owner.token, "social_ads_a")
        .await
        .unwrap();
    assert_eq!(listed["id"], connected["connection_id"]);
    assert_eq!(listed["config"]["ad_account_id"], "1001");
    assert_eq!(listed["config"]["campaign_name_prefixes"], json!(["Brand"]));
    assert!(listed["config"]["grant"].is_null());
    let everything = app
        .get("/connections", Some(&owner.token))
        .await
        .expect(200)
        .to_string();
    assert!(!everything.contains(META_TOKEN));

    // Test reads the account live; another account's product is 404.
    let tested = app
        .post(
            "/products/shop/connections/social-ads-a/test",
            Some(&key),
            json!({}),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(tested["ok"], true, "{tested}");
    assert!(
        tested["detail"].as_str().unwrap().contains("USD"),
        "{tested}"
    );
    let stranger = app.signup_verified("stranger@example.com").await;
    app.post(
        "/products/shop/connections/social-ads-a/test",
        Some(&stranger.token),
        json!({}),
    )
    .await
    .expect(404);
    app.post(
        "/products/shop/connections/social-ads-a",
        Some(&stranger.token),
        json!({ "access_token": META_TOKEN, "ad_account_id": "1001" }),
    )
    .await
    .expect(404);

    // A pasted token stays the customer's: disconnect revokes nothing at Meta.
    let gone = app
        .post(
            "/products/shop/connections/social-ads-a/disconnect",
            Some(&owner.token),
            json!({}),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(gone["credential_deleted"], true);
    assert_eq!(gone["revoked_upstream"], false);
    assert!(!meta.revoked(META_TOKEN));
    assert!(meta.requests_to("me/permissions").is_empty());

    // Two usable accounts: nothing is connected, both are listed for the caller to choose.
    meta.add_ad_account(AdAccountSeed::new(1_004, "Second shop", "USD"));
    let choose = app
        .post(
            "/products/shop/connections/social-ads-a",
            Some(&key),
            json!({ "access_token": META_TOKEN }),
        )
        .await
        .expect(200)
        .clone();
    assert!(choose["connection_id"].is_null(), "{choose}");
    assert_eq!(choose["accounts"].as_array().unwrap().len(), 4);
    assert!(
        connection(&app, &owner.token, "social_ads_a")
            .await
            .is_none()
    );
}

async fn linkedin_and_page_key_connects(backend: Backend) {
    let (meta, linkedin) = (FakeMeta::spawn().await, FakeLinkedIn::spawn().await);
    seed_meta(&meta);
    seed_linkedin(&linkedin);
    linkedin.add_ad_account(AccountSeed::new(509, "Euro", "EUR"));
    let app = spawn(backend, &meta, &linkedin).await;
    let (owner, key) = founder(&app).await;

    // Two USD accounts: listed, nothing connected; then the chosen one.
    let choose = app
        .post(
            "/products/shop/connections/social-ads-b",
            Some(&key),
            json!({ "access_token": LINKEDIN_TOKEN }),
        )
        .await
        .expect(200)
        .clone();
    assert!(choose["connection_id"].is_null(), "{choose}");
    let mut ids: Vec<&str> = choose["accounts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["id"].as_str().unwrap())
        .collect();
    ids.sort_unstable();
    assert_eq!(ids, ["507", "508", "509"]);
    let refused = app
        .post(
            "/products/shop/connections/social-ads-b",
            Some(&key),
            json!({ "access_token": LINKEDIN_TOKEN, "ad_account_id": "509" }),
        )
        .await
        .expect(400)
        .clone();
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .starts_with("ad_account_id")
    );
    let connected = connect_linkedin(&app, &key).await;
    assert!(connected["connection_id"].is_string());
    let listed = connection(&app, &owner.token, "social_ads_b")
        .await
        .unwrap();
    assert_eq!(listed["config"]["ad_account_id"], "507");
    let revoked = app
        .post(
            "/products/shop/connections/social-ads-b",
            Some(&key),
            json!({ "access_token": "AQX-wrong", "ad_account_id": "507" }),
        )
        .await
        .expect(400)
        .clone();
    assert!(
        revoked["error"]
            .as_str()
            .unwrap()
            .starts_with("access_token")
    );

    // The page: discovered through the user token, its Instagram account kept.
    let page = app
        .post(
            "/products/shop/connections/social-a",
            Some(&key),
            json!({ "access_token": META_TOKEN }),
        )
        .await
        .expect(200)
        .clone();
    assert!(page["connection_id"].is_string(), "{page}");
    assert_eq!(page["pages"][0]["id"], PAGE.to_string());
    let listed = connection(&app, &owner.token, "social_a").await.unwrap();
    assert_eq!(listed["config"]["page_id"], PAGE.to_string());
    assert_eq!(listed["config"]["instagram_username"], "shop");
    let refused = app
        .post(
            "/products/shop/connections/social-a",
            Some(&key),
            json!({ "access_token": META_TOKEN, "page_id": "pages/1" }),
        )
        .await
        .expect(400)
        .clone();
    assert!(refused["error"].as_str().unwrap().starts_with("page_id"));
}

/// An adult-adjacent product may not connect the social network's ads, by key or grant: 403
/// with `network_wall`, recorded in history; its organic page and LinkedIn still connect.
async fn the_adult_adjacent_wall(backend: Backend) {
    let (meta, linkedin) = (FakeMeta::spawn().await, FakeLinkedIn::spawn().await);
    seed_meta(&meta);
    seed_linkedin(&linkedin);
    let app = spawn(backend, &meta, &linkedin).await;
    let (owner, key) = founder(&app).await;
    app.post(
        "/products/shop/policy",
        Some(&owner.token),
        json!({ "adult_adjacent": true }),
    )
    .await
    .expect(200);

    let walled = app
        .post(
            "/products/shop/connections/social-ads-a",
            Some(&key),
            json!({ "access_token": META_TOKEN, "ad_account_id": "1001" }),
        )
        .await
        .expect(403)
        .clone();
    assert_eq!(walled["policy_code"], "network_wall", "{walled}");
    assert!(walled["error"].as_str().unwrap().contains("adult-adjacent"));
    let walled = app
        .post(
            "/connect/socialco/start",
            Some(&key),
            json!({ "product_slug": "shop", "kinds": ["social_ads_a", "social_a"] }),
        )
        .await
        .expect(403)
        .clone();
    assert_eq!(walled["policy_code"], "network_wall");
    // Left out, the kinds are both: walled too.
    app.post(
        "/connect/socialco/start",
        Some(&key),
        json!({ "product_slug": "shop" }),
    )
    .await
    .expect(403);
    assert!(
        meta.requests().is_empty(),
        "nothing reached Meta for a walled product"
    );
    let refusals = app
        .history(&owner.token, "?limit=50")
        .await
        .into_iter()
        .filter(|e| e["action"] == "connection.refused")
        .count();
    assert_eq!(refusals, 3);

    // The page alone and LinkedIn are not walled.
    app.post(
        "/connect/socialco/start",
        Some(&key),
        json!({ "product_slug": "shop", "kinds": ["social_a"] }),
    )
    .await
    .expect(200);
    connect_linkedin(&app, &key).await;

    // A grant started before the product was marked is walled at select.
    app.post(
        "/products/shop/policy",
        Some(&owner.token),
        json!({ "adult_adjacent": false }),
    )
    .await
    .expect(200);
    let state = super::grant::consent_state(&app, &meta, &key).await;
    app.post(
        "/products/shop/policy",
        Some(&owner.token),
        json!({ "adult_adjacent": true }),
    )
    .await
    .expect(200);
    let walled = app
        .post(
            "/connect/socialco/select",
            Some(&key),
            json!({ "state": state, "ad_account_id": "1001" }),
        )
        .await
        .expect(403)
        .clone();
    assert_eq!(walled["policy_code"], "network_wall");
    assert!(
        connection(&app, &owner.token, "social_ads_a")
            .await
            .is_none()
    );
}

per_backend!(
    meta_key_connects,
    linkedin_and_page_key_connects,
    the_adult_adjacent_wall,
);
