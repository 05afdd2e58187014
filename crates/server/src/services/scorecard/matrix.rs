//! The scorecard matrix: the product's layout, a column per week, each row's values.

use std::collections::HashMap;

use payback_domain::metrics;
use payback_store::AccountScope;
use payback_store::products::ProductRow;
use payback_store::reports::weekly;
use payback_store::scorecard::{manual_cells, shares, spreadsheets};
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::ApiResult;
use crate::services::billing;
use crate::services::scorecard::catalog::{self, CatalogEntry, Connected, Source, Unit};
use crate::services::scorecard::layout::{self, Layout};
use crate::services::scorecard::share;
use crate::services::scorecard::values::{self, Figure, Inputs};
use crate::services::scorecard::weeks::{self, Week, WeeksAsked};
use crate::state::AppState;

/// One week's value of a row.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct Cell {
    /// `YYYY-Www`.
    pub week: String,
    /// Null: no denominator, source not connected, or a manual cell nobody typed.
    #[schema(value_type = Option<f64>)]
    pub value: Option<Figure>,
}

/// One row of the matrix.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct MatrixRow {
    pub metric: String,
    pub label: String,
    pub unit: Unit,
    pub source: Source,
    pub manual: bool,
    pub values: Vec<Cell>,
}

/// One section of the matrix.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct MatrixSection {
    pub key: String,
    pub label: String,
    pub rows: Vec<MatrixRow>,
}

/// The spec's Scorecard matrix.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Matrix {
    pub product_slug: String,
    pub product_name: String,
    pub currency: String,
    /// Completed ISO weeks oldest first, then the week in progress with `current=1`.
    pub weeks: Vec<Week>,
    pub sections: Vec<MatrixSection>,
    /// The template last applied (`default` when provisioned), null after a custom save.
    pub template: Option<String>,
    pub spreadsheet_id: Option<String>,
    pub share_url: Option<String>,
    /// Whether this server can push the scorecard to a spreadsheet.
    pub sheets_enabled: bool,
    pub catalog: Vec<CatalogEntry>,
    /// Whether fewer weeks were served than asked for (the history ceiling).
    pub clamped: bool,
}

/// Who reads the matrix: a bearer of the account, or anyone holding the share link (who gets
/// the numbers and nothing of the account: no catalog, spreadsheet or link).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reader {
    Account,
    Public,
}

/// The product's matrix over the weeks asked for.
pub async fn read(
    state: &AppState,
    product: &ProductRow,
    asked: WeeksAsked,
    reader: Reader,
) -> ApiResult<Matrix> {
    // The workspace's plan reads `history_days // 7` weeks at most (issue 41).
    let scope = AccountScope::trusted(product.account_id.clone());
    let history_days = billing::plan::history_days(state, &scope).await?;
    let asked = asked.within(weeks::plan_weeks(history_days));
    let layout = layout::load_or_provision(state, product).await?;
    let connected = Connected::of(state, product).await?;
    let weeks = weeks::weeks_to(state.clock.now(), asked);
    let sections = values_of(state, product, &layout, &weeks, &connected).await?;
    let (spreadsheet_id, share_url, sheets_enabled, catalog) = match reader {
        Reader::Account => (
            spreadsheets::for_product(&state.store, &product.id)
                .await?
                .map(|row| row.spreadsheet_id),
            shares::for_product(&state.store, &product.id)
                .await?
                .map(|row| share::url_of(state, &row.token)),
            state.config.sheets_service_account_key_file.is_some(),
            catalog::entries(&connected),
        ),
        Reader::Public => (None, None, false, Vec::new()),
    };
    Ok(Matrix {
        product_slug: product.slug.clone(),
        product_name: product.name.clone(),
        currency: product.currency.clone(),
        weeks,
        sections,
        template: layout.template,
        spreadsheet_id,
        share_url,
        sheets_enabled,
        catalog,
        clamped: asked.clamped,
    })
}

/// Every row of `layout` with its value per week of `weeks`.
async fn values_of(
    state: &AppState,
    product: &ProductRow,
    layout: &Layout,
    weeks: &[Week],
    connected: &Connected,
) -> ApiResult<Vec<MatrixSection>> {
    let (Some(first), Some(last)) = (weeks.first(), weeks.last()) else {
        return Ok(Vec::new());
    };
    let figures = weekly::weekly(&state.store, &product.id, &first.start, weeks.len()).await?;
    let (revenue, customers) = weekly::customer_totals(&state.store, &product.id).await?;
    let manual: HashMap<(String, String), Option<f64>> =
        manual_cells::between(&state.store, &product.id, &first.key, &last.key)
            .await?
            .into_iter()
            .map(|cell| ((cell.metric, cell.week), cell.value))
            .collect();
    let inputs = Inputs {
        figures: &figures,
        ltv_cents: metrics::ltv(revenue, customers),
        connected,
        manual: &manual,
    };
    let keys: Vec<String> = weeks.iter().map(|week| week.key.clone()).collect();
    Ok(layout
        .sections
        .iter()
        .map(|section| MatrixSection {
            key: section.key.clone(),
            label: section.label.clone(),
            rows: section
                .rows
                .iter()
                .map(|row| MatrixRow {
                    metric: row.metric.clone(),
                    label: row.label.clone(),
                    unit: row.unit,
                    source: if row.manual {
                        Source::Manual
                    } else {
                        catalog::find(&row.metric).map_or(Source::Manual, |def| def.source)
                    },
                    manual: row.manual,
                    values: keys
                        .iter()
                        .zip(values::row_values(&row.metric, row.manual, &keys, &inputs))
                        .map(|(week, value)| Cell {
                            week: week.clone(),
                            value,
                        })
                        .collect(),
                })
                .collect(),
        })
        .collect())
}
