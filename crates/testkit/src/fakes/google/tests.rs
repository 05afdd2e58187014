//! The fake proving itself over HTTP: the OAuth flow with PKCE, refresh and revocation, the
//! Ads API's headers, paging, streaming, mutates and documented error shapes.

use serde_json::{Value, json};

use super::oauth::s256;
use super::*;

const CUSTOMER: i64 = 1234567890;
const MANAGER: i64 = 9990001111;
const CLIENT: i64 = 5550002222;
const VERIFIER: &str = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk-and-some-more";
const CALLBACK: &str = "http://127.0.0.1:9/oauth/callback";

fn http() -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client")
}

fn auth_url(google: &FakeGoogle, extra: &[(&str, &str)]) -> String {
    let mut url = reqwest::Url::parse(&google.auth_url()).expect("auth url");
    {
        let mut query = url.query_pairs_mut();
        query
            .append_pair("client_id", google.client_id())
            .append_pair("redirect_uri", CALLBACK)
            .append_pair("response_type", "code")
            .append_pair("scope", ADWORDS_SCOPE)
            .append_pair("state", "st-1")
            .append_pair("access_type", "offline")
            .append_pair("prompt", "consent")
            .append_pair("code_challenge", &s256(VERIFIER))
            .append_pair("code_challenge_method", "S256");
        for (key, value) in extra {
            query.append_pair(key, value);
        }
    }
    url.to_string()
}

fn location_param(location: &str, name: &str) -> Option<String> {
    let url = reqwest::Url::parse(location).expect("location");
    url.query_pairs()
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.into_owned())
}

async fn token(google: &FakeGoogle, form: &[(&str, &str)]) -> (u16, Value) {
    let response = http()
        .post(google.token_url())
        .form(form)
        .send()
        .await
        .expect("token endpoint");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn exchange(google: &FakeGoogle, code: &str, verifier: &str) -> (u16, Value) {
    token(
        google,
        &[
            ("grant_type", "authorization_code"),
            ("code", code),
            ("redirect_uri", CALLBACK),
            ("client_id", google.client_id()),
            ("client_secret", google.client_secret()),
            ("code_verifier", verifier),
        ],
    )
    .await
}

async fn ads(
    google: &FakeGoogle,
    path: &str,
    access_token: &str,
    login: Option<i64>,
    body: Value,
) -> (u16, Value) {
    let mut request = http()
        .post(format!("{}/v21/{path}", google.ads_base_url()))
        .bearer_auth(access_token)
        .header("developer-token", google.developer_token())
        .json(&body);
    if let Some(login) = login {
        request = request.header("login-customer-id", login.to_string());
    }
    let response = request.send().await.expect("ads api");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn search(google: &FakeGoogle, access_token: &str, query: &str) -> (u16, Value) {
    ads(
        google,
        &format!("customers/{CUSTOMER}/googleAds:search"),
        access_token,
        None,
        json!({ "query": query }),
    )
    .await
}

fn ads_error(body: &Value) -> (String, Value) {
    let detail = &body["error"]["details"][0];
    assert!(
        detail["@type"].as_str().is_some_and(
            |t| t == "type.googleapis.com/google.ads.googleads.v21.errors.GoogleAdsFailure"
        ),
        "a GoogleAdsFailure: {body}"
    );
    assert!(detail["requestId"].is_string(), "{body}");
    (
        body["error"]["status"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
        detail["errors"][0]["errorCode"].clone(),
    )
}

async fn seeded() -> FakeGoogle {
    let google = FakeGoogle::spawn().await;
    google.set_today("2024-05-10");
    google.add_customer(CustomerSeed::new(CUSTOMER, "Shop", "USD"));
    google.add_customer(CustomerSeed::manager_account(MANAGER, "Agency", "USD"));
    google.add_customer(CustomerSeed::new(CLIENT, "Client", "EUR").under(MANAGER));
    for id in 1..=7 {
        google.add_campaign(
            CUSTOMER,
            CampaignSeed::new(id, &format!("Campaign {id}"), 10_000_000 * id),
        );
    }
    google.add_ad_group(CUSTOMER, AdGroupSeed::new(100, 1, "Group"));
    google.add_ad(CUSTOMER, AdSeed::new(200, 100, "Ad"));
    google.add_daily(
        CUSTOMER,
        "2024-05-01",
        Breakdown::Ad {
            ad_group: 100,
            ad: 200,
        },
        Metrics::new(1_230_000, 10, 2),
    );
    google
}

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

fn urlencode(text: &str) -> String {
    let mut url = reqwest::Url::parse("http://x/").expect("url");
    url.query_pairs_mut().append_pair("v", text);
    url.query()
        .unwrap_or_default()
        .trim_start_matches("v=")
        .to_owned()
}

#[tokio::test]
async fn a_budget_mutate_changes_what_a_later_search_reads() {
    let google = seeded().await;
    let access = google.issue_tokens().access_token;
    let budget = google.budget_id(CUSTOMER, 3).expect("budget");
    let resource_name = format!("customers/{CUSTOMER}/campaignBudgets/{budget}");
    let mutate = format!("customers/{CUSTOMER}/campaignBudgets:mutate");

    let (status, body) = ads(&google, &mutate, &access, None, json!({"operations": [{"update": {"resourceName": resource_name, "amountMicros": "45000000"}, "updateMask": "amount_micros"}]})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body, json!({"results": [{"resourceName": resource_name}]}));
    assert_eq!(google.budget_micros(CUSTOMER, 3), Some(45_000_000));
    let (_, body) = search(
        &google,
        &access,
        "SELECT campaign_budget.amount_micros FROM campaign WHERE campaign.id = 3",
    )
    .await;
    assert_eq!(
        body["results"][0]["campaignBudget"]["amountMicros"],
        "45000000"
    );

    for (operation, expected) in [
        (
            json!({"update": {"resourceName": resource_name, "amountMicros": "45000001"}, "updateMask": "amountMicros"}),
            json!({"campaignBudgetError": "NON_MULTIPLE_OF_MINIMUM_CURRENCY_UNIT"}),
        ),
        (
            json!({"update": {"resourceName": resource_name, "amountMicros": "1000000"}}),
            json!({"fieldMaskError": "FIELD_MASK_MISSING"}),
        ),
        (
            json!({"update": {"resourceName": format!("customers/{CUSTOMER}/campaignBudgets/1"), "amountMicros": "1000000"}, "updateMask": "amount_micros"}),
            json!({"mutateError": "RESOURCE_NOT_FOUND"}),
        ),
    ] {
        let (status, body) = ads(
            &google,
            &mutate,
            &access,
            None,
            json!({"operations": [operation]}),
        )
        .await;
        assert_eq!(status, 400, "{body}");
        assert_eq!(ads_error(&body).1, expected);
    }
    assert_eq!(
        google.budget_micros(CUSTOMER, 3),
        Some(45_000_000),
        "refused mutates change nothing"
    );

    let (status, body) = ads(&google, &mutate, &access, None, json!({"operations": [{"update": {"resourceName": resource_name, "amount_micros": 50000000}, "update_mask": "amount_micros"}], "validateOnly": true})).await;
    assert_eq!((status, body), (200, json!({})));
    assert_eq!(
        google.budget_micros(CUSTOMER, 3),
        Some(45_000_000),
        "validate only"
    );

    let (status, body) = ads(
        &google,
        &mutate,
        &access,
        None,
        json!({"operations": [], "pageSize": 1}),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(body["error"]["status"], "INVALID_ARGUMENT");
    assert!(
        body["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("Unknown name \"pageSize\"")),
        "{body}"
    );
}

#[tokio::test]
async fn the_customer_mutate_sets_the_final_url_suffix() {
    let google = seeded().await;
    let access = google.issue_tokens().access_token;
    let path = format!("customers/{CUSTOMER}:mutate");
    let update = |suffix: &str| json!({"operation": {"update": {"resourceName": format!("customers/{CUSTOMER}"), "finalUrlSuffix": suffix}, "updateMask": "final_url_suffix"}});
    let (status, body) = ads(
        &google,
        &path,
        &access,
        None,
        update("utm_source=google&gclid={gclid}"),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body,
        json!({"result": {"resourceName": format!("customers/{CUSTOMER}")}})
    );
    assert_eq!(
        google.final_url_suffix(CUSTOMER).as_deref(),
        Some("utm_source=google&gclid={gclid}")
    );
    let (_, body) = search(
        &google,
        &access,
        "SELECT customer.final_url_suffix FROM customer",
    )
    .await;
    assert_eq!(
        body["results"][0]["customer"]["finalUrlSuffix"],
        "utm_source=google&gclid={gclid}"
    );

    let (status, body) = ads(&google, &path, &access, None, update("?utm_source=google")).await;
    assert_eq!(status, 400);
    assert_eq!(
        ads_error(&body).1,
        json!({"urlFieldError": "FINAL_URL_SUFFIX_MALFORMED"})
    );
}

#[tokio::test]
async fn scheduled_failures_answer_in_google_shapes_then_clear() {
    let google = seeded().await;
    let access = google.issue_tokens().access_token;
    google.fail_next("googleAds:search", 1, Fail::Quota);
    let (status, body) = search(&google, &access, "SELECT customer.id FROM customer").await;
    assert_eq!(status, 429);
    assert_eq!(
        ads_error(&body),
        (
            "RESOURCE_EXHAUSTED".to_owned(),
            json!({"quotaError": "RESOURCE_EXHAUSTED"})
        )
    );
    assert_eq!(
        body["error"]["details"][0]["errors"][0]["details"]["quotaErrorDetails"]["retryDelay"],
        "86400s"
    );
    assert_eq!(
        search(&google, &access, "SELECT customer.id FROM customer")
            .await
            .0,
        200
    );

    google.fail_next("/token", 1, Fail::Internal);
    let (status, body) = token(&google, &[("grant_type", "refresh_token")]).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (500, Some("internal_failure"))
    );

    google.expire_access_tokens();
    let (status, body) = search(&google, &access, "SELECT customer.id FROM customer").await;
    assert_eq!(status, 401);
    assert_eq!(
        ads_error(&body).1,
        json!({"authenticationError": "OAUTH_TOKEN_EXPIRED"})
    );

    let (status, body) = search(
        &google,
        &google.issue_tokens().access_token,
        "SELECT campaign.nope FROM campaign",
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(
        ads_error(&body),
        (
            "INVALID_ARGUMENT".to_owned(),
            json!({"queryError": "UNRECOGNIZED_FIELD"})
        )
    );
    assert_eq!(
        google.requests_to("googleAds:search").len(),
        4,
        "every request is recorded, refused ones too"
    );
    let last = google
        .requests_to("googleAds:search")
        .pop()
        .expect("recorded");
    assert_eq!(last.json()["query"], "SELECT campaign.nope FROM campaign");
    assert_eq!(
        last.header("Developer-Token"),
        Some(google.developer_token())
    );
}
