//! The demo workspace: created once with months of synthetic traffic, spend and revenue for its
//! three products, consistent between events and spend, and never duplicated by a rerun, on
//! both backends.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

use payback_domain::{Clock, DAY_MS};
use payback_server::crypto::hash_password;
use payback_server::demo::{demo_password, ensure_demo};
use payback_testkit::{TestApp, backend_tests};
use serde_json::{Value, json};

const SLUGS: [&str; 3] = ["fjord-notes", "pixel-pantry", "quill-crm"];

async fn scalar(app: &TestApp, sql: &str, product_id: &str) -> i64 {
    app.sql_value(sql, &[product_id.into()]).await
}

type SpendKey = (String, String, Option<String>, Option<String>, String);
type SpendTuple = (
    String,
    String,
    Option<String>,
    Option<String>,
    String,
    i64,
    i64,
);

/// Spend rows of a product: (channel, campaign_name, keyword, ad_name, day) -> (clicks, spend).
async fn spend_rows(app: &TestApp, product_id: &str) -> BTreeMap<SpendKey, (i64, i64)> {
    let sql = "SELECT channel, campaign_name, keyword, ad_name, day, clicks, spend_cents FROM spend_rows WHERE product_id = $1";
    let rows: Vec<SpendTuple> = app.sql_rows(sql, &[product_id.into()]).await;
    rows.into_iter()
        .map(|(channel, campaign, keyword, ad, day, clicks, spend)| {
            ((channel, campaign, keyword, ad, day), (clicks, spend))
        })
        .collect()
}

fn parse(text: &str) -> Vec<BTreeMap<String, String>> {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_owned)
        .collect();
    reader
        .records()
        .map(|r| {
            header
                .iter()
                .cloned()
                .zip(r.unwrap().iter().map(str::to_owned))
                .collect()
        })
        .collect()
}

async fn export(app: &TestApp, key: &str, slug: &str, what: &str) -> Vec<BTreeMap<String, String>> {
    let reply = app
        .get(&format!("/products/{slug}/export/{what}.csv"), Some(key))
        .await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    parse(&reply.text)
}

/// Table row counts of one product, to compare before and after a rerun: events and
/// transactions first, then what the other areas' seeds wrote.
const COUNTED: [&str; 9] = [
    "events",
    "transactions",
    "spend_rows",
    "identity_profiles",
    "snapshots",
    "landing_pages",
    "landing_page_filters",
    "landing_page_analyses",
    "scorecard_manual_cells",
];

async fn counts(app: &TestApp, product_id: &str) -> [i64; COUNTED.len()] {
    let mut out = [0; COUNTED.len()];
    for (slot, table) in COUNTED.iter().enumerate() {
        let sql = format!("SELECT COUNT(*) FROM {table} WHERE product_id = $1");
        out[slot] = scalar(app, &sql, product_id).await;
    }
    out
}

fn sum(rows: &[BTreeMap<String, String>], keep: impl Fn(&BTreeMap<String, String>) -> bool) -> i64 {
    rows.iter()
        .filter(|r| keep(r))
        .map(|r| r["amount_cents"].parse::<i64>().unwrap())
        .sum()
}

/// Every paid visit names an ad that has a spend row that day with at least that many clicks.
fn paid_visits_match_spend(
    slug: &str,
    events: &[BTreeMap<String, String>],
    spend: &BTreeMap<SpendKey, (i64, i64)>,
) -> usize {
    let mut visits: BTreeMap<SpendKey, i64> = BTreeMap::new();
    for event in events.iter().filter(|e| e["channel"].starts_with("paid_")) {
        let campaign = event["utm_campaign"].clone();
        let key = match event["channel"].as_str() {
            "paid_google" => {
                assert!(!event["gclid"].is_empty(), "{slug}: {event:?}");
                (
                    "paid_google".to_owned(),
                    campaign,
                    Some(event["utm_term"].clone()),
                    None,
                    event["day"].clone(),
                )
            }
            channel => {
                if channel == "paid_meta" {
                    assert!(!event["fbclid"].is_empty(), "{slug}: {event:?}");
                    assert_eq!(event["utm_medium"], "paid_social");
                }
                (
                    channel.to_owned(),
                    campaign,
                    None,
                    Some(event["utm_content"].clone()),
                    event["day"].clone(),
                )
            }
        };
        *visits.entry(key).or_default() += 1;
    }
    for (key, count) in &visits {
        let (clicks, spend) = spend
            .get(key)
            .unwrap_or_else(|| panic!("{slug}: no spend row for paid visits {key:?}"));
        assert!(
            clicks >= count,
            "{slug}: {key:?} {clicks} clicks < {count} visits"
        );
        assert!(*spend > 0, "{slug}: {key:?}");
    }
    visits.len()
}

/// The demand report's keyword gaps, from the rank tracker's latest check (today): the three
/// tracked keywords a competitor outranks the product for, the one it ranks nowhere for first,
/// then the widest gap; its own name, where it leads, is no gap.
fn assert_gaps(slug: &str, demand: &Value, today: &str) {
    let gaps: Vec<(String, Option<f64>, f64, String, i64)> = demand["gaps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|gap| {
            assert_eq!(gap["source"], "geo_a", "{slug}: {gap}");
            assert_eq!(gap["as_of"], today, "{slug}: {gap}");
            (
                gap["keyword"].as_str().unwrap().to_owned(),
                gap["position"].as_f64(),
                gap["competitor_position"].as_f64().unwrap(),
                gap["competitor"].as_str().unwrap().to_owned(),
                gap["volume"].as_i64().unwrap(),
            )
        })
        .collect();
    let expected = vec![
        (
            "ad spend payback calculator".to_owned(),
            None,
            5.0,
            "growthgauge.example".to_owned(),
            2_700,
        ),
        (
            "best tool for small teams".to_owned(),
            Some(9.0),
            3.0,
            "teamtally.example".to_owned(),
            9_000,
        ),
        (
            format!("{slug} alternative"),
            Some(4.0),
            2.0,
            "stackwise.example".to_owned(),
            1_800,
        ),
    ];
    assert_eq!(gaps, expected, "{slug}");
}

/// Friction per thousand first-party visits the demo's replay tool counted: (path, rage
/// clicks, dead clicks, script errors).
const FRICTION_PER_MILLE: [(&str, i64, i64, i64); 3] = [
    ("/", 5, 20, 25),
    ("/pricing", 60, 40, 10),
    ("/features", 10, 50, 5),
];

/// The landing pages: four pages tracked by hand, each with the first-party visits of its path
/// over the default 30 days, the blog excluded by the one filter, the home page's analysis,
/// friction on the three busiest paths at their rates of those visits (none on the blog), and
/// recordings of that friction, which a page's detail lists too.
async fn assert_landing_pages(
    app: &TestApp,
    key: &str,
    slug: &str,
    product_id: &str,
    cutoff: &str,
) {
    let list = app
        .get(&format!("/products/{slug}/landing-pages"), Some(key))
        .await
        .expect(200)
        .clone();
    let pages = list["pages"].as_array().unwrap();
    let paths: Vec<&str> = pages.iter().map(|p| p["path"].as_str().unwrap()).collect();
    assert_eq!(
        paths,
        ["/", "/pricing", "/features", "/blog/getting-started"],
        "{slug}"
    );
    let filters = list["filters"].as_array().unwrap();
    assert_eq!(filters.len(), 1, "{slug}");
    assert_eq!(
        (&filters[0]["pattern"], &filters[0]["enabled"]),
        (&json!("/blog"), &json!(true))
    );
    let sql = "SELECT CAST(COALESCE(SUM(visits), 0) AS BIGINT) FROM landing_path_days \
               WHERE product_id = $1 AND path = $2 AND day >= $3";
    let mut all_visits = 0;
    for page in pages {
        let path = page["path"].as_str().unwrap();
        let visits: i64 = app
            .sql_value(sql, &[product_id.into(), path.into(), cutoff.into()])
            .await;
        assert!(visits > 0, "{slug} {path}: no visits");
        all_visits += visits;
        assert_eq!(page["traffic"]["visits"], visits, "{slug} {path}");
        assert_eq!(page["source"], "manual");
        assert_eq!(page["is_excluded"], path == "/blog/getting-started");
        assert_eq!(
            page["latest_analysis"].is_null(),
            path != "/",
            "{slug} {path}"
        );
        let friction = &page["friction"];
        match FRICTION_PER_MILLE.iter().find(|(p, ..)| *p == path) {
            Some((_, rage, dead, errors)) => {
                let counted = (
                    friction["rage_clicks"].as_i64().unwrap(),
                    friction["dead_clicks"].as_i64().unwrap(),
                    friction["js_errors"].as_i64().unwrap(),
                );
                let expected = (
                    visits * rage / 1000,
                    visits * dead / 1000,
                    visits * errors / 1000,
                );
                assert_eq!(counted, expected, "{slug} {path} of {visits} visits");
                assert!(counted.1 > 0, "{slug} {path}: no friction");
                assert_eq!(friction["providers"], json!(["replay_a"]));
            }
            None => assert!(friction.is_null(), "{slug} {path}: {friction}"),
        }
    }
    // The pages' visits are some of the product's visits, which are more than its signups.
    let events_sql = |stage: &str| {
        format!(
            "SELECT COUNT(*) FROM events WHERE product_id = $1 AND stage = '{stage}' AND day >= '{cutoff}'"
        )
    };
    let visits = scalar(app, &events_sql("visit"), product_id).await;
    let signups = scalar(app, &events_sql("signup"), product_id).await;
    assert!(
        all_visits <= visits && signups < visits,
        "{slug}: {all_visits} {visits} {signups}"
    );
    let analysis = &pages[0]["latest_analysis"];
    assert_eq!(analysis["status"], "ok");
    // (20·82 + 20·74 + 20·68 + 15·45 + 15·80 + 10·55) / 100 = 69.05
    assert_eq!(analysis["overall_score"], 69);
    assert_eq!(analysis["scores"].as_array().unwrap().len(), 6);

    let recordings = app
        .get(&format!("/products/{slug}/recordings?days=30"), Some(key))
        .await
        .expect(200)["recordings"]
        .as_array()
        .unwrap()
        .clone();
    assert!(!recordings.is_empty(), "{slug}");
    for recording in &recordings {
        assert_eq!(recording["provider"], "product_analytics_a");
        let path = recording["path"].as_str().unwrap();
        let signal = match path {
            "/" => "js_error",
            "/pricing" => "rage_click",
            "/features" => "dead_click",
            other => panic!("{slug}: a recording on {other}"),
        };
        assert_eq!(recording["signals"], json!([signal]), "{slug}");
        assert!(recording["started_at"].as_str().unwrap() >= cutoff);
        assert!(recording["duration_s"].as_i64().unwrap() > 0);
    }
    for page in &pages[..3] {
        let path = page["path"].as_str().unwrap();
        let id = page["id"].as_str().unwrap();
        let detail = app
            .get(&format!("/products/{slug}/landing-pages/{id}"), Some(key))
            .await
            .expect(200)
            .clone();
        let on_path: Vec<&Value> = recordings.iter().filter(|r| r["path"] == path).collect();
        let listed: Vec<&Value> = detail["recordings"].as_array().unwrap().iter().collect();
        assert_eq!(listed, on_path, "{slug} {path}");
        assert_eq!(detail["friction"], page["friction"], "{slug} {path}");
    }
}

/// What the founder typed into the demo scorecard's manual row, oldest week first.
const TYPED: [f64; 8] = [3.0, 4.0, 2.0, 5.0, 3.0, 4.0, 6.0, 4.0];

/// The scorecard: the default template's first-party sections and the founder's manual row
/// with the typed values; each week has no more signups than visits.
async fn assert_scorecard(app: &TestApp, key: &str, slug: &str) {
    let matrix = app
        .get(&format!("/products/{slug}/scorecard"), Some(key))
        .await
        .expect(200)
        .clone();
    assert!(matrix["template"].is_null(), "{slug}");
    let sections = matrix["sections"].as_array().unwrap();
    let keys: Vec<&str> = sections
        .iter()
        .map(|s| s["key"].as_str().unwrap())
        .collect();
    assert_eq!(keys, ["funnel", "revenue", "founder"], "{slug}");
    // The default 13 completed weeks, the typed values in the last of them.
    let weeks = matrix["weeks"].as_array().unwrap().len();
    assert_eq!(weeks, 13, "{slug}");
    let row = |metric: &str| -> Vec<Option<f64>> {
        sections
            .iter()
            .flat_map(|s| s["rows"].as_array().unwrap())
            .find(|r| r["metric"] == metric)
            .unwrap_or_else(|| panic!("{slug}: no {metric} row"))["values"]
            .as_array()
            .unwrap()
            .iter()
            .map(|cell| cell["value"].as_f64())
            .collect()
    };
    let mut typed = vec![None; weeks - TYPED.len()];
    typed.extend(TYPED.map(Some));
    assert_eq!(row("customer_interviews"), typed, "{slug}");
    let visits = row("visits");
    let signups = row("signups");
    assert_eq!(visits.len(), weeks);
    for (visits, signups) in visits.iter().zip(&signups) {
        let (visits, signups) = (visits.unwrap(), signups.unwrap());
        assert!(
            signups <= visits,
            "{slug}: {visits} visits, {signups} signups"
        );
    }
    // Even the youngest product (six weeks) has visits in each of the last four weeks.
    assert!(
        visits[weeks - 4..].iter().all(|v| v.unwrap() > 0.0),
        "{slug}: {visits:?}"
    );
}

async fn demo_is_created_once_with_months_of_data(app: TestApp) {
    let started = Instant::now();
    let access = ensure_demo(&app.state).await.unwrap();
    eprintln!(
        "demo on {:?}: {} events in {:?}",
        app.backend,
        access.seeded_events,
        started.elapsed()
    );
    assert!(access.created);
    assert!(access.seeded_events > 10_000, "{}", access.seeded_events);

    let reply = app.get("/portfolio", Some(access.api_key.expose())).await;
    let portfolio = reply.expect(200).as_array().unwrap().clone();
    let ids: BTreeMap<String, String> = portfolio
        .iter()
        .map(|row| {
            (
                row["slug"].as_str().unwrap().to_owned(),
                row["product_id"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        ids.keys().map(String::as_str).collect::<Vec<_>>(),
        SLUGS.to_vec()
    );
    // The portfolio metrics come from another report; whatever they read, they are numbers.
    assert!(portfolio.iter().all(|row| row["spend_30d_cents"].is_i64()));

    let now = app.clock.now();
    let cutoff = now.minus_millis(29 * DAY_MS).day();
    let mut before = BTreeMap::new();
    let mut totals = BTreeMap::new();
    for slug in SLUGS {
        let id = &ids[slug];
        for table in ["events", "transactions", "spend_rows"] {
            let sql =
                format!("SELECT COUNT(*) FROM {table} WHERE product_id = $1 AND day >= '{cutoff}'");
            let recent = scalar(&app, &sql, id).await;
            assert!(recent > 0, "{slug}: no {table} in the last 30 days");
        }
        // Demand has something to show: today's queries, a weekly reading, AI visibility.
        let demand = app
            .get(
                &format!("/products/{slug}/demand?days=30"),
                Some(access.api_key.expose()),
            )
            .await
            .expect(200)
            .clone();
        assert!(
            demand["funnel"]["impressions"].as_i64().unwrap() > 0,
            "{slug}"
        );
        assert_eq!(demand["queries"].as_array().unwrap().len(), 5, "{slug}");
        let ranks_of = |source: &str| {
            demand["ranks"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|rank| rank["source"] == source)
                .count()
        };
        assert_eq!((ranks_of("seo_a"), ranks_of("geo_a")), (5, 3), "{slug}");
        assert_gaps(slug, &demand, &now.day());
        assert_eq!(
            demand["ai_visibility"]["engines"].as_array().unwrap().len(),
            3,
            "{slug}"
        );
        assert!(demand["authority"]["rank"].is_i64(), "{slug}");
        let key = access.api_key.expose();
        assert_landing_pages(&app, key, slug, id, &cutoff).await;
        assert_scorecard(&app, key, slug).await;
        let table_counts = counts(&app, id).await;
        let events = export(&app, access.api_key.expose(), slug, "events").await;
        let revenue = export(&app, access.api_key.expose(), slug, "transactions").await;
        assert_eq!(events.len() as i64, table_counts[0], "{slug}");
        assert_eq!(revenue.len() as i64, table_counts[1], "{slug}");
        assert!(revenue.iter().any(|r| r["day"] >= cutoff), "{slug}");
        // Nothing lies in the future, and everything carries the demo's dedupe ids.
        let today = now.day();
        assert!(
            events
                .iter()
                .all(|e| e["day"] <= today && e["dedupe_id"].starts_with("demo-"))
        );

        // Honest gaps: revenue without an identity, identities never attributed, refunds.
        assert!(revenue.iter().any(|r| r["identity"].is_empty()), "{slug}");
        assert!(revenue.iter().any(|r| r["kind"] == "refund") || slug == "fjord-notes");
        let never = scalar(
            &app,
            "SELECT COUNT(*) FROM identity_profiles WHERE product_id = $1 AND first_channel IS NULL",
            id,
        )
        .await;
        assert!(never > 0, "{slug}: every identity has a channel");
        // Anonymous visits were linked to users at signup.
        let linked = scalar(
            &app,
            "SELECT COUNT(*) FROM identity_links WHERE product_id = $1",
            id,
        )
        .await;
        assert!(linked > 0, "{slug}");

        let spend = spend_rows(&app, id).await;
        let units = paid_visits_match_spend(slug, &events, &spend);
        assert!(units > 0, "{slug}: no paid visits");
        let spend_by_channel = |channel: &str| -> i64 {
            spend
                .iter()
                .filter(|(k, _)| k.0 == channel)
                .map(|(_, (_, cents))| cents)
                .sum()
        };
        let first_days: BTreeSet<&str> = events.iter().map(|e| e["day"].as_str()).collect();
        totals.insert(
            slug,
            (
                sum(&revenue, |_| true),
                spend_by_channel("paid_google")
                    + spend_by_channel("paid_meta")
                    + spend_by_channel("paid_linkedin"),
                sum(&revenue, |r| r["first_channel"] == "paid_meta"),
                spend_by_channel("paid_meta"),
                events.len(),
                first_days.first().map(|d| (*d).to_owned()),
            ),
        );
        before.insert(slug, table_counts);
    }

    // The shapes: Pixel Pantry pays back, Quill CRM burns money on Meta, Fjord Notes is young.
    eprintln!("(revenue, spend, meta revenue, meta spend, events, first day): {totals:?}");
    let pixel = &totals["pixel-pantry"];
    assert!(
        pixel.0 > pixel.1,
        "pixel-pantry revenue {} <= spend {}",
        pixel.0,
        pixel.1
    );
    let quill = &totals["quill-crm"];
    assert!(
        quill.3 > 2 * quill.2,
        "quill-crm meta spend {} vs revenue {}",
        quill.3,
        quill.2
    );
    let fjord = &totals["fjord-notes"];
    assert!(fjord.4 * 3 < pixel.4 && fjord.4 * 3 < quill.4);
    let fjord_start = fjord.5.clone().unwrap();
    assert!(
        fjord_start >= now.minus_millis(45 * DAY_MS).day(),
        "{fjord_start}"
    );
    let pixel_start = pixel.5.clone().unwrap();
    assert!(
        pixel_start <= now.minus_millis(150 * DAY_MS).day(),
        "{pixel_start}"
    );

    // The queue waits with two agent proposals; the first job pass adds the gate review and
    // whatever alerts the data calls for.
    let cards = app
        .get("/queue", Some(access.api_key.expose()))
        .await
        .expect(200)
        .clone();
    let proposals: BTreeSet<(String, String)> = cards
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["card_type"] == "proposal")
        .map(|c| {
            (
                c["product_slug"].as_str().unwrap().to_owned(),
                c["proposed_by"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let expected = [("pixel-pantry", "keeper"), ("quill-crm", "keeper")];
    assert_eq!(
        proposals,
        expected
            .iter()
            .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
            .collect()
    );
    let policy = app
        .get("/policy", Some(access.api_key.expose()))
        .await
        .expect(200)
        .clone();
    assert_eq!(policy["portfolio_ceiling_cents"], 40_000);
    payback_server::jobs::run_due(&app.state, "demo-test")
        .await
        .unwrap();
    let cards = app
        .get("/queue", Some(access.api_key.expose()))
        .await
        .expect(200)
        .clone();
    assert!(
        cards
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["card_type"] == "gate_result" && c["product_slug"] == "fjord-notes"),
        "{cards}"
    );

    // A later rerun: nothing new, a fresh key, the old key revoked.
    app.clock.advance(DAY_MS);
    let again = ensure_demo(&app.state).await.unwrap();
    assert!(!again.created);
    assert_eq!(again.seeded_events, 0);
    assert_ne!(again.api_key, access.api_key);
    assert_eq!(
        app.get("/portfolio", Some(access.api_key.expose()))
            .await
            .status,
        401
    );
    let rows: Value = app
        .get("/portfolio", Some(again.api_key.expose()))
        .await
        .expect(200)
        .clone();
    assert_eq!(rows.as_array().unwrap().len(), 3);
    for slug in SLUGS {
        assert_eq!(
            counts(&app, &ids[slug]).await,
            before[slug],
            "{slug} changed on rerun"
        );
    }

    // The rerun prints the password of the first run, and it signs in.
    assert_eq!(again.password, access.password);
    let login = |password: &str| {
        app.post(
            "/auth/login",
            None,
            json!({ "email": access.email, "password": password }),
        )
    };
    assert_eq!(login(access.password.expose()).await.status, 200);
    assert_eq!(login(OLD_CONSTANT).await.status, 401);

    // A demo owner still on the old constant (a database from before): the next run sets the
    // kept password and signs out whoever used the constant.
    let old_hash = hash_password(OLD_CONSTANT.to_owned()).await.unwrap();
    let set = "UPDATE users SET password_hash = $1 WHERE email = $2";
    app.sql_execute(set, &[(&old_hash).into(), access.email.into()])
        .await;
    let reply = login(OLD_CONSTANT).await;
    let token = reply.expect(200)["token"].as_str().unwrap().to_owned();
    let third = ensure_demo(&app.state).await.unwrap();
    assert_eq!(third.password, access.password);
    assert_eq!(login(OLD_CONSTANT).await.status, 401);
    assert_eq!(login(access.password.expose()).await.status, 200);
    assert_eq!(app.get("/auth/me", Some(&token)).await.status, 401);
}

/// The password every demo printed before issue 19.
const OLD_CONSTANT: &str = "payback-demo";

/// The demo password is chosen at random per database and kept: the same on every run of one
/// database, another on another database, never the old constant. A database whose demo
/// owner still has the old constant gets the kept password at the next run, and the sessions
/// of before are signed out.
async fn demo_password_is_random_per_database_and_kept(app: TestApp) {
    let first = demo_password(&app.state).await.unwrap();
    let again = demo_password(&app.state).await.unwrap();
    assert_eq!(first, again);
    assert_ne!(first.expose(), OLD_CONSTANT);
    assert!(first.expose().len() >= 20, "{}", first.expose());
    assert_eq!(format!("{first:?}"), "<redacted>");
    let other = TestApp::spawn(app.backend).await;
    let elsewhere = demo_password(&other.state).await.unwrap();
    assert_ne!(elsewhere, first);
    assert_ne!(elsewhere.expose(), OLD_CONSTANT);
}

backend_tests!(
    demo_is_created_once_with_months_of_data,
    demo_password_is_random_per_database_and_kept
);
