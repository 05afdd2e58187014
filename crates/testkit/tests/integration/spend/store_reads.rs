//! What a sync writes is what the money reports read: spend replaced one ad account's days at a
//! time through `store::spend::replace_account_days` (the call the sync pipeline makes), then
//! CAC and ROAS of the attribution report and the payback report's cohorts and CAC rows,
//! compared with sums of an independent ledger and of the test's own customers.

use payback_domain::metrics::div_round;
use payback_domain::{Clock, Timestamp};
use payback_store::spend::{self, AccountDays, SpendRow};
use payback_testkit::{TestApp, backend_tests};
use serde_json::{Value, json};

use super::ledger::{Ad, Ledger, ad};

/// A customer: first touched by `channel` an hour before the first payment.
struct Customer {
    user: &'static str,
    channel: &'static str,
    /// `(RFC 3339, cents)`; the first one acquires.
    payments: &'static [(&'static str, i64)],
}

const CUSTOMERS: [Customer; 5] = [
    Customer {
        user: "m1",
        channel: "paid_meta",
        payments: &[
            ("2026-10-27T09:00:00Z", 4_000),
            ("2026-11-06T09:00:00Z", 3_000),
        ],
    },
    Customer {
        user: "m2",
        channel: "paid_meta",
        payments: &[("2026-10-27T10:00:00Z", 4_000)],
    },
    Customer {
        user: "g1",
        channel: "paid_google",
        payments: &[("2026-10-28T10:00:00Z", 4_000)],
    },
    Customer {
        user: "m3",
        channel: "paid_meta",
        payments: &[("2026-11-18T10:00:00Z", 2_500)],
    },
    Customer {
        user: "o1",
        channel: "organic_search",
        payments: &[("2026-11-19T10:00:00Z", 1_000)],
    },
];

fn at(text: &str) -> Timestamp {
    Timestamp::parse_rfc3339(text).unwrap()
}

fn events() -> Value {
    let mut events = Vec::new();
    for customer in &CUSTOMERS {
        let first = at(customer.payments[0].0).minus_millis(payback_domain::HOUR_MS);
        events.push(json!({
            "dedupe_id": format!("v-{}", customer.user), "stage": "visit", "user_id": customer.user,
            "occurred_at": first.to_rfc3339(), "attribution": {"channel": customer.channel},
        }));
        for (index, (when, cents)) in customer.payments.iter().enumerate() {
            events.push(json!({
                "dedupe_id": format!("p-{}-{index}", customer.user), "stage": "payment",
                "user_id": customer.user, "occurred_at": when, "value": cents,
            }));
        }
    }
    Value::Array(events)
}

/// Customers acquired on the days `first..=last` whose first touch was `channel` (any: `None`).
fn acquired<'a>(
    channel: Option<&'a str>,
    first: &'a str,
    last: &'a str,
) -> impl Iterator<Item = &'static Customer> + 'a {
    CUSTOMERS.iter().filter(move |c| {
        let day = at(c.payments[0].0).day();
        channel.is_none_or(|ch| ch == c.channel) && first <= day.as_str() && day.as_str() <= last
    })
}

/// Revenue on the days `first..=last` of customers first touched by `channel`.
fn revenue_first(channel: &str, first: &str, last: &str) -> i64 {
    CUSTOMERS
        .iter()
        .filter(|c| c.channel == channel)
        .flat_map(|c| c.payments.iter())
        .filter(|(when, _)| {
            let day = at(when).day();
            first <= day.as_str() && day.as_str() <= last
        })
        .map(|(_, cents)| cents)
        .sum()
}

async fn replace(
    app: &TestApp,
    ledger: &mut Ledger,
    product_id: &str,
    (network, account): (&str, &str),
    (first, last): (&str, &str),
    ads: &[Ad],
) {
    let rows: Vec<SpendRow> = ads
        .iter()
        .map(|ad| SpendRow {
            day: ad.day.to_owned(),
            network: network.to_owned(),
            channel: format!("paid_{network}"),
            campaign_id: ad.campaign.to_owned(),
            ad_group_id: ad.group.to_owned(),
            keyword_id: ad.keyword.to_owned(),
            ad_id: ad.ad.to_owned(),
            spend_cents: ad.cents,
            ..SpendRow::default()
        })
        .collect();
    let read = AccountDays {
        network,
        ad_account: account,
        first_day: first,
        last_day: last,
    };
    let mut tx = app.state.store.begin().await.unwrap();
    spend::replace_account_days(
        &mut tx,
        product_id,
        "test",
        read,
        &rows,
        &[],
        app.clock.now(),
    )
    .await
    .unwrap();
    tx.commit().await.unwrap();
    ledger.replace(network, account, first, last, ads);
}

fn keyword(day: &'static str, keyword: &'static str, ad: &'static str, cents: i64) -> Ad {
    Ad {
        day,
        campaign: "g1",
        group: "gg1",
        keyword,
        ad,
        cents,
    }
}

async fn cac_roas_and_payback_read_what_a_sync_wrote(app: TestApp) {
    let session = app.signup_verified("founder@example.com").await;
    let key = app.api_key(&session).await;
    let product_id = app.create_product(&key, "shop").await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    app.post(
        "/products/shop/events",
        Some(&key),
        json!({ "events": events() }),
    )
    .await
    .expect(200);

    let mut ledger = Ledger::default();
    let month = ("2026-10-26", "2026-11-21");
    let meta = [
        ad("2026-10-26", "c1", "a1", 5_000),
        ad("2026-10-27", "c1", "a1", 3_000),
        ad("2026-10-27", "c2", "a2", 3_500),
        ad("2026-11-17", "c1", "a1", 1_200),
        ad("2026-11-20", "c1", "a1", 600),
        ad("2026-11-20", "c2", "a2", 800),
    ];
    replace(
        &app,
        &mut ledger,
        &product_id,
        ("meta", "act_1"),
        month,
        &meta,
    )
    .await;
    let google = [
        keyword("2026-10-27", "k1", "ga1", 1_000),
        keyword("2026-10-27", "k2", "ga2", 1_500),
        keyword("2026-11-18", "k1", "ga1", 900),
    ];
    replace(
        &app,
        &mut ledger,
        &product_id,
        ("google", "123-456-7890"),
        month,
        &google,
    )
    .await;
    let other_account = [ad("2026-11-19", "c9", "a9", 700)];
    replace(
        &app,
        &mut ledger,
        &product_id,
        ("meta", "act_2"),
        month,
        &other_account,
    )
    .await;
    // A later read of act_1's last week: one day restated, campaign c2 gone, today new. The
    // other account's day inside that week stays.
    let week = ("2026-11-15", "2026-11-21");
    let restated = [
        ad("2026-11-17", "c1", "a1", 1_300),
        ad("2026-11-20", "c1", "a1", 600),
        ad("2026-11-21", "c1", "a1", 400),
    ];
    replace(
        &app,
        &mut ledger,
        &product_id,
        ("meta", "act_1"),
        week,
        &restated,
    )
    .await;
    // Reading the same again stores nothing twice.
    replace(
        &app,
        &mut ledger,
        &product_id,
        ("meta", "act_1"),
        week,
        &restated,
    )
    .await;
    ledger.assert_stored(&app, &product_id).await;
    assert_eq!(ledger.sum(Some("meta"), "2026-11-15", "2026-11-21"), 3_000);

    // Attribution, 30 days (2026-10-23..2026-11-21): per channel spend, CAC and ROAS.
    let report = app
        .get("/products/shop/attribution?days=30", Some(&key))
        .await
        .expect(200)
        .clone();
    let (first, last) = ("2026-10-23", "2026-11-21");
    for (channel, network) in [("paid_meta", "meta"), ("paid_google", "google")] {
        let row = report["channels"]
            .as_array()
            .unwrap()
            .iter()
            .find(|row| row["channel"] == channel)
            .unwrap();
        let spend = ledger.sum(Some(network), first, last);
        let customers = acquired(Some(channel), first, last).count() as i64;
        let revenue = revenue_first(channel, first, last);
        assert_eq!(row["spend_cents"], spend, "{channel}");
        assert_eq!(row["customers_first"], customers, "{channel}");
        assert_eq!(row["revenue_first_cents"], revenue, "{channel}");
        assert_eq!(row["cac_cents"], div_round(spend, customers), "{channel}");
        // JSON carries the ratio to about the last bit.
        let roas = row["roas"].as_f64().unwrap();
        assert!(
            (roas - revenue as f64 / spend as f64).abs() < 1e-12,
            "{channel} {roas}"
        );
    }
    assert_eq!(
        report["totals"]["spend_cents"],
        ledger.sum(None, first, last)
    );

    // Payback: a cohort's spend is all spend of its ISO week.
    let payback = app
        .get("/products/shop/payback", Some(&key))
        .await
        .expect(200)
        .clone();
    let cohort = |monday: &str| {
        payback["cohorts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["cohort"] == monday)
            .unwrap()
            .clone()
    };
    let w1 = ("2026-10-26", "2026-11-01");
    let w1_spend = ledger.sum(None, w1.0, w1.1);
    let w1_customers: Vec<&Customer> = acquired(None, w1.0, w1.1).collect();
    assert_eq!(w1_spend, 14_000);
    // The week's customers' revenue through `d` days after each one's acquisition day; the
    // points shown are those the week's last day has lived through by today (2026-11-21).
    let through = |d: i64| -> i64 {
        w1_customers
            .iter()
            .flat_map(|c| {
                let acquired = at(c.payments[0].0).start_of_day();
                c.payments.iter().filter(move |(when, _)| {
                    at(when).start_of_day().millis()
                        <= acquired.millis() + d * payback_domain::DAY_MS
                })
            })
            .map(|(_, cents)| cents)
            .sum()
    };
    let points: Vec<Value> = [0, 7, 14]
        .into_iter()
        .map(|d| {
            json!({"day": d, "cumulative_revenue_cents": through(d),
                   "per_customer_cents": div_round(through(d), w1_customers.len() as i64)})
        })
        .collect();
    let payback_day = [0, 7, 14].into_iter().find(|d| through(*d) >= w1_spend);
    assert_eq!(payback_day, Some(14));
    assert_eq!(
        cohort(w1.0),
        json!({
            "cohort": w1.0, "customers": w1_customers.len(), "spend_cents": w1_spend,
            "cac_cents": div_round(w1_spend, w1_customers.len() as i64),
            "points": points, "payback_day": payback_day,
        })
    );
    let this_week = cohort("2026-11-16");
    let this_week_spend = ledger.sum(None, "2026-11-16", "2026-11-22");
    assert_eq!(this_week["spend_cents"], this_week_spend);
    assert_eq!(this_week["customers"], 2);
    assert_eq!(this_week["cac_cents"], div_round(this_week_spend, 2));

    // CAC over the last 90 days (2026-08-24..2026-11-21), per first-touch channel.
    let span = ("2026-08-24", "2026-11-21");
    let cac_row = |channel: &str, network: Option<&str>| {
        let spend = network.map_or(0, |n| ledger.sum(Some(n), span.0, span.1));
        let customers = acquired(Some(channel), span.0, span.1).count() as i64;
        json!({"channel": channel, "spend_cents": spend, "customers": customers,
               "cac_cents": div_round(spend, customers)})
    };
    assert_eq!(
        payback["cac"],
        json!([
            cac_row("organic_search", None),
            cac_row("paid_google", Some("google")),
            cac_row("paid_meta", Some("meta")),
        ])
    );
    assert_eq!(app.clock.now().day(), "2026-11-21");
}

backend_tests!(cac_roas_and_payback_read_what_a_sync_wrote);
