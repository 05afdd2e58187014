//! The `social_ads_a` connection as a [`Source`](crate::Source) and a
//! [`BudgetWriter`](crate::BudgetWriter), through the API kinds' shared [`ApiSource`]: `test`
//! reads the ad account, `sync` its spend, `disconnect` ends the grant at Meta, and approved
//! budget changes go through [`budget::apply`].

use payback_domain::money::format_cents;

use crate::api_source::{ApiBudgets, ApiConfig, ApiSource, ReadsMoney};
use crate::batch::{DayRange, SpendRead};
use crate::budget::{BudgetChange, BudgetOutcome, BudgetWriter};
use crate::graph;
use crate::source::{Revocation, SourceFuture};
use crate::{ConnectorError, SyncOutput, SyncWindow};

use super::{
    INSIGHTS_MONTHS, SocialAdsAConfig, account, budget, insights, previous_day, spend, within_reach,
};

/// One Meta ad account, ready to read for one product. Spend in another currency fails the run
/// by name, never converted or mixed.
pub type SocialAdsASource = ApiSource<SocialAdsAConfig>;

impl ReadsMoney for SocialAdsAConfig {}

impl ApiConfig for SocialAdsAConfig {
    /// Reads the account and answers a line such as `Meta ad account 123 "Shop" answers (USD, days
    /// in Europe/Berlin)`. An account in another currency than the product's, or not active, fails
    /// here as it would matter at the first sync or budget change.
    async fn test(source: &SocialAdsASource) -> Result<String, ConnectorError> {
        let (http, config) = (&source.http, &source.config);
        let product_currency = source.currency.as_str();
        let id = config.account_id()?;
        let client = config.client(http)?;
        let info = account::read(&client, &id).await?;
        let currency = info.check_currency(product_currency)?;
        info.check_active()?;
        let zone = info
            .time_zone
            .as_deref()
            .map(|zone| format!(", days in {zone}"))
            .unwrap_or_default();
        Ok(format!(
            "Meta ad account {} answers ({currency}{zone})",
            info.label()
        ))
    }

    /// Reads the account's spend over the days of `window` (Meta's days are the account's time
    /// zone's; each is stored as the day Meta names). Fails with [`ConnectorError::Config`] when the
    /// account counts in another currency than the product.
    ///
    /// Spend is a row per ad and day: it comes back in the batch, which replaces the account's
    /// days in one transaction.
    async fn read(
        source: &SocialAdsASource,
        window: SyncWindow,
    ) -> Result<SyncOutput, ConnectorError> {
        let (http, config) = (&source.http, &source.config);
        let product_currency = source.currency.as_str();
        let id = config.account_id()?;
        let asked = DayRange::of_window(window);
        let days = within_reach(&asked);
        let client = config.client(http)?;
        let info = account::read(&client, &id).await?;
        let currency = info.check_currency(product_currency)?;
        let read = insights::read(&client, &id, &days).await?;
        let assembled = spend::assemble(
            read.rows,
            &days,
            &currency,
            product_currency,
            &config.campaign_name_prefixes,
        )?;
        let cents: i64 = assembled.rows.iter().map(|row| row.spend_cents).sum();
        let mut detail = format!(
            "Meta ad account {}: {}..{}, {} in {} ad rows of {} campaigns",
            info.label(),
            days.first,
            days.last,
            format_cents(cents, &currency),
            assembled.rows.len(),
            assembled.campaigns
        );
        if assembled.left_out > 0 {
            detail.push_str(&format!(
                "; {} rows of campaigns outside the name filter left out",
                assembled.left_out
            ));
        }
        if read.via_report {
            detail.push_str("; read as an async report");
        }
        if days.first != asked.first {
            detail.push_str(&format!(
                "; Meta keeps insights for {INSIGHTS_MONTHS} months, so {}..{} was not read",
                asked.first,
                previous_day(&days.first).unwrap_or_else(|| days.first.clone())
            ));
        }
        tracing::info!(detail = %detail, "social ads sync read");
        Ok(SyncOutput {
            spend: vec![SpendRead {
                ad_account: id,
                days,
                rows: assembled.rows,
                keywords: Vec::new(),
            }],
            detail,
            ..SyncOutput::default()
        })
    }

    /// `DELETE /me/permissions` with the grant's token, which ends the whole grant at Meta
    /// (every kind it served); a pasted token (`revoke_on_disconnect` false) stays the
    /// customer's.
    async fn disconnect(source: &SocialAdsASource) -> Result<Revocation, ConnectorError> {
        let config = &source.config;
        let grant = config.revoke_on_disconnect.then_some(&*config.access_token);
        graph::disconnect(&source.http, &config.graph_base_url, grant).await
    }

    fn budgets(source: &SocialAdsASource) -> Option<&dyn BudgetWriter> {
        Some(source)
    }
}

impl ApiBudgets for SocialAdsAConfig {
    const NETWORK: &'static str = "meta";

    fn apply<'a>(
        source: &'a SocialAdsASource,
        change: &'a BudgetChange,
    ) -> SourceFuture<'a, BudgetOutcome> {
        Box::pin(budget::apply(&source.http, &source.config, change))
    }
}
