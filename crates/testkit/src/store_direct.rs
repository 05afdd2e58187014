//! Driving the store directly, for tests of what the HTTP API cannot reach or cannot time:
//! the batch writer on its own, migrations over rows the store wrote before them.

use payback_domain::Timestamp;
use payback_store::ingest::{self, BatchOutcome, EventRecord};

use crate::TestApp;

impl TestApp {
    /// Signs up `founder@example.com`, creates the product `slug` and returns its id: the
    /// owner every store-level test needs before it writes.
    pub async fn founder_product_id(&self, slug: &str) -> String {
        let session = self.signup_verified("founder@example.com").await;
        let key = self.api_key(&session).await;
        self.create_product(&key, slug).await["id"]
            .as_str()
            .expect("created product has an id")
            .to_owned()
    }

    /// Writes one batch through the store's batch writer in a transaction of its own (as the
    /// folder writes the inbox, without HTTP or the inbox), received at `received_at`.
    pub async fn write_batch(
        &self,
        product_id: &str,
        events: &[EventRecord],
        received_at: Timestamp,
    ) -> BatchOutcome {
        let mut tx = self.state.store.begin().await.expect("begin");
        let outcome = ingest::write_batch(&mut tx, product_id, events, received_at)
            .await
            .unwrap_or_else(|err| panic!("writing a batch: {err}"));
        tx.commit().await.expect("commit");
        outcome
    }
}
