#![allow(clippy::unwrap_used)]
//! The distribution log: POST /distribution (camelCase body, `{ok, id}`, `created_by` the
//! owner's email through a session and `keeper` through an API key, a `distribution.create`
//! history event) and GET /products/{slug}/distribution?days=&limit= (entries of the window,
//! newest first, `limit` capping them, each joined to what its `utm_campaign` brought all time:
//! visits, leads, customers, revenue). The joined numbers are checked against an oracle computed
//! here from the events the test ingested (identities resolved here: a user id wins, an
//! anonymous id seen with a user id is that user, first link wins). Errors: 400 naming the
//! field, malformed JSON, 401 without bearer, 404 for unknown and other accounts' products.

use std::collections::{BTreeSet, HashMap};

use payback_domain::{Clock, DAY_MS, MINUTE_MS, Timestamp};
use payback_testkit::{Session, TestApp, backend_tests};
use serde_json::{Value, json};

const OWNER: &str = "owner@example.com";
const LAUNCH: &str = "hn-launch";
const OTHER: &str = "spring-sale";

/// One ingested event, as the test wrote it.
#[derive(Clone)]
struct Ev {
    dedupe: &'static str,
    stage: &'static str,
    anonymous: Option<&'static str>,
    user: Option<&'static str>,
    value: Option<i64>,
    campaign: Option<&'static str>,
    /// How long before the clock's instant it occurred.
    ago_ms: i64,
}

fn ev(dedupe: &'static str, stage: &'static str) -> Ev {
    Ev {
        dedupe,
        stage,
        anonymous: None,
        user: None,
        value: None,
        campaign: None,
        ago_ms: MINUTE_MS,
    }
}

impl Ev {
    fn anon(mut self, id: &'static str) -> Self {
        self.anonymous = Some(id);
        self
    }
    fn user(mut self, id: &'static str) -> Self {
        self.user = Some(id);
        self
    }
    fn value(mut self, cents: i64) -> Self {
        self.value = Some(cents);
        self
    }
    fn campaign(mut self, campaign: &'static str) -> Self {
        self.campaign = Some(campaign);
        self
    }
    fn ago(mut self, ms: i64) -> Self {
        self.ago_ms = ms;
        self
    }

    fn wire(&self, now: Timestamp) -> Value {
        let mut event = json!({
            "dedupe_id": self.dedupe,
            "stage": self.stage,
            "occurred_at": now.minus_millis(self.ago_ms).to_rfc3339(),
        });
        if let Some(anonymous) = self.anonymous {
            event["anonymous_id"] = json!(anonymous);
        }
        if let Some(user) = self.user {
            event["user_id"] = json!(user);
        }
        if let Some(value) = self.value {
            event["value"] = json!(value);
            event["currency"] = json!("USD");
        }
        if let Some(campaign) = self.campaign {
            event["attribution"] = json!({
                "utm_campaign": campaign, "utm_source": "news", "utm_medium": "social",
            });
        }
        event
    }
}

/// What a campaign brought, by the definitions, from the events alone.
#[derive(Debug, Default, PartialEq, Eq)]
struct Brought {
    visits: i64,
    leads: i64,
    customers: i64,
    revenue_cents: i64,
}

fn oracle(events: &[Ev], campaign: &str) -> Brought {
    // An anonymous id seen with a user id is that user; the first link in arrival order wins.
    let mut links: HashMap<&str, &str> = HashMap::new();
    for e in events {
        if let (Some(a), Some(u)) = (e.anonymous, e.user) {
            links.entry(a).or_insert(u);
        }
    }
    let identity = |e: &Ev| -> Option<String> {
        match (e.user, e.anonymous) {
            (Some(u), _) => Some(format!("u:{u}")),
            (None, Some(a)) => Some(match links.get(a) {
                Some(u) => format!("u:{u}"),
                None => format!("a:{a}"),
            }),
            (None, None) => None,
        }
    };
    let mut visitors = BTreeSet::new();
    let mut anonymous_visits = 0;
    let mut reached = BTreeSet::new();
    for e in events.iter().filter(|e| e.campaign == Some(campaign)) {
        let who = identity(e);
        if e.stage == "visit" {
            match &who {
                Some(id) => {
                    visitors.insert(id.clone());
                }
                None => anonymous_visits += 1,
            }
        }
        if let Some(id) = who {
            reached.insert(id);
        }
    }
    let mut leads = BTreeSet::new();
    let mut customers = BTreeSet::new();
    let mut revenue_cents = 0;
    for e in events {
        let Some(id) = identity(e).filter(|id| reached.contains(id)) else {
            continue;
        };
        match e.stage {
            "lead" => {
                leads.insert(id);
            }
            "converted" | "payment" => {
                revenue_cents += e.value.unwrap_or(0);
                customers.insert(id);
            }
            _ => {}
        }
    }
    Brought {
        visits: visitors.len() as i64 + anonymous_visits,
        leads: leads.len() as i64,
        customers: customers.len() as i64,
        revenue_cents,
    }
}

fn brought(entry: &Value) -> Brought {
    Brought {
        visits: entry["visits"].as_i64().unwrap(),
        leads: entry["leads"].as_i64().unwrap(),
        customers: entry["customers"].as_i64().unwrap(),
        revenue_cents: entry["revenue_cents"].as_i64().unwrap(),
    }
}

/// The first batch: visits with and without identities, a reached identity without a visit,
/// leads and payments with and without the campaign, identity-less leads and payments carrying
/// the campaign (no identity: not reached), old visits (all time counts).
fn first_batch() -> Vec<Ev> {
    vec![
        ev("1", "visit").anon("a1").campaign(LAUNCH),
        ev("2", "visit").anon("a1").campaign(LAUNCH),
        ev("3", "visit").anon("a2").campaign(LAUNCH),
        ev("4", "visit").campaign(LAUNCH),
        ev("5", "visit").campaign(LAUNCH),
        ev("6", "signup").anon("a3").campaign(LAUNCH),
        ev("7", "visit").anon("a4").campaign(OTHER),
        ev("8", "lead").anon("a2"),
        ev("9", "payment").anon("a4").value(9_900),
        ev("10", "lead").campaign(LAUNCH),
        ev("11", "payment").campaign(LAUNCH).value(500),
        ev("12", "visit")
            .anon("a7")
            .campaign(LAUNCH)
            .ago(60 * DAY_MS),
        ev("13", "visit").anon("a8"),
        ev("14", "payment").anon("a8").value(3_300),
        ev("15", "engaged").anon("a2").campaign(LAUNCH),
        // a10 arrives with the launch and pays before anyone knows it is u10, who paid too.
        ev("16", "visit").anon("a10").campaign(LAUNCH),
        ev("17", "payment").anon("a10").value(800),
        ev("18", "payment").user("u10").value(200),
    ]
}

/// The second batch links earlier anonymous ids to users (their history moves), pays, refunds,
/// converts without a value, and visits twice as one person through two ids.
fn second_batch() -> Vec<Ev> {
    vec![
        ev("20", "signup").anon("a1").user("u1"),
        ev("21", "lead").user("u1"),
        ev("22", "lead").user("u1"),
        ev("23", "payment").user("u1").value(4_900),
        ev("24", "payment").user("u1").value(-900),
        ev("25", "converted").anon("a3"),
        ev("26", "visit").user("u5").campaign(LAUNCH),
        ev("27", "visit").anon("a5").user("u5").campaign(LAUNCH),
        ev("28", "payment").anon("a5").value(2_000),
        ev("29", "visit").anon("a6").campaign(LAUNCH),
        ev("30", "activated").anon("a6").user("u1"),
        ev("31", "payment").anon("a4").value(100),
        ev("32", "converted").user("u9").campaign(OTHER).value(700),
        ev("33", "lead").user("u9"),
        ev("34", "signup").anon("a10").user("u10"),
    ]
}

async fn ingest(app: &TestApp, key: &str, slug: &str, events: &[Ev]) {
    let now = app.clock.now();
    let body: Vec<Value> = events.iter().map(|e| e.wire(now)).collect();
    let reply = app
        .post(
            &format!("/products/{slug}/events"),
            Some(key),
            json!({ "events": body }),
        )
        .await;
    assert_eq!(reply.expect(200)["received"], events.len());
}

async fn founder(app: &TestApp) -> (Session, String) {
    let owner = app.signup_verified(OWNER).await;
    app.create_product(&owner.token, "shop").await;
    app.create_product(&owner.token, "side").await;
    let key = app.api_key(&owner).await;
    (owner, key)
}

async fn record(app: &TestApp, token: &str, body: Value) -> String {
    let reply = app.post("/distribution", Some(token), body).await;
    let answer = reply.expect(200);
    assert_eq!(answer["ok"], true);
    assert_eq!(answer.as_object().unwrap().len(), 2, "{answer}");
    let id = answer["id"].as_str().unwrap().to_owned();
    assert!(!id.is_empty());
    id
}

async fn list(app: &TestApp, token: &str, query: &str) -> Value {
    app.get(&format!("/products/shop/distribution{query}"), Some(token))
        .await
        .expect(200)
        .clone()
}

fn ids(list: &Value) -> Vec<String> {
    list["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_str().unwrap().to_owned())
        .collect()
}

async fn entries_join_what_their_campaign_brought(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let first = first_batch();
    let second = second_batch();
    ingest(&app, &key, "shop", &first).await;
    ingest(&app, &owner.token, "shop", &second).await;
    // Another product of the account runs the same campaign: none of it is `shop`'s.
    let side = vec![
        ev("s1", "visit").anon("a1").campaign(LAUNCH),
        ev("s2", "visit").anon("z1").campaign(LAUNCH),
        ev("s3", "lead").anon("z1"),
        ev("s4", "payment").anon("z1").value(1_234),
    ];
    ingest(&app, &key, "side", &side).await;
    let all: Vec<Ev> = first.iter().chain(&second).cloned().collect();

    // The oracle, spelled out once so a wrong oracle cannot agree with a wrong server: u1 (a1,
    // a6), a2, u5 (a5) and u10 (a10) visited with the launch plus a7 long ago, and two visits
    // had no identity; a3 was reached by a signup. Leads u1 and a2; customers u1, a3 (no
    // value), u5 and u10; revenue 4900 - 900 + 2000 + 800 + 200.
    let launch = oracle(&all, LAUNCH);
    assert_eq!(
        launch,
        Brought {
            visits: 5 + 2,
            leads: 2,
            customers: 4,
            revenue_cents: 4_900 - 900 + 2_000 + 800 + 200,
        }
    );
    let other = oracle(&all, OTHER);
    assert_eq!(
        other,
        Brought {
            visits: 1,
            leads: 1,
            customers: 2,
            revenue_cents: 9_900 + 100 + 700,
        }
    );

    let hn = json!({
        "productSlug": "shop", "channel": "hacker_news", "kind": "post",
        "url": "https://news.ycombinator.com/item?id=1", "utmCampaign": LAUNCH, "note": "Show HN",
    });
    let created_hn = app.clock.now();
    let hn_id = record(&app, &owner.token, hn).await;
    app.clock.advance(1_000);
    let bare = json!({ "productSlug": "shop", "channel": "newsletter", "kind": "email" });
    let bare_id = record(&app, &key, bare).await;
    app.clock.advance(1_000);
    // Campaign text is trimmed, as event attribution is.
    let sale = json!({ "productSlug": "shop", "channel": "reddit", "kind": "comment", "utmCampaign": format!("  {OTHER} ") });
    let sale_id = record(&app, &key, sale).await;
    app.clock.advance(1_000);
    let unknown = json!({ "productSlug": "shop", "channel": "x", "kind": "post", "utmCampaign": "never-seen" });
    let unknown_id = record(&app, &key, unknown).await;
    // An entry of the other product is not listed for `shop`.
    let side_entry =
        json!({ "productSlug": "side", "channel": "x", "kind": "post", "utmCampaign": LAUNCH });
    let side_id = record(&app, &key, side_entry).await;

    let listed = list(&app, &key, "").await;
    assert_eq!(listed["product_slug"], "shop");
    assert_eq!(listed["window_days"], 30);
    assert_eq!(
        ids(&listed),
        vec![unknown_id, sale_id.clone(), bare_id.clone(), hn_id.clone()]
    );
    let entries = listed["entries"].as_array().unwrap();

    let hn = &entries[3];
    assert_eq!(
        hn,
        &json!({
            "id": hn_id, "channel": "hacker_news", "kind": "post",
            "url": "https://news.ycombinator.com/item?id=1", "utm_campaign": LAUNCH, "note": "Show HN",
            "created_by": OWNER, "created_at": created_hn.to_rfc3339(),
            "visits": launch.visits, "leads": launch.leads, "customers": launch.customers,
            "revenue_cents": launch.revenue_cents,
        })
    );
    let bare = &entries[2];
    assert_eq!(bare["created_by"], "keeper");
    assert_eq!(bare["utm_campaign"], Value::Null);
    assert_eq!(bare["url"], Value::Null);
    assert_eq!(bare["note"], Value::Null);
    assert_eq!(brought(bare), Brought::default());
    let sale = &entries[1];
    assert_eq!(sale["utm_campaign"], OTHER);
    assert_eq!(brought(sale), other);
    assert_eq!(brought(&entries[0]), oracle(&all, "never-seen"));
    assert_eq!(brought(&entries[0]), Brought::default());

    // The other product's entry shows that product's numbers only.
    let side_list = app
        .get("/products/side/distribution", Some(&key))
        .await
        .expect(200)
        .clone();
    assert_eq!(ids(&side_list), vec![side_id]);
    assert_eq!(brought(&side_list["entries"][0]), oracle(&side, LAUNCH));
    assert_eq!(
        brought(&side_list["entries"][0]),
        Brought {
            visits: 2,
            leads: 1,
            customers: 1,
            revenue_cents: 1_234,
        }
    );

    // Events arriving later change the numbers of an existing entry (they are read, not kept):
    // a2 pays, and a visitor with the launch arrives.
    let third = vec![
        ev("40", "payment").anon("a2").value(1_500),
        ev("41", "visit").anon("a9").campaign(LAUNCH),
    ];
    ingest(&app, &key, "shop", &third).await;
    let all: Vec<Ev> = all.into_iter().chain(third).collect();
    let again = list(&app, &owner.token, "").await;
    let hn = again["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == hn_id.as_str())
        .unwrap()
        .clone();
    assert_eq!(brought(&hn), oracle(&all, LAUNCH));
    assert_eq!(brought(&hn).visits, 8);
    assert_eq!(brought(&hn).customers, 5);
    assert_eq!(brought(&hn).revenue_cents, 4_000 + 2_000 + 1_000 + 1_500);

    // History: one `distribution.create` per entry, by the person or by `keeper`.
    let created: Vec<Value> = app
        .history(&owner.token, "?product=shop")
        .await
        .into_iter()
        .filter(|e| e["action"] == "distribution.create")
        .collect();
    assert_eq!(created.len(), 4);
    let by_owner = created
        .iter()
        .find(|e| e["payload"]["entry_id"] == hn_id.as_str())
        .unwrap();
    assert_eq!(by_owner["actor"], OWNER);
    assert_eq!(by_owner["via"], "dashboard");
    assert_eq!(by_owner["product_slug"], "shop");
    assert_eq!(by_owner["payload"]["channel"], "hacker_news");
    assert_eq!(by_owner["payload"]["kind"], "post");
    assert_eq!(by_owner["payload"]["utm_campaign"], LAUNCH);
    assert_eq!(
        by_owner["payload"]["url"],
        "https://news.ycombinator.com/item?id=1"
    );
    let by_key = created
        .iter()
        .find(|e| e["payload"]["entry_id"] == bare_id.as_str())
        .unwrap();
    assert_eq!(by_key["actor"], "keeper");
    assert_eq!(by_key["via"], "api");
}

async fn window_and_limit(app: TestApp) {
    let (owner, key) = founder(&app).await;
    // Created on 2026-11-21 at noon; then the clock moves ten days on.
    let old = record(
        &app,
        &owner.token,
        json!({ "productSlug": "shop", "channel": "forum", "kind": "post" }),
    )
    .await;
    app.clock.advance(10 * DAY_MS);
    let mut newer = Vec::new();
    for n in 0..3 {
        app.clock.advance(MINUTE_MS);
        let body = json!({ "productSlug": "shop", "channel": format!("c{n}"), "kind": "post" });
        newer.push(record(&app, &key, body).await);
    }
    newer.reverse();

    let everything: Vec<String> = newer.iter().cloned().chain([old.clone()]).collect();
    assert_eq!(ids(&list(&app, &key, "").await), everything);
    // 11 days ending 2026-12-01 start on 2026-11-21 at midnight: the old entry is in.
    let eleven = list(&app, &key, "?days=11").await;
    assert_eq!(eleven["window_days"], 11);
    assert_eq!(ids(&eleven), everything);
    // 10 days start on 2026-11-22: it is not.
    let ten = list(&app, &key, "?days=10").await;
    assert_eq!(ten["window_days"], 10);
    assert_eq!(ids(&ten), newer);
    // One day is today: the three newer entries.
    assert_eq!(ids(&list(&app, &key, "?days=1").await), newer);
    // `limit` keeps the newest.
    assert_eq!(
        ids(&list(&app, &key, "?limit=2").await),
        newer[..2].to_vec()
    );
    assert_eq!(
        ids(&list(&app, &key, "?limit=1&days=11").await),
        newer[..1].to_vec()
    );
    assert_eq!(ids(&list(&app, &key, "?limit=1000").await), everything);
    // Ten idle days ended the owner's session; a fresh one reads the same list.
    let owner = app.login(&owner.email).await;
    assert_eq!(ids(&list(&app, &owner.token, "?days=11").await), everything);
}

async fn distribution_errors(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let valid = json!({ "productSlug": "shop", "channel": "x", "kind": "post" });
    let with = |field: &str, value: Value| {
        let mut body = valid.clone();
        body[field] = value;
        body
    };
    let bad = [
        (json!({ "channel": "x", "kind": "post" }), "productSlug"),
        (with("productSlug", json!("")), "productSlug"),
        (with("productSlug", json!("s".repeat(61))), "productSlug"),
        (json!({ "productSlug": "shop", "kind": "post" }), "channel"),
        (with("channel", json!("")), "channel"),
        (with("channel", json!("c".repeat(81))), "channel"),
        (json!({ "productSlug": "shop", "channel": "x" }), "kind"),
        (with("kind", json!("")), "kind"),
        (with("kind", json!("k".repeat(81))), "kind"),
        (with("url", json!("not a url")), "url"),
        (
            with("url", json!(format!("https://e.com/{}", "p".repeat(2000)))),
            "url",
        ),
        (with("utmCampaign", json!("")), "utmCampaign"),
        (with("utmCampaign", json!("c".repeat(201))), "utmCampaign"),
        (with("note", json!("n".repeat(2001))), "note"),
        (with("channel", json!(5)), "channel"),
    ];
    for (body, field) in bad {
        let reply = app.post("/distribution", Some(&key), body.clone()).await;
        reply.expect_error(400, field);
        assert!(
            reply.body["error"].as_str().unwrap().contains(field),
            "{body} -> {}",
            reply.text
        );
    }
    // The limits themselves pass.
    let at_limits = json!({
        "productSlug": "shop", "channel": "c".repeat(80), "kind": "k".repeat(80),
        "url": "https://example.com/launch", "utmCampaign": "u".repeat(200), "note": "n".repeat(2000),
    });
    let id = record(&app, &key, at_limits).await;

    app.post_raw(
        "/distribution",
        Some(&key),
        "application/json",
        "{\"productSlug\": ",
    )
    .await
    .expect_error(400, "invalid JSON");
    app.post_raw("/distribution", Some(&key), "application/json", "{nope}")
        .await
        .expect_error(400, "invalid JSON");
    app.post_raw("/distribution", Some(&key), "text/plain", valid.to_string())
        .await
        .expect_error(415, "JSON");
    app.post("/distribution", None, valid.clone())
        .await
        .expect_error(401, "bearer");
    app.post("/distribution", Some("svc_live_nothing"), valid.clone())
        .await
        .expect_error(401, "API key");
    app.get("/products/shop/distribution", None)
        .await
        .expect_error(401, "bearer");
    app.post(
        "/distribution",
        Some(&key),
        with("productSlug", json!("nope")),
    )
    .await
    .expect_error(404, "product");
    app.get("/products/nope/distribution", Some(&key))
        .await
        .expect_error(404, "product");
    for query in ["?days=0", "?days=3651"] {
        app.get(&format!("/products/shop/distribution{query}"), Some(&key))
            .await
            .expect_error(400, "days");
    }
    for query in ["?limit=0", "?limit=1001"] {
        app.get(&format!("/products/shop/distribution{query}"), Some(&key))
            .await
            .expect_error(400, "limit");
    }

    // Another account: its session and key see none of `shop`, and `shop`'s owner none of
    // theirs.
    let stranger = app.signup_verified("stranger@example.com").await;
    let stranger_key = app.api_key(&stranger).await;
    app.create_product(&stranger.token, "theirs").await;
    let theirs = record(
        &app,
        &stranger_key,
        json!({ "productSlug": "theirs", "channel": "x", "kind": "post" }),
    )
    .await;
    for token in [&stranger.token, &stranger_key] {
        app.post("/distribution", Some(token), valid.clone())
            .await
            .expect_error(404, "product");
        app.get("/products/shop/distribution", Some(token))
            .await
            .expect_error(404, "product");
    }
    for token in [&owner.token, &key] {
        app.post(
            "/distribution",
            Some(token),
            with("productSlug", json!("theirs")),
        )
        .await
        .expect_error(404, "product");
        app.get("/products/theirs/distribution", Some(token))
            .await
            .expect_error(404, "product");
    }
    assert_eq!(
        ids(&app
            .get("/products/theirs/distribution", Some(&stranger.token))
            .await
            .expect(200)
            .clone()),
        vec![theirs]
    );

    // Nothing refused was written.
    assert_eq!(ids(&list(&app, &owner.token, "").await), vec![id]);
    let created = app
        .history(&owner.token, "?product=shop")
        .await
        .into_iter()
        .filter(|e| e["action"] == "distribution.create")
        .count();
    assert_eq!(created, 1);
}

/// Whitespace-only `channel`, `kind` or `utmCampaign` is refused like empty text, and a link
/// the dashboard would open must be http(s); nothing refused is stored.
async fn blank_text_and_unsafe_links_are_refused(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let refused = [
        (
            json!({ "productSlug": "shop", "channel": "   ", "kind": "post" }),
            "channel",
        ),
        (
            json!({ "productSlug": "shop", "channel": "reddit", "kind": " \t " }),
            "kind",
        ),
        (
            json!({ "productSlug": "shop", "channel": "reddit", "kind": "post", "utmCampaign": "  " }),
            "utmCampaign",
        ),
        (
            json!({ "productSlug": "shop", "channel": "reddit", "kind": "post", "url": "javascript:alert(1)" }),
            "url",
        ),
        (
            json!({ "productSlug": "shop", "channel": "reddit", "kind": "post", "url": "file:///etc/passwd" }),
            "url",
        ),
    ];
    for (body, field) in refused {
        app.post("/distribution", Some(&key), body)
            .await
            .expect_error(400, field);
    }
    assert!(ids(&list(&app, &owner.token, "").await).is_empty());
    let https = json!({ "productSlug": "shop", "channel": "reddit", "kind": "post", "url": "HTTPS://example.com/p" });
    let id = record(&app, &key, https).await;
    assert_eq!(ids(&list(&app, &owner.token, "").await), vec![id]);
}

backend_tests!(
    entries_join_what_their_campaign_brought,
    window_and_limit,
    distribution_errors,
    blank_text_and_unsafe_links_are_refused,
);
