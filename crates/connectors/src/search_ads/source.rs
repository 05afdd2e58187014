//! The `search_ads` connection as a [`Source`](crate::Source) and a
//! [`BudgetWriter`](crate::BudgetWriter), through the API kinds' shared [`ApiSource`]: `test`
//! reads the account, `sync` its spend, `disconnect` revokes the grant's refresh token, and
//! approved budget changes go through [`budget::apply`].

use payback_domain::money::format_cents;

use crate::api_source::{ApiBudgets, ApiConfig, ApiSource, ReadsMoney};
use crate::batch::{DayRange, SpendRead};
use crate::budget::{BudgetChange, BudgetOutcome, BudgetWriter};
use crate::source::{Revocation, SourceFuture};
use crate::{ConnectorError, SyncOutput, SyncWindow};

use super::customer::{self, UrlSuffixState};
use super::{SearchAdsConfig, budget, spend};

/// One Google Ads account, ready to read for one product. Spend in another currency fails the
/// run by name, never converted or mixed.
pub type SearchAdsSource = ApiSource<SearchAdsConfig>;

impl SearchAdsSource {
    /// The account's final URL suffix and auto-tagging, read live.
    pub async fn read_url_suffix(&self) -> Result<UrlSuffixState, ConnectorError> {
        customer::read_url_suffix(&self.http, &self.config).await
    }

    /// Sets the account's final URL suffix (see [`customer::write_url_suffix`]).
    pub async fn write_url_suffix(&self, suffix: &str) -> Result<(), ConnectorError> {
        customer::write_url_suffix(&self.http, &self.config, suffix).await
    }
}

impl ReadsMoney for SearchAdsConfig {}

impl ApiConfig for SearchAdsConfig {
    /// Reads the account (one cheap query) and answers a line such as `Google Ads account
    /// 123-456-7890 "Acme" answers (USD)`. A manager account, or one in another currency than the
    /// product's, fails here as it would at the first sync.
    async fn test(source: &SearchAdsSource) -> Result<String, ConnectorError> {
        let (http, config) = (&source.http, &source.config);
        let product_currency = source.currency.as_str();
        let account = config.account()?;
        let client = config.client(http).await?;
        let info = customer::read(&client, account).await?;
        info.check_not_manager()?;
        let currency = info.check_currency(product_currency)?;
        let zone = info
            .time_zone
            .as_deref()
            .map(|zone| format!(", days in {zone}"))
            .unwrap_or_default();
        Ok(format!(
            "Google Ads account {} answers ({currency}{zone})",
            info.label()
        ))
    }

    /// Reads the account's spend over the UTC days of `window` (Google's days are the account's
    /// own time zone's; each is stored as the day Google names). Fails with
    /// [`ConnectorError::Config`] when the account counts in another currency than the product.
    ///
    /// Spend is a few rows per ad and day: it comes back in the batch, which replaces the
    /// account's days in one transaction.
    async fn read(
        source: &SearchAdsSource,
        window: SyncWindow,
    ) -> Result<SyncOutput, ConnectorError> {
        let (http, config) = (&source.http, &source.config);
        let product_currency = source.currency.as_str();
        let account = config.account()?;
        let days = DayRange::of_window(window);
        let client = config.client(http).await?;
        let info = customer::read(&client, account).await?;
        info.check_not_manager()?;
        let currency = info.check_currency(product_currency)?;
        let read = spend::read(&client, account, &days, &currency).await?;
        let cents: i64 = read.rows.iter().map(|row| row.spend_cents).sum();
        let detail = format!(
            "Google Ads account {}: {}..{}, {} in {} ad rows and {} campaign rows beyond ads; {} \
             keyword rows",
            info.label(),
            days.first,
            days.last,
            format_cents(cents, &currency),
            read.ad_rows,
            read.remainder_rows,
            read.keywords.len()
        );
        tracing::info!(detail = %detail, "search ads sync read");
        Ok(SyncOutput {
            spend: vec![SpendRead {
                ad_account: account.customer_id.to_owned(),
                days,
                rows: read.rows,
                keywords: read.keywords,
            }],
            detail,
            ..SyncOutput::default()
        })
    }

    /// Revokes the refresh token, which ends the whole grant at Google (every kind it served).
    async fn disconnect(source: &SearchAdsSource) -> Result<Revocation, ConnectorError> {
        let config = &source.config;
        config
            .oauth
            .revoke(&source.http, &config.refresh_token)
            .await?;
        Ok(Revocation::Revoked)
    }

    fn budgets(source: &SearchAdsSource) -> Option<&dyn BudgetWriter> {
        Some(source)
    }
}

impl ApiBudgets for SearchAdsConfig {
    const NETWORK: &'static str = "google ads";

    fn apply<'a>(
        source: &'a SearchAdsSource,
        change: &'a BudgetChange,
    ) -> SourceFuture<'a, BudgetOutcome> {
        Box::pin(budget::apply(&source.http, &source.config, change))
    }
}
