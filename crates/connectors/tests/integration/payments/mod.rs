//! The payments connector against the Stripe fake: every expected value is computed here from
//! the seeded data, independently of the connector's mapping code.
//!
//! The modules:
//! - `stripe_fake` (in `tests/stripe_fake`, shared with the server's tests): the fake API;
//! - `fixtures`: the disputes data set, charges with refunds and disputes in every status;
//! - `charges`: paging through every successful charge once, with its payer;
//! - `refunds_and_disputes`: money taken back from the right payer, a later won dispute;
//! - `window`: the sync window filtering by creation time, disputes re-read 120 days back;
//! - `currency`: a foreign currency skipped and reported, zero-decimal yen scaled;
//! - `errors`: 429s retried then reported, bad keys never echoed, `test`, an unreachable API.

use crate::stripe_fake;

mod charges;
mod currency;
mod errors;
mod fixtures;
mod refunds_and_disputes;
mod window;

use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

use payback_connectors::api_source::ApiConfig;
use payback_connectors::payments::{PaymentStage, PaymentsConfig, PaymentsSource, RetryPolicy};
use payback_connectors::{ConnectorError, SyncOutput, SyncWindow};
use payback_domain::Timestamp;
use payback_domain::event::IncomingEvent;
use stripe_fake::{FakeCharge, FakeDispute, FakeRefund, Seed, StripeFake};

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

/// The connector's read of `window`, as the service runs it: through the connection's source.
async fn read_window(
    config: &PaymentsConfig,
    window: SyncWindow,
    product_currency: &str,
) -> Result<SyncOutput, ConnectorError> {
    let source = PaymentsSource::new(http(), config.clone(), product_currency);
    PaymentsConfig::read(&source, window).await
}

/// The connector's key test, as `POST .../test` runs it.
async fn test_key(config: &PaymentsConfig) -> Result<String, ConnectorError> {
    PaymentsConfig::test(&PaymentsSource::new(http(), config.clone(), "USD")).await
}

fn meta(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}
