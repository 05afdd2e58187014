//! The oracle: the synthetic dataset with identities resolved here (an anonymous id linked to a
//! user is that user; an event known only by its email is whoever holds the email), and the
//! attribution, sales and ads reports computed from it plainly.

use std::collections::{BTreeMap, HashMap};

use payback_domain::channel::Attribution;
use payback_domain::{DAY_MS, Stage, Timestamp};
use payback_testkit::synthetic::{Dataset, SynthEvent};

use super::*;

struct Ev<'a> {
    index: usize,
    src: &'a SynthEvent,
    at: i64,
    identity: Option<String>,
}

/// Who holds an email, as docs/numbers.md states the rule.
#[derive(Debug, Clone, PartialEq)]
enum Holder<'a> {
    User(&'a str),
    /// An anonymous id that named the email before any user did.
    Visitor(&'a str),
    /// Only charges (events with neither id) named it so far: the identity `e:<email>`.
    Nobody,
}

/// The dataset with identities resolved: an anonymous id seen with a user id is that user
/// (first link in arrival order wins); the canonical identity is the user if known. An email is
/// held by the first identity that names it: a user holds it for good (a second user naming it
/// is a conflict, counted, and changes nothing); a visitor holds it until a user names it, and is
/// then linked to that user; a visitor naming a user's email is linked to that user. An event
/// with only an email is its holder, or `e:<email>` while nobody holds it.
pub(crate) struct World<'a> {
    events: Vec<Ev<'a>>,
    by_identity: HashMap<String, Vec<usize>>,
    spend: &'a [SpendRow],
    /// Email -> the latest time an event named it with a user other than its holder.
    conflicts: HashMap<String, i64>,
    /// Charges that arrived while nobody held their email, and later found a holder.
    claimed_late: usize,
}

impl<'a> World<'a> {
    pub(crate) fn new(data: &'a Dataset) -> Self {
        let mut links: HashMap<&str, &str> = HashMap::new();
        let mut holders: HashMap<String, Holder> = HashMap::new();
        let mut conflicts: HashMap<String, i64> = HashMap::new();
        let mut unheld_on_arrival: Vec<String> = Vec::new();
        for e in &data.events {
            if let (Some(a), Some(u)) = (&e.anonymous_id, &e.user_id) {
                links.entry(a.as_str()).or_insert(u.as_str());
            }
            let Some(email) = e.email.as_deref().map(|m| m.trim().to_ascii_lowercase()) else {
                continue;
            };
            let seen_as = match (&e.user_id, &e.anonymous_id) {
                (Some(u), _) => Some(Holder::User(u)),
                (None, Some(a)) => Some(
                    links
                        .get(a.as_str())
                        .map_or(Holder::Visitor(a), |u| Holder::User(u)),
                ),
                (None, None) => None,
            };
            let holder = holders.get(&email).cloned().map(|h| match h {
                Holder::Visitor(a) => links.get(a).map_or(h, |u| Holder::User(u)),
                other => other,
            });
            if seen_as.is_none() && matches!(holder, None | Some(Holder::Nobody)) {
                unheld_on_arrival.push(email.clone());
            }
            match (seen_as, holder) {
                (None, None) => {
                    holders.insert(email, Holder::Nobody);
                }
                (Some(who), None | Some(Holder::Nobody)) => {
                    holders.insert(email, who);
                }
                (Some(Holder::User(u)), Some(Holder::Visitor(a))) => {
                    links.insert(a, u);
                    holders.insert(email, Holder::User(u));
                }
                (Some(Holder::Visitor(a)), Some(Holder::User(u))) => {
                    links.insert(a, u);
                }
                (Some(Holder::User(u)), Some(Holder::User(owner))) if u != owner => {
                    let at = conflicts.entry(email).or_insert(i64::MIN);
                    *at = (*at).max(e.occurred_at.millis());
                }
                _ => {}
            }
        }
        let claimed_late = unheld_on_arrival
            .iter()
            .filter(|email| holders[*email] != Holder::Nobody)
            .count();
        let anonymous = |a: &str| match links.get(a) {
            Some(u) => format!("u:{u}"),
            None => format!("a:{a}"),
        };
        let mut events = Vec::new();
        let mut by_identity: HashMap<String, Vec<usize>> = HashMap::new();
        for (index, src) in data.events.iter().enumerate() {
            let identity = match (&src.user_id, &src.anonymous_id, &src.email) {
                (Some(u), _, _) => Some(format!("u:{u}")),
                (None, Some(a), _) => Some(anonymous(a)),
                (None, None, Some(email)) => {
                    let email = email.trim().to_ascii_lowercase();
                    Some(match &holders[&email] {
                        Holder::User(u) => format!("u:{u}"),
                        Holder::Visitor(a) => anonymous(a),
                        Holder::Nobody => format!("e:{email}"),
                    })
                }
                (None, None, None) => None,
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
            conflicts,
            claimed_late,
        }
    }

    /// Emails with a conflicting claim in the window.
    fn email_conflicts(&self, w: &Win) -> usize {
        self.conflicts.values().filter(|at| w.has(**at)).count()
    }

    /// How many revenue rows of the whole dataset carry only an email, and how many of those
    /// belong to a user, to a visitor without one, or to nobody (the scenarios the emails test
    /// must cover, whatever the seed).
    pub(crate) fn email_charges(&self) -> (usize, usize, usize) {
        let charges = self.events.iter().filter(|e| {
            e.src.value.is_some()
                && e.src.email.is_some()
                && e.src.user_id.is_none()
                && e.src.anonymous_id.is_none()
        });
        let mut counts = (0, 0, 0);
        for e in charges {
            match e.identity.as_deref().map(|id| &id[..2]) {
                Some("u:") => counts.0 += 1,
                Some("a:") => counts.1 += 1,
                _ => counts.2 += 1,
            }
        }
        counts
    }

    /// Emails two users claimed, over the whole dataset.
    pub(crate) fn conflicted_emails(&self) -> usize {
        self.conflicts.len()
    }

    /// Email-only events that arrived before anyone held their email, and found a holder later.
    pub(crate) fn claimed_late(&self) -> usize {
        self.claimed_late
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

pub(crate) struct Win {
    start: i64,
    end: i64,
    first_day: String,
    last_day: String,
}

impl Win {
    pub(crate) fn new(now: Timestamp, days: i64) -> Self {
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

pub(crate) fn expected_report(world: &World, w: &Win, days: i64) -> Value {
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
            "email_conflicts": world.email_conflicts(w),
        },
    })
}

/// Revenue rows of the window, newest first (ties: the later-ingested), as the sales list.
pub(crate) fn expected_sales(world: &World, w: &Win) -> Vec<Value> {
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

pub(crate) fn expected_ads(world: &World, w: &Win, days: i64, level: &str) -> Value {
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
