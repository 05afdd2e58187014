//! The `social_ads_b` connection as a [`Source`](crate::Source), through the API kinds' shared
//! [`ApiSource`]: `test` reads the ad account, `sync` its spend; nothing is ever written to
//! LinkedIn.

use payback_domain::{Clock, SystemClock};

use crate::api_source::{ApiConfig, ApiSource, ReadsMoney};
use crate::{ConnectorError, SyncOutput, SyncWindow};

use super::{SocialAdsBConfig, account, sync_as_of};

/// One LinkedIn ad account, ready to read for one product. Spend in another currency fails the
/// run by name, never converted or mixed.
///
/// Disconnecting revokes nothing: the access token was pasted by the customer, who generated it
/// for their own LinkedIn app, so it stays theirs to revoke (in LinkedIn's developer portal) or
/// let expire. Payback forgets it when the connection is deleted.
pub type SocialAdsBSource = ApiSource<SocialAdsBConfig>;

impl ReadsMoney for SocialAdsBConfig {}

impl ApiConfig for SocialAdsBConfig {
    /// Reads the ad account and answers a line such as `LinkedIn ad account 123 "Acme" answers
    /// (USD)`. An account in another currency than the product's, or one that is not active, fails
    /// with [`ConnectorError::Config`] naming why.
    async fn test(source: &SocialAdsBSource) -> Result<String, ConnectorError> {
        let (http, config) = (&source.http, &source.config);
        let product_currency = source.currency.as_str();
        let id = config.account_id()?;
        let client = config.client(http)?;
        let info = account::read(&client, &id).await?;
        let currency = info.check_currency(product_currency)?;
        info.check_active()?;
        Ok(format!(
            "LinkedIn ad account {} answers ({currency})",
            info.label()
        ))
    }

    /// Reads the account's spend over the UTC days of `window` (LinkedIn's analytics days are UTC
    /// days), as of now.
    ///
    /// Spend is a few rows per creative and day: it comes back in the batch, which replaces the
    /// account's days in one transaction.
    async fn read(
        source: &SocialAdsBSource,
        window: SyncWindow,
    ) -> Result<SyncOutput, ConnectorError> {
        let (http, config) = (&source.http, &source.config);
        let product_currency = source.currency.as_str();
        sync_as_of(http, config, window, product_currency, SystemClock.now()).await
    }
}
