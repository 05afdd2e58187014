//! The two daily tables of migration 0025, which the ads report and cohort payback read:
//! `paid_touch_days` (revenue rows and customers per day under their paid touch) and
//! `cohort_revenue_days` (customers' revenue per acquisition day and point of the cohort
//! curve). Kept by the fold through a late paid touch, a merge and an earlier acquisition,
//! and filled by the migration for rows stored before it, with the same sums, on both
//! backends; the values are worked out by hand below.

use payback_domain::{DAY_MS, Timestamp};
use payback_store::ingest::EventRecord;
use payback_testkit::{TEST_START, TestApp, backend_tests, event_record};

const NAMESPACE: &str = "api:shop";
const HOUR_MS: i64 = DAY_MS / 24;

/// `days` days and `hours` hours after the start of the test's first day.
fn at(days: i64, hours: i64) -> Timestamp {
    Timestamp::from_millis(TEST_START.start_of_day().millis() + days * DAY_MS + hours * HOUR_MS)
}

fn day(days: i64) -> String {
    at(days, 0).day()
}

fn with_ids(mut event: EventRecord, user: Option<&str>, anonymous: Option<&str>) -> EventRecord {
    event.user_id = user.map(str::to_owned);
    event.anonymous_id = anonymous.map(str::to_owned);
    event
}

/// A visit through `channel` tagged with `campaign`.
fn touch(dedupe_id: &str, channel: &str, campaign: &str, when: Timestamp) -> EventRecord {
    let mut event = event_record(NAMESPACE, dedupe_id, "visit", when);
    event.channel = Some(channel.to_owned());
    event.attribution = Some(
        serde_json::json!({"utm_campaign": campaign, "utm_id": null, "utm_term": null,
            "utm_content": null})
        .to_string(),
    );
    event
}

fn payment(dedupe_id: &str, cents: i64, when: Timestamp) -> EventRecord {
    let mut event = event_record(NAMESPACE, dedupe_id, "payment", when);
    event.value_cents = Some(cents);
    event.currency = Some("USD".to_owned());
    event.is_revenue = true;
    // A refund does not acquire (`IngestEvent::acquires_customer`).
    event.acquires = cents >= 0;
    event
}

/// `(day, channel, campaign, revenue rows, revenue cents, customers)`, the campaign read from
/// the paid touch's tags.
type PaidDay = (String, String, String, i64, i64, i64);

async fn paid_touch_days(app: &TestApp, product_id: &str) -> Vec<PaidDay> {
    let rows: Vec<(String, String, String, i64, i64, i64)> = app
        .sql_rows(
            "SELECT day, channel, tags, revenue_rows, revenue_cents, customers FROM paid_touch_days \
             WHERE product_id = $1 AND (revenue_rows <> 0 OR revenue_cents <> 0 OR customers <> 0)",
            &[product_id.into()],
        )
        .await;
    let mut rows: Vec<PaidDay> = rows
        .into_iter()
        .map(|(day, channel, tags, rows, cents, customers)| {
            let campaign = if tags.is_empty() {
                String::new()
            } else {
                let tags: serde_json::Value = serde_json::from_str(&tags).unwrap();
                tags["utm_campaign"].as_str().unwrap().to_owned()
            };
            (day, channel, campaign, rows, cents, customers)
        })
        .collect();
    rows.sort();
    rows
}

/// `(acquisition day, point day, revenue rows, cents)`.
async fn cohort_revenue_days(app: &TestApp, product_id: &str) -> Vec<(String, i64, i64, i64)> {
    let mut rows: Vec<(String, i64, i64, i64)> = app
        .sql_rows(
            "SELECT acquired_day, point_day, rows, cents FROM cohort_revenue_days \
         WHERE product_id = $1 AND (rows <> 0 OR cents <> 0)",
            &[product_id.into()],
        )
        .await;
    rows.sort();
    rows
}

async fn paid_and_cohort_days_are_kept_by_the_fold_and_filled_by_migration_0025(app: TestApp) {
    let product_id = app.founder_product_id("shop").await;
    let ada = |event| with_ids(event, Some("ada"), None);
    let bob_anonymous = |event| with_ids(event, None, Some("b1"));
    let cy = |event| with_ids(event, Some("cy"), None);
    // Ada: a Google click, then payments 0, 5, 40 and 100 days after it. Bob, still anonymous:
    // a Meta click and a payment. Cy: a refund nine days before her first payment, no click.
    // One payment from nobody.
    let first_fold = [
        ada(touch("ada-google", "paid_google", "spring", at(0, 0))),
        ada(payment("ada-pay-0", 4_900, at(0, 1))),
        ada(payment("ada-pay-5", 1_000, at(5, 0))),
        ada(payment("ada-pay-40", 700, at(40, 0))),
        ada(payment("ada-pay-100", 300, at(100, 0))),
        bob_anonymous(touch("bob-meta", "paid_meta", "meta-b", at(1, 0))),
        bob_anonymous(payment("bob-pay", 2_500, at(2, 0))),
        cy(payment("cy-refund", -500, at(1, 0))),
        cy(payment("cy-pay", 3_000, at(10, 0))),
        payment("nobody-pay", 999, at(3, 0)),
    ];
    app.write_batch(&product_id, &first_fold, at(101, 0)).await;
    app.assert_report_days_exact().await;

    // Later folds: Bob signs in (his anonymous rows merge into his user); a LinkedIn click of
    // Ada's on day 4 arrives late and takes her later payments; then a conversion of hers
    // three days before the first, which moves her acquisition and every point after it.
    app.write_batch(
        &product_id,
        &[with_ids(
            event_record(NAMESPACE, "bob-login", "visit", at(3, 0)),
            Some("bob"),
            Some("b1"),
        )],
        at(102, 0),
    )
    .await;
    app.assert_report_days_exact().await;
    app.write_batch(
        &product_id,
        &[ada(touch("ada-linkedin", "paid_linkedin", "li", at(4, 0)))],
        at(103, 0),
    )
    .await;
    app.assert_report_days_exact().await;
    let mut converted = ada(event_record(NAMESPACE, "ada-trial", "converted", at(-3, 0)));
    converted.acquires = true;
    app.write_batch(&product_id, &[converted], at(104, 0)).await;
    app.assert_report_days_exact().await;

    let paid = |days: i64, channel: &str, campaign: &str, rows, cents, customers| -> PaidDay {
        let text = str::to_owned;
        (
            day(days),
            text(channel),
            text(campaign),
            rows,
            cents,
            customers,
        )
    };
    let expected_paid = vec![
        // Ada, acquired on day -3 now, before any click.
        paid(-3, "", "", 0, 0, 1),
        paid(0, "paid_google", "spring", 1, 4_900, 0),
        paid(1, "", "", 1, -500, 0),
        paid(10, "", "", 1, 3_000, 1),
        paid(100, "paid_linkedin", "li", 1, 300, 0),
        paid(2, "paid_meta", "meta-b", 1, 2_500, 1),
        paid(3, "", "", 1, 999, 0),
        paid(40, "paid_linkedin", "li", 1, 700, 0),
        paid(5, "paid_linkedin", "li", 1, 1_000, 0),
    ];
    let mut expected_paid = expected_paid;
    expected_paid.sort();
    let expected_cohorts = vec![
        // Ada from day -3: day 0 is 3 days on (point 7), day 5 is 8 (14), day 40 is 43 (60),
        // day 100 is past the last point.
        (day(-3), 7, 1, 4_900),
        (day(-3), 14, 1, 1_000),
        (day(-3), 60, 1, 700),
        (day(10), 0, 1, 3_000),
        (day(2), 0, 1, 2_500),
    ];
    let mut expected_cohorts = expected_cohorts;
    expected_cohorts.sort();
    let expected = (expected_paid, expected_cohorts);
    let tables = (
        paid_touch_days(&app, &product_id).await,
        cohort_revenue_days(&app, &product_id).await,
    );
    assert_eq!(tables, expected, "kept by the fold");

    // As stored before 0025: no such tables. The migration fills them the same way.
    for statement in [
        "DROP TABLE paid_touch_days",
        "DROP TABLE cohort_revenue_days",
        "DELETE FROM _sqlx_migrations WHERE version = 25",
    ] {
        app.sql_execute(statement, &[]).await;
    }
    app.state.store.migrate().await.unwrap();
    let tables = (
        paid_touch_days(&app, &product_id).await,
        cohort_revenue_days(&app, &product_id).await,
    );
    assert_eq!(tables, expected, "filled by 0025");
    app.assert_report_days_exact().await;
}

backend_tests!(paid_and_cohort_days_are_kept_by_the_fold_and_filled_by_migration_0025);
