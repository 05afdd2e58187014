//! The dashboard's Demand and Social pages in headless Chromium
//! (`e2e/dashboard-reports-demand.mjs`). What the demand sources (Search Console, the second
//! search engine, the two SEO tools, AI visibility) and the organic social sources would have
//! stored is written through the store, dated back from today; a connection of one SEO tool is
//! booked as synced; a few events feed the funnel's visits, leads and customers. Every figure
//! the script checks on the pages is computed here from the seed's constants, for a 7-day and
//! the 30-day window, and handed to it as JSON. A second product with nothing connected shows
//! the empty states.

use std::collections::BTreeMap;

use payback_domain::snapshot_metric::{
    AI_VISIBILITY, BACKLINKS, COMPETITOR_POSITION, DOMAIN_RANK, DOMAIN_RATING, KEYWORD_POSITION,
    KEYWORD_VOLUME, ORGANIC_KEYWORDS, ORGANIC_TRAFFIC, REFERRING_DOMAINS, SEARCH_CLICKS,
    SEARCH_IMPRESSIONS, SEARCH_POSITION, SITE_HEALTH, SOCIAL_ENGAGEMENT, SOCIAL_FOLLOWERS,
    SOCIAL_IMPRESSIONS,
};
use payback_domain::source_kind::KINDS;
use payback_domain::{Clock as _, DAY_MS, Timestamp};
use payback_store::AccountScope;
use payback_store::connections::{self, NewConnection, RunOutcome};
use payback_store::snapshots::{self, SnapshotRow};
use payback_store::social_posts::{self, SocialPostRow};
use payback_testkit::browser::{run_browser_script_with_env, spawn_on_wall_clock};
use payback_testkit::{Backend, TestApp, per_backend};
use serde_json::{Value, json};

const SLUG: &str = "demand-shop";
const EMPTY_SLUG: &str = "quiet-shop";
/// The windows the script shows: the one it opens with, and the one it switches to.
const WINDOWS: [i64; 2] = [7, 30];

/// A search query's day: (source kind, days ago, query, clicks, impressions, position; 0 = none
/// given). Some fall outside the 7-day window and inside the 30-day one.
type QueryDay = (&'static str, i64, &'static str, i64, i64, f64);
const QUERY_DAYS: [QueryDay; 7] = [
    ("search_console", 2, "payback", 10, 300, 2.5),
    ("search_console", 3, "payback", 5, 100, 4.0),
    ("search_console", 4, "roas tool", 2, 40, 0.0),
    ("search_console", 12, "payback", 70, 700, 5.0),
    ("search_console", 20, "ltv calculator", 8, 160, 6.0),
    ("search_b", 1, "payback", 6, 150, 3.0),
    ("search_b", 15, "cac calculator", 3, 61, 7.0),
];

/// Keyword readings: (source, days ago, keyword, position, volume, url).
type Rank = (
    &'static str,
    i64,
    &'static str,
    f64,
    i64,
    Option<&'static str>,
);
const RANKS: [Rank; 3] = [
    (
        "seo_a",
        1,
        "payback",
        4.0,
        1_300,
        Some("https://shop.example/"),
    ),
    ("seo_a", 1, "cac", 12.0, 800, None),
    (
        "seo_b",
        3,
        "payback app",
        2.0,
        500,
        Some("https://shop.example/app"),
    ),
];

/// geo_a's competitors' best positions, two days ago: (keyword, position, competitor). geo_a
/// stored no rank of the product's own, so both are gaps the product ranks nowhere for.
const GAPS: [(&str, f64, &str); 2] = [
    ("roi", 5.0, "other.example"),
    ("payback", 2.0, "rival.example"),
];

/// Whole-domain readings: (source, days ago, metric, value).
const WHOLES: [(&str, i64, &str, f64); 7] = [
    ("seo_b", 3, DOMAIN_RATING, 41.5),
    ("seo_b", 3, BACKLINKS, 1_200.0),
    ("seo_b", 3, REFERRING_DOMAINS, 85.0),
    ("seo_a", 1, DOMAIN_RANK, 95_000.0),
    ("seo_a", 1, ORGANIC_KEYWORDS, 330.0),
    ("seo_a", 1, ORGANIC_TRAFFIC, 2_600.0),
    ("geo_a", 2, SITE_HEALTH, 82.5),
];

/// AI visibility per engine: (days ago, engine, visibility). The day's whole score is the
/// engines' mean, as the source writes it; the latest day's engines are the report's.
const ENGINES: [(i64, &str, f64); 4] = [
    (3, "chatgpt", 40.0),
    (3, "perplexity", 60.0),
    (2, "chatgpt", 30.0),
    (2, "gemini", 75.0),
];

/// Funnel events, all two days ago: (id, stage, person).
const EVENTS: [(&str, &str, &str); 4] = [
    ("v1", "visit", "u-1"),
    ("v2", "visit", "u-2"),
    ("l1", "lead", "u-1"),
    ("c1", "converted", "u-1"),
];

/// Social figures: (source kind, days ago, network, impressions, engagement).
const SOCIAL_DAYS: [(&str, i64, &str, i64, i64); 6] = [
    ("social_a", 2, "facebook", 1_200, 80),
    ("social_a", 2, "instagram", 900, 45),
    ("social_a", 1, "facebook", 700, 30),
    ("social_a", 1, "instagram", 1_500, 60),
    ("social_a", 12, "facebook", 300, 25),
    ("social_b", 1, "x", 400, 20),
];

/// Followers counts read: (source kind, days ago, network, count). Facebook's first is before
/// the 30-day window; Instagram's first inside the 7-day one.
const FOLLOWERS: [(&str, i64, &str, i64); 6] = [
    ("social_a", 40, "facebook", 1_100),
    ("social_a", 10, "facebook", 1_200),
    ("social_a", 0, "facebook", 1_234),
    ("social_a", 5, "instagram", 500),
    ("social_a", 0, "instagram", 567),
    ("social_b", 0, "x", 300),
];

/// Posts: (source kind, id, network, days ago, text, engagement).
const POSTS: [(&str, &str, &str, i64, &str, i64); 4] = [
    ("social_a", "p1", "facebook", 2, "Black Friday is here", 17),
    ("social_a", "m1", "instagram", 1, "Behind the scenes", 45),
    ("social_a", "p2", "facebook", 12, "Early bird offer", 55),
    ("social_b", "t1", "x", 1, "Launch thread", 20),
];

/// The networks in the report's order, with the names the page shows.
const NETWORKS: [(&str, &str); 3] = [
    ("facebook", "Facebook"),
    ("instagram", "Instagram"),
    ("x", "X"),
];

/// The UTC day `days_ago` days before `today`.
fn day(today: Timestamp, days_ago: i64) -> String {
    today.minus_millis(days_ago * DAY_MS).day()
}

/// What people call a kind (the kind table's label, which the page shows).
fn label(kind: &str) -> &'static str {
    KINDS
        .iter()
        .find(|spec| spec.wire == kind)
        .map(|spec| spec.label)
        .unwrap()
}

/// The kinds the Demand page lists as sources, in the kind table's order, with their labels.
fn demand_sources() -> Value {
    KINDS
        .iter()
        .filter(|spec| !spec.demand.is_empty())
        .map(|spec| json!({"kind": spec.wire, "label": spec.label}))
        .collect()
}

fn in_window(days_ago: i64, window: i64) -> bool {
    (0..window).contains(&days_ago)
}

/// A share as the dashboard shows it: whole percent from 10%, one decimal below.
fn percent(share: f64) -> String {
    if share >= 0.1 || share == 0.0 {
        format!("{:.0}%", share * 100.0)
    } else {
        format!("{:.1}%", share * 100.0)
    }
}

fn snapshot(day: String, metric: &str, dimension: &str, value: f64) -> SnapshotRow {
    SnapshotRow {
        day,
        metric: metric.to_owned(),
        dimension: dimension.to_owned(),
        value,
        detail: None,
    }
}

/// Everything the sources' runs would have stored, each under its own kind.
async fn seed_stored_runs(app: &TestApp, product_id: &str) {
    let today = app.clock.now();
    let mut by_kind: BTreeMap<&str, Vec<SnapshotRow>> = BTreeMap::new();
    for (kind, ago, query, clicks, impressions, position) in QUERY_DAYS {
        let rows = by_kind.entry(kind).or_default();
        rows.push(snapshot(
            day(today, ago),
            SEARCH_CLICKS,
            query,
            clicks as f64,
        ));
        rows.push(snapshot(
            day(today, ago),
            SEARCH_IMPRESSIONS,
            query,
            impressions as f64,
        ));
        if position > 0.0 {
            rows.push(snapshot(day(today, ago), SEARCH_POSITION, query, position));
        }
    }
    for (kind, ago, keyword, position, volume, url) in RANKS {
        let rows = by_kind.entry(kind).or_default();
        rows.push(SnapshotRow {
            detail: url.map(str::to_owned),
            ..snapshot(day(today, ago), KEYWORD_POSITION, keyword, position)
        });
        rows.push(snapshot(
            day(today, ago),
            KEYWORD_VOLUME,
            keyword,
            volume as f64,
        ));
    }
    for (keyword, position, competitor) in GAPS {
        by_kind.entry("geo_a").or_default().push(SnapshotRow {
            detail: Some(competitor.to_owned()),
            ..snapshot(day(today, 2), COMPETITOR_POSITION, keyword, position)
        });
    }
    for (kind, ago, metric, value) in WHOLES {
        by_kind
            .entry(kind)
            .or_default()
            .push(snapshot(day(today, ago), metric, "", value));
    }
    let mut engine_days: BTreeMap<i64, Vec<f64>> = BTreeMap::new();
    for (ago, engine, visibility) in ENGINES {
        by_kind.entry("geo_a").or_default().push(snapshot(
            day(today, ago),
            AI_VISIBILITY,
            engine,
            visibility,
        ));
        engine_days.entry(ago).or_default().push(visibility);
    }
    for (ago, values) in engine_days {
        let mean = values.iter().sum::<f64>() / values.len() as f64;
        by_kind.entry("geo_a").or_default().push(snapshot(
            day(today, ago),
            AI_VISIBILITY,
            "",
            mean,
        ));
    }
    // Social sources write each network's part and the day's whole.
    let mut social_wholes: BTreeMap<(&str, i64, &str), f64> = BTreeMap::new();
    for (kind, ago, network, impressions, engagement) in SOCIAL_DAYS {
        let rows = by_kind.entry(kind).or_default();
        rows.push(snapshot(
            day(today, ago),
            SOCIAL_IMPRESSIONS,
            network,
            impressions as f64,
        ));
        rows.push(snapshot(
            day(today, ago),
            SOCIAL_ENGAGEMENT,
            network,
            engagement as f64,
        ));
        *social_wholes
            .entry((kind, ago, SOCIAL_IMPRESSIONS))
            .or_default() += impressions as f64;
        *social_wholes
            .entry((kind, ago, SOCIAL_ENGAGEMENT))
            .or_default() += engagement as f64;
    }
    for (kind, ago, network, followers) in FOLLOWERS {
        by_kind.entry(kind).or_default().push(snapshot(
            day(today, ago),
            SOCIAL_FOLLOWERS,
            network,
            followers as f64,
        ));
        *social_wholes
            .entry((kind, ago, SOCIAL_FOLLOWERS))
            .or_default() += followers as f64;
    }
    for ((kind, ago, metric), value) in social_wholes {
        by_kind
            .entry(kind)
            .or_default()
            .push(snapshot(day(today, ago), metric, "", value));
    }
    let mut posts: BTreeMap<&str, Vec<SocialPostRow>> = BTreeMap::new();
    for (kind, id, network, ago, text, engagement) in POSTS {
        posts.entry(kind).or_default().push(SocialPostRow {
            post_id: id.to_owned(),
            network: network.to_owned(),
            published_at: today.minus_millis(ago * DAY_MS).millis(),
            permalink: Some(format!("https://social.example/{network}/{id}")),
            text: Some(text.to_owned()),
            media_type: None,
            engagement,
        });
    }
    let mut tx = app.state.store.begin().await.unwrap();
    for (kind, rows) in by_kind {
        snapshots::upsert(&mut tx, product_id, kind, &rows, today)
            .await
            .unwrap();
    }
    for (kind, rows) in posts {
        social_posts::upsert(&mut tx, product_id, kind, &rows, today)
            .await
            .unwrap();
    }
    tx.commit().await.unwrap();
}

/// A connection of the first SEO tool, booked as having synced successfully just now.
async fn connect_seo_tool(app: &TestApp, account_id: &str, product_id: &str) {
    let now = app.clock.now();
    let scope = AccountScope::trusted(account_id.to_owned());
    let mut tx = app.state.store.begin().await.unwrap();
    let (id, _) = connections::upsert(
        &mut tx,
        &scope,
        NewConnection {
            product_id,
            kind: "seo_a",
            status: "active",
            config: "{}",
            credential_id: None,
            event_maps: None,
        },
        now,
    )
    .await
    .unwrap();
    tx.commit().await.unwrap();
    let db = &app.state.store;
    assert!(connections::claim(db, &id, "e2e", now).await.unwrap());
    let booked = RunOutcome::Succeeded {
        backfill_days: 30,
        detail: "seeded",
    };
    let next = now.plus_millis(DAY_MS);
    assert!(
        connections::finish(db, &id, "e2e", booked, now, next)
            .await
            .unwrap()
    );
}

async fn ingest_funnel(app: &TestApp, key: &str) {
    let at = Timestamp::parse_day(&day(app.clock.now(), 2))
        .unwrap()
        .plus_millis(10 * 3_600_000);
    let events: Vec<Value> = EVENTS
        .iter()
        .enumerate()
        .map(|(i, (id, stage, person))| {
            let occurred = at.plus_millis(i as i64 * 60_000).to_rfc3339();
            let mut event = json!({"dedupe_id": id, "stage": stage, "user_id": person,
                                   "occurred_at": occurred});
            if *stage == "converted" {
                event["value"] = json!(4_900);
            }
            event
        })
        .collect();
    app.post(
        &format!("/products/{SLUG}/events"),
        Some(key),
        json!({ "events": events }),
    )
    .await
    .expect(200);
}

/// What the Demand page shows for `window` days: the funnel's values with each step's
/// conversion text, the query rows as the table's cells (counts raw, for the script to format
/// in the browser's locale), the ranks, AI visibility and authority.
fn expected_demand(window: i64) -> Value {
    // (clicks, impressions, Σ position × impressions, impressions with a position)
    let mut sums: BTreeMap<(&str, &str), (i64, i64, f64, i64)> = BTreeMap::new();
    for (kind, ago, query, clicks, impressions, position) in QUERY_DAYS {
        if !in_window(ago, window) {
            continue;
        }
        let sum = sums.entry((kind, query)).or_default();
        sum.0 += clicks;
        sum.1 += impressions;
        if position > 0.0 {
            sum.2 += position * impressions as f64;
            sum.3 += impressions;
        }
    }
    let mut rows: Vec<_> = sums.into_iter().collect();
    rows.sort_by_key(|row| std::cmp::Reverse((row.1.0, row.1.1)));
    let queries: Vec<Value> = rows
        .iter()
        .map(
            |((kind, query), (clicks, impressions, weighted, positioned))| {
                let position = if *positioned > 0 {
                    format!("{:.1}", weighted / *positioned as f64)
                } else {
                    "—".to_owned()
                };
                json!({"query": query, "source": label(kind), "clicks": clicks,
                   "impressions": impressions, "position": position})
            },
        )
        .collect();
    let clicks: i64 = rows.iter().map(|row| row.1.0).sum();
    let impressions: i64 = rows.iter().map(|row| row.1.1).sum();
    let stage = |name: &str| EVENTS.iter().filter(|event| event.1 == name).count() as i64;
    let steps = [
        ("impressions", impressions),
        ("clicks", clicks),
        ("visits", stage("visit")),
        ("leads", stage("lead")),
        ("customers", stage("converted")),
    ];
    let funnel: Vec<Value> = steps
        .iter()
        .enumerate()
        .map(|(i, (step, value))| {
            let conversion = (i > 0).then(|| percent(*value as f64 / steps[i - 1].1 as f64));
            json!({"step": step, "value": value, "conversion": conversion})
        })
        .collect();

    let mut ranks: Vec<Rank> = RANKS.to_vec();
    ranks.sort_by(|a, b| a.3.total_cmp(&b.3));
    let ranks: Vec<Value> = ranks
        .iter()
        .map(|(kind, _, keyword, position, volume, url)| {
            json!({"keyword": keyword, "position": format!("{position:.1}"), "volume": volume,
                   "url": url, "source": label(kind)})
        })
        .collect();
    // All unranked, so ordered by keyword.
    let mut gaps: Vec<(&str, f64, &str)> = GAPS.to_vec();
    gaps.sort_by(|a, b| a.0.cmp(b.0));
    let gaps: Vec<Value> = gaps
        .iter()
        .map(|(keyword, position, competitor)| {
            json!([
                keyword,
                "not ranked",
                competitor,
                format!("{position:.1}"),
                "—",
                label("geo_a")
            ])
        })
        .collect();
    let latest = ENGINES.iter().map(|engine| engine.0).min().unwrap_or(0);
    let mut engines: Vec<(&str, f64)> = ENGINES
        .iter()
        .filter(|engine| engine.0 == latest)
        .map(|engine| (engine.1, engine.2))
        .collect();
    engines.sort_by(|a, b| a.0.cmp(b.0));
    let score = engines.iter().map(|engine| engine.1).sum::<f64>() / engines.len() as f64;
    let whole = |metric: &str| {
        WHOLES
            .iter()
            .find(|reading| reading.2 == metric)
            .map(|reading| reading.3)
            .unwrap()
    };
    json!({
        "window": window,
        "funnel": funnel,
        "queries": queries,
        "ranks": ranks,
        "gaps": gaps,
        "ai": {
            "score": format!("{score:.1}"),
            "site_health": format!("{:.1}", whole(SITE_HEALTH)),
            "engines": engines.iter().map(|(engine, visibility)| json!({"engine": engine,
                "visibility": format!("{visibility:.1}")})).collect::<Vec<_>>(),
        },
        "authority": {
            "domain_rating": format!("{:.1}", whole(DOMAIN_RATING)),
            "backlinks": whole(BACKLINKS) as i64,
            "referring_domains": whole(REFERRING_DOMAINS) as i64,
            "rank": whole(DOMAIN_RANK) as i64,
            "organic_keywords": whole(ORGANIC_KEYWORDS) as i64,
            "organic_traffic": whole(ORGANIC_TRAFFIC) as i64,
        },
    })
}

/// What the Social page shows for `window` days: followers and their change (a count stands
/// until the next; the change starts from the count standing when the window began, or the
/// first read inside it), each network's row, and the posts most engaged first.
fn expected_social(window: i64) -> Value {
    let mut audience = Vec::new();
    let mut networks = Vec::new();
    for (network, name) in NETWORKS {
        let mut reads: Vec<(i64, i64)> = FOLLOWERS
            .iter()
            .filter(|read| read.2 == network)
            .map(|read| (read.1, read.3))
            .collect();
        // Oldest first.
        reads.sort_by_key(|read| std::cmp::Reverse(read.0));
        let now = reads.last().map_or(0, |read| read.1);
        let start = reads
            .iter()
            .rfind(|read| read.0 >= window)
            .or_else(|| reads.first())
            .map_or(0, |read| read.1);
        let sum = |pick: fn(&(&str, i64, &str, i64, i64)) -> i64| -> i64 {
            SOCIAL_DAYS
                .iter()
                .filter(|row| row.2 == network && in_window(row.1, window))
                .map(pick)
                .sum()
        };
        let impressions = sum(|row| row.3);
        let engagement = sum(|row| row.4);
        audience.push((now, now - start));
        networks.push(json!({"network": network, "name": name, "followers": now,
            "impressions": impressions, "engagement": engagement,
            "rate": percent(engagement as f64 / impressions as f64)}));
    }
    let mut posts: Vec<_> = POSTS
        .iter()
        .filter(|post| in_window(post.3, window))
        .collect();
    posts.sort_by(|a, b| b.5.cmp(&a.5).then(a.3.cmp(&b.3)));
    let posts: Vec<Value> = posts
        .iter()
        .map(|(_, id, network, _, text, engagement)| {
            json!({"id": id, "network": network, "text": text, "engagement": engagement,
                   "permalink": format!("https://social.example/{network}/{id}")})
        })
        .collect();
    json!({
        "window": window,
        "followers": audience.iter().map(|a| a.0).sum::<i64>(),
        "followers_change": audience.iter().map(|a| a.1).sum::<i64>(),
        "networks": networks,
        "posts": posts,
    })
}

async fn demand_and_social_pages(backend: Backend) {
    let app = spawn_on_wall_clock(backend, |_| {}, |_| {}).await;
    let email = "demand@example.com";
    let owner = app.signup_verified(email).await;
    app.create_product(&owner.token, SLUG).await;
    app.create_product(&owner.token, EMPTY_SLUG).await;
    let key = app.api_key(&owner).await;
    let product_id = app
        .get(&format!("/products/{SLUG}"), Some(&key))
        .await
        .expect(200)["product_id"]
        .as_str()
        .unwrap()
        .to_owned();
    seed_stored_runs(&app, &product_id).await;
    connect_seo_tool(&app, &owner.account_id, &product_id).await;
    ingest_funnel(&app, &key).await;

    let demand: Vec<Value> = WINDOWS.iter().map(|w| expected_demand(*w)).collect();
    let social: Vec<Value> = WINDOWS.iter().map(|w| expected_social(*w)).collect();
    let env = [
        ("PAYBACK_E2E_EMAIL", email.to_owned()),
        ("PAYBACK_E2E_SLUG", SLUG.to_owned()),
        ("PAYBACK_E2E_EMPTY_SLUG", EMPTY_SLUG.to_owned()),
        ("PAYBACK_E2E_CONNECTED_KIND", "seo_a".to_owned()),
        ("PAYBACK_E2E_DEMAND_SOURCES", demand_sources().to_string()),
        ("PAYBACK_E2E_DEMAND", Value::Array(demand).to_string()),
        ("PAYBACK_E2E_SOCIAL", Value::Array(social).to_string()),
    ];
    run_browser_script_with_env(&app, "dashboard-reports-demand", &env).await;
}

per_backend!(demand_and_social_pages);
