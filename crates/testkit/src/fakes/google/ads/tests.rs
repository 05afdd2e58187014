//! The Ads API over HTTP: paging and streaming searches, and the headers that gate every call.

use serde_json::{Value, json};

use crate::fakes::google::ADWORDS_SCOPE;
use crate::fakes::google::test_support::{
    CLIENT, CUSTOMER, MANAGER, VERIFIER, ads, ads_error, auth_url, exchange, http, location_param,
    search, seeded, urlencode,
};

#[tokio::test]
async fn search_pages_and_stream_batches() {
    let google = seeded().await;
    let access = google.issue_tokens().access_token;
    let query = "SELECT campaign.id, campaign_budget.amount_micros FROM campaign WHERE campaign.status = 'ENABLED' ORDER BY campaign.id";
    let mut ids = Vec::new();
    let mut page_token: Option<String> = None;
    let mut pages = 0;
    loop {
        let mut body = json!({ "query": query });
        if let Some(token) = &page_token {
            body["pageToken"] = json!(token);
        }
        let (status, body) = ads(
            &google,
            &format!("customers/{CUSTOMER}/googleAds:search"),
            &access,
            None,
            body,
        )
        .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["fieldMask"], "campaign.id,campaignBudget.amountMicros");
        pages += 1;
        for row in body["results"].as_array().expect("results") {
            ids.push(
                row["campaign"]["id"]
                    .as_str()
                    .expect("int64 as a string")
                    .to_owned(),
            );
        }
        match body["nextPageToken"].as_str() {
            Some(token) => page_token = Some(token.to_owned()),
            None => break,
        }
    }
    assert_eq!(pages, 3, "7 rows in pages of 3");
    assert_eq!(ids, ["1", "2", "3", "4", "5", "6", "7"]);

    let (status, body) = ads(
        &google,
        &format!("customers/{CUSTOMER}/googleAds:search"),
        &access,
        None,
        json!({ "query": "SELECT campaign.id FROM campaign", "pageToken": page_token }),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(
        ads_error(&body).1,
        json!({"requestError": "INVALID_PAGE_TOKEN"}),
        "a token belongs to its query"
    );
    let (status, body) = ads(
        &google,
        &format!("customers/{CUSTOMER}/googleAds:search"),
        &access,
        None,
        json!({ "query": query, "pageSize": 100 }),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(
        ads_error(&body).1,
        json!({"requestError": "PAGE_SIZE_NOT_SUPPORTED"})
    );

    let (status, body) = ads(
        &google,
        &format!("customers/{CUSTOMER}/googleAds:searchStream"),
        &access,
        None,
        json!({ "query": query }),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let batches = body.as_array().expect("an array of batches");
    assert_eq!(batches.len(), 3);
    assert!(batches.iter().all(
        |b| b["fieldMask"] == "campaign.id,campaignBudget.amountMicros"
            && b["requestId"].is_string()
    ));
    assert_eq!(
        batches
            .iter()
            .map(|b| b["results"].as_array().map_or(0, Vec::len))
            .sum::<usize>(),
        7
    );

    let (status, body) = search(
        &google,
        &access,
        "SELECT campaign.id FROM campaign WHERE campaign.id = 99",
    )
    .await;
    assert_eq!(status, 200);
    assert!(
        body.get("results").is_none(),
        "proto3 JSON leaves an empty results list out: {body}"
    );

    let (status, body) = search(&google, &access, "SELECT segments.date, metrics.cost_micros FROM customer WHERE segments.date DURING LAST_30_DAYS").await;
    assert_eq!(status, 200);
    assert_eq!(
        body["results"],
        json!([{"customer": {"resourceName": format!("customers/{CUSTOMER}")}, "segments": {"date": "2024-05-01"}, "metrics": {"costMicros": "1230000"}}])
    );
}

#[tokio::test]
async fn headers_gate_every_call_as_documented() {
    let google = seeded().await;
    let access = google.issue_tokens().access_token;
    let url = |path: &str| format!("{}/v21/{path}", google.ads_base_url());

    let response = http()
        .get(url("customers:listAccessibleCustomers"))
        .bearer_auth(&access)
        .header("developer-token", google.developer_token())
        .send()
        .await
        .expect("list");
    assert_eq!(response.status().as_u16(), 200);
    let body: Value = response.json().await.expect("json");
    assert_eq!(
        body,
        json!({"resourceNames": [format!("customers/{CUSTOMER}"), format!("customers/{MANAGER}")]})
    );

    let response = http()
        .get(url("customers:listAccessibleCustomers"))
        .header("developer-token", google.developer_token())
        .send()
        .await
        .expect("list");
    assert_eq!(response.status().as_u16(), 401);
    let body: Value = response.json().await.expect("json");
    assert_eq!(body["error"]["status"], "UNAUTHENTICATED");

    let response = http()
        .post(url(&format!("customers/{CUSTOMER}/googleAds:search")))
        .bearer_auth(&access)
        .json(&json!({"query": "SELECT customer.id FROM customer"}))
        .send()
        .await
        .expect("search");
    assert_eq!(response.status().as_u16(), 400);
    assert_eq!(
        ads_error(&response.json().await.expect("json")).1,
        json!({"requestError": "DEVELOPER_TOKEN_PARAMETER_MISSING"})
    );
    let response = http()
        .post(url(&format!("customers/{CUSTOMER}/googleAds:search")))
        .bearer_auth(&access)
        .header("developer-token", "nope")
        .json(&json!({"query": "SELECT customer.id FROM customer"}))
        .send()
        .await
        .expect("search");
    assert_eq!(response.status().as_u16(), 401);
    assert_eq!(
        ads_error(&response.json().await.expect("json")).1,
        json!({"authenticationError": "DEVELOPER_TOKEN_INVALID"})
    );

    let client_search = format!("customers/{CLIENT}/googleAds:search");
    let body = json!({"query": "SELECT customer.currency_code FROM customer"});
    let (status, answer) = ads(&google, &client_search, &access, None, body.clone()).await;
    assert_eq!(status, 403);
    assert_eq!(
        ads_error(&answer),
        (
            "PERMISSION_DENIED".to_owned(),
            json!({"authorizationError": "USER_PERMISSION_DENIED"})
        )
    );
    let (status, answer) = ads(
        &google,
        &client_search,
        &access,
        Some(CUSTOMER),
        body.clone(),
    )
    .await;
    assert_eq!(status, 403, "not a manager of the client: {answer}");
    let (status, answer) = ads(
        &google,
        &client_search,
        &access,
        Some(MANAGER),
        body.clone(),
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["results"][0]["customer"]["currencyCode"], "EUR");
    let response = http()
        .post(url(&client_search))
        .bearer_auth(&access)
        .header("developer-token", google.developer_token())
        .header("login-customer-id", "999-000-1111")
        .json(&body)
        .send()
        .await
        .expect("search");
    assert_eq!(response.status().as_u16(), 400);
    assert_eq!(
        ads_error(&response.json().await.expect("json")).1,
        json!({"headerError": "INVALID_LOGIN_CUSTOMER_ID"})
    );

    let (status, answer) = ads(
        &google,
        &format!("customers/{MANAGER}/googleAds:search"),
        &access,
        None,
        json!({"query": "SELECT customer.id, metrics.clicks FROM customer"}),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(
        ads_error(&answer).1,
        json!({"queryError": "REQUESTED_METRICS_FOR_MANAGER"})
    );

    google.set_human_grants_only(&["openid"]);
    let location = google
        .authorize(&auth_url(&google, &[]).replace(
            &format!("scope={}", urlencode(ADWORDS_SCOPE)),
            &format!("scope=openid+{}", urlencode(ADWORDS_SCOPE)),
        ))
        .await;
    let code = location_param(&location, "code").expect("code");
    let (_, tokens) = exchange(&google, &code, VERIFIER).await;
    assert_eq!(tokens["scope"], "openid", "granular consent: {tokens}");
    let narrow = tokens["access_token"].as_str().expect("access");
    let (status, answer) = search(&google, narrow, "SELECT customer.id FROM customer").await;
    assert_eq!(
        (status, answer["error"]["status"].as_str()),
        (403, Some("PERMISSION_DENIED")),
        "{answer}"
    );
}
