//! Spend: the daily spend and caps report, and spend proposals.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use payback_domain::card::{self, HEADLINE_MAX};
use payback_domain::policy::{MAX_DAILY_CENTS, Network};
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Caller, Json, Query, ValidJson};
use crate::input::Window;
use crate::input::rules::spend::{CAMPAIGN_ID_MAX_CHARS, RATIONALE_MAX_CHARS, RATIONALE_MIN_CHARS};
use crate::input::rules::{not_blank, one_line};
use crate::routes::tags;
use crate::services::proposals::{self, ProposalAccepted, ProposalInput};
use crate::services::spend::{self, SpendReport};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(report))
        .routes(routes!(propose))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SpendParams {
    /// The N UTC days ending today, 1-3650; default 30.
    days: Option<i64>,
}

/// Daily spend by channel and campaign, and the product's caps: per network the policy cap,
/// the approved budget, yesterday's spend and whether a limit is binding, plus the portfolio
/// ceiling.
#[utoipa::path(get, path = "/products/{slug}/spend", tag = tags::QUEUE, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug"), SpendParams),
    responses((status = 200, body = SpendReport), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn report(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    Query(params): Query<SpendParams>,
) -> ApiResult<Json<SpendReport>> {
    let window = Window::new(params.days, None)?;
    Ok(Json(spend::report(&state, &caller, &slug, window).await?))
}

fn valid_rollback_if(value: &Option<serde_json::Value>, _: &()) -> garde::Result {
    match value {
        Some(value) => card::check_rollback_if(value).map_err(garde::Error::new),
        None => Ok(()),
    }
}

#[derive(Debug, Deserialize, ToSchema, garde::Validate)]
pub struct ProposalRequest {
    /// `meta` or `google`.
    #[garde(skip)]
    network: Network,
    /// The campaign whose budget changes; omitted means the network's account-level budget.
    #[garde(inner(length(chars, min = 1, max = CAMPAIGN_ID_MAX_CHARS), custom(one_line)))]
    campaign_id: Option<String>,
    /// Today's daily budget, for the card (cents, >= 0).
    #[garde(inner(range(min = 0, max = MAX_DAILY_CENTS)))]
    from_cents: Option<i64>,
    /// The proposed daily cap in cents, > 0.
    #[garde(range(min = 1, max = MAX_DAILY_CENTS))]
    to_cents: i64,
    /// Why, shown on the card; 10-2000 characters.
    #[garde(length(chars, min = RATIONALE_MIN_CHARS, max = RATIONALE_MAX_CHARS), custom(not_blank))]
    rationale: String,
    /// When to propose reverting, free-form: an object of at most 4096 bytes serialized. The
    /// watcher acts on `cac_ceiling_cents` (revert when the network's CAC over `window_days`,
    /// default 7, goes above it); other keys are kept.
    #[garde(custom(valid_rollback_if))]
    #[schema(value_type = Option<Object>)]
    rollback_if: Option<serde_json::Value>,
    /// The card's headline, at most 90 characters; one is written when omitted.
    #[garde(inner(length(chars, min = 1, max = HEADLINE_MAX), custom(not_blank), custom(one_line)))]
    headline: Option<String>,
}

/// Proposes a new daily budget. Nothing changes: a card waits 72 hours for a human. Over a cap
/// or behind a network wall: 422 with `policy_code`, no card, and a `proposal.policy_block`
/// history event.
#[utoipa::path(post, path = "/products/{slug}/proposals", tag = tags::QUEUE, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug")), request_body = ProposalRequest,
    responses((status = 202, body = ProposalAccepted), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn propose(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    ValidJson(body): ValidJson<ProposalRequest>,
) -> ApiResult<(StatusCode, Json<ProposalAccepted>)> {
    let input = ProposalInput {
        network: body.network,
        campaign_id: body.campaign_id,
        from_cents: body.from_cents,
        to_cents: body.to_cents,
        rationale: body.rationale,
        rollback_if: body.rollback_if,
        headline: body.headline,
    };
    let accepted = proposals::propose(&state, &caller, &slug, input).await?;
    Ok((StatusCode::ACCEPTED, Json(accepted)))
}
