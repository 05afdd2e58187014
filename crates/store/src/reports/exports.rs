//! Report queries: exports. Raw events and revenue rows of one product, read in pages by id
//! (keyset pagination: `id > after ORDER BY id LIMIT n`), so an export of any size holds one
//! page in memory and every page is an index range scan on the primary key.

use crate::Db;
use crate::error::StoreResult;

/// One stored event, as the events export writes it.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct EventExportRow {
    pub id: i64,
    pub occurred_at: i64,
    pub day: String,
    pub namespace: String,
    pub dedupe_id: String,
    pub stage: String,
    pub name: Option<String>,
    pub identity: Option<String>,
    pub anonymous_id: Option<String>,
    pub user_id: Option<String>,
    pub email: Option<String>,
    pub value_cents: Option<i64>,
    pub currency: Option<String>,
    pub channel: Option<String>,
    /// The attribution JSON object as stored.
    pub attribution: Option<String>,
    /// The properties JSON object as stored.
    pub properties: Option<String>,
}

/// One revenue row with its first and last touch, as the transactions export writes it.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct TransactionExportRow {
    pub id: i64,
    pub occurred_at: i64,
    pub day: String,
    pub source: String,
    pub source_ref: String,
    pub kind: String,
    pub stage: Option<String>,
    pub identity: Option<String>,
    pub amount_cents: i64,
    pub currency: String,
    /// The identity's first touch; `unattributed` without identity or channel.
    pub first_channel: String,
    /// The row's last touch, else the first touch; `unattributed` when neither is known.
    pub last_channel: String,
}

/// Up to `limit` events of the product with an id above `after_id`, in id order.
pub async fn events_page(
    db: &Db,
    product_id: &str,
    after_id: i64,
    limit: i64,
) -> StoreResult<Vec<EventExportRow>> {
    let sql = "SELECT id, occurred_at, day, namespace, dedupe_id, stage, name, identity, anonymous_id, \
               user_id, email, value_cents, currency, channel, attribution, properties \
               FROM events WHERE product_id = $1 AND id > $2 ORDER BY id LIMIT $3";
    Ok(on_db!(db, pool => sqlx::query_as(sql)
        .bind(product_id)
        .bind(after_id)
        .bind(limit)
        .fetch_all(pool)
        .await)?)
}

/// Up to `limit` revenue rows of the product with an id above `after_id`, in id order, with
/// first touch from the identity's profile and last touch falling back to the first touch.
pub async fn transactions_page(
    db: &Db,
    product_id: &str,
    after_id: i64,
    limit: i64,
) -> StoreResult<Vec<TransactionExportRow>> {
    let sql = "SELECT t.id, t.occurred_at, t.day, t.source, t.source_ref, t.kind, t.stage, t.identity, \
               t.amount_cents, t.currency, \
               COALESCE(p.first_channel, 'unattributed') AS first_channel, \
               COALESCE(t.last_channel, p.first_channel, 'unattributed') AS last_channel \
               FROM transactions t \
               LEFT JOIN identity_profiles p ON p.product_id = t.product_id AND p.identity = t.identity \
               WHERE t.product_id = $1 AND t.id > $2 ORDER BY t.id LIMIT $3";
    Ok(on_db!(db, pool => sqlx::query_as(sql)
        .bind(product_id)
        .bind(after_id)
        .bind(limit)
        .fetch_all(pool)
        .await)?)
}
