//! GET /products/{slug}/health-report on both backends: synthetic products built to trip each
//! check (one product per situation), every check's status compared with the one the test
//! expects from its own numbers, the evidence carrying those numbers, and the score, grade and
//! category scores recomputed here from the statuses.
//!
//! - `empty`: a product with nothing: every check says how to start, no score.
//! - `revenue`: unattributed and unstitched revenue in each band.
//! - `funnel`: a well-tracked product passing tracking and funnel (then going stale); an empty
//!   step and a stage fed by two sources.
//! - `spend`: spend that does not pay back: LTV:CAC, the CAC trend, click ids, policy caps.
//! - `connections`: payments, databases, ad networks, social pages and the URL suffix rated by
//!   their connections' freshness.
//! - `suffix`: the URL suffix read live from the Google fake, until Payback writes it.
//! - `errors`: `days` bounds named, bearers, another account's product.

use std::collections::BTreeMap;

use payback_domain::Clock;
use payback_domain::connection::ConnectionKind;
use payback_testkit::{Session, TestApp, backend_tests};
use serde_json::{Value, json};

mod connections;
mod empty;
mod errors;
mod funnel;
mod revenue;
mod spend;
mod suffix;

/// Every check the report makes, in its order.
const CHECK_IDS: [&str; 18] = [
    "tracking.events",
    "tracking.payments",
    "tracking.sources",
    "tracking.identity_stitching",
    "tracking.unattributed",
    "funnel.definition",
    "funnel.empty_steps",
    "funnel.primary_conversion",
    "funnel.single_source",
    "advertising.ad_spend",
    "advertising.click_ids",
    "advertising.ltv_cac",
    "advertising.cac_trend",
    "advertising.policy_caps",
    "advertising.url_suffix",
    "seo_social.search_console",
    "seo_social.social_pages",
    "seo_social.seo_metrics",
];

struct Founder {
    session: Session,
    key: String,
}

async fn founder(app: &TestApp, email: &str) -> Founder {
    let session = app.signup_verified(email).await;
    let key = app.api_key(&session).await;
    Founder { session, key }
}

/// Creates the product and answers its id.
async fn product(app: &TestApp, founder: &Founder, slug: &str) -> String {
    app.create_product(&founder.key, slug).await["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// The report, after checking the rules every report keeps.
async fn report(app: &TestApp, key: &str, slug: &str) -> Value {
    let report = app
        .get(&format!("/products/{slug}/health-report"), Some(key))
        .await
        .expect(200)
        .clone();
    assert_consistent(&report);
    report
}

fn checks(report: &Value) -> Vec<&Value> {
    report["categories"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|category| category["checks"].as_array().unwrap())
        .collect()
}

fn check<'a>(report: &'a Value, id: &str) -> &'a Value {
    checks(report)
        .into_iter()
        .find(|check| check["id"] == id)
        .unwrap_or_else(|| panic!("no check {id} in {report:#}"))
}

fn evidence<'a>(report: &'a Value, id: &str) -> &'a str {
    check(report, id)["evidence"].as_str().unwrap()
}

fn statuses(report: &Value) -> BTreeMap<String, String> {
    checks(report)
        .into_iter()
        .map(|check| {
            (
                check["id"].as_str().unwrap().to_owned(),
                check["status"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// The expected statuses: `changed` over `base`; every check named once.
fn expect(base: &[(&str, &str)], changed: &[(&str, &str)]) -> BTreeMap<String, String> {
    let mut expected: BTreeMap<String, String> = base
        .iter()
        .map(|(id, status)| ((*id).to_owned(), (*status).to_owned()))
        .collect();
    for (id, status) in changed {
        assert!(expected.contains_key(*id), "unknown check {id}");
        expected.insert((*id).to_owned(), (*status).to_owned());
    }
    assert_eq!(expected.len(), CHECK_IDS.len());
    expected
}

/// What a product with no data says, check by check (the SEO and social groups depend on which
/// connectors this build has: warn where one of the group's kinds can be connected, skip where
/// none can).
fn nothing_yet(app: &TestApp) -> Vec<(&'static str, &'static str)> {
    let group = |kinds: &[ConnectionKind]| {
        if kinds.iter().any(|kind| app.state.sources.reads(*kind)) {
            "warn"
        } else {
            "skip"
        }
    };
    vec![
        ("tracking.events", "fail"),
        ("tracking.payments", "fail"),
        ("tracking.sources", "skip"),
        ("tracking.identity_stitching", "skip"),
        ("tracking.unattributed", "skip"),
        ("funnel.definition", "warn"),
        ("funnel.empty_steps", "skip"),
        ("funnel.primary_conversion", "fail"),
        ("funnel.single_source", "skip"),
        ("advertising.ad_spend", "skip"),
        ("advertising.click_ids", "skip"),
        ("advertising.ltv_cac", "skip"),
        ("advertising.cac_trend", "skip"),
        ("advertising.policy_caps", "skip"),
        ("advertising.url_suffix", "skip"),
        (
            "seo_social.search_console",
            group(&[ConnectionKind::SearchConsole, ConnectionKind::SearchB]),
        ),
        (
            "seo_social.social_pages",
            group(&[ConnectionKind::SocialA, ConnectionKind::SocialB]),
        ),
        (
            "seo_social.seo_metrics",
            group(&[
                ConnectionKind::SeoA,
                ConnectionKind::SeoB,
                ConnectionKind::GeoA,
            ]),
        ),
    ]
}

/// Points of a status, as docs/health-and-growth.md states them.
fn points(status: &str) -> Option<i64> {
    match status {
        "pass" => Some(100),
        "warn" => Some(50),
        "fail" => Some(0),
        "skip" => None,
        other => panic!("unknown status {other}"),
    }
}

/// The mean of the scoreable statuses' points, rounded half up; `None` when none counts.
fn oracle_score<'a>(statuses: impl Iterator<Item = &'a str>) -> Option<i64> {
    let points: Vec<i64> = statuses.filter_map(points).collect();
    let count = points.len() as i64;
    (count > 0).then(|| (2 * points.iter().sum::<i64>() + count) / (2 * count))
}

fn oracle_grade(score: i64) -> &'static str {
    if score >= 90 {
        "A"
    } else if score >= 75 {
        "B"
    } else if score >= 60 {
        "C"
    } else if score >= 40 {
        "D"
    } else {
        "F"
    }
}

/// The rules of every report: the four categories in order, each check in its category with
/// the spec's fields, an action exactly when not passing, and the scores and grade recomputed
/// from the statuses (null while `has_data` says the product has nothing).
fn assert_consistent(report: &Value) {
    let keys: Vec<&str> = report["categories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|category| category["key"].as_str().unwrap())
        .collect();
    assert_eq!(keys, ["tracking", "funnel", "advertising", "seo_social"]);
    let ids: Vec<&str> = checks(report)
        .iter()
        .map(|check| check["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, CHECK_IDS);
    assert!(report["generated_at"].as_str().is_some());
    let scored = !report["score"].is_null();
    for category in report["categories"].as_array().unwrap() {
        assert!(!category["label"].as_str().unwrap().is_empty());
        let category_checks = category["checks"].as_array().unwrap();
        for check in category_checks {
            assert_eq!(check["category"], category["key"], "{check}");
            assert!(!check["label"].as_str().unwrap().is_empty(), "{check}");
            assert!(!check["evidence"].as_str().unwrap().is_empty(), "{check}");
            let action = check["action"].as_str();
            if check["status"] == "pass" {
                assert_eq!(action, None, "a passing check carries no action: {check}");
            } else {
                assert!(
                    action.is_some_and(|a| !a.is_empty()),
                    "every check short of pass carries its action: {check}"
                );
            }
        }
        let expected = oracle_score(
            category_checks
                .iter()
                .map(|check| check["status"].as_str().unwrap()),
        )
        .filter(|_| scored);
        assert_eq!(category["score"].as_i64(), expected, "{category:#}");
    }
    let expected = oracle_score(
        checks(report)
            .into_iter()
            .map(|check| check["status"].as_str().unwrap()),
    );
    if scored {
        assert_eq!(report["score"].as_i64(), expected);
        let score = report["score"].as_i64().unwrap();
        assert_eq!(report["grade"], oracle_grade(score));
    } else {
        assert_eq!(report["grade"], Value::Null);
    }
}

/// `2026-11-21T08:00:00Z`-style instants `hours` before the test clock's now.
fn hours_ago(app: &TestApp, hours: i64) -> String {
    app.clock.now().minus_millis(hours * 3_600_000).to_rfc3339()
}
