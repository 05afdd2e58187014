//! The fake's routes, dispatched by method and path as Google's documentation writes them.

use axum::Json;
use axum::extract::{Request, State};
use axum::http::{Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::Shared;
use super::state::{Permission, Spreadsheet};
use crate::fakes::form::form_pairs;
use crate::fakes::google::service_account::verify_assertion;
use crate::fakes::lock;

const SHEETS_SCOPES: &[&str] = &[
    "https://www.googleapis.com/auth/spreadsheets",
    "https://www.googleapis.com/auth/drive",
    "https://www.googleapis.com/auth/drive.file",
];
const DRIVE_SCOPES: &[&str] = &[
    "https://www.googleapis.com/auth/drive",
    "https://www.googleapis.com/auth/drive.file",
];

/// Google's error body (`{"error": {code, message, status}}`).
pub(super) fn google_error(status: StatusCode, message: &str) -> Response {
    let rpc = match status.as_u16() {
        400 => "INVALID_ARGUMENT",
        401 => "UNAUTHENTICATED",
        403 => "PERMISSION_DENIED",
        404 => "NOT_FOUND",
        409 => "ALREADY_EXISTS",
        429 => "RESOURCE_EXHAUSTED",
        503 => "UNAVAILABLE",
        _ => "INTERNAL",
    };
    let body = json!({"error": {"code": status.as_u16(), "message": message, "status": rpc}});
    (status, Json(body)).into_response()
}

/// Drive v3's error body: `errors[]` with a `reason` beside the code and message.
fn drive_error(status: StatusCode, reason: &str, message: &str) -> Response {
    let body = json!({"error": {
        "code": status.as_u16(),
        "message": message,
        "errors": [{"domain": "global", "reason": reason, "message": message}],
    }});
    (status, Json(body)).into_response()
}

fn decode(segment: &str) -> String {
    let bytes = segment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let Ok(byte) = u8::from_str_radix(&segment[i + 1..i + 3], 16)
        {
            out.push(byte);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

pub(super) async fn dispatch(State(shared): State<Shared>, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, 8 * 1024 * 1024).await else {
        return google_error(StatusCode::PAYLOAD_TOO_LARGE, "Request too large.");
    };
    let path = parts.uri.path().to_owned();
    let query = parts.uri.query().unwrap_or_default().to_owned();
    if parts.method == Method::POST && path == "/token" {
        return token(&shared, &bytes);
    }
    let bearer = parts
        .headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::to_owned);
    let caller = bearer.and_then(|token| lock(&shared).tokens.get(&token).cloned());
    let Some((account, scopes)) = caller else {
        return google_error(
            StatusCode::UNAUTHORIZED,
            "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
        );
    };
    let body: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    let allowed = |wanted: &[&str]| scopes.iter().any(|s| wanted.contains(&s.as_str()));
    match (parts.method.clone(), segments.as_slice()) {
        (Method::POST, ["v4", "spreadsheets"]) if allowed(SHEETS_SCOPES) => {
            create(&shared, &account, &body)
        }
        (Method::POST, ["v4", "spreadsheets", id, "values", range]) if allowed(SHEETS_SCOPES) => {
            match range.strip_suffix(":clear") {
                Some(range) => clear(&shared, &decode(id), &decode(range)),
                None => google_error(StatusCode::NOT_FOUND, "Method not found."),
            }
        }
        (Method::PUT, ["v4", "spreadsheets", id, "values", range]) if allowed(SHEETS_SCOPES) => {
            update(&shared, &decode(id), &decode(range), &query, &body)
        }
        (Method::POST, ["drive", "v3", "files", id, "permissions"]) if allowed(DRIVE_SCOPES) => {
            permission(&shared, &account, &decode(id), &body)
        }
        (_, ["v4", ..]) | (_, ["drive", ..]) => google_error(
            StatusCode::FORBIDDEN,
            "Request had insufficient authentication scopes.",
        ),
        _ => google_error(StatusCode::NOT_FOUND, "Not Found"),
    }
}

/// The JWT bearer grant: a verified assertion buys an hour's access token for its scopes.
fn token(shared: &Shared, body: &[u8]) -> Response {
    let form = form_pairs(&String::from_utf8_lossy(body));
    let field = |name: &str| {
        form.iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.clone())
    };
    let oauth_error = |error: &str, description: &str| {
        (
            StatusCode::BAD_REQUEST,
            Json(json!({"error": error, "error_description": description})),
        )
            .into_response()
    };
    if field("grant_type").as_deref() != Some("urn:ietf:params:oauth:grant-type:jwt-bearer") {
        return oauth_error("unsupported_grant_type", "Invalid grant_type: ");
    }
    let Some(assertion) = field("assertion") else {
        return oauth_error("invalid_request", "Missing required parameter: assertion");
    };
    let mut state = lock(shared);
    let claims = match verify_assertion(&assertion, &state.token_url) {
        Ok(claims) => claims,
        Err(refused) => return oauth_error(refused.error, &refused.description),
    };
    let token = format!("ya29.fake-sheets-{}", state.tokens.len() + 1);
    state
        .tokens
        .insert(token.clone(), (claims.iss.clone(), claims.scopes()));
    (
        StatusCode::OK,
        [(header::CACHE_CONTROL, "no-store")],
        Json(json!({"access_token": token, "expires_in": 3599, "token_type": "Bearer"})),
    )
        .into_response()
}

fn spreadsheet_json(sheet: &Spreadsheet) -> Value {
    json!({
        "spreadsheetId": sheet.id,
        "properties": {"title": sheet.title, "locale": "en_US", "timeZone": "Etc/GMT"},
        "sheets": sheet.sheets.iter().enumerate().map(|(index, title)| json!({
            "properties": {
                "sheetId": index,
                "title": title,
                "index": index,
                "sheetType": "GRID",
                "gridProperties": {"rowCount": 1000, "columnCount": 26},
            }
        })).collect::<Vec<_>>(),
        "spreadsheetUrl": format!("https://docs.google.com/spreadsheets/d/{}/edit", sheet.id),
    })
}

fn create(shared: &Shared, account: &str, body: &Value) -> Response {
    let Some(title) = body["properties"]["title"].as_str() else {
        return google_error(
            StatusCode::BAD_REQUEST,
            "Invalid value at 'spreadsheet.properties.title'",
        );
    };
    let mut sheets: Vec<String> = body["sheets"]
        .as_array()
        .map(|sheets| {
            sheets
                .iter()
                .filter_map(|s| s["properties"]["title"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    if sheets.is_empty() {
        sheets.push("Sheet1".to_owned());
    }
    let mut state = lock(shared);
    state.next_id += 1;
    let id = format!("1FakeSheet{:04}xYz_AbC-dEf", state.next_id);
    let sheet = Spreadsheet {
        id: id.clone(),
        title: title.to_owned(),
        sheets,
        values: Default::default(),
        permissions: Vec::new(),
        owner: account.to_owned(),
    };
    let answer = spreadsheet_json(&sheet);
    state.spreadsheets.insert(id.clone(), sheet);
    state.created.push(id);
    (StatusCode::OK, Json(answer)).into_response()
}

/// The sheet an A1 range names (`Scorecard!A1`, `Scorecard`), and whether the range starts at
/// A1 (the only anchor the fake writes at).
fn sheet_of(range: &str) -> (String, bool) {
    match range.split_once('!') {
        Some((sheet, cells)) => (
            sheet.trim_matches('\'').to_owned(),
            cells.eq_ignore_ascii_case("A1") || cells.to_ascii_uppercase().starts_with("A1:"),
        ),
        None => (range.trim_matches('\'').to_owned(), true),
    }
}

fn clear(shared: &Shared, id: &str, range: &str) -> Response {
    let mut state = lock(shared);
    let Some(spreadsheet) = state.spreadsheets.get_mut(id) else {
        return google_error(StatusCode::NOT_FOUND, "Requested entity was not found.");
    };
    let (sheet, _) = sheet_of(range);
    if !spreadsheet.sheets.contains(&sheet) {
        return google_error(
            StatusCode::BAD_REQUEST,
            &format!("Unable to parse range: {range}"),
        );
    }
    spreadsheet.values.remove(&sheet);
    (
        StatusCode::OK,
        Json(json!({"spreadsheetId": id, "clearedRange": format!("{sheet}!A1:Z1000")})),
    )
        .into_response()
}

fn update(shared: &Shared, id: &str, range: &str, query: &str, body: &Value) -> Response {
    let option = form_pairs(query)
        .into_iter()
        .find(|(key, _)| key == "valueInputOption")
        .map(|(_, value)| value);
    match option.as_deref() {
        Some("RAW" | "USER_ENTERED") => {}
        Some(other) => {
            return google_error(
                StatusCode::BAD_REQUEST,
                &format!(
                    "Invalid value at 'value_input_option' (type.googleapis.com/google.apps.sheets.v4.ValueInputOption), \"{other}\""
                ),
            );
        }
        None => {
            return google_error(
                StatusCode::BAD_REQUEST,
                "'valueInputOption' is required but not specified",
            );
        }
    }
    if let Some(body_range) = body["range"].as_str()
        && body_range != range
    {
        return google_error(
            StatusCode::BAD_REQUEST,
            &format!(
                "Requested writing within range [{range}], but tried writing to [{body_range}]"
            ),
        );
    }
    let Some(rows) = body["values"].as_array() else {
        return google_error(
            StatusCode::BAD_REQUEST,
            "Invalid JSON payload received. 'values' must be a list.",
        );
    };
    let rows: Vec<Vec<Value>> = rows
        .iter()
        .map(|row| row.as_array().cloned().unwrap_or_default())
        .collect();
    let mut state = lock(shared);
    let Some(spreadsheet) = state.spreadsheets.get_mut(id) else {
        return google_error(StatusCode::NOT_FOUND, "Requested entity was not found.");
    };
    let (sheet, at_a1) = sheet_of(range);
    if !spreadsheet.sheets.contains(&sheet) || !at_a1 {
        return google_error(
            StatusCode::BAD_REQUEST,
            &format!("Unable to parse range: {range}"),
        );
    }
    let cells: usize = rows.iter().map(Vec::len).sum();
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let updated_rows = rows.len();
    spreadsheet.values.insert(sheet.clone(), rows);
    (
        StatusCode::OK,
        Json(json!({
            "spreadsheetId": id,
            "updatedRange": format!("{sheet}!A1"),
            "updatedRows": updated_rows,
            "updatedColumns": columns,
            "updatedCells": cells,
        })),
    )
        .into_response()
}

fn permission(shared: &Shared, account: &str, id: &str, body: &Value) -> Response {
    let mut state = lock(shared);
    let Some(spreadsheet) = state.spreadsheets.get_mut(id) else {
        return drive_error(
            StatusCode::NOT_FOUND,
            "notFound",
            &format!("File not found: {id}."),
        );
    };
    // drive.file reaches only files the app (this account) created.
    if spreadsheet.owner != account {
        return drive_error(
            StatusCode::NOT_FOUND,
            "notFound",
            &format!("File not found: {id}."),
        );
    }
    let (Some(role), Some(kind)) = (body["role"].as_str(), body["type"].as_str()) else {
        return drive_error(
            StatusCode::BAD_REQUEST,
            "required",
            "Required parameter: permission.role",
        );
    };
    let Some(email) = body["emailAddress"].as_str().filter(|e| e.contains('@')) else {
        return drive_error(
            StatusCode::BAD_REQUEST,
            "invalid",
            "The permission emailAddress field is required for user or group permissions.",
        );
    };
    let permission = Permission {
        id: format!("{:020}", spreadsheet.permissions.len() + 1),
        role: role.to_owned(),
        kind: kind.to_owned(),
        email: email.to_owned(),
    };
    let answer = json!({
        "kind": "drive#permission",
        "id": permission.id,
        "type": permission.kind,
        "role": permission.role,
    });
    spreadsheet.permissions.push(permission);
    (StatusCode::OK, Json(answer)).into_response()
}
