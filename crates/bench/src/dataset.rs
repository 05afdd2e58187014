//! Event mixes for the benchmarks: realistic stages, identities from a fixed pool (so profiles
//! and rollups are updated, not only inserted), attribution on a share of visits, links at
//! signup, emails on leads and signups, and valued payments, half of them carrying only an email
//! (a processor's charge).

use payback_domain::channel::{Attribution, classify};
use payback_domain::{DAY_MS, Stage, Timestamp};
use payback_store::ingest::EventRecord;
use payback_store::spend::SpendRow;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde_json::{Value, json};

#[derive(Debug, Clone, Copy)]
pub struct Shape {
    pub events: usize,
    pub identities: usize,
    pub revenue_rows: usize,
    pub spend_days: i64,
    pub order: Order,
}

/// When bulk-loaded events occur within the span. Either order stores the same kind of data
/// (every event anywhere in the span, the same stages, people and revenue); what differs is
/// the fold's work while loading.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Order {
    /// Anywhere in the span, in no order, as a merge of unordered sources arrives: most folds
    /// move some identity's first touch earlier, the fold's dearest path.
    Random,
    /// Spread evenly through the span in generation order, as a chronological backfill
    /// arrives: a first touch never moves earlier, so large data sets load several times
    /// faster.
    Chronological,
}

pub struct EventMix {
    rng: StdRng,
    identities: usize,
    now: i64,
    span_ms: i64,
    /// `Some(total)`: bulk records occur in index order, `total` of them across the span.
    chronological: Option<usize>,
}

/// One generated event before it is rendered for HTTP or the store.
struct Draft {
    stage: Stage,
    occurred_at: Timestamp,
    anonymous_id: Option<String>,
    user_id: Option<String>,
    email: Option<String>,
    value: Option<i64>,
    attribution: Option<Attribution>,
}

impl EventMix {
    /// Events of `identities` people, each occurring within `span_ms` before `now`.
    pub fn new(seed: u64, identities: usize, now: Timestamp, span_ms: i64) -> Self {
        Self {
            rng: StdRng::seed_from_u64(seed),
            identities,
            now: now.millis(),
            span_ms,
            chronological: None,
        }
    }

    /// Bulk records ([`Self::records`]) occur in `order`; `total` is how many will be drawn.
    pub fn in_order(mut self, order: Order, total: usize) -> Self {
        self.chronological = (order == Order::Chronological).then_some(total.max(1));
        self
    }

    /// Moves the mix's clock: later events occur within the span before `now`.
    pub fn set_now(&mut self, now: Timestamp) {
        self.now = now.millis();
    }

    fn attribution(&mut self) -> Option<Attribution> {
        let mut a = Attribution::default();
        match self.rng.random_range(0..10) {
            0..=2 => {
                a.gclid = Some(format!("g{}", self.rng.random_range(0..1_000_000u32)));
                a.utm_campaign = Some(
                    if self.rng.random_bool(0.5) {
                        "brand"
                    } else {
                        "generic"
                    }
                    .into(),
                );
            }
            3..=4 => {
                a.fbclid = Some(format!("f{}", self.rng.random_range(0..1_000_000u32)));
                a.utm_medium = Some("paid_social".into());
                a.utm_source = Some("facebook".into());
            }
            5 => a.referrer = Some("https://www.google.com/".into()),
            6 => {
                a.utm_medium = Some("email".into());
                a.utm_source = Some("newsletter".into());
            }
            _ => return None,
        }
        Some(a)
    }

    /// A draft; `revenue` forces a valued payment; `at` fixes when it occurs (random in the
    /// span when `None`).
    fn draft(&mut self, revenue: bool, at: Option<i64>) -> Draft {
        let person = self.rng.random_range(0..self.identities);
        let occurred_at = Timestamp::from_millis(
            at.unwrap_or_else(|| self.now - self.rng.random_range(0..self.span_ms)),
        );
        let anonymous_id = Some(format!("anon-{person}"));
        let user_id = Some(format!("user-{person}"));
        let email = Some(format!("person-{person}@bench.test"));
        let (stage, anonymous_id, user_id, email, value, attribution) = if revenue {
            let value = Some(self.rng.random_range(900..20_000));
            if self.rng.random_bool(0.5) {
                (Stage::Payment, None, user_id, None, value, None)
            } else {
                (Stage::Payment, None, None, email, value, None)
            }
        } else {
            match self.rng.random_range(0..100) {
                0..=69 => (
                    Stage::Visit,
                    anonymous_id,
                    None,
                    None,
                    None,
                    self.attribution(),
                ),
                70..=79 => (Stage::Engaged, anonymous_id, None, None, None, None),
                80..=89 => (Stage::Lead, anonymous_id, None, email, None, None),
                90..=96 => (Stage::Signup, anonymous_id, user_id, email, None, None),
                _ => (Stage::Activated, None, user_id, None, None, None),
            }
        };
        Draft {
            stage,
            occurred_at,
            anonymous_id,
            user_id,
            email,
            value,
            attribution,
        }
    }

    /// `size` events as the JSON body of `POST /products/{slug}/events`, with random UUIDv4
    /// dedupe ids; about 3% are valued payments.
    pub fn json_batch(&mut self, size: usize) -> Value {
        let events: Vec<Value> = (0..size)
            .map(|_| {
                let revenue = self.rng.random_bool(0.03);
                let draft = self.draft(revenue, None);
                let mut event = json!({
                    "dedupe_id": uuid::Uuid::new_v4().to_string(),
                    "stage": draft.stage.as_str(),
                    "occurred_at": draft.occurred_at.to_rfc3339(),
                });
                if let Some(id) = draft.anonymous_id {
                    event["anonymous_id"] = json!(id);
                }
                if let Some(id) = draft.user_id {
                    event["user_id"] = json!(id);
                }
                if let Some(email) = draft.email {
                    event["email"] = json!(email);
                }
                if let Some(value) = draft.value {
                    event["value"] = json!(value);
                }
                if let Some(attribution) = draft.attribution {
                    event["attribution"] = serde_json::to_value(attribution).unwrap_or_default();
                }
                event
            })
            .collect();
        json!({ "events": events })
    }

    /// Store-ready records for bulk loading; every `revenue_every`-th is a valued payment.
    pub fn records(
        &mut self,
        count: usize,
        start: usize,
        revenue_every: usize,
        namespace: &str,
    ) -> Vec<EventRecord> {
        (start..start + count)
            .map(|index| {
                let at = self.chronological.map(|total| {
                    let elapsed =
                        (self.span_ms as i128 * index.min(total) as i128 / total as i128) as i64;
                    self.now - self.span_ms + elapsed
                });
                let draft = self.draft(revenue_every > 0 && index % revenue_every == 0, at);
                let channel = draft
                    .attribution
                    .as_ref()
                    .and_then(|a| classify(a, false, Some("bench.test")));
                EventRecord {
                    namespace: namespace.to_owned(),
                    dedupe_id: format!("bulk-{index}"),
                    stage: draft.stage.as_str(),
                    name: None,
                    occurred_at: draft.occurred_at,
                    anonymous_id: draft.anonymous_id,
                    user_id: draft.user_id,
                    email: draft.email,
                    value_cents: draft.value,
                    currency: draft.value.map(|_| "USD".to_owned()),
                    channel,
                    utm_campaign: draft
                        .attribution
                        .as_ref()
                        .and_then(|a| a.utm_campaign.clone()),
                    attribution: draft
                        .attribution
                        .and_then(|a| serde_json::to_string(&a).ok()),
                    properties: None,
                    is_revenue: draft.value.is_some(),
                    acquires: draft.stage.acquires_customer(),
                }
            })
            .collect()
    }
}

/// Daily spend for `days` days ending at `now`: two Google campaigns, two Meta ads, LinkedIn.
pub fn spend(now: Timestamp, days: i64, seed: u64) -> Vec<SpendRow> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut rows = Vec::new();
    for back in 0..days {
        let day = now.minus_millis(back * DAY_MS).day();
        for (network, channel, campaign, ad) in [
            ("google", "paid_google", "brand", ""),
            ("google", "paid_google", "generic", ""),
            ("meta", "paid_meta", "prospecting", "video"),
            ("meta", "paid_meta", "prospecting", "carousel"),
            ("linkedin", "paid_linkedin", "abm", ""),
        ] {
            rows.push(SpendRow {
                day: day.clone(),
                network: network.into(),
                channel: channel.into(),
                campaign_id: campaign.into(),
                campaign_name: Some(campaign.into()),
                ad_id: ad.into(),
                ad_name: (!ad.is_empty()).then(|| ad.into()),
                spend_cents: rng.random_range(1_000..20_000),
                impressions: rng.random_range(1_000..50_000),
                clicks: rng.random_range(10..800),
                ..SpendRow::default()
            });
        }
    }
    rows
}
