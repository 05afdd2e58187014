//! Daily ad spend rows. Connectors write them (through the ingest service) at the finest grain
//! their network reports; a re-sync of a day replaces that day's numbers.

use payback_domain::Timestamp;

use crate::Tx;
use crate::error::StoreResult;

/// One day of spend for one ad (or coarser grain: empty ids mean "none at this grain").
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SpendRow {
    pub day: String,
    /// `google`, `meta`, `linkedin`, ...
    pub network: String,
    /// `paid_google`, `paid_meta`, `paid_linkedin`, ...
    pub channel: String,
    pub campaign_id: String,
    pub campaign_name: Option<String>,
    pub ad_group_id: String,
    pub ad_group_name: Option<String>,
    pub keyword_id: String,
    pub keyword: Option<String>,
    pub ad_id: String,
    pub ad_name: Option<String>,
    pub spend_cents: i64,
    pub impressions: i64,
    pub clicks: i64,
}

/// Inserts or replaces spend rows (keyed by product, day, network and the four dimension ids).
pub async fn upsert(
    tx: &mut Tx,
    product_id: &str,
    source: &str,
    rows: &[SpendRow],
    now: Timestamp,
) -> StoreResult<()> {
    for chunk in rows.chunks(400) {
        on_tx!(tx, conn => {
            let mut query = sqlx::QueryBuilder::new(
                "INSERT INTO spend_rows (product_id, day, network, channel, campaign_id, campaign_name, ad_group_id, \
                 ad_group_name, keyword_id, keyword, ad_id, ad_name, spend_cents, impressions, clicks, source, updated_at) ",
            );
            query.push_values(chunk, |mut row, spend| {
                row.push_bind(product_id)
                    .push_bind(&spend.day)
                    .push_bind(&spend.network)
                    .push_bind(&spend.channel)
                    .push_bind(&spend.campaign_id)
                    .push_bind(&spend.campaign_name)
                    .push_bind(&spend.ad_group_id)
                    .push_bind(&spend.ad_group_name)
                    .push_bind(&spend.keyword_id)
                    .push_bind(&spend.keyword)
                    .push_bind(&spend.ad_id)
                    .push_bind(&spend.ad_name)
                    .push_bind(spend.spend_cents)
                    .push_bind(spend.impressions)
                    .push_bind(spend.clicks)
                    .push_bind(source)
                    .push_bind(now.millis());
            });
            query.push(
                " ON CONFLICT (product_id, day, network, campaign_id, ad_group_id, keyword_id, ad_id) DO UPDATE SET \
                 channel = excluded.channel, campaign_name = excluded.campaign_name, ad_group_name = excluded.ad_group_name, \
                 keyword = excluded.keyword, ad_name = excluded.ad_name, spend_cents = excluded.spend_cents, \
                 impressions = excluded.impressions, clicks = excluded.clicks, source = excluded.source, \
                 updated_at = excluded.updated_at",
            );
            query.build().execute(conn).await.map(|done| done.rows_affected())
        })?;
    }
    Ok(())
}
