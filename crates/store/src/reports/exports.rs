//! Report queries: exports. Raw events and revenue rows of one product, read in pages by id
//! (keyset pagination: `id > after ORDER BY id LIMIT n`), so an export of any size holds one
//! page in memory and every page is an index range scan on the primary key.

use crate::Db;
use crate::error::StoreResult;
use crate::identity_sql::current_identity;

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
    /// The identity the event counts under now (a linked anonymous identity's user).
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
    // The identity the event counts under now: a merged anonymous identity's user.
    const SQL: &str = concat!(
        "SELECT e.id, e.occurred_at, e.day, e.namespace, e.dedupe_id, e.stage, e.name, ",
        current_identity!("e"),
        " AS identity, e.anonymous_id, e.user_id, e.email, e.value_cents, e.currency, e.channel, \
         e.attribution, e.properties FROM events e WHERE e.product_id = $1 AND e.id > $2 \
         ORDER BY e.id LIMIT $3"
    );
    Ok(on_db!(db, pool => sqlx::query_as(SQL)
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
