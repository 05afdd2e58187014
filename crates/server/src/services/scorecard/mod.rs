//! The weekly scorecard (issue 40): a matrix per product, a row per metric and a column per
//! completed ISO week, that a founder reviews every Monday. Any bearer of the account may use
//! every part; another account's product is 404.
//!
//! `weeks` the ISO weeks and the history ceiling, `catalog` the metrics and their sources,
//! `templates` and `layout` what the scorecard shows, `values` and `matrix` its numbers,
//! `manual` typed cells, `insights` and `suggest` (the model gateway when configured), `export`
//! CSV and XLSX, `share` the public link, `sheets` the Google Sheets sync.

pub mod catalog;
pub mod export;
pub mod insights;
pub mod layout;
pub mod manual;
pub mod matrix;
pub mod share;
pub mod sheets;
pub mod suggest;
pub mod templates;
pub mod values;
pub mod weeks;

use payback_store::products::ProductRow;
use serde::Deserialize;
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};
use crate::services::acting::Caller;
use crate::services::billing;
use crate::services::products;
use crate::state::AppState;

use self::matrix::{Matrix, Reader};
use self::weeks::WeeksAsked;

/// `POST /products/{slug}/scorecard/template`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct TemplateInput {
    /// `default`, `saas_waitlist`, `paid_acquisition` or `content_led`.
    pub template: String,
}

/// The product of the caller's account, its pending events folded as a report's are.
async fn product(state: &AppState, caller: &Caller, slug: &str) -> ApiResult<ProductRow> {
    products::find_settled(state, caller.scope()?, slug).await
}

/// `GET /products/{slug}/scorecard`.
pub async fn read(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    asked: WeeksAsked,
) -> ApiResult<Matrix> {
    let product = product(state, caller, slug).await?;
    matrix::read(state, &product, asked, Reader::Account).await
}

/// `POST /products/{slug}/scorecard`: replaces the layout, answers the default matrix.
pub async fn save(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    input: layout::LayoutInput,
) -> ApiResult<Matrix> {
    let product = product(state, caller, slug).await?;
    let checked = layout::check(input)?;
    layout::save(state, caller, &product, &checked, "scorecard.save").await?;
    matrix::read(
        state,
        &product,
        WeeksAsked::default_weeks(),
        Reader::Account,
    )
    .await
}

/// `POST /products/{slug}/scorecard/template`: replaces the layout with a template's, every
/// row kept whether its source is connected or not.
pub async fn apply_template(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    input: TemplateInput,
) -> ApiResult<Matrix> {
    let product = product(state, caller, slug).await?;
    let name = input.template;
    if templates::find(&name).is_none() {
        return Err(ApiError::bad_request(format!(
            "template: must be one of {}",
            templates::names()
        )));
    }
    let applied = layout::Layout {
        sections: layout::from_template(&name, None),
        template: Some(name),
    };
    layout::save(state, caller, &product, &applied, "scorecard.template").await?;
    matrix::read(
        state,
        &product,
        WeeksAsked::default_weeks(),
        Reader::Account,
    )
    .await
}

/// `GET /products/{slug}/scorecard/catalog`.
pub async fn catalog(state: &AppState, caller: &Caller, slug: &str) -> ApiResult<catalog::Catalog> {
    let product = products::find(state, caller.scope()?, slug).await?;
    let connected = catalog::Connected::of(state, &product).await?;
    Ok(catalog::Catalog {
        catalog: catalog::entries(&connected),
    })
}

/// `GET /products/{slug}/scorecard/insights`.
pub async fn insights(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    asked: WeeksAsked,
) -> ApiResult<insights::Insights> {
    let product = product(state, caller, slug).await?;
    insights::insights(state, &product, asked).await
}

/// `POST /products/{slug}/scorecard/values`.
pub async fn write_values(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    input: manual::ValuesInput,
) -> ApiResult<manual::Done> {
    let product = products::find(state, caller.scope()?, slug).await?;
    manual::write(state, &product, input).await
}

/// `POST /products/{slug}/scorecard/suggest`.
pub async fn suggest(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    input: suggest::SuggestInput,
) -> ApiResult<suggest::Suggestions> {
    let product = products::find(state, caller.scope()?, slug).await?;
    // Suggestions are a plan's feature (issue 41): 402 after the product's 404.
    billing::require(state, caller.scope()?, billing::Feature::Suggestions).await?;
    suggest::suggest(state, &product, input).await
}

/// The matrix an export writes: every accepted event folded first, as exports always are.
pub async fn exported(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    asked: WeeksAsked,
) -> ApiResult<(ProductRow, Matrix)> {
    let product = products::find_exact(state, caller.scope()?, slug).await?;
    // CSV and XLSX exports are Growth's (issue 41): 402 after the product's 404.
    billing::require(state, caller.scope()?, billing::Feature::Exports).await?;
    let matrix = matrix::read(state, &product, asked, Reader::Account).await?;
    Ok((product, matrix))
}

/// `POST /products/{slug}/scorecard/share`.
pub async fn share(state: &AppState, caller: &Caller, slug: &str) -> ApiResult<share::Shared> {
    let product = products::find(state, caller.scope()?, slug).await?;
    share::share(state, caller, &product).await
}

/// `POST /products/{slug}/scorecard/share/revoke`.
pub async fn revoke(state: &AppState, caller: &Caller, slug: &str) -> ApiResult<()> {
    let product = products::find(state, caller.scope()?, slug).await?;
    share::revoke(state, caller, &product).await
}

/// `POST /products/{slug}/scorecard/sheets/sync`: every accepted event folded first, as an
/// export's are.
pub async fn sync_sheets(
    state: &AppState,
    caller: &Caller,
    slug: &str,
) -> ApiResult<sheets::Synced> {
    let product = products::find_exact(state, caller.scope()?, slug).await?;
    // The sync is Growth's (issue 41): 402 before the sheets configuration's 503.
    billing::require(state, caller.scope()?, billing::Feature::SheetsSync).await?;
    sheets::sync(state, &product).await
}

/// `GET /t/scorecard/{token}`: the live matrix of the default weeks, read-only, nothing of the
/// account in it.
pub async fn public(state: &AppState, token: &str) -> ApiResult<Matrix> {
    let product = share::product_of(state, token).await?;
    matrix::read(state, &product, WeeksAsked::default_weeks(), Reader::Public).await
}

/// A value someone typed (a label, a metric name, a prompt) as messages and prompts show it:
/// one line in double quotes, escaped as JSON, so it cannot pass for the surrounding words
/// (as `services/growth/quoting.rs` does for the growth prompts).
fn quoted(value: &str) -> String {
    serde_json::Value::from(value).to_string()
}
