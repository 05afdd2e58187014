//! Each workspace's billing state at Payback's own Stripe account (migration 0035): the customer
//! the first checkout made, the subscription Stripe's events describe, and the events applied.
//! Rows change only through [`keep_customer`] (a checkout), [`apply`] (a verified webhook event,
//! in the caller's transaction)
//! and [`set_quantity_pushed`] (the quantity job); which plan that makes is the server's rule.

use payback_domain::Timestamp;

use crate::error::StoreResult;
use crate::{AccountScope, Db, Tx};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct BillingRow {
    pub account_id: String,
    pub customer_id: String,
    pub subscription_id: Option<String>,
    pub item_id: Option<String>,
    /// `free`, `indie` or `growth`: the tier of the subscribed price.
    pub stored_plan: String,
    /// `None` until a subscription is known; then `active`, `past_due` or `canceled`.
    pub status: Option<String>,
    /// Epoch milliseconds of the subscription's `current_period_end`.
    pub period_end: Option<i64>,
    /// Stripe's `created` (epoch seconds) of the newest event applied.
    pub last_event_created: Option<i64>,
    /// The item's quantity as Stripe last holds it (from its events or our last update).
    pub quantity_pushed: Option<i64>,
}

const COLUMNS: &str = "account_id, customer_id, subscription_id, item_id, stored_plan, status, \
                       period_end, last_event_created, quantity_pushed";

/// The workspace's billing row; `None` before its first checkout.
pub async fn find(db: &Db, scope: &AccountScope) -> StoreResult<Option<BillingRow>> {
    let sql = format!("SELECT {COLUMNS} FROM billing_accounts WHERE account_id = $1");
    Ok(
        on_db!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(scope.account_id())
        .fetch_optional(pool)
        .await)?,
    )
}

/// The workspace whose Stripe customer is `customer_id` (the one Payback made), if any.
pub async fn find_by_customer(db: &Db, customer_id: &str) -> StoreResult<Option<BillingRow>> {
    let sql = format!("SELECT {COLUMNS} FROM billing_accounts WHERE customer_id = $1");
    Ok(
        on_db!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(customer_id)
        .fetch_optional(pool)
        .await)?,
    )
}

/// Keeps `customer_id` as the workspace's customer unless it has one, and answers the one kept:
/// of two first checkouts at once, both go on with the customer written first.
pub async fn keep_customer(
    db: &Db,
    scope: &AccountScope,
    customer_id: &str,
    now: Timestamp,
) -> StoreResult<String> {
    on_db!(db, pool => sqlx::query(
        "INSERT INTO billing_accounts (account_id, customer_id, created_at, updated_at) \
         VALUES ($1, $2, $3, $3) ON CONFLICT (account_id) DO NOTHING")
        .bind(scope.account_id())
        .bind(customer_id)
        .bind(now.millis())
        .execute(pool)
        .await.map(|done| done.rows_affected()))?;
    Ok(on_db!(db, pool => sqlx::query_scalar(
        "SELECT customer_id FROM billing_accounts WHERE account_id = $1")
        .bind(scope.account_id())
        .fetch_one(pool)
        .await)?)
}

/// One verified Stripe event, as far as the store cares.
#[derive(Debug, Clone, Copy)]
pub struct Event<'a> {
    pub id: &'a str,
    pub event_type: &'a str,
    /// Stripe's `created`, epoch seconds.
    pub created: i64,
}

/// What an event says of the workspace's subscription.
#[derive(Debug, Clone, Copy)]
pub enum Change<'a> {
    /// `checkout.session.completed`: the session's subscription, kept unless one is known.
    CheckoutCompleted { subscription_id: &'a str },
    /// `customer.subscription.*`: the subscription as the event shows it.
    Subscription {
        subscription_id: &'a str,
        item_id: Option<&'a str>,
        /// `None` keeps the stored tier (a price that is neither plan's).
        stored_plan: Option<&'a str>,
        status: &'a str,
        period_end: Option<i64>,
        quantity: Option<i64>,
    },
}

/// What [`apply`] did with an event.
#[derive(Debug, Clone)]
pub enum Applied {
    /// The row changed: as it was just before, and as it is now.
    Changed {
        before: Box<BillingRow>,
        after: Box<BillingRow>,
    },
    /// The same event id was applied before: a redelivery.
    Redelivery,
    /// Older than the newest event applied (or the workspace has no row): nothing changes.
    Stale,
}

/// Applies `event`'s `change` to `account_id`'s row inside the caller's transaction, so what
/// the change is recorded with (the plan's history) commits with it: a redelivered id changes
/// nothing, and neither does an event older than the newest one applied (the conditional
/// update is the check, so two deliveries at once cannot both pass it). The row is locked
/// before it is read (a no-op update: PostgreSQL's row lock; SQLite's transaction holds the
/// write lock since the event's insert), so `before` is the row this change replaced even when
/// two events arrive together.
pub async fn apply(
    tx: &mut Tx,
    account_id: &str,
    event: Event<'_>,
    change: Change<'_>,
    now: Timestamp,
) -> StoreResult<Applied> {
    let fresh = on_tx!(tx, conn => sqlx::query(
        "INSERT INTO billing_events (event_id, account_id, event_type, created, applied_at) \
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (event_id) DO NOTHING")
        .bind(event.id)
        .bind(account_id)
        .bind(event.event_type)
        .bind(event.created)
        .bind(now.millis())
        .execute(conn)
        .await.map(|done| done.rows_affected()))?;
    if fresh == 0 {
        return Ok(Applied::Redelivery);
    }
    on_tx!(tx, conn => sqlx::query(
        "UPDATE billing_accounts SET account_id = account_id WHERE account_id = $1")
        .bind(account_id)
        .execute(conn)
        .await
        .map(|done| done.rows_affected()))?;
    let Some(before) = find_in(tx, account_id).await? else {
        return Ok(Applied::Stale);
    };
    let in_order = "(last_event_created IS NULL OR last_event_created <= $2)";
    let changed = match change {
        Change::CheckoutCompleted { subscription_id } => {
            let sql = format!(
                "UPDATE billing_accounts SET subscription_id = COALESCE(subscription_id, $3), \
                 last_event_created = $2, updated_at = $4 WHERE account_id = $1 AND {in_order}"
            );
            on_tx!(tx, conn => sqlx::query(sqlx::AssertSqlSafe(sql.as_str()))
                .bind(account_id)
                .bind(event.created)
                .bind(subscription_id)
                .bind(now.millis())
                .execute(conn)
                .await.map(|done| done.rows_affected()))?
        }
        Change::Subscription {
            subscription_id,
            item_id,
            stored_plan,
            status,
            period_end,
            quantity,
        } => {
            let sql = format!(
                "UPDATE billing_accounts SET subscription_id = $3, \
                 item_id = COALESCE($4, item_id), stored_plan = COALESCE($5, stored_plan), \
                 status = $6, period_end = $7, quantity_pushed = COALESCE($8, quantity_pushed), \
                 last_event_created = $2, updated_at = $9 WHERE account_id = $1 AND {in_order}"
            );
            on_tx!(tx, conn => sqlx::query(sqlx::AssertSqlSafe(sql.as_str()))
                .bind(account_id)
                .bind(event.created)
                .bind(subscription_id)
                .bind(item_id)
                .bind(stored_plan)
                .bind(status)
                .bind(period_end)
                .bind(quantity)
                .bind(now.millis())
                .execute(conn)
                .await.map(|done| done.rows_affected()))?
        }
    };
    if changed == 0 {
        return Ok(Applied::Stale);
    }
    let after = find_in(tx, account_id)
        .await?
        .unwrap_or_else(|| before.clone());
    Ok(Applied::Changed {
        before: Box::new(before),
        after: Box::new(after),
    })
}

/// `account_id`'s billing row as the transaction sees it.
async fn find_in(tx: &mut Tx, account_id: &str) -> StoreResult<Option<BillingRow>> {
    let sql = format!("SELECT {COLUMNS} FROM billing_accounts WHERE account_id = $1");
    Ok(
        on_tx!(tx, conn => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(account_id)
        .fetch_optional(conn)
        .await)?,
    )
}

/// Workspaces whose subscription is paid for (active or past due) with a known item: those
/// whose quantity the job keeps in step.
pub async fn subscribed(db: &Db) -> StoreResult<Vec<BillingRow>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM billing_accounts \
         WHERE status IN ('active', 'past_due') AND item_id IS NOT NULL ORDER BY account_id"
    );
    Ok(
        on_db!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .fetch_all(pool)
        .await)?,
    )
}

/// Records `quantity` as what Stripe holds for `item_id`, unless the item changed meanwhile.
pub async fn set_quantity_pushed(
    db: &Db,
    account_id: &str,
    item_id: &str,
    quantity: i64,
    now: Timestamp,
) -> StoreResult<()> {
    on_db!(db, pool => sqlx::query(
        "UPDATE billing_accounts SET quantity_pushed = $3, updated_at = $4 \
         WHERE account_id = $1 AND item_id = $2")
        .bind(account_id)
        .bind(item_id)
        .bind(quantity)
        .bind(now.millis())
        .execute(pool)
        .await.map(|done| done.rows_affected()))?;
    Ok(())
}
