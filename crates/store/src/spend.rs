//! Daily ad spend rows. Sync runs write them at the finest grain their network reports, one ad
//! account's days at a time (`replace_account_days`): a re-read of a day replaces that day.
//!
//! A network that reports keywords apart from ads (Google Ads: keyword_view beside
//! ad_group_ad) gives two breakdowns of the same ad groups' spend. Its ad rows go to
//! `spend_rows` with an empty keyword id, its keyword rows to `spend_keyword_rows`
//! ([`KeywordRow`]): every reader of spend sums `spend_rows` alone, so nothing counts twice;
//! only the ads report's keyword level reads the keyword rows.

use payback_domain::Timestamp;

use crate::error::StoreResult;
use crate::{Db, Tx};

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

/// One day of one keyword's spend in an ad group, from a network that reports keywords apart
/// from ads: a breakdown of its ad group's spend in `spend_rows`, never added to it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct KeywordRow {
    pub day: String,
    pub network: String,
    pub channel: String,
    pub campaign_id: String,
    pub campaign_name: Option<String>,
    pub ad_group_id: String,
    pub ad_group_name: Option<String>,
    /// Never empty: spend of no keyword is the ad group's spend the keywords do not cover.
    pub keyword_id: String,
    pub keyword: Option<String>,
    pub spend_cents: i64,
    pub impressions: i64,
    pub clicks: i64,
}

/// Inserts or replaces spend rows (keyed by product, day, network and the four dimension ids),
/// belonging to no ad account: rows written by hand, by the demo or by tests.
pub async fn upsert(
    tx: &mut Tx,
    product_id: &str,
    source: &str,
    rows: &[SpendRow],
    now: Timestamp,
) -> StoreResult<()> {
    insert(tx, product_id, source, "", rows, now).await
}

/// The days of one ad account a sync read.
#[derive(Debug, Clone, Copy)]
pub struct AccountDays<'a> {
    pub network: &'a str,
    /// Never empty: `''` is the rows of no account.
    pub ad_account: &'a str,
    /// Inclusive `YYYY-MM-DD`.
    pub first_day: &'a str,
    pub last_day: &'a str,
}

/// Replaces what the ad account has stored for those days with `rows` and its keyword rows
/// with `keywords` (every one of them on those days and that network): networks restate recent
/// days, so a re-read stores nothing twice and a campaign (or keyword) gone from the read is
/// gone from its days. `keywords` is the keyword breakdown of a network that reports keywords
/// apart from ads (empty for the others; `rows` then carry no keyword id). Answers how many
/// spend rows were removed first. Call it inside the transaction that should hold the whole
/// replacement.
pub async fn replace_account_days(
    tx: &mut Tx,
    product_id: &str,
    source: &str,
    read: AccountDays<'_>,
    rows: &[SpendRow],
    keywords: &[KeywordRow],
    now: Timestamp,
) -> StoreResult<u64> {
    let removed = delete_days(tx, "spend_rows", product_id, read).await?;
    delete_days(tx, "spend_keyword_rows", product_id, read).await?;
    insert(tx, product_id, source, read.ad_account, rows, now).await?;
    insert_keywords(tx, product_id, read.ad_account, keywords, now).await?;
    Ok(removed)
}

/// Deletes the ad account's rows of `table` on the days read; answers how many.
async fn delete_days(
    tx: &mut Tx,
    table: &'static str,
    product_id: &str,
    read: AccountDays<'_>,
) -> StoreResult<u64> {
    let sql = format!(
        "DELETE FROM {table} WHERE product_id = $1 AND day >= $2 AND day <= $3 \
         AND network = $4 AND ad_account = $5"
    );
    Ok(
        on_tx!(tx, conn => sqlx::query(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(product_id)
        .bind(read.first_day)
        .bind(read.last_day)
        .bind(read.network)
        .bind(read.ad_account)
        .execute(conn)
        .await.map(|done| done.rows_affected()))?,
    )
}

/// Inserts keyword rows of `ad_account`; a row with the key of one stored takes its place.
async fn insert_keywords(
    tx: &mut Tx,
    product_id: &str,
    ad_account: &str,
    rows: &[KeywordRow],
    now: Timestamp,
) -> StoreResult<()> {
    // 15 parameters a row: under SQLite's 32766.
    for chunk in rows.chunks(500) {
        on_tx!(tx, conn => {
            let mut query = sqlx::QueryBuilder::new(
                "INSERT INTO spend_keyword_rows (product_id, day, network, channel, ad_account, campaign_id, \
                 campaign_name, ad_group_id, ad_group_name, keyword_id, keyword, spend_cents, impressions, clicks, \
                 updated_at) ",
            );
            query.push_values(chunk, |mut row, spend| {
                row.push_bind(product_id)
                    .push_bind(&spend.day)
                    .push_bind(&spend.network)
                    .push_bind(&spend.channel)
                    .push_bind(ad_account)
                    .push_bind(&spend.campaign_id)
                    .push_bind(&spend.campaign_name)
                    .push_bind(&spend.ad_group_id)
                    .push_bind(&spend.ad_group_name)
                    .push_bind(&spend.keyword_id)
                    .push_bind(&spend.keyword)
                    .push_bind(spend.spend_cents)
                    .push_bind(spend.impressions)
                    .push_bind(spend.clicks)
                    .push_bind(now.millis());
            });
            query.push(
                " ON CONFLICT (product_id, day, network, campaign_id, ad_group_id, keyword_id) DO UPDATE SET \
                 channel = excluded.channel, ad_account = excluded.ad_account, campaign_name = excluded.campaign_name, \
                 ad_group_name = excluded.ad_group_name, keyword = excluded.keyword, spend_cents = excluded.spend_cents, \
                 impressions = excluded.impressions, clicks = excluded.clicks, updated_at = excluded.updated_at",
            );
            query.build().execute(conn).await.map(|done| done.rows_affected())
        })?;
    }
    Ok(())
}

/// Inserts rows of `ad_account`; a row with the key of one stored takes its place (and its
/// account).
async fn insert(
    tx: &mut Tx,
    product_id: &str,
    source: &str,
    ad_account: &str,
    rows: &[SpendRow],
    now: Timestamp,
) -> StoreResult<()> {
    // 18 parameters a row: under SQLite's 32766.
    for chunk in rows.chunks(400) {
        on_tx!(tx, conn => {
            let mut query = sqlx::QueryBuilder::new(
                "INSERT INTO spend_rows (product_id, day, network, channel, campaign_id, campaign_name, ad_group_id, \
                 ad_group_name, keyword_id, keyword, ad_id, ad_name, spend_cents, impressions, clicks, source, updated_at, \
                 ad_account) ",
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
                    .push_bind(now.millis())
                    .push_bind(ad_account);
            });
            query.push(
                " ON CONFLICT (product_id, day, network, campaign_id, ad_group_id, keyword_id, ad_id) DO UPDATE SET \
                 channel = excluded.channel, campaign_name = excluded.campaign_name, ad_group_name = excluded.ad_group_name, \
                 keyword = excluded.keyword, ad_name = excluded.ad_name, spend_cents = excluded.spend_cents, \
                 impressions = excluded.impressions, clicks = excluded.clicks, source = excluded.source, \
                 updated_at = excluded.updated_at, ad_account = excluded.ad_account",
            );
            query.build().execute(conn).await.map(|done| done.rows_affected())
        })?;
    }
    Ok(())
}

/// Spend of one campaign on one day (ad groups, keywords and ads summed).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct CampaignDay {
    pub day: String,
    pub network: String,
    pub channel: String,
    pub campaign_id: String,
    pub campaign_name: Option<String>,
    pub spend_cents: i64,
    pub impressions: i64,
    pub clicks: i64,
}

/// Daily spend by network, channel and campaign from `first_day` to `last_day` inclusive,
/// oldest first.
pub async fn by_campaign_day(
    db: &Db,
    product_id: &str,
    first_day: &str,
    last_day: &str,
) -> StoreResult<Vec<CampaignDay>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT day, network, channel, campaign_id, MAX(campaign_name) AS campaign_name, \
         CAST(SUM(spend_cents) AS BIGINT) AS spend_cents, CAST(SUM(impressions) AS BIGINT) AS impressions, \
         CAST(SUM(clicks) AS BIGINT) AS clicks FROM spend_rows \
         WHERE product_id = $1 AND day >= $2 AND day <= $3 \
         GROUP BY day, network, channel, campaign_id ORDER BY day, network, channel, campaign_id")
        .bind(product_id)
        .bind(first_day)
        .bind(last_day)
        .fetch_all(pool)
        .await)?)
}

/// One campaign an ad account has spend stored for, with the latest name it was stored under.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct StoredCampaign {
    pub campaign_id: String,
    pub campaign_name: Option<String>,
}

/// The campaigns of `ad_account` on `network` with spend stored, whatever the day.
pub async fn account_campaigns(
    tx: &mut Tx,
    product_id: &str,
    network: &str,
    ad_account: &str,
) -> StoreResult<Vec<StoredCampaign>> {
    Ok(on_tx!(tx, conn => sqlx::query_as(
        "SELECT campaign_id, MAX(campaign_name) AS campaign_name FROM spend_rows \
         WHERE product_id = $1 AND network = $2 AND ad_account = $3 \
         GROUP BY campaign_id ORDER BY campaign_id")
        .bind(product_id)
        .bind(network)
        .bind(ad_account)
        .fetch_all(conn)
        .await)?)
}

/// Deletes every stored day of the ad account's `campaigns` (ad rows and keyword rows): a
/// campaign filter that no longer takes them. Answers how many spend rows went.
pub async fn delete_account_campaigns(
    tx: &mut Tx,
    product_id: &str,
    network: &str,
    ad_account: &str,
    campaigns: &[String],
) -> StoreResult<u64> {
    let mut removed = 0;
    for campaign in campaigns {
        for table in ["spend_rows", "spend_keyword_rows"] {
            let sql = format!(
                "DELETE FROM {table} WHERE product_id = $1 AND network = $2 AND ad_account = $3 \
                 AND campaign_id = $4"
            );
            let done = on_tx!(tx, conn => sqlx::query(sqlx::AssertSqlSafe(sql.as_str()))
                .bind(product_id)
                .bind(network)
                .bind(ad_account)
                .bind(campaign)
                .execute(conn)
                .await.map(|done| done.rows_affected()))?;
            if table == "spend_rows" {
                removed += done;
            }
        }
    }
    Ok(removed)
}
