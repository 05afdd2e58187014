//! `POST /products/{slug}/scorecard/sheets/sync`: the scorecard's export table (the default
//! weeks) written to a Google spreadsheet through Payback's service account
//! (`PAYBACK_SHEETS_SERVICE_ACCOUNT_KEY_FILE`; unset, 503).
//!
//! The first sync creates the spreadsheet (titled with the product's name, first sheet
//! `Scorecard`) and gives each active owner of the account writer access; later ones clear the
//! sheet and write it again, and create a new spreadsheet when Google no longer finds the linked
//! one. Values are written RAW at `Scorecard!A1`: numbers as numbers, text never a formula. Any
//! refusal upstream is a 502 and links nothing new.

use std::path::Path;

use payback_connectors::ConnectorError;
use payback_connectors::google::ServiceAccountKey;
use payback_connectors::sheets::{Cell, SheetsClient};
use payback_domain::MemberRole;
use payback_domain::MemberStatus;
use payback_store::members;
use payback_store::products::ProductRow;
use payback_store::scorecard::spreadsheets;
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};
use crate::services::scorecard::export::{self, SHEET_NAME, TableCell};
use crate::services::scorecard::matrix::{self, Reader};
use crate::services::scorecard::weeks::WeeksAsked;
use crate::state::AppState;

/// Members whose emails get writer access, at most.
const MAX_OWNERS: i64 = 1_000;

/// The sync's answer.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Synced {
    pub spreadsheet_id: String,
    /// The spreadsheet's URL as Google answered it (`spreadsheetUrl`).
    pub spreadsheet_url: String,
}

fn upstream(err: ConnectorError) -> ApiError {
    ApiError::BadGateway(format!("the Sheets sync failed: {err}"))
}

/// The service account's key; 503 while none is configured or the file cannot be used.
async fn key(state: &AppState) -> ApiResult<ServiceAccountKey> {
    // The plan gate (issue 41, `sheets_sync`) was passed in `scorecard::sync_sheets`, before this.
    let Some(path) = state.config.sheets_service_account_key_file.as_deref() else {
        return Err(ApiError::ServiceUnavailable(
            "the Sheets sync is not configured (set PAYBACK_SHEETS_SERVICE_ACCOUNT_KEY_FILE)"
                .to_owned(),
        ));
    };
    ServiceAccountKey::from_file(Path::new(path))
        .await
        .map_err(|err| {
            ApiError::ServiceUnavailable(format!("the Sheets sync is not usable: {err}"))
        })
}

/// Writes the scorecard to its spreadsheet, creating it when there is none (or it is gone).
pub async fn sync(state: &AppState, product: &ProductRow) -> ApiResult<Synced> {
    let key = key(state).await?;
    let matrix = matrix::read(state, product, WeeksAsked::default_weeks(), Reader::Account).await?;
    let rows: Vec<Vec<Cell>> = export::table(&matrix)
        .into_iter()
        .map(|row| {
            row.into_iter()
                .map(|cell| match cell {
                    TableCell::Text(text) => Cell::Text(text),
                    TableCell::Number(value) => Cell::Number(value.as_f64()),
                    TableCell::Empty => Cell::Empty,
                })
                .collect()
        })
        .collect();
    let client = SheetsClient::connect(
        &state.http,
        &key,
        &state.config.sheets_api_url,
        &state.config.drive_api_url,
    )
    .await
    .map_err(upstream)?;
    let linked = spreadsheets::for_product(&state.store, &product.id).await?;
    let target = match linked {
        Some(linked)
            if client
                .clear(&linked.spreadsheet_id, SHEET_NAME)
                .await
                .map_err(upstream)? =>
        {
            Synced {
                spreadsheet_id: linked.spreadsheet_id,
                spreadsheet_url: linked.spreadsheet_url,
            }
        }
        // No spreadsheet yet, or Google no longer has it: a new one, shared with the owners.
        _ => create(state, &client, product).await?,
    };
    client
        .write(&target.spreadsheet_id, &format!("{SHEET_NAME}!A1"), &rows)
        .await
        .map_err(upstream)?;
    spreadsheets::link(
        &state.store,
        &product.id,
        &target.spreadsheet_id,
        &target.spreadsheet_url,
        state.clock.now(),
    )
    .await?;
    Ok(target)
}

async fn create(
    state: &AppState,
    client: &SheetsClient,
    product: &ProductRow,
) -> ApiResult<Synced> {
    let title = format!("{} weekly scorecard (Payback)", product.name);
    let created = client.create(&title, SHEET_NAME).await.map_err(upstream)?;
    let scope = payback_store::AccountScope::trusted(product.account_id.clone());
    let owners = members::list(&state.store, &scope, MAX_OWNERS).await?;
    for owner in owners
        .iter()
        .filter(|m| m.role() == MemberRole::Owner && m.status() == MemberStatus::Active)
    {
        client
            .share_with(&created.spreadsheet_id, &owner.email)
            .await
            .map_err(upstream)?;
    }
    Ok(Synced {
        spreadsheet_id: created.spreadsheet_id,
        spreadsheet_url: created.spreadsheet_url,
    })
}
