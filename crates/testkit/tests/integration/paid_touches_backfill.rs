//! Each revenue row's last paid touch and each customer's last paid touch before acquisition,
//! with the touch's channel and ad tags, which the ads report groups by: kept by the fold as
//! events arrive (in any order), and filled by migration 0024 for the rows stored before it,
//! with the same answer, on both backends.

use payback_domain::Timestamp;
use payback_store::ingest::EventRecord;
use payback_testkit::{TEST_START, TestApp, backend_tests, event_record};

const NAMESPACE: &str = "api:shop";

fn at(offset: i64) -> Timestamp {
    Timestamp::from_millis(TEST_START.millis() + offset)
}

/// A visit of `user` through `channel`; its campaign tag is the dedupe id.
fn touch(dedupe_id: &str, user: &str, channel: &str, offset: i64) -> EventRecord {
    let mut event = event_record(NAMESPACE, dedupe_id, "visit", at(offset));
    event.user_id = Some(user.to_owned());
    event.channel = Some(channel.to_owned());
    event.attribution = Some(
        serde_json::json!({"utm_campaign": dedupe_id, "utm_id": null, "utm_term": null,
            "utm_content": null, "gclid": format!("click-{dedupe_id}")})
        .to_string(),
    );
    event
}

fn payment(dedupe_id: &str, user: &str, cents: i64, offset: i64) -> EventRecord {
    let mut event = event_record(NAMESPACE, dedupe_id, "payment", at(offset));
    event.user_id = Some(user.to_owned());
    event.value_cents = Some(cents);
    event.currency = Some("USD".to_owned());
    event.is_revenue = true;
    event
}

/// A revenue row's or customer's paid touch: its identity, the touch's dedupe id, the channel
/// and the campaign tag kept beside it (read with the whole tags object in the last place).
type Credited = (String, Option<String>, Option<String>, Option<String>);

/// Each row with its tags object (checked to hold the four ad tags) cut to its campaign.
fn credited(rows: Vec<Credited>) -> Vec<Credited> {
    rows.into_iter()
        .map(|(identity, touch, channel, tags)| {
            let campaign = tags.map(|text| {
                let tags: serde_json::Value = serde_json::from_str(&text).unwrap();
                assert_eq!(
                    tags.as_object().unwrap().len(),
                    4,
                    "the four ad tags, each a string or null: {text}"
                );
                tags["utm_campaign"].as_str().unwrap_or("").to_owned()
            });
            (identity, touch, channel, campaign)
        })
        .collect()
}

/// [`Credited`] of every revenue row, and of every customer.
async fn paid_touches(app: &TestApp, product_id: &str) -> [Vec<Credited>; 2] {
    let revenue = app
        .sql_rows(
            "SELECT r.identity, e.dedupe_id, r.paid_channel, r.paid_tags FROM transactions r \
             LEFT JOIN events e ON e.id = r.paid_touch_id WHERE r.product_id = $1 ORDER BY r.occurred_at",
            &[product_id.into()],
        )
        .await;
    let customers = app
        .sql_rows(
            "SELECT c.identity, e.dedupe_id, c.acquired_paid_channel, c.acquired_paid_tags FROM identity_profiles c \
             LEFT JOIN events e ON e.id = c.acquired_touch_id \
             WHERE c.product_id = $1 AND c.acquired_at IS NOT NULL ORDER BY c.identity",
            &[product_id.into()],
        )
        .await;
    [credited(revenue), credited(customers)]
}

async fn paid_touches_are_kept_by_the_fold_and_filled_by_migration_0024(app: TestApp) {
    let product_id = app.founder_product_id("shop").await;
    let mut converted = event_record(NAMESPACE, "cy-signup", "converted", at(50));
    converted.user_id = Some("cy".to_owned());
    // Ada: a paid click, then an organic visit, then a payment (credited to the click, the
    // last *paid* touch); a second payment after a later paid click.
    // Bob: pays with no touch at all. Cy: converts without value after a Meta click.
    let first_fold = [
        touch("ada-google", "ada", "paid_google", 0),
        touch("ada-organic", "ada", "organic_search", 10),
        payment("ada-pay-1", "ada", 4_900, 20),
        payment("bob-pay", "bob", 1_500, 30),
        converted,
    ];
    app.write_batch(&product_id, &first_fold, at(100)).await;
    // Arriving late, in their own folds: Cy's click before the conversion (no revenue, no
    // other touch in that fold), Ada's second paid click and payment, and a paid click of
    // Bob's from before his payment.
    app.write_batch(
        &product_id,
        &[touch("cy-meta", "cy", "paid_meta", 40)],
        at(200),
    )
    .await;
    app.write_batch(
        &product_id,
        &[
            touch("ada-meta", "ada", "paid_meta", 60),
            payment("ada-pay-2", "ada", 2_000, 70),
        ],
        at(300),
    )
    .await;
    app.write_batch(
        &product_id,
        &[touch("bob-linkedin", "bob", "paid_linkedin", 25)],
        at(400),
    )
    .await;

    let paid = |identity: &str, touch: &str, channel: &str| -> Credited {
        let some = |text: &str| Some(text.to_owned());
        (identity.to_owned(), some(touch), some(channel), some(touch))
    };
    let expected = [
        vec![
            paid("u:ada", "ada-google", "paid_google"),
            paid("u:bob", "bob-linkedin", "paid_linkedin"),
            paid("u:ada", "ada-meta", "paid_meta"),
        ],
        vec![
            paid("u:ada", "ada-google", "paid_google"),
            paid("u:bob", "bob-linkedin", "paid_linkedin"),
            paid("u:cy", "cy-meta", "paid_meta"),
        ],
    ];
    assert_eq!(
        paid_touches(&app, &product_id).await,
        expected,
        "kept by the fold"
    );

    // As stored before 0024: no such columns. The migration fills them the same way.
    for statement in [
        "ALTER TABLE transactions DROP COLUMN paid_touch_id",
        "ALTER TABLE transactions DROP COLUMN paid_channel",
        "ALTER TABLE transactions DROP COLUMN paid_tags",
        "ALTER TABLE identity_profiles DROP COLUMN acquired_touch_id",
        "ALTER TABLE identity_profiles DROP COLUMN acquired_paid_channel",
        "ALTER TABLE identity_profiles DROP COLUMN acquired_paid_tags",
        "DELETE FROM _sqlx_migrations WHERE version = 24",
    ] {
        app.sql_execute(statement, &[]).await;
    }
    app.state.store.migrate().await.unwrap();
    assert_eq!(
        paid_touches(&app, &product_id).await,
        expected,
        "filled by 0024"
    );

    // A touch without a paid channel never becomes one.
    app.write_batch(
        &product_id,
        &[touch("ada-late-organic", "ada", "referral", 65)],
        at(500),
    )
    .await;
    assert_eq!(
        paid_touches(&app, &product_id).await,
        expected,
        "organic after"
    );
}

backend_tests!(paid_touches_are_kept_by_the_fold_and_filled_by_migration_0024);
