//! The events the join test ingests (a small builder and two batches), and the oracle: what a
//! campaign brought, computed from those events alone with identities resolved here.

use std::collections::{BTreeSet, HashMap};

use payback_domain::Timestamp;

use super::*;

/// One ingested event, as the test wrote it.
#[derive(Clone)]
pub(crate) struct Ev {
    dedupe: &'static str,
    stage: &'static str,
    anonymous: Option<&'static str>,
    user: Option<&'static str>,
    value: Option<i64>,
    campaign: Option<&'static str>,
    /// How long before the clock's instant it occurred.
    ago_ms: i64,
}

pub(crate) fn ev(dedupe: &'static str, stage: &'static str) -> Ev {
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
    pub(crate) fn anon(mut self, id: &'static str) -> Self {
        self.anonymous = Some(id);
        self
    }
    pub(crate) fn user(mut self, id: &'static str) -> Self {
        self.user = Some(id);
        self
    }
    pub(crate) fn value(mut self, cents: i64) -> Self {
        self.value = Some(cents);
        self
    }
    pub(crate) fn campaign(mut self, campaign: &'static str) -> Self {
        self.campaign = Some(campaign);
        self
    }
    pub(crate) fn ago(mut self, ms: i64) -> Self {
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
pub(crate) struct Brought {
    pub(crate) visits: i64,
    pub(crate) leads: i64,
    pub(crate) customers: i64,
    pub(crate) revenue_cents: i64,
}

pub(crate) fn oracle(events: &[Ev], campaign: &str) -> Brought {
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

pub(crate) fn brought(entry: &Value) -> Brought {
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
pub(crate) fn first_batch() -> Vec<Ev> {
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
pub(crate) fn second_batch() -> Vec<Ev> {
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

pub(crate) async fn ingest(app: &TestApp, key: &str, slug: &str, events: &[Ev]) {
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
