//! Share links: one live link per product, the public view read-only with nothing of the
//! account, dead after revoke, audited without the token.

use payback_domain::Clock;
use payback_testkit::{TestApp, backend_tests};
use serde_json::{Value, json};

use super::{data, setup};

async fn a_shared_scorecard_is_read_only_and_dies_on_revoke(app: TestApp) {
    let (owner, key, product_id) = setup(&app).await;
    data::generate(app.clock.now())
        .load(&app, &key, &product_id)
        .await;
    app.post(
        "/products/shop/scorecard/share/revoke",
        Some(&key),
        json!({}),
    )
    .await
    .expect(200);
    let shared = app
        .post("/products/shop/scorecard/share", Some(&key), json!({}))
        .await
        .expect(200)
        .clone();
    let token = shared["token"].as_str().unwrap().to_owned();
    assert!(token.len() >= 22);
    assert!(
        token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    );
    assert_eq!(
        shared["share_url"],
        format!("{}/#/shared/scorecard/{token}", app.base_url)
    );
    // Sharing again answers the live link.
    let again = app
        .post(
            "/products/shop/scorecard/share",
            Some(&owner.token),
            json!({}),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(again, shared);
    let matrix = app
        .get("/products/shop/scorecard", Some(&key))
        .await
        .expect(200)
        .clone();
    assert_eq!(matrix["share_url"], shared["share_url"]);

    let public = app.get(&format!("/t/scorecard/{token}"), None).await;
    assert_eq!(public.header("cache-control"), Some("no-store"));
    let public = public.expect(200).clone();
    assert_eq!(public["sections"], matrix["sections"]);
    assert_eq!(public["weeks"], matrix["weeks"]);
    assert_eq!(public["product_name"], matrix["product_name"]);
    assert_eq!(public["catalog"], json!([]));
    assert_eq!(public["spreadsheet_id"], Value::Null);
    assert_eq!(public["share_url"], Value::Null);
    assert_eq!(public["sheets_enabled"], false);
    let text = public.to_string();
    for secret in [&owner.email, &owner.account_id, &product_id, &key, &token] {
        assert!(
            !text.contains(secret.as_str()),
            "the public view shows {secret}"
        );
    }
    // Read-only: no write through the public path; nothing else answers to the token.
    let write = app
        .post(&format!("/t/scorecard/{token}"), None, json!({}))
        .await;
    assert_eq!(write.status, 405);
    app.get("/t/scorecard/not-a-token", None)
        .await
        .expect_error(404, "not found");
    app.get(&format!("/t/scorecard/{}x", token), None)
        .await
        .expect(404);

    let revoked = app
        .post(
            "/products/shop/scorecard/share/revoke",
            Some(&key),
            json!({}),
        )
        .await;
    assert_eq!(revoked.expect(200), &json!({"ok": true}));
    app.get(&format!("/t/scorecard/{token}"), None)
        .await
        .expect(404);
    let matrix = app
        .get("/products/shop/scorecard", Some(&key))
        .await
        .expect(200)
        .clone();
    assert_eq!(matrix["share_url"], Value::Null);
    let revoked_again = app
        .post(
            "/products/shop/scorecard/share/revoke",
            Some(&key),
            json!({}),
        )
        .await;
    assert_eq!(revoked_again.expect(200), &json!({"ok": true}));
    let fresh = app
        .post("/products/shop/scorecard/share", Some(&key), json!({}))
        .await
        .expect(200)
        .clone();
    assert_ne!(fresh["token"], shared["token"]);
    app.get(
        &format!("/t/scorecard/{}", fresh["token"].as_str().unwrap()),
        None,
    )
    .await
    .expect(200);
    app.get(&format!("/t/scorecard/{token}"), None)
        .await
        .expect(404);

    // Two shares and one revoke (the second revoke had nothing to kill), no token in history.
    let history = app
        .history_where(&owner.token, |e| {
            e["action"]
                .as_str()
                .unwrap_or("")
                .starts_with("scorecard.share")
        })
        .await;
    let actions: Vec<&str> = history
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    assert_eq!(
        actions.iter().filter(|a| **a == "scorecard.share").count(),
        2
    );
    assert_eq!(
        actions
            .iter()
            .filter(|a| **a == "scorecard.share_revoke")
            .count(),
        1
    );
    let text = serde_json::to_string(&history).unwrap();
    assert!(!text.contains(&token));
    assert!(!text.contains(fresh["token"].as_str().unwrap()));
}

backend_tests!(a_shared_scorecard_is_read_only_and_dies_on_revoke);
