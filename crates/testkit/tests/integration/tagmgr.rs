//! `tagmgr` through the search-engine grant and the service-account path, end to end against
//! the loopback Google fake (its Tag Manager part written from Google's documentation apart from
//! the connector): the four scopes asked, the containers offered across pages (the consenting
//! user's only), the choice, the tag audit from the live version, `POST
//! /products/{slug}/tracking/gtm-deploy` publishing exactly one version holding the snippet (and
//! nothing on a read-only grant or a compiler error), the 403s and 409s, history, the grant
//! revoked only with its last connection, and another account's 404.

use payback_domain::connection::ConnectionKind;
use payback_testkit::fake_google::service_account::TEST_SERVICE_ACCOUNT_EMAIL;
use payback_testkit::fake_google::{
    CustomerSeed, TAGMANAGER_EDIT_CONTAINERS_SCOPE, TAGMANAGER_EDIT_VERSIONS_SCOPE,
    TAGMANAGER_PUBLISH_SCOPE, TAGMANAGER_READONLY_SCOPE, TagManagerPermission,
};
use payback_testkit::{Backend, FakeGoogle, TestApp, eventually, per_backend};
use serde_json::{Value, json};

use crate::google_grant::{
    Consented, GoogleApp, assert_no_token_in, consent_from_dashboard, disconnect_revoking_nothing,
    disconnect_revoking_the_grant, select, service_account_key_file, status, sync, verify,
};
use crate::shop::{founder, listed_connection};

const FOUNDER: &str = "founder@shop.example";
const RIVAL: &str = "rival@elsewhere.example";
const CONTAINER: &str = "accounts/10/containers/101";
const RIVAL_CONTAINER: &str = "accounts/90/containers/901";
const ALL_PAGES: &str = "2147479553";
const ADS_SCOPE: &str = "https://www.googleapis.com/auth/adwords";
const DEPLOY: &str = "/products/shop/tracking/gtm-deploy";

/// The service wired to the fake; `key_dir` holds the operator's service-account key when
/// given.
async fn spawn(
    backend: Backend,
    google: &FakeGoogle,
    key_dir: Option<&tempfile::TempDir>,
) -> TestApp {
    let origin = google.tag_manager_base_url();
    let key_file =
        key_dir.map(|dir| service_account_key_file(dir, &google.service_account_key_json()));
    GoogleApp::new(google)
        .api(ConnectionKind::Tagmgr, origin.clone())
        .api(ConnectionKind::SearchAds, origin)
        .ads_developer_token()
        .service_account_key(key_file)
        .spawn(backend)
        .await
}

/// The founder's three accounts (two pages of accounts), four containers (two pages in account
/// 10), a rival's account, and an ads account.
fn seed(google: &FakeGoogle) {
    for (account, name) in [("10", "Shop"), ("20", "Blog"), ("30", "Labs")] {
        google.add_tag_manager_account(account, name);
        google.grant_tag_manager_access(FOUNDER, account, TagManagerPermission::Publish);
    }
    google.add_tag_manager_container("10", "101", "shop.example", "GTM-SHOP1");
    google.add_tag_manager_container("10", "102", "checkout", "GTM-SHOP2");
    google.add_tag_manager_container("10", "103", "app", "GTM-SHOP3");
    google.add_tag_manager_container("30", "301", "labs", "GTM-LABS1");
    google.add_tag_manager_account("90", "Rival");
    google.grant_tag_manager_access(RIVAL, "90", TagManagerPermission::Publish);
    google.add_tag_manager_container("90", "901", "rival.example", "GTM-RIVAL");
    google.add_customer(CustomerSeed::new(1_234_567_890, "Shop Ads", "USD"));
    google.sign_in_as(FOUNDER);
}

/// What the founder's grant offers, in Google's order.
fn offered() -> Value {
    json!({ "tagmgr_containers": [
        { "path": "accounts/10/containers/101", "name": "shop.example", "public_id": "GTM-SHOP1" },
        { "path": "accounts/10/containers/102", "name": "checkout", "public_id": "GTM-SHOP2" },
        { "path": "accounts/10/containers/103", "name": "app", "public_id": "GTM-SHOP3" },
        { "path": "accounts/30/containers/301", "name": "labs", "public_id": "GTM-LABS1" },
    ] })
}

/// Grants `tagmgr` and selects `CONTAINER`.
async fn connect(app: &TestApp, google: &FakeGoogle, token: &str) -> String {
    let state = consent_from_dashboard(app, google, token, json!(["tagmgr"]))
        .await
        .state;
    select(
        app,
        token,
        json!({ "state": state, "tagmgr_container_path": CONTAINER }),
    )
    .await
    .expect(200);
    state
}

async fn tracking(app: &TestApp, token: &str) -> Value {
    app.get("/products/shop/tracking-key", Some(token))
        .await
        .expect(200)
        .clone()
}

/// The scopes a read-write grant asks, sorted.
fn all_scopes() -> Vec<String> {
    let mut scopes: Vec<String> = [
        TAGMANAGER_READONLY_SCOPE,
        TAGMANAGER_EDIT_CONTAINERS_SCOPE,
        TAGMANAGER_EDIT_VERSIONS_SCOPE,
        TAGMANAGER_PUBLISH_SCOPE,
    ]
    .map(str::to_owned)
    .to_vec();
    scopes.sort();
    scopes
}

/// The requests that wrote to Tag Manager.
fn writes(google: &FakeGoogle) -> Vec<String> {
    google
        .requests_to("/tagmanager/v2/")
        .into_iter()
        .filter(|request| request.method != "GET")
        .map(|request| request.path)
        .collect()
}

async fn a_founder_connects_a_container_and_publishes_the_snippet(backend: Backend) {
    let google = FakeGoogle::spawn().await;
    seed(&google);
    let app = spawn(backend, &google, None).await;
    let (owner, key) = founder(&app).await;
    let mut answers: Vec<String> = Vec::new();

    let Consented { state, scopes } =
        consent_from_dashboard(&app, &google, &owner.token, json!(["tagmgr"])).await;
    assert_eq!(scopes, all_scopes());
    let granted = status(&app, &owner.token, &state).await;
    assert_eq!(granted["status"], "complete", "{granted}");
    assert_eq!(granted["options"], offered());
    // Two pages of accounts, and two of account 10's containers.
    let pages = |path: &str| {
        google
            .requests_to(path)
            .iter()
            .filter(|request| request.path == path)
            .count()
    };
    assert_eq!(pages("/tagmanager/v2/accounts"), 2);
    assert_eq!(pages("/tagmanager/v2/accounts/10/containers"), 2);
    answers.push(granted.to_string());
    for (body, words) in [
        (
            json!({ "state": state, "tagmgr_container_path": RIVAL_CONTAINER }),
            "tagmgr_container_path: accounts/90/containers/901 is not a container this grant reaches",
        ),
        (
            json!({ "state": state }),
            "tagmgr_container_path: choose one of accounts/10/containers/101",
        ),
    ] {
        select(&app, &owner.token, body)
            .await
            .expect_error(400, words);
    }
    let selected = select(
        &app,
        &owner.token,
        json!({ "state": state, "tagmgr_container_path": CONTAINER }),
    )
    .await
    .expect(200)
    .clone();
    assert_eq!(selected, json!({ "ok": true, "activated": ["tagmgr"] }));
    let connection = listed_connection(&app, &key, "tagmgr").await.unwrap();
    assert_eq!(connection["status"], "active", "{connection}");
    assert_eq!(connection["config"]["container_path"], CONTAINER);

    // Connected, never audited, never deployed.
    let info = tracking(&app, &owner.token).await;
    assert_eq!(info["gtm_connected"], true, "{info}");
    assert_eq!(
        info["gtm_deploy"],
        json!({ "container_path": CONTAINER, "snippet_live": false, "workspace_name": null,
                "version_name": null, "published": false, "deployed_at": null })
    );
    let snippet = info["gtm_html"].as_str().unwrap().to_owned();
    let write_key = info["key"].as_str().unwrap().to_owned();
    assert!(snippet.contains(&write_key));

    // The audit: nothing published yet, so nothing live.
    sync(&app).await;
    assert_eq!(google.requests_to("/versions:live").len(), 1);
    let info = tracking(&app, &owner.token).await;
    assert_eq!(info["gtm_deploy"]["snippet_live"], false, "{info}");
    let connection = listed_connection(&app, &key, "tagmgr").await.unwrap();
    assert!(
        connection["last_detail"]
            .as_str()
            .unwrap_or_default()
            .contains("nothing is published yet"),
        "{connection}"
    );

    // Agents and keys never publish: 403 before anything is sent to Google.
    let refused = app.post(DEPLOY, Some(&key), json!({})).await;
    refused.expect_error(403, "only a person signed in to the dashboard may publish");
    assert!(refused.body.get("reconnect").is_none(), "{}", refused.text);
    assert!(writes(&google).is_empty());

    // The person publishes: one workspace, one tag, one version, published.
    let deployed = app
        .post(DEPLOY, Some(&owner.token), json!({}))
        .await
        .expect(200)
        .clone();
    answers.push(deployed.to_string());
    assert_eq!(deployed["ok"], true);
    assert_eq!(deployed["published"], true);
    let workspace_name = deployed["workspace_name"].as_str().unwrap().to_owned();
    let version_name = deployed["version_name"].as_str().unwrap().to_owned();
    assert!(workspace_name.starts_with("Payback snippet "), "{deployed}");
    assert!(
        version_name.starts_with("Payback tracking snippet "),
        "{deployed}"
    );
    let published = google.tag_manager_published(CONTAINER);
    assert_eq!(published.len(), 1, "{published:?}");
    assert_eq!(published[0].name, version_name);
    assert_eq!(published[0].tags.len(), 1);
    let tag = &published[0].tags[0];
    assert_eq!(tag.kind, "html");
    assert_eq!(tag.html.as_deref(), Some(snippet.as_str()));
    assert_eq!(tag.firing_trigger_ids, [ALL_PAGES]);
    assert_eq!(google.requests_to(":publish").len(), 1);
    assert_eq!(google.tag_manager_version_count(CONTAINER), 1);
    let created = google.requests_to("/workspaces/");
    let tag_post = created
        .iter()
        .find(|r| r.method == "POST" && r.path.ends_with("/tags"))
        .expect("the tag was created");
    assert_eq!(
        tag_post.json(),
        json!({ "name": "Payback tracking snippet", "type": "html",
                "parameter": [{ "type": "template", "key": "html", "value": snippet }],
                "firingTriggerId": [ALL_PAGES] })
    );

    let info = tracking(&app, &owner.token).await;
    let shown = &info["gtm_deploy"];
    assert_eq!(shown["workspace_name"], workspace_name.as_str(), "{info}");
    assert_eq!(shown["version_name"], version_name.as_str());
    assert_eq!(shown["published"], true);
    assert_eq!(shown["snippet_live"], true);
    assert!(shown["deployed_at"].is_string(), "{info}");
    answers.push(info.to_string());

    // The audit now finds it in the live version.
    app.post(
        "/products/shop/connections/tagmgr/sync",
        Some(&key),
        json!({}),
    )
    .await
    .expect(200);
    let audits = eventually(
        || async { google.requests_to("/versions:live").len() },
        |audits| *audits == 2,
    )
    .await;
    assert_eq!(audits, 2);
    assert_eq!(
        tracking(&app, &owner.token).await["gtm_deploy"]["snippet_live"],
        true
    );

    // A second deploy updates Payback's tag rather than adding another.
    app.clock.advance(60_000);
    app.post(DEPLOY, Some(&owner.token), json!({}))
        .await
        .expect(200);
    let published = google.tag_manager_published(CONTAINER);
    assert_eq!(published.len(), 2);
    assert_eq!(published[1].tags.len(), 1, "{published:?}");
    assert!(
        google
            .requests_to("/tags/")
            .iter()
            .any(|r| r.method == "PUT"),
        "the second deploy updates the tag"
    );

    // History names the deploy.
    let history = app
        .get("/history?product=shop", Some(&owner.token))
        .await
        .expect(200)
        .clone();
    let deploys: Vec<&Value> = history
        .as_array()
        .unwrap()
        .iter()
        .filter(|event| event["action"] == "tracking.gtm_deploy")
        .collect();
    assert_eq!(deploys.len(), 2, "{history}");
    assert_eq!(deploys[1]["payload"]["version_name"], version_name.as_str());
    assert_eq!(deploys[1]["payload"]["container_path"], CONTAINER);
    assert_eq!(deploys[1]["actor"], "founder@example.com");
    answers.push(history.to_string());

    // Another account's product is not found.
    let other = app.signup_verified("other@example.com").await;
    app.post(DEPLOY, Some(&other.token), json!({}))
        .await
        .expect(404);

    assert_no_token_in(&answers, &google);
}

per_backend!(a_founder_connects_a_container_and_publishes_the_snippet);

async fn a_read_only_grant_or_a_compiler_error_publishes_nothing(backend: Backend) {
    let google = FakeGoogle::spawn().await;
    seed(&google);
    let app = spawn(backend, &google, None).await;
    let (owner, _) = founder(&app).await;
    tracking(&app, &owner.token).await;

    // Granular consent: only the read scope ticked. The audit works; the deploy writes nothing.
    google.set_human_grants_only(&[TAGMANAGER_READONLY_SCOPE]);
    connect(&app, &google, &owner.token).await;
    sync(&app).await;
    assert_eq!(tracking(&app, &owner.token).await["gtm_connected"], true);
    let refused = app.post(DEPLOY, Some(&owner.token), json!({})).await;
    refused.expect_error(403, "nothing was written");
    assert_eq!(refused.body["reconnect"], true, "{}", refused.text);
    assert!(
        refused.text.contains(TAGMANAGER_PUBLISH_SCOPE),
        "{}",
        refused.text
    );
    assert!(writes(&google).is_empty(), "{:?}", writes(&google));
    assert!(google.tag_manager_published(CONTAINER).is_empty());

    // Reconnected with every scope; Tag Manager finds a compiler error: nothing published.
    google.set_human_grants_only(&[]);
    connect(&app, &google, &owner.token).await;
    google.set_tag_manager_compiler_error(true);
    app.post(DEPLOY, Some(&owner.token), json!({}))
        .await
        .expect_error(502, "compiler error");
    assert!(google.requests_to(":publish").is_empty());
    assert!(google.tag_manager_published(CONTAINER).is_empty());
    assert_eq!(google.tag_manager_version_count(CONTAINER), 0);
    let info = tracking(&app, &owner.token).await;
    assert_eq!(info["gtm_deploy"]["published"], false, "{info}");
    assert_eq!(info["gtm_deploy"]["workspace_name"], Value::Null);
}

per_backend!(a_read_only_grant_or_a_compiler_error_publishes_nothing);

async fn conflicts_and_the_audit_of_a_snippet_published_by_hand(backend: Backend) {
    let google = FakeGoogle::spawn().await;
    seed(&google);
    let app = spawn(backend, &google, None).await;
    let (owner, _) = founder(&app).await;

    // No tag manager connected.
    let info = tracking(&app, &owner.token).await;
    assert_eq!(info["gtm_connected"], false);
    assert_eq!(info["gtm_deploy"], Value::Null);
    app.post(DEPLOY, Some(&owner.token), json!({}))
        .await
        .expect_error(409, "tag manager not connected");

    // Someone pasted the snippet into the container by hand: the audit finds it live.
    let snippet = info["gtm_html"].as_str().unwrap().to_owned();
    google.publish_tag_manager_html(CONTAINER, "Payback", &snippet);
    connect(&app, &google, &owner.token).await;
    sync(&app).await;
    let info = tracking(&app, &owner.token).await;
    assert_eq!(info["gtm_deploy"]["snippet_live"], true, "{info}");
    assert_eq!(info["gtm_deploy"]["published"], false);

    // A live version without it (another key's tag): not live.
    google.publish_tag_manager_html(
        CONTAINER,
        "Payback",
        &snippet.replace(info["key"].as_str().unwrap(), "svc_pub_someone_else"),
    );
    app.post(
        "/products/shop/connections/tagmgr/sync",
        Some(&owner.token),
        json!({}),
    )
    .await
    .expect(200);
    let live = eventually(
        || async { tracking(&app, &owner.token).await["gtm_deploy"]["snippet_live"].clone() },
        |live| *live == json!(false),
    )
    .await;
    assert_eq!(live, json!(false));

    // The test reads the container live; once the person removed Payback's access at Google,
    // the test fails and the next audit leaves its error on the connection.
    let tested = app
        .post(
            "/products/shop/connections/tagmgr/test",
            Some(&owner.token),
            json!({}),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(tested["ok"], true, "{tested}");
    assert!(
        tested["detail"].as_str().unwrap().contains("GTM-SHOP1"),
        "{tested}"
    );
    google.revoke_all();
    let failed = app
        .post(
            "/products/shop/connections/tagmgr/test",
            Some(&owner.token),
            json!({}),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(failed["ok"], false, "{failed}");
    app.post(
        "/products/shop/connections/tagmgr/sync",
        Some(&owner.token),
        json!({}),
    )
    .await
    .expect(200);
    let connection = eventually(
        || async {
            listed_connection(&app, &owner.token, "tagmgr")
                .await
                .unwrap()
        },
        |connection| connection["last_error"].is_string(),
    )
    .await;
    assert!(connection["last_error"].is_string(), "{connection}");
}

per_backend!(conflicts_and_the_audit_of_a_snippet_published_by_hand);

async fn no_write_key_is_a_conflict(backend: Backend) {
    let google = FakeGoogle::spawn().await;
    seed(&google);
    let app = spawn(backend, &google, None).await;
    let (owner, _) = founder(&app).await;
    connect(&app, &google, &owner.token).await;
    // The key is minted at the first read of the tracking key; none was.
    app.post(DEPLOY, Some(&owner.token), json!({}))
        .await
        .expect_error(409, "no write key");
    assert!(writes(&google).is_empty());
}

per_backend!(no_write_key_is_a_conflict);

async fn the_grant_is_revoked_only_with_its_last_connection(backend: Backend) {
    let google = FakeGoogle::spawn().await;
    seed(&google);
    let app = spawn(backend, &google, None).await;
    let (owner, key) = founder(&app).await;
    let Consented { state, scopes } =
        consent_from_dashboard(&app, &google, &owner.token, json!(["tagmgr", "search_ads"])).await;
    let mut expected = all_scopes();
    expected.push(ADS_SCOPE.to_owned());
    expected.sort();
    assert_eq!(scopes, expected);
    select(
        &app,
        &owner.token,
        json!({ "state": state, "tagmgr_container_path": CONTAINER, "ads_customer_id": "1234567890" }),
    )
    .await
    .expect(200);
    disconnect_revoking_nothing(&app, &google, &key, "tagmgr").await;
    let info = tracking(&app, &owner.token).await;
    assert_eq!(info["gtm_connected"], false);
    assert_eq!(info["gtm_deploy"], Value::Null);
    app.post(DEPLOY, Some(&owner.token), json!({}))
        .await
        .expect_error(409, "tag manager not connected");
    disconnect_revoking_the_grant(&app, &google, &key, "search-ads").await;
}

per_backend!(the_grant_is_revoked_only_with_its_last_connection);

async fn the_service_account_connects_and_publishes_only_with_publish_permission(backend: Backend) {
    let google = FakeGoogle::spawn().await;
    seed(&google);
    let dir = tempfile::tempdir().unwrap();
    let app = spawn(backend, &google, Some(&dir)).await;
    let (owner, _) = founder(&app).await;
    tracking(&app, &owner.token).await;
    google.grant_tag_manager_access(TEST_SERVICE_ACCOUNT_EMAIL, "10", TagManagerPermission::Read);

    let listed = verify(&app, &owner.token, json!({ "product_slug": "shop" }))
        .await
        .expect(200)
        .clone();
    assert_eq!(
        listed["options"]["tagmgr_containers"],
        json!([
            { "path": "accounts/10/containers/101", "name": "shop.example", "public_id": "GTM-SHOP1" },
            { "path": "accounts/10/containers/102", "name": "checkout", "public_id": "GTM-SHOP2" },
            { "path": "accounts/10/containers/103", "name": "app", "public_id": "GTM-SHOP3" },
        ]),
        "{listed}"
    );
    verify(
        &app,
        &owner.token,
        json!({ "product_slug": "shop", "tagmgr_container_path": "accounts/30/containers/301" }),
    )
    .await
    .expect_error(400, "tagmgr_container_path: ");
    let made = verify(
        &app,
        &owner.token,
        json!({ "product_slug": "shop", "tagmgr_container_path": CONTAINER }),
    )
    .await
    .expect(200)
    .clone();
    assert_eq!(made["activated"], json!(["tagmgr"]), "{made}");
    assert_eq!(tracking(&app, &owner.token).await["gtm_connected"], true);

    // Read permission on the container: Google refuses the first write, nothing is left.
    let refused = app.post(DEPLOY, Some(&owner.token), json!({})).await;
    refused.expect_error(403, "nothing was written");
    assert_eq!(refused.body["reconnect"], true);
    assert!(google.tag_manager_workspaces(CONTAINER).is_empty());

    google.grant_tag_manager_access(
        TEST_SERVICE_ACCOUNT_EMAIL,
        "10",
        TagManagerPermission::Publish,
    );
    app.post(DEPLOY, Some(&owner.token), json!({}))
        .await
        .expect(200);
    assert_eq!(google.tag_manager_published(CONTAINER).len(), 1);
}

per_backend!(the_service_account_connects_and_publishes_only_with_publish_permission);
