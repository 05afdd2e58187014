//! A loopback fake of Google Sheets API v4 and Drive API v3 behind Google's service-account
//! token endpoint, written from Google's documentation ("Method: spreadsheets.create",
//! "spreadsheets.values.update", "spreadsheets.values.clear", Drive "permissions.create",
//! "Using OAuth 2.0 for Server to Server Applications", the APIs' error format), not from
//! Payback's connector.
//!
//! One server on `127.0.0.1:0` answers (`api.rs`):
//! - `POST /token` (`grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer`, `assertion`): the
//!   assertion checked as Google does (`google::service_account::verify_assertion`), an access
//!   token for the scopes it asked;
//! - `POST /v4/spreadsheets`: a new spreadsheet owned by the service account, with the sheets the
//!   body names (or `Sheet1`), answered as a `Spreadsheet` with `spreadsheetId` and
//!   `spreadsheetUrl`;
//! - `POST /v4/spreadsheets/{id}/values/{range}:clear`: empties the range's sheet;
//! - `PUT /v4/spreadsheets/{id}/values/{range}?valueInputOption=RAW|USER_ENTERED`: writes the
//!   body's `values` (a `ValueRange` whose `range` must be the URL's) from the range's top-left
//!   cell, answered as an `UpdateValuesResponse`;
//! - `POST /drive/v3/files/{fileId}/permissions`: a `Permission` on a file the account created.
//!
//! A call without a live token answers 401 `UNAUTHENTICATED`, one whose token lacks the scope 403
//! `PERMISSION_DENIED`, an unknown spreadsheet 404 `NOT_FOUND` (Drive: `notFound` in `errors[]`);
//! a test can schedule any status on a path ([`FakeSheets::fail_next`]) and delete a spreadsheet
//! as its owner would ([`FakeSheets::delete`]). Every request is recorded first.
//!
//! ```ignore
//! let sheets = FakeSheets::spawn().await;
//! std::fs::write(&path, sheets.key_json())?; // PAYBACK_SHEETS_SERVICE_ACCOUNT_KEY_FILE
//! // PAYBACK_SHEETS_API_URL = PAYBACK_DRIVE_API_URL = sheets.base_url()
//! ```

mod api;
mod state;

use std::sync::{Arc, Mutex, MutexGuard};

use axum::Router;
use axum::http::StatusCode;
use serde_json::Value;

pub use super::recorder::RecordedRequest;
pub use state::{Permission, Spreadsheet};

use super::loopback::{Loopback, LoopbackServer};
use super::{lock, recorder};

pub(crate) type Shared = Arc<Mutex<state::State>>;

/// The running fake; the server stops when this is dropped.
pub struct FakeSheets {
    server: LoopbackServer,
    shared: Shared,
}

impl std::fmt::Debug for FakeSheets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.server.describe("FakeSheets", f)
    }
}

impl FakeSheets {
    pub async fn spawn() -> Self {
        let loopback = Loopback::bind("Sheets").await;
        let token_url = format!("{}/token", loopback.origin());
        let shared: Shared = Arc::new(Mutex::new(state::State::new(token_url)));
        let app = recorder::recording(Router::new().fallback(api::dispatch), shared.clone());
        Self {
            server: loopback.serve(app),
            shared,
        }
    }

    fn state(&self) -> MutexGuard<'_, state::State> {
        lock(&self.shared)
    }

    /// `http://127.0.0.1:PORT`: the fake's `https://sheets.googleapis.com` and
    /// `https://www.googleapis.com` alike (their paths do not overlap).
    pub fn base_url(&self) -> String {
        self.server.origin().to_owned()
    }

    /// The fake's token endpoint (`https://oauth2.googleapis.com/token`).
    pub fn token_url(&self) -> String {
        format!("{}/token", self.base_url())
    }

    /// The test service account's key file, its `token_uri` this fake's.
    pub fn key_json(&self) -> String {
        super::google::service_account::test_key_json(&self.token_url())
    }

    /// The spreadsheet `id`, if it exists.
    pub fn spreadsheet(&self, id: &str) -> Option<Spreadsheet> {
        self.state().spreadsheets.get(id).cloned()
    }

    /// Every spreadsheet ever created, in order of creation (deleted ones included).
    pub fn created(&self) -> Vec<String> {
        self.state().created.clone()
    }

    /// The values of `sheet` of spreadsheet `id`, rows of cells as written (`""` for a cell
    /// written empty), trailing empty rows and cells trimmed.
    pub fn values(&self, id: &str, sheet: &str) -> Vec<Vec<Value>> {
        self.spreadsheet(id)
            .and_then(|s| s.values.get(sheet).cloned())
            .unwrap_or_default()
    }

    /// Deletes a spreadsheet, as its owner would in Drive: later calls naming it answer 404.
    pub fn delete(&self, id: &str) {
        self.state().spreadsheets.remove(id);
    }

    /// The next `times` requests whose path contains `path_contains` answer `status` with
    /// Google's error body.
    pub fn fail_next(&self, path_contains: &str, times: u32, status: StatusCode) {
        self.state().schedule.push(path_contains, times, status);
    }

    /// Every request so far, in order.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.state().log.all()
    }
}
