//! The scorecard tests' data: funnel events, revenue, ad spend and search and social readings
//! spread over eight ISO weeks (with events on both sides of week edges, at Sunday 23:59:59.999
//! and Monday 00:00 UTC), and the weekly figures computed from them with plain loops.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use payback_domain::{Clock, DAY_MS, Timestamp};
use payback_store::snapshots::SnapshotRow;
use payback_store::spend::SpendRow;
use payback_testkit::TestApp;
use serde_json::{Value, json};

/// Monday 2026-09-28, the first day of 2026-W40; the test clock stands on Saturday
/// 2026-11-21 (2026-W47, in progress), so W40-W46 are seven completed weeks.
pub const FIRST_MONDAY_MS: i64 = 1_790_553_600_000;
pub const FIRST_WEEK: u32 = 40;

/// One ingested event.
#[derive(Debug, Clone)]
pub struct Event {
    pub dedupe_id: String,
    pub stage: &'static str,
    pub at: Timestamp,
    pub user: Option<String>,
    pub anonymous: Option<String>,
    pub value: Option<i64>,
}

impl Event {
    pub fn to_json(&self) -> Value {
        let mut event = json!({
            "dedupe_id": self.dedupe_id,
            "stage": self.stage,
            "occurred_at": self.at.to_rfc3339(),
        });
        if let Some(user) = &self.user {
            event["user_id"] = json!(user);
        }
        if let Some(anonymous) = &self.anonymous {
            event["anonymous_id"] = json!(anonymous);
        }
        if let Some(value) = self.value {
            event["value"] = json!(value);
        }
        event
    }

    fn identity(&self) -> Option<String> {
        match (&self.user, &self.anonymous) {
            (Some(user), _) => Some(format!("u:{user}")),
            (None, Some(anonymous)) => Some(format!("a:{anonymous}")),
            (None, None) => None,
        }
    }
}

/// Everything the tests ingest.
#[derive(Debug, Clone, Default)]
pub struct Data {
    pub events: Vec<Event>,
    pub spend: Vec<(String, i64)>,
    /// (day, query, clicks, impressions).
    pub search: Vec<(String, &'static str, f64, f64)>,
    /// (day, followers).
    pub followers: Vec<(String, f64)>,
}

/// A small deterministic generator (an LCG), so the data is the same every run.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % below
    }
}

fn day(at_ms: i64) -> String {
    Timestamp::from_millis(at_ms).day()
}

/// The data: 90 users (visits, leads, signups, payments, some paying twice), 30 anonymous
/// visitors, 12 identity-less visits, events at week edges, spend, search and followers
/// every day from the first Monday to the clock's day.
pub fn generate(now: Timestamp) -> Data {
    let mut rng = Lcg(40);
    let start = FIRST_MONDAY_MS;
    let span = now.millis() - start;
    let mut data = Data::default();
    let mut id = 0;
    let mut push = |data: &mut Data, stage, at: i64, user: Option<String>, anonymous, value| {
        id += 1;
        data.events.push(Event {
            dedupe_id: format!("e{id}"),
            stage,
            at: Timestamp::from_millis(at.min(now.millis() - 1)),
            user,
            anonymous,
            value,
        });
    };
    for u in 0..90 {
        let user = Some(format!("user{u}"));
        let visit = start + rng.next(span as u64) as i64;
        push(&mut data, "visit", visit, user.clone(), None, None);
        if rng.next(3) == 0 {
            // A second visit a day or two later: the same identity, maybe the same week.
            let again = visit + (1 + rng.next(2) as i64) * DAY_MS;
            push(&mut data, "visit", again, user.clone(), None, None);
        }
        if rng.next(2) == 0 {
            let lead = visit + rng.next(3 * DAY_MS as u64) as i64;
            push(&mut data, "lead", lead, user.clone(), None, None);
        }
        if rng.next(5) < 3 {
            let signup = visit + rng.next(6 * DAY_MS as u64) as i64;
            push(&mut data, "signup", signup, user.clone(), None, None);
            if rng.next(2) == 0 {
                let paid = signup + rng.next(9 * DAY_MS as u64) as i64;
                let value = 1_000 + rng.next(9_000) as i64;
                push(&mut data, "payment", paid, user.clone(), None, Some(value));
                if rng.next(3) == 0 {
                    let renewal = paid + 7 * DAY_MS;
                    push(
                        &mut data,
                        "payment",
                        renewal,
                        user.clone(),
                        None,
                        Some(value),
                    );
                }
            }
        }
    }
    for a in 0..30 {
        let at = start + rng.next(span as u64) as i64;
        push(&mut data, "visit", at, None, Some(format!("anon{a}")), None);
    }
    for _ in 0..12 {
        let at = start + rng.next(span as u64) as i64;
        push(&mut data, "visit", at, None, None, None);
    }
    // Week edges: the last millisecond of a Sunday and the first of the Monday after, for an
    // identity that is active on both sides (it counts once in each week) and for revenue.
    for week in 1..6 {
        let monday = start + week * 7 * DAY_MS;
        let edge_user = Some(format!("edge{week}"));
        push(
            &mut data,
            "visit",
            monday - 1,
            edge_user.clone(),
            None,
            None,
        );
        push(&mut data, "visit", monday, edge_user.clone(), None, None);
        push(
            &mut data,
            "signup",
            monday - 1,
            edge_user.clone(),
            None,
            None,
        );
        push(
            &mut data,
            "payment",
            monday,
            edge_user,
            None,
            Some(2_500 + week),
        );
    }
    let mut at = start;
    while at <= now.millis() {
        data.spend.push((day(at), 500 + rng.next(20_000) as i64));
        data.search.push((
            day(at),
            "pricing",
            rng.next(40) as f64,
            100.0 + rng.next(900) as f64,
        ));
        data.search.push((
            day(at),
            "payback",
            rng.next(25) as f64,
            50.0 + rng.next(500) as f64,
        ));
        data.followers
            .push((day(at), 1_000.0 + (at - start) as f64 / DAY_MS as f64 * 3.0));
        at += DAY_MS;
    }
    data
}

impl Data {
    /// Sends the events (in batches of 100, the first batch twice: a retry counts once) and
    /// writes spend and snapshots through the store, as syncs would.
    pub async fn load(&self, app: &TestApp, key: &str, product_id: &str) {
        let batches: Vec<Vec<Value>> = self
            .events
            .chunks(100)
            .map(|chunk| chunk.iter().map(Event::to_json).collect())
            .collect();
        for batch in &batches {
            app.send_events(key, "shop", Value::from(batch.clone()))
                .await;
        }
        app.send_events(key, "shop", Value::from(batches[0].clone()))
            .await;
        let now = app.clock.now();
        let spend: Vec<SpendRow> = self
            .spend
            .iter()
            .map(|(day, cents)| SpendRow {
                day: day.clone(),
                network: "google".to_owned(),
                channel: "paid_google".to_owned(),
                campaign_id: "c1".to_owned(),
                spend_cents: *cents,
                ..SpendRow::default()
            })
            .collect();
        let search: Vec<SnapshotRow> = self
            .search
            .iter()
            .flat_map(|(day, query, clicks, impressions)| {
                [
                    ("search_clicks", *clicks),
                    ("search_impressions", *impressions),
                ]
                .map(|(metric, value)| SnapshotRow {
                    day: day.clone(),
                    metric: metric.to_owned(),
                    dimension: (*query).to_owned(),
                    value,
                    detail: None,
                })
            })
            .collect();
        let followers: Vec<SnapshotRow> = self
            .followers
            .iter()
            .map(|(day, value)| SnapshotRow {
                day: day.clone(),
                metric: "social_followers".to_owned(),
                dimension: String::new(),
                value: *value,
                detail: None,
            })
            .collect();
        let mut tx = app.state.store.begin().await.unwrap();
        payback_store::spend::upsert(&mut tx, product_id, "test", &spend, now)
            .await
            .unwrap();
        payback_store::snapshots::upsert(&mut tx, product_id, "search_console", &search, now)
            .await
            .unwrap();
        payback_store::snapshots::upsert(&mut tx, product_id, "social_a", &followers, now)
            .await
            .unwrap();
        tx.commit().await.unwrap();
    }
}

/// `2026-Www` of a week index counted from the first Monday.
pub fn week_key(index: usize) -> String {
    format!("2026-W{:02}", FIRST_WEEK as usize + index)
}

/// The week index of an instant or a day.
fn week_of_ms(at: i64) -> usize {
    usize::try_from((at - FIRST_MONDAY_MS).div_euclid(7 * DAY_MS)).unwrap()
}

fn week_of_day(day: &str) -> usize {
    week_of_ms(Timestamp::parse_day(day).unwrap().millis())
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// Nearest cent, halves away from zero.
fn div_round(n: i64, d: i64) -> i64 {
    let q = n as f64 / d as f64;
    q.round() as i64
}

/// Each catalog metric's expected value per week index (`None` for null), computed from the
/// data alone.
pub fn expected(data: &Data, weeks: usize) -> BTreeMap<&'static str, Vec<Option<f64>>> {
    let mut volume: HashMap<(usize, &str), (BTreeSet<String>, i64)> = HashMap::new();
    let mut first_paid: HashMap<String, i64> = HashMap::new();
    let mut revenue = vec![0i64; weeks];
    let mut customer_revenue = 0i64;
    for event in &data.events {
        let week = week_of_ms(event.at.millis());
        let identity = event.identity();
        if week < weeks {
            let cell = volume.entry((week, event.stage)).or_default();
            match &identity {
                Some(identity) => {
                    cell.0.insert(identity.clone());
                }
                None => cell.1 += 1,
            }
            if let Some(value) = event.value {
                revenue[week] += value;
            }
        }
        if event.stage == "payment"
            && let Some(identity) = identity
        {
            customer_revenue += event.value.unwrap_or(0);
            let first = first_paid.entry(identity).or_insert(event.at.millis());
            *first = (*first).min(event.at.millis());
        }
    }
    let mut customers = vec![0i64; weeks];
    for at in first_paid.values() {
        if week_of_ms(*at) < weeks {
            customers[week_of_ms(*at)] += 1;
        }
    }
    let ltv = div_round(customer_revenue, first_paid.len() as i64);
    let mut spend = vec![0i64; weeks];
    for (day, cents) in &data.spend {
        if week_of_day(day) < weeks {
            spend[week_of_day(day)] += cents;
        }
    }
    let mut clicks = vec![0f64; weeks];
    let mut impressions = vec![0f64; weeks];
    for (day, _, c, i) in &data.search {
        if week_of_day(day) < weeks {
            clicks[week_of_day(day)] += c;
            impressions[week_of_day(day)] += i;
        }
    }
    let mut followers = vec![0f64; weeks];
    for (day, value) in &data.followers {
        // Days are in order: the week's last reading stays.
        if week_of_day(day) < weeks {
            followers[week_of_day(day)] = *value;
        }
    }
    let stage = |week: usize, stage: &str| {
        volume
            .get(&(week, stage))
            .map_or(0, |(ids, anonymous)| ids.len() as i64 + anonymous)
    };
    let mut out: BTreeMap<&'static str, Vec<Option<f64>>> = BTreeMap::new();
    for week in 0..weeks {
        let visits = stage(week, "visit");
        let leads = stage(week, "lead");
        let signups = stage(week, "signup");
        let cac = (customers[week] > 0).then(|| div_round(spend[week], customers[week]));
        let values: [(&'static str, Option<f64>); 14] = [
            ("visits", Some(visits as f64)),
            ("leads", Some(leads as f64)),
            ("signups", Some(signups as f64)),
            ("customers", Some(customers[week] as f64)),
            ("revenue", Some(revenue[week] as f64)),
            (
                "visit_to_signup",
                (visits > 0).then(|| round2(signups as f64 * 100.0 / visits as f64)),
            ),
            (
                "signup_to_customer",
                (signups > 0).then(|| round2(customers[week] as f64 * 100.0 / signups as f64)),
            ),
            ("spend", Some(spend[week] as f64)),
            ("cac", cac.map(|c| c as f64)),
            (
                "roas",
                (spend[week] > 0).then(|| round2(revenue[week] as f64 / spend[week] as f64)),
            ),
            (
                "ltv_cac",
                cac.filter(|c| *c != 0)
                    .map(|c| round2(ltv as f64 / c as f64)),
            ),
            ("search_clicks", Some(clicks[week].round())),
            ("search_impressions", Some(impressions[week].round())),
            ("social_followers", Some(followers[week].round())),
        ];
        for (metric, value) in values {
            out.entry(metric).or_default().push(value);
        }
    }
    out
}
