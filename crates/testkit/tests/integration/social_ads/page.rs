//! The organic page (`social_a`): its daily Facebook and Instagram figures land as snapshots and
//! feed the timeseries' `social_*` columns, each day the page's plus its Instagram account's;
//! followers on the day of the run; recent posts stored.

use payback_testkit::fake_meta::{IgAccountSeed, MediaSeed, PageSeed, PostSeed};
use payback_testkit::{Backend, FakeLinkedIn, FakeMeta, per_backend};
use serde_json::{Value, json};

use super::*;

/// (day, facebook views, facebook engagements, instagram views, instagram interactions).
const PAGE_DAYS: [(&str, i64, i64, i64, i64); 2] = [
    ("2026-11-19", 1_200, 80, 900, 45),
    ("2026-11-20", 700, 30, 1_500, 60),
];
const FACEBOOK_FOLLOWERS: i64 = 1_234;
const INSTAGRAM_FOLLOWERS: i64 = 567;

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
    page = page.post(
        PostSeed::new(77, "Black Friday is here", "2026-11-20T09:00:00+0000").engagement(12, 3, 2),
    );
    instagram = instagram.media(
        MediaSeed::new(88, "Behind the scenes", "2026-11-19T18:30:00+0000")
            .likes(40)
            .comments(5),
    );
    meta.add_page(page.instagram(instagram));
    meta.add_user_token(
        META_TOKEN,
        &[
            "pages_show_list",
            "pages_read_engagement",
            "read_insights",
            "instagram_basic",
            "instagram_manage_insights",
        ],
    );
}

async fn page_figures_feed_the_timeseries(backend: Backend) {
    let (meta, linkedin) = (FakeMeta::spawn().await, FakeLinkedIn::spawn().await);
    seed_page(&meta);
    let app = spawn(backend, &meta, &linkedin).await;
    let (owner, key) = founder(&app).await;
    let connected = app
        .post(
            "/products/shop/connections/social-a",
            Some(&key),
            json!({ "access_token": META_TOKEN, "page_id": PAGE.to_string() }),
        )
        .await
        .expect(200)
        .clone();
    assert!(connected["connection_id"].is_string(), "{connected}");
    sync(&app).await;
    let row = connection(&app, &owner.token, "social_a").await.unwrap();
    assert_eq!(row["last_error"], Value::Null, "{row}");

    let series = app
        .get("/products/shop/timeseries?days=7", Some(&key))
        .await
        .expect(200)
        .clone();
    let day = |wanted: &str| -> Value {
        series
            .as_array()
            .or_else(|| series["days"].as_array())
            .unwrap()
            .iter()
            .find(|row| row["day"] == wanted)
            .cloned()
            .unwrap_or_else(|| panic!("no {wanted} in {series}"))
    };
    for (date, views, engagements, ig_views, ig_interactions) in PAGE_DAYS {
        let row = day(date);
        assert_eq!(row["social_impressions"], views + ig_views, "{row}");
        assert_eq!(
            row["social_engagement"],
            engagements + ig_interactions,
            "{row}"
        );
    }
    // Followers are counted now: the day of the run.
    assert_eq!(
        day(TODAY)["social_followers"],
        FACEBOOK_FOLLOWERS + INSTAGRAM_FOLLOWERS
    );
    assert_eq!(day("2026-11-20")["social_followers"], 0);
    // The page's token came from the user token, never the other way round.
    assert!(!meta.requests_to(&format!("{PAGE}")).is_empty());
}

per_backend!(page_figures_feed_the_timeseries);
