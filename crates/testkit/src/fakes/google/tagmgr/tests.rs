//! Tag Manager over HTTP: paged lists, each user's accounts, scopes gating writes, a workspace
//! made into a version and published.

use axum::http::Method;
use serde_json::{Value, json};

use super::{
    TAGMANAGER_EDIT_CONTAINERS_SCOPE, TAGMANAGER_EDIT_VERSIONS_SCOPE, TAGMANAGER_PUBLISH_SCOPE,
    TAGMANAGER_READONLY_SCOPE, TagManagerPermission,
};
use crate::fakes::google::test_support::http;
use crate::fakes::google::{FakeGoogle, oauth};

async fn call(
    google: &FakeGoogle,
    token: &str,
    method: Method,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let url = format!("{}/tagmanager/v2/{path}", google.tag_manager_base_url());
    let mut request = http().request(method, url).bearer_auth(token);
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.expect("fake answers");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn lists_page_each_user_sees_their_accounts_and_scopes_gate_writes() {
    let google = FakeGoogle::spawn().await;
    for (id, name) in [("1", "One"), ("2", "Two"), ("3", "Three")] {
        google.add_tag_manager_account(id, name);
        google.grant_tag_manager_access("a@example.com", id, TagManagerPermission::Publish);
    }
    google.add_tag_manager_account("9", "Other");
    google.grant_tag_manager_access("b@example.com", "9", TagManagerPermission::Read);
    google.add_tag_manager_container("1", "11", "Site", "GTM-AAA");
    google.sign_in_as("a@example.com");
    let (read_only, _) = oauth::issue_offline(
        &mut google.state(),
        vec![TAGMANAGER_READONLY_SCOPE.to_owned()],
    );
    let (all, _) = oauth::issue_offline(
        &mut google.state(),
        [
            TAGMANAGER_READONLY_SCOPE,
            TAGMANAGER_EDIT_CONTAINERS_SCOPE,
            TAGMANAGER_EDIT_VERSIONS_SCOPE,
            TAGMANAGER_PUBLISH_SCOPE,
        ]
        .map(str::to_owned)
        .to_vec(),
    );

    let (status, first) = call(&google, &read_only, Method::GET, "accounts", None).await;
    assert_eq!(status, 200);
    assert_eq!(first["account"].as_array().unwrap().len(), 2);
    let token = first["nextPageToken"].as_str().unwrap().to_owned();
    let (_, second) = call(
        &google,
        &read_only,
        Method::GET,
        &format!("accounts?pageToken={token}"),
        None,
    )
    .await;
    assert_eq!(second["account"][0]["accountId"], "3");
    assert!(second.get("nextPageToken").is_none());
    let (status, _) = call(
        &google,
        &read_only,
        Method::GET,
        "accounts/9/containers",
        None,
    )
    .await;
    assert_eq!(status, 403);

    let (status, live) = call(
        &google,
        &all,
        Method::GET,
        "accounts/1/containers/11/versions:live",
        None,
    )
    .await;
    assert_eq!(status, 404, "{live}");
    let (status, refused) = call(
        &google,
        &read_only,
        Method::POST,
        "accounts/1/containers/11/workspaces",
        Some(json!({ "name": "w" })),
    )
    .await;
    assert_eq!(status, 403);
    assert_eq!(
        refused["error"]["message"],
        "Request had insufficient authentication scopes."
    );

    let (_, workspace) = call(
        &google,
        &all,
        Method::POST,
        "accounts/1/containers/11/workspaces",
        Some(json!({ "name": "w" })),
    )
    .await;
    let ws = workspace["path"].as_str().unwrap().to_owned();
    let tag = json!({ "name": "t", "type": "html",
        "parameter": [{ "type": "template", "key": "html", "value": "<b>x</b>" }],
        "firingTriggerId": ["2147479553"] });
    let (status, _) = call(
        &google,
        &all,
        Method::POST,
        &format!("{ws}/tags"),
        Some(tag.clone()),
    )
    .await;
    assert_eq!(status, 200);
    let (status, _) = call(
        &google,
        &all,
        Method::POST,
        &format!("{ws}/tags"),
        Some(tag),
    )
    .await;
    assert_eq!(status, 400, "a duplicate name is refused");
    let (_, created) = call(
        &google,
        &all,
        Method::POST,
        &format!("{ws}:create_version"),
        Some(json!({ "name": "v1" })),
    )
    .await;
    assert_eq!(created["compilerError"], false);
    let version = created["containerVersion"]["path"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        google
            .tag_manager_workspaces("accounts/1/containers/11")
            .is_empty()
    );
    let (status, published) = call(
        &google,
        &all,
        Method::POST,
        &format!("{version}:publish"),
        None,
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(published["containerVersion"]["name"], "v1");
    let live = google.tag_manager_published("accounts/1/containers/11");
    assert_eq!(live.len(), 1);
    assert_eq!(live[0].tags[0].html.as_deref(), Some("<b>x</b>"));
}
