//! The policy engine's settings (product caps and walls, the account's ceiling) and the daily
//! budgets humans approved, which the ceiling sums.

use payback_domain::Timestamp;
use payback_domain::policy::{Network, PortfolioPolicy, ProductPolicy};

use crate::error::StoreResult;
use crate::{Reader, Tx};

#[derive(sqlx::FromRow)]
struct ProductPolicyRow {
    google_cap_cents: Option<i64>,
    meta_cap_cents: Option<i64>,
    adult_adjacent: bool,
    blocked_networks: String,
}

/// A product's policy; the default (no caps, no walls) when owners never set one.
pub async fn product_policy(reader: Reader<'_>, product_id: &str) -> StoreResult<ProductPolicy> {
    let row: Option<ProductPolicyRow> = on_reader!(reader, conn => sqlx::query_as(
        "SELECT google_cap_cents, meta_cap_cents, adult_adjacent, blocked_networks \
         FROM product_policies WHERE product_id = $1")
        .bind(product_id)
        .fetch_optional(conn)
        .await)?;
    Ok(
        row.map_or_else(ProductPolicy::default, |row| ProductPolicy {
            google_cap_cents: row.google_cap_cents,
            meta_cap_cents: row.meta_cap_cents,
            adult_adjacent: row.adult_adjacent,
            blocked_networks: serde_json::from_str::<Vec<String>>(&row.blocked_networks)
                .unwrap_or_default()
                .iter()
                .filter_map(|name| Network::parse(name))
                .collect(),
        }),
    )
}

pub async fn set_product_policy(
    tx: &mut Tx,
    product_id: &str,
    policy: &ProductPolicy,
    now: Timestamp,
) -> StoreResult<()> {
    let blocked: Vec<&str> = policy.blocked_networks.iter().map(|n| n.as_str()).collect();
    let blocked = serde_json::Value::from(blocked).to_string();
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO product_policies (product_id, google_cap_cents, meta_cap_cents, adult_adjacent, blocked_networks, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (product_id) DO UPDATE SET \
         google_cap_cents = excluded.google_cap_cents, meta_cap_cents = excluded.meta_cap_cents, \
         adult_adjacent = excluded.adult_adjacent, blocked_networks = excluded.blocked_networks, \
         updated_at = excluded.updated_at")
        .bind(product_id)
        .bind(policy.google_cap_cents)
        .bind(policy.meta_cap_cents)
        .bind(policy.adult_adjacent)
        .bind(blocked)
        .bind(now.millis())
        .execute(conn)
        .await.map(|done| done.rows_affected()))?;
    Ok(())
}

/// The account's ceiling; no ceiling (in USD) when owners never set one.
pub async fn portfolio_policy(
    reader: Reader<'_>,
    account_id: &str,
) -> StoreResult<PortfolioPolicy> {
    let row: Option<(Option<i64>, String)> = on_reader!(reader, conn => sqlx::query_as(
        "SELECT portfolio_ceiling_cents, ceiling_currency FROM account_policies WHERE account_id = $1")
        .bind(account_id)
        .fetch_optional(conn)
        .await)?;
    Ok(match row {
        Some((ceiling_cents, currency)) => PortfolioPolicy {
            ceiling_cents,
            currency,
        },
        None => PortfolioPolicy {
            ceiling_cents: None,
            currency: "USD".to_owned(),
        },
    })
}

pub async fn set_portfolio_policy(
    tx: &mut Tx,
    account_id: &str,
    policy: &PortfolioPolicy,
    now: Timestamp,
) -> StoreResult<()> {
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO account_policies (account_id, portfolio_ceiling_cents, ceiling_currency, updated_at) \
         VALUES ($1, $2, $3, $4) ON CONFLICT (account_id) DO UPDATE SET \
         portfolio_ceiling_cents = excluded.portfolio_ceiling_cents, \
         ceiling_currency = excluded.ceiling_currency, updated_at = excluded.updated_at")
        .bind(account_id)
        .bind(policy.ceiling_cents)
        .bind(&policy.currency)
        .bind(now.millis())
        .execute(conn)
        .await.map(|done| done.rows_affected()))?;
    Ok(())
}

/// Serialises spend decisions of one account: on PostgreSQL the upsert holds the account's
/// policy row lock until the transaction ends, so two approvals cannot both fit under the
/// ceiling by not seeing each other; SQLite transactions already run one writer at a time.
pub async fn lock_account(tx: &mut Tx, account_id: &str, now: Timestamp) -> StoreResult<()> {
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO account_policies (account_id, portfolio_ceiling_cents, ceiling_currency, updated_at) \
         VALUES ($1, NULL, 'USD', $2) ON CONFLICT (account_id) DO UPDATE SET updated_at = account_policies.updated_at")
        .bind(account_id)
        .bind(now.millis())
        .execute(conn)
        .await.map(|done| done.rows_affected()))?;
    Ok(())
}

/// One approved daily budget.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct BudgetRow {
    pub product_id: String,
    pub product_slug: String,
    pub currency: String,
    pub network: String,
    pub daily_cents: i64,
    pub card_id: String,
    pub applied: bool,
    pub set_at: i64,
}

/// Every approved daily budget of the account.
pub async fn budgets(reader: Reader<'_>, account_id: &str) -> StoreResult<Vec<BudgetRow>> {
    Ok(on_reader!(reader, conn => sqlx::query_as(
        "SELECT b.product_id, p.slug AS product_slug, p.currency, b.network, b.daily_cents, b.card_id, b.applied, b.set_at \
         FROM spend_budgets b JOIN products p ON p.id = b.product_id \
         WHERE p.account_id = $1 ORDER BY p.slug, b.network")
        .bind(account_id)
        .fetch_all(conn)
        .await)?)
}

/// Records the daily budget a human approved for one network of a product.
pub async fn set_budget(
    tx: &mut Tx,
    product_id: &str,
    network: Network,
    daily_cents: i64,
    card_id: &str,
    applied: bool,
    now: Timestamp,
) -> StoreResult<()> {
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO spend_budgets (product_id, network, daily_cents, card_id, applied, set_at) \
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (product_id, network) DO UPDATE SET \
         daily_cents = excluded.daily_cents, card_id = excluded.card_id, applied = excluded.applied, \
         set_at = excluded.set_at")
        .bind(product_id)
        .bind(network.as_str())
        .bind(daily_cents)
        .bind(card_id)
        .bind(applied)
        .bind(now.millis())
        .execute(conn)
        .await.map(|done| done.rows_affected()))?;
    Ok(())
}
