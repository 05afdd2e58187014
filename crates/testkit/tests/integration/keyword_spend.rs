//! Keyword spend as a breakdown, never double counted. A fake `search_ads` source (Google Ads
//! reports spend per ad and, apart, per keyword: two breakdowns of the same ad groups' spend)
//! writes both through the real sync pipeline, beside meta rows at a true keyword-by-ad grain
//! written by hand. The ads report at every level sums (rows + `no_dimension`) to the same
//! total, computed here from the network's numbers; at `keyword` the keyword rows are the
//! keywords' spend and `no_dimension` the rest. Every other reader of spend (attribution's CAC
//! and ROAS, the series, payback, product rows, the spend report) answers exactly what it did
//! before keyword rows existed; a re-read without one keyword drops it. A store test proves the
//! same of each store reader of spend directly.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use payback_connectors::{DayRange, SpendRead, SpendRow, SyncOutput};
use payback_domain::connection::ConnectionKind;
use payback_domain::metrics::div_round;
use payback_domain::span::Span;
use payback_domain::{Clock, HOUR_MS, MINUTE_MS};
use payback_server::services::sync;
use payback_store::reports::attribution::AdLevel;
use payback_store::reports::{activity, attribution, payback, product_metrics, series};
use payback_store::spend::{self as store_spend, AccountDays, KeywordRow};
use payback_testkit::{Backend, FakeSource, TestApp, backend_tests, per_backend};
use serde_json::{Value, json};

const ACCOUNT: &str = "123-456-7890";

/// One ad's day of spend, as ad_group_ad reports it.
#[derive(Clone)]
struct AdDay {
    day: &'static str,
    campaign: &'static str,
    group: &'static str,
    ad: &'static str,
    cents: i64,
}

/// One keyword's day of spend in its ad group, as keyword_view reports it.
#[derive(Clone)]
struct KeywordDay {
    day: &'static str,
    campaign: &'static str,
    group: &'static str,
    keyword: &'static str,
    cents: i64,
}

fn ad(
    day: &'static str,
    campaign: &'static str,
    group: &'static str,
    ad: &'static str,
    cents: i64,
) -> AdDay {
    AdDay {
        day,
        campaign,
        group,
        ad,
        cents,
    }
}

fn kw(
    day: &'static str,
    campaign: &'static str,
    group: &'static str,
    keyword: &'static str,
    cents: i64,
) -> KeywordDay {
    KeywordDay {
        day,
        campaign,
        group,
        keyword,
        cents,
    }
}

/// What the network reports now.
#[derive(Clone, Default)]
struct Network {
    ads: Vec<AdDay>,
    keywords: Vec<KeywordDay>,
}

fn network() -> Network {
    Network {
        ads: vec![
            ad("2026-11-19", "c1", "g1", "a1", 1_000),
            ad("2026-11-19", "c1", "g1", "a2", 500),
            ad("2026-11-19", "c1", "g2", "a3", 700),
            ad("2026-11-19", "c2", "g3", "a4", 400),
            ad("2026-11-20", "c1", "g1", "a1", 800),
            ad("2026-11-20", "c1", "g2", "a3", 600),
            ad("2026-11-20", "c2", "g3", "a4", 300),
        ],
        // Ad group g3 (a display group) has no keywords; g1's and g2's keywords cover most,
        // not all, of their spend.
        keywords: vec![
            kw("2026-11-19", "c1", "g1", "k1", 900),
            kw("2026-11-19", "c1", "g1", "k2", 400),
            kw("2026-11-19", "c1", "g2", "k3", 650),
            kw("2026-11-20", "c1", "g1", "k1", 700),
            kw("2026-11-20", "c1", "g2", "k3", 500),
            kw("2026-11-20", "c1", "g2", "k4", 50),
        ],
    }
}

fn keyword_name(id: &str) -> String {
    match id {
        "k1" => "running shoes".to_owned(),
        other => format!("keyword {other}"),
    }
}

fn spend_row(day: &str, campaign: &str, group: &str, cents: i64) -> SpendRow {
    SpendRow {
        day: day.to_owned(),
        network: "google".to_owned(),
        channel: "paid_google".to_owned(),
        campaign_id: campaign.to_owned(),
        campaign_name: Some(format!("Campaign {campaign}")),
        ad_group_id: group.to_owned(),
        ad_group_name: Some(format!("Group {group}")),
        spend_cents: cents,
        impressions: cents * 3,
        clicks: cents / 100,
        currency: "USD".to_owned(),
        ..SpendRow::default()
    }
}

/// The read of `window`: ad rows with no keyword id, and (when `with_keywords`) the keyword
/// breakdown beside them.
fn read(network: &Network, days: DayRange, with_keywords: bool) -> SyncOutput {
    let rows = network
        .ads
        .iter()
        .filter(|a| days.contains(a.day))
        .map(|a| SpendRow {
            ad_id: a.ad.to_owned(),
            ad_name: Some(format!("Ad {}", a.ad)),
            ..spend_row(a.day, a.campaign, a.group, a.cents)
        })
        .collect();
    let keywords = network
        .keywords
        .iter()
        .filter(|k| with_keywords && days.contains(k.day))
        .map(|k| SpendRow {
            keyword_id: k.keyword.to_owned(),
            keyword: Some(keyword_name(k.keyword)),
            impressions: k.cents * 2,
            ..spend_row(k.day, k.campaign, k.group, k.cents)
        })
        .collect();
    SyncOutput {
        spend: vec![SpendRead {
            ad_account: ACCOUNT.to_owned(),
            days,
            rows,
            keywords,
        }],
        ..SyncOutput::default()
    }
}

/// Meta rows written by hand at a true keyword-by-ad grain: one ad under a keyword, one not.
fn meta_rows() -> Vec<store_spend::SpendRow> {
    let row = |keyword: &str, ad: &str, cents: i64| store_spend::SpendRow {
        day: "2026-11-20".to_owned(),
        network: "meta".to_owned(),
        channel: "paid_meta".to_owned(),
        campaign_id: "m1".to_owned(),
        ad_group_id: "s1".to_owned(),
        keyword_id: keyword.to_owned(),
        keyword: (!keyword.is_empty()).then(|| format!("meta {keyword}")),
        ad_id: ad.to_owned(),
        spend_cents: cents,
        impressions: cents * 5,
        clicks: cents / 50,
        ..store_spend::SpendRow::default()
    };
    vec![row("mk1", "x1", 250), row("", "x2", 150)]
}

/// Paid-google customers (one whose click named keyword k1 by its text) and an organic one.
fn events() -> Value {
    json!([
        {"dedupe_id": "v1", "stage": "visit", "user_id": "g1", "occurred_at": "2026-11-19T08:00:00Z",
         "attribution": {"channel": "paid_google", "utm_campaign": "c1", "utm_term": "running shoes"}},
        {"dedupe_id": "p1", "stage": "payment", "user_id": "g1", "value": 5_000, "occurred_at": "2026-11-19T09:00:00Z"},
        {"dedupe_id": "v2", "stage": "visit", "user_id": "g2", "occurred_at": "2026-11-20T08:00:00Z",
         "attribution": {"channel": "paid_google", "utm_campaign": "c2"}},
        {"dedupe_id": "p2", "stage": "payment", "user_id": "g2", "value": 2_000, "occurred_at": "2026-11-20T09:00:00Z"},
        {"dedupe_id": "v3", "stage": "visit", "user_id": "o1", "occurred_at": "2026-11-20T10:00:00Z",
         "attribution": {"channel": "organic_search"}},
        {"dedupe_id": "p3", "stage": "payment", "user_id": "o1", "value": 900, "occurred_at": "2026-11-20T11:00:00Z"},
    ])
}

/// Spend, impressions and clicks summed independently.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Sums {
    spend: i64,
    impressions: i64,
    clicks: i64,
}

impl Sums {
    fn add(&mut self, spend: i64, impressions: i64, clicks: i64) {
        self.spend += spend;
        self.impressions += impressions;
        self.clicks += clicks;
    }
}

/// The whole account's spend (every channel), from the network's ad rows and the meta rows.
fn total(network: &Network) -> Sums {
    let mut sums = Sums::default();
    for a in &network.ads {
        sums.add(a.cents, a.cents * 3, a.cents / 100);
    }
    for m in meta_rows() {
        sums.add(m.spend_cents, m.impressions, m.clicks);
    }
    sums
}

/// Keyword id -> its spend: the network's keyword rows and the meta rows with a keyword.
fn keyword_sums(network: &Network) -> BTreeMap<String, Sums> {
    let mut sums: BTreeMap<String, Sums> = BTreeMap::new();
    for k in &network.keywords {
        sums.entry(k.keyword.to_owned())
            .or_default()
            .add(k.cents, k.cents * 2, k.cents / 100);
    }
    for m in meta_rows().into_iter().filter(|m| !m.keyword_id.is_empty()) {
        sums.entry(m.keyword_id.clone())
            .or_default()
            .add(m.spend_cents, m.impressions, m.clicks);
    }
    sums
}

async fn ads_report(app: &TestApp, key: &str, level: &str) -> Value {
    app.get(
        &format!("/products/shop/attribution/ads?days=30&limit=100&level={level}"),
        Some(key),
    )
    .await
    .expect(200)
    .clone()
}

fn row<'a>(report: &'a Value, id: &str) -> Option<&'a Value> {
    report["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == id)
}

fn sums_of(rows: &[&Value]) -> Sums {
    let mut sums = Sums::default();
    for r in rows {
        sums.add(
            r["spend_cents"].as_i64().unwrap(),
            r["impressions"].as_i64().unwrap(),
            r["clicks"].as_i64().unwrap(),
        );
    }
    sums
}

/// Every level's rows (with `no_dimension`; `unattributed` has no spend) sum to the total;
/// at `keyword`, each keyword's row is its spend and `no_dimension` the rest.
async fn assert_levels(app: &TestApp, key: &str, network: &Network) {
    let total = total(network);
    for level in ["campaign", "ad_group", "keyword", "ad"] {
        let report = ads_report(app, key, level).await;
        let rows: Vec<&Value> = report["rows"].as_array().unwrap().iter().collect();
        assert_eq!(sums_of(&rows), total, "{level}: {report}");
        assert_eq!(report["totals"]["spend_cents"], total.spend, "{level}");
        assert_eq!(row(&report, "unattributed").unwrap()["spend_cents"], 0);
    }
    let report = ads_report(app, key, "keyword").await;
    let keywords = keyword_sums(network);
    let mut covered = Sums::default();
    for (id, sums) in &keywords {
        let shown = row(&report, id).unwrap_or_else(|| panic!("{id}: {report}"));
        assert_eq!(sums_of(&[shown]), *sums, "{id}");
        covered.add(sums.spend, sums.impressions, sums.clicks);
    }
    let dimension_rows = report["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| !r["channel"].is_null() && r["spend_cents"] != 0)
        .count();
    // Rows without spend are tags of paid clicks no spend row knows (yet).
    assert_eq!(dimension_rows, keywords.len(), "{report}");
    let rest = row(&report, "no_dimension").unwrap();
    assert_eq!(
        sums_of(&[rest]),
        Sums {
            spend: total.spend - covered.spend,
            impressions: total.impressions - covered.impressions,
            clicks: total.clicks - covered.clicks,
        }
    );
}

/// What every reader of spend other than the ads report's keyword level answers.
async fn spend_readers(app: &TestApp, key: &str) -> Vec<Value> {
    let mut seen = Vec::new();
    for path in [
        "/products/shop/attribution?days=30",
        "/products/shop/timeseries?days=30",
        "/products/shop/payback",
        "/products/shop/spend?days=30",
        "/products/shop",
        "/products/shop/attribution/ads?days=30&level=campaign",
        "/products/shop/attribution/ads?days=30&level=ad_group",
        "/products/shop/attribution/ads?days=30&level=ad",
    ] {
        seen.push(app.get(path, Some(key)).await.expect(200).clone());
    }
    seen
}

/// Attribution's paid-google row: the ads' spend, CAC over its two customers, ROAS of their
/// 7,000 of first-touch revenue.
async fn assert_google_row(app: &TestApp, key: &str, network: &Network) {
    let report = app
        .get("/products/shop/attribution?days=30", Some(key))
        .await
        .expect(200)
        .clone();
    let google = report["channels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["channel"] == "paid_google")
        .unwrap()
        .clone();
    let spend: i64 = network.ads.iter().map(|a| a.cents).sum();
    assert_eq!(google["spend_cents"], spend);
    assert_eq!(google["customers_first"], 2);
    assert_eq!(google["cac_cents"], div_round(spend, 2));
    let roas = google["roas"].as_f64().unwrap();
    assert!((roas - 7_000.0 / spend as f64).abs() < 1e-12, "{roas}");
}

async fn keyword_spend_breaks_down_the_ads_spend_and_never_adds_to_it(backend: Backend) {
    let fake = FakeSource::new(ConnectionKind::SearchAds);
    // (what the network reports, whether the read includes keyword_view)
    let reported = Arc::new(Mutex::new((network(), false)));
    let now = Arc::clone(&reported);
    fake.answer(move |window| {
        let (network, with_keywords) = &*now.lock().unwrap();
        read(network, DayRange::of_window(window), *with_keywords)
    });
    let app = TestApp::spawn_with_source(backend, fake).await;
    let session = app.signup_verified("founder@example.com").await;
    let key = app.api_key(&session).await;
    let product_id = app.create_product(&key, "shop").await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    app.post(
        "/products/shop/events",
        Some(&key),
        json!({ "events": events() }),
    )
    .await
    .expect(200);
    let mut tx = app.state.store.begin().await.unwrap();
    store_spend::upsert(&mut tx, &product_id, "test", &meta_rows(), app.clock.now())
        .await
        .unwrap();
    tx.commit().await.unwrap();
    app.insert_connection(
        &session.account_id,
        &product_id,
        ConnectionKind::SearchAds,
        &json!({ "customer_id": ACCOUNT }),
        true,
    )
    .await;
    let run = || async {
        app.clock.advance(HOUR_MS + MINUTE_MS);
        assert_eq!(
            sync::run_due(&app.state, app.clock.now()).await.unwrap(),
            "1 sync runs"
        );
    };

    // The ads alone first: what every reader of spend answers without keyword rows.
    run().await;
    let network_now = reported.lock().unwrap().0.clone();
    let no_keywords = Network {
        keywords: Vec::new(),
        ..network_now.clone()
    };
    assert_levels(&app, &key, &no_keywords).await;
    assert_google_row(&app, &key, &network_now).await;
    let before = spend_readers(&app, &key).await;

    // The same ads with keyword_view beside them.
    reported.lock().unwrap().1 = true;
    run().await;
    assert_levels(&app, &key, &network_now).await;
    assert_google_row(&app, &key, &network_now).await;
    assert_eq!(
        spend_readers(&app, &key).await,
        before,
        "keyword rows add nothing"
    );
    let connections = app.get("/connections", Some(&session.token)).await;
    let detail = connections.expect(200)[0]["last_detail"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        detail.contains(": 7 rows, 4300 cents (and 6 keyword rows breaking them down)"),
        "{detail}"
    );
    // The click that named k1 by its text is k1's revenue, against k1's spend alone.
    let keywords = ads_report(&app, &key, "keyword").await;
    let k1 = row(&keywords, "k1").unwrap();
    assert_eq!(k1["name"], "running shoes");
    assert_eq!(k1["channel"], "paid_google");
    assert_eq!(
        (k1["revenue_cents"].clone(), k1["customers"].clone()),
        (json!(5_000), json!(1))
    );
    assert_eq!(k1["cac_cents"], 1_600);
    assert_eq!(row(&keywords, "mk1").unwrap()["name"], "meta mk1");

    // The network drops keyword k4 and restates k2: the re-read replaces the keyword rows.
    {
        let mut now = reported.lock().unwrap();
        now.0.keywords.retain(|k| k.keyword != "k4");
        for k in &mut now.0.keywords {
            if k.keyword == "k2" {
                k.cents = 450;
            }
        }
    }
    run().await;
    let network_now = reported.lock().unwrap().0.clone();
    assert_levels(&app, &key, &network_now).await;
    let keywords = ads_report(&app, &key, "keyword").await;
    assert!(row(&keywords, "k4").is_none(), "{keywords}");
    assert_eq!(row(&keywords, "k2").unwrap()["spend_cents"], 450);
    assert_eq!(keyword_rows(&app, &product_id).await, 5);
    assert_eq!(spend_readers(&app, &key).await, before);
}

per_backend!(keyword_spend_breaks_down_the_ads_spend_and_never_adds_to_it);

async fn keyword_rows(app: &TestApp, product_id: &str) -> i64 {
    app.sql_value(
        "SELECT COUNT(*) FROM spend_keyword_rows WHERE product_id = $1",
        &[product_id.into()],
    )
    .await
}

/// Every store reader of spend, for the product over the window.
async fn store_readers(app: &TestApp, product_id: &str, span: Span) -> Vec<String> {
    let db = &app.state.store;
    let (first, last) = (span.first_day(), span.last_day());
    let windows = product_metrics::RowWindows {
        week: span,
        month: span,
    };
    let mut seen = vec![
        format!(
            "{:?}",
            attribution::spend_by_channel(db, product_id, span)
                .await
                .unwrap()
        ),
        format!(
            "{:?}",
            series::spend_by_day(db, product_id, span).await.unwrap()
        ),
        format!(
            "{:?}",
            payback::spend_by_day(db, product_id, &first, &last)
                .await
                .unwrap()
        ),
        format!(
            "{:?}",
            payback::spend_by_channel(db, product_id, &first, &last)
                .await
                .unwrap()
        ),
        format!(
            "{:?}",
            activity::spend_in(db, product_id, span).await.unwrap()
        ),
        format!(
            "{:?}",
            product_metrics::sums(db, &[product_id], windows)
                .await
                .unwrap()
        ),
        format!(
            "{:?}",
            store_spend::by_campaign_day(db, product_id, &first, &last)
                .await
                .unwrap()
        ),
    ];
    for level in [AdLevel::Campaign, AdLevel::AdGroup, AdLevel::Ad] {
        seen.push(format!(
            "{:?}",
            attribution::ad_spend(db, product_id, span, level)
                .await
                .unwrap()
        ));
    }
    seen
}

/// Replaces the account's two days with one ad row per ad group, and `keywords`.
async fn replace(app: &TestApp, product_id: &str, keywords: &[KeywordRow]) {
    let rows: Vec<store_spend::SpendRow> = [("g1", 1_000), ("g2", 600)]
        .into_iter()
        .map(|(group, cents)| store_spend::SpendRow {
            day: "2026-11-20".to_owned(),
            network: "google".to_owned(),
            channel: "paid_google".to_owned(),
            campaign_id: "c1".to_owned(),
            ad_group_id: group.to_owned(),
            ad_id: format!("ad-{group}"),
            spend_cents: cents,
            impressions: cents * 4,
            clicks: cents / 10,
            ..store_spend::SpendRow::default()
        })
        .collect();
    let read = AccountDays {
        network: "google",
        ad_account: ACCOUNT,
        first_day: "2026-11-19",
        last_day: "2026-11-20",
    };
    let mut tx = app.state.store.begin().await.unwrap();
    store_spend::replace_account_days(
        &mut tx,
        product_id,
        "search_ads",
        read,
        &rows,
        keywords,
        app.clock.now(),
    )
    .await
    .unwrap();
    tx.commit().await.unwrap();
}

fn keyword_row(group: &str, keyword: &str, cents: i64) -> KeywordRow {
    KeywordRow {
        day: "2026-11-20".to_owned(),
        network: "google".to_owned(),
        channel: "paid_google".to_owned(),
        campaign_id: "c1".to_owned(),
        ad_group_id: group.to_owned(),
        keyword_id: keyword.to_owned(),
        spend_cents: cents,
        impressions: cents * 2,
        clicks: cents / 20,
        ..KeywordRow::default()
    }
}

/// Store readers of spend answer the same with and without keyword rows; the keyword level
/// reads them and still sums to the channel's spend; replacing the days without keywords
/// removes them.
async fn store_readers_of_spend_ignore_keyword_rows(app: TestApp) {
    let product_id = app.founder_product_id("shop").await;
    let span = Span::days_ending(app.clock.now(), 30);
    replace(&app, &product_id, &[]).await;
    let before = store_readers(&app, &product_id, span).await;

    let keywords = [
        keyword_row("g1", "k1", 700),
        keyword_row("g1", "k2", 200),
        keyword_row("g2", "k3", 600),
    ];
    replace(&app, &product_id, &keywords).await;
    assert_eq!(store_readers(&app, &product_id, span).await, before);
    let by_keyword = attribution::ad_spend(&app.state.store, &product_id, span, AdLevel::Keyword)
        .await
        .unwrap();
    let shown: Vec<(String, i64, i64, i64)> = by_keyword
        .iter()
        .map(|r| (r.id.clone(), r.spend_cents, r.impressions, r.clicks))
        .collect();
    // The rest of the channel's 1,600: 100 cents, 6,400 - 3,000 impressions, 160 - 75 clicks.
    let want = |id: &str, spend, impressions, clicks| (id.to_owned(), spend, impressions, clicks);
    assert_eq!(
        shown,
        [
            want("", 100, 3_400, 85),
            want("k1", 700, 1_400, 35),
            want("k2", 200, 400, 10),
            want("k3", 600, 1_200, 30)
        ]
    );
    let dimensions = attribution::ad_dimensions(&app.state.store, &product_id, AdLevel::Keyword)
        .await
        .unwrap();
    assert_eq!(dimensions.len(), 3);

    replace(&app, &product_id, &keywords[..1]).await;
    assert_eq!(keyword_rows(&app, &product_id).await, 1);
    replace(&app, &product_id, &[]).await;
    assert_eq!(keyword_rows(&app, &product_id).await, 0);
    assert_eq!(store_readers(&app, &product_id, span).await, before);
}

backend_tests!(store_readers_of_spend_ignore_keyword_rows);
