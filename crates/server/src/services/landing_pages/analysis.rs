//! `POST .../landing-pages/{id}/analyze`: the live page fetched through the fetch guard,
//! reduced to its text, and scored against the rubric by the model gateway. On demand only.
//!
//! 503 before anything is fetched when no gateway is configured. Past that, every failure is an
//! analysis with `status: error` (stored, answered 200, never a 500): the page not loaded (a
//! refused or unreachable host, a non-2xx answer, no text; the model is not asked), the gateway
//! failing, or an answer the rubric cannot read (`rubric::score`).

use payback_domain::Timestamp;
use payback_store::landing_pages::analyses::{self, AnalysisRow, NewAnalysis};
use payback_store::landing_pages::pages::PageRow;
use payback_store::products::ProductRow;
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};
use crate::model_gateway::ModelGateway;
use crate::services::fetch_guard;
use crate::services::landing_pages::page_text::page_text;
use crate::services::landing_pages::rubric::{self, RubricScore, Scored};
use crate::state::AppState;

/// The spec's analysis.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct PageAnalysis {
    pub id: String,
    pub analyzed_at: String,
    /// The model that answered (or would have been asked, for a page that did not load).
    pub model: String,
    /// The weighted mean of `scores`, rounded; null for an error.
    pub overall_score: Option<i64>,
    /// `[{key, label, weight, score, note}]` as the model returned them; empty for an error.
    pub scores: Vec<RubricScore>,
    pub summary: Option<String>,
    /// `ok` or `error`.
    pub status: String,
    pub error: Option<String>,
}

impl TryFrom<AnalysisRow> for PageAnalysis {
    type Error = ApiError;

    fn try_from(row: AnalysisRow) -> ApiResult<Self> {
        let scores: Vec<RubricScore> = serde_json::from_str(&row.scores)
            .map_err(|err| ApiError::internal(format!("analysis {} scores: {err}", row.id)))?;
        Ok(Self {
            id: row.id,
            analyzed_at: Timestamp::from_millis(row.analyzed_at).to_rfc3339(),
            model: row.model,
            overall_score: row.overall_score,
            scores,
            summary: row.summary,
            status: row.status,
            error: row.error,
        })
    }
}

/// What one analysis came to, before it is stored.
enum Outcome {
    Scored { model: String, scored: Scored },
    Failed { model: String, error: String },
}

pub async fn analyze(
    state: &AppState,
    product: &ProductRow,
    page: &PageRow,
) -> ApiResult<PageAnalysis> {
    let gateway = ModelGateway::from_state(state)?;
    let outcome = run(state, &gateway, page).await;
    let (model, status, overall, scores, summary, error) = match &outcome {
        Outcome::Scored { model, scored } => (
            model.as_str(),
            "ok",
            Some(scored.overall_score),
            serde_json::to_string(&scored.scores).map_err(ApiError::internal)?,
            scored.summary.as_deref(),
            None,
        ),
        Outcome::Failed { model, error } => (
            model.as_str(),
            "error",
            None,
            "[]".to_owned(),
            None,
            Some(error.as_str()),
        ),
    };
    let row = analyses::insert(
        &state.store,
        &product.id,
        &page.id,
        NewAnalysis {
            model,
            status,
            overall_score: overall,
            scores: &scores,
            summary,
            error,
        },
        state.clock.now(),
    )
    .await?;
    PageAnalysis::try_from(row)
}

async fn run(state: &AppState, gateway: &ModelGateway<'_>, page: &PageRow) -> Outcome {
    let configured = state.config.model.clone();
    let failed = |model: String, error: String| Outcome::Failed { model, error };
    let fetched = match fetch_guard::fetch_page(state, &page.url, "url").await {
        Ok(fetched) => fetched,
        Err(err) => return failed(configured, format!("the page was not loaded: {err}")),
    };
    if !fetched.is_success() {
        return failed(
            configured,
            format!("the page was not loaded: it answered {}", fetched.status),
        );
    }
    let text = page_text(&fetched.body_text);
    if text.is_empty() {
        return failed(configured, "the page has no text to score".to_owned());
    }
    let answer = match gateway
        .ask_json(
            &rubric::system_prompt(),
            &rubric::user_message(&fetched.final_url, &text),
        )
        .await
    {
        Ok(answer) => answer,
        Err(err) => return failed(configured, err.to_string()),
    };
    match rubric::score(&answer.value) {
        Ok(scored) => Outcome::Scored {
            model: answer.model,
            scored,
        },
        Err(refused) => failed(answer.model, refused.0),
    }
}
