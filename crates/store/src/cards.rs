//! Cards of the approval queue. Transitions are conditional updates on the status last read, so
//! two people (or two instances) resolving one card at once cannot both succeed.

use payback_domain::card::{CardState, CardStatus, CardType, Proposer};
use payback_domain::{Timestamp, Via};

use crate::error::StoreResult;
use crate::{Db, Tx, Visibility, new_id};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct CardRow {
    pub id: String,
    pub account_id: String,
    pub product_id: Option<String>,
    pub product_slug: Option<String>,
    /// Read back typed, like `proposed_by`, `status` and `resolved_via`: a word outside its
    /// vocabulary fails the read rather than standing in for a default.
    #[sqlx(try_from = "String")]
    pub card_type: CardType,
    pub headline: String,
    pub metric_line: String,
    pub detail: Option<String>,
    #[sqlx(try_from = "String")]
    pub proposed_by: Proposer,
    pub action_spec: Option<String>,
    #[sqlx(try_from = "String")]
    pub status: CardStatus,
    pub dedupe_key: Option<String>,
    pub created_at: i64,
    pub expires_at: Option<i64>,
    pub snoozed_until: Option<i64>,
    pub resolved_at: Option<i64>,
    pub resolved_by: Option<String>,
    #[sqlx(try_from = "crate::words::NullableWord")]
    pub resolved_via: Option<Via>,
    pub execution: Option<String>,
    /// The product's connection a spend proposal was raised for (migration `0026`): applying
    /// it refuses when the product's connection for its network is another one by then.
    pub connection_id: Option<String>,
    /// The network's own account id that connection named when the proposal was raised (a
    /// Google Ads customer id, a Meta ad account id); null when it named none.
    pub ad_account_id: Option<String>,
}

impl CardRow {
    /// The stored state the effective status and transitions are derived from.
    pub fn state(&self) -> CardState {
        CardState {
            status: self.status,
            expires_at: self.expires_at.map(Timestamp::from_millis),
            snoozed_until: self.snoozed_until.map(Timestamp::from_millis),
        }
    }

    pub fn action_spec_json(&self) -> Option<serde_json::Value> {
        self.action_spec
            .as_deref()
            .and_then(|text| serde_json::from_str(text).ok())
    }
}

const COLUMNS: &str = "id, account_id, product_id, product_slug, card_type, headline, metric_line, detail, \
    proposed_by, action_spec, status, dedupe_key, created_at, expires_at, snoozed_until, resolved_at, \
    resolved_by, resolved_via, execution, connection_id, ad_account_id";

/// A card to raise. `dedupe_key` names the condition a job raised it for: a second card for the
/// same key in the same account is not raised.
pub struct NewCard<'a> {
    pub account_id: &'a str,
    /// `(product id, product slug)`.
    pub product: Option<(&'a str, &'a str)>,
    pub card_type: CardType,
    pub headline: &'a str,
    pub metric_line: &'a str,
    pub detail: Option<&'a str>,
    pub proposed_by: Proposer,
    pub action_spec: Option<&'a serde_json::Value>,
    pub dedupe_key: Option<&'a str>,
    pub expires_at: Option<Timestamp>,
}

/// Raises a pending card; `None` when a card with the same dedupe key already exists.
pub async fn insert(
    tx: &mut Tx,
    card: NewCard<'_>,
    now: Timestamp,
) -> StoreResult<Option<CardRow>> {
    let (product_id, product_slug) = card.product.unzip();
    let sql = format!(
        "INSERT INTO cards (id, account_id, product_id, product_slug, card_type, headline, metric_line, detail, \
         proposed_by, action_spec, status, dedupe_key, created_at, expires_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'pending', $11, $12, $13) \
         ON CONFLICT (account_id, dedupe_key) DO NOTHING RETURNING {COLUMNS}"
    );
    Ok(
        on_tx!(tx, conn => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(new_id())
        .bind(card.account_id)
        .bind(product_id)
        .bind(product_slug)
        .bind(card.card_type.as_str())
        .bind(card.headline)
        .bind(card.metric_line)
        .bind(card.detail)
        .bind(card.proposed_by.as_str())
        .bind(card.action_spec.map(ToString::to_string))
        .bind(card.dedupe_key)
        .bind(now.millis())
        .bind(card.expires_at.map(Timestamp::millis))
        .fetch_optional(conn)
        .await)?,
    )
}

/// The SQL condition "effectively pending at `$now`": pending and not expired, or snoozed
/// until a time that has come (and not expired).
const OPEN_AT_NOW: &str = "(expires_at IS NULL OR expires_at > $1) AND \
    (status = 'pending' OR (status = 'snoozed' AND snoozed_until <= $1))";

/// Which cards a queue listing shows, by their effective status at `$1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueueView {
    /// Waiting for a human: pending, or snoozed until a time that has come.
    Pending,
    /// Snoozed until later (restorable).
    Snoozed,
    /// Past their expiry without a decision (restorable).
    Expired,
    /// Approved, with what applying them came to (`execution`).
    Approved,
}

impl QueueView {
    fn condition(self) -> &'static str {
        match self {
            QueueView::Pending => OPEN_AT_NOW,
            QueueView::Snoozed => {
                "status = 'snoozed' AND snoozed_until > $1 AND (expires_at IS NULL OR expires_at > $1)"
            }
            // The expiry job stores `expired`; until it runs, an open card past its time is
            // expired all the same.
            QueueView::Expired => {
                "(status = 'expired' OR (status IN ('pending', 'snoozed') AND expires_at <= $1))"
            }
            // `$1` is bound for every view; this one does not depend on the time.
            QueueView::Approved => "status = 'approved' AND $1 = $1",
        }
    }
}

/// The newest `limit` cards of `view`, newest first.
pub async fn listed(
    db: &Db,
    visibility: &Visibility,
    view: QueueView,
    now: Timestamp,
    limit: i64,
) -> StoreResult<Vec<CardRow>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM cards WHERE {} AND ($2 IS NULL OR account_id = $2) \
         ORDER BY created_at DESC, id DESC LIMIT $3",
        view.condition()
    );
    Ok(
        on_db!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(now.millis())
        .bind(visibility.account_filter())
        .bind(limit)
        .fetch_all(pool)
        .await)?,
    )
}

/// Pending cards per product, for product rows.
pub async fn pending_counts(
    db: &Db,
    product_ids: &[&str],
    now: Timestamp,
) -> StoreResult<Vec<(String, i64)>> {
    let mut counts = Vec::new();
    for chunk in product_ids.chunks(500) {
        let rows: Vec<(String, i64)> = on_db!(db, pool => {
            // `OPEN_AT_NOW` with the builder's own parameter numbering.
            let mut query = sqlx::QueryBuilder::new("SELECT product_id, CAST(COUNT(*) AS BIGINT) FROM cards WHERE (expires_at IS NULL OR expires_at > ");
            query.push_bind(now.millis());
            query.push(") AND (status = 'pending' OR (status = 'snoozed' AND snoozed_until <= ");
            query.push_bind(now.millis());
            query.push(")) AND product_id IN (");
            let mut ids = query.separated(", ");
            for id in chunk {
                ids.push_bind(*id);
            }
            query.push(") GROUP BY product_id");
            query.build_query_as().fetch_all(pool).await
        })?;
        counts.extend(rows);
    }
    Ok(counts)
}

/// One card visible to the caller, whatever its status.
pub async fn find(db: &Db, visibility: &Visibility, id: &str) -> StoreResult<Option<CardRow>> {
    let sql =
        format!("SELECT {COLUMNS} FROM cards WHERE id = $1 AND ($2 IS NULL OR account_id = $2)");
    Ok(
        on_db!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(id)
        .bind(visibility.account_filter())
        .fetch_optional(pool)
        .await)?,
    )
}

/// What a transition writes besides the status.
#[derive(Debug, Clone, Default)]
pub struct TransitionFields<'a> {
    pub snoozed_until: Option<Timestamp>,
    pub expires_at: Option<Timestamp>,
    /// `(who, via)` for resolutions that end the card's wait (approve, reject).
    pub resolved: Option<(&'a str, Via)>,
}

/// Moves `card` from the status it was read with to `to`. `None` when the card changed in
/// between (another resolution won): the caller answers as if it were not pending.
pub async fn transition(
    tx: &mut Tx,
    card: &CardRow,
    to: CardStatus,
    fields: TransitionFields<'_>,
    now: Timestamp,
) -> StoreResult<Option<CardRow>> {
    let (resolved_by, resolved_via) = fields.resolved.unzip();
    let sql = format!(
        "UPDATE cards SET status = $1, snoozed_until = $2, expires_at = $3, \
         resolved_at = CASE WHEN $4 IS NULL THEN resolved_at ELSE $5 END, \
         resolved_by = COALESCE($4, resolved_by), resolved_via = COALESCE($6, resolved_via) \
         WHERE id = $7 AND status = $8 RETURNING {COLUMNS}"
    );
    Ok(
        on_tx!(tx, conn => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(to.as_str())
        .bind(fields.snoozed_until.map(Timestamp::millis))
        .bind(fields.expires_at.or(card.expires_at.map(Timestamp::from_millis)).map(Timestamp::millis))
        .bind(resolved_by)
        .bind(now.millis())
        .bind(resolved_via.map(Via::as_str))
        .bind(&card.id)
        .bind(card.status.as_str())
        .fetch_optional(conn)
        .await)?,
    )
}

/// Records on a card just raised the connection and network account it was raised for, in the
/// transaction that raised it; answers the card as it now reads.
pub async fn set_ad_account(
    tx: &mut Tx,
    card_id: &str,
    connection_id: &str,
    ad_account_id: Option<&str>,
) -> StoreResult<Option<CardRow>> {
    let sql = format!(
        "UPDATE cards SET connection_id = $1, ad_account_id = $2 WHERE id = $3 RETURNING {COLUMNS}"
    );
    Ok(
        on_tx!(tx, conn => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(connection_id)
        .bind(ad_account_id)
        .bind(card_id)
        .fetch_optional(conn)
        .await)?,
    )
}

/// Records what applying an approved card did.
pub async fn set_execution(
    tx: &mut Tx,
    card_id: &str,
    execution: &serde_json::Value,
) -> StoreResult<()> {
    on_tx!(tx, conn => sqlx::query("UPDATE cards SET execution = $1 WHERE id = $2")
        .bind(execution.to_string())
        .bind(card_id)
        .execute(conn)
        .await.map(|done| done.rows_affected()))?;
    Ok(())
}

/// Open cards past their expiry become `expired`; returns them.
pub async fn expire_due(tx: &mut Tx, now: Timestamp) -> StoreResult<Vec<CardRow>> {
    let sql = format!(
        "UPDATE cards SET status = 'expired', snoozed_until = NULL \
         WHERE status IN ('pending', 'snoozed') AND expires_at <= $1 RETURNING {COLUMNS}"
    );
    Ok(
        on_tx!(tx, conn => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(now.millis())
        .fetch_all(conn)
        .await)?,
    )
}

/// Snoozed cards whose time has come return to `pending`; returns them.
pub async fn wake_due(tx: &mut Tx, now: Timestamp) -> StoreResult<Vec<CardRow>> {
    let sql = format!(
        "UPDATE cards SET status = 'pending', snoozed_until = NULL \
         WHERE status = 'snoozed' AND snoozed_until <= $1 AND (expires_at IS NULL OR expires_at > $1) \
         RETURNING {COLUMNS}"
    );
    Ok(
        on_tx!(tx, conn => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(now.millis())
        .fetch_all(conn)
        .await)?,
    )
}

/// Approved spend proposals resolved since `since`, oldest first: what the rollback watcher reads.
pub async fn approved_proposals_since(db: &Db, since: Timestamp) -> StoreResult<Vec<CardRow>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM cards WHERE card_type = 'proposal' AND status = 'approved' \
         AND resolved_at >= $1 ORDER BY resolved_at, id"
    );
    Ok(
        on_db!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(since.millis())
        .fetch_all(pool)
        .await)?,
    )
}
