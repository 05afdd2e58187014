//! The tag manager connection's state (`tag_manager_states`, migration 0034): the last tag
//! audit of its container and Payback's last publish there. A row belongs to one connection and
//! names its container; writing for another container (the connection was moved) forgets what
//! was known of the old one. Writes go through the connection's row, so a connection deleted
//! meanwhile (disconnected) gets no state.

use payback_domain::Timestamp;

use crate::error::StoreResult;
use crate::{AccountScope, Db, Tx};

/// What is known of one connection's container.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct TagManagerState {
    pub container_path: String,
    /// `None` until the first audit.
    pub snippet_live: Option<bool>,
    pub audited_at: Option<i64>,
    pub workspace_name: Option<String>,
    pub version_name: Option<String>,
    pub published: Option<bool>,
    pub deployed_at: Option<i64>,
}

/// The state of connection `connection_id` of the scope's account.
pub async fn find(
    db: &Db,
    scope: &AccountScope,
    connection_id: &str,
) -> StoreResult<Option<TagManagerState>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT container_path, snippet_live, audited_at, workspace_name, version_name, published, \
         deployed_at FROM tag_manager_states WHERE connection_id = $1 AND account_id = $2")
        .bind(connection_id)
        .bind(scope.account_id())
        .fetch_optional(pool)
        .await)?)
}

/// Keeps what an audit of `container_path` found; answers whether the connection still exists.
pub async fn record_audit(
    db: &Db,
    scope: &AccountScope,
    connection_id: &str,
    container_path: &str,
    snippet_live: bool,
    now: Timestamp,
) -> StoreResult<bool> {
    let written = on_db!(db, pool => sqlx::query(
        "INSERT INTO tag_manager_states (connection_id, account_id, product_id, container_path, \
         snippet_live, audited_at) \
         SELECT c.id, c.account_id, c.product_id, $3, $4, $5 FROM connections c \
         WHERE c.id = $1 AND c.account_id = $2 \
         ON CONFLICT (connection_id) DO UPDATE SET \
         workspace_name = CASE WHEN tag_manager_states.container_path = excluded.container_path \
             THEN tag_manager_states.workspace_name ELSE NULL END, \
         version_name = CASE WHEN tag_manager_states.container_path = excluded.container_path \
             THEN tag_manager_states.version_name ELSE NULL END, \
         published = CASE WHEN tag_manager_states.container_path = excluded.container_path \
             THEN tag_manager_states.published ELSE NULL END, \
         deployed_at = CASE WHEN tag_manager_states.container_path = excluded.container_path \
             THEN tag_manager_states.deployed_at ELSE NULL END, \
         container_path = excluded.container_path, \
         snippet_live = excluded.snippet_live, \
         audited_at = excluded.audited_at")
        .bind(connection_id)
        .bind(scope.account_id())
        .bind(container_path)
        .bind(snippet_live)
        .bind(now.millis())
        .execute(pool)
        .await.map(|done| done.rows_affected()))?;
    Ok(written > 0)
}

/// What Payback published in `container_path`.
#[derive(Debug, Clone, Copy)]
pub struct Deploy<'a> {
    pub container_path: &'a str,
    pub workspace_name: &'a str,
    pub version_name: &'a str,
    pub published: bool,
}

/// Keeps a publish (in the transaction of its history event). A published version holding the
/// snippet is live, so the audit's answer becomes true until the next audit says otherwise.
pub async fn record_deploy(
    tx: &mut Tx,
    scope: &AccountScope,
    connection_id: &str,
    deploy: Deploy<'_>,
    now: Timestamp,
) -> StoreResult<bool> {
    let live: Option<bool> = deploy.published.then_some(true);
    let written = on_tx!(tx, conn => sqlx::query(
        "INSERT INTO tag_manager_states (connection_id, account_id, product_id, container_path, \
         snippet_live, audited_at, workspace_name, version_name, published, deployed_at) \
         SELECT c.id, c.account_id, c.product_id, $3, $4, CAST(NULL AS BIGINT), $5, $6, $7, $8 FROM connections c \
         WHERE c.id = $1 AND c.account_id = $2 \
         ON CONFLICT (connection_id) DO UPDATE SET \
         snippet_live = COALESCE(excluded.snippet_live, CASE WHEN \
             tag_manager_states.container_path = excluded.container_path \
             THEN tag_manager_states.snippet_live ELSE NULL END), \
         audited_at = CASE WHEN tag_manager_states.container_path = excluded.container_path \
             THEN tag_manager_states.audited_at ELSE NULL END, \
         container_path = excluded.container_path, \
         workspace_name = excluded.workspace_name, \
         version_name = excluded.version_name, \
         published = excluded.published, \
         deployed_at = excluded.deployed_at")
        .bind(connection_id)
        .bind(scope.account_id())
        .bind(deploy.container_path)
        .bind(live)
        .bind(deploy.workspace_name)
        .bind(deploy.version_name)
        .bind(deploy.published)
        .bind(now.millis())
        .execute(conn)
        .await.map(|done| done.rows_affected()))?;
    Ok(written > 0)
}
