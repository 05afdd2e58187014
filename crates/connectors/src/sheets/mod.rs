//! Google Sheets v4 and Drive v3, as the scorecard's sync uses them with Payback's service
//! account (`google::ServiceAccountKey`, scopes [`SCOPES`]):
//!
//! - `spreadsheets.create` (`POST /v4/spreadsheets`) makes a spreadsheet owned by the service
//!   account, with one sheet of the given title; Google answers its `spreadsheetId` and
//!   `spreadsheetUrl`;
//! - Drive's `permissions.create` (`POST /drive/v3/files/{fileId}/permissions`, `role: writer`,
//!   `type: user`) lets a person open and edit it;
//! - `spreadsheets.values.clear` (`POST /v4/spreadsheets/{id}/values/{range}:clear`) empties a
//!   sheet before it is written again; 404 means the spreadsheet is gone;
//! - `spreadsheets.values.update` (`PUT /v4/spreadsheets/{id}/values/{range}?valueInputOption=RAW`)
//!   writes rows as they are: RAW never parses a string as a formula, numbers stay numbers.
//!
//! Errors are Google's `{"error": {code, message, status}}` (`errors.rs`); the access token is
//! never part of a message.

mod errors;
mod wire;

use reqwest::Method;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::ConnectorError;
use crate::google::ServiceAccountKey;

pub use wire::Created;

/// Spreadsheets the service account creates and writes.
pub const SHEETS_SCOPE: &str = "https://www.googleapis.com/auth/spreadsheets";
/// Drive files the service account created (to share them).
pub const DRIVE_FILE_SCOPE: &str = "https://www.googleapis.com/auth/drive.file";
/// The scopes the sync asks for.
pub const SCOPES: [&str; 2] = [SHEETS_SCOPE, DRIVE_FILE_SCOPE];
/// Google's origins.
pub const DEFAULT_SHEETS_API_URL: &str = "https://sheets.googleapis.com";
pub const DEFAULT_DRIVE_API_URL: &str = "https://www.googleapis.com";

/// One cell to write.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Text(String),
    Number(f64),
    /// Written as `""`, Google's documented way to leave a cell empty.
    Empty,
}

impl Cell {
    fn to_json(&self) -> Value {
        match self {
            Cell::Text(text) => Value::from(text.as_str()),
            Cell::Number(number) => json!(number),
            Cell::Empty => Value::from(""),
        }
    }
}

/// A session with Sheets and Drive: one access token, bought for one sync.
pub struct SheetsClient {
    http: reqwest::Client,
    sheets_url: String,
    drive_url: String,
    access_token: String,
}

impl std::fmt::Debug for SheetsClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SheetsClient")
            .field("sheets_url", &self.sheets_url)
            .field("drive_url", &self.drive_url)
            .field("access_token", &"[redacted]")
            .finish()
    }
}

/// A range as one path segment (`Scorecard!A1` is `Scorecard%21A1`).
fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 3);
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

impl SheetsClient {
    /// Buys an access token for [`SCOPES`] with `key`; a refused key fails as `Unauthorized`.
    pub async fn connect(
        http: &reqwest::Client,
        key: &ServiceAccountKey,
        sheets_url: &str,
        drive_url: &str,
    ) -> Result<Self, ConnectorError> {
        let access_token = key.access_token(http, &SCOPES).await?;
        Ok(Self {
            http: http.clone(),
            sheets_url: sheets_url.trim_end_matches('/').to_owned(),
            drive_url: drive_url.trim_end_matches('/').to_owned(),
            access_token,
        })
    }

    async fn send<T: DeserializeOwned>(
        &self,
        api: &'static str,
        call: &'static str,
        method: Method,
        url: String,
        body: &Value,
    ) -> Result<T, ConnectorError> {
        let response = self
            .http
            .request(method, url)
            .bearer_auth(&self.access_token)
            .json(body)
            .send()
            .await
            .map_err(|err| {
                ConnectorError::Unreachable(format!(
                    "{api} did not answer {call}: {}",
                    crate::oauth::describe(&err)
                ))
            })?;
        let status = response.status();
        let bytes = response.bytes().await.map_err(|err| {
            ConnectorError::Unreachable(format!(
                "{api}'s answer to {call} did not arrive: {}",
                crate::oauth::describe(&err)
            ))
        })?;
        if !status.is_success() {
            return Err(errors::refusal(api, call, status.as_u16(), &bytes));
        }
        serde_json::from_slice(&bytes).map_err(|err| {
            ConnectorError::Vendor(format!(
                "{api} answered {call} in a shape Payback does not read: {err}"
            ))
        })
    }

    /// `spreadsheets.create`: a spreadsheet titled `title` whose first sheet is `sheet`.
    pub async fn create(&self, title: &str, sheet: &str) -> Result<Created, ConnectorError> {
        let body = json!({
            "properties": { "title": title },
            "sheets": [{ "properties": { "title": sheet } }],
        });
        let url = format!("{}/v4/spreadsheets", self.sheets_url);
        self.send(
            "Google Sheets",
            "spreadsheets.create",
            Method::POST,
            url,
            &body,
        )
        .await
    }

    /// `permissions.create`: `email` may edit the file.
    pub async fn share_with(&self, file_id: &str, email: &str) -> Result<(), ConnectorError> {
        let body = json!({ "role": "writer", "type": "user", "emailAddress": email });
        let url = format!(
            "{}/drive/v3/files/{}/permissions",
            self.drive_url,
            encode(file_id)
        );
        let _: serde::de::IgnoredAny = self
            .send(
                "Google Drive",
                "permissions.create",
                Method::POST,
                url,
                &body,
            )
            .await?;
        Ok(())
    }

    /// `values.clear` of `range`; `Ok(false)` when the spreadsheet no longer exists (404).
    pub async fn clear(&self, spreadsheet_id: &str, range: &str) -> Result<bool, ConnectorError> {
        let url = format!(
            "{}/v4/spreadsheets/{}/values/{}:clear",
            self.sheets_url,
            encode(spreadsheet_id),
            encode(range)
        );
        let cleared: Result<serde::de::IgnoredAny, _> = self
            .send(
                "Google Sheets",
                "values.clear",
                Method::POST,
                url,
                &json!({}),
            )
            .await;
        match cleared {
            Ok(_) => Ok(true),
            Err(err) if errors::is_not_found(&err) => Ok(false),
            Err(err) => Err(err),
        }
    }

    /// `values.update` of `rows` at `range` (its top-left cell), `valueInputOption=RAW`;
    /// answers the cells Google says it updated.
    pub async fn write(
        &self,
        spreadsheet_id: &str,
        range: &str,
        rows: &[Vec<Cell>],
    ) -> Result<i64, ConnectorError> {
        let values: Vec<Vec<Value>> = rows
            .iter()
            .map(|row| row.iter().map(Cell::to_json).collect())
            .collect();
        let body = json!({ "range": range, "majorDimension": "ROWS", "values": values });
        let url = format!(
            "{}/v4/spreadsheets/{}/values/{}?valueInputOption=RAW",
            self.sheets_url,
            encode(spreadsheet_id),
            encode(range)
        );
        let updated: wire::Updated = self
            .send("Google Sheets", "values.update", Method::PUT, url, &body)
            .await?;
        Ok(updated.updated_cells.unwrap_or(0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_one_segment() {
        assert_eq!(encode("Scorecard!A1"), "Scorecard%21A1");
        assert_eq!(encode("1AbC-d_9"), "1AbC-d_9");
    }

    #[test]
    fn cells_are_json_values() {
        assert_eq!(Cell::Number(12.0).to_json(), json!(12.0));
        assert_eq!(Cell::Empty.to_json(), json!(""));
        assert_eq!(Cell::Text("=1+1".to_owned()).to_json(), json!("=1+1"));
    }
}
