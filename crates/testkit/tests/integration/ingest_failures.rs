//! The operator's tools for batches set aside while folding (`payback operator
//! ingest-failures list|retry|discard`): a refusal is planted with a trigger, the batch is
//! listed, a retry while the cause stands keeps it listed with the new error, a retry once it
//! is mended stores it whole and clears the product's tracking health, and a discard drops it.
//! On SQLite the refused statement stops without undoing its earlier rows (`INSERT OR FAIL`):
//! that nothing of a refused batch stays is the transaction's rollback, checked here too.

use payback_domain::Timestamp;
use payback_server::operator;
use payback_store::ingest::EventRecord;
use payback_store::ingest::failures::RetryOutcome;
use payback_testkit::{
    Backend, TEST_START, TestApp, backend_tests, event_record, keep_folder_busy,
};

fn lead(dedupe_id: &str) -> EventRecord {
    event_record("api:shop", dedupe_id, "lead", TEST_START)
}

/// Makes the database refuse any event whose dedupe id is `poisoned`, as a constraint would.
async fn plant_refusal(app: &TestApp) {
    match app.backend {
        Backend::Sqlite => {
            app.sql_execute(
                "CREATE TRIGGER refuse_poisoned BEFORE INSERT ON events \
                 WHEN NEW.dedupe_id = 'poisoned' \
                 BEGIN SELECT RAISE(FAIL, 'poisoned event refused'); END",
                &[],
            )
            .await;
        }
        Backend::Postgres => {
            app.sql_execute(
                "CREATE FUNCTION refuse_poisoned() RETURNS trigger LANGUAGE plpgsql AS $$ \
                 BEGIN IF NEW.dedupe_id = 'poisoned' THEN \
                 RAISE EXCEPTION 'poisoned event refused'; END IF; RETURN NEW; END $$",
                &[],
            )
            .await;
            app.sql_execute(
                "CREATE TRIGGER refuse_poisoned BEFORE INSERT ON events \
                 FOR EACH ROW EXECUTE FUNCTION refuse_poisoned()",
                &[],
            )
            .await;
        }
    }
}

async fn mend_refusal(app: &TestApp) {
    let drop = match app.backend {
        Backend::Sqlite => "DROP TRIGGER refuse_poisoned",
        Backend::Postgres => "DROP TRIGGER refuse_poisoned ON events",
    };
    app.sql_execute(drop, &[]).await;
}

/// A product whose batch holding a valid event ahead of a refused one was set aside while the
/// batches around it were stored. A large batch first keeps the folder busy, so the next three
/// are folded as one group (refused midway), then one by one. Returns the product's id.
async fn product_with_a_set_aside_batch(app: &TestApp) -> String {
    let session = app.signup_verified("founder@example.com").await;
    let key = app.api_key(&session).await;
    let product = app.create_product(&key, "shop").await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    plant_refusal(app).await;
    let received = Timestamp::from_millis(TEST_START.millis() + 1_000);
    keep_folder_busy(app, &product).await;
    for batch in [
        vec![lead("first")],
        vec![lead("ahead-of-poisoned"), lead("poisoned")],
        vec![lead("third")],
    ] {
        app.state
            .ingest
            .write(&product, batch, received)
            .await
            .unwrap();
    }
    app.state.ingest.settle_all().await.unwrap();
    product
}

/// The product's leads as the daily rollup counts them.
async fn counted_leads(app: &TestApp, product: &str) -> i64 {
    app.sql_value(
        "SELECT CAST(COALESCE(SUM(events), 0) AS BIGINT) FROM event_days \
         WHERE product_id = $1 AND stage = 'lead'",
        &[product.into()],
    )
    .await
}

async fn tracking_failures(app: &TestApp) -> serde_json::Value {
    let health = app.health_seen_by("founder@example.com").await;
    health["sources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|source| source["product_slug"] == "shop" && source["source"] == "tracking")
        .unwrap()["consecutive_failures"]
        .clone()
}

async fn a_set_aside_batch_is_retried_whole_once_mended(app: TestApp) {
    let product = product_with_a_set_aside_batch(&app).await;
    assert_eq!(
        app.stored_dedupe_ids(&product, Some("lead")).await,
        ["first", "third"]
    );
    assert_eq!(counted_leads(&app, &product).await, 2);

    let listed = operator::ingest_failures(&app.state, None).await.unwrap();
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert_eq!(listed[0].product_id, product);
    assert_eq!(listed[0].events, 2);
    assert_eq!(listed[0].received_at.millis(), TEST_START.millis() + 1_000);
    assert!(
        listed[0].error.contains("poisoned event refused"),
        "{listed:?}"
    );
    let other = operator::ingest_failures(&app.state, Some("another-product"))
        .await
        .unwrap();
    assert!(other.is_empty());

    // The cause still stands: refused again, still listed, nothing of it stored.
    app.sql_execute(
        "UPDATE ingest_failures SET error = 'an older error' WHERE product_id = $1",
        &[product.as_str().into()],
    )
    .await;
    let outcome = operator::retry_ingest_failures(&app.state, Some(&product))
        .await
        .unwrap();
    assert_eq!(
        outcome,
        RetryOutcome {
            stored: 0,
            refused: 1
        }
    );
    let listed = operator::ingest_failures(&app.state, Some(&product))
        .await
        .unwrap();
    assert_eq!(listed.len(), 1);
    assert!(
        listed[0].error.contains("poisoned event refused"),
        "{listed:?}"
    );
    assert_eq!(
        app.stored_dedupe_ids(&product, Some("lead")).await,
        ["first", "third"]
    );
    assert_eq!(tracking_failures(&app).await, 1);

    // Mended: stored whole, off the list, tracking healthy again; a second retry finds nothing.
    mend_refusal(&app).await;
    let outcome = operator::retry_ingest_failures(&app.state, None)
        .await
        .unwrap();
    assert_eq!(
        outcome,
        RetryOutcome {
            stored: 1,
            refused: 0
        }
    );
    assert!(
        operator::ingest_failures(&app.state, None)
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        app.stored_dedupe_ids(&product, Some("lead")).await,
        ["ahead-of-poisoned", "first", "poisoned", "third"]
    );
    assert_eq!(counted_leads(&app, &product).await, 4);
    assert_eq!(tracking_failures(&app).await, 0);
    let again = operator::retry_ingest_failures(&app.state, None)
        .await
        .unwrap();
    assert_eq!(again, RetryOutcome::default());
}

async fn a_discarded_batch_is_gone_for_good(app: TestApp) {
    let product = product_with_a_set_aside_batch(&app).await;
    let none = operator::discard_ingest_failures(&app.state, Some("another-product"))
        .await
        .unwrap();
    assert_eq!(none, 0);
    let dropped = operator::discard_ingest_failures(&app.state, Some(&product))
        .await
        .unwrap();
    assert_eq!(dropped, 1);
    assert!(
        operator::ingest_failures(&app.state, None)
            .await
            .unwrap()
            .is_empty()
    );
    mend_refusal(&app).await;
    let outcome = operator::retry_ingest_failures(&app.state, None)
        .await
        .unwrap();
    assert_eq!(outcome, RetryOutcome::default());
    assert_eq!(
        app.stored_dedupe_ids(&product, Some("lead")).await,
        ["first", "third"]
    );
    assert_eq!(tracking_failures(&app).await, 0);
}

backend_tests!(
    a_set_aside_batch_is_retried_whole_once_mended,
    a_discarded_batch_is_gone_for_good
);
