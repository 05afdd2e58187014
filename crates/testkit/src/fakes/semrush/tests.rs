//! The fake against its documentation, over HTTP.

use super::*;

async fn get(semrush: &FakeSemrush, query: &str) -> (u16, String) {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let response = reqwest::Client::new()
        .get(format!("{}/?{query}", semrush.base_url()))
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.text().await.unwrap())
}

fn seeded() -> (Overview, [OrganicKeyword; 3]) {
    let keyword = |keyword: &str, position, volume, traffic_percent| OrganicKeyword {
        keyword: keyword.to_owned(),
        position,
        volume,
        url: format!("https://shop.example/{}", keyword.replace(' ', "-")),
        traffic_percent,
    };
    (
        Overview {
            rank: 48_210,
            organic_keywords: 1_530,
            organic_traffic: 9_800,
            organic_cost: 4_100,
        },
        [
            keyword("cac", 9, 880, 1.5),
            keyword("payback", 3, 2_400, 12.5),
            keyword("payback period", 5, 1_300, 4.25),
        ],
    )
}

async fn spawn_seeded() -> FakeSemrush {
    let semrush = FakeSemrush::spawn().await;
    semrush.add_key("K");
    let (overview, keywords) = seeded();
    semrush.set_overview("shop.example", "us", overview);
    semrush.set_overview(
        "shop.example",
        "uk",
        Overview {
            rank: 7,
            ..overview
        },
    );
    for keyword in keywords {
        semrush.add_keyword("shop.example", "us", keyword);
    }
    semrush
}

#[tokio::test]
async fn the_reports_answer_documented_csv() {
    let semrush = spawn_seeded().await;
    let (status, body) = get(
        &semrush,
        "type=domain_rank&key=K&export_columns=Dn,Rk,Or,Ot&domain=shop.example&database=us",
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(
        body,
        "Domain;Rank;Organic Keywords;Organic Traffic\r\nshop.example;48210;1530;9800"
    );
    let (_, body) = get(
        &semrush,
        "type=domain_ranks&key=K&export_columns=Db,Rk&domain=shop.example",
    )
    .await;
    assert_eq!(body, "Database;Rank\r\nuk;7\r\nus;48210");
    // Ordered by traffic, cut by the limit.
    let (_, body) = get(
        &semrush,
        "type=domain_organic&key=K&domain=shop.example&database=us&display_limit=2\
         &export_columns=Ph,Po,Nq,Ur,Tr",
    )
    .await;
    assert_eq!(
        body,
        "Keyword;Position;Search Volume;Url;Traffic (%)\r\n\
         payback;3;2400;https://shop.example/payback;12.50\r\n\
         payback period;5;1300;https://shop.example/payback-period;4.25"
    );
    // No database: `us`; no columns: the defaults.
    let (_, body) = get(&semrush, "type=domain_rank&key=K&domain=shop.example").await;
    assert!(
        body.starts_with("Database;Domain;Rank;Organic Keywords;"),
        "{body}"
    );
    assert_eq!(semrush.requests_of("domain_organic").len(), 1);
}

#[tokio::test]
async fn errors_are_semrush_bodies() {
    let semrush = spawn_seeded().await;
    let cases = [
        (
            "type=domain_rank&domain=shop.example",
            "ERROR 122 :: WRONG FORMAT OR EMPTY KEY",
        ),
        (
            "type=domain_rank&key=nope&domain=shop.example",
            "ERROR 120 :: WRONG KEY - ID PAIR",
        ),
        (
            "type=domain_rank&key=K&domain=elsewhere.example",
            "ERROR 50 :: NOTHING FOUND",
        ),
        (
            "type=domain_organic&key=K&domain=shop.example&database=de",
            "ERROR 50 :: NOTHING FOUND",
        ),
        (
            "type=domain_rank&key=K",
            "ERROR 40 :: MANDATORY PARAMETER DOMAIN NOT SET",
        ),
    ];
    for (query, error) in cases {
        let (status, body) = get(&semrush, query).await;
        assert_eq!((status, body.as_str()), (200, error), "{query}");
    }
    semrush.fail_next(1, Fail::TooManyRequests);
    let (status, _) = get(&semrush, "type=domain_rank&key=K&domain=shop.example").await;
    assert_eq!(status, 429);
}

#[tokio::test]
async fn units_pay_for_lines_until_none_are_left() {
    let semrush = spawn_seeded().await;
    semrush.set_units("K", 25);
    let (_, body) = get(
        &semrush,
        "type=domain_organic&key=K&domain=shop.example&export_columns=Ph",
    )
    .await;
    // 25 units pay for two lines of 10.
    assert_eq!(body, "Keyword\r\npayback\r\npayback period");
    assert_eq!(semrush.units_spent("K"), 20);
    let (_, body) = get(&semrush, "type=domain_rank&key=K&domain=shop.example").await;
    assert_eq!(body, "ERROR 132 :: API UNITS BALANCE IS ZERO");
}
