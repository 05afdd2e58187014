//! `POST /products/{slug}/scorecard/values`: cells typed into manual rows, all or nothing.

use std::collections::BTreeSet;

use payback_store::products::ProductRow;
use payback_store::scorecard::manual_cells::{self, ManualCell};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};
use crate::services::scorecard::{layout, weeks};
use crate::state::AppState;

/// Cells one request may hold.
pub const MAX_CELLS: usize = 500;

/// One typed cell.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct CellInput {
    /// A manual row's key on the scorecard.
    pub metric: String,
    /// `YYYY-Www`, not after the week in progress.
    pub week: String,
    /// A number, or null to clear the cell. Required.
    #[schema(value_type = Option<f64>, required = true)]
    #[serde(default, deserialize_with = "present")]
    pub value: Option<serde_json::Value>,
}

/// A field that was sent, null included (`Some(Null)`); absent stays `None` (`default`).
fn present<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<serde_json::Value>, D::Error> {
    serde_json::Value::deserialize(deserializer).map(Some)
}

/// The request body.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct ValuesInput {
    /// 1-500 cells.
    pub cells: Vec<CellInput>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Done {
    pub ok: bool,
}

/// Checks every cell, then writes them in one transaction.
pub async fn write(state: &AppState, product: &ProductRow, input: ValuesInput) -> ApiResult<Done> {
    let cells = input.cells;
    if cells.is_empty() || cells.len() > MAX_CELLS {
        return Err(ApiError::bad_request(format!(
            "cells: must hold 1-{MAX_CELLS} cells"
        )));
    }
    let layout = layout::load_or_provision(state, product).await?;
    let manual_rows: BTreeSet<&str> = layout
        .rows()
        .filter(|(_, row)| row.manual)
        .map(|(_, row)| row.metric.as_str())
        .collect();
    let current = weeks::current_key(state.clock.now());
    let mut seen = BTreeSet::new();
    let mut checked = Vec::with_capacity(cells.len());
    for (i, cell) in cells.into_iter().enumerate() {
        let metric = cell.metric;
        if !manual_rows.contains(metric.as_str()) {
            return Err(ApiError::bad_request(format!(
                "cells[{i}].metric: {} is not a manual row of the scorecard",
                super::quoted(&metric)
            )));
        }
        let week = cell.week;
        if !weeks::is_week_key(&week) {
            return Err(ApiError::bad_request(format!(
                "cells[{i}].week: must be an ISO week YYYY-Www"
            )));
        }
        if week > current {
            return Err(ApiError::bad_request(format!(
                "cells[{i}].week: must not be after the week in progress ({current})"
            )));
        }
        let value = match cell.value {
            None => {
                return Err(ApiError::bad_request(format!(
                    "cells[{i}].value: required (a number or null)"
                )));
            }
            Some(serde_json::Value::Null) => None,
            Some(serde_json::Value::Number(n)) => match n.as_f64() {
                Some(x) if x.is_finite() => Some(x),
                _ => {
                    return Err(ApiError::bad_request(format!(
                        "cells[{i}].value: must be a finite number"
                    )));
                }
            },
            Some(_) => {
                return Err(ApiError::bad_request(format!(
                    "cells[{i}].value: must be a number or null"
                )));
            }
        };
        if !seen.insert((metric.clone(), week.clone())) {
            return Err(ApiError::bad_request(format!(
                "cells[{i}]: names {metric} in {week} a second time"
            )));
        }
        checked.push(ManualCell {
            metric,
            week,
            value,
        });
    }
    let mut tx = state.store.begin().await?;
    manual_cells::upsert(&mut tx, &product.id, &checked, state.clock.now()).await?;
    tx.commit().await?;
    Ok(Done { ok: true })
}
