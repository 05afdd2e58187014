//! Months of synthetic traffic, ad spend and revenue for the demo products, so every report has
//! something real to show on a first run.
//!
//! Deterministic (one seeded generator per product, times relative to the clock) and written
//! through the real paths: events through `services::ingest` in batches, spend through
//! `payback_store::spend::upsert`. Each product has its own shape: Pixel Pantry is profitable,
//! Quill CRM burns money on social ads, Fjord Notes is six weeks old with little data.
//!
//! Paid clicks carry the utm values of the ad they came from (Google: `utm_campaign` = campaign
//! name, `utm_term` = keyword; Meta and LinkedIn: `utm_content` = ad name), and each day's spend
//! row counts at least the clicks the generated visits stand for.

use std::collections::BTreeMap;

use payback_domain::channel::Attribution;
use payback_domain::event::IncomingEvent;
use payback_domain::{DAY_MS, HOUR_MS, MINUTE_MS, Timestamp};
use payback_store::products::ProductRow;
use payback_store::spend::{self, SpendRow};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde_json::json;

use crate::error::ApiResult;
use crate::services::ingest::{self, Source};
use crate::state::AppState;

use Touch::{Ai, Bare, Email, Google, Linkedin, Meta, Referral, Search, Social};

/// Events per ingest call (the server batch cap).
const BATCH: usize = 1000;

const LANDING_PATHS: &[&str] = &[
    "",
    "pricing",
    "features",
    "blog/getting-started",
    "templates",
];

/// Where unpaid visits come from; the classifier reads the referrer's host.
#[rustfmt::skip]
const REFERRERS: &[(Touch, &[&str])] = &[
    (Search, &["https://www.google.com/", "https://www.bing.com/", "https://duckduckgo.com/"]),
    (Social, &["https://news.ycombinator.com/", "https://www.reddit.com/r/SaaS/", "https://t.co/x1"]),
    (Referral, &["https://www.indiehackers.com/post/tools", "https://tools.example.org/best-of-2026"]),
    (Ai, &["https://chatgpt.com/", "https://www.perplexity.ai/"]),
];

/// How an identity arrives (or returns).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Touch {
    Google,
    Meta,
    Linkedin,
    Email,
    Search,
    Social,
    Referral,
    Ai,
    /// No attribution at all: server-side, such a visit has no channel.
    Bare,
}

/// One way in: its share of new identities, and how often they sign up and then pay.
#[derive(Debug, Clone, Copy)]
pub struct Mix {
    touch: Touch,
    weight: u32,
    signup: f64,
    pay: f64,
}

/// An ad the demo buys clicks on, at the grain its network reports it.
#[derive(Debug, Clone, Copy)]
pub struct Ad {
    touch: Touch,
    campaign: &'static str,
    /// Google: ad group; Meta: ad set; LinkedIn: campaign group.
    group: &'static str,
    /// Google: the keyword; Meta and LinkedIn: the ad name.
    item: &'static str,
    cpc_cents: i64,
    weight: u32,
    started_days_ago: i64,
}

/// A product's shape.
#[derive(Debug)]
pub struct Shape {
    pub seed: u64,
    /// Days of history ending today.
    pub days: i64,
    pub identities: usize,
    /// Later days get more new identities when above 0.
    pub growth: f64,
    /// The monthly plan; an annual plan costs ten months.
    pub price_cents: i64,
    pub monthly_churn: f64,
    pub mix: &'static [Mix],
    pub ads: &'static [Ad],
}

pub const fn mix(touch: Touch, weight: u32, signup: f64, pay: f64) -> Mix {
    Mix {
        touch,
        weight,
        signup,
        pay,
    }
}

pub const fn ad(
    touch: Touch,
    campaign: &'static str,
    group: &'static str,
    item: &'static str,
    cpc_cents: i64,
    weight: u32,
    started_days_ago: i64,
) -> Ad {
    Ad {
        touch,
        campaign,
        group,
        item,
        cpc_cents,
        weight,
        started_days_ago,
    }
}

/// What the generator made for one product.
#[derive(Debug)]
pub struct DemoData {
    pub events: Vec<IncomingEvent>,
    pub spend: Vec<SpendRow>,
}

/// What loading wrote.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Loaded {
    pub events: usize,
    pub spend_rows: usize,
}

/// Generates and writes the product's demo data.
pub async fn seed(state: &AppState, product: &ProductRow, shape: &Shape) -> ApiResult<Loaded> {
    let now = state.clock.now();
    let data = generate(shape, product, now);
    let loaded = Loaded {
        events: data.events.len(),
        spend_rows: data.spend.len(),
    };
    let mut events = data.events.into_iter().peekable();
    while events.peek().is_some() {
        let batch: Vec<IncomingEvent> = events.by_ref().take(BATCH).collect();
        ingest::ingest(state, product, Source::Server, batch).await?;
    }
    let mut tx = state.store.begin().await?;
    spend::upsert(&mut tx, &product.id, "demo", &data.spend, now).await?;
    tx.commit().await?;
    Ok(loaded)
}

/// A generated event before it becomes an [`IncomingEvent`].
struct Draft {
    at: i64,
    stage: &'static str,
    name: &'static str,
    anonymous_id: Option<String>,
    user_id: Option<String>,
    email: Option<String>,
    value: Option<i64>,
    attribution: Option<Attribution>,
    properties: Option<serde_json::Value>,
}

impl Draft {
    fn new(at: i64, stage: &'static str, name: &'static str) -> Self {
        Self {
            at,
            stage,
            name,
            anonymous_id: None,
            user_id: None,
            email: None,
            value: None,
            attribution: None,
            properties: None,
        }
    }
}

struct Generator<'a> {
    rng: StdRng,
    shape: &'a Shape,
    domain: String,
    now: i64,
    start: i64,
    drafts: Vec<Draft>,
    /// Tracked clicks per (ad index, day).
    clicks: BTreeMap<(usize, String), i64>,
}

/// Every event (oldest first, dedupe ids `demo-<n>`) and spend row of one product.
pub fn generate(shape: &Shape, product: &ProductRow, now: Timestamp) -> DemoData {
    let domain = product
        .domain
        .clone()
        .unwrap_or_else(|| format!("{}.example", product.slug));
    let mut generator = Generator {
        rng: StdRng::seed_from_u64(shape.seed),
        shape,
        domain,
        now: now.millis(),
        start: now.start_of_day().millis() - (shape.days - 1) * DAY_MS,
        drafts: Vec::new(),
        clicks: BTreeMap::new(),
    };
    for person in 0..shape.identities {
        generator.journey(person);
    }
    generator.identityless_revenue();
    let spend = generator.spend();
    let mut drafts = generator.drafts;
    drafts.retain(|draft| draft.at <= now.millis());
    drafts.sort_by_key(|draft| draft.at);
    let currency = product.currency.clone();
    let events = drafts
        .into_iter()
        .enumerate()
        .map(|(n, draft)| IncomingEvent {
            dedupe_id: format!("demo-{n}"),
            stage: draft.stage.to_owned(),
            name: Some(draft.name.to_owned()),
            occurred_at: Some(Timestamp::from_millis(draft.at).to_rfc3339()),
            anonymous_id: draft.anonymous_id,
            user_id: draft.user_id,
            email: draft.email,
            currency: draft.value.map(|_| currency.clone()),
            value: draft.value,
            attribution: draft.attribution,
            properties: draft.properties,
        })
        .collect();
    DemoData { events, spend }
}

impl Generator<'_> {
    fn chance(&mut self, p: f64) -> bool {
        self.rng.random_bool(p.clamp(0.0, 1.0))
    }

    fn later(&mut self, at: i64, min_ms: i64, max_ms: i64) -> i64 {
        at + self.rng.random_range(min_ms..=max_ms)
    }

    fn pick_mix(&mut self) -> Mix {
        let total: u32 = self.shape.mix.iter().map(|m| m.weight).sum();
        let mut roll = self.rng.random_range(0..total.max(1));
        for entry in self.shape.mix {
            if roll < entry.weight {
                return *entry;
            }
            roll -= entry.weight;
        }
        mix(Bare, 1, 0.1, 0.2)
    }

    /// An ad of the touch's network running on the day of `at`, by weight.
    fn pick_ad(&mut self, touch: Touch, at: i64) -> Option<usize> {
        let days_ago = self.now.div_euclid(DAY_MS) - at.div_euclid(DAY_MS);
        let live: Vec<(usize, u32)> = (self.shape.ads.iter().enumerate())
            .filter(|(_, ad)| ad.touch == touch && days_ago < ad.started_days_ago)
            .map(|(index, ad)| (index, ad.weight))
            .collect();
        let total: u32 = live.iter().map(|(_, w)| w).sum();
        if total == 0 {
            return None;
        }
        let mut roll = self.rng.random_range(0..total);
        live.into_iter().find_map(|(index, weight)| {
            if roll < weight {
                Some(index)
            } else {
                roll -= weight;
                None
            }
        })
    }

    fn token(&mut self, prefix: &str, len: usize) -> String {
        const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        let body: String = (0..len)
            .map(|_| char::from(ALPHABET[self.rng.random_range(0..ALPHABET.len())]))
            .collect();
        format!("{prefix}{body}")
    }

    /// The attribution of a visit through `touch` at `at`; paid visits count a click on their
    /// ad. A paid touch with no ad running yet arrives through organic search instead.
    fn attribution(&mut self, touch: Touch, at: i64) -> Option<Attribution> {
        let path = LANDING_PATHS[self.rng.random_range(0..LANDING_PATHS.len())];
        let mut a = Attribution {
            landing_url: Some(format!("https://{}/{path}", self.domain)),
            ..Attribution::default()
        };
        let roll = self.rng.random_range(0..12);
        match touch {
            Google | Meta | Linkedin => {
                let Some(index) = self.pick_ad(touch, at) else {
                    return self.attribution(Search, at);
                };
                let ad = self.shape.ads[index];
                *self
                    .clicks
                    .entry((index, Timestamp::from_millis(at).day()))
                    .or_default() += 1;
                a.utm_campaign = Some(ad.campaign.to_owned());
                a.utm_id = Some(campaign_id(self.shape, ad.campaign));
                match touch {
                    Google => {
                        a.utm_source = Some("google".into());
                        a.utm_medium = Some("cpc".into());
                        a.utm_term = Some(ad.item.to_owned());
                        a.gclid = Some(self.token("Cj0KCQ", 24));
                    }
                    Meta => {
                        a.utm_source = Some("facebook".into());
                        a.utm_medium = Some("paid_social".into());
                        a.utm_content = Some(ad.item.to_owned());
                        a.fbclid = Some(self.token("IwAR", 28));
                    }
                    _ => {
                        a.utm_source = Some("linkedin".into());
                        a.utm_medium = Some("paid_social".into());
                        a.utm_content = Some(ad.item.to_owned());
                        a.li_fat_id = Some(self.token("", 16));
                    }
                }
            }
            Email => {
                a.utm_source = Some("newsletter".into());
                a.utm_medium = Some("email".into());
                a.utm_campaign = Some(["monthly-digest", "product-update"][roll % 2].into());
            }
            Search | Social | Referral | Ai => {
                a.referrer = REFERRERS
                    .iter()
                    .find(|(way, _)| *way == touch)
                    .map(|(_, hosts)| hosts[roll % hosts.len()].to_owned());
            }
            Bare => {}
        }
        Some(a)
    }

    fn visit(&mut self, at: i64, touch: Touch, anonymous_id: &str, user_id: Option<&str>) {
        // Not yet happened: neither an event nor a click to pay for.
        if at > self.now {
            return;
        }
        let mut draft = Draft::new(at, "visit", "page_view");
        draft.anonymous_id = Some(anonymous_id.to_owned());
        draft.user_id = user_id.map(str::to_owned);
        draft.attribution = self.attribution(touch, at);
        self.drafts.push(draft);
    }

    /// When a new identity first arrives: later days are busier when the product grows.
    fn arrival(&mut self) -> i64 {
        let span = (self.now - self.start) as f64;
        let u: f64 = self.rng.random();
        let from_start = span * u.powf(1.0 / (1.0 + self.shape.growth));
        self.start + from_start as i64
    }

    fn journey(&mut self, person: usize) {
        let entry = self.pick_mix();
        let anonymous_id = format!("anon-{person:05}");
        let user_id = format!("user-{person:05}");
        let email = format!("person{person}@{}", customer_domain(person));
        let mut at = self.arrival();
        self.visit(at, entry.touch, &anonymous_id, None);
        // Return visits before signing up: the same way in, a bare visit, or another touch.
        for _ in 0..self.rng.random_range(0..=2) {
            at = self.later(at, HOUR_MS, 6 * DAY_MS);
            let touch = match self.rng.random_range(0..4) {
                0 | 1 => entry.touch,
                2 => Bare,
                _ => self.pick_mix().touch,
            };
            self.visit(at, touch, &anonymous_id, None);
        }
        if self.chance(0.45) {
            let mut engaged = Draft::new(
                self.later(at, MINUTE_MS, 20 * MINUTE_MS),
                "engaged",
                "pricing_viewed",
            );
            engaged.anonymous_id = Some(anonymous_id.clone());
            self.drafts.push(engaged);
        }
        if self.chance(entry.signup * 1.4) {
            let mut lead = Draft::new(
                self.later(at, 2 * MINUTE_MS, HOUR_MS),
                "lead",
                "newsletter_subscribed",
            );
            lead.anonymous_id = Some(anonymous_id.clone());
            lead.email = Some(email.clone());
            self.drafts.push(lead);
        }
        if !self.chance(entry.signup) {
            return;
        }
        // Signing up links the anonymous id to the user.
        at = self.later(at, 5 * MINUTE_MS, 3 * DAY_MS);
        let mut signup = Draft::new(at, "signup", "account_created");
        signup.anonymous_id = Some(anonymous_id.clone());
        signup.user_id = Some(user_id.clone());
        signup.email = Some(email);
        self.drafts.push(signup);
        if self.chance(0.65) {
            let mut activated = Draft::new(
                self.later(at, HOUR_MS, 2 * DAY_MS),
                "activated",
                "first_project_created",
            );
            activated.user_id = Some(user_id.clone());
            self.drafts.push(activated);
        }
        // Signed-up people come back through the newsletter now and then: a later last touch.
        if self.chance(0.3) {
            let back = self.later(at, DAY_MS, 9 * DAY_MS);
            self.visit(back, Email, &anonymous_id, Some(&user_id));
        }
        if self.chance(entry.pay) {
            let paid_at = self.later(at, 2 * HOUR_MS, 20 * DAY_MS);
            self.subscription(&user_id, paid_at);
        }
    }

    /// A paying customer: the first charge, then monthly charges until churn or today; a few
    /// refund the first month and leave.
    fn subscription(&mut self, user_id: &str, mut at: i64) {
        let price = self.shape.price_cents;
        let annual = self.chance(0.12);
        let mut converted = Draft::new(at, "converted", "subscription_started");
        converted.user_id = Some(user_id.to_owned());
        converted.value = Some(converted_value(price, annual));
        converted.properties = Some(json!({ "plan": if annual { "annual" } else { "monthly" } }));
        self.drafts.push(converted);
        if self.chance(0.04) {
            let mut refund = Draft::new(
                self.later(at, HOUR_MS, 3 * DAY_MS),
                "payment",
                "refund_issued",
            );
            refund.user_id = Some(user_id.to_owned());
            refund.value = Some(-converted_value(price, annual));
            self.drafts.push(refund);
            let left_at = self.later(at, 3 * DAY_MS, 4 * DAY_MS);
            self.churn(user_id, left_at);
            return;
        }
        if annual {
            return;
        }
        loop {
            at += 30 * DAY_MS;
            if at > self.now {
                return;
            }
            if self.chance(self.shape.monthly_churn) {
                self.churn(user_id, at);
                return;
            }
            let mut payment = Draft::new(at, "payment", "invoice_paid");
            payment.user_id = Some(user_id.to_owned());
            payment.value = Some(price);
            self.drafts.push(payment);
        }
    }

    fn churn(&mut self, user_id: &str, at: i64) {
        let mut churned = Draft::new(at, "churned", "subscription_cancelled");
        churned.user_id = Some(user_id.to_owned());
        self.drafts.push(churned);
    }

    /// Bank transfers nobody can tie to a person: revenue without an identity, about one a
    /// fortnight.
    fn identityless_revenue(&mut self) {
        let mut at = self.later(self.start, DAY_MS, 14 * DAY_MS);
        while at < self.now {
            let mut payment = Draft::new(at, "payment", "invoice_paid_by_transfer");
            payment.value = Some(self.shape.price_cents * self.rng.random_range(1..=6));
            self.drafts.push(payment);
            at = self.later(at, 7 * DAY_MS, 21 * DAY_MS);
        }
    }

    /// One row per running ad per day: the tracked clicks plus the clicks that never became a
    /// tracked visit, at the ad's cost per click give or take 15%.
    fn spend(&mut self) -> Vec<SpendRow> {
        let mut rows = Vec::new();
        for (index, ad) in self.shape.ads.iter().enumerate() {
            let first = (self.now.div_euclid(DAY_MS) - ad.started_days_ago + 1)
                .max(self.start.div_euclid(DAY_MS));
            for day_number in first..=self.now.div_euclid(DAY_MS) {
                let day = Timestamp::from_millis(day_number * DAY_MS).day();
                let tracked = self.clicks.get(&(index, day.clone())).copied().unwrap_or(0);
                let lost = (tracked as f64 * self.rng.random_range(0.1..0.3)).round() as i64;
                let clicks = tracked + lost + self.rng.random_range(0..=2);
                let cost = clicks as f64 * ad.cpc_cents as f64 * self.rng.random_range(0.85..1.15);
                let per_click_views = match ad.touch {
                    Google => self.rng.random_range(12..25),
                    Meta => self.rng.random_range(60..140),
                    _ => self.rng.random_range(150..300),
                };
                rows.push(spend_row(
                    self.shape,
                    ad,
                    day,
                    SpendNumbers {
                        spend_cents: cost.round() as i64,
                        impressions: clicks * per_click_views + self.rng.random_range(20..200),
                        clicks,
                    },
                ));
            }
        }
        rows
    }
}

fn converted_value(price: i64, annual: bool) -> i64 {
    if annual { price * 10 } else { price }
}

fn customer_domain(person: usize) -> &'static str {
    ["example.com", "example.org", "example.net"][person % 3]
}

/// A stable numeric id per campaign name, as networks use (position in the catalog).
fn campaign_id(shape: &Shape, campaign: &str) -> String {
    let position = shape
        .ads
        .iter()
        .position(|ad| ad.campaign == campaign)
        .unwrap_or(0);
    format!("{}", 23_000_000 + shape.seed % 1000 * 100 + position as u64)
}

struct SpendNumbers {
    spend_cents: i64,
    impressions: i64,
    clicks: i64,
}

fn spend_row(shape: &Shape, ad: &Ad, day: String, numbers: SpendNumbers) -> SpendRow {
    let position = |f: &dyn Fn(&Ad) -> bool| shape.ads.iter().position(f).unwrap_or(0) as u64;
    let group_id = format!(
        "{}",
        41_000_000 + shape.seed % 1000 * 100 + position(&|a| a.group == ad.group)
    );
    let item_id = format!(
        "{}",
        87_000_000 + shape.seed % 1000 * 100 + position(&|a| a.item == ad.item)
    );
    let (network, channel) = match ad.touch {
        Google => ("google", "paid_google"),
        Meta => ("meta", "paid_meta"),
        _ => ("linkedin", "paid_linkedin"),
    };
    let mut row = SpendRow {
        day,
        network: network.to_owned(),
        channel: channel.to_owned(),
        campaign_id: campaign_id(shape, ad.campaign),
        campaign_name: Some(ad.campaign.to_owned()),
        ad_group_id: group_id,
        ad_group_name: Some(ad.group.to_owned()),
        spend_cents: numbers.spend_cents,
        impressions: numbers.impressions,
        clicks: numbers.clicks,
        ..SpendRow::default()
    };
    // Search ads report spend per keyword; social networks per ad.
    if ad.touch == Google {
        row.keyword_id = item_id;
        row.keyword = Some(ad.item.to_owned());
    } else {
        row.ad_id = item_id;
        row.ad_name = Some(ad.item.to_owned());
    }
    row
}
