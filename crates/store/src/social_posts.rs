//! Recent posts of organic social sources (`social_posts`), one per (product, source kind, post):
//! a sync upserts the posts it read (`upsert`, in the run's transaction), so a post's engagement
//! and text are those of its latest read; the social report lists a window's posts (`recent`).

use payback_domain::Timestamp;

use crate::error::StoreResult;
use crate::{Db, Tx};

/// One stored post.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct SocialPostRow {
    /// The network's id of the post, unique per source kind.
    pub post_id: String,
    /// `facebook`, `instagram`.
    pub network: String,
    /// Epoch milliseconds.
    pub published_at: i64,
    pub permalink: Option<String>,
    /// The first characters of the message or caption.
    pub text: Option<String>,
    pub media_type: Option<String>,
    /// Lifetime engagement at the latest read.
    pub engagement: i64,
}

/// Inserts `rows` of a source `kind`, replacing everything but the key of a post already stored
/// (the latest read has the latest engagement, and the text as edited since). Posts the read did
/// not name are left as they are: a source reads only its recent ones. One statement per 1,000
/// rows, inside the caller's transaction; each `post_id` must appear once in `rows` (PostgreSQL
/// refuses to update one row twice in a statement).
pub async fn upsert(
    tx: &mut Tx,
    product_id: &str,
    kind: &str,
    rows: &[SocialPostRow],
    now: Timestamp,
) -> StoreResult<()> {
    // 10 parameters a row: under SQLite's 32766.
    for chunk in rows.chunks(1_000) {
        on_tx!(tx, conn => {
            let mut query = sqlx::QueryBuilder::new(
                "INSERT INTO social_posts (product_id, kind, post_id, network, published_at, \
                 permalink, text, media_type, engagement, updated_at) ",
            );
            query.push_values(chunk, |mut row, post| {
                row.push_bind(product_id)
                    .push_bind(kind)
                    .push_bind(&post.post_id)
                    .push_bind(&post.network)
                    .push_bind(post.published_at)
                    .push_bind(&post.permalink)
                    .push_bind(&post.text)
                    .push_bind(&post.media_type)
                    .push_bind(post.engagement)
                    .push_bind(now.millis());
            });
            query.push(
                " ON CONFLICT (product_id, kind, post_id) DO UPDATE SET \
                 network = excluded.network, published_at = excluded.published_at, \
                 permalink = excluded.permalink, text = excluded.text, \
                 media_type = excluded.media_type, engagement = excluded.engagement, \
                 updated_at = excluded.updated_at",
            );
            query.build().execute(conn).await.map(|done| done.rows_affected())
        })?;
    }
    Ok(())
}

/// The product's posts (every source kind) published at or after `since`, most engaged first
/// (ties newest first, then by id, so the order is stable), at most `limit`. The window's posts
/// are found through `social_posts_by_published`; a source keeps a few dozen a run, so sorting
/// them is cheap.
pub async fn recent(
    db: &Db,
    product_id: &str,
    since: Timestamp,
    limit: i64,
) -> StoreResult<Vec<SocialPostRow>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT post_id, network, published_at, permalink, text, media_type, engagement \
         FROM social_posts WHERE product_id = $1 AND published_at >= $2 \
         ORDER BY engagement DESC, published_at DESC, post_id LIMIT $3")
        .bind(product_id)
        .bind(since.millis())
        .bind(limit)
        .fetch_all(pool)
        .await)?)
}
