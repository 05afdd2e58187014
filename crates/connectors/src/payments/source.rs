//! The payments connection as a [`Source`](crate::Source), through the API kinds' shared
//! [`ApiSource`]: `test` and `sync` as the module's functions answer them; a key is the
//! customer's, so disconnecting revokes nothing.

use crate::api_source::{ApiConfig, ApiSource, ReadsMoney};
use crate::{ConnectorError, SyncOutput, SyncWindow};

use super::client::{self, StripeClient};
use super::mapping::{Mapper, ReadCounts};
use super::{DISPUTE_LOOKBACK_MS, PaymentsConfig, key, wire};

/// One payments connection, ready to read for one product. Records in any other currency are
/// skipped and counted, never converted.
pub type PaymentsSource = ApiSource<PaymentsConfig>;

impl ReadsMoney for PaymentsConfig {}

impl ApiConfig for PaymentsConfig {
    /// Proves the key with one cheap read of each list `sync` needs (so a restricted key missing a
    /// permission fails here, at connect time, rather than at the first sync). Answers a line such as
    /// `secret key works (test mode)`.
    async fn test(source: &PaymentsSource) -> Result<String, ConnectorError> {
        let (http, config) = (&source.http, &source.config);
        let kind = key::check(&config.secret_key)?;
        let client = StripeClient::new(http, config);
        for list in [client::CHARGES, client::REFUNDS, client::DISPUTES] {
            client.probe(list).await?;
        }
        Ok(format!("{} works ({} mode)", kind.describe(), kind.mode()))
    }

    /// Reads the charges and refunds created in `window`, and the disputes created in it or in the
    /// [`DISPUTE_LOOKBACK_MS`] before it, and maps them to events.
    /// `product_currency` is the product's code; records in any other currency are skipped and
    /// counted in `detail`, never converted.
    ///
    /// A window of charges is small next to a database's tables, and its events are written
    /// after the read, as before.
    async fn read(
        source: &PaymentsSource,
        window: SyncWindow,
    ) -> Result<SyncOutput, ConnectorError> {
        let (http, config) = (&source.http, &source.config);
        let product_currency = source.currency.as_str();
        key::check(&config.secret_key)?;
        let currency = payback_domain::validation::normalize_currency(product_currency.trim())
            .map_err(|msg| ConnectorError::Config(format!("product currency {msg}")))?;
        let client = StripeClient::new(http, config);
        let created = client::created_range(window);
        let charges: Vec<wire::Charge> = client.list(client::CHARGES, &created).await?;
        let refunds: Vec<wire::Refund> = client.list(client::REFUNDS, &created).await?;
        let dispute_window = SyncWindow {
            from: window.from.minus_millis(DISPUTE_LOOKBACK_MS),
            to: window.to,
        };
        let dispute_created = client::created_range(dispute_window);
        let disputes: Vec<wire::Dispute> = client.list(client::DISPUTES, &dispute_created).await?;

        let mut mapper = Mapper::new(&currency, config.default_stage);
        for charge in &charges {
            mapper.charge(charge)?;
        }
        for refund in &refunds {
            mapper.refund(refund)?;
        }
        for dispute in &disputes {
            mapper.dispute(dispute)?;
        }
        let read = ReadCounts {
            charges: charges.len(),
            refunds: refunds.len(),
            disputes: disputes.len(),
        };
        let output = mapper.finish(read);
        tracing::info!(events = output.events.len(), detail = %output.detail, "payments sync read");
        Ok(output)
    }
}
