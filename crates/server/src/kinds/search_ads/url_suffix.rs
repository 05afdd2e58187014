//! The Google Ads account's final URL suffix: read live, and (a person in the dashboard only)
//! completed with Payback's tracking parameters. The rules are `services::url_suffix`.

use axum::extract::{Path, State};

use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Caller, Json};
use crate::routes::tags;
use crate::services::url_suffix::{self, UrlSuffixReport, UrlSuffixWritten};
use crate::state::AppState;

/// The Google Ads account's final URL suffix, read live: whether it carries every tracking
/// parameter Payback needs so paid clicks join spend at each level of the ads report (campaign
/// `utm_campaign={campaignid}`, ad group `utm_id={adgroupid}`, keyword `utm_term={keyword}`, ad
/// `utm_content={creative}`, with `utm_source=google&utm_medium=cpc`), what is `missing`, and the
/// `proposed_suffix` (the account's own parameters kept, ours appended). A live read that is
/// impossible answers 200 with `read_error`. 404 without a `search_ads` connection.
#[utoipa::path(get, path = "/products/{slug}/connections/search-ads/url-suffix", tag = tags::CONNECTIONS,
    security(("bearer" = [])), params(("slug" = String, Path, description = "product slug")),
    responses((status = 200, body = UrlSuffixReport), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn read_url_suffix(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
) -> ApiResult<Json<UrlSuffixReport>> {
    Ok(Json(url_suffix::read(&state, &caller, &slug).await?))
}

/// Appends the missing tracking parameters to the account-level final URL suffix (this changes
/// every ad's landing URL: only on this explicit call, audited as `search_ads.url_suffix` with
/// before and after). Only a person signed in to the dashboard writes it: API keys, the operator
/// token, MCP and chat answer 403 and nothing is sent to Google (an agent asks the founder to
/// press the button in the dashboard). A suffix already complete is left alone
/// (`already_complete`). 404 without a `search_ads` connection; 409 while it is not usable; 502
/// when Google refuses the write.
#[utoipa::path(post, path = "/products/{slug}/connections/search-ads/url-suffix", tag = tags::CONNECTIONS,
    security(("bearer" = [])), params(("slug" = String, Path, description = "product slug")),
    responses((status = 200, body = UrlSuffixWritten), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody, description = "not a person signed in to the dashboard: only their session changes the ad account's URL suffix"),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 502, body = ErrorBody)))]
pub async fn write_url_suffix(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
) -> ApiResult<Json<UrlSuffixWritten>> {
    Ok(Json(url_suffix::write(&state, &caller, &slug).await?))
}
