#![allow(clippy::unwrap_used)]
//! The payments connector against the Stripe fake: every expected value is computed here from
//! the seeded data, independently of the connector's mapping code.

mod stripe_fake;

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

use payback_connectors::payments::{self, PaymentStage, PaymentsConfig, RetryPolicy};
use payback_connectors::{ConnectorError, SyncOutput, SyncWindow};
use payback_domain::Timestamp;
use payback_domain::event::IncomingEvent;
use stripe_fake::{FakeCharge, FakeCustomer, FakeDispute, FakeRefund, Seed, StripeFake};

const KEY: &str = "sk_test_51PaybackFakeSecret0123456789";
/// 2026-09-21T14:13:20Z: every seeded object is created after this (Unix seconds).
const T0: i64 = 1_790_000_000;
const DAY: i64 = 86_400;

fn config(fake: &StripeFake, key: &str, stage: PaymentStage) -> PaymentsConfig {
    PaymentsConfig {
        secret_key: key.to_owned(),
        base_url: fake.base_url.clone(),
        default_stage: stage,
        retry: RetryPolicy {
            retries: 3,
            base_delay: Duration::from_millis(1),
        },
    }
}

fn window_secs(from: i64, to: i64) -> SyncWindow {
    SyncWindow {
        from: Timestamp::from_millis(from * 1000),
        to: Timestamp::from_millis(to * 1000),
    }
}

fn wide_window() -> SyncWindow {
    window_secs(T0 - DAY, T0 + 60 * DAY)
}

fn at(secs: i64) -> String {
    Timestamp::from_millis(secs * 1000).to_rfc3339()
}

fn by_id(output: &SyncOutput) -> HashMap<String, IncomingEvent> {
    let map: HashMap<String, IncomingEvent> = output
        .events
        .iter()
        .map(|e| (e.dedupe_id.clone(), e.clone()))
        .collect();
    assert_eq!(map.len(), output.events.len(), "dedupe ids must be unique");
    map
}

/// Every event passes the same checks as the events API, so the sync engine's batch is never
/// refused.
fn assert_ingestible(output: &SyncOutput, currency: &str) {
    let now = Timestamp::from_millis((T0 + 365 * DAY) * 1000);
    for event in &output.events {
        let checked = event.clone().validate(now, currency);
        assert!(
            checked.is_ok(),
            "{:?}: {:?}",
            event.dedupe_id,
            checked.err()
        );
    }
}

/// reqwest is built without a TLS provider; the binary installs ring at start, and so do tests
/// (the fake is plain HTTP, but the client refuses to build without one).
fn http() -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::new()
}

fn meta(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

/// 250 charges over three pages: failed, pending and uncaptured ones among them, identities from
/// each source.
fn many_charges() -> Seed {
    let mut seed = Seed::default();
    for i in 0..250_i64 {
        let mut charge = FakeCharge::succeeded(&format!("ch_{i:04}"), 1000 + i, "usd", T0 + i * 60);
        match i % 10 {
            3 => {
                charge.status = "failed".into();
                charge.paid = false;
            }
            7 => {
                charge.status = "pending".into();
                charge.paid = false;
            }
            _ => {}
        }
        if i % 25 == 11 {
            charge.captured = false;
        }
        match i % 8 {
            0 => charge.metadata = meta(&[("user_id", &format!("user_{i}")), ("plan", "pro")]),
            4 => charge.metadata = meta(&[("client_reference_id", &format!("ref_{i}"))]),
            1 | 5 => charge.billing_email = Some(format!("Buyer{i}@Example.COM")),
            2 | 6 => {
                let customer = format!("cus_{i}");
                seed.customers.push(FakeCustomer {
                    id: customer.clone(),
                    email: Some(format!("cust{i}@example.com")),
                });
                charge.customer = Some(customer);
            }
            3 => charge.receipt_email = Some(format!("r{i}@example.com")),
            _ => {} // 7: no identity at all, still recorded
        }
        charge.description = Some(format!("order {i}"));
        seed.charges.push(charge);
    }
    seed
}

/// (user_id, email) the seed says a charge belongs to.
fn expected_identity(seed: &Seed, charge: &FakeCharge) -> (Option<String>, Option<String>) {
    let user = charge
        .metadata
        .get("user_id")
        .or(charge.metadata.get("client_reference_id"))
        .cloned();
    let customer_email = charge.customer.as_ref().and_then(|id| {
        seed.customers
            .iter()
            .find(|c| &c.id == id)
            .and_then(|c| c.email.clone())
    });
    let email = charge
        .billing_email
        .clone()
        .or(charge.receipt_email.clone())
        .or(customer_email)
        .map(|e| e.to_lowercase());
    (user, email)
}

#[tokio::test]
async fn pagination_reads_every_successful_charge_once() {
    let seed = many_charges();
    let fake = StripeFake::start(KEY, seed.clone()).await;
    let output = payments::sync(
        &http(),
        &config(&fake, KEY, PaymentStage::Converted),
        wide_window(),
        "USD",
    )
    .await
    .unwrap();

    let expected: Vec<&FakeCharge> = seed
        .charges
        .iter()
        .filter(|c| c.status == "succeeded" && c.paid && c.captured)
        .collect();
    assert!(expected.len() > 150, "successes alone span two pages");
    let events = by_id(&output);
    assert_eq!(events.len(), expected.len());
    for charge in expected {
        let event = &events[&charge.id];
        let (user, email) = expected_identity(&seed, charge);
        assert_eq!(event.stage, "converted");
        assert_eq!(event.value, Some(charge.amount), "{}", charge.id);
        assert_eq!(event.currency.as_deref(), Some("USD"));
        assert_eq!(
            event.occurred_at.as_deref(),
            Some(at(charge.created).as_str())
        );
        assert_eq!(event.user_id, user, "{}", charge.id);
        assert_eq!(event.email, email, "{}", charge.id);
        assert_eq!(
            event.properties.as_ref().unwrap()["stripe_id"],
            charge.id.as_str()
        );
    }
    // Uncaptured, failed and pending charges are not revenue.
    assert!(!events.contains_key("ch_0011"));
    assert!(!events.contains_key("ch_0003"));
    assert!(!events.contains_key("ch_0007"));
    assert_eq!(output.detail, "250 charges, 0 refunds, 0 disputes read");
    assert_ingestible(&output, "USD");

    // Three pages of 100, each continuing after the previous page's last object.
    let pages: Vec<_> = fake
        .requests()
        .into_iter()
        .filter(|r| r.path == "/v1/charges")
        .collect();
    assert_eq!(pages.len(), 3);
    assert!(pages.iter().all(|p| p.param("limit") == Some("100")));
    assert!(
        pages
            .iter()
            .all(|p| p.params("expand[]") == ["data.customer"])
    );
    let mut newest_first: Vec<&FakeCharge> = seed.charges.iter().collect();
    newest_first.sort_by_key(|c| std::cmp::Reverse(c.created));
    assert_eq!(pages[0].param("starting_after"), None);
    assert_eq!(
        pages[1].param("starting_after"),
        Some(newest_first[99].id.as_str())
    );
    assert_eq!(
        pages[2].param("starting_after"),
        Some(newest_first[199].id.as_str())
    );
}

fn disputes_seed() -> Seed {
    let mut seed = Seed::default();
    let charge = |id: &str, amount: i64, created: i64, user: &str| {
        let mut c = FakeCharge::succeeded(id, amount, "usd", created);
        c.metadata = meta(&[("user_id", user)]);
        c
    };
    seed.charges = vec![
        charge("ch_a", 5000, T0, "u_a"),
        charge("ch_b", 3000, T0 + 10, "u_b"),
        charge("ch_c", 8000, T0 + 20, "u_c"),
        charge("ch_d", 2000, T0 + 30, "u_d"),
        charge("ch_e", 4000, T0 + 40, "u_e"),
        charge("ch_g", 1000, T0 + 50, "u_g"),
        charge("ch_h", 700, T0 + 60, "u_h"),
    ];
    // An authorization released without capture: Stripe records a refund for it.
    let mut uncaptured = charge("ch_f", 6000, T0 + 70, "u_f");
    uncaptured.captured = false;
    seed.charges.push(uncaptured);
    let refund = |id: &str, amount: i64, charge: &str, created: i64, status: &str| FakeRefund {
        id: id.into(),
        amount,
        charge: charge.into(),
        currency: "usd".into(),
        created,
        status: status.into(),
    };
    seed.refunds = vec![
        refund("re_a1", 1500, "ch_a", T0 + DAY, "succeeded"),
        refund("re_a2", 500, "ch_a", T0 + DAY + 5, "pending"),
        refund("re_b", 3000, "ch_b", T0 + DAY + 10, "succeeded"),
        refund("re_f", 6000, "ch_f", T0 + DAY + 20, "succeeded"),
        refund("re_x", 700, "ch_h", T0 + DAY + 30, "failed"),
    ];
    let dispute =
        |id: &str, amount: i64, charge: &str, created: i64, status: &str, back: Option<i64>| {
            FakeDispute {
                id: id.into(),
                amount,
                charge: charge.into(),
                currency: "usd".into(),
                created,
                status: status.into(),
                reinstated_at: back,
            }
        };
    seed.disputes = vec![
        dispute("dp_c", 8000, "ch_c", T0 + 2 * DAY, "needs_response", None),
        dispute("dp_d", 2000, "ch_d", T0 + 2 * DAY + 10, "lost", None),
        dispute(
            "dp_e",
            4000,
            "ch_e",
            T0 + 2 * DAY + 20,
            "won",
            Some(T0 + 20 * DAY),
        ),
        dispute(
            "dp_g",
            1000,
            "ch_g",
            T0 + 2 * DAY + 30,
            "warning_closed",
            None,
        ),
        dispute(
            "dp_h",
            700,
            "ch_h",
            T0 + 2 * DAY + 40,
            "mystery_status",
            None,
        ),
    ];
    seed
}

#[tokio::test]
async fn refunds_and_disputes_take_money_back_from_the_right_payer() {
    let seed = disputes_seed();
    let fake = StripeFake::start(KEY, seed.clone()).await;
    let output = payments::sync(
        &http(),
        &config(&fake, KEY, PaymentStage::Payment),
        wide_window(),
        "USD",
    )
    .await
    .unwrap();
    let events = by_id(&output);
    let user_of = |charge: &str| {
        seed.charges
            .iter()
            .find(|c| c.id == charge)
            .and_then(|c| c.metadata.get("user_id").cloned())
    };

    // Expected rows, from the seed: (dedupe id, value, user, occurred_at).
    let mut expected: Vec<(String, i64, Option<String>, i64)> = seed
        .charges
        .iter()
        .filter(|c| c.captured)
        .map(|c| (c.id.clone(), c.amount, user_of(&c.id), c.created))
        .collect();
    for r in &seed.refunds {
        let captured = seed.charges.iter().any(|c| c.id == r.charge && c.captured);
        if r.status == "succeeded" && captured {
            expected.push((r.id.clone(), -r.amount, user_of(&r.charge), r.created));
        }
    }
    for d in &seed.disputes {
        match d.status.as_str() {
            "needs_response" | "lost" => {
                expected.push((d.id.clone(), -d.amount, user_of(&d.charge), d.created));
            }
            "won" | "warning_closed" => {
                expected.push((d.id.clone(), -d.amount, user_of(&d.charge), d.created));
                let back = d.reinstated_at.unwrap_or(d.created);
                expected.push((
                    format!("{}:reversed", d.id),
                    d.amount,
                    user_of(&d.charge),
                    back,
                ));
            }
            _ => {}
        }
    }
    assert_eq!(
        events.len(),
        expected.len(),
        "{:?}",
        events.keys().collect::<Vec<_>>()
    );
    for (id, value, user, created) in &expected {
        let event = events.get(id).unwrap_or_else(|| panic!("missing {id}"));
        assert_eq!(event.value, Some(*value), "{id}");
        assert_eq!(&event.user_id, user, "{id}");
        assert_eq!(
            event.occurred_at.as_deref(),
            Some(at(*created).as_str()),
            "{id}"
        );
        if !id.starts_with("ch_") {
            assert_eq!(event.stage, "payment", "{id}");
        }
    }
    // Net per payer: a refunded charge nets to what was kept, a won dispute to the full charge,
    // lost and open disputes to zero.
    let net = |user: &str| -> i64 {
        output
            .events
            .iter()
            .filter(|e| e.user_id.as_deref() == Some(user))
            .filter_map(|e| e.value)
            .sum()
    };
    assert_eq!(net("u_a"), 5000 - 1500);
    assert_eq!(net("u_b"), 0);
    assert_eq!(net("u_c"), 0);
    assert_eq!(net("u_d"), 0);
    assert_eq!(net("u_e"), 4000);
    assert_eq!(net("u_g"), 1000);
    assert_eq!(net("u_f"), 0);
    assert_eq!(
        events["re_a1"].properties.as_ref().unwrap()["charge"],
        "ch_a"
    );
    assert_eq!(
        output.detail,
        "8 charges, 5 refunds, 5 disputes read; 1 dispute with an unknown status skipped"
    );
    assert_ingestible(&output, "USD");
}

#[tokio::test]
async fn a_dispute_won_after_an_earlier_sync_nets_to_zero() {
    let mut seed = disputes_seed();
    seed.disputes.retain(|d| d.id == "dp_e");
    seed.disputes[0].status = "under_review".into();
    seed.disputes[0].reinstated_at = None;
    let fake = StripeFake::start(KEY, seed).await;
    let config = config(&fake, KEY, PaymentStage::Payment);

    // What the store keeps: the first row per dedupe id, as ingestion drops duplicates.
    let mut stored: BTreeMap<String, i64> = BTreeMap::new();
    fn store(stored: &mut BTreeMap<String, i64>, output: SyncOutput) {
        for e in output.events {
            stored.entry(e.dedupe_id).or_insert(e.value.unwrap());
        }
    }
    store(
        &mut stored,
        payments::sync(&http(), &config, wide_window(), "USD")
            .await
            .unwrap(),
    );
    let open: i64 = stored
        .iter()
        .filter(|(k, _)| k.starts_with("dp_e"))
        .map(|(_, v)| v)
        .sum();
    assert_eq!(open, -4000);

    // Weeks later the routine 7-day re-sync no longer covers the dispute's creation, yet it
    // must still see the win.
    let last_week = window_secs(T0 + 23 * DAY, T0 + 30 * DAY);
    fake.update(|seed| {
        seed.disputes[0].status = "won".into();
        seed.disputes[0].reinstated_at = Some(T0 + 29 * DAY);
    });
    store(
        &mut stored,
        payments::sync(&http(), &config, last_week, "USD")
            .await
            .unwrap(),
    );
    let closed: i64 = stored
        .iter()
        .filter(|(k, _)| k.starts_with("dp_e"))
        .map(|(_, v)| v)
        .sum();
    assert_eq!(closed, 0);
    assert_eq!(stored.get("dp_e:reversed"), Some(&4000));
}

#[tokio::test]
async fn the_window_filters_by_creation_time() {
    let from = T0 + 100;
    let to = T0 + 200;
    let mut seed = Seed::default();
    for (i, created) in [T0, from - 1, from, from + 1, from + 50, to - 1, to, to + 1]
        .iter()
        .enumerate()
    {
        seed.charges.push(FakeCharge::succeeded(
            &format!("ch_{i}"),
            100 * (i as i64 + 1),
            "usd",
            *created,
        ));
    }
    let refund = |id: &str, created: i64| FakeRefund {
        id: id.into(),
        amount: 50,
        charge: "ch_3".into(),
        currency: "usd".into(),
        created,
        status: "succeeded".into(),
    };
    seed.refunds = vec![refund("re_in", to - 1), refund("re_out", to)];
    // Disputes are re-read 120 days back (they are decided long after they open): one opened
    // 10 days before the window and since won is seen again; one from 200 days ago is not.
    let dispute = |id: &str, created: i64, status: &str| FakeDispute {
        id: id.into(),
        amount: 400,
        charge: "ch_3".into(),
        currency: "usd".into(),
        created,
        status: status.into(),
        reinstated_at: None,
    };
    seed.disputes = vec![
        dispute("dp_recent", from - 10 * DAY, "won"),
        dispute("dp_old", from - 200 * DAY, "lost"),
        dispute("dp_late", to, "lost"),
    ];
    let fake = StripeFake::start(KEY, seed.clone()).await;
    // Half a second past `from`: the object created at `from` (at .000) is before the window.
    let window = SyncWindow {
        from: Timestamp::from_millis(from * 1000 + 500),
        to: Timestamp::from_millis(to * 1000),
    };
    let output = payments::sync(
        &http(),
        &config(&fake, KEY, PaymentStage::Payment),
        window,
        "USD",
    )
    .await
    .unwrap();

    let inside = |created: i64| {
        created * 1000 >= window.from.millis() && created * 1000 < window.to.millis()
    };
    let mut expected: Vec<String> = seed
        .charges
        .iter()
        .filter(|c| inside(c.created))
        .map(|c| c.id.clone())
        .collect();
    expected.extend(
        seed.refunds
            .iter()
            .filter(|r| inside(r.created))
            .map(|r| r.id.clone()),
    );
    let lookback = 120 * DAY * 1000;
    for d in &seed.disputes {
        let millis = d.created * 1000;
        if millis >= window.from.millis() - lookback && millis < window.to.millis() {
            expected.push(d.id.clone());
            expected.push(format!("{}:reversed", d.id));
        }
    }
    expected.sort();
    let mut got: Vec<String> = output.events.iter().map(|e| e.dedupe_id.clone()).collect();
    got.sort();
    assert_eq!(got, expected);
    assert_eq!(
        got,
        [
            "ch_3",
            "ch_4",
            "ch_5",
            "dp_recent",
            "dp_recent:reversed",
            "re_in"
        ]
    );
    for request in fake.requests() {
        let gte = if request.path == "/v1/disputes" {
            from + 1 - 120 * DAY
        } else {
            from + 1
        };
        assert_eq!(
            request.param("created[gte]"),
            Some(gte.to_string().as_str()),
            "{}",
            request.path
        );
        assert_eq!(request.param("created[lt]"), Some(to.to_string().as_str()));
    }
}

#[tokio::test]
async fn a_rate_limited_answer_is_retried_with_backoff() {
    let seed = disputes_seed();
    let fake = StripeFake::start(KEY, seed.clone()).await;
    fake.throttle(2);
    let output = payments::sync(
        &http(),
        &config(&fake, KEY, PaymentStage::Payment),
        wide_window(),
        "USD",
    )
    .await
    .unwrap();
    let captured_total: i64 = seed
        .charges
        .iter()
        .filter(|c| c.captured)
        .map(|c| c.amount)
        .sum();
    let charges_total: i64 = output
        .events
        .iter()
        .filter(|e| e.dedupe_id.starts_with("ch_"))
        .filter_map(|e| e.value)
        .sum();
    assert_eq!(charges_total, captured_total);
    // Two throttled tries of the first page, then one page per list.
    let paths: Vec<String> = fake.requests().into_iter().map(|r| r.path).collect();
    assert_eq!(
        paths,
        [
            "/v1/charges",
            "/v1/charges",
            "/v1/charges",
            "/v1/refunds",
            "/v1/disputes"
        ]
    );
}

#[tokio::test]
async fn a_permanent_429_is_rate_limited_after_the_retries() {
    let fake = StripeFake::start(KEY, disputes_seed()).await;
    fake.throttle(u32::MAX);
    let mut config = config(&fake, KEY, PaymentStage::Payment);
    config.retry = RetryPolicy {
        retries: 3,
        base_delay: Duration::from_millis(20),
    };
    let started = Instant::now();
    let err = payments::sync(&http(), &config, wide_window(), "USD")
        .await
        .unwrap_err();
    assert!(matches!(err, ConnectorError::RateLimited(_)), "{err:?}");
    assert!(err.to_string().contains("rate limit"), "{err}");
    // One try and three retries, waiting 20 + 40 + 80 ms between them.
    assert_eq!(fake.requests().len(), 4);
    assert!(
        started.elapsed() >= Duration::from_millis(140),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn a_bad_key_is_unauthorized_and_never_echoed() {
    let fake = StripeFake::start(KEY, disputes_seed()).await;
    let wrong = "sk_live_51WrongKeyNobodyShouldSee42";
    let config = config(&fake, wrong, PaymentStage::Payment);
    let err = payments::sync(&http(), &config, wide_window(), "USD")
        .await
        .unwrap_err();
    assert!(matches!(err, ConnectorError::Unauthorized(_)), "{err:?}");
    let (display, debug) = (err.to_string(), format!("{err:?}"));
    assert!(display.contains("Invalid API Key provided"), "{display}");
    for text in [&display, &debug, &format!("{config:?}")] {
        assert!(!text.contains(wrong), "{text}");
        assert!(!text.contains("51WrongKey"), "{text}");
    }
    // A malformed key is refused before any request, again without repeating it.
    for malformed in [
        "pk_live_51Publishable99",
        "sk_prod_51Nonsense77",
        "whsec_51Webhook00",
    ] {
        let config = PaymentsConfig {
            secret_key: malformed.into(),
            ..config.clone()
        };
        let err = payments::sync(&http(), &config, wide_window(), "USD")
            .await
            .unwrap_err();
        assert!(matches!(err, ConnectorError::Config(_)), "{err:?}");
        assert!(!err.to_string().contains(malformed) && !format!("{err:?}").contains(malformed));
        let err = payments::test(&http(), &config).await.unwrap_err();
        assert!(matches!(err, ConnectorError::Config(_)), "{err:?}");
    }
    assert_eq!(
        fake.requests().len(),
        1,
        "only the first sync reached Stripe"
    );
}

#[tokio::test]
async fn a_foreign_currency_is_skipped_and_reported() {
    let mut seed = Seed::default();
    for i in 0..3 {
        seed.charges.push(FakeCharge::succeeded(
            &format!("ch_eur{i}"),
            2500,
            "eur",
            T0 + i,
        ));
    }
    seed.charges
        .push(FakeCharge::succeeded("ch_usd0", 1999, "usd", T0 + 10));
    seed.charges
        .push(FakeCharge::succeeded("ch_usd1", 4900, "usd", T0 + 11));
    seed.refunds.push(FakeRefund::succeeded(
        "re_eur",
        2500,
        "ch_eur0",
        "eur",
        T0 + 20,
    ));
    let fake = StripeFake::start(KEY, seed.clone()).await;
    let output = payments::sync(
        &http(),
        &config(&fake, KEY, PaymentStage::Payment),
        wide_window(),
        "USD",
    )
    .await
    .unwrap();
    let usd: BTreeMap<String, i64> = seed
        .charges
        .iter()
        .filter(|c| c.currency == "usd")
        .map(|c| (c.id.clone(), c.amount))
        .collect();
    let got: BTreeMap<String, i64> = output
        .events
        .iter()
        .map(|e| (e.dedupe_id.clone(), e.value.unwrap()))
        .collect();
    assert_eq!(got, usd);
    assert_eq!(
        output.detail,
        "5 charges, 1 refund, 0 disputes read; 3 charges in EUR, 1 refund in EUR skipped: product currency is USD"
    );
    assert_ingestible(&output, "USD");
}

#[tokio::test]
async fn zero_decimal_yen_is_scaled_to_hundredths() {
    let mut seed = Seed::default();
    seed.charges
        .push(FakeCharge::succeeded("ch_yen", 500, "jpy", T0));
    seed.charges
        .push(FakeCharge::succeeded("ch_yen2", 12_800, "jpy", T0 + 1));
    seed.refunds.push(FakeRefund::succeeded(
        "re_yen",
        200,
        "ch_yen",
        "jpy",
        T0 + 2,
    ));
    let fake = StripeFake::start(KEY, seed.clone()).await;
    let output = payments::sync(
        &http(),
        &config(&fake, KEY, PaymentStage::Payment),
        wide_window(),
        "jpy",
    )
    .await
    .unwrap();
    let events = by_id(&output);
    // ¥500 is 500 whole yen on Stripe; Payback's value is hundredths of the unit.
    for charge in &seed.charges {
        assert_eq!(events[&charge.id].value, Some(charge.amount * 100));
        assert_eq!(events[&charge.id].currency.as_deref(), Some("JPY"));
    }
    assert_eq!(events["re_yen"].value, Some(-seed.refunds[0].amount * 100));
    assert_ingestible(&output, "JPY");
}

#[tokio::test]
async fn test_proves_the_key_and_refuses_a_bad_one() {
    let fake = StripeFake::start(KEY, Seed::default()).await;
    let good = payments::test(&http(), &config(&fake, KEY, PaymentStage::Payment))
        .await
        .unwrap();
    assert_eq!(good, "secret key works (test mode)");
    // One cheap read of each list sync needs, with the same expansions.
    let requests = fake.requests();
    let paths: Vec<&str> = requests.iter().map(|r| r.path.as_str()).collect();
    assert_eq!(paths, ["/v1/charges", "/v1/refunds", "/v1/disputes"]);
    assert!(requests.iter().all(|r| r.param("limit") == Some("1")));

    let restricted = "rk_live_51RestrictedReadOnly";
    fake.add_key(restricted, &[]);
    let line = payments::test(&http(), &config(&fake, restricted, PaymentStage::Payment))
        .await
        .unwrap();
    assert_eq!(line, "restricted key works (live mode)");

    let wrong = "sk_test_51NotTheRightKeyAtAll";
    let err = payments::test(&http(), &config(&fake, wrong, PaymentStage::Payment))
        .await
        .unwrap_err();
    assert!(matches!(err, ConnectorError::Unauthorized(_)), "{err:?}");
    assert!(!err.to_string().contains(wrong) && !format!("{err:?}").contains(wrong));

    // A restricted key without the disputes permission fails at connect time, saying why.
    let partial = "rk_test_51NoDisputes";
    fake.add_key(partial, &["/v1/disputes"]);
    let err = payments::test(&http(), &config(&fake, partial, PaymentStage::Payment))
        .await
        .unwrap_err();
    assert!(matches!(err, ConnectorError::Unauthorized(_)), "{err:?}");
    let text = err.to_string();
    assert!(
        text.contains("403") && text.contains("/v1/disputes") && text.contains("read access"),
        "{text}"
    );
    assert!(!text.contains(partial), "{text}");
}

#[tokio::test]
async fn an_unreachable_api_is_reported_as_such() {
    // Bind then drop a listener: nothing answers on that port.
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let config = PaymentsConfig {
        secret_key: KEY.into(),
        base_url: format!("http://127.0.0.1:{port}"),
        default_stage: PaymentStage::Payment,
        retry: RetryPolicy::default(),
    };
    let err = payments::test(&http(), &config).await.unwrap_err();
    assert!(matches!(err, ConnectorError::Unreachable(_)), "{err:?}");
    assert!(!format!("{err:?}").contains(KEY));
}
