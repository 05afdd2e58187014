//! What the fake's own HTTP tests share: a client, the OAuth flow's requests, Ads API calls and
//! their failures read back, and a seeded fake.

use serde_json::{Value, json};

use super::oauth::s256;
use super::{
    ADWORDS_SCOPE, AdGroupSeed, AdSeed, Breakdown, CampaignSeed, CustomerSeed, FakeGoogle, Metrics,
};

pub(super) const CUSTOMER: i64 = 1234567890;
pub(super) const MANAGER: i64 = 9990001111;
pub(super) const CLIENT: i64 = 5550002222;
pub(super) const VERIFIER: &str = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk-and-some-more";
pub(super) const CALLBACK: &str = "http://127.0.0.1:9/oauth/callback";

pub(super) fn http() -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client")
}

pub(super) fn auth_url(google: &FakeGoogle, extra: &[(&str, &str)]) -> String {
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

pub(super) fn location_param(location: &str, name: &str) -> Option<String> {
    let url = reqwest::Url::parse(location).expect("location");
    url.query_pairs()
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.into_owned())
}

pub(super) async fn token(google: &FakeGoogle, form: &[(&str, &str)]) -> (u16, Value) {
    let response = http()
        .post(google.token_url())
        .form(form)
        .send()
        .await
        .expect("token endpoint");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

pub(super) async fn exchange(google: &FakeGoogle, code: &str, verifier: &str) -> (u16, Value) {
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

pub(super) async fn ads(
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

pub(super) async fn search(google: &FakeGoogle, access_token: &str, query: &str) -> (u16, Value) {
    ads(
        google,
        &format!("customers/{CUSTOMER}/googleAds:search"),
        access_token,
        None,
        json!({ "query": query }),
    )
    .await
}

pub(super) fn ads_error(body: &Value) -> (String, Value) {
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

pub(super) async fn seeded() -> FakeGoogle {
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

pub(super) fn urlencode(text: &str) -> String {
    let mut url = reqwest::Url::parse("http://x/").expect("url");
    url.query_pairs_mut().append_pair("v", text);
    url.query()
        .unwrap_or_default()
        .trim_start_matches("v=")
        .to_owned()
}
