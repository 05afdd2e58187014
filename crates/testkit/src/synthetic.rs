//! A deterministic synthetic product: identities with journeys across channels, linked
//! anonymous ids, revenue and refunds, identity-less traffic and revenue, and daily spend;
//! [`generate_with_emails`] adds people known by email (processor charges carrying only an email,
//! before and after the visit, emails two users claim, emails nobody claims).
//!
//! Every event records the channel it was *meant* to carry (`intended_channel`), decided by
//! how it was generated rather than by the classifier, so test oracles compute attribution
//! independently of the code under test.

use payback_domain::channel::Attribution;
use payback_domain::{DAY_MS, HOUR_MS, Stage, Timestamp};
use payback_store::spend::SpendRow;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde_json::{Value, json};

use crate::TestApp;

#[derive(Debug, Clone, Copy)]
pub struct SynthConfig {
    pub seed: u64,
    pub identities: usize,
    /// Days of history ending at `now`.
    pub days: i64,
}

impl Default for SynthConfig {
    fn default() -> Self {
        Self {
            seed: 7,
            identities: 120,
            days: 60,
        }
    }
}

/// One generated event, with what the oracle needs to know.
#[derive(Debug, Clone)]
pub struct SynthEvent {
    pub dedupe_id: String,
    pub stage: Stage,
    pub occurred_at: Timestamp,
    pub anonymous_id: Option<String>,
    pub user_id: Option<String>,
    /// As sent (not normalized: some are mixed case, as processors send them).
    pub email: Option<String>,
    pub value: Option<i64>,
    pub attribution: Option<Attribution>,
    /// The channel this event's attribution stands for (server-side rules: no `direct`).
    pub intended_channel: Option<&'static str>,
}

impl SynthEvent {
    pub fn to_json(&self) -> Value {
        let mut event = json!({
            "dedupe_id": self.dedupe_id,
            "stage": self.stage.as_str(),
            "occurred_at": self.occurred_at.to_rfc3339(),
        });
        let fields = [
            ("anonymous_id", &self.anonymous_id),
            ("user_id", &self.user_id),
            ("email", &self.email),
        ];
        for (name, value) in fields {
            if let Some(value) = value {
                event[name] = json!(value);
            }
        }
        if let Some(value) = self.value {
            event["value"] = json!(value);
        }
        if let Some(attribution) = &self.attribution {
            event["attribution"] = serde_json::to_value(attribution).unwrap_or_default();
        }
        event
    }
}

#[derive(Debug, Clone)]
pub struct Dataset {
    pub now: Timestamp,
    pub events: Vec<SynthEvent>,
    pub spend: Vec<SpendRow>,
}

/// The touch kinds a journey step can carry.
#[derive(Debug, Clone, Copy)]
enum Touch {
    GoogleAds,
    MetaAds,
    Email,
    OrganicSearch,
    Referral,
    Podcast,
    Bare,
}

impl Touch {
    fn pick(rng: &mut StdRng) -> Touch {
        match rng.random_range(0..100) {
            0..=24 => Touch::GoogleAds,
            25..=39 => Touch::MetaAds,
            40..=49 => Touch::Email,
            50..=64 => Touch::OrganicSearch,
            65..=72 => Touch::Referral,
            73..=76 => Touch::Podcast,
            _ => Touch::Bare,
        }
    }

    fn attribution(self, rng: &mut StdRng) -> (Option<Attribution>, Option<&'static str>) {
        let mut a = Attribution::default();
        let channel = match self {
            Touch::GoogleAds => {
                let campaign = if rng.random_bool(0.5) {
                    "g-brand"
                } else {
                    "g-generic"
                };
                a.gclid = Some(format!("gclid-{}", rng.random_range(0..1_000_000)));
                a.utm_source = Some("google".into());
                a.utm_medium = Some("cpc".into());
                a.utm_campaign = Some(campaign.into());
                a.utm_term = Some(
                    if campaign == "g-brand" {
                        "payback app"
                    } else {
                        "ad spend tracker"
                    }
                    .into(),
                );
                "paid_google"
            }
            Touch::MetaAds => {
                a.fbclid = Some(format!("fb-{}", rng.random_range(0..1_000_000)));
                a.utm_source = Some("facebook".into());
                a.utm_medium = Some("paid_social".into());
                a.utm_campaign = Some("m-prospecting".into());
                a.utm_content = Some(
                    if rng.random_bool(0.5) {
                        "video-a"
                    } else {
                        "carousel-b"
                    }
                    .into(),
                );
                "paid_meta"
            }
            Touch::Email => {
                a.utm_source = Some("newsletter".into());
                a.utm_medium = Some("email".into());
                a.utm_campaign = Some("weekly".into());
                "email"
            }
            Touch::OrganicSearch => {
                a.referrer = Some("https://www.google.com/".into());
                "organic_search"
            }
            Touch::Referral => {
                a.referrer = Some("https://someblog.dev/review".into());
                "referral"
            }
            Touch::Podcast => {
                a.channel = Some("podcast".into());
                "podcast"
            }
            Touch::Bare => return (None, None),
        };
        (Some(a), Some(channel))
    }
}

/// Generates the dataset; `now` is the instant the app's clock reads.
pub fn generate(config: SynthConfig, now: Timestamp) -> Dataset {
    generate_dataset(config, now, false)
}

/// The same product with email identities: half the signups name an email (as
/// `svc.identify(id, {email})` sends it) and some of those people's renewals arrive as processor
/// charges carrying only that email; plus `identities / 8` people of the scenarios of
/// [`email_people`]. Arrival order is shuffled, so charges arrive before and after the email is
/// known, in one fold and across folds.
pub fn generate_with_emails(config: SynthConfig, now: Timestamp) -> Dataset {
    generate_dataset(config, now, true)
}

fn generate_dataset(config: SynthConfig, now: Timestamp, emails: bool) -> Dataset {
    let mut rng = StdRng::seed_from_u64(config.seed);
    let start = now.minus_millis(config.days * DAY_MS).millis();
    let mut events = Vec::new();
    let mut next = 0usize;
    let mut dedupe = || {
        next += 1;
        format!("syn-{next}")
    };
    let clamp = |at: i64| Timestamp::from_millis(at.min(now.millis()));
    for person in 0..config.identities {
        let anonymous = format!("anon-{person}");
        let user = format!("user-{person}");
        let mut at = rng.random_range(start..now.millis());
        let (attribution, channel) = Touch::pick(&mut rng).attribution(&mut rng);
        events.push(SynthEvent {
            dedupe_id: dedupe(),
            stage: Stage::Visit,
            occurred_at: clamp(at),
            anonymous_id: Some(anonymous.clone()),
            user_id: None,
            email: None,
            value: None,
            attribution,
            intended_channel: channel,
        });
        // Later visits, sometimes through another channel (last touch differs from first).
        for _ in 0..rng.random_range(0..3) {
            at += rng.random_range(HOUR_MS..3 * DAY_MS);
            let (attribution, channel) = Touch::pick(&mut rng).attribution(&mut rng);
            events.push(SynthEvent {
                dedupe_id: dedupe(),
                stage: Stage::Visit,
                occurred_at: clamp(at),
                anonymous_id: Some(anonymous.clone()),
                user_id: None,
                email: None,
                value: None,
                attribution,
                intended_channel: channel,
            });
        }
        if rng.random_bool(0.5) {
            at += rng.random_range(60_000..DAY_MS);
            events.push(SynthEvent {
                dedupe_id: dedupe(),
                stage: Stage::Lead,
                occurred_at: clamp(at),
                anonymous_id: Some(anonymous.clone()),
                user_id: None,
                email: None,
                value: None,
                attribution: None,
                intended_channel: None,
            });
        }
        if rng.random_bool(0.45) {
            // Signing up links the anonymous id to the user id.
            at += rng.random_range(60_000..2 * DAY_MS);
            // Drawn only with emails, so `generate` stays the dataset it always was.
            let email = (emails && rng.random_bool(0.5)).then(|| format!("{user}@example.test"));
            events.push(SynthEvent {
                dedupe_id: dedupe(),
                stage: Stage::Signup,
                occurred_at: clamp(at),
                anonymous_id: Some(anonymous.clone()),
                user_id: Some(user.clone()),
                email: email.clone(),
                value: None,
                attribution: None,
                intended_channel: None,
            });
            if rng.random_bool(0.6) {
                at += rng.random_range(60_000..5 * DAY_MS);
                let price = [1900, 4900, 9900][rng.random_range(0..3)];
                events.push(SynthEvent {
                    dedupe_id: dedupe(),
                    stage: Stage::Converted,
                    occurred_at: clamp(at),
                    anonymous_id: None,
                    user_id: Some(user.clone()),
                    email: None,
                    value: Some(price),
                    attribution: None,
                    intended_channel: None,
                });
                for _ in 0..rng.random_range(0..4) {
                    at += 30 * DAY_MS;
                    if at > now.millis() {
                        break;
                    }
                    let refund = rng.random_bool(0.1);
                    // A renewal charged by the processor names the email, not the user.
                    let by_email = email.is_some() && rng.random_bool(0.3);
                    events.push(SynthEvent {
                        dedupe_id: dedupe(),
                        stage: Stage::Payment,
                        occurred_at: clamp(at),
                        anonymous_id: None,
                        user_id: (!by_email).then(|| user.clone()),
                        email: email.clone().filter(|_| by_email),
                        value: Some(if refund { -price } else { price }),
                        attribution: None,
                        intended_channel: None,
                    });
                }
            }
        }
    }
    // Traffic and revenue with no identity: it counts, and its revenue is unattributed.
    for _ in 0..config.identities / 10 {
        let at = Timestamp::from_millis(rng.random_range(start..now.millis()));
        let (attribution, channel) = Touch::pick(&mut rng).attribution(&mut rng);
        events.push(SynthEvent {
            dedupe_id: dedupe(),
            stage: Stage::Visit,
            occurred_at: at,
            anonymous_id: None,
            user_id: None,
            email: None,
            value: None,
            attribution,
            intended_channel: channel,
        });
        events.push(SynthEvent {
            dedupe_id: dedupe(),
            stage: Stage::Payment,
            occurred_at: at,
            anonymous_id: None,
            user_id: None,
            email: None,
            value: Some(2500),
            attribution: None,
            intended_channel: None,
        });
    }
    if emails {
        for person in 0..config.identities / 8 {
            email_people(&mut rng, &mut events, person, start, now);
        }
    }
    // Arrival order is not event order.
    for index in (1..events.len()).rev() {
        events.swap(index, rng.random_range(0..=index));
    }
    Dataset {
        now,
        events,
        spend: spend_rows(&mut rng, now, config.days),
    }
}

/// One person of the email scenarios, by `person % 6`:
/// 0. visits, identifies with the email, then pays by processor charges naming only the email;
/// 1. pays by email first, visits and identifies later (the charge precedes every touch);
/// 2. a visitor who leaves the email on a lead form and pays without an account; every other
///    one signs up later;
/// 3. two users (two devices, two channels) both identify with the email, which then pays:
///    the first user to arrive owns it;
/// 4. pays by an email nobody ever claims;
/// 5. identifies on one device, leaves the email on a second device's lead form, pays by email.
///
/// Processor charges sometimes spell the email in another case.
fn email_people(
    rng: &mut StdRng,
    events: &mut Vec<SynthEvent>,
    person: usize,
    start: i64,
    now: Timestamp,
) {
    let email = format!("buyer-{person}@example.test");
    let (anonymous, second_device) = (format!("e-anon-{person}"), format!("e-anon-{person}-b"));
    let (user, second_user) = (format!("e-user-{person}"), format!("e-user-{person}-b"));
    let mut at = rng.random_range(start..now.millis());
    // The next step of the journey, an hour to two days later.
    let later = |rng: &mut StdRng, at: &mut i64| {
        *at += rng.random_range(HOUR_MS..2 * DAY_MS);
        *at
    };
    let mut next = 0;
    let mut push = |rng: &mut StdRng,
                    stage: Stage,
                    at: i64,
                    ids: (Option<&str>, Option<&str>, Option<&str>),
                    value: Option<i64>,
                    touch: bool| {
        next += 1;
        let (attribution, intended_channel) = if touch {
            Touch::pick(rng).attribution(rng)
        } else {
            (None, None)
        };
        events.push(SynthEvent {
            dedupe_id: format!("syn-email-{person}-{next}"),
            stage,
            occurred_at: Timestamp::from_millis(at.min(now.millis())),
            anonymous_id: ids.0.map(str::to_owned),
            user_id: ids.1.map(str::to_owned),
            email: ids.2.map(str::to_owned),
            value,
            attribution,
            intended_channel,
        });
    };
    let charge_email = |rng: &mut StdRng| {
        if rng.random_bool(0.3) {
            format!("Buyer-{person}@Example.TEST")
        } else {
            email.clone()
        }
    };
    let price = [1900, 4900, 9900][rng.random_range(0..3)];
    let (anon, anon_b) = (Some(anonymous.as_str()), Some(second_device.as_str()));
    let (usr, usr_b, mail) = (
        Some(user.as_str()),
        Some(second_user.as_str()),
        Some(email.as_str()),
    );
    match person % 6 {
        0 => {
            push(rng, Stage::Visit, at, (anon, None, None), None, true);
            let t = later(rng, &mut at);
            push(rng, Stage::Engaged, t, (anon, usr, mail), None, false);
            for _ in 0..rng.random_range(1..3) {
                let (t, charged) = (later(rng, &mut at), charge_email(rng));
                let ids = (None, None, Some(charged.as_str()));
                push(rng, Stage::Payment, t, ids, Some(price), false);
            }
        }
        1 => {
            let charged = charge_email(rng);
            let ids = (None, None, Some(charged.as_str()));
            push(rng, Stage::Payment, at, ids, Some(price), false);
            let t = later(rng, &mut at);
            push(rng, Stage::Visit, t, (anon, None, None), None, true);
            let t = later(rng, &mut at);
            push(rng, Stage::Signup, t, (anon, usr, mail), None, false);
        }
        2 => {
            push(rng, Stage::Visit, at, (anon, None, None), None, true);
            let t = later(rng, &mut at);
            push(rng, Stage::Lead, t, (anon, None, mail), None, false);
            let (t, charged) = (later(rng, &mut at), charge_email(rng));
            let ids = (None, None, Some(charged.as_str()));
            push(rng, Stage::Payment, t, ids, Some(price), false);
            // Every other one signs up later; the rest never have an account.
            if (person / 6) % 2 == 1 {
                let t = later(rng, &mut at);
                push(rng, Stage::Signup, t, (anon, usr, mail), None, false);
            }
        }
        3 => {
            push(rng, Stage::Visit, at, (anon, None, None), None, true);
            let t = later(rng, &mut at);
            push(rng, Stage::Signup, t, (anon, usr, mail), None, false);
            let t = later(rng, &mut at);
            push(rng, Stage::Visit, t, (anon_b, None, None), None, true);
            let t = later(rng, &mut at);
            push(rng, Stage::Signup, t, (anon_b, usr_b, mail), None, false);
            let (t, charged) = (later(rng, &mut at), charge_email(rng));
            let ids = (None, None, Some(charged.as_str()));
            push(rng, Stage::Payment, t, ids, Some(price), false);
        }
        4 => {
            for _ in 0..rng.random_range(1..4) {
                let (t, charged) = (later(rng, &mut at), charge_email(rng));
                let ids = (None, None, Some(charged.as_str()));
                push(rng, Stage::Payment, t, ids, Some(price), false);
            }
        }
        _ => {
            push(rng, Stage::Visit, at, (anon, None, None), None, true);
            let t = later(rng, &mut at);
            push(rng, Stage::Engaged, t, (anon, usr, mail), None, false);
            let t = later(rng, &mut at);
            push(rng, Stage::Visit, t, (anon_b, None, None), None, true);
            let t = later(rng, &mut at);
            push(rng, Stage::Lead, t, (anon_b, None, mail), None, false);
            let (t, charged) = (later(rng, &mut at), charge_email(rng));
            let ids = (None, None, Some(charged.as_str()));
            push(rng, Stage::Payment, t, ids, Some(price), false);
        }
    }
}

fn spend_rows(rng: &mut StdRng, now: Timestamp, days: i64) -> Vec<SpendRow> {
    let mut rows = Vec::new();
    for back in 0..days {
        let day = now.minus_millis(back * DAY_MS).day();
        let mut push = |network: &str,
                        channel: &str,
                        campaign: (&str, &str),
                        group: (&str, &str),
                        keyword: (&str, &str),
                        ad: (&str, &str),
                        spend: i64| {
            rows.push(SpendRow {
                day: day.clone(),
                network: network.into(),
                channel: channel.into(),
                campaign_id: campaign.0.into(),
                campaign_name: Some(campaign.1.into()),
                ad_group_id: group.0.into(),
                ad_group_name: (!group.0.is_empty()).then(|| group.1.into()),
                keyword_id: keyword.0.into(),
                keyword: (!keyword.0.is_empty()).then(|| keyword.1.into()),
                ad_id: ad.0.into(),
                ad_name: (!ad.0.is_empty()).then(|| ad.1.into()),
                spend_cents: spend,
                impressions: spend / 3,
                clicks: spend / 150,
            });
        };
        push(
            "google",
            "paid_google",
            ("111", "g-brand"),
            ("1110", "brand exact"),
            ("11101", "payback app"),
            ("", ""),
            rng.random_range(500..3000),
        );
        push(
            "google",
            "paid_google",
            ("222", "g-generic"),
            ("2220", "generic"),
            ("22201", "ad spend tracker"),
            ("", ""),
            rng.random_range(1000..6000),
        );
        push(
            "meta",
            "paid_meta",
            ("333", "m-prospecting"),
            ("3330", "lookalike"),
            ("", ""),
            ("33301", "video-a"),
            rng.random_range(800..4000),
        );
        push(
            "meta",
            "paid_meta",
            ("333", "m-prospecting"),
            ("3330", "lookalike"),
            ("", ""),
            ("33302", "carousel-b"),
            rng.random_range(800..4000),
        );
        // LinkedIn spends but brings nobody: its CAC must read null, never 0.
        push(
            "linkedin",
            "paid_linkedin",
            ("444", "li-abm"),
            ("", ""),
            ("", ""),
            ("", ""),
            rng.random_range(300..1500),
        );
    }
    rows
}

impl Dataset {
    /// Sends every event through `POST /products/{slug}/events` (batches of 500, arrival order)
    /// and writes the spend rows through the store.
    pub async fn load(&self, app: &TestApp, api_key: &str, slug: &str) {
        for chunk in self.events.chunks(500) {
            self.send(app, api_key, slug, chunk).await;
        }
        self.write_spend(app, api_key, slug).await;
    }

    /// As [`Dataset::load`], in batches of `per_fold` events each folded before the next is
    /// sent: what one fold stored, a later one must merge (a charge stored under its email, then
    /// claimed).
    pub async fn load_in_folds(&self, app: &TestApp, api_key: &str, slug: &str, per_fold: usize) {
        for chunk in self.events.chunks(per_fold) {
            self.send(app, api_key, slug, chunk).await;
            app.settle().await;
        }
        self.write_spend(app, api_key, slug).await;
    }

    async fn send(&self, app: &TestApp, api_key: &str, slug: &str, chunk: &[SynthEvent]) {
        let events: Vec<Value> = chunk.iter().map(SynthEvent::to_json).collect();
        let reply = app
            .post(
                &format!("/products/{slug}/events"),
                Some(api_key),
                json!({ "events": events }),
            )
            .await;
        assert_eq!(
            reply.status, 200,
            "loading synthetic events: {}",
            reply.text
        );
    }

    async fn write_spend(&self, app: &TestApp, api_key: &str, slug: &str) {
        let product = app.get(&format!("/products/{slug}"), Some(api_key)).await;
        let product_id = product.body["product_id"]
            .as_str()
            .expect("product id")
            .to_owned();
        let mut tx = app.state.store.begin().await.expect("begin");
        payback_store::spend::upsert(&mut tx, &product_id, "synthetic", &self.spend, self.now)
            .await
            .expect("spend");
        tx.commit().await.expect("commit");
    }
}
