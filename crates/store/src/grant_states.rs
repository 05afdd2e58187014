//! The single-use states of a grant's connect flow. Each step is a conditional update on the
//! state's status, so a replayed callback or a second `select` changes nothing.

use payback_domain::connection::GrantFlowStatus;
use payback_domain::{Timestamp, Via};

use crate::error::StoreResult;
use crate::{AccountScope, Db, Tx};

#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct GrantState {
    pub state: String,
    pub provider: String,
    pub account_id: String,
    pub product_id: String,
    pub kinds: String,
    pub client: String,
    pub started_by: String,
    /// Read back typed: only [`insert`] writes it, from the domain's words, so any other word
    /// fails the read.
    #[sqlx(try_from = "String")]
    pub started_via: Via,
    pub pkce_verifier: String,
    #[sqlx(try_from = "String")]
    pub status: GrantFlowStatus,
    pub error: Option<String>,
    pub options: Option<String>,
    pub results: Option<String>,
    pub credential_id: Option<String>,
    pub created_at: i64,
    pub expires_at: i64,
    pub callback_at: Option<i64>,
    pub selected_at: Option<i64>,
    /// The provider's authorization URL the confirmation page sends the person on to (`None`
    /// for states started before migration 0028).
    pub provider_url: Option<String>,
    /// `person`, `api_key`, `operator` or `system` (see [`StartedAs`]).
    pub started_as: String,
    pub started_key_id: Option<String>,
    pub started_key_name: Option<String>,
    /// The email of the person who created the key, as it was at `start`.
    pub started_key_creator: Option<String>,
    /// When a person confirmed on Payback's page; the callback refuses a state without it.
    pub confirmed_at: Option<i64>,
    /// The hash of the value the confirming browser holds in a cookie; the callback must come
    /// back with it.
    pub confirmed_browser: Option<String>,
}

const COLUMNS: &str = "state, provider, account_id, product_id, kinds, client, started_by, \
     started_via, pkce_verifier, status, error, options, results, credential_id, created_at, \
     expires_at, callback_at, selected_at, provider_url, started_as, started_key_id, \
     started_key_name, started_key_creator, confirmed_at, confirmed_browser";

/// Who started a flow, as the confirmation page names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StartedAs<'a> {
    /// A person's session (`started_by` holds the email).
    Person,
    /// An API key: its id, name and the email of the person who created it (`None` for an
    /// agent's sign-up key), as they were at `start`.
    ApiKey {
        id: &'a str,
        name: &'a str,
        creator: Option<&'a str>,
    },
    /// The operator token.
    Operator,
    /// The server itself (a job).
    System,
}

impl StartedAs<'_> {
    pub fn word(self) -> &'static str {
        match self {
            StartedAs::Person => "person",
            StartedAs::ApiKey { .. } => "api_key",
            StartedAs::Operator => "operator",
            StartedAs::System => "system",
        }
    }
}

/// A started flow.
#[derive(Debug, Clone, Copy)]
pub struct NewGrantState<'a> {
    pub state: &'a str,
    pub provider: &'a str,
    pub product_id: &'a str,
    pub kinds: &'a str,
    pub client: &'a str,
    pub started_by: &'a str,
    pub started_via: Via,
    pub pkce_verifier: &'a str,
    pub expires_at: Timestamp,
    pub started_as: StartedAs<'a>,
    pub provider_url: &'a str,
}

pub async fn insert(
    tx: &mut Tx,
    scope: &AccountScope,
    new: NewGrantState<'_>,
    now: Timestamp,
) -> StoreResult<()> {
    let (key_id, key_name, key_creator) = match new.started_as {
        StartedAs::ApiKey { id, name, creator } => (Some(id), Some(name), creator),
        _ => (None, None, None),
    };
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO grant_states (state, provider, account_id, product_id, kinds, client, started_by, \
         started_via, pkce_verifier, status, created_at, expires_at, provider_url, started_as, \
         started_key_id, started_key_name, started_key_creator) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'pending', $10, $11, $12, $13, $14, $15, $16)")
        .bind(new.state)
        .bind(new.provider)
        .bind(scope.account_id())
        .bind(new.product_id)
        .bind(new.kinds)
        .bind(new.client)
        .bind(new.started_by)
        .bind(new.started_via.as_str())
        .bind(new.pkce_verifier)
        .bind(now.millis())
        .bind(new.expires_at.millis())
        .bind(new.provider_url)
        .bind(new.started_as.word())
        .bind(key_id)
        .bind(key_name)
        .bind(key_creator)
        .execute(conn)
        .await.map(|done| done.rows_affected()))?;
    Ok(())
}

/// The state as the provider's callback finds it: by its token alone (the human's browser
/// carries no credential of ours).
pub async fn find(db: &Db, provider: &str, state: &str) -> StoreResult<Option<GrantState>> {
    let sql = format!("SELECT {COLUMNS} FROM grant_states WHERE state = $1 AND provider = $2");
    Ok(
        on_db!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(state)
        .bind(provider)
        .fetch_optional(pool)
        .await)?,
    )
}

/// The state as its account sees it; another account's answers `None`.
pub async fn find_in(
    db: &Db,
    scope: &AccountScope,
    provider: &str,
    state: &str,
) -> StoreResult<Option<GrantState>> {
    Ok(find(db, provider, state)
        .await?
        .filter(|found| found.account_id == scope.account_id()))
}

/// The name of an API key of the account and the email of the person who created it (`None`
/// for an agent's sign-up key), as the confirmation page names a flow's starter; `None` for a
/// key not of the account.
pub async fn key_starter(
    tx: &mut Tx,
    scope: &AccountScope,
    key_id: &str,
) -> StoreResult<Option<(String, Option<String>)>> {
    Ok(on_tx!(tx, conn => sqlx::query_as(
        "SELECT k.name, u.email FROM api_keys k LEFT JOIN users u ON u.id = k.created_by \
         WHERE k.id = $1 AND k.account_id = $2")
        .bind(key_id)
        .bind(scope.account_id())
        .fetch_optional(conn)
        .await)?)
}

/// A person confirmed the flow on Payback's page in the browser whose cookie hashes to
/// `browser`: true while the state is still usable (pending, its callback not yet come, not
/// expired at `now`) and not confirmed in another browser. The first confirmation binds the
/// browser and keeps its time; the same browser may confirm again.
pub async fn confirm(db: &Db, state: &str, browser: &str, now: Timestamp) -> StoreResult<bool> {
    let changed = on_db!(db, pool => sqlx::query(
        "UPDATE grant_states SET confirmed_at = COALESCE(confirmed_at, $1), \
         confirmed_browser = COALESCE(confirmed_browser, $3) WHERE state = $2 \
         AND status = 'pending' AND callback_at IS NULL AND expires_at > $1 \
         AND (confirmed_browser IS NULL OR confirmed_browser = $3)")
        .bind(now.millis())
        .bind(state)
        .bind(browser)
        .execute(pool)
        .await.map(|done| done.rows_affected()))?;
    Ok(changed == 1)
}

/// Marks the callback as having happened, once: false when it already had (a replay) or when
/// nobody confirmed the flow on Payback's page (a link that skipped it).
pub async fn claim_callback(db: &Db, state: &str, now: Timestamp) -> StoreResult<bool> {
    let changed = on_db!(db, pool => sqlx::query(
        "UPDATE grant_states SET callback_at = $1 WHERE state = $2 AND callback_at IS NULL \
         AND status = 'pending' AND confirmed_at IS NOT NULL")
        .bind(now.millis())
        .bind(state)
        .execute(pool)
        .await.map(|done| done.rows_affected()))?;
    Ok(changed == 1)
}

/// The consent came back and the options were discovered.
pub async fn complete(
    tx: &mut Tx,
    state: &str,
    credential_id: &str,
    options: &str,
) -> StoreResult<()> {
    on_tx!(tx, conn => sqlx::query(
        "UPDATE grant_states SET status = 'complete', credential_id = $1, options = $2 WHERE state = $3")
        .bind(credential_id)
        .bind(options)
        .bind(state)
        .execute(conn)
        .await.map(|done| done.rows_affected()))?;
    Ok(())
}

/// The flow ended without a grant; `error` says why in words a person understands.
pub async fn fail(db: &Db, state: &str, error: &str) -> StoreResult<()> {
    on_db!(db, pool => sqlx::query(
        "UPDATE grant_states SET status = 'error', error = $1 WHERE state = $2 AND status = 'pending'")
        .bind(error)
        .bind(state)
        .execute(pool)
        .await.map(|done| done.rows_affected()))?;
    Ok(())
}

/// Marks the selection as made, once, with what it activated: false when it already was.
pub async fn claim_selection(
    tx: &mut Tx,
    state: &str,
    results: &str,
    now: Timestamp,
) -> StoreResult<bool> {
    let changed = on_tx!(tx, conn => sqlx::query(
        "UPDATE grant_states SET selected_at = $1, results = $2 WHERE state = $3 \
         AND status = 'complete' AND selected_at IS NULL")
        .bind(now.millis())
        .bind(results)
        .bind(state)
        .execute(conn)
        .await.map(|done| done.rows_affected()))?;
    Ok(changed == 1)
}

/// Complete grants never turned into connections, started before `before`, that still hold
/// their sealed token; oldest first.
pub async fn abandoned(db: &Db, before: Timestamp, limit: i64) -> StoreResult<Vec<GrantState>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM grant_states WHERE status = 'complete' AND selected_at IS NULL \
         AND credential_id IS NOT NULL AND created_at < $1 ORDER BY created_at LIMIT $2"
    );
    Ok(
        on_db!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(before.millis())
        .bind(limit)
        .fetch_all(pool)
        .await)?,
    )
}

/// The state lets go of its sealed token (the caller deletes the credential); the state itself
/// stays, so its status still reads and a late `select` is refused as not complete.
pub async fn forget_credential(tx: &mut Tx, state: &str, error: &str) -> StoreResult<()> {
    on_tx!(tx, conn => sqlx::query(
        "UPDATE grant_states SET credential_id = NULL, status = 'error', error = $1 WHERE state = $2")
        .bind(error)
        .bind(state)
        .execute(conn)
        .await.map(|done| done.rows_affected()))?;
    Ok(())
}
