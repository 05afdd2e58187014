//! The report over synthetic datasets against an oracle computed straight from the events
//! (identities and first touches resolved here), for several seeds and windows.

use std::collections::{BTreeMap, HashMap};

use payback_domain::Stage;
use payback_domain::span::Span;
use payback_testkit::synthetic::{self, Dataset, SynthConfig, SynthEvent};

use super::*;

/// Canonical identities and first touches, resolved from the dataset alone.
struct Oracle {
    identity: Vec<Option<String>>,
    first_touch: HashMap<String, &'static str>,
}

impl Oracle {
    fn new(events: &[SynthEvent]) -> Self {
        // An anonymous id seen with a user id belongs to that user; the first link wins.
        let mut links: HashMap<&str, &str> = HashMap::new();
        for event in events {
            if let (Some(anonymous), Some(user)) = (&event.anonymous_id, &event.user_id) {
                links.entry(anonymous).or_insert(user);
            }
        }
        let identity: Vec<Option<String>> = events
            .iter()
            .map(|e| match (&e.user_id, &e.anonymous_id) {
                (Some(user), _) => Some(format!("u:{user}")),
                (None, Some(anonymous)) => Some(match links.get(anonymous.as_str()) {
                    Some(user) => format!("u:{user}"),
                    None => format!("a:{anonymous}"),
                }),
                (None, None) => None,
            })
            .collect();
        // First touch: the channel of the identity's earliest event with one (ties: the event
        // that arrived first).
        let mut earliest: HashMap<String, (Timestamp, &'static str)> = HashMap::new();
        for (event, id) in events.iter().zip(&identity) {
            let (Some(id), Some(channel)) = (id, event.intended_channel) else {
                continue;
            };
            let entry = earliest
                .entry(id.clone())
                .or_insert((event.occurred_at, channel));
            if event.occurred_at < entry.0 {
                *entry = (event.occurred_at, channel);
            }
        }
        let first_touch = earliest.into_iter().map(|(k, (_, c))| (k, c)).collect();
        Self {
            identity,
            first_touch,
        }
    }
}

/// What `count` events carrying `amount` in total are worth under a definition's value mode.
type Valuer<'a> = &'a dyn Fn(i64, i64) -> i64;

/// What a definition should report for `days`, computed from the events.
struct Expected {
    current: (i64, i64),
    previous: (i64, i64),
    channels: BTreeMap<String, (i64, i64)>,
}

fn expected(
    dataset: &Dataset,
    oracle: &Oracle,
    stage: Stage,
    value: Valuer,
    days: i64,
) -> Expected {
    let span = Span::days_ending(dataset.now, days);
    let previous = span.previous();
    let mut current = (0, 0);
    let mut before = (0, 0);
    let mut channels: BTreeMap<String, (i64, i64)> = BTreeMap::new();
    for (event, id) in dataset.events.iter().zip(&oracle.identity) {
        if event.stage != stage {
            continue;
        }
        let amount = event.value.unwrap_or(0);
        let in_window = |s: Span| s.start <= event.occurred_at && event.occurred_at < s.end;
        if in_window(span) {
            current.0 += 1;
            current.1 += amount;
            let channel = event
                .intended_channel
                .or_else(|| {
                    id.as_ref()
                        .and_then(|id| oracle.first_touch.get(id).copied())
                })
                .unwrap_or("unattributed");
            let entry = channels.entry(channel.to_owned()).or_default();
            entry.0 += 1;
            entry.1 += amount;
        } else if in_window(previous) {
            before.0 += 1;
            before.1 += amount;
        }
    }
    Expected {
        current: (current.0, value(current.0, current.1)),
        previous: (before.0, value(before.0, before.1)),
        channels: channels
            .into_iter()
            .map(|(c, (n, amount))| (c, (n, value(n, amount))))
            .collect(),
    }
}

fn expected_json(key: &str, stage: Stage, e: &Expected) -> Value {
    let mut channels: Vec<(&String, &(i64, i64))> = e.channels.iter().collect();
    channels.sort_by(|a, b| b.1.0.cmp(&a.1.0).then_with(|| a.0.cmp(b.0)));
    let change = (e.previous.0 != 0).then(|| {
        let pct = (e.current.0 - e.previous.0) as f64 / e.previous.0 as f64 * 100.0;
        (pct * 10.0).round() / 10.0
    });
    json!({
        "key": key, "label": key, "tier": "secondary", "stage": stage.as_str(),
        "current": {"count": e.current.0, "value_cents": e.current.1},
        "previous": {"count": e.previous.0, "value_cents": e.previous.1},
        "change_pct": change,
        "channels": channels.iter().map(|(c, (n, v))| json!({"channel": c, "count": n, "value_cents": v})).collect::<Vec<_>>(),
    })
}

async fn synthetic_volumes_values_and_channels_match_the_oracle(app: TestApp) {
    for (index, seed) in [3_u64, 11, 29].into_iter().enumerate() {
        let session = app
            .signup_verified(&format!("founder{index}@example.com"))
            .await;
        let key = app.api_key(&session).await;
        let slug = format!("synth-{seed}");
        app.create_product(&key, &slug).await;
        let config = SynthConfig {
            seed,
            identities: 120,
            days: 90,
        };
        let dataset = synthetic::generate(config, app.clock.now());
        dataset.load(&app, &key, &slug).await;
        let oracle = Oracle::new(&dataset.events);

        let none = |_: i64, _: i64| 0;
        let transaction = |_: i64, amount: i64| amount;
        let fixed = |n: i64, _: i64| n * 1500;
        let definitions: [(&str, Stage, Value, Valuer); 5] = [
            ("visits", Stage::Visit, json!({}), &none),
            ("signups", Stage::Signup, json!({}), &none),
            (
                "purchases",
                Stage::Converted,
                json!({"value_mode": "transaction"}),
                &transaction,
            ),
            (
                "payments",
                Stage::Payment,
                json!({"value_mode": "fixed", "fixed_value_cents": 1500}),
                &fixed,
            ),
            (
                "payment-revenue",
                Stage::Payment,
                json!({"value_mode": "transaction"}),
                &transaction,
            ),
        ];
        for (name, stage, extra, _) in &definitions {
            let mut body =
                json!({"key": name, "label": name, "tier": "secondary", "stage": stage.as_str()});
            for (field, value) in extra.as_object().unwrap() {
                body[field] = value.clone();
            }
            let path = format!("/products/{slug}/conversions");
            app.clock.advance(1);
            app.post(&path, Some(&key), body).await.expect(200);
        }
        // Synthetic events carry no names and no source wrote anything: both read 0.
        for body in [
            json!({"key": "named", "label": "named", "tier": "secondary", "stage": "visit", "event_name": "pricing"}),
            json!({"key": "from-db", "label": "from-db", "tier": "secondary", "stage": "signup", "source": "sql_a"}),
        ] {
            let path = format!("/products/{slug}/conversions");
            app.clock.advance(1);
            app.post(&path, Some(&key), body).await.expect(200);
        }

        let list = app
            .get(&format!("/products/{slug}/conversions"), Some(&key))
            .await;
        let list = list.expect(200)["conversions"].as_array().unwrap().clone();
        for (position, (name, stage, _, value)) in definitions.iter().enumerate() {
            let e = expected(&dataset, &oracle, *stage, *value, 30);
            assert_eq!(list[position]["key"], *name);
            assert_eq!(
                (
                    list[position]["volume_30d"].as_i64().unwrap(),
                    list[position]["value_30d_cents"].as_i64().unwrap()
                ),
                e.current,
                "seed {seed}: {name} list"
            );
            assert!(e.current.0 > 0, "seed {seed}: {name} has data to check");
        }
        for position in [5, 6] {
            assert_eq!(list[position]["volume_30d"], 0, "seed {seed}");
            assert_eq!(list[position]["value_30d_cents"], 0, "seed {seed}");
        }

        for days in [7, 30, 45] {
            let report = app
                .get(
                    &format!("/products/{slug}/conversions/report?days={days}"),
                    Some(&key),
                )
                .await;
            let report = report.expect(200).clone();
            assert_eq!(report["window_days"], days);
            for (position, (name, stage, _, value)) in definitions.iter().enumerate() {
                let e = expected(&dataset, &oracle, *stage, *value, days);
                assert_eq!(
                    report["conversions"][position],
                    expected_json(name, *stage, &e),
                    "seed {seed}, days {days}: {name}"
                );
            }
            assert_eq!(report["conversions"][5]["current"]["count"], 0);
            assert_eq!(report["conversions"][6]["channels"], json!([]));
        }
    }
}

backend_tests!(synthetic_volumes_values_and_channels_match_the_oracle);
