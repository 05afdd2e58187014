//! The analyses of landing pages: each one a scored rubric (or the reason there is none).
//! Callers find the page through the account first; these rows are reached through it.

use payback_domain::Timestamp;

use crate::error::StoreResult;
use crate::{Db, new_id};

#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct AnalysisRow {
    pub id: String,
    pub page_id: String,
    pub product_id: String,
    pub analyzed_at: i64,
    pub model: String,
    /// `ok` or `error`.
    pub status: String,
    pub overall_score: Option<i64>,
    /// The scored rubric as JSON text; `[]` for an error.
    pub scores: String,
    pub summary: Option<String>,
    pub error: Option<String>,
}

const COLUMNS: &str =
    "id, page_id, product_id, analyzed_at, model, status, overall_score, scores, summary, error";

/// An analysis to store.
#[derive(Debug, Clone)]
pub struct NewAnalysis<'a> {
    pub model: &'a str,
    pub status: &'a str,
    pub overall_score: Option<i64>,
    pub scores: &'a str,
    pub summary: Option<&'a str>,
    pub error: Option<&'a str>,
}

pub async fn insert(
    db: &Db,
    product_id: &str,
    page_id: &str,
    analysis: NewAnalysis<'_>,
    now: Timestamp,
) -> StoreResult<AnalysisRow> {
    let sql = format!(
        "INSERT INTO landing_page_analyses ({COLUMNS}) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING {COLUMNS}"
    );
    Ok(
        on_db!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(new_id())
        .bind(page_id)
        .bind(product_id)
        .bind(now.millis())
        .bind(analysis.model)
        .bind(analysis.status)
        .bind(analysis.overall_score)
        .bind(analysis.scores)
        .bind(analysis.summary)
        .bind(analysis.error)
        .fetch_one(pool)
        .await)?,
    )
}

/// A page's analyses, newest first, at most `limit`.
pub async fn of_page(db: &Db, page_id: &str, limit: i64) -> StoreResult<Vec<AnalysisRow>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM landing_page_analyses WHERE page_id = $1 \
         ORDER BY analyzed_at DESC, id DESC LIMIT $2"
    );
    Ok(
        on_db!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(page_id)
        .bind(limit)
        .fetch_all(pool)
        .await)?,
    )
}

/// The newest analysis of each of the product's pages that has one.
pub async fn latest_of_product(db: &Db, product_id: &str) -> StoreResult<Vec<AnalysisRow>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM (SELECT {COLUMNS}, ROW_NUMBER() OVER (PARTITION BY page_id \
         ORDER BY analyzed_at DESC, id DESC) AS newest FROM landing_page_analyses \
         WHERE product_id = $1) AS ranked WHERE newest = 1"
    );
    Ok(
        on_db!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(product_id)
        .fetch_all(pool)
        .await)?,
    )
}
