//! Emails left through the public lead-capture prompt.

use payback_domain::Timestamp;

use crate::error::StoreResult;
use crate::{Db, new_id};

pub async fn insert(
    db: &Db,
    email: &str,
    prompt_type: Option<&str>,
    meta: Option<&str>,
    now: Timestamp,
) -> StoreResult<String> {
    let id = new_id();
    on_db!(db, pool => sqlx::query("INSERT INTO leads (id, email, prompt_type, meta, created_at) VALUES ($1, $2, $3, $4, $5)")
        .bind(&id)
        .bind(email)
        .bind(prompt_type)
        .bind(meta)
        .bind(now.millis())
        .execute(pool)
        .await.map(|done| done.rows_affected()))?;
    Ok(id)
}
