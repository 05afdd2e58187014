//! The audit history: one row per change of state or configuration, written in the same
//! transaction as the change itself.

use payback_domain::card::CardType;
use payback_domain::{Actor, Timestamp, Via};

use crate::error::StoreResult;
use crate::{Db, Tx, Visibility};

/// Actions that belong to a person's sign-in rather than to the account's work; tenants never
/// see them in their history.
pub const LOGIN_ACTIONS: &[&str] = &["auth.login", "auth.sso_login"];

pub struct NewEvent<'a> {
    pub account_id: Option<&'a str>,
    pub actor: &'a Actor,
    pub action: &'a str,
    /// `(product id, product slug)` when the change concerns one product.
    pub product: Option<(&'a str, &'a str)>,
    pub subject_ref: Option<&'a str>,
    pub card_headline: Option<&'a str>,
    pub card_type: Option<CardType>,
    pub payload: serde_json::Value,
}

impl<'a> NewEvent<'a> {
    /// An event of the account with no product, subject or card; set the rest by field.
    pub fn new(account_id: &'a str, actor: &'a Actor, action: &'a str) -> Self {
        Self {
            account_id: Some(account_id),
            actor,
            action,
            product: None,
            subject_ref: None,
            card_headline: None,
            card_type: None,
            payload: serde_json::Value::Object(Default::default()),
        }
    }
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct EventRow {
    pub id: i64,
    pub account_id: Option<String>,
    pub occurred_at: i64,
    pub actor: String,
    /// Read back typed, like `card_type`: only [`record`] writes these columns, from the
    /// domain's words, so any other word is a row this version cannot trust and fails the read.
    #[sqlx(try_from = "String")]
    pub via: Via,
    pub action: String,
    pub product_slug: Option<String>,
    pub subject_ref: Option<String>,
    pub card_headline: Option<String>,
    #[sqlx(try_from = "crate::words::NullableWord")]
    pub card_type: Option<CardType>,
    pub payload: String,
}

pub async fn record(tx: &mut Tx, event: NewEvent<'_>, now: Timestamp) -> StoreResult<()> {
    let (product_id, product_slug) = event.product.unzip();
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO history (account_id, occurred_at, actor, via, action, product_id, product_slug, subject_ref, \
         card_headline, card_type, payload) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)")
        .bind(event.account_id)
        .bind(now.millis())
        .bind(&event.actor.who)
        .bind(event.actor.via.as_str())
        .bind(event.action)
        .bind(product_id)
        .bind(product_slug)
        .bind(event.subject_ref)
        .bind(event.card_headline)
        .bind(event.card_type.map(CardType::as_str))
        .bind(event.payload.to_string())
        .execute(conn)
        .await.map(|done| done.rows_affected()))?;
    Ok(())
}

pub struct HistoryQuery<'a> {
    pub visibility: &'a Visibility,
    pub product_id: Option<&'a str>,
    pub since: Timestamp,
    pub limit: i64,
    /// Events of no product (team, keys, profile, sign-up, workspaces, the portfolio policy);
    /// without it only events that name a product.
    pub include_account: bool,
    pub include_logins: bool,
}

/// Events newest first.
pub async fn list(db: &Db, query: &HistoryQuery<'_>) -> StoreResult<Vec<EventRow>> {
    // The login exclusion is a fixed list, so it is inlined rather than bound.
    let logins = LOGIN_ACTIONS
        .iter()
        .map(|a| format!("'{a}'"))
        .collect::<Vec<_>>()
        .join(", ");
    // A product's events keep its slug should the product row go (`product_id` is set to NULL
    // then), so the slug is what makes an event a product's.
    let sql = format!(
        "SELECT id, account_id, occurred_at, actor, via, action, product_slug, subject_ref, card_headline, \
         card_type, payload FROM history \
         WHERE ($1 IS NULL OR account_id = $1) AND ($2 IS NULL OR product_id = $2) AND occurred_at >= $3 \
         AND ($4 OR action NOT IN ({logins})) AND ($5 OR product_slug IS NOT NULL) \
         ORDER BY occurred_at DESC, id DESC LIMIT $6"
    );
    Ok(
        on_db!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(query.visibility.account_filter())
        .bind(query.product_id)
        .bind(query.since.millis())
        .bind(query.include_logins)
        .bind(query.include_account)
        .bind(query.limit)
        .fetch_all(pool)
        .await)?,
    )
}
