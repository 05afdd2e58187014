//! `social_b` (an X account) end to end against the loopback fake of the X API v2
//! (`payback_testkit::fakes::x`), written from X's documentation apart from the connector: the
//! key-based connect and each of its refusals, the daily read landing in the social report under
//! the network `x` (followers, and impressions and engagement per publish day) compared with
//! sums computed here from the posts the fake serves, a 429 waited out until its reset, a reset
//! too far away ending the run with a last_error naming the rate limit, test before and after the
//! token is regenerated, disconnect keeping the figures, and the token in no answer.

use crate::shop::{founder, listed_connection};
use std::collections::BTreeMap;

use base64::Engine as _;
use payback_domain::Clock as _;
use payback_domain::connection::ConnectionKind;
use payback_server::secret::Secret;
use payback_testkit::fakes::x::{FakeX, PostMetrics};
use payback_testkit::{Backend, TestApp, per_backend};
use serde_json::{Value, json};

const TOKEN: &str = "AAAAAAAAAAAAAAAAAAAAAShopBearer%2Fz0123456789abcdefXYZ";
const OTHER_TOKEN: &str = "AAAAAAAAAAAAAAAAAAAAAOtherBearer0123456789";
const USER_ID: &str = "1500000000000000001";
const FOLLOWERS: i64 = 4_321;
const PATH: &str = "/products/shop/connections/social-b";

/// The shop's posts as the fake serves them: (id, created_at, impressions, likes, replies,
/// reposts, quotes). The test app's clock is 2026-11-21 12:00 UTC; the first run reads 30 days,
/// so the October post is never read, and the report's 7 days start on 2026-11-15.
const POSTS: [(&str, &str, i64, i64, i64, i64, i64); 6] = [
    (
        "1860000000000000006",
        "2026-11-21T08:15:00.000Z",
        900,
        20,
        4,
        3,
        1,
    ),
    (
        "1860000000000000005",
        "2026-11-20T18:00:00.000Z",
        1_500,
        41,
        7,
        9,
        2,
    ),
    (
        "1860000000000000004",
        "2026-11-20T07:30:00.000Z",
        300,
        5,
        0,
        1,
        0,
    ),
    (
        "1860000000000000003",
        "2026-11-17T12:00:00.000Z",
        2_200,
        60,
        12,
        15,
        5,
    ),
    (
        "1860000000000000002",
        "2026-11-08T12:00:00.000Z",
        700,
        9,
        1,
        2,
        0,
    ),
    (
        "1860000000000000001",
        "2026-10-01T12:00:00.000Z",
        99_000,
        999,
        99,
        99,
        9,
    ),
];

/// The service wired to the fake (its `PAYBACK_SOCIAL_B_API_URL`) with a sealing key, or
/// without one when `sealing` is false.
async fn spawn_with(backend: Backend, origin: String, sealing: bool) -> TestApp {
    TestApp::spawn_with(backend, move |config| {
        if sealing {
            config.secret_key = Some(Secret::new(
                base64::engine::general_purpose::STANDARD.encode([9_u8; 32]),
            ));
        }
        config.api_urls.insert(ConnectionKind::SocialB, origin);
    })
    .await
}

fn seed(x: &FakeX) {
    x.add_token(TOKEN);
    x.add_token(OTHER_TOKEN);
    x.add_account(USER_ID, "ShopHQ", FOLLOWERS);
    for (id, created_at, impressions, likes, replies, reposts, quotes) in POSTS {
        let metrics = PostMetrics {
            impressions,
            likes,
            replies,
            reposts,
            quotes,
            bookmarks: 3,
        };
        x.add_post("ShopHQ", id, created_at, &format!("post {id}"), metrics);
    }
    // Another account's numbers must never land in the shop's report.
    x.add_account("1500000000000000002", "elsewhere", 1_000_000);
    let big = PostMetrics {
        impressions: 1_000_000,
        likes: 1_000,
        ..PostMetrics::default()
    };
    x.add_post(
        "elsewhere",
        "1860000000000009999",
        "2026-11-20T10:00:00.000Z",
        "hi",
        big,
    );
}

/// The `social_b` connection as `GET /connections` lists it.
async fn connection(app: &TestApp, token: &str) -> Option<Value> {
    listed_connection(app, token, "social_b").await
}

/// (impressions, engagement) per publish day, summed here from what the fake serves for the
/// shop inside `first..=last`.
fn expected(x: &FakeX, first: &str, last: &str) -> BTreeMap<String, (i64, i64)> {
    let mut sums = BTreeMap::new();
    for post in x.posts("ShopHQ") {
        let day = post.created_at[..10].to_owned();
        if first <= day.as_str() && day.as_str() <= last {
            let m = post.metrics;
            let sum: &mut (i64, i64) = sums.entry(day).or_default();
            sum.0 += m.impressions;
            sum.1 += m.likes + m.replies + m.reposts + m.quotes;
        }
    }
    sums
}

async fn social(app: &TestApp, key: &str) -> Value {
    app.get("/products/shop/social?days=7", Some(key))
        .await
        .expect(200)
        .clone()
}

async fn connect_refusals_name_their_field(backend: Backend) {
    let x = FakeX::spawn().await;
    seed(&x);
    let app = spawn_with(backend, x.base_url(), true).await;
    let (owner, key) = founder(&app).await;
    let mut answers = Vec::new();
    for (body, field, words) in [
        (
            json!({ "username": "ShopHQ" }),
            "bearer_token",
            "missing field",
        ),
        (
            json!({ "bearer_token": TOKEN }),
            "username",
            "missing field",
        ),
        (
            json!({ "bearer_token": "", "username": "ShopHQ" }),
            "bearer_token",
            "",
        ),
        (
            json!({ "bearer_token": TOKEN, "username": "ShopHQ", "page_id": "1" }),
            "page_id",
            "",
        ),
        (
            json!({ "bearer_token": TOKEN, "username": "shop hq" }),
            "username",
            "X handle",
        ),
        (
            json!({ "bearer_token": TOKEN, "username": "@@ShopHQ" }),
            "username",
            "X handle",
        ),
        (
            json!({ "bearer_token": TOKEN, "username": "a234567890123456" }),
            "username",
            "",
        ),
        (
            json!({ "bearer_token": TOKEN, "username": "@nobody_here" }),
            "username",
            "Could not find user with username: [nobody_here].",
        ),
        (
            json!({ "bearer_token": "AAAA-not-a-live-token", "username": "ShopHQ" }),
            "bearer_token",
            "Unauthorized",
        ),
    ] {
        let refused = app
            .post(PATH, Some(&key), body.clone())
            .await
            .expect(400)
            .clone();
        let error = refused["error"].as_str().unwrap();
        assert!(error.contains(field), "{body} -> {refused}");
        assert!(error.contains(words), "{body} -> {refused}");
        answers.push(refused.to_string());
    }
    assert!(connection(&app, &owner.token).await.is_none());

    // Another account's product is not found, before X is asked.
    let stranger = app.signup_verified("stranger@example.com").await;
    let before = x.requests().len();
    let hidden = app
        .post(
            PATH,
            Some(&stranger.token),
            json!({ "bearer_token": TOKEN, "username": "ShopHQ" }),
        )
        .await
        .expect(404)
        .clone();
    answers.push(hidden.to_string());
    for action in ["test", "sync", "disconnect"] {
        let hidden = app
            .post(
                &format!("{PATH}/{action}"),
                Some(&stranger.token),
                json!({}),
            )
            .await
            .expect(404)
            .clone();
        answers.push(hidden.to_string());
    }
    app.get("/products/shop/social?days=7", Some(&stranger.token))
        .await
        .expect(404);
    assert_eq!(x.requests().len(), before);
    for answer in answers {
        assert!(
            !answer.contains(TOKEN) && !answer.contains("AAAA-not-a-live-token"),
            "{answer}"
        );
    }
}

async fn an_account_syncs_into_the_social_report(backend: Backend) {
    let x = FakeX::spawn().await;
    seed(&x);
    let app = spawn_with(backend, x.base_url(), true).await;
    let (owner, key) = founder(&app).await;
    let connected = app
        .post(
            PATH,
            Some(&key),
            json!({ "bearer_token": TOKEN, "username": "@ShopHQ" }),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(connected["ok"], true);
    let listed = connection(&app, &owner.token).await.unwrap();
    assert_eq!(listed["id"], connected["connection_id"]);
    assert_eq!(listed["config"]["username"], "ShopHQ");
    // The token proven with one users lookup; posts are read by the sync, not the connect.
    assert_eq!(x.requests_to("/2/users/by/username/").len(), 1);
    assert!(x.requests_to("/tweets").is_empty());

    // A rate limit resetting in a second: waited out, and the read lands whole.
    x.rate_limit_next("/tweets", 1, 1);
    payback_server::services::sync::run_due(&app.state, app.clock.now())
        .await
        .unwrap();
    let row = connection(&app, &owner.token).await.unwrap();
    assert_eq!(row["last_error"], Value::Null, "{row}");
    let reads = x.requests_to("/tweets");
    assert!(reads.len() >= 2, "{reads:?}");
    for read in &reads {
        assert_eq!(read.path, format!("/2/users/{USER_ID}/tweets"));
        assert_eq!(
            read.header("authorization"),
            Some(format!("Bearer {TOKEN}").as_str())
        );
        let fields = read.param("tweet.fields").unwrap();
        assert!(fields.contains("public_metrics") && fields.contains("created_at"));
        assert!(read.param("start_time").is_some());
    }

    let report = social(&app, &key).await;
    let trend = report["trend"].as_array().unwrap();
    let first = trend[0]["day"].as_str().unwrap().to_owned();
    let last = trend[trend.len() - 1]["day"].as_str().unwrap().to_owned();
    let sums = expected(&x, &first, &last);
    assert_eq!(sums.len(), 3, "{sums:?}");
    let (impressions, engagement) = sums
        .values()
        .fold((0, 0), |(i, e), (di, de)| (i + di, e + de));
    let networks = report["networks"].as_array().unwrap();
    assert_eq!(networks.len(), 1, "{report}");
    let network = &networks[0];
    assert_eq!(network["network"], "x");
    assert_eq!(network["followers"], FOLLOWERS);
    assert_eq!(network["impressions"], impressions);
    assert_eq!(network["engagement"], engagement);
    assert_eq!(report["audience"]["followers"], FOLLOWERS);
    assert_eq!(report["audience"]["by_network"][0]["network"], "x");
    for day in trend {
        let want = sums
            .get(day["day"].as_str().unwrap())
            .copied()
            .unwrap_or_default();
        assert_eq!(
            (
                day["impressions"].as_i64().unwrap(),
                day["engagement"].as_i64().unwrap()
            ),
            want,
            "{day}"
        );
    }
    // The posts of the window, X's, with their lifetime engagement.
    let posts = report["posts"].as_array().unwrap();
    let mut ids: Vec<&str> = posts.iter().map(|p| p["id"].as_str().unwrap()).collect();
    ids.sort_unstable();
    let mut want: Vec<&str> = POSTS
        .iter()
        .filter(|post| first.as_str() <= &post.1[..10])
        .map(|post| post.0)
        .collect();
    want.sort_unstable();
    assert_eq!(ids, want);
    for post in posts {
        assert_eq!(post["network"], "x");
        let seeded = POSTS.iter().find(|p| p.0 == post["id"]).unwrap();
        assert_eq!(
            post["engagement"],
            seeded.3 + seeded.4 + seeded.5 + seeded.6
        );
        assert_eq!(
            post["permalink"],
            format!("https://x.com/ShopHQ/status/{}", seeded.0)
        );
    }

    // Test is one live read; once the app's token is regenerated, test says so.
    let tested = app
        .post(&format!("{PATH}/test"), Some(&key), json!({}))
        .await
        .expect(200)
        .clone();
    assert_eq!(tested["ok"], true, "{tested}");

    // A reset fifteen minutes away: the run ends at once with a last_error naming it.
    x.rate_limit_next("/2/users/by/username/", 1, 900);
    let started = app
        .post(&format!("{PATH}/sync"), Some(&owner.token), json!({}))
        .await
        .expect(200)
        .clone();
    assert_eq!(started["started"], true, "{started}");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let limited = loop {
        let shown = connection(&app, &owner.token).await.unwrap();
        if shown["syncing"] == false && shown["last_error"].is_string() {
            break shown;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "sync now never finished: {shown}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    };
    let last_error = limited["last_error"].as_str().unwrap();
    assert!(last_error.contains("rate limit"), "{limited}");

    x.revoke(TOKEN);
    let failing = app
        .post(&format!("{PATH}/test"), Some(&key), json!({}))
        .await
        .expect(200)
        .clone();
    assert_eq!(failing["ok"], false, "{failing}");
    assert!(
        failing["detail"].as_str().unwrap().contains("Unauthorized"),
        "{failing}"
    );

    // Disconnect deletes the credential, revokes nothing at X, keeps the figures.
    let gone = app
        .post(&format!("{PATH}/disconnect"), Some(&owner.token), json!({}))
        .await
        .expect(200)
        .clone();
    assert_eq!(gone["ok"], true, "{gone}");
    assert_eq!(gone["credential_deleted"], true);
    assert_eq!(gone["revoked_upstream"], false);
    assert!(connection(&app, &owner.token).await.is_none());
    assert_eq!(social(&app, &key).await["networks"], report["networks"]);

    let everything = app
        .get("/connections", Some(&owner.token))
        .await
        .expect(200)
        .to_string();
    for answer in [
        connected,
        row,
        report,
        tested,
        limited,
        failing,
        gone,
        json!(everything),
    ] {
        assert!(!answer.to_string().contains(TOKEN), "{answer}");
    }
}

async fn without_x_or_a_sealing_key(backend: Backend) {
    // A port nothing answers on: X is unreachable, 502 (and the token is in no answer).
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let dead = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let app = spawn_with(backend, dead.clone(), true).await;
    let (_, key) = founder(&app).await;
    let unreachable = app
        .post(
            PATH,
            Some(&key),
            json!({ "bearer_token": TOKEN, "username": "ShopHQ" }),
        )
        .await
        .expect(502)
        .clone();
    assert!(!unreachable.to_string().contains(TOKEN), "{unreachable}");

    // No PAYBACK_SECRET_KEY: nothing could be stored, 503.
    let app = spawn_with(backend, dead, false).await;
    let (_, key) = founder(&app).await;
    app.post(
        PATH,
        Some(&key),
        json!({ "bearer_token": TOKEN, "username": "ShopHQ" }),
    )
    .await
    .expect(503);
}

per_backend!(
    connect_refusals_name_their_field,
    an_account_syncs_into_the_social_report,
    without_x_or_a_sealing_key,
);
