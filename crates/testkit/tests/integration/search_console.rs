//! `search_console` through the search-engine grant, end to end against the loopback Google
//! fake (`payback_testkit::fake_google`, its Search Console part written from Google's
//! documentation apart from the connector): the operator's switch, the scope asked, the sites
//! offered (the consenting user's only), the choice, a sync whose search columns equal the sums
//! of what the fake served (over two pages of 25,000 rows), the live test, and the grant revoked
//! only with its last connection.

use std::collections::BTreeMap;

use payback_domain::connection::ConnectionKind;
use payback_testkit::fake_google::{CustomerSeed, QueryFigures, WEBMASTERS_READONLY_SCOPE};
use payback_testkit::{Backend, FakeGoogle, TestApp, eventually, per_backend};
use serde_json::json;

use crate::google_grant::{
    Consented, GoogleApp, assert_no_token_in, consent, disconnect_revoking_nothing,
    disconnect_revoking_the_grant, select, start, status, sync,
};
use crate::shop::founder;

const FOUNDER: &str = "founder@shop.example";
const RIVAL: &str = "rival@elsewhere.example";
const SITE: &str = "https://shop.example/";
const DOMAIN: &str = "sc-domain:shop.example";
const RIVAL_SITE: &str = "https://rival.example/";
const CUSTOMER: i64 = 1_234_567_890;
const ADS_SCOPE: &str = "https://www.googleapis.com/auth/adwords";
/// Queries a day: three days of them are more rows than one page of 25,000 holds.
const QUERIES_A_DAY: usize = 8_400;
const DAYS: [&str; 3] = ["2026-11-18", "2026-11-19", "2026-11-20"];

/// The service wired to the fake, search console switched on or off.
async fn spawn(backend: Backend, google: &FakeGoogle, switched_on: bool) -> TestApp {
    let origin = google.search_console_base_url();
    GoogleApp::new(google)
        .api(ConnectionKind::SearchConsole, origin.clone())
        .api(ConnectionKind::SearchAds, origin)
        .ads_developer_token()
        .search_console(switched_on)
        .today("2026-11-21")
        .spawn(backend)
        .await
}

/// The founder's sites (one unverified), a rival user's site, and an ads account.
fn seed(google: &FakeGoogle) {
    google.add_search_console_site(FOUNDER, SITE, "siteOwner");
    google.add_search_console_site(FOUNDER, DOMAIN, "siteFullUser");
    google.add_search_console_site(FOUNDER, "https://old.example/", "siteUnverifiedUser");
    google.add_search_console_site(RIVAL, RIVAL_SITE, "siteOwner");
    google.add_customer(CustomerSeed::new(CUSTOMER, "Shop Ads", "USD"));
    google.sign_in_as(FOUNDER);
}

/// Figures of `SITE` on `DAYS`, and some of the rival's site that must never show.
fn seed_searches(google: &FakeGoogle) {
    for (d, day) in DAYS.iter().enumerate() {
        for q in 0..QUERIES_A_DAY {
            let clicks = ((q * 7 + d * 3) % 5) as f64;
            let impressions = clicks * 10.0 + (q % 13) as f64 + 1.0;
            google.add_search_console_row(
                SITE,
                day,
                &format!("query {q}"),
                QueryFigures::new(clicks, impressions, 1.0 + (q % 40) as f64),
            );
        }
    }
    google.add_search_console_row(
        RIVAL_SITE,
        "2026-11-20",
        "rival query",
        QueryFigures::new(999.0, 9_999.0, 1.0),
    );
}

/// What the fake served for `SITE`, summed per day: (clicks, impressions).
fn served_sums() -> BTreeMap<String, (f64, f64)> {
    let mut sums = BTreeMap::new();
    for (d, day) in DAYS.iter().enumerate() {
        let sum: &mut (f64, f64) = sums.entry((*day).to_owned()).or_default();
        for q in 0..QUERIES_A_DAY {
            let clicks = ((q * 7 + d * 3) % 5) as f64;
            sum.0 += clicks;
            sum.1 += clicks * 10.0 + (q % 13) as f64 + 1.0;
        }
    }
    sums
}

/// The search columns of the 7-day timeseries, by day.
async fn search_columns(app: &TestApp, key: &str) -> BTreeMap<String, (f64, f64)> {
    let rows = app
        .get("/products/shop/timeseries?days=7", Some(key))
        .await
        .expect(200)
        .clone();
    rows.as_array()
        .unwrap()
        .iter()
        .map(|row| {
            (
                row["day"].as_str().unwrap().to_owned(),
                (
                    row["search_clicks"].as_f64().unwrap_or(0.0),
                    row["search_impressions"].as_f64().unwrap_or(0.0),
                ),
            )
        })
        .filter(|(_, (clicks, impressions))| *clicks != 0.0 || *impressions != 0.0)
        .collect()
}

async fn off_until_the_operator_switches_it_on(backend: Backend) {
    let google = FakeGoogle::spawn().await;
    seed(&google);
    let app = spawn(backend, &google, false).await;
    let (owner, _) = founder(&app).await;
    start(&app, &owner.token, json!(["search_console"]))
        .await
        .expect_error(
            400,
            "kinds: search_console is not available yet; connect analytics_a or tagmgr or search_ads now and search_console once it arrives",
        );
    start(&app, &owner.token, json!(["search_ads", "search_console"]))
        .await
        .expect_error(400, "search_console is not available");
    // Search ads alone still start, asking Google for the ads scope only.
    let consented = consent(&app, &google, &owner.token, json!(["search_ads"])).await;
    assert_eq!(consented.scopes, [ADS_SCOPE]);
}

per_backend!(off_until_the_operator_switches_it_on);

async fn a_founder_connects_a_site_and_its_searches_land_per_day(backend: Backend) {
    let google = FakeGoogle::spawn().await;
    seed(&google);
    seed_searches(&google);
    let app = spawn(backend, &google, true).await;
    let (owner, key) = founder(&app).await;
    let mut answers: Vec<String> = Vec::new();

    let Consented { state, scopes } =
        consent(&app, &google, &owner.token, json!(["search_console"])).await;
    assert_eq!(scopes, [WEBMASTERS_READONLY_SCOPE]);
    let granted = status(&app, &owner.token, &state).await;
    assert_eq!(granted["status"], "complete", "{granted}");
    // The founder's readable sites, none of the rival's, no unverified one.
    assert_eq!(
        granted["options"],
        json!({ "search_console_sites": [
            { "site_url": SITE, "permission_level": "siteOwner" },
            { "site_url": DOMAIN, "permission_level": "siteFullUser" },
        ] })
    );
    answers.push(granted.to_string());

    for (body, status, words) in [
        (
            json!({ "state": state, "search_console_site_url": RIVAL_SITE }),
            400,
            "search_console_site_url: https://rival.example/ is not a site this grant reaches",
        ),
        (
            json!({ "state": state, "search_console_site_url": "https://old.example/" }),
            400,
            "search_console_site_url: https://old.example/ is not a site this grant reaches",
        ),
        (
            json!({ "state": state }),
            400,
            "search_console_site_url: choose one of https://shop.example/, sc-domain:shop.example",
        ),
        (
            json!({ "state": state, "search_console_site_url": SITE, "ads_customer_id": "1234567890" }),
            400,
            "ads_customer_id: search_ads was not part of this grant",
        ),
    ] {
        let reply = select(&app, &owner.token, body).await;
        reply.expect_error(status, words);
        answers.push(reply.text.clone());
    }
    let selected = select(
        &app,
        &owner.token,
        json!({ "state": state, "search_console_site_url": SITE }),
    )
    .await
    .expect(200)
    .clone();
    assert_eq!(
        selected,
        json!({ "ok": true, "activated": ["search_console"] })
    );
    let listed = app
        .get("/connections", Some(&key))
        .await
        .expect(200)
        .clone();
    answers.push(listed.to_string());
    let connection = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["kind"] == "search_console")
        .cloned()
        .expect("a search_console connection");
    assert_eq!(connection["status"], "active", "{connection}");
    assert_eq!(connection["config"]["site_url"], SITE, "{connection}");

    // The first run reads the backfill's days, two pages of 25,000 rows.
    sync(&app).await;
    let queries = google.requests_to("/searchAnalytics/query");
    assert_eq!(queries.len(), 2, "{queries:?}");
    assert!(
        queries[0]
            .path
            .contains("/webmasters/v3/sites/https%3A%2F%2Fshop.example%2F/searchAnalytics/query"),
        "{}",
        queries[0].path
    );
    for (query, start_row) in queries.iter().zip([0, 25_000]) {
        let body = query.json();
        assert_eq!(body["dimensions"], json!(["date", "query"]));
        assert_eq!(body["rowLimit"], 25_000);
        assert_eq!(body["startRow"], start_row);
        assert_eq!(body["endDate"], "2026-11-21");
        assert!(
            query
                .header("authorization")
                .unwrap()
                .starts_with("Bearer ")
        );
    }
    assert_eq!(search_columns(&app, &key).await, served_sums());

    // A restated day replaces what was read of it.
    google.add_search_console_row(
        SITE,
        "2026-11-20",
        "query 0",
        QueryFigures::new(100.0, 1_000.0, 1.0),
    );
    app.post(
        "/products/shop/connections/search-console/sync",
        Some(&key),
        json!({}),
    )
    .await
    .expect(200);
    let mut expected = served_sums();
    let day = expected.get_mut("2026-11-20").unwrap();
    let was_clicks = ((2 * 3) % 5) as f64;
    day.0 += 100.0 - was_clicks;
    day.1 += 1_000.0 - (was_clicks * 10.0 + 1.0);
    let columns = eventually(
        || search_columns(&app, &key),
        |columns| *columns == expected,
    )
    .await;
    assert_eq!(columns, expected);

    // The test reads the site live; a site the login lost fails with Google's words.
    let tested = app
        .post(
            "/products/shop/connections/search-console/test",
            Some(&key),
            json!({}),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(tested["ok"], true, "{tested}");
    assert!(
        tested["detail"].as_str().unwrap().contains(SITE),
        "{tested}"
    );
    answers.push(tested.to_string());
    google.remove_search_console_site(FOUNDER, SITE);
    let failed = app
        .post(
            "/products/shop/connections/search-console/test",
            Some(&key),
            json!({}),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(failed["ok"], false, "{failed}");
    assert!(
        failed["detail"]
            .as_str()
            .unwrap()
            .contains("User does not have sufficient permission for site 'https://shop.example/'"),
        "{failed}"
    );
    answers.push(failed.to_string());

    // Another account sees none of it.
    let other = app.signup_verified("other@example.com").await;
    app.post(
        "/products/shop/connections/search-console/test",
        Some(&other.token),
        json!({}),
    )
    .await
    .expect(404);
    app.get("/products/shop/timeseries?days=7", Some(&other.token))
        .await
        .expect(404);
    app.get(
        &format!("/connect/searchco/status?state={state}"),
        Some(&other.token),
    )
    .await
    .expect(404);

    // The last connection of the grant: revoked at Google.
    disconnect_revoking_the_grant(&app, &google, &key, "search-console").await;
    assert_no_token_in(&answers, &google);
}

per_backend!(a_founder_connects_a_site_and_its_searches_land_per_day);

async fn one_grant_serves_both_kinds_until_its_last_connection(backend: Backend) {
    let google = FakeGoogle::spawn().await;
    seed(&google);
    let app = spawn(backend, &google, true).await;
    let (owner, key) = founder(&app).await;

    let Consented { state, scopes } = consent(
        &app,
        &google,
        &owner.token,
        json!(["search_console", "search_ads"]),
    )
    .await;
    assert_eq!(scopes, [ADS_SCOPE, WEBMASTERS_READONLY_SCOPE]);
    let granted = status(&app, &owner.token, &state).await;
    assert!(granted["options"]["ads_customers"].is_array(), "{granted}");
    assert_eq!(
        granted["options"]["search_console_sites"]
            .as_array()
            .map(Vec::len),
        Some(2)
    );
    let selected = select(
        &app,
        &owner.token,
        json!({ "state": state, "ads_customer_id": "123-456-7890", "search_console_site_url": DOMAIN }),
    )
    .await
    .expect(200)
    .clone();
    assert_eq!(
        selected,
        json!({ "ok": true, "activated": ["search_ads", "search_console"] })
    );

    disconnect_revoking_nothing(&app, &google, &key, "search-console").await;
    disconnect_revoking_the_grant(&app, &google, &key, "search-ads").await;
}

per_backend!(one_grant_serves_both_kinds_until_its_last_connection);
