//! Cohort payback: weekly acquisition cohorts (customers, spend, CAC, cumulative revenue per
//! cohort-day, payback day) and 90-day CAC per first-touch channel, checked against an oracle
//! computed straight from the synthetic events and spend, and on hand-made edge cases, on both
//! backends.

use std::collections::{BTreeMap, HashMap};

use payback_domain::span::Span;
use payback_domain::{Clock, DAY_MS, Stage, Timestamp};
use payback_store::spend::SpendRow;
use payback_testkit::synthetic::{self, Dataset, SynthConfig};
use payback_testkit::{TestApp, backend_tests};
use serde_json::{Value, json};

const WEEKS: i64 = 26;
const POINTS: [i64; 6] = [0, 7, 14, 30, 60, 90];

fn rounded(numerator: i64, denominator: i64) -> i64 {
    (numerator as f64 / denominator as f64).round() as i64
}

/// Midnight of the Monday of `at`'s week, counted from a known Monday (2026-11-16).
fn monday_of(at: Timestamp) -> Timestamp {
    let known_monday = Timestamp::parse_day("2026-11-16").unwrap().millis();
    let days = (at.start_of_day().millis() - known_monday) / DAY_MS;
    let back = days.rem_euclid(7);
    Timestamp::from_millis(at.start_of_day().millis() - back * DAY_MS)
}

/// Customers (identity -> acquisition instant, revenue rows) and first touches, from the
/// dataset's events alone.
struct People {
    acquired: HashMap<String, Timestamp>,
    revenue: HashMap<String, Vec<(Timestamp, i64)>>,
    first_touch: HashMap<String, &'static str>,
}

fn people(dataset: &Dataset) -> People {
    let mut links: HashMap<&str, &str> = HashMap::new();
    for event in &dataset.events {
        if let (Some(anonymous), Some(user)) = (&event.anonymous_id, &event.user_id) {
            links.entry(anonymous).or_insert(user);
        }
    }
    let mut acquired: HashMap<String, Timestamp> = HashMap::new();
    let mut revenue: HashMap<String, Vec<(Timestamp, i64)>> = HashMap::new();
    let mut touches: HashMap<String, (Timestamp, &'static str)> = HashMap::new();
    for event in &dataset.events {
        let identity = match (&event.user_id, &event.anonymous_id) {
            (Some(user), _) => format!("u:{user}"),
            (None, Some(anonymous)) => match links.get(anonymous.as_str()) {
                Some(user) => format!("u:{user}"),
                None => format!("a:{anonymous}"),
            },
            (None, None) => continue,
        };
        if matches!(event.stage, Stage::Converted | Stage::Payment) {
            let at = acquired
                .entry(identity.clone())
                .or_insert(event.occurred_at);
            *at = (*at).min(event.occurred_at);
            if let Some(value) = event.value {
                revenue
                    .entry(identity.clone())
                    .or_default()
                    .push((event.occurred_at, value));
            }
        }
        if let Some(channel) = event.intended_channel {
            let touch = touches
                .entry(identity)
                .or_insert((event.occurred_at, channel));
            if event.occurred_at < touch.0 {
                *touch = (event.occurred_at, channel);
            }
        }
    }
    People {
        acquired,
        revenue,
        first_touch: touches.into_iter().map(|(k, (_, c))| (k, c)).collect(),
    }
}

/// The whole expected report, computed from events and spend rows.
fn oracle(now: Timestamp, events: &People, spend: &[SpendRow]) -> Value {
    let today = now.start_of_day();
    let this_monday = monday_of(now);
    let mut cohorts = Vec::new();
    for back in (0..WEEKS).rev() {
        let monday = this_monday.minus_millis(back * 7 * DAY_MS);
        let next = monday.plus_millis(7 * DAY_MS);
        let members: Vec<(&String, &Timestamp)> = events
            .acquired
            .iter()
            .filter(|(_, at)| monday <= **at && **at < next)
            .collect();
        let customers = members.len() as i64;
        let spent: i64 = spend
            .iter()
            .filter(|row| {
                let day = Timestamp::parse_day(&row.day).unwrap();
                monday <= day && day < next
            })
            .map(|row| row.spend_cents)
            .sum();
        let mut points = Vec::new();
        let mut payback_day = Value::Null;
        for d in POINTS {
            // Observable once day d after the week's last day has ended.
            if next.plus_millis(d * DAY_MS) > today {
                continue;
            }
            let cumulative: i64 = members
                .iter()
                .map(|(identity, at)| {
                    let cutoff = at.start_of_day().plus_millis((d + 1) * DAY_MS);
                    events
                        .revenue
                        .get(*identity)
                        .map(|rows| {
                            rows.iter()
                                .filter(|(when, _)| *when < cutoff)
                                .map(|(_, v)| v)
                                .sum::<i64>()
                        })
                        .unwrap_or(0)
                })
                .sum();
            if payback_day.is_null() && customers > 0 && cumulative >= spent {
                payback_day = json!(d);
            }
            points.push(json!({
                "day": d,
                "cumulative_revenue_cents": cumulative,
                "per_customer_cents": (customers > 0).then(|| rounded(cumulative, customers)),
            }));
        }
        cohorts.push(json!({
            "cohort": monday.day(),
            "customers": customers,
            "spend_cents": spent,
            "cac_cents": (customers > 0).then(|| rounded(spent, customers)),
            "points": points,
            "payback_day": payback_day,
        }));
    }

    let span = Span::days_ending(now, 90);
    let mut channels: BTreeMap<String, (i64, i64)> = BTreeMap::new();
    for row in spend {
        let day = Timestamp::parse_day(&row.day).unwrap();
        if span.start <= day && day < span.end {
            channels.entry(row.channel.clone()).or_default().0 += row.spend_cents;
        }
    }
    let mut unattributed: Option<(i64, i64)> = None;
    for (identity, at) in &events.acquired {
        if !(span.start <= *at && *at < span.end) {
            continue;
        }
        match events.first_touch.get(identity) {
            Some(channel) => channels.entry((*channel).to_owned()).or_default().1 += 1,
            None => unattributed.get_or_insert((0, 0)).1 += 1,
        }
    }
    let row = |channel: &str, (spend_cents, customers): (i64, i64)| {
        json!({
            "channel": channel,
            "spend_cents": spend_cents,
            "customers": customers,
            // `unattributed` never has spend of its own: its CAC is unknown, never 0.
            "cac_cents": (customers > 0 && channel != "unattributed").then(|| rounded(spend_cents, customers)),
        })
    };
    let mut cac: Vec<Value> = channels.into_iter().map(|(c, t)| row(&c, t)).collect();
    if let Some(totals) = unattributed {
        cac.push(row("unattributed", totals));
    }
    json!({ "cohorts": cohorts, "cac": cac })
}

async fn synthetic_cohorts_and_cac_match_the_oracle(app: TestApp) {
    let mut seen_unattributed = false;
    for (index, seed) in [5_u64, 17, 42].into_iter().enumerate() {
        let session = app
            .signup_verified(&format!("founder{index}@example.com"))
            .await;
        let key = app.api_key(&session).await;
        let slug = format!("synth-{seed}");
        app.create_product(&key, &slug).await;
        let config = SynthConfig {
            seed,
            identities: 160,
            days: 200,
        };
        let dataset = synthetic::generate(config, app.clock.now());
        dataset.load(&app, &key, &slug).await;
        let expected = oracle(dataset.now, &people(&dataset), &dataset.spend);

        let reply = app
            .get(&format!("/products/{slug}/payback"), Some(&key))
            .await;
        let body = reply.expect(200).clone();
        let cohorts = body["cohorts"].as_array().unwrap();
        assert_eq!(cohorts.len(), 26, "seed {seed}");
        assert_eq!(cohorts[25]["cohort"], "2026-11-16", "the current week last");
        assert_eq!(cohorts[0]["cohort"], "2026-05-25");
        for (got, want) in cohorts.iter().zip(expected["cohorts"].as_array().unwrap()) {
            assert_eq!(got, want, "seed {seed}: cohort {}", want["cohort"]);
        }
        assert_eq!(body["cac"], expected["cac"], "seed {seed}: cac");

        // The oracle's data really exercises every part of the report.
        let with_customers = cohorts
            .iter()
            .filter(|c| c["customers"].as_i64().unwrap() > 0);
        assert!(with_customers.count() > 10, "seed {seed}");
        assert!(
            cohorts
                .iter()
                .any(|c| c["points"].as_array().unwrap().len() == 6),
            "seed {seed}: some cohort shows its 90-day point"
        );
        assert!(cohorts[25]["points"].as_array().unwrap().is_empty());
        assert!(
            cohorts.iter().any(|c| c["payback_day"].is_number()),
            "seed {seed}: some cohort paid back"
        );
        assert!(
            cohorts
                .iter()
                .any(|c| c["payback_day"].is_null() && c["points"].as_array().unwrap().len() > 2),
            "seed {seed}: some cohort has not paid back"
        );
        let cac = body["cac"].as_array().unwrap();
        let linkedin = cac
            .iter()
            .find(|r| r["channel"] == "paid_linkedin")
            .unwrap();
        assert_eq!(linkedin["customers"], 0);
        assert_eq!(
            linkedin["cac_cents"],
            Value::Null,
            "spend without customers: null, never 0"
        );
        seen_unattributed |= cac.iter().any(|r| r["channel"] == "unattributed");
        app.clock.advance(1);
    }
    assert!(seen_unattributed, "some seed has customers with no channel");
}

fn spend_row(day: &str, channel: &str, cents: i64) -> SpendRow {
    SpendRow {
        day: day.to_owned(),
        network: channel.trim_start_matches("paid_").to_owned(),
        channel: channel.to_owned(),
        spend_cents: cents,
        ..SpendRow::default()
    }
}

async fn write_spend(app: &TestApp, token: &str, rows: &[SpendRow]) {
    let product = app.get("/products/shop", Some(token)).await;
    let product_id = product.body["product_id"].as_str().unwrap().to_owned();
    let mut tx = app.state.store.begin().await.unwrap();
    payback_store::spend::upsert(&mut tx, &product_id, "test", rows, app.clock.now())
        .await
        .unwrap();
    tx.commit().await.unwrap();
}

async fn hand_made_cohorts_pay_back_on_the_right_day(app: TestApp) {
    let session = app.signup_verified("founder@example.com").await;
    let key = app.api_key(&session).await;
    app.create_product(&key, "shop").await;

    // Nothing yet: 26 empty weeks, null CAC and payback, no CAC rows.
    let empty = app
        .get("/products/shop/payback", Some(&session.token))
        .await;
    let empty = empty.expect(200).clone();
    assert_eq!(empty["cac"], json!([]));
    let oldest = &empty["cohorts"][0];
    assert_eq!(oldest["customers"], 0);
    assert_eq!(oldest["cac_cents"], Value::Null);
    assert_eq!(oldest["payback_day"], Value::Null);
    assert_eq!(
        oldest["points"][0],
        json!({"day": 0, "cumulative_revenue_cents": 0, "per_customer_cents": null})
    );

    // Week of 2026-10-05: two customers and 10,000 of spend.
    app.send_events(&key, "shop", json!([
            {"dedupe_id": "v1", "stage": "visit", "anonymous_id": "a1", "occurred_at": "2026-10-04T10:00:00Z",
             "attribution": {"utm_source": "google", "utm_medium": "cpc"}},
            {"dedupe_id": "s1", "stage": "signup", "anonymous_id": "a1", "user_id": "u1", "occurred_at": "2026-10-05T09:00:00Z"},
            // Acquired late on Monday: day 0 runs to Monday's end, day 7 to the next Monday's end.
            {"dedupe_id": "c1", "stage": "converted", "user_id": "u1", "value": 3000, "occurred_at": "2026-10-05T23:00:00Z"},
            {"dedupe_id": "p1", "stage": "payment", "user_id": "u1", "value": 3000, "occurred_at": "2026-10-12T23:59:00Z"},
            {"dedupe_id": "p1b", "stage": "payment", "user_id": "u1", "value": 3000, "occurred_at": "2026-10-13T00:01:00Z"},
            // No channel ever; acquired by a converted event with no value.
            {"dedupe_id": "c2", "stage": "converted", "user_id": "u2", "occurred_at": "2026-10-11T12:00:00Z"},
            {"dedupe_id": "p2", "stage": "payment", "user_id": "u2", "value": 1000, "occurred_at": "2026-10-20T12:00:00Z"},
            // Revenue without an identity is nobody's cohort.
            {"dedupe_id": "x1", "stage": "payment", "value": 99900, "occurred_at": "2026-10-06T12:00:00Z"},
            // Week of 2026-11-09: one customer through a channel that spent nothing.
            {"dedupe_id": "v3", "stage": "visit", "user_id": "u3", "occurred_at": "2026-11-09T08:00:00Z",
             "attribution": {"channel": "podcast"}},
            {"dedupe_id": "c3", "stage": "converted", "user_id": "u3", "value": 500, "occurred_at": "2026-11-09T09:00:00Z"},
            // A customer acquired before the 90-day CAC window.
            {"dedupe_id": "c4", "stage": "converted", "user_id": "u4", "value": 100, "occurred_at": "2026-08-01T09:00:00Z"},
        ]),
    )
    .await;
    write_spend(
        &app,
        &session.token,
        &[
            spend_row("2026-10-05", "paid_google", 6000),
            spend_row("2026-10-11", "paid_meta", 4000),
            spend_row("2026-10-12", "paid_meta", 700),
            spend_row("2026-08-01", "paid_google", 900),
        ],
    )
    .await;

    let reply = app.get("/products/shop/payback", Some(&key)).await;
    let body = reply.expect(200).clone();
    let cohorts = body["cohorts"].as_array().unwrap();
    let week = |day: &str| cohorts.iter().find(|c| c["cohort"] == day).unwrap().clone();
    // 2026-10-05 + 7 + 30 = 2026-11-11 <= today; + 60 is not.
    assert_eq!(
        week("2026-10-05"),
        json!({
            "cohort": "2026-10-05", "customers": 2, "spend_cents": 10000, "cac_cents": 5000,
            "points": [
                {"day": 0, "cumulative_revenue_cents": 3000, "per_customer_cents": 1500},
                {"day": 7, "cumulative_revenue_cents": 6000, "per_customer_cents": 3000},
                {"day": 14, "cumulative_revenue_cents": 10000, "per_customer_cents": 5000},
                {"day": 30, "cumulative_revenue_cents": 10000, "per_customer_cents": 5000},
            ],
            "payback_day": 14,
        })
    );
    assert_eq!(
        week("2026-10-12"),
        json!({
            "cohort": "2026-10-12", "customers": 0, "spend_cents": 700, "cac_cents": null,
            "points": [
                {"day": 0, "cumulative_revenue_cents": 0, "per_customer_cents": null},
                {"day": 7, "cumulative_revenue_cents": 0, "per_customer_cents": null},
                {"day": 14, "cumulative_revenue_cents": 0, "per_customer_cents": null},
                {"day": 30, "cumulative_revenue_cents": 0, "per_customer_cents": null},
            ],
            "payback_day": null,
        })
    );
    // Customers at no spend: CAC 0 is honest, and they paid back on day 0. Only day 0 is over
    // for the whole week (its Sunday ended on 2026-11-15).
    assert_eq!(
        week("2026-11-09"),
        json!({
            "cohort": "2026-11-09", "customers": 1, "spend_cents": 0, "cac_cents": 0,
            "points": [{"day": 0, "cumulative_revenue_cents": 500, "per_customer_cents": 500}],
            "payback_day": 0,
        })
    );
    let point_count = |day: &str| week(day)["points"].as_array().unwrap().len();
    assert_eq!(
        point_count("2026-11-16"),
        0,
        "the current week has lived no full day"
    );
    assert_eq!(point_count("2026-11-02"), 2);
    assert_eq!(point_count("2026-10-26"), 3);
    // Before the 90-day CAC window, but a cohort of the report's 26 weeks.
    assert_eq!(week("2026-07-27")["customers"], 1);
    assert_eq!(week("2026-07-27")["spend_cents"], 900);

    assert_eq!(
        body["cac"],
        json!([
            {"channel": "paid_google", "spend_cents": 6000, "customers": 1, "cac_cents": 6000},
            {"channel": "paid_meta", "spend_cents": 4700, "customers": 0, "cac_cents": null},
            {"channel": "podcast", "spend_cents": 0, "customers": 1, "cac_cents": 0},
            {"channel": "unattributed", "spend_cents": 0, "customers": 1, "cac_cents": null},
        ])
    );
}

async fn doors_are_guarded(app: TestApp) {
    let session = app.signup_verified("founder@example.com").await;
    app.create_product(&session.token, "shop").await;
    let stranger = app.signup_verified("stranger@example.com").await;
    let stranger_key = app.api_key(&stranger).await;
    for credential in [stranger.token.as_str(), stranger_key.as_str()] {
        app.get("/products/shop/payback", Some(credential))
            .await
            .expect_error(404, "product");
    }
    app.get("/products/shop/payback", None)
        .await
        .expect_error(401, "bearer");
    app.get("/products/nope/payback", Some(&session.token))
        .await
        .expect_error(404, "product");
    app.get("/products/shop/payback", Some(&session.token))
        .await
        .expect(200);
}

backend_tests!(
    synthetic_cohorts_and_cac_match_the_oracle,
    hand_made_cohorts_pay_back_on_the_right_day,
    doors_are_guarded,
);
