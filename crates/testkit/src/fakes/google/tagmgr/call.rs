//! One authenticated call: who makes it with which scopes, what the method needs of them, and the
//! paging every list shares.

use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use serde_json::{Value, json};

use super::denied;
use super::state::{TagManager, TagManagerPermission};
use crate::fakes::google::bearer::user_access;
use crate::fakes::google::errors::{bad_request, error, insufficient_scope, json_response};
use crate::fakes::google::state::State as FakeState;

/// One authenticated call.
pub(super) struct Call<'a> {
    pub(super) user: &'a str,
    pub(super) scopes: &'a [String],
    pub(super) page_token: Option<&'a str>,
    pub(super) body: &'a [u8],
}

impl Call<'_> {
    /// 403 unless the token carries one of `needed`.
    pub(super) fn needs(&self, needed: &[&str]) -> Result<(), Response> {
        if self.scopes.iter().any(|s| needed.contains(&s.as_str())) {
            return Ok(());
        }
        Err(insufficient_scope(
            json!({ "service": "tagmanager.googleapis.com" }),
        ))
    }

    /// The scope, then the user's permission on account `a`.
    pub(super) fn may(
        &self,
        tm: &TagManager,
        needed: &[&str],
        account: &str,
        at_least: TagManagerPermission,
    ) -> Result<(), Response> {
        self.needs(needed)?;
        match tm.permission(self.user, account) {
            Some(permission) if permission >= at_least => Ok(()),
            _ => Err(denied()),
        }
    }

    /// One page of a list as Tag Manager answers it: `{key: [...]}` (the list absent when the
    /// page is empty) and `nextPageToken` while more pages follow.
    pub(super) fn list_answer(&self, key: &str, items: &[Value], size: usize) -> Response {
        let start = match self.page_token {
            None => 0,
            Some(token) => match token
                .strip_prefix("tmpage")
                .and_then(|n| n.parse::<usize>().ok())
                .filter(|n| *n <= items.len())
            {
                Some(start) => start,
                None => return bad_request("Invalid page token."),
            },
        };
        let end = (start + size).min(items.len());
        let mut body = json!({});
        if start < end {
            body[key] = json!(items[start..end]);
        }
        if end < items.len() {
            body["nextPageToken"] = json!(format!("tmpage{end}"));
        }
        json_response(StatusCode::OK, &body)
    }

    pub(super) fn json(&self) -> Result<serde_json::Map<String, Value>, Response> {
        match serde_json::from_slice::<Value>(self.body) {
            Ok(Value::Object(map)) => Ok(map),
            _ => Err(bad_request("Invalid JSON payload received.")),
        }
    }
}

/// 401 as Tag Manager words it (without Google's sign-in link).
fn invalid_credentials() -> Response {
    error(
        StatusCode::UNAUTHORIZED,
        "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
    )
}

/// The token's user and scopes; 401 without a live token.
pub(super) fn authenticate(
    state: &FakeState,
    headers: &HeaderMap,
) -> Result<(String, Vec<String>), Response> {
    user_access(state, headers, invalid_credentials)
}
