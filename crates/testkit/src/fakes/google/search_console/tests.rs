//! Search Console over HTTP: each user's sites, paging by `startRow`, scopes and tokens.

use serde_json::{Value, json};

use super::{QueryFigures, WEBMASTERS_READONLY_SCOPE};
use crate::fakes::google::test_support::http;
use crate::fakes::google::{ADWORDS_SCOPE, FakeGoogle, oauth};

async fn call(
    google: &FakeGoogle,
    token: Option<&str>,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let url = format!("{}{path}", google.search_console_base_url());
    let mut request = match &body {
        Some(body) => http().post(url).json(body),
        None => http().get(url),
    };
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.expect("fake answers");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn each_user_reads_their_sites_and_queries_page_by_start_row() {
    let google = FakeGoogle::spawn().await;
    google.add_search_console_site("a@example.com", "https://a.example/", "siteOwner");
    google.add_search_console_site("a@example.com", "sc-domain:x.example", "siteUnverifiedUser");
    google.add_search_console_site("b@example.com", "https://b.example/", "siteOwner");
    for (query, clicks) in [("one", 5.0), ("two", 4.0), ("three", 3.0)] {
        google.add_search_console_row(
            "https://a.example/",
            "2026-11-20",
            query,
            QueryFigures::new(clicks, 10.0, 2.0),
        );
    }
    google.add_search_console_row(
        "https://a.example/",
        "2026-11-21",
        "one",
        QueryFigures::new(1.0, 4.0, 3.0),
    );
    google.sign_in_as("a@example.com");
    let (token, _) = oauth::issue_offline(
        &mut google.state(),
        vec![WEBMASTERS_READONLY_SCOPE.to_owned()],
    );
    let (ads_only, _) = oauth::issue_offline(&mut google.state(), vec![ADWORDS_SCOPE.to_owned()]);

    let (status, listed) = call(&google, Some(&token), "/webmasters/v3/sites", None).await;
    assert_eq!(status, 200);
    assert_eq!(
        listed,
        json!({ "siteEntry": [
            { "siteUrl": "https://a.example/", "permissionLevel": "siteOwner" },
            { "siteUrl": "sc-domain:x.example", "permissionLevel": "siteUnverifiedUser" },
        ] })
    );
    let (status, other) = call(
        &google,
        Some(&token),
        "/webmasters/v3/sites/https%3A%2F%2Fb.example%2F",
        None,
    )
    .await;
    assert_eq!(status, 403);
    assert_eq!(other["error"]["status"], "PERMISSION_DENIED");
    assert!(
        other["error"]["message"]
            .as_str()
            .unwrap()
            .contains("https://b.example/")
    );

    let path = "/webmasters/v3/sites/https%3A%2F%2Fa.example%2F/searchAnalytics/query";
    let ask = |start: u64| {
        json!({ "startDate": "2026-11-20", "endDate": "2026-11-21",
                "dimensions": ["date", "query"], "rowLimit": 3, "startRow": start })
    };
    let (status, first) = call(&google, Some(&token), path, Some(ask(0))).await;
    assert_eq!(status, 200);
    let rows = first["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0]["keys"], json!(["2026-11-20", "one"]));
    assert_eq!(rows[0]["clicks"], json!(5.0));
    assert_eq!(rows[0]["ctr"], json!(0.5));
    let (_, second) = call(&google, Some(&token), path, Some(ask(3))).await;
    assert_eq!(second["rows"].as_array().unwrap().len(), 1);
    let (_, past) = call(&google, Some(&token), path, Some(ask(4))).await;
    assert!(past.get("rows").is_none(), "{past}");

    let (status, refused) = call(&google, Some(&ads_only), path, Some(ask(0))).await;
    assert_eq!(status, 403);
    assert_eq!(
        refused["error"]["message"],
        "Request had insufficient authentication scopes."
    );
    let (status, _) = call(&google, None, "/webmasters/v3/sites", None).await;
    assert_eq!(status, 401);
    let (status, _) = call(&google, Some("ya29.forged"), "/webmasters/v3/sites", None).await;
    assert_eq!(status, 401);
    let mut too_many = ask(0);
    too_many["rowLimit"] = json!(25_001);
    let (status, _) = call(&google, Some(&token), path, Some(too_many)).await;
    assert_eq!(status, 400);
    assert_eq!(google.requests_to("/webmasters/v3/").len(), 9);
}
