//! The distribution log: outreach a founder did, joined back to traffic by `utm_campaign`.

use payback_domain::Timestamp;

use crate::error::StoreResult;
use crate::identity_sql::current_identity;
use crate::{AccountScope, Db, Tx, new_id};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct EntryRow {
    pub id: String,
    pub product_id: String,
    pub channel: String,
    pub kind: String,
    pub url: Option<String>,
    pub utm_campaign: Option<String>,
    pub note: Option<String>,
    pub created_by: String,
    pub created_at: i64,
}

pub struct NewEntry<'a> {
    pub product_id: &'a str,
    pub channel: &'a str,
    pub kind: &'a str,
    pub url: Option<&'a str>,
    pub utm_campaign: Option<&'a str>,
    pub note: Option<&'a str>,
    pub created_by: &'a str,
}

const COLUMNS: &str =
    "id, product_id, channel, kind, url, utm_campaign, note, created_by, created_at";

pub async fn insert(
    tx: &mut Tx,
    scope: &AccountScope,
    entry: NewEntry<'_>,
    now: Timestamp,
) -> StoreResult<EntryRow> {
    let sql = format!(
        "INSERT INTO distribution_entries (id, account_id, product_id, channel, kind, url, utm_campaign, note, created_by, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING {COLUMNS}"
    );
    Ok(
        on_tx!(tx, conn => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(new_id())
        .bind(scope.account_id())
        .bind(entry.product_id)
        .bind(entry.channel)
        .bind(entry.kind)
        .bind(entry.url)
        .bind(entry.utm_campaign)
        .bind(entry.note)
        .bind(entry.created_by)
        .bind(now.millis())
        .fetch_one(conn)
        .await)?,
    )
}

/// A product's entries recorded since `since`, newest first.
pub async fn list(
    db: &Db,
    scope: &AccountScope,
    product_id: &str,
    since: Timestamp,
    limit: i64,
) -> StoreResult<Vec<EntryRow>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM distribution_entries WHERE account_id = $1 AND product_id = $2 AND created_at >= $3 \
         ORDER BY created_at DESC, id DESC LIMIT $4"
    );
    Ok(
        on_db!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(scope.account_id())
        .bind(product_id)
        .bind(since.millis())
        .bind(limit)
        .fetch_all(pool)
        .await)?,
    )
}

/// What one `utm_campaign` brought, all time: the identities it reached and what they did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CampaignResults {
    /// Distinct identities with a visit carrying the campaign, plus identity-less such visits.
    pub visits: i64,
    /// Identities the campaign reached (any event carrying it) that became leads.
    pub leads: i64,
    /// Of those identities, the customers.
    pub customers: i64,
    /// Net revenue of the identities it reached.
    pub revenue_cents: i64,
}

/// The identities an event carrying the campaign reached (as they count now: a merged
/// anonymous identity's user), as a sub-select binding `$1` (product) and `$2` (campaign). No
/// DISTINCT: `IN` builds its own set.
macro_rules! reached {
    () => {
        concat!(
            "SELECT ",
            current_identity!("r"),
            " FROM events r WHERE r.product_id = $1 AND r.utm_campaign = $2 AND r.identity IS NOT NULL"
        )
    };
}

/// Visits of the campaign: its distinct identities, plus each identity-less visit.
const VISITS: &str = concat!(
    "SELECT CAST(COUNT(DISTINCT ",
    current_identity!("e"),
    ") AS BIGINT) + CAST(SUM(CASE WHEN e.identity IS NULL THEN 1 ELSE 0 END) AS BIGINT) \
     FROM events e WHERE e.product_id = $1 AND e.utm_campaign = $2 AND e.stage = 'visit'"
);
const LEADS: &str = concat!(
    "SELECT CAST(COUNT(DISTINCT ",
    current_identity!("e"),
    ") AS BIGINT) FROM events e WHERE e.product_id = $1 AND e.stage = 'lead' AND ",
    current_identity!("e"),
    " IN (",
    reached!(),
    ")"
);
const CUSTOMERS: &str = concat!(
    "SELECT CAST(COUNT(*) AS BIGINT) FROM identity_profiles \
     WHERE product_id = $1 AND acquired_at IS NOT NULL AND identity IN (",
    reached!(),
    ")"
);
const REVENUE: &str = concat!(
    "SELECT CAST(COALESCE(SUM(amount_cents), 0) AS BIGINT) FROM transactions \
     WHERE product_id = $1 AND identity IN (",
    reached!(),
    ")"
);

pub async fn campaign_results(
    db: &Db,
    product_id: &str,
    campaign: &str,
) -> StoreResult<CampaignResults> {
    let mut counts = [0i64; 4];
    for (slot, sql) in counts.iter_mut().zip([VISITS, LEADS, CUSTOMERS, REVENUE]) {
        let value: Option<i64> = on_db!(db, pool => sqlx::query_scalar(sql)
            .bind(product_id)
            .bind(campaign)
            .fetch_one(pool)
            .await)?;
        *slot = value.unwrap_or(0);
    }
    let [visits, leads, customers, revenue_cents] = counts;
    Ok(CampaignResults {
        visits,
        leads,
        customers,
        revenue_cents,
    })
}
