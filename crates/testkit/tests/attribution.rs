#![allow(clippy::unwrap_used)]
//! GET /products/{slug}/attribution, /attribution/sales and /attribution/ads against an
//! independent oracle computed from the synthetic dataset's events (identities resolved here,
//! channels from what the generator intended), plus hand-built edge cases, on both backends.

use std::collections::{BTreeMap, HashMap};

use payback_domain::channel::Attribution;
use payback_domain::{Clock, DAY_MS, Stage, Timestamp};
use payback_store::spend::SpendRow;
use payback_testkit::synthetic::{Dataset, SynthConfig, SynthEvent, generate};
use payback_testkit::{TestApp, backend_tests};
use serde_json::{Value, json};

// ---------- the oracle ----------

struct Ev<'a> {
    index: usize,
    src: &'a SynthEvent,
    at: i64,
    identity: Option<String>,
}

/// The dataset with identities resolved: an anonymous id seen with a user id is that user
/// (first link in arrival order wins); the canonical identity is the user if known.
struct World<'a> {
    events: Vec<Ev<'a>>,
    by_identity: HashMap<String, Vec<usize>>,
    spend: &'a [SpendRow],
}

impl<'a> World<'a> {
    fn new(data: &'a Dataset) -> Self {
        let mut links: HashMap<&str, &str> = HashMap::new();
        for e in &data.events {
            if let (Some(a), Some(u)) = (&e.anonymous_id, &e.user_id) {
                links.entry(a.as_str()).or_insert(u.as_str());
            }
        }
        let mut events = Vec::new();
        let mut by_identity: HashMap<String, Vec<usize>> = HashMap::new();
        for (index, src) in data.events.iter().enumerate() {
            let identity = match (&src.user_id, &src.anonymous_id) {
                (Some(u), _) => Some(format!("u:{u}")),
                (None, Some(a)) => Some(match links.get(a.as_str()) {
                    Some(u) => format!("u:{u}"),
                    None => format!("a:{a}"),
                }),
                (None, None) => None,
            };
            if let Some(id) = &identity {
                by_identity.entry(id.clone()).or_default().push(index);
            }
            let at = src.occurred_at.millis();
            events.push(Ev {
                index,
                src,
                at,
                identity,
            });
        }
        World {
            events,
            by_identity,
            spend: &data.spend,
        }
    }

    fn of(&self, identity: &str) -> impl Iterator<Item = &Ev<'a>> {
        self.by_identity[identity].iter().map(|i| &self.events[*i])
    }

    /// Channel of the earliest channel-bearing event (ties: the first to arrive).
    fn first_touch(&self, identity: Option<&str>) -> Option<&'static str> {
        let best = self
            .of(identity?)
            .filter(|e| e.src.intended_channel.is_some())
            .min_by_key(|e| (e.at, e.index))?;
        best.src.intended_channel
    }

    /// The latest event at or before `at` passing `keep` (ties: the last to arrive).
    fn latest_before(
        &self,
        identity: Option<&str>,
        at: i64,
        keep: impl Fn(&str) -> bool,
    ) -> Option<&Ev<'a>> {
        self.of(identity?)
            .filter(|e| e.at <= at && e.src.intended_channel.is_some_and(&keep))
            .max_by_key(|e| (e.at, e.index))
    }

    fn last_touch(&self, row: &Ev) -> Option<&'static str> {
        let id = row.identity.as_deref();
        self.latest_before(id, row.at, |_| true)
            .and_then(|e| e.src.intended_channel)
            .or_else(|| self.first_touch(id))
    }

    fn acquired_at(&self, identity: &str) -> Option<i64> {
        self.of(identity)
            .filter(|e| matches!(e.src.stage, Stage::Converted | Stage::Payment))
            .map(|e| e.at)
            .min()
    }

    fn revenue(&self, w: &Win) -> impl Iterator<Item = &Ev<'a>> {
        self.events
            .iter()
            .filter(|e| e.src.value.is_some() && w.has(e.at))
    }

    fn customers(&self, w: &Win) -> Vec<(&str, i64)> {
        let mut out: Vec<(&str, i64)> = self
            .by_identity
            .keys()
            .filter_map(|id| Some((id.as_str(), self.acquired_at(id)?)))
            .filter(|(_, at)| w.has(*at))
            .collect();
        out.sort();
        out
    }

    fn spend_in(&self, w: &Win) -> impl Iterator<Item = &SpendRow> {
        self.spend
            .iter()
            .filter(|s| s.day >= w.first_day && s.day <= w.last_day)
    }
}

struct Win {
    start: i64,
    end: i64,
    first_day: String,
    last_day: String,
}

impl Win {
    fn new(now: Timestamp, days: i64) -> Self {
        let end = now.millis() - now.millis().rem_euclid(DAY_MS) + DAY_MS;
        let start = end - days * DAY_MS;
        Win {
            start,
            end,
            first_day: Timestamp::from_millis(start).day(),
            last_day: Timestamp::from_millis(end - 1).day(),
        }
    }

    fn has(&self, at: i64) -> bool {
        self.start <= at && at < self.end
    }
}

fn round_div(n: i64, d: i64) -> i64 {
    assert!(n >= 0 && d > 0);
    (2 * n + d) / (2 * d)
}

fn cac(spend: i64, customers: i64) -> Value {
    if customers == 0 {
        Value::Null
    } else {
        json!(round_div(spend, customers))
    }
}

fn roas(revenue: i64, spend: i64) -> Value {
    if spend == 0 {
        Value::Null
    } else {
        json!(revenue as f64 / spend as f64)
    }
}

const UN: &str = "unattributed";

fn expected_report(world: &World, w: &Win, days: i64) -> Value {
    #[derive(Default)]
    struct Row {
        spend: i64,
        first: i64,
        last: i64,
        tx: i64,
        customers: i64,
    }
    let mut rows: BTreeMap<String, Row> = BTreeMap::new();
    rows.entry(UN.into()).or_default();
    for s in world.spend_in(w) {
        rows.entry(s.channel.clone()).or_default().spend += s.spend_cents;
    }
    for r in world.revenue(w) {
        let value = r.src.value.unwrap();
        let first = world.first_touch(r.identity.as_deref()).unwrap_or(UN);
        let last = world.last_touch(r).unwrap_or(UN);
        let row = rows.entry(first.into()).or_default();
        row.first += value;
        row.tx += 1;
        rows.entry(last.into()).or_default().last += value;
    }
    for (id, _) in world.customers(w) {
        let first = world.first_touch(Some(id)).unwrap_or(UN);
        rows.entry(first.into()).or_default().customers += 1;
    }
    let mut list: Vec<(&String, &Row)> = rows.iter().collect();
    list.sort_by(|a, b| b.1.first.cmp(&a.1.first).then(a.0.cmp(b.0)));
    let channels: Vec<Value> = list
        .iter()
        .map(|(name, r)| {
            let un = name.as_str() == UN;
            json!({"channel": name, "spend_cents": r.spend, "revenue_first_cents": r.first,
                "revenue_last_cents": r.last, "transactions_first": r.tx, "customers_first": r.customers,
                "cac_cents": if un { Value::Null } else { cac(r.spend, r.customers) },
                "roas": if un { Value::Null } else { roas(r.first, r.spend) }})
        })
        .collect();
    let revenue: i64 = rows.values().map(|r| r.first).sum();
    let unattributed = rows[UN].first;
    let in_window: Vec<&Ev> = world.events.iter().filter(|e| w.has(e.at)).collect();
    let mut identities: Vec<&str> = in_window
        .iter()
        .filter_map(|e| e.identity.as_deref())
        .collect();
    identities.sort();
    identities.dedup();
    let revenue_rows: Vec<&Ev> = world.revenue(w).collect();
    json!({
        "window_days": days,
        "channels": channels,
        "totals": {"revenue_cents": revenue, "spend_cents": rows.values().map(|r| r.spend).sum::<i64>(),
            "attributed_first_cents": revenue - unattributed, "unattributed_cents": unattributed},
        "primary_goal": null,
        "coverage": {
            "identities_total": identities.len(),
            "identities_with_channel": identities.iter().filter(|id| world.first_touch(Some(id)).is_some()).count(),
            "events_total": in_window.len(),
            "events_with_channel": in_window.iter().filter(|e| e.src.intended_channel.is_some()).count(),
            "transactions_total": revenue_rows.len(),
            "transactions_with_identity": revenue_rows.iter().filter(|e| e.identity.is_some()).count(),
        },
    })
}

/// Revenue rows of the window, newest first (ties: the later-ingested), as the sales list.
fn expected_sales(world: &World, w: &Win) -> Vec<Value> {
    let mut rows: Vec<&Ev> = world.revenue(w).collect();
    rows.sort_by_key(|e| std::cmp::Reverse((e.at, e.index)));
    rows.iter()
        .map(|e| {
            let value = e.src.value.unwrap();
            json!({"occurred_at": e.src.occurred_at.to_rfc3339(), "day": e.src.occurred_at.day(),
                "amount_cents": value, "currency": "USD", "kind": if value < 0 { "refund" } else { "sale" },
                "stage": e.src.stage.as_str(), "identity": e.identity,
                "first_channel": world.first_touch(e.identity.as_deref()).unwrap_or(UN),
                "last_channel": world.last_touch(e).unwrap_or(UN)})
        })
        .collect()
}

fn dimension(row: &SpendRow, level: &str) -> (String, Option<String>) {
    match level {
        "campaign" => (row.campaign_id.clone(), row.campaign_name.clone()),
        "ad_group" => (row.ad_group_id.clone(), row.ad_group_name.clone()),
        "keyword" => (row.keyword_id.clone(), row.keyword.clone()),
        _ => (row.ad_id.clone(), row.ad_name.clone()),
    }
}

fn tag(a: &Attribution, level: &str) -> Option<String> {
    match level {
        "campaign" => a.utm_campaign.clone(),
        "ad_group" => a.utm_id.clone(),
        "keyword" => a.utm_term.clone(),
        _ => a.utm_content.clone(),
    }
}

/// Where a last paid touch lands: `(channel, id)`, or a sentinel with an empty channel.
fn ad_bucket(world: &World, touch: Option<&Ev>, level: &str) -> (String, String) {
    let Some(touch) = touch else {
        return (String::new(), UN.into());
    };
    let channel = touch.src.intended_channel.unwrap().to_owned();
    let Some(tag) = touch.src.attribution.as_ref().and_then(|a| tag(a, level)) else {
        return (String::new(), "no_dimension".into());
    };
    let dims: Vec<(String, Option<String>)> = world
        .spend
        .iter()
        .filter(|s| s.channel == channel)
        .map(|s| dimension(s, level))
        .collect();
    let id = if dims.iter().any(|(id, _)| *id == tag) {
        tag
    } else {
        dims.iter()
            .find(|(_, name)| name.as_deref() == Some(&tag))
            .map_or(tag, |(id, _)| id.clone())
    };
    (channel, id)
}

fn expected_ads(world: &World, w: &Win, days: i64, level: &str) -> Value {
    #[derive(Default)]
    struct Row {
        name: Option<String>,
        spend: i64,
        imp: i64,
        clicks: i64,
        rev: i64,
        tx: i64,
        cust: i64,
    }
    let sentinel = |id: &str| (String::new(), id.to_owned());
    let mut rows: BTreeMap<(String, String), Row> = BTreeMap::new();
    rows.entry(sentinel("no_dimension")).or_default();
    rows.entry(sentinel(UN)).or_default();
    for s in world.spend_in(w) {
        let (id, name) = dimension(s, level);
        let key = if id.is_empty() {
            sentinel("no_dimension")
        } else {
            (s.channel.clone(), id)
        };
        let row = rows.entry(key.clone()).or_default();
        if !key.0.is_empty() {
            row.name = name;
        }
        row.spend += s.spend_cents;
        row.imp += s.impressions;
        row.clicks += s.clicks;
    }
    let paid = |c: &str| c.starts_with("paid_");
    let mut with_touch = 0;
    let revenue: Vec<&Ev> = world.revenue(w).collect();
    for r in &revenue {
        let touch = world.latest_before(r.identity.as_deref(), r.at, paid);
        with_touch += usize::from(touch.is_some());
        let key = ad_bucket(world, touch, level);
        let row = rows.entry(key.clone()).or_default();
        if row.name.is_none() && !key.0.is_empty() {
            row.name = Some(key.1.clone());
        }
        row.rev += r.src.value.unwrap();
        row.tx += 1;
    }
    for (id, at) in world.customers(w) {
        let key = ad_bucket(world, world.latest_before(Some(id), at, paid), level);
        rows.entry(key).or_default().cust += 1;
    }
    let total_rev: i64 = rows.values().map(|r| r.rev).sum();
    let unattributed = rows[&sentinel(UN)].rev;
    let totals = json!({"spend_cents": rows.values().map(|r| r.spend).sum::<i64>(), "revenue_cents": total_rev,
        "attributed_cents": total_rev - unattributed, "unattributed_cents": unattributed});
    let view = |(channel, id): &(String, String), r: &Row| {
        let is_un = channel.is_empty() && id == UN;
        json!({"id": id, "name": r.name, "channel": if channel.is_empty() { Value::Null } else { json!(channel) },
            "spend_cents": r.spend, "impressions": r.imp, "clicks": r.clicks, "revenue_cents": r.rev,
            "transactions": r.tx, "customers": r.cust,
            "cac_cents": if is_un { Value::Null } else { cac(r.spend, r.cust) }, "roas": roas(r.rev, r.spend)})
    };
    let mut dims: Vec<(&(String, String), &Row)> =
        rows.iter().filter(|(k, _)| !k.0.is_empty()).collect();
    dims.sort_by(|a, b| {
        (b.1.rev, b.1.spend)
            .cmp(&(a.1.rev, a.1.spend))
            .then(a.0.cmp(b.0))
    });
    let mut list: Vec<Value> = dims.into_iter().map(|(k, r)| view(k, r)).collect();
    for id in ["no_dimension", UN] {
        list.push(view(&sentinel(id), &rows[&sentinel(id)]));
    }
    json!({"window_days": days, "level": level, "rows": list, "totals": totals,
        "coverage": {"transactions_total": revenue.len(), "transactions_with_paid_touch": with_touch}})
}

/// JSON equality with floats compared to 1e-9 (relative).
fn assert_close(actual: &Value, expected: &Value, path: &str) {
    match (actual, expected) {
        (Value::Object(a), Value::Object(e)) => {
            let (mut ak, mut ek): (Vec<_>, Vec<_>) = (a.keys().collect(), e.keys().collect());
            ak.sort();
            ek.sort();
            assert_eq!(ak, ek, "{path}: fields differ");
            for (key, value) in e {
                assert_close(&a[key], value, &format!("{path}.{key}"));
            }
        }
        (Value::Array(a), Value::Array(e)) => {
            assert_eq!(
                a.len(),
                e.len(),
                "{path}: lengths differ\nactual {actual}\nexpected {expected}"
            );
            for (i, (x, y)) in a.iter().zip(e).enumerate() {
                assert_close(x, y, &format!("{path}[{i}]"));
            }
        }
        (Value::Number(a), Value::Number(e)) if a.is_f64() || e.is_f64() => {
            let (a, e) = (a.as_f64().unwrap(), e.as_f64().unwrap());
            assert!(
                (a - e).abs() <= 1e-9 * e.abs().max(1.0),
                "{path}: {a} != {e}"
            );
        }
        _ => assert_eq!(actual, expected, "{path}"),
    }
}

// ---------- tests ----------

async fn setup(app: &TestApp, email: &str) -> String {
    let session = app.signup_verified(email).await;
    app.api_key(&session).await
}

async fn get(app: &TestApp, key: &str, path: &str) -> Value {
    app.get(path, Some(key)).await.expect(200).clone()
}

async fn reports_match_the_oracle(app: TestApp) {
    let key = setup(&app, "founder@example.com").await;
    for seed in [3_u64, 11, 29] {
        let slug = format!("shop-{seed}");
        app.create_product(&key, &slug).await;
        let config = SynthConfig {
            seed,
            identities: 120,
            days: 90,
        };
        let data = generate(config, app.clock.now());
        data.load(&app, &key, &slug).await;
        let world = World::new(&data);
        for days in [7_i64, 30, 60] {
            let w = Win::new(data.now, days);
            let base = format!("/products/{slug}/attribution");
            let report = get(&app, &key, &format!("{base}?days={days}")).await;
            let at = format!("seed {seed}, {days} days");
            assert_close(
                &report,
                &expected_report(&world, &w, days),
                &format!("report ({at})"),
            );
            let channels = report["channels"].as_array().unwrap();
            let sum_last: i64 = channels
                .iter()
                .map(|c| c["revenue_last_cents"].as_i64().unwrap())
                .sum();
            assert_eq!(
                sum_last,
                report["totals"]["revenue_cents"].as_i64().unwrap(),
                "{at}"
            );

            // The sales list: everything, a page, and a first-touch filter.
            let all = expected_sales(&world, &w);
            let sales = get(&app, &key, &format!("{base}/sales?days={days}&limit=1000")).await;
            assert_eq!(sales["total"], all.len(), "{at}");
            assert_eq!(sales["window_days"], days);
            let mut got = sales["sales"].as_array().unwrap().clone();
            for row in &mut got {
                assert!(row["id"].as_str().unwrap().parse::<i64>().is_ok());
                row.as_object_mut().unwrap().remove("id");
            }
            assert_eq!(Value::from(got), Value::from(all.clone()), "sales ({at})");
            let page = get(&app, &key, &format!("{base}/sales?days={days}&limit=5")).await;
            assert_eq!(page["total"], all.len());
            assert_eq!(page["sales"].as_array().unwrap().len(), all.len().min(5));
            for channel in ["paid_google", "email", UN] {
                let want: Vec<&Value> = all
                    .iter()
                    .filter(|s| s["first_channel"] == channel)
                    .collect();
                let url = format!("{base}/sales?days={days}&channel={channel}&limit=3");
                let filtered = get(&app, &key, &url).await;
                assert_eq!(filtered["total"], want.len(), "{channel} ({at})");
                let rows = filtered["sales"].as_array().unwrap();
                assert_eq!(rows.len(), want.len().min(3));
                for (row, expected) in rows.iter().zip(&want) {
                    assert_eq!(row["occurred_at"], expected["occurred_at"]);
                    assert_eq!(row["first_channel"], channel);
                }
            }

            for level in ["campaign", "ad_group", "keyword", "ad"] {
                let url = format!("{base}/ads?days={days}&level={level}");
                let ads = get(&app, &key, &url).await;
                let expected = expected_ads(&world, &w, days, level);
                assert_close(&ads, &expected, &format!("ads {level} ({at})"));
                // The ads report and the attribution report agree on revenue and spend.
                assert_eq!(
                    ads["totals"]["revenue_cents"],
                    report["totals"]["revenue_cents"]
                );
                assert_eq!(
                    ads["totals"]["spend_cents"],
                    report["totals"]["spend_cents"]
                );
            }
            let limited = get(&app, &key, &format!("{base}/ads?days={days}&limit=1")).await;
            let rows = limited["rows"].as_array().unwrap();
            let expected = expected_ads(&world, &w, days, "campaign");
            assert_eq!(rows.len(), 3, "one dimension row, then both sentinels");
            assert_close(&rows[0], &expected["rows"][0], "limited first row");
            assert_eq!(rows[1]["id"], "no_dimension");
            assert_eq!(rows[2]["id"], UN);
        }
        // LinkedIn spends and brings nobody: CAC null, never 0; ROAS 0 (spend, no revenue).
        let report = get(&app, &key, &format!("/products/{slug}/attribution")).await;
        let linkedin = report["channels"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["channel"] == "paid_linkedin")
            .unwrap();
        assert!(linkedin["spend_cents"].as_i64().unwrap() > 0);
        assert_eq!(linkedin["customers_first"], 0);
        assert_eq!(linkedin["cac_cents"], Value::Null);
        assert_eq!(linkedin["roas"], json!(0.0));
    }
}

backend_tests!(reports_match_the_oracle);

async fn product_id(app: &TestApp, key: &str, slug: &str) -> String {
    get(app, key, &format!("/products/{slug}")).await["product_id"]
        .as_str()
        .unwrap()
        .to_owned()
}

async fn exec(app: &TestApp, sql: &str) {
    match &app.state.store {
        payback_store::Db::Sqlite(pool) => sqlx::query(sqlx::AssertSqlSafe(sql))
            .execute(pool)
            .await
            .map(drop),
        payback_store::Db::Postgres(pool) => sqlx::query(sqlx::AssertSqlSafe(sql))
            .execute(pool)
            .await
            .map(drop),
    }
    .unwrap();
}

async fn send(app: &TestApp, key: &str, slug: &str, events: Value) {
    app.post(
        &format!("/products/{slug}/events"),
        Some(key),
        json!({ "events": events }),
    )
    .await
    .expect(200);
}

fn zero_channel(channel: &str) -> Value {
    json!({"channel": channel, "spend_cents": 0, "revenue_first_cents": 0, "revenue_last_cents": 0,
        "transactions_first": 0, "customers_first": 0, "cac_cents": null, "roas": null})
}

fn zero_ad(id: &str) -> Value {
    json!({"id": id, "name": null, "channel": null, "spend_cents": 0, "impressions": 0, "clicks": 0,
        "revenue_cents": 0, "transactions": 0, "customers": 0, "cac_cents": null, "roas": null})
}

async fn an_empty_product_reads_zero(app: TestApp) {
    let key = setup(&app, "founder@example.com").await;
    app.create_product(&key, "empty").await;
    let report = get(&app, &key, "/products/empty/attribution").await;
    assert_eq!(
        report,
        json!({"window_days": 30, "channels": [zero_channel(UN)],
            "totals": {"revenue_cents": 0, "spend_cents": 0, "attributed_first_cents": 0, "unattributed_cents": 0},
            "primary_goal": null,
            "coverage": {"identities_total": 0, "identities_with_channel": 0, "events_total": 0,
                "events_with_channel": 0, "transactions_total": 0, "transactions_with_identity": 0}})
    );
    let sales = get(&app, &key, "/products/empty/attribution/sales?days=7").await;
    assert_eq!(sales, json!({"window_days": 7, "total": 0, "sales": []}));
    for level in ["campaign", "ad_group", "keyword", "ad"] {
        let ads = get(
            &app,
            &key,
            &format!("/products/empty/attribution/ads?level={level}"),
        )
        .await;
        assert_eq!(
            ads,
            json!({"window_days": 30, "level": level, "rows": [zero_ad("no_dimension"), zero_ad(UN)],
                "totals": {"spend_cents": 0, "revenue_cents": 0, "attributed_cents": 0, "unattributed_cents": 0},
                "coverage": {"transactions_total": 0, "transactions_with_paid_touch": 0}})
        );
    }
}

fn channel<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["channels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["channel"] == name)
        .unwrap_or_else(|| panic!("no {name} row in {report}"))
}

fn ad<'a>(ads: &'a Value, id: &str) -> &'a Value {
    ads["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == id)
        .unwrap_or_else(|| panic!("no {id} row in {ads}"))
}

fn sale_of<'a>(sales: &'a Value, identity: &str) -> &'a Value {
    sales["sales"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["identity"] == identity)
        .unwrap()
}

async fn honesty_rules_and_late_touches(app: TestApp) {
    let key = setup(&app, "founder@example.com").await;
    app.create_product(&key, "hand").await;
    let id = product_id(&app, &key, "hand").await;
    let email = json!({"utm_source": "newsletter", "utm_medium": "email"});
    send(&app, &key, "hand", json!([
        // Revenue with no identity, and revenue of an identity that never had a channel.
        {"dedupe_id": "anon-pay", "stage": "payment", "value": 1000, "occurred_at": "2026-11-20T10:00:00Z"},
        {"dedupe_id": "plain", "stage": "converted", "user_id": "plain", "value": 2000, "occurred_at": "2026-11-20T11:00:00Z"},
        // A customer from a channel with no spend: CAC 0, ROAS null.
        {"dedupe_id": "m1", "stage": "visit", "user_id": "mail", "attribution": email, "occurred_at": "2026-11-19T09:00:00Z"},
        {"dedupe_id": "m2", "stage": "converted", "user_id": "mail", "value": 3000, "occurred_at": "2026-11-19T10:00:00Z"},
        // A paid click tagged with a campaign no spend row knows.
        {"dedupe_id": "x1", "stage": "visit", "user_id": "meta", "occurred_at": "2026-11-21T08:00:00Z",
         "attribution": {"fbclid": "f", "utm_source": "facebook", "utm_medium": "paid_social", "utm_campaign": "spring"}},
        {"dedupe_id": "x2", "stage": "converted", "name": "pro", "user_id": "meta", "value": 700, "occurred_at": "2026-11-21T09:00:00Z"},
        // u9 pays before any touch is known.
        {"dedupe_id": "pay9", "stage": "payment", "user_id": "u9", "value": 5000, "occurred_at": "2026-11-20T12:00:00Z"},
    ])).await;
    let spend = SpendRow {
        day: "2026-11-20".into(),
        network: "google".into(),
        channel: "paid_google".into(),
        campaign_id: "111".into(),
        campaign_name: Some("g-brand".into()),
        ad_group_id: "1110".into(),
        ad_group_name: Some("brand exact".into()),
        keyword_id: "11101".into(),
        keyword: Some("payback app".into()),
        spend_cents: 4000,
        impressions: 900,
        clicks: 30,
        ..SpendRow::default()
    };
    let mut tx = app.state.store.begin().await.unwrap();
    payback_store::spend::upsert(&mut tx, &id, "test", &[spend], app.clock.now())
        .await
        .unwrap();
    tx.commit().await.unwrap();

    let report = get(&app, &key, "/products/hand/attribution").await;
    assert_eq!(
        channel(&report, UN)["revenue_first_cents"],
        1000 + 2000 + 5000
    );
    assert_eq!(channel(&report, UN)["customers_first"], 2, "plain and u9");
    assert_eq!(channel(&report, UN)["cac_cents"], Value::Null);
    let mail = channel(&report, "email");
    assert_eq!(
        (
            mail["customers_first"].clone(),
            mail["cac_cents"].clone(),
            mail["roas"].clone()
        ),
        (json!(1), json!(0), Value::Null)
    );
    let sales = get(&app, &key, "/products/hand/attribution/sales").await;
    assert_eq!(sale_of(&sales, "u:u9")["first_channel"], UN);
    assert_eq!(sales["sales"][0]["identity"], "u:meta", "newest first");
    let no_identity = sales["sales"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["identity"].is_null())
        .unwrap();
    assert_eq!(
        (
            no_identity["first_channel"].as_str(),
            no_identity["last_channel"].as_str()
        ),
        (Some(UN), Some(UN))
    );

    // An earlier anonymous referral visit, then the link that says it was u9.
    send(&app, &key, "hand", json!([{"dedupe_id": "r9", "stage": "visit", "anonymous_id": "a9",
        "occurred_at": "2026-11-20T09:00:00Z", "attribution": {"referrer": "https://someblog.dev/post"}}])).await;
    let sales = get(&app, &key, "/products/hand/attribution/sales").await;
    assert_eq!(
        sale_of(&sales, "u:u9")["first_channel"],
        UN,
        "not linked yet"
    );
    send(
        &app,
        &key,
        "hand",
        json!([{"dedupe_id": "l9", "stage": "engaged", "anonymous_id": "a9", "user_id": "u9",
        "occurred_at": "2026-11-20T13:00:00Z"}]),
    )
    .await;
    let sales = get(
        &app,
        &key,
        "/products/hand/attribution/sales?channel=referral",
    )
    .await;
    assert_eq!(sales["total"], 1);
    assert_eq!(
        (
            sales["sales"][0]["first_channel"].as_str(),
            sales["sales"][0]["last_channel"].as_str()
        ),
        (Some("referral"), Some("referral"))
    );
    // A late-arriving, even earlier paid click: it becomes the first touch; the last touch
    // before the payment is still the referral.
    send(&app, &key, "hand", json!([{"dedupe_id": "g9", "stage": "visit", "user_id": "u9", "occurred_at": "2026-11-18T09:00:00Z",
        "attribution": {"gclid": "g", "utm_campaign": "g-brand", "utm_id": "1110"}}])).await;
    let sales = get(
        &app,
        &key,
        "/products/hand/attribution/sales?channel=paid_google",
    )
    .await;
    assert_eq!(sales["total"], 1);
    let u9 = sale_of(&sales, "u:u9");
    assert_eq!(
        (u9["first_channel"].as_str(), u9["last_channel"].as_str()),
        (Some("paid_google"), Some("referral"))
    );

    let report = get(&app, &key, "/products/hand/attribution").await;
    let google = channel(&report, "paid_google");
    assert_eq!(
        google,
        &json!({"channel": "paid_google", "spend_cents": 4000, "revenue_first_cents": 5000,
        "revenue_last_cents": 0, "transactions_first": 1, "customers_first": 1, "cac_cents": 4000, "roas": 1.25})
    );
    assert_eq!(channel(&report, "referral")["revenue_last_cents"], 5000);
    assert_eq!(channel(&report, "referral")["revenue_first_cents"], 0);
    let meta = channel(&report, "paid_meta");
    assert_eq!(
        (meta["cac_cents"].clone(), meta["roas"].clone()),
        (json!(0), Value::Null)
    );
    assert_eq!(channel(&report, UN)["revenue_first_cents"], 3000);
    assert_eq!(
        report["totals"],
        json!({"revenue_cents": 11700, "spend_cents": 4000,
        "attributed_first_cents": 8700, "unattributed_cents": 3000})
    );
    assert_eq!(
        report["coverage"],
        json!({"identities_total": 4, "identities_with_channel": 3, "events_total": 10,
        "events_with_channel": 4, "transactions_total": 5, "transactions_with_identity": 4})
    );
    let names: Vec<&str> = report["channels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["channel"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["paid_google", "email", UN, "paid_meta", "referral"],
        "by first-touch revenue, then name"
    );

    let ads = get(&app, &key, "/products/hand/attribution/ads").await;
    assert_eq!(
        ad(&ads, "111"),
        &json!({"id": "111", "name": "g-brand", "channel": "paid_google", "spend_cents": 4000,
        "impressions": 900, "clicks": 30, "revenue_cents": 5000, "transactions": 1, "customers": 1, "cac_cents": 4000, "roas": 1.25})
    );
    let spring = ad(&ads, "spring");
    assert_eq!(
        (
            spring["name"].as_str(),
            spring["channel"].as_str(),
            spring["revenue_cents"].as_i64(),
            spring["roas"].clone()
        ),
        (Some("spring"), Some("paid_meta"), Some(700), Value::Null)
    );
    assert_eq!(ad(&ads, UN)["revenue_cents"], 6000);
    assert_eq!(ad(&ads, UN)["customers"], 2);
    assert_eq!(
        ads["totals"],
        json!({"spend_cents": 4000, "revenue_cents": 11700, "attributed_cents": 5700, "unattributed_cents": 6000})
    );
    assert_eq!(
        ads["coverage"],
        json!({"transactions_total": 5, "transactions_with_paid_touch": 2})
    );
    let groups = get(&app, &key, "/products/hand/attribution/ads?level=ad_group").await;
    assert_eq!(
        ad(&groups, "1110")["revenue_cents"],
        5000,
        "utm_id names the ad group"
    );
    assert_eq!(
        ad(&groups, "no_dimension")["revenue_cents"],
        700,
        "the meta click has no utm_id"
    );
    let keywords = get(&app, &key, "/products/hand/attribution/ads?level=keyword").await;
    assert_eq!(
        ad(&keywords, "no_dimension")["revenue_cents"],
        5700,
        "no utm_term on either click"
    );
    assert_eq!(ad(&keywords, "11101")["revenue_cents"], 0);
    assert_eq!(
        ad(&keywords, "11101")["cac_cents"],
        Value::Null,
        "spend but no customers"
    );

    // The primary goal: the active primary conversion's events in the window.
    exec(&app, &format!("INSERT INTO conversions (product_id, key, label, tier, stage, value_mode, score_mode, is_active, \
        created_at, updated_at) VALUES ('{id}', 'purchase', 'Purchase', 'primary', 'converted', 'transaction', 'none', TRUE, 0, 0)")).await;
    let report = get(&app, &key, "/products/hand/attribution").await;
    assert_eq!(
        report["primary_goal"],
        json!({"key": "purchase", "label": "Purchase", "stage": "converted", "count": 3, "value_cents": 5700})
    );
    exec(&app, "UPDATE conversions SET event_name = 'pro'").await;
    let report = get(&app, &key, "/products/hand/attribution?days=1").await;
    assert_eq!(report["primary_goal"]["count"], 1);
    assert_eq!(report["primary_goal"]["value_cents"], 700);
    exec(&app, "UPDATE conversions SET is_active = FALSE").await;
    assert_eq!(
        get(&app, &key, "/products/hand/attribution").await["primary_goal"],
        Value::Null
    );
}

async fn errors_name_the_parameter(app: TestApp) {
    let key = setup(&app, "founder@example.com").await;
    app.create_product(&key, "shop").await;
    let stranger = setup(&app, "stranger@example.com").await;
    for path in [
        "/products/shop/attribution",
        "/products/shop/attribution/sales",
        "/products/shop/attribution/ads",
    ] {
        for query in ["days=0", "days=3651", "days=abc"] {
            app.get(&format!("{path}?{query}"), Some(&key))
                .await
                .expect_error(400, "days");
        }
        app.get(path, None).await.expect_error(401, "bearer");
        app.get(path, Some(&stranger))
            .await
            .expect_error(404, "product");
        app.get(&path.replace("shop", "nope"), Some(&key))
            .await
            .expect_error(404, "product");
    }
    for path in [
        "/products/shop/attribution/sales",
        "/products/shop/attribution/ads",
    ] {
        for query in ["limit=0", "limit=1001", "limit=x"] {
            app.get(&format!("{path}?{query}"), Some(&key))
                .await
                .expect_error(400, "limit");
        }
        app.get(&format!("{path}?limit=1000"), Some(&key))
            .await
            .expect(200);
    }
    app.get("/products/shop/attribution/ads?level=bogus", Some(&key))
        .await
        .expect_error(400, "level: must be one of");
    app.get("/products/shop/attribution/ads?level=ad_group", Some(&key))
        .await
        .expect(200);
}

backend_tests!(
    an_empty_product_reads_zero,
    honesty_rules_and_late_touches,
    errors_name_the_parameter
);
