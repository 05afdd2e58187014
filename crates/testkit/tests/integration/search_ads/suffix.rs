//! The account's final URL suffix: read, what is missing, written only on an explicit call
//! by a person's dashboard session with the account's own parameters kept; refusals; test and
//! disconnect.

use payback_testkit::fake_google::Fail;
use payback_testkit::{Backend, FakeGoogle, per_backend};
use serde_json::json;

use super::*;

async fn the_suffix_is_read_and_completed(backend: Backend) {
    let (google, app, owner, key) = suffixed_founder(backend).await;
    // No connection yet.
    app.get(SUFFIX_PATH, Some(&key)).await.expect(404);
    app.post(SUFFIX_PATH, Some(&owner.token), json!({}))
        .await
        .expect(404);
    connect(&app, &google, &owner.token).await;

    let report = app.get(SUFFIX_PATH, Some(&key)).await.expect(200).clone();
    assert_eq!(report["connected"], true);
    assert_eq!(report["customer_id"], "1234567890");
    assert_eq!(report["final_url_suffix"], "ref=partner");
    assert_eq!(report["auto_tagging_enabled"], true);
    assert_eq!(report["complete"], false);
    assert!(report["read_error"].is_null());
    assert!(report["deployed_at"].is_null());
    let recommended = report["recommended_suffix"].as_str().unwrap().to_owned();
    assert!(
        recommended.contains("utm_campaign={campaignid}"),
        "{recommended}"
    );
    assert!(
        recommended.contains("utm_content={creative}"),
        "{recommended}"
    );
    assert_eq!(
        report["proposed_suffix"],
        format!("ref=partner&{recommended}").as_str()
    );
    let missing = report["missing"].as_array().unwrap().len();
    assert!(missing >= 4, "{report}");
    // Reading wrote nothing.
    assert_eq!(
        google.final_url_suffix(CUSTOMER).as_deref(),
        Some("ref=partner")
    );

    // Only a person's dashboard session writes it (`suffix_doors` has the refusals).
    let written = write_suffix(&app, &owner.token).await;
    assert_eq!(written["ok"], true);
    assert_eq!(written["already_complete"], false);
    assert_eq!(written["added"].as_array().unwrap().len(), missing);
    assert_eq!(written["suffix"], report["proposed_suffix"]);
    assert_eq!(
        google.final_url_suffix(CUSTOMER),
        report["proposed_suffix"].as_str().map(str::to_owned)
    );
    let after = app.get(SUFFIX_PATH, Some(&key)).await.expect(200).clone();
    assert_eq!(after["complete"], true);
    assert_eq!(after["missing"], json!([]));
    assert_eq!(after["deployed_at"], "2026-11-21T12:00:00.000Z");
    // Complete: a second call writes nothing.
    let again = write_suffix(&app, &owner.token).await;
    assert_eq!(again["already_complete"], true);
    assert_eq!(again["added"], json!([]));
    let audited: Vec<_> = app
        .history(&owner.token, "?limit=50")
        .await
        .into_iter()
        .filter(|e| e["action"] == "search_ads.url_suffix")
        .collect();
    assert_eq!(audited.len(), 1);
    assert_eq!(audited[0]["payload"]["before"], "ref=partner");

    // Another account's product answers 404.
    let other = app.signup_verified("other@example.com").await;
    app.get(SUFFIX_PATH, Some(&other.token)).await.expect(404);
    app.post(SUFFIX_PATH, Some(&other.token), json!({}))
        .await
        .expect(404);
}

per_backend!(the_suffix_is_read_and_completed);

async fn reads_and_writes_that_fail(backend: Backend) {
    let google = FakeGoogle::spawn().await;
    seed(&google);
    let app = spawn(backend, &google).await;
    let (owner, key) = founder(&app).await;
    connect(&app, &google, &owner.token).await;

    // A read that cannot happen is an answer with read_error.
    google.fail_next("googleAds:search", 1, Fail::Unauthenticated);
    let report = app.get(SUFFIX_PATH, Some(&key)).await.expect(200).clone();
    assert!(report["read_error"].as_str().is_some(), "{report}");
    assert_eq!(report["complete"], false);
    assert!(report["final_url_suffix"].is_null());

    // Google refuses the write: 502, nothing recorded as deployed.
    google.fail_next(":mutate", 10, Fail::Internal);
    app.post(SUFFIX_PATH, Some(&owner.token), json!({}))
        .await
        .expect_error(502, "writing the URL suffix failed");
    assert!(google.final_url_suffix(CUSTOMER).is_none());
    let report = app.get(SUFFIX_PATH, Some(&key)).await.expect(200).clone();
    assert!(report["deployed_at"].is_null());
}

per_backend!(reads_and_writes_that_fail);

async fn test_and_disconnect(backend: Backend) {
    let google = FakeGoogle::spawn().await;
    seed(&google);
    let app = spawn(backend, &google).await;
    let (owner, key) = founder(&app).await;
    connect(&app, &google, &owner.token).await;

    let tested = app
        .post(
            "/products/shop/connections/search-ads/test",
            Some(&key),
            json!({}),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(tested["ok"], true, "{tested}");
    assert!(
        tested["detail"].as_str().unwrap().contains("123-456-7890"),
        "{tested}"
    );
    // Search ads sync on their own schedule only.
    app.post(
        "/products/shop/connections/search-ads/sync",
        Some(&key),
        json!({}),
    )
    .await
    .expect(400);

    let gone = app
        .post(
            "/products/shop/connections/search-ads/disconnect",
            Some(&key),
            json!({}),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(
        gone,
        json!({ "ok": true, "credential_deleted": true, "revoked_upstream": true })
    );
    assert_eq!(google.requests_to("/revoke").len(), 1);
    app.get(SUFFIX_PATH, Some(&key)).await.expect(404);
}

per_backend!(test_and_disconnect);
