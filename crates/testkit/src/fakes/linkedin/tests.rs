//! The fake proving itself over HTTP: the gate's headers and LinkedIn's refusal bodies, the
//! account hierarchy's finders paged to the end, Rest.li parsing, the analytics pivots summing
//! as `state.rs` says, the element cap, retention, and scheduled throttling.

use serde_json::{Value, json};

use super::*;

const TOKEN: &str = "li-token";
const VERSION: &str = "202611";
const ACCOUNT: i64 = 507;

fn http() -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::new()
}

/// GET `path` with exactly these headers.
async fn get_with(linkedin: &FakeLinkedIn, path: &str, headers: &[(&str, &str)]) -> (u16, Value) {
    let mut request = http().get(format!("{}{path}", linkedin.base_url()));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.send().await.expect("the fake answers");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// GET `path` as a well-behaved connector does.
async fn get(linkedin: &FakeLinkedIn, path: &str) -> (u16, Value) {
    let bearer = format!("Bearer {TOKEN}");
    get_with(
        linkedin,
        path,
        &[
            ("Authorization", &bearer),
            ("Linkedin-Version", VERSION),
            ("X-Restli-Protocol-Version", "2.0.0"),
        ],
    )
    .await
}

/// An account with two campaigns in group 900 and one in the default group, three creatives
/// (one unnamed, one paused), creative days and a campaign's own day.
async fn seeded() -> FakeLinkedIn {
    let linkedin = FakeLinkedIn::spawn().await;
    linkedin.add_token(TOKEN, &[R_ADS, R_ADS_REPORTING]);
    linkedin.set_today("2026-11-27");
    linkedin.add_ad_account(AccountSeed::new(ACCOUNT, "Shop", "EUR"));
    linkedin.add_campaign(ACCOUNT, CampaignSeed::new(11, "Brand").group(900));
    linkedin.add_campaign(ACCOUNT, CampaignSeed::new(12, "Retargeting").group(900));
    linkedin.add_campaign(
        ACCOUNT,
        CampaignSeed::new(13, "Old launch").status(CampaignStatus::Paused),
    );
    linkedin.add_creative(11, CreativeSeed::new(71, Some("Hero")));
    linkedin.add_creative(11, CreativeSeed::new(72, None));
    linkedin.add_creative(
        12,
        CreativeSeed::new(73, Some("Carousel")).status(CreativeStatus::Paused),
    );
    linkedin.set_day(71, "2026-11-20", Metrics::new("12.34", 1000, 20));
    linkedin.set_day(72, "2026-11-20", Metrics::new("0.66", 100, 1));
    linkedin.set_day(71, "2026-11-21", Metrics::new("5", 500, 5));
    linkedin.set_day(73, "2026-11-21", Metrics::new("1.10", 50, 2).usd("1.20"));
    // Spend of campaign 11 that none of its creatives carries.
    linkedin.set_campaign_day(11, "2026-11-20", Metrics::new("3.00", 30, 0));
    linkedin
}

fn analytics_path(
    pivot: &str,
    granularity: &str,
    from: (i32, u32, u32),
    to: (i32, u32, u32),
    facet: &str,
    fields: &str,
) -> String {
    format!(
        "/rest/adAnalytics?q=analytics&pivot={pivot}&timeGranularity={granularity}\
         &dateRange=(start:(year:{},month:{},day:{}),end:(year:{},month:{},day:{}))\
         &{facet}&fields={fields}",
        from.0, from.1, from.2, to.0, to.1, to.2
    )
}

const ACCOUNT_FACET: &str = "accounts=List(urn%3Ali%3AsponsoredAccount%3A507)";
const ALL_FIELDS: &str = "pivotValues,dateRange,costInLocalCurrency,impressions,clicks";

fn day(year: i32, month: u32, day: u32) -> Value {
    json!({ "year": year, "month": month, "day": day })
}

fn row(urn: &str, from: Value, to: Value, cost: &str, impressions: i64, clicks: i64) -> Value {
    json!({
        "pivotValues": [urn],
        "dateRange": { "start": from, "end": to },
        "costInLocalCurrency": cost,
        "impressions": impressions,
        "clicks": clicks,
    })
}

// ---- the gate ------------------------------------------------------------------------------

#[tokio::test]
async fn every_call_needs_a_live_bearer_token() {
    let linkedin = seeded().await;
    linkedin.add_token("revoked", &[R_ADS]);
    linkedin.revoke("revoked");
    linkedin.add_token("expired", &[R_ADS]);
    linkedin.expire("expired");
    let path = "/rest/adAccounts/507";
    let versioned = [
        ("Linkedin-Version", VERSION),
        ("X-Restli-Protocol-Version", "2.0.0"),
    ];
    let with = |auth: &'static str| {
        let mut headers = vec![("Authorization", auth)];
        headers.extend(versioned);
        headers
    };

    assert_eq!(
        get_with(&linkedin, path, &versioned).await,
        (
            401,
            json!({"status": 401, "serviceErrorCode": 401, "message": "Empty oauth2_access_token"})
        )
    );
    assert_eq!(
        get_with(&linkedin, path, &with("Basic bGk6dG9r")).await.0,
        401
    );
    assert_eq!(
        get_with(&linkedin, path, &with("Bearer nobody-issued-this")).await,
        (
            401,
            json!({"status": 401, "serviceErrorCode": 65600, "code": "INVALID_ACCESS_TOKEN", "message": "Invalid access token"})
        )
    );
    assert_eq!(
        get_with(&linkedin, path, &with("Bearer revoked")).await,
        (
            401,
            json!({"status": 401, "serviceErrorCode": 65601, "code": "REVOKED_ACCESS_TOKEN", "message": "The token used in the request has been revoked by the user"})
        )
    );
    assert_eq!(
        get_with(&linkedin, path, &with("Bearer expired")).await,
        (
            401,
            json!({"status": 401, "serviceErrorCode": 65602, "code": "EXPIRED_ACCESS_TOKEN", "message": "The token used in the request has expired"})
        )
    );
    let (status, body) = get(&linkedin, path).await;
    assert_eq!((status, body["id"].clone()), (200, json!(ACCOUNT)));
}

#[tokio::test]
async fn every_call_names_an_active_version_and_rest_li_2() {
    let linkedin = seeded().await;
    let path = "/rest/adAccounts/507";
    let bearer = format!("Bearer {TOKEN}");
    let auth = ("Authorization", bearer.as_str());
    let protocol = ("X-Restli-Protocol-Version", "2.0.0");

    assert_eq!(
        get_with(&linkedin, path, &[auth, protocol]).await,
        (
            400,
            json!({"status": 400, "code": "VERSION_MISSING", "message": "A version must be present. Please specify a version by adding the LinkedIn-Version header."})
        )
    );
    assert_eq!(
        get_with(
            &linkedin,
            path,
            &[auth, protocol, ("Linkedin-Version", "202411")]
        )
        .await,
        (
            426,
            json!({"status": 426, "code": "NONEXISTENT_VERSION", "message": "Requested version 20241101 is not active"})
        )
    );
    // Not released yet, and not a version at all.
    for version in ["202701", "2026-11"] {
        let (status, body) = get_with(
            &linkedin,
            path,
            &[auth, protocol, ("Linkedin-Version", version)],
        )
        .await;
        assert_eq!(
            (status, body["code"].clone()),
            (426, json!("NONEXISTENT_VERSION"))
        );
    }
    let (status, body) = get_with(&linkedin, path, &[auth, ("Linkedin-Version", VERSION)]).await;
    assert_eq!(
        (status, body["code"].clone()),
        (400, json!("ILLEGAL_ARGUMENT"))
    );
    // The oldest version served, with a revision, passes.
    let (status, _) = get_with(
        &linkedin,
        path,
        &[auth, protocol, ("Linkedin-Version", "202601.01")],
    )
    .await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn a_token_without_the_scope_is_denied() {
    let linkedin = seeded().await;
    linkedin.add_token("ads-only", &[R_ADS]);
    linkedin.add_token("reporting-only", &[R_ADS_REPORTING]);
    let headers = |token: &'static str| {
        [
            ("Authorization", token),
            ("Linkedin-Version", VERSION),
            ("X-Restli-Protocol-Version", "2.0.0"),
        ]
    };
    let analytics = analytics_path(
        "CAMPAIGN",
        "ALL",
        (2026, 11, 1),
        (2026, 11, 27),
        ACCOUNT_FACET,
        ALL_FIELDS,
    );

    assert_eq!(
        get_with(&linkedin, &analytics, &headers("Bearer ads-only")).await,
        (
            403,
            json!({"status": 403, "serviceErrorCode": 100, "code": "ACCESS_DENIED", "message": "Not enough permissions to access: adAnalytics.FINDER-analytics.20261101"})
        )
    );
    let (status, body) = get_with(
        &linkedin,
        "/rest/adAccounts?q=search",
        &headers("Bearer reporting-only"),
    )
    .await;
    assert_eq!(
        (status, body["message"].clone()),
        (
            403,
            json!("Not enough permissions to access: adAccounts.FINDER-search.20261101")
        )
    );
    let (status, _) = get_with(&linkedin, &analytics, &headers("Bearer reporting-only")).await;
    assert_eq!(status, 200);
}

// ---- the account hierarchy ------------------------------------------------------------------------

#[tokio::test]
async fn an_account_reads_by_id_or_encoded_urn() {
    let linkedin = seeded().await;
    let expected = json!({
        "id": ACCOUNT, "name": "Shop", "currency": "EUR", "status": "ACTIVE", "type": "BUSINESS",
        "reference": "urn:li:organization:507", "test": false,
    });
    assert_eq!(
        get(&linkedin, "/rest/adAccounts/507").await,
        (200, expected.clone())
    );
    assert_eq!(
        get(
            &linkedin,
            "/rest/adAccounts/urn%3Ali%3AsponsoredAccount%3A507"
        )
        .await,
        (200, expected)
    );
    assert_eq!(
        get(&linkedin, "/rest/adAccounts/507?fields=id,currency").await,
        (200, json!({"id": ACCOUNT, "currency": "EUR"}))
    );
    assert_eq!(
        get(&linkedin, "/rest/adAccounts/508").await,
        (
            404,
            json!({"status": 404, "code": "NOT_FOUND", "message": "Not Found"})
        )
    );
    assert_eq!(
        get(&linkedin, "/rest/adAccounts/urn:li:sponsoredAccount:507").await,
        (
            400,
            json!({"status": 400, "code": "ILLEGAL_ARGUMENT", "message": "Syntax exception in path variables"})
        )
    );
}

/// Follows `metadata.nextPageToken` from `first` to the end; the ids of every page.
async fn page_through(linkedin: &FakeLinkedIn, first: &str) -> Vec<Vec<Value>> {
    let mut pages = Vec::new();
    let mut path = first.to_owned();
    loop {
        let (status, body) = get(linkedin, &path).await;
        assert_eq!(status, 200, "{path}: {body}");
        let ids = body["elements"]
            .as_array()
            .expect("elements")
            .iter()
            .map(|element| element["id"].clone())
            .collect();
        pages.push(ids);
        match body["metadata"]["nextPageToken"].as_str() {
            Some(token) => path = format!("{first}&pageToken={token}"),
            None => return pages,
        }
        assert!(pages.len() < 20, "paging never ends");
    }
}

#[tokio::test]
async fn account_search_pages_with_cursor_tokens_to_the_end() {
    let linkedin = seeded().await;
    for id in 501..=506 {
        let seed = AccountSeed::new(id, &format!("Client {id}"), "USD");
        linkedin.add_ad_account(if id % 2 == 0 {
            seed.status(AccountStatus::Canceled)
        } else {
            seed
        });
    }

    // The fake pages by 3 whatever pageSize asks; the last page has no token.
    assert_eq!(
        page_through(&linkedin, "/rest/adAccounts?q=search&pageSize=100").await,
        vec![
            vec![json!(501), json!(502), json!(503)],
            vec![json!(504), json!(505), json!(506)],
            vec![json!(507)],
        ]
    );
    assert_eq!(
        page_through(
            &linkedin,
            "/rest/adAccounts?q=search&search=(status:(values:List(CANCELED)),name:(values:List(client)))&sort=(field:ID,order:DESCENDING)&pageSize=2"
        )
        .await,
        vec![vec![json!(506), json!(504)], vec![json!(502)]]
    );
    let (status, body) = get(&linkedin, "/rest/adAccounts?q=search&search=(status:(values:List(ACTIVE)),type:(values:List(BUSINESS)),test:false,id:(values:List(urn%3Ali%3AsponsoredAccount%3A507)))").await;
    assert_eq!(status, 200);
    assert_eq!(body["elements"][0]["name"], json!("Shop"));
    assert_eq!(body["elements"].as_array().map(Vec::len), Some(1));

    for bad in [
        "/rest/adAccounts?q=search&start=0&count=10",
        "/rest/adAccounts?q=search&search=(status:(values:List(OPEN)))",
        "/rest/adAccounts?q=search&search=(status:List(ACTIVE))",
        "/rest/adAccounts?q=search&search=(colour:(values:List(RED)))",
        "/rest/adAccounts?q=search&pageToken=not-a-token",
        "/rest/adAccounts?q=finder",
        "/rest/adAccounts?q=search&search.status.values[0]=ACTIVE",
    ] {
        let (status, body) = get(&linkedin, bad).await;
        assert_eq!(
            (status, body["code"].clone()),
            (400, json!("ILLEGAL_ARGUMENT")),
            "{bad}: {body}"
        );
    }
}

#[tokio::test]
async fn campaigns_search_by_group_and_status_and_read_by_id() {
    let linkedin = seeded().await;
    let (status, body) = get(
        &linkedin,
        "/rest/adAccounts/507/adCampaigns?q=search&search=(campaignGroup:(values:List(urn%3Ali%3AsponsoredCampaignGroup%3A900)),status:(values:List(ACTIVE)))",
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(
        body,
        json!({
            "elements": [
                {"id": 11, "name": "Brand", "status": "ACTIVE", "account": "urn:li:sponsoredAccount:507",
                 "campaignGroup": "urn:li:sponsoredCampaignGroup:900", "type": "SPONSORED_UPDATES", "test": false},
                {"id": 12, "name": "Retargeting", "status": "ACTIVE", "account": "urn:li:sponsoredAccount:507",
                 "campaignGroup": "urn:li:sponsoredCampaignGroup:900", "type": "SPONSORED_UPDATES", "test": false},
            ],
            "metadata": {},
        })
    );
    linkedin.set_page_size(2);
    assert_eq!(
        page_through(
            &linkedin,
            "/rest/adAccounts/507/adCampaigns?q=search&sortOrder=DESCENDING"
        )
        .await,
        vec![vec![json!(13), json!(12)], vec![json!(11)]]
    );
    let (status, body) = get(&linkedin, "/rest/adAccounts/507/adCampaigns/13").await;
    assert_eq!(status, 200);
    // A campaign without a group sits in its account's default group.
    assert_eq!(
        body["campaignGroup"],
        json!("urn:li:sponsoredCampaignGroup:507")
    );
    assert_eq!(body["status"], json!("PAUSED"));
    assert_eq!(
        get(&linkedin, "/rest/adAccounts/508/adCampaigns?q=search")
            .await
            .0,
        404
    );
    assert_eq!(
        get(&linkedin, "/rest/adAccounts/507/adCampaigns/71")
            .await
            .0,
        404
    );
}

#[tokio::test]
async fn creatives_answer_the_criteria_finder() {
    let linkedin = seeded().await;
    linkedin.set_page_size(1);
    let first = "/rest/adAccounts/507/creatives?q=criteria&campaigns=List(urn%3Ali%3AsponsoredCampaign%3A11,urn%3Ali%3AsponsoredCampaign%3A12)";
    assert_eq!(
        page_through(&linkedin, first).await,
        vec![
            vec![json!("urn:li:sponsoredCreative:71")],
            vec![json!("urn:li:sponsoredCreative:72")],
            vec![json!("urn:li:sponsoredCreative:73")],
        ]
    );
    linkedin.set_page_size(10);
    let (status, body) = get(
        &linkedin,
        "/rest/adAccounts/507/creatives?q=criteria&intendedStatuses=List(PAUSED)",
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(
        body["elements"],
        json!([{
            "id": "urn:li:sponsoredCreative:73", "name": "Carousel",
            "account": "urn:li:sponsoredAccount:507", "campaign": "urn:li:sponsoredCampaign:12",
            "intendedStatus": "PAUSED", "isServing": false, "isTest": false,
        }])
    );
    // An unnamed creative has no name field.
    let (_, body) = get(
        &linkedin,
        "/rest/adAccounts/507/creatives?q=criteria&creatives=List(urn%3Ali%3AsponsoredCreative%3A72)",
    )
    .await;
    assert_eq!(body["elements"][0].get("name"), None);
    assert_eq!(body["elements"][0]["isServing"], json!(true));
    for bad in [
        "/rest/adAccounts/507/creatives?q=search",
        "/rest/adAccounts/507/creatives?q=criteria&campaigns=List(urn:li:sponsoredCampaign:11)",
        "/rest/adAccounts/507/creatives?q=criteria&campaigns=List(urn%3Ali%3AsponsoredCreative%3A71)",
        "/rest/adAccounts/507/creatives?q=criteria&intendedStatuses=List(LIVE)",
    ] {
        let (status, body) = get(&linkedin, bad).await;
        assert_eq!(
            (status, body["code"].clone()),
            (400, json!("ILLEGAL_ARGUMENT")),
            "{bad}: {body}"
        );
    }
}

// ---- analytics ----------------------------------------------------------------------------------

#[tokio::test]
async fn the_creative_pivot_answers_each_creative_day() {
    let linkedin = seeded().await;
    let path = analytics_path(
        "CREATIVE",
        "DAILY",
        (2026, 11, 20),
        (2026, 11, 21),
        ACCOUNT_FACET,
        ALL_FIELDS,
    );
    let (status, body) = get(&linkedin, &path).await;
    assert_eq!(status, 200, "{body}");
    let (d20, d21) = (day(2026, 11, 20), day(2026, 11, 21));
    assert_eq!(
        body,
        json!({
            "paging": {"start": 0, "count": 10, "links": []},
            "elements": [
                row("urn:li:sponsoredCreative:71", d20.clone(), d20.clone(), "12.34", 1000, 20),
                row("urn:li:sponsoredCreative:72", d20.clone(), d20, "0.66", 100, 1),
                row("urn:li:sponsoredCreative:71", d21.clone(), d21.clone(), "5.0", 500, 5),
                row("urn:li:sponsoredCreative:73", d21.clone(), d21, "1.1", 50, 2),
            ],
        })
    );
}

#[tokio::test]
async fn campaign_totals_hold_their_creatives_and_their_own_spend() {
    let linkedin = seeded().await;
    let (d20, d21) = (day(2026, 11, 20), day(2026, 11, 21));
    let path = analytics_path(
        "CAMPAIGN",
        "DAILY",
        (2026, 11, 20),
        (2026, 11, 21),
        ACCOUNT_FACET,
        ALL_FIELDS,
    );
    let (_, body) = get(&linkedin, &path).await;
    // 12.34 + 0.66 from creatives 71 and 72, 3.00 the campaign carries alone.
    assert_eq!(
        body["elements"],
        json!([
            row(
                "urn:li:sponsoredCampaign:11",
                d20.clone(),
                d20.clone(),
                "16.0",
                1130,
                21
            ),
            row(
                "urn:li:sponsoredCampaign:11",
                d21.clone(),
                d21.clone(),
                "5.0",
                500,
                5
            ),
            row(
                "urn:li:sponsoredCampaign:12",
                d21.clone(),
                d21.clone(),
                "1.1",
                50,
                2
            ),
        ])
    );

    // Restricted to creatives, the campaign's own spend is left out.
    let by_creatives = analytics_path(
        "CAMPAIGN",
        "DAILY",
        (2026, 11, 20),
        (2026, 11, 20),
        "creatives=List(urn%3Ali%3AsponsoredCreative%3A71,urn%3Ali%3AsponsoredCreative%3A72)",
        ALL_FIELDS,
    );
    let (_, body) = get(&linkedin, &by_creatives).await;
    assert_eq!(
        body["elements"],
        json!([row(
            "urn:li:sponsoredCampaign:11",
            d20.clone(),
            d20,
            "13.0",
            1100,
            21
        )])
    );

    // Groups and accounts sum their campaigns over the whole range.
    let (from, to) = (day(2026, 11, 1), day(2026, 11, 27));
    for (pivot, urn) in [
        ("CAMPAIGN_GROUP", "urn:li:sponsoredCampaignGroup:900"),
        ("ACCOUNT", "urn:li:sponsoredAccount:507"),
    ] {
        let path = analytics_path(
            pivot,
            "ALL",
            (2026, 11, 1),
            (2026, 11, 27),
            ACCOUNT_FACET,
            ALL_FIELDS,
        );
        let (_, body) = get(&linkedin, &path).await;
        assert_eq!(
            body["elements"],
            json!([row(urn, from.clone(), to.clone(), "22.1", 1680, 28)]),
            "{pivot}"
        );
    }
}

#[tokio::test]
async fn months_clip_to_the_range_and_fields_pick_the_metrics() {
    let linkedin = seeded().await;
    linkedin.set_day(71, "2026-10-31", Metrics::new("1", 10, 1));
    let path = analytics_path(
        "CREATIVE",
        "MONTHLY",
        (2026, 10, 15),
        (2026, 11, 25),
        "campaigns=List(urn%3Ali%3AsponsoredCampaign%3A11)",
        "pivotValues,dateRange,costInLocalCurrency,costInUsd",
    );
    let (_, body) = get(&linkedin, &path).await;
    assert_eq!(
        body["elements"],
        json!([
            {"pivotValues": ["urn:li:sponsoredCreative:71"],
             "dateRange": {"start": day(2026, 10, 15), "end": day(2026, 10, 31)},
             "costInLocalCurrency": "1.0", "costInUsd": "1.0"},
            {"pivotValues": ["urn:li:sponsoredCreative:71"],
             "dateRange": {"start": day(2026, 11, 1), "end": day(2026, 11, 25)},
             "costInLocalCurrency": "17.34", "costInUsd": "17.34"},
            {"pivotValues": ["urn:li:sponsoredCreative:72"],
             "dateRange": {"start": day(2026, 11, 1), "end": day(2026, 11, 25)},
             "costInLocalCurrency": "0.66", "costInUsd": "0.66"},
        ])
    );

    // A seeded USD cost is answered as such.
    let path = analytics_path(
        "CREATIVE",
        "ALL",
        (2026, 11, 21),
        (2026, 11, 21),
        "creatives=List(urn%3Ali%3AsponsoredCreative%3A73)",
        "costInLocalCurrency,costInUsd",
    );
    let (_, body) = get(&linkedin, &path).await;
    assert_eq!(
        body["elements"],
        json!([{"costInLocalCurrency": "1.1", "costInUsd": "1.2"}])
    );

    // Without fields, LinkedIn answers impressions and clicks only.
    let (_, body) = get(
        &linkedin,
        &format!(
            "/rest/adAnalytics?q=analytics&pivot=ACCOUNT&timeGranularity=ALL&dateRange=(start:(year:2026,month:11,day:20))&{ACCOUNT_FACET}"
        ),
    )
    .await;
    assert_eq!(
        body["elements"],
        json!([{"impressions": 1680, "clicks": 28}])
    );
}

#[tokio::test]
async fn rest_li_expressions_are_read_strictly() {
    let linkedin = seeded().await;
    let good = "/rest/adAnalytics?q=analytics&pivot=CAMPAIGN&timeGranularity=DAILY&dateRange=(start:(year:2026,month:11,day:20),end:(year:2026,month:11,day:21))";
    let (status, _) = get(&linkedin, &format!("{good}&{ACCOUNT_FACET}")).await;
    assert_eq!(status, 200);

    let too_many_fields = vec!["impressions"; 21].join(",");
    let malformed = [
        format!("{good}&accounts=List(urn:li:sponsoredAccount:507)"),
        format!("{good}&accounts=List%28urn%3Ali%3AsponsoredAccount%3A507%29"),
        format!("{good}&accounts=List(urn%3Ali%3AsponsoredAccount%3A507"),
        format!("{good}&accounts=List(urn%3Ali%3AsponsoredCampaign%3A11)"),
        format!("{good}&accounts=List()"),
        good.to_owned(),
        format!("{good}&{ACCOUNT_FACET}&fields=impressions,conversions"),
        format!("{good}&{ACCOUNT_FACET}&fields={too_many_fields}"),
        format!("{good}&{ACCOUNT_FACET}&accounts=List(urn%3Ali%3AsponsoredAccount%3A1)"),
        format!(
            "/rest/adAnalytics?q=analytics&pivot=CAMPAIGN&timeGranularity=DAILY&dateRange=(start:(year:2026,month:2,day:30))&{ACCOUNT_FACET}"
        ),
        format!(
            "/rest/adAnalytics?q=analytics&pivot=CAMPAIGN&timeGranularity=DAILY&dateRange=(start:(year:2026,month:11))&{ACCOUNT_FACET}"
        ),
        format!(
            "/rest/adAnalytics?q=analytics&pivot=CAMPAIGN&timeGranularity=DAILY&dateRange=(start:(year:2026,month:11,day:21),end:(year:2026,month:11,day:20))&{ACCOUNT_FACET}"
        ),
        format!(
            "/rest/adAnalytics?q=analytics&pivot=CAMPAIGN&timeGranularity=WEEKLY&dateRange=(start:(year:2026,month:11,day:20))&{ACCOUNT_FACET}"
        ),
        format!(
            "/rest/adAnalytics?q=analytics&pivot=MEMBER_COMPANY&timeGranularity=ALL&dateRange=(start:(year:2026,month:11,day:20))&{ACCOUNT_FACET}"
        ),
        format!(
            "/rest/adAnalytics?q=analytics&timeGranularity=ALL&dateRange=(start:(year:2026,month:11,day:20))&{ACCOUNT_FACET}"
        ),
        format!(
            "/rest/adAnalytics?q=analytics&pivot=CAMPAIGN&timeGranularity=ALL&dateRange.start.year=2026&{ACCOUNT_FACET}"
        ),
    ];
    for path in malformed {
        let (status, body) = get(&linkedin, &path).await;
        assert_eq!(
            (status, body["status"].clone(), body["code"].clone()),
            (400, json!(400), json!("ILLEGAL_ARGUMENT")),
            "{path}: {body}"
        );
        assert!(body["message"].is_string(), "{body}");
    }
}

#[tokio::test]
async fn the_element_cap_leaves_the_rest_off_so_ranges_are_split() {
    let linkedin = seeded().await;
    for day in 1..=5 {
        linkedin.set_day(71, &format!("2026-11-0{day}"), Metrics::new("1.5", 10, 1));
    }
    linkedin.set_analytics_cap(3);
    let facet = "creatives=List(urn%3Ali%3AsponsoredCreative%3A71)";
    let days_in = |body: &Value| -> Vec<i64> {
        body["elements"]
            .as_array()
            .expect("elements")
            .iter()
            .filter_map(|e| e["dateRange"]["start"]["day"].as_i64())
            .collect()
    };

    let whole = analytics_path(
        "CREATIVE",
        "DAILY",
        (2026, 11, 1),
        (2026, 11, 5),
        facet,
        ALL_FIELDS,
    );
    let (status, body) = get(&linkedin, &whole).await;
    assert_eq!(status, 200);
    assert_eq!(days_in(&body), vec![1, 2, 3], "capped, silently");

    let mut split = Vec::new();
    for (from, to) in [(1, 3), (4, 5)] {
        let path = analytics_path(
            "CREATIVE",
            "DAILY",
            (2026, 11, from),
            (2026, 11, to),
            facet,
            ALL_FIELDS,
        );
        split.extend(days_in(&get(&linkedin, &path).await.1));
    }
    assert_eq!(split, vec![1, 2, 3, 4, 5]);
}

#[tokio::test]
async fn days_past_retention_are_not_served() {
    let linkedin = seeded().await;
    // Today is 2026-11-27: ten years back reaches 2016-11-27.
    linkedin.set_day(71, "2016-11-26", Metrics::new("9", 90, 9));
    linkedin.set_day(71, "2016-11-27", Metrics::new("4", 40, 4));
    let path = analytics_path(
        "CREATIVE",
        "DAILY",
        (2016, 11, 1),
        (2016, 11, 30),
        ACCOUNT_FACET,
        ALL_FIELDS,
    );
    let (status, body) = get(&linkedin, &path).await;
    assert_eq!(status, 200);
    let d27 = day(2016, 11, 27);
    assert_eq!(
        body["elements"],
        json!([row(
            "urn:li:sponsoredCreative:71",
            d27.clone(),
            d27,
            "4.0",
            40,
            4
        )])
    );
}

// ---- throttling and outages ---------------------------------------------------------------------

#[tokio::test]
async fn scheduled_failures_answer_linkedin_bodies_then_pass() {
    let linkedin = seeded().await;
    linkedin.fail_next("/rest/adAnalytics", 1, Fail::Throttled);
    linkedin.fail_next("/rest/adAccounts", 1, Fail::Internal);
    linkedin.fail_next("/rest/adAccounts", 1, Fail::Maintenance);
    let analytics = analytics_path(
        "ACCOUNT",
        "ALL",
        (2026, 11, 1),
        (2026, 11, 27),
        ACCOUNT_FACET,
        ALL_FIELDS,
    );

    assert_eq!(
        get(&linkedin, &analytics).await,
        (
            429,
            json!({"status": 429, "message": "Resource level throttle limit for calls to this resource is reached."})
        )
    );
    assert_eq!(get(&linkedin, &analytics).await.0, 200);
    assert_eq!(
        get(&linkedin, "/rest/adAccounts/507").await,
        (
            500,
            json!({"status": 500, "code": "INTERNAL_ERROR", "message": "Internal Error"})
        )
    );
    assert_eq!(
        get(&linkedin, "/rest/adAccounts/507").await,
        (
            503,
            json!({"status": 503, "code": "UNDER_MAINTENANCE", "message": "Under Maintenance"})
        )
    );
    assert_eq!(get(&linkedin, "/rest/adAccounts/507").await.0, 200);

    // Refused requests are recorded too, with what the connector sent.
    let sent = linkedin.requests_to("/rest/adAnalytics");
    assert_eq!(sent.len(), 2);
    assert_eq!(sent[0].header("linkedin-version"), Some(VERSION));
    assert_eq!(sent[0].header("authorization"), Some("Bearer li-token"));
    assert!(
        sent[0]
            .query
            .as_deref()
            .is_some_and(|q| q.contains("pivot=ACCOUNT"))
    );
    assert_eq!(linkedin.requests().len(), 5);
}
