//! `GET /products/{slug}/social` end to end: a Facebook page and its Instagram account seeded in
//! the loopback Meta fake (`payback_testkit::fake_meta`), connected with a pasted token as
//! `social_a`, read by the sync job; the report's audience, networks, trend and posts are
//! compared with values computed here from the seed alone. Followers counts of earlier runs and
//! a stale copy of a post are written beforehand through the store, as an earlier sync would
//! have, so the followers' change over the window and a re-read replacing a post are covered.
//! Also: a product without sources answers zeros and empty lists, another account's product is
//! 404, `days` is checked, and a batch naming a post twice is refused whole.

use base64::Engine as _;
use payback_connectors::{Snapshot, SocialPost, SyncOutput};
use payback_domain::connection::ConnectionKind;
use payback_domain::snapshot_metric::SOCIAL_FOLLOWERS;
use payback_domain::{Clock as _, DAY_MS, Timestamp};
use payback_server::secret::Secret;
use payback_server::services::sync;
use payback_store::snapshots::{self, SnapshotRow};
use payback_store::social_posts::{self, SocialPostRow};
use payback_testkit::fake_meta::{IgAccountSeed, MediaSeed, PageSeed, PostSeed};
use payback_testkit::{Backend, FakeMeta, FakeSource, TestApp, per_backend};
use serde_json::{Value, json};

/// The tests' today, as the fake counts it (`TEST_START`'s day).
const TODAY: &str = "2026-11-21";
const PAGE: i64 = 5_001;
const INSTAGRAM: i64 = 6_001;
const TOKEN: &str = "EAA-pasted-user-token";

/// (day, Facebook views, Facebook post engagements, Instagram views, Instagram interactions).
const PAGE_DAYS: [(&str, i64, i64, i64, i64); 3] = [
    ("2026-11-02", 300, 25, 0, 0),
    ("2026-11-19", 1_200, 80, 900, 45),
    ("2026-11-20", 700, 30, 1_500, 60),
];
const FACEBOOK_FOLLOWERS: i64 = 1_234;
const INSTAGRAM_FOLLOWERS: i64 = 567;

/// Facebook posts: (id, message, created_time, reactions, comments, shares). The last is older
/// than the first run reads (30 days), so it is never stored.
const POSTS: [(i64, &str, &str, i64, i64, i64); 3] = [
    (
        77,
        "Black Friday is here",
        "2026-11-20T09:00:00+0000",
        12,
        3,
        2,
    ),
    (
        78,
        "Early bird offer",
        "2026-11-02T15:00:00+0000",
        40,
        10,
        5,
    ),
    (79, "Old news", "2026-10-01T10:00:00+0000", 100, 0, 0),
];
/// Instagram media: (id, caption, timestamp, media type, likes, comments). 89 ties with post 77
/// on engagement and is newer, so it comes first.
const MEDIA: [(i64, &str, &str, &str, i64, i64); 2] = [
    (
        88,
        "Behind the scenes",
        "2026-11-19T18:30:00+0000",
        "CAROUSEL_ALBUM",
        40,
        5,
    ),
    (
        89,
        "Reel teaser",
        "2026-11-20T20:00:00+0000",
        "VIDEO",
        17,
        0,
    ),
];

/// Followers counts earlier runs read: (network, day, count). Facebook's first is before a
/// 30-day window, Instagram's first inside it.
const EARLIER_FOLLOWERS: [(&str, &str, i64); 3] = [
    ("facebook", "2026-10-01", 1_100),
    ("facebook", "2026-11-10", 1_200),
    ("instagram", "2026-11-12", 500),
];

fn seed_page(meta: &FakeMeta) {
    let mut page = PageSeed::new(PAGE, "Shop").followers(FACEBOOK_FOLLOWERS);
    let mut instagram = IgAccountSeed::new(INSTAGRAM, "shop").followers(INSTAGRAM_FOLLOWERS);
    for (day, views, engagements, ig_views, ig_interactions) in PAGE_DAYS {
        page = page.day(
            day,
            &[
                ("page_media_view", views),
                ("page_post_engagements", engagements),
            ],
        );
        instagram = instagram.day(
            day,
            &[("views", ig_views), ("total_interactions", ig_interactions)],
        );
    }
    for (id, message, at, reactions, comments, shares) in POSTS {
        page = page.post(PostSeed::new(id, message, at).engagement(reactions, comments, shares));
    }
    for (id, caption, at, kind, likes, comments) in MEDIA {
        instagram = instagram.media(
            MediaSeed::new(id, caption, at)
                .media_type(kind)
                .likes(likes)
                .comments(comments),
        );
    }
    meta.add_page(page.instagram(instagram));
    meta.add_user_token(
        TOKEN,
        &[
            "pages_show_list",
            "pages_read_engagement",
            "read_insights",
            "instagram_basic",
            "instagram_manage_insights",
        ],
    );
}

/// The service with Meta's origin at the fake and a sealing key for the token.
async fn spawn(backend: Backend, meta: &FakeMeta) -> TestApp {
    let graph = meta.base_url();
    let app = TestApp::spawn_with(backend, move |config| {
        config.secret_key = Some(Secret::new(
            base64::engine::general_purpose::STANDARD.encode([7_u8; 32]),
        ));
        config.api_urls.insert(ConnectionKind::SocialA, graph);
    })
    .await;
    meta.set_today(TODAY);
    app
}

/// Writes what earlier runs left: followers counts, and post 77 as it read before (fewer
/// reactions, the draft's text).
async fn seed_earlier_runs(app: &TestApp, product_id: &str) {
    let counts: Vec<SnapshotRow> = EARLIER_FOLLOWERS
        .iter()
        .map(|(network, day, count)| SnapshotRow {
            day: (*day).to_owned(),
            metric: SOCIAL_FOLLOWERS.to_owned(),
            dimension: (*network).to_owned(),
            value: *count as f64,
            detail: None,
        })
        .collect();
    let stale = SocialPostRow {
        post_id: format!("{PAGE}_77"),
        network: "facebook".to_owned(),
        published_at: published("2026-11-20T09:00:00+0000").millis(),
        permalink: None,
        text: Some("Draft".to_owned()),
        media_type: None,
        engagement: 3,
    };
    let mut tx = app.state.store.begin().await.unwrap();
    let now = app.clock.now();
    snapshots::upsert(&mut tx, product_id, "social_a", &counts, now)
        .await
        .unwrap();
    social_posts::upsert(&mut tx, product_id, "social_a", &[stale], now)
        .await
        .unwrap();
    tx.commit().await.unwrap();
}

/// The fake's `2026-11-20T09:00:00+0000` as an instant.
fn published(meta_time: &str) -> Timestamp {
    let rfc3339 = format!("{}+00:00", meta_time.trim_end_matches("+0000"));
    Timestamp::parse_rfc3339(&rfc3339).unwrap()
}

/// The window of `days` UTC days ending today, oldest first.
fn window(days: i64) -> Vec<String> {
    let today = Timestamp::parse_day(TODAY).unwrap();
    (0..days)
        .rev()
        .map(|back| today.minus_millis(back * DAY_MS).day())
        .collect()
}

/// Every followers count read, earlier runs' and today's: (network, day, count).
fn followers_read() -> Vec<(&'static str, &'static str, i64)> {
    let mut read = EARLIER_FOLLOWERS.to_vec();
    read.push(("facebook", TODAY, FACEBOOK_FOLLOWERS));
    read.push(("instagram", TODAY, INSTAGRAM_FOLLOWERS));
    read
}

/// A network's latest count on or before `day`.
fn followers_on(network: &str, day: &str) -> Option<i64> {
    followers_read()
        .into_iter()
        .filter(|(n, d, _)| *n == network && *d <= day)
        .max_by_key(|(_, d, _)| *d)
        .map(|(_, _, count)| count)
}

/// A network's change over `days`: its count at the end minus the one standing before the
/// first day, or its first count inside the window.
fn followers_change(network: &str, days: &[String]) -> i64 {
    let first = &days[0];
    let before = followers_read()
        .into_iter()
        .filter(|(n, d, _)| *n == network && *d < first.as_str())
        .max_by_key(|(_, d, _)| *d)
        .map(|(_, _, count)| count);
    let first_inside = followers_read()
        .into_iter()
        .filter(|(n, d, _)| *n == network && *d >= first.as_str())
        .min_by_key(|(_, d, _)| *d)
        .map(|(_, _, count)| count);
    let end = followers_on(network, TODAY).unwrap_or(0);
    before.or(first_inside).map_or(0, |start| end - start)
}

/// Every post the sync stores, as the report shows it, with its engagement: (id, network,
/// published_at, permalink, text, media_type, engagement).
fn stored_posts() -> Vec<Value> {
    let first_read = window(31)[0].clone();
    let mut posts: Vec<Value> = POSTS
        .iter()
        .filter(|(_, _, at, ..)| published(at).day() >= first_read)
        .map(|(id, message, at, reactions, comments, shares)| {
            json!({
                "id": format!("{PAGE}_{id}"),
                "network": "facebook",
                "published_at": published(at).to_rfc3339(),
                "permalink": format!("https://www.facebook.com/{PAGE}/posts/{id}"),
                "text": message,
                "media_type": null,
                "engagement": reactions + comments + shares,
            })
        })
        .collect();
    posts.extend(
        MEDIA
            .iter()
            .map(|(id, caption, at, kind, likes, comments)| {
                json!({
                    "id": id.to_string(),
                    "network": "instagram",
                    "published_at": published(at).to_rfc3339(),
                    "permalink": format!("https://www.instagram.com/p/fake{id}/"),
                    "text": caption,
                    "media_type": kind,
                    "engagement": likes + comments,
                })
            }),
    );
    posts
}

/// The report's posts for `days`: published in the window, most engaged first, ties newest
/// first.
fn expected_posts(days: &[String]) -> Vec<Value> {
    let mut posts: Vec<Value> = stored_posts()
        .into_iter()
        .filter(|post| {
            let day = &post["published_at"].as_str().unwrap()[..10];
            days.iter().any(|d| d == day)
        })
        .collect();
    posts.sort_by(|a, b| {
        let key = |p: &Value| {
            (
                p["engagement"].as_i64().unwrap(),
                p["published_at"].as_str().unwrap().to_owned(),
            )
        };
        key(b).cmp(&key(a))
    });
    posts
}

async fn report(app: &TestApp, token: &str, days: i64) -> Value {
    app.get(&format!("/products/shop/social?days={days}"), Some(token))
        .await
        .expect(200)
        .clone()
}

/// The report over `days` compared with the seed.
fn check_report(report: &Value, days: i64) {
    let days_list = window(days);
    assert_eq!(report["product_slug"], "shop");
    assert_eq!(report["window_days"], days);

    let in_window = |day: &str| days_list.iter().any(|d| d == day);
    let sum = |pick: fn(&(&str, i64, i64, i64, i64)) -> i64| -> i64 {
        PAGE_DAYS
            .iter()
            .filter(|row| in_window(row.0))
            .map(pick)
            .sum()
    };
    let expected_networks = [
        ("facebook", sum(|r| r.1), sum(|r| r.2)),
        ("instagram", sum(|r| r.3), sum(|r| r.4)),
    ];
    let networks = report["networks"].as_array().unwrap();
    assert_eq!(networks.len(), 2, "{report}");
    for (row, (network, impressions, engagement)) in networks.iter().zip(expected_networks) {
        assert_eq!(row["network"], network, "{row}");
        assert_eq!(
            row["followers"],
            followers_on(network, TODAY).unwrap(),
            "{row}"
        );
        assert_eq!(row["impressions"], impressions, "{row}");
        assert_eq!(row["engagement"], engagement, "{row}");
        let rate = row["engagement_rate"].as_f64().unwrap();
        assert!(
            (rate - engagement as f64 / impressions as f64).abs() < 1e-12,
            "{row}"
        );
    }

    let audience = &report["audience"];
    let by_network = audience["by_network"].as_array().unwrap();
    let mut total_change = 0;
    for (row, network) in by_network.iter().zip(["facebook", "instagram"]) {
        let change = followers_change(network, &days_list);
        assert_eq!(row["network"], network, "{audience}");
        assert_eq!(row["followers"], followers_on(network, TODAY).unwrap());
        assert_eq!(row["followers_change"], change, "{network}: {audience}");
        total_change += change;
    }
    assert_eq!(
        audience["followers"],
        FACEBOOK_FOLLOWERS + INSTAGRAM_FOLLOWERS
    );
    assert_eq!(audience["followers_change"], total_change, "{audience}");
    assert_eq!(audience["as_of"], TODAY);

    let trend = report["trend"].as_array().unwrap();
    let trend_days: Vec<&str> = trend.iter().map(|r| r["day"].as_str().unwrap()).collect();
    assert_eq!(trend_days, days_list, "one row per day, oldest first");
    for row in trend {
        let day = row["day"].as_str().unwrap();
        let seeded = PAGE_DAYS.iter().find(|r| r.0 == day);
        assert_eq!(row["impressions"], seeded.map_or(0, |r| r.1 + r.3), "{row}");
        assert_eq!(row["engagement"], seeded.map_or(0, |r| r.2 + r.4), "{row}");
        let followers: i64 = ["facebook", "instagram"]
            .iter()
            .filter_map(|network| followers_on(network, day))
            .sum();
        assert_eq!(row["followers"], followers, "{row}");
    }

    assert_eq!(
        report["posts"],
        Value::Array(expected_posts(&days_list)),
        "{report}"
    );
}

async fn social_report_reads_the_page_and_its_posts(backend: Backend) {
    let meta = FakeMeta::spawn().await;
    seed_page(&meta);
    let app = spawn(backend, &meta).await;
    let owner = app.signup_verified("founder@example.com").await;
    app.create_product(&owner.token, "shop").await;
    let key = app.api_key(&owner).await;
    let product_id: String = app
        .sql_value("SELECT id FROM products WHERE slug = $1", &["shop".into()])
        .await;
    seed_earlier_runs(&app, &product_id).await;

    app.post(
        "/products/shop/connections/social-a",
        Some(&key),
        json!({ "access_token": TOKEN, "page_id": PAGE.to_string() }),
    )
    .await
    .expect(200);
    sync::run_due(&app.state, app.clock.now()).await.unwrap();
    let connections = app
        .get("/connections", Some(&owner.token))
        .await
        .expect(200)
        .clone();
    let connection = connections
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["kind"] == "social_a")
        .unwrap();
    assert_eq!(connection["last_error"], Value::Null, "{connection}");
    let stored = stored_posts().len();
    let detail = connection["last_detail"].as_str().unwrap();
    assert!(detail.contains(&format!("{stored} posts")), "{detail}");

    // The posts the read saw, stored once each; 77's stale copy replaced.
    let rows: i64 = app
        .sql_value(
            "SELECT COUNT(*) FROM social_posts WHERE product_id = $1",
            &[(&product_id).into()],
        )
        .await;
    assert_eq!(rows, stored as i64);

    for days in [30, 7] {
        check_report(&report(&app, &key, days).await, days);
    }
    // A product without a social source still answers, with nothing in it.
    app.create_product(&owner.token, "empty").await;
    let empty = app
        .get("/products/empty/social", Some(&key))
        .await
        .expect(200)
        .clone();
    assert_eq!(empty["window_days"], 30);
    assert_eq!(
        empty["audience"],
        json!({"followers": 0, "followers_change": 0, "as_of": null, "by_network": []})
    );
    assert_eq!(empty["networks"], json!([]));
    assert_eq!(empty["posts"], json!([]));
    let trend = empty["trend"].as_array().unwrap();
    assert_eq!(trend.len(), 30);
    assert!(
        trend
            .iter()
            .all(|r| r["impressions"] == 0 && r["engagement"] == 0 && r["followers"] == 0),
        "{empty}"
    );
}

async fn social_report_is_the_accounts_own_and_checks_days(backend: Backend) {
    let meta = FakeMeta::spawn().await;
    let app = spawn(backend, &meta).await;
    let owner = app.signup_verified("founder@example.com").await;
    app.create_product(&owner.token, "shop").await;
    let other = app.signup_verified("other@example.com").await;
    app.get("/products/shop/social", Some(&other.token))
        .await
        .expect_error(404, "product");
    app.get("/products/shop/social", None).await.expect(401);
    for days in ["0", "3651", "-1", "week"] {
        app.get(
            &format!("/products/shop/social?days={days}"),
            Some(&owner.token),
        )
        .await
        .expect_error(400, "days");
    }
    let longest = report(&app, &owner.token, 3650).await;
    assert_eq!(longest["trend"].as_array().unwrap().len(), 3650);
    assert_eq!(longest["trend"][3649]["day"], TODAY);
}

fn post(id: &str, engagement: i64) -> SocialPost {
    SocialPost {
        id: id.to_owned(),
        network: "instagram".to_owned(),
        published_at: published("2026-11-20T10:00:00+0000"),
        permalink: None,
        text: Some("Launch".to_owned()),
        media_type: Some("IMAGE".to_owned()),
        engagement,
    }
}

/// A source's batch is written whole or not at all: a post read twice refuses its snapshots
/// too, and the next good read stores both.
async fn a_post_read_twice_refuses_the_batch(backend: Backend) {
    let fake = FakeSource::new(ConnectionKind::SocialA);
    let app = TestApp::spawn_with_source(backend, fake.clone()).await;
    let owner = app.signup_verified("founder@example.com").await;
    let product_id = app.create_product(&owner.token, "shop").await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    app.insert_connection(
        &owner.account_id,
        &product_id,
        ConnectionKind::SocialA,
        &json!({}),
        false,
    )
    .await;
    let batch = |posts: Vec<SocialPost>| SyncOutput {
        snapshots: vec![Snapshot {
            day: "2026-11-20".to_owned(),
            metric: "social_impressions".to_owned(),
            dimension: "instagram".to_owned(),
            value: 40.0,
            detail: None,
        }],
        posts,
        ..SyncOutput::default()
    };
    let refused = [
        (
            vec![post("1790", 5), post("1790", 6)],
            r#"post "1790": read twice"#,
        ),
        (
            vec![post("17\u{0}90", 5)],
            r#"post "17\090": a NUL character"#,
        ),
    ];
    for (posts, why) in refused {
        fake.answer(move |_| batch(posts.clone()));
        app.clock.advance(DAY_MS);
        sync::run_due(&app.state, app.clock.now()).await.unwrap();
        let shown = app
            .get("/connections", Some(&owner.token))
            .await
            .expect(200)[0]
            .clone();
        let error = shown["last_error"].as_str().unwrap_or_default();
        assert!(error.contains(why), "{shown}");
        let nothing = report(&app, &owner.token, 7).await;
        assert_eq!(
            nothing["networks"],
            json!([]),
            "nothing of the batch stored"
        );
        assert_eq!(nothing["posts"], json!([]));
    }

    fake.answer(move |_| batch(vec![post("1790", 6), post("1791", 9)]));
    app.clock.advance(DAY_MS);
    sync::run_due(&app.state, app.clock.now()).await.unwrap();
    let stored = report(&app, &owner.token, 7).await;
    assert_eq!(stored["networks"][0]["network"], "instagram", "{stored}");
    assert_eq!(stored["networks"][0]["impressions"], 40);
    let posts: Vec<(&str, i64)> = stored["posts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["id"].as_str().unwrap(), p["engagement"].as_i64().unwrap()))
        .collect();
    assert_eq!(posts, [("1791", 9), ("1790", 6)]);
}

per_backend!(
    social_report_reads_the_page_and_its_posts,
    social_report_is_the_accounts_own_and_checks_days,
    a_post_read_twice_refuses_the_batch,
);
