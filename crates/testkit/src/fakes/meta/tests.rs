//! The fake proving itself over HTTP: the Login dance and token lifecycle, cursor paging to the
//! end, budget writes read back, insights that add up across levels, report runs polled to
//! completion, Pages and Instagram reads, and the documented error and throttling shapes.

use std::collections::BTreeMap;

use serde_json::Value;

use super::state::{format_spend, parse_spend};
use super::*;

const CALLBACK: &str = "http://127.0.0.1:9/connect/meta/callback";
const TOKEN: &str = "EAA-test-user-token";
const ALL: &[&str] = &[
    "ads_read",
    "ads_management",
    "pages_show_list",
    "pages_read_engagement",
    "read_insights",
    "instagram_basic",
    "instagram_manage_insights",
];
const ACCOUNT: i64 = 1001;

fn http() -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

/// Status, headers and JSON body of an answer.
struct Answer {
    status: u16,
    headers: reqwest::header::HeaderMap,
    body: Value,
}

impl Answer {
    async fn from(response: reqwest::Response) -> Self {
        Self {
            status: response.status().as_u16(),
            headers: response.headers().clone(),
            body: response.json().await.unwrap_or(Value::Null),
        }
    }

    fn error(&self) -> (i64, Option<i64>) {
        let error = &self.body["error"];
        assert!(error["fbtrace_id"].is_string(), "{}", self.body);
        assert!(error["type"].is_string(), "{}", self.body);
        (
            error["code"].as_i64().unwrap_or_default(),
            error["error_subcode"].as_i64(),
        )
    }
}

async fn get(meta: &FakeMeta, path_and_query: &str, token: &str) -> Answer {
    let response = http()
        .get(format!("{}/v23.0/{path_and_query}", meta.base_url()))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    Answer::from(response).await
}

async fn get_url(url: &str, token: &str) -> Answer {
    Answer::from(http().get(url).bearer_auth(token).send().await.unwrap()).await
}

async fn post(meta: &FakeMeta, path: &str, token: &str, form: &[(&str, &str)]) -> Answer {
    let response = http()
        .post(format!("{}/v23.0/{path}", meta.base_url()))
        .bearer_auth(token)
        .form(form)
        .send()
        .await
        .unwrap();
    Answer::from(response).await
}

/// Follows `paging.next` to the end, collecting every row.
async fn all_pages(meta: &FakeMeta, path_and_query: &str, token: &str) -> (Vec<Value>, usize) {
    let mut answer = get(meta, path_and_query, token).await;
    let mut rows = Vec::new();
    let mut pages = 0;
    loop {
        assert_eq!(answer.status, 200, "{}", answer.body);
        pages += 1;
        rows.extend(answer.body["data"].as_array().cloned().unwrap_or_default());
        match answer.body["paging"]["next"].as_str() {
            Some(next) => answer = get_url(next, token).await,
            None => return (rows, pages),
        }
    }
}

fn dialog_url(meta: &FakeMeta, scope: &str) -> String {
    let mut url = reqwest::Url::parse(&meta.dialog_url()).unwrap();
    url.query_pairs_mut()
        .append_pair("client_id", meta.app_id())
        .append_pair("redirect_uri", CALLBACK)
        .append_pair("state", "st-42")
        .append_pair("scope", scope);
    url.to_string()
}

fn location_param(location: &str, name: &str) -> Option<String> {
    reqwest::Url::parse(location)
        .unwrap()
        .query_pairs()
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.into_owned())
}

async fn token_endpoint(meta: &FakeMeta, query: &[(&str, &str)]) -> Answer {
    Answer::from(
        http()
            .get(meta.token_url())
            .query(query)
            .send()
            .await
            .unwrap(),
    )
    .await
}

/// One account, two campaigns (a campaign budget, ad set budgets), three ad sets, four ads
/// with three days of metrics.
async fn seeded() -> FakeMeta {
    let meta = FakeMeta::spawn().await;
    meta.set_today("2026-11-25");
    meta.add_user_token(TOKEN, ALL);
    meta.add_ad_account(AdAccountSeed::new(ACCOUNT, "Shop", "USD"));
    meta.add_campaign(
        ACCOUNT,
        CampaignSeed::new(2001, "Prospecting").daily_budget(5_000),
    );
    meta.add_campaign(ACCOUNT, CampaignSeed::new(2002, "Retargeting").paused());
    meta.add_adset(AdSetSeed::new(3001, 2001, "Lookalikes"));
    meta.add_adset(AdSetSeed::new(3002, 2002, "Visitors").daily_budget(2_500));
    meta.add_adset(AdSetSeed::new(3003, 2002, "Carts").daily_budget(1_500));
    meta.add_ad(AdSeed::new(4001, 3001, "Carousel"));
    meta.add_ad(AdSeed::new(4002, 3001, "Video"));
    meta.add_ad(AdSeed::new(4003, 3002, "Reminder"));
    meta.add_ad(AdSeed::new(4004, 3003, "Discount"));
    let days = [
        (4001, "2026-11-20", "12.34", 1000, 25),
        (4002, "2026-11-20", "0.66", 120, 1),
        (4003, "2026-11-20", "5", 300, 9),
        (4001, "2026-11-21", "7.5", 640, 12),
        (4004, "2026-11-21", "3.25", 210, 4),
        (4002, "2026-11-22", "1.01", 80, 0),
        (4003, "2026-11-22", "2.99", 150, 3),
        (4004, "2026-11-22", "10", 700, 20),
    ];
    for (ad, day, spend, impressions, clicks) in days {
        meta.set_day(ad, day, Metrics::new(spend, impressions, clicks));
    }
    meta
}

// ---- Login ---------------------------------------------------------------------------------

#[tokio::test]
async fn the_login_dance_issues_single_use_codes_and_long_lived_tokens() {
    let meta = FakeMeta::spawn().await;
    meta.register_redirect_uri(CALLBACK);
    let location = meta
        .authorize(&dialog_url(&meta, "ads_read,ads_management"))
        .await;
    assert!(location.starts_with(CALLBACK), "{location}");
    assert_eq!(location_param(&location, "state").as_deref(), Some("st-42"));
    let code = location_param(&location, "code").unwrap();

    let exchange = |redirect: &'static str, code: String| {
        let meta = &meta;
        async move {
            token_endpoint(
                meta,
                &[
                    ("client_id", meta.app_id()),
                    ("redirect_uri", redirect),
                    ("client_secret", meta.app_secret()),
                    ("code", &code),
                ],
            )
            .await
        }
    };
    let mismatch = exchange("http://127.0.0.1:9/elsewhere", code.clone()).await;
    assert_eq!(
        (mismatch.status, mismatch.error()),
        (400, (100, Some(36008)))
    );

    let short = exchange(CALLBACK, code.clone()).await;
    assert_eq!(short.status, 200, "{}", short.body);
    assert_eq!(short.body["token_type"], "bearer");
    assert_eq!(short.body["expires_in"], 3600);
    let short_token = short.body["access_token"].as_str().unwrap().to_owned();

    let replay = exchange(CALLBACK, code).await;
    assert_eq!(replay.error(), (100, Some(36009)));
    let unknown = exchange(CALLBACK, "AQnotacode".to_owned()).await;
    assert_eq!(unknown.error(), (100, Some(36007)));

    let wrong_secret = token_endpoint(
        &meta,
        &[
            ("grant_type", "fb_exchange_token"),
            ("client_id", meta.app_id()),
            ("client_secret", "nope"),
            ("fb_exchange_token", &short_token),
        ],
    )
    .await;
    assert_eq!(wrong_secret.error(), (1, None));
    let long = token_endpoint(
        &meta,
        &[
            ("grant_type", "fb_exchange_token"),
            ("client_id", meta.app_id()),
            ("client_secret", meta.app_secret()),
            ("fb_exchange_token", &short_token),
        ],
    )
    .await;
    assert_eq!(long.status, 200, "{}", long.body);
    assert_eq!(long.body["token_type"], "bearer");
    assert_eq!(long.body["expires_in"], 5_183_944);
    let long_token = long.body["access_token"].as_str().unwrap();
    assert_ne!(long_token, short_token);

    let me = get(&meta, "me?fields=id,name", long_token).await;
    assert_eq!(me.body["id"].as_str(), Some(meta.user_id().as_str()));
    let permissions = get(&meta, "me/permissions", long_token).await;
    let granted: Vec<&str> = permissions.body["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["status"] == "granted")
        .filter_map(|p| p["permission"].as_str())
        .collect();
    assert_eq!(granted, ["public_profile", "ads_read", "ads_management"]);
}

/// A code from a dialog with a PKCE S256 challenge is exchanged only with its verifier: a
/// missing or wrong one is refused as Meta refuses a bad code (OAuthException, code 100) and
/// leaves the code usable.
#[tokio::test]
async fn a_code_issued_with_a_pkce_challenge_needs_its_verifier() {
    use base64::Engine as _;
    use sha2::{Digest, Sha256};
    let meta = FakeMeta::spawn().await;
    meta.register_redirect_uri(CALLBACK);
    let verifier = "a-verifier-of-forty-three-characters-or-more-123";
    let challenge =
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(Sha256::digest(verifier));
    let mut url = reqwest::Url::parse(&dialog_url(&meta, "ads_read")).unwrap();
    url.query_pairs_mut()
        .append_pair("code_challenge", &challenge)
        .append_pair("code_challenge_method", "S256");
    let location = meta.authorize(url.as_str()).await;
    let code = location_param(&location, "code").unwrap();
    let exchange = |verifier: Option<&'static str>| {
        let (meta, code) = (&meta, code.clone());
        async move {
            let mut query = vec![
                ("client_id", meta.app_id()),
                ("redirect_uri", CALLBACK),
                ("client_secret", meta.app_secret()),
                ("code", code.as_str()),
            ];
            if let Some(verifier) = verifier {
                query.push(("code_verifier", verifier));
            }
            token_endpoint(meta, &query).await
        }
    };
    let missing = exchange(None).await;
    assert_eq!((missing.status, missing.error()), (400, (100, None)));
    assert_eq!(missing.body["error"]["type"], "OAuthException");
    let wrong = exchange(Some("another-verifier-of-forty-three-characters-xyz")).await;
    assert_eq!((wrong.status, wrong.error()), (400, (100, None)));
    assert!(
        wrong.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("code_verifier"),
        "{}",
        wrong.body
    );
    let right = exchange(Some(verifier)).await;
    assert_eq!(right.status, 200, "{}", right.body);
    assert_eq!(right.body["token_type"], "bearer");

    let mut bad_method = reqwest::Url::parse(&dialog_url(&meta, "ads_read")).unwrap();
    bad_method
        .query_pairs_mut()
        .append_pair("code_challenge", &challenge)
        .append_pair("code_challenge_method", "S512");
    assert_eq!(
        meta.try_authorize(bad_method.as_str())
            .await
            .unwrap_err()
            .status,
        400
    );
}

#[tokio::test]
async fn the_human_can_cancel_or_decline_and_bad_requests_show_error_pages() {
    let meta = FakeMeta::spawn().await;
    meta.set_human_refuses(true);
    let location = meta.authorize(&dialog_url(&meta, "ads_read")).await;
    assert!(location.starts_with(CALLBACK), "{location}");
    assert_eq!(
        location_param(&location, "error").as_deref(),
        Some("access_denied")
    );
    assert_eq!(
        location_param(&location, "error_reason").as_deref(),
        Some("user_denied")
    );
    assert!(location_param(&location, "error_description").is_some());
    assert_eq!(location_param(&location, "state").as_deref(), Some("st-42"));
    assert_eq!(location_param(&location, "code"), None);

    meta.set_human_refuses(false);
    meta.set_human_declines(&["ads_management"]);
    let location = meta
        .authorize(&dialog_url(&meta, "ads_read,ads_management"))
        .await;
    let code = location_param(&location, "code").unwrap();
    let token = token_endpoint(
        &meta,
        &[
            ("client_id", meta.app_id()),
            ("redirect_uri", CALLBACK),
            ("client_secret", meta.app_secret()),
            ("code", &code),
        ],
    )
    .await;
    let token = token.body["access_token"].as_str().unwrap().to_owned();
    let permissions = get(&meta, "me/permissions", &token).await;
    assert!(
        permissions.body["data"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["permission"] == "ads_management" && p["status"] == "declined"),
        "{}",
        permissions.body
    );

    let mut bad_app = reqwest::Url::parse(&dialog_url(&meta, "ads_read")).unwrap();
    bad_app.set_query(Some("client_id=999&redirect_uri=http://127.0.0.1:9/cb"));
    let page = meta.try_authorize(bad_app.as_str()).await.unwrap_err();
    assert!(page.body.contains("Invalid App ID"), "{}", page.body);

    meta.register_redirect_uri("https://payback.example/callback");
    let page = meta
        .try_authorize(&dialog_url(&meta, "ads_read"))
        .await
        .unwrap_err();
    assert!(page.body.contains("URL Blocked"), "{}", page.body);
}

// ---- tokens --------------------------------------------------------------------------------

#[tokio::test]
async fn tokens_come_by_header_or_parameter_and_bad_ones_get_190() {
    let meta = seeded().await;
    let by_param = Answer::from(
        http()
            .get(format!("{}/me?access_token={TOKEN}", meta.base_url()))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(
        by_param.body["name"], "Pat Payback",
        "unversioned path, token parameter"
    );
    let by_header = get(&meta, "me", TOKEN).await;
    assert_eq!(by_header.body["id"], by_param.body["id"]);

    let unknown = get(&meta, "me", "EAA-made-up").await;
    assert_eq!((unknown.status, unknown.error()), (400, (190, None)));
    assert!(
        unknown.headers["www-authenticate"]
            .to_str()
            .unwrap()
            .contains("invalid_token")
    );

    let none = Answer::from(
        http()
            .get(format!("{}/v23.0/act_{ACCOUNT}", meta.base_url()))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(none.error(), (104, None));

    meta.add_user_token("EAA-expiring", &["ads_read"]);
    meta.expire_token("EAA-expiring");
    let expired = get(&meta, "me/adaccounts", "EAA-expiring").await;
    assert_eq!(expired.error(), (190, Some(463)));
    assert!(
        expired.body["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("Error validating access token:")
    );

    let deleted = http()
        .delete(format!("{}/v23.0/me/permissions", meta.base_url()))
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap();
    assert_eq!(
        Answer::from(deleted).await.body,
        serde_json::json!({"success": true})
    );
    assert!(meta.revoked(TOKEN));
    let after = get(&meta, "me/adaccounts", TOKEN).await;
    assert_eq!(after.error(), (190, Some(458)));

    meta.add_user_token("EAA-fresh", &["ads_read"]);
    meta.invalidate_sessions();
    assert_eq!(
        get(&meta, "me", "EAA-fresh").await.error(),
        (190, Some(460))
    );
}

#[tokio::test]
async fn missing_permissions_get_the_permission_errors() {
    let meta = seeded().await;
    meta.add_user_token("EAA-pages-only", &["pages_show_list"]);
    let read = get(&meta, "me/adaccounts", "EAA-pages-only").await;
    assert_eq!(read.error(), (200, None));
    meta.add_user_token("EAA-read-only", &["ads_read"]);
    let write = post(&meta, "2001", "EAA-read-only", &[("daily_budget", "6000")]).await;
    assert_eq!(write.error(), (200, None));
    assert!(meta.budget_changes().is_empty());
    meta.add_user_token("EAA-manager", &["ads_read", "ads_management"]);
    let dropped = http()
        .delete(format!(
            "{}/v23.0/me/permissions/ads_management",
            meta.base_url()
        ))
        .bearer_auth("EAA-manager")
        .send()
        .await
        .unwrap();
    assert_eq!(Answer::from(dropped).await.body["success"], true);
    let write = post(&meta, "2001", "EAA-manager", &[("daily_budget", "6000")]).await;
    assert_eq!(write.error(), (200, None), "the permission is gone");
    let permissions = get(&meta, "me/permissions", "EAA-manager").await;
    assert!(
        permissions.body["data"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["permission"] == "ads_management" && p["status"] == "declined")
    );
}

#[tokio::test]
async fn appsecret_proof_is_checked_and_can_be_required() {
    let meta = seeded().await;
    let proof = oauth::appsecret_proof(meta.app_secret(), TOKEN);
    meta.require_appsecret_proof(true);
    assert_eq!(get(&meta, "me", TOKEN).await.error(), (100, None));
    let good = get(&meta, &format!("me?appsecret_proof={proof}"), TOKEN).await;
    assert_eq!(good.status, 200, "{}", good.body);
    let bad = get(
        &meta,
        &format!("me?appsecret_proof={}", "0".repeat(64)),
        TOKEN,
    )
    .await;
    assert_eq!(bad.body["error"]["type"], "GraphMethodException");

    let app_token = format!("{}|{}", meta.app_id(), meta.app_secret());
    let debug = get(
        &meta,
        &format!("debug_token?input_token={TOKEN}"),
        &app_token,
    )
    .await;
    assert_eq!(debug.body["data"]["is_valid"], true);
    assert_eq!(debug.body["data"]["type"], "USER");
    assert_eq!(
        debug.body["data"]["scopes"].as_array().unwrap().len(),
        ALL.len()
    );
}

// ---- ads objects and budgets ---------------------------------------------------------------

#[tokio::test]
async fn ad_accounts_page_to_the_end_with_their_fields() {
    let meta = seeded().await;
    for id in 1002..=1005 {
        meta.add_ad_account(
            AdAccountSeed::new(id, &format!("Shop {id}"), "EUR").timezone("Europe/Berlin"),
        );
    }
    let (rows, pages) = all_pages(
        &meta,
        "me/adaccounts?fields=account_id,name,currency,account_status,timezone_name",
        TOKEN,
    )
    .await;
    assert_eq!(pages, 3, "five accounts, two a page");
    let ids: Vec<&str> = rows.iter().filter_map(|r| r["id"].as_str()).collect();
    assert_eq!(
        ids,
        ["act_1001", "act_1002", "act_1003", "act_1004", "act_1005"]
    );
    assert_eq!(rows[0]["account_id"], "1001");
    assert_eq!(rows[0]["currency"], "USD");
    assert_eq!(rows[0]["account_status"], 1);
    assert_eq!(rows[0]["timezone_name"], "America/Los_Angeles");
    assert_eq!(rows[4]["timezone_name"], "Europe/Berlin");

    let first = get(&meta, "me/adaccounts", TOKEN).await;
    let cursors = &first.body["paging"]["cursors"];
    assert!(cursors["before"].is_string() && cursors["after"].is_string());
    assert!(first.body["paging"]["previous"].is_null());
    let bogus = get(&meta, "me/adaccounts?fields=bogus", TOKEN).await;
    assert_eq!(bogus.error(), (100, None));
}

#[tokio::test]
async fn campaigns_and_ad_sets_show_budgets_where_they_live() {
    let meta = seeded().await;
    meta.add_campaign(
        ACCOUNT,
        CampaignSeed::new(2003, "Old").status(Status::Deleted),
    );
    let fields = "fields=name,status,effective_status,daily_budget,lifetime_budget";
    let (campaigns, _) =
        all_pages(&meta, &format!("act_{ACCOUNT}/campaigns?{fields}"), TOKEN).await;
    let ids: Vec<&str> = campaigns.iter().filter_map(|c| c["id"].as_str()).collect();
    assert_eq!(
        ids,
        ["2001", "2002"],
        "deleted campaigns are left out by default"
    );
    assert_eq!(campaigns[0]["daily_budget"], "5000");
    assert_eq!(campaigns[0]["lifetime_budget"], "0");
    assert!(
        campaigns[1].get("daily_budget").is_none(),
        "{}",
        campaigns[1]
    );
    assert_eq!(campaigns[1]["effective_status"], "PAUSED");

    let deleted = get(
        &meta,
        &format!("act_{ACCOUNT}/campaigns?effective_status=[\"DELETED\"]"),
        TOKEN,
    )
    .await;
    assert_eq!(deleted.body["data"][0]["id"], "2003");

    let adset = get(
        &meta,
        "3002?fields=name,effective_status,daily_budget,campaign_id",
        TOKEN,
    )
    .await;
    assert_eq!(adset.body["daily_budget"], "2500");
    assert_eq!(adset.body["effective_status"], "CAMPAIGN_PAUSED");
    assert_eq!(adset.body["campaign_id"], "2002");
    let (adsets, _) = all_pages(&meta, "2002/adsets?fields=name", TOKEN).await;
    assert_eq!(adsets.len(), 2);
    let ad = get(&meta, "4004?fields=adset_id,effective_status", TOKEN).await;
    assert_eq!(ad.body["adset_id"], "3003");
    assert_eq!(ad.body["effective_status"], "CAMPAIGN_PAUSED");
    let missing = get(&meta, "9999999", TOKEN).await;
    assert_eq!(missing.error(), (100, Some(33)));
}

#[tokio::test]
async fn budget_writes_are_read_back_and_refused_at_the_wrong_level() {
    let meta = seeded().await;
    let campaign = post(&meta, "2001", TOKEN, &[("daily_budget", "7500")]).await;
    assert_eq!(campaign.body, serde_json::json!({"success": true}));
    let read = get(&meta, "2001?fields=daily_budget", TOKEN).await;
    assert_eq!(read.body["daily_budget"], "7500");
    assert_eq!(meta.campaign_daily_budget(2001), Some(7500));

    let by_query = Answer::from(
        http()
            .post(format!("{}/v23.0/3002?daily_budget=3000", meta.base_url()))
            .bearer_auth(TOKEN)
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(by_query.body["success"], true, "{}", by_query.body);
    assert_eq!(meta.adset_daily_budget(3002), Some(3000));

    let by_json = Answer::from(
        http()
            .post(format!("{}/v23.0/2001", meta.base_url()))
            .bearer_auth(TOKEN)
            .json(&serde_json::json!({ "daily_budget": 8000 }))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(by_json.body["success"], true, "{}", by_json.body);

    let under_campaign_budget = post(&meta, "3001", TOKEN, &[("daily_budget", "1000")]).await;
    assert_eq!(under_campaign_budget.error(), (100, Some(1_885_621)));
    let no_campaign_budget = post(&meta, "2002", TOKEN, &[("daily_budget", "1000")]).await;
    assert_eq!(no_campaign_budget.error(), (100, None));
    assert!(no_campaign_budget.body["error"]["error_user_title"].is_string());
    let kind_change = post(&meta, "2001", TOKEN, &[("lifetime_budget", "90000")]).await;
    assert_eq!(kind_change.error(), (100, None));

    assert_eq!(
        meta.budget_changes(),
        [
            BudgetChange {
                object: 2001,
                field: BudgetField::Daily,
                from: 5000,
                to: 7500
            },
            BudgetChange {
                object: 3002,
                field: BudgetField::Daily,
                from: 2500,
                to: 3000
            },
            BudgetChange {
                object: 2001,
                field: BudgetField::Daily,
                from: 7500,
                to: 8000
            },
        ]
    );

    for amount in ["3100", "3200", "3300"] {
        let ok = post(&meta, "3002", TOKEN, &[("daily_budget", amount)]).await;
        assert_eq!(ok.status, 200, "{}", ok.body);
    }
    let fifth = post(&meta, "3002", TOKEN, &[("daily_budget", "3400")]).await;
    assert_eq!(
        fifth.error(),
        (17, None),
        "four ad set budget changes an hour"
    );
    assert_eq!(meta.adset_daily_budget(3002), Some(3300));
}

// ---- insights ------------------------------------------------------------------------------

/// Spend in hundredths per day, summed over the rows.
fn spend_by_day(rows: &[Value]) -> BTreeMap<String, i64> {
    let mut out = BTreeMap::new();
    for row in rows {
        assert_eq!(row["date_start"], row["date_stop"], "daily rows: {row}");
        let spend = parse_spend(row["spend"].as_str().unwrap()).unwrap();
        *out.entry(row["date_start"].as_str().unwrap().to_owned())
            .or_insert(0) += spend;
    }
    out
}

#[tokio::test]
async fn daily_insights_add_up_to_the_same_totals_at_every_level() {
    let meta = seeded().await;
    let range = r#"{"since":"2026-11-19","until":"2026-11-23"}"#;
    let mut by_level = BTreeMap::new();
    for level in ["ad", "adset", "campaign", "account"] {
        let (rows, _) = all_pages(
            &meta,
            &format!(
                "act_{ACCOUNT}/insights?level={level}&time_increment=1&time_range={range}&fields=campaign_id,campaign_name,adset_id,ad_id,spend,impressions,clicks,account_currency"
            ),
            TOKEN,
        )
        .await;
        by_level.insert(level, rows);
    }
    // Independently: 20th 12.34+0.66+5, 21st 7.5+3.25, 22nd 1.01+2.99+10.
    let expected: BTreeMap<String, i64> = [
        ("2026-11-20".to_owned(), 1800),
        ("2026-11-21".to_owned(), 1075),
        ("2026-11-22".to_owned(), 1400),
    ]
    .into();
    for (level, rows) in &by_level {
        assert_eq!(spend_by_day(rows), expected, "level {level}");
    }
    assert_eq!(by_level["ad"].len(), 8);
    assert_eq!(by_level["account"].len(), 3);

    let campaign_rows = &by_level["campaign"];
    let first = &campaign_rows[0];
    assert_eq!(first["date_start"], "2026-11-20");
    assert_eq!(first["campaign_id"], "2001");
    assert_eq!(first["campaign_name"], "Prospecting");
    assert_eq!(first["spend"], "13", "12.34 + 0.66");
    assert_eq!(first["impressions"], "1120");
    assert_eq!(first["clicks"], "26");
    assert_eq!(first["account_currency"], "USD");
    assert!(first.get("ad_id").is_none(), "no ad ids at campaign level");

    let filtered = get(
        &meta,
        &format!(
            "act_{ACCOUNT}/insights?level=ad&time_range={range}&fields=ad_id,spend&filtering=[{{\"field\":\"campaign.id\",\"operator\":\"IN\",\"value\":[\"2002\"]}}]"
        ),
        TOKEN,
    )
    .await;
    let total: i64 = filtered.body["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| parse_spend(r["spend"].as_str().unwrap()).unwrap())
        .sum();
    assert_eq!(
        format_spend(total),
        "21.24",
        "5 + 3.25 + 2.99 + 10 over the range"
    );

    let campaign_object = get(
        &meta,
        &format!("2002/insights?time_range={range}&fields=spend,impressions"),
        TOKEN,
    )
    .await;
    assert_eq!(campaign_object.body["data"][0]["spend"], "21.24");
    assert_eq!(campaign_object.body["data"][0]["date_start"], "2026-11-19");
    assert_eq!(campaign_object.body["data"][0]["date_stop"], "2026-11-23");
}

#[tokio::test]
async fn insights_refuse_ranges_older_than_37_months_and_unknown_fields() {
    let meta = seeded().await;
    let old = get(
        &meta,
        &format!(
            "act_{ACCOUNT}/insights?time_range={}",
            r#"{"since":"2023-10-01","until":"2023-10-31"}"#
        ),
        TOKEN,
    )
    .await;
    assert_eq!(old.error(), (3018, None));
    let recent_enough = get(
        &meta,
        &format!(
            "act_{ACCOUNT}/insights?time_range={}",
            r#"{"since":"2023-10-25","until":"2023-10-31"}"#
        ),
        TOKEN,
    )
    .await;
    assert_eq!(recent_enough.status, 200, "{}", recent_enough.body);
    let field = get(
        &meta,
        &format!("act_{ACCOUNT}/insights?fields=spend,bogus"),
        TOKEN,
    )
    .await;
    assert_eq!(field.error(), (100, None));
    assert!(
        field.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("fields[1] must be one of the following values")
    );
}

#[tokio::test]
async fn report_runs_are_polled_to_completion_then_paged() {
    let meta = seeded().await;
    let range = r#"{"since":"2026-11-20","until":"2026-11-22"}"#;
    let form = [
        ("level", "ad"),
        ("time_increment", "1"),
        ("time_range", range),
        ("fields", "ad_id,spend"),
    ];
    let started = post(&meta, &format!("act_{ACCOUNT}/insights"), TOKEN, &form).await;
    let run = started.body["report_run_id"].as_str().unwrap().to_owned();
    let early = get(&meta, &format!("{run}/insights"), TOKEN).await;
    assert_eq!(
        early.error(),
        (2601, None),
        "rows only once the job completed"
    );

    let mut statuses = Vec::new();
    loop {
        let status = get(&meta, &run, TOKEN).await;
        assert_eq!(status.body["id"], run.as_str());
        let text = status.body["async_status"].as_str().unwrap().to_owned();
        let percent = status.body["async_percent_completion"].as_i64().unwrap();
        statuses.push((text.clone(), percent));
        if text != "Job Running" {
            break;
        }
    }
    assert_eq!(statuses.len(), 3, "{statuses:?}");
    assert_eq!(statuses[0].0, "Job Running");
    assert_eq!(statuses[2], ("Job Completed".to_owned(), 100));

    let (rows, pages) = all_pages(&meta, &format!("{run}/insights"), TOKEN).await;
    assert_eq!(pages, 4, "eight rows, two a page");
    let (sync_rows, _) = all_pages(
        &meta,
        &format!(
            "act_{ACCOUNT}/insights?level=ad&time_increment=1&time_range={range}&fields=ad_id,spend"
        ),
        TOKEN,
    )
    .await;
    assert_eq!(rows, sync_rows);

    meta.set_report_polls(0);
    meta.fail_next_report();
    let failing = post(&meta, &format!("act_{ACCOUNT}/insights"), TOKEN, &form).await;
    let failing = failing.body["report_run_id"].as_str().unwrap().to_owned();
    assert_eq!(
        get(&meta, &failing, TOKEN).await.body["async_status"],
        "Job Failed"
    );
}

// ---- throttling ----------------------------------------------------------------------------

#[tokio::test]
async fn throttling_answers_carry_the_usage_headers() {
    let meta = seeded().await;
    meta.fail_next("/insights", 2, Fail::InsightsThrottled { minutes: 5 });
    let path = format!("act_{ACCOUNT}/insights");
    for _ in 0..2 {
        let throttled = get(&meta, &path, TOKEN).await;
        assert_eq!(
            (throttled.status, throttled.error()),
            (400, (80000, Some(2_446_079)))
        );
        let usage: Value = serde_json::from_str(
            throttled.headers["x-business-use-case-usage"]
                .to_str()
                .unwrap(),
        )
        .unwrap();
        let entry = &usage[ACCOUNT.to_string()][0];
        assert_eq!(entry["type"], "ads_insights");
        assert_eq!(entry["estimated_time_to_regain_access"], 5);
    }
    assert_eq!(get(&meta, &path, TOKEN).await.status, 200);

    meta.fail_next("2001", 1, Fail::AdAccountThrottled { reset_seconds: 60 });
    let account = get(&meta, "2001", TOKEN).await;
    assert_eq!(account.error(), (17, Some(2_446_079)));
    let usage: Value =
        serde_json::from_str(account.headers["x-ad-account-usage"].to_str().unwrap()).unwrap();
    assert_eq!(usage["reset_time_duration"], 60);

    meta.fail_next("adaccounts", 1, Fail::Transient);
    let transient = get(&meta, "me/adaccounts", TOKEN).await;
    assert_eq!(transient.status, 500);
    assert_eq!(transient.body["error"]["is_transient"], true);
    assert_eq!(
        meta.requests_to("/insights").len(),
        3,
        "throttled requests are recorded too"
    );
}

// ---- Pages and Instagram -------------------------------------------------------------------

async fn with_pages() -> FakeMeta {
    let meta = seeded().await;
    meta.add_page(
        PageSeed::new(5001, "Shop")
            .followers(1200)
            .fans(1100)
            .day(
                "2026-11-20",
                &[("page_media_view", 300), ("page_post_engagements", 12)],
            )
            .day("2026-11-21", &[("page_media_view", 280)])
            .post(PostSeed::new(1, "Older", "2026-11-19T10:00:00+0000"))
            .post(PostSeed::new(2, "Newer", "2026-11-21T10:00:00+0000"))
            .instagram(
                IgAccountSeed::new(6001, "shop.ig")
                    .followers(900)
                    .day(
                        "2026-11-20",
                        &[("reach", 400), ("views", 1000), ("follower_count", 3)],
                    )
                    .day("2026-11-21", &[("reach", 350), ("views", 800)])
                    .media(MediaSeed::new(7001, "Launch", "2026-11-20T09:00:00+0000").likes(40)),
            ),
    );
    meta.add_page(PageSeed::new(5002, "Second"));
    meta.add_page(PageSeed::new(5003, "Third"));
    meta
}

#[tokio::test]
async fn pages_list_with_page_tokens_that_read_their_page() {
    let meta = with_pages().await;
    let (pages, count) = all_pages(
        &meta,
        "me/accounts?fields=id,name,access_token,instagram_business_account{id,username}",
        TOKEN,
    )
    .await;
    assert_eq!(count, 2);
    assert_eq!(pages.len(), 3);
    assert_eq!(
        pages[0]["instagram_business_account"]["username"],
        "shop.ig"
    );
    let page_token = pages[0]["access_token"].as_str().unwrap().to_owned();
    assert_eq!(Some(page_token.clone()), meta.page_token(5001));

    let page = get(
        &meta,
        "5001?fields=followers_count,fan_count,name",
        &page_token,
    )
    .await;
    assert_eq!(page.body["followers_count"], 1200);
    assert_eq!(page.body["fan_count"], 1100);
    let other = get(&meta, "5002", &page_token).await;
    assert_eq!(
        other.error(),
        (100, Some(33)),
        "a Page token reads its own Page only"
    );

    let posts = get(&meta, "5001/posts", &page_token).await;
    assert_eq!(posts.body["data"][0]["message"], "Newer");
    assert_eq!(posts.body["data"][0]["id"], "5001_2");

    meta.add_user_token("EAA-no-pages", &["ads_read"]);
    let none = get(&meta, "me/accounts", "EAA-no-pages").await;
    assert_eq!(none.body, serde_json::json!({"data": []}));
}

#[tokio::test]
async fn page_insights_answer_current_metrics_by_day() {
    let meta = with_pages().await;
    let answer = get(
        &meta,
        "5001/insights?metric=page_media_view,page_post_engagements&period=day&since=2026-11-20&until=2026-11-22",
        TOKEN,
    )
    .await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    let views = &answer.body["data"][0];
    assert_eq!(views["name"], "page_media_view");
    assert_eq!(views["period"], "day");
    assert_eq!(views["values"][0]["value"], 300);
    assert_eq!(views["values"][0]["end_time"], "2026-11-21T08:00:00+0000");
    assert_eq!(views["values"][1]["value"], 280);
    assert_eq!(
        views["values"].as_array().unwrap().len(),
        2,
        "until is exclusive"
    );
    assert_eq!(
        answer.body["data"][1]["values"][1]["value"], 0,
        "unseeded days read 0"
    );
    assert!(answer.body["paging"]["next"].is_string());

    let retired = get(
        &meta,
        "5001/insights?metric=page_impressions&period=day",
        TOKEN,
    )
    .await;
    assert_eq!(retired.error(), (100, None));
    let none = get(&meta, "5001/insights", TOKEN).await;
    assert_eq!(none.error(), (3001, Some(1_504_028)));
    meta.add_user_token("EAA-no-insights", &["pages_read_engagement"]);
    let denied = get(
        &meta,
        "5001/insights?metric=page_media_view",
        "EAA-no-insights",
    )
    .await;
    assert_eq!(denied.error(), (10, None));
}

#[tokio::test]
async fn instagram_accounts_answer_fields_media_and_insights() {
    let meta = with_pages().await;
    let account = get(&meta, "6001?fields=followers_count,username", TOKEN).await;
    assert_eq!(account.body["username"], "shop.ig");
    assert_eq!(account.body["followers_count"], 900);
    let media = get(
        &meta,
        "6001/media?fields=caption,like_count,timestamp",
        TOKEN,
    )
    .await;
    assert_eq!(media.body["data"][0]["caption"], "Launch");
    assert_eq!(media.body["data"][0]["like_count"], 40);

    let reach = get(
        &meta,
        "6001/insights?metric=reach,follower_count&period=day&since=2026-11-20&until=2026-11-22",
        TOKEN,
    )
    .await;
    assert_eq!(
        reach.body["data"][0]["values"][1]["value"], 350,
        "{}",
        reach.body
    );
    assert_eq!(reach.body["data"][1]["values"][0]["value"], 3);

    let views = get(
        &meta,
        "6001/insights?metric=views&period=day&since=2026-11-20&until=2026-11-22",
        TOKEN,
    )
    .await;
    assert_eq!(views.error(), (100, None));
    assert!(
        views.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("metric_type=total_value")
    );
    let total = get(
        &meta,
        "6001/insights?metric=views&metric_type=total_value&period=day&since=2026-11-20&until=2026-11-22",
        TOKEN,
    )
    .await;
    assert_eq!(total.body["data"][0]["total_value"]["value"], 1800);
    let impressions = get(&meta, "6001/insights?metric=impressions&period=day", TOKEN).await;
    assert_eq!(impressions.error(), (100, None), "impressions is retired");

    meta.fail_next("6001", 1, Fail::InstagramThrottled { minutes: 2 });
    let throttled = get(&meta, "6001", TOKEN).await;
    assert_eq!(throttled.error(), (80002, None));
}
