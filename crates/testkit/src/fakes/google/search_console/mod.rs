//! The Search Console API (webmasters v3), as Google documents it:
//! - `GET  /webmasters/v3/sites`: `{"siteEntry": [{"siteUrl", "permissionLevel"}]}` of the
//!   token's user, the whole list at once (no paging), `siteEntry` absent when none,
//! - `GET  /webmasters/v3/sites/{siteUrl}`: one `{"siteUrl", "permissionLevel"}`; 403
//!   `PERMISSION_DENIED` for a site the user does not have,
//! - `POST /webmasters/v3/sites/{siteUrl}/searchAnalytics/query`: `{startDate, endDate (both
//!   required), dimensions (here `date` and `query`), rowLimit (1..=25000, default 1000),
//!   startRow (default 0)}`, answering `{"rows": [{"keys", "clicks", "impressions", "ctr",
//!   "position"}], "responseAggregationType": "byProperty"}` sorted by clicks descending (`rows`
//!   absent past the last row); an unverified user may read nothing (403).
//!
//! `{siteUrl}` is one path segment, percent-encoded (`https%3A%2F%2Fshop.example%2F`). Every
//! call needs `Authorization: Bearer <an access token the fake issued>` whose grant has
//! `webmasters.readonly` or `webmasters`; sites belong to Google users, and a token reads its
//! consenting user's only. Errors are `{"error": {"code", "message", "status"}}`.

// A refusal here is the whole HTTP answer, carried up as the `Err` of the helpers that build it;
// boxing it would buy nothing on a test fake's error path.
#![allow(clippy::result_large_err)]

mod controls;
mod query;
mod routes;
mod sites;
mod state;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::Response;
use serde_json::json;

use super::bearer::user_access;
use super::errors::{insufficient_scope, invalid_credentials, json_response, not_found};
use super::fail::Fail;
use super::state::State as FakeState;
use super::{Shared, errors, lock};
use query::query;
use routes::{Endpoint, route};
use sites::{list, readable};
pub(crate) use state::Console;
pub use state::QueryFigures;

/// The read-only scope, and the full one (which reads too).
pub const WEBMASTERS_READONLY_SCOPE: &str = "https://www.googleapis.com/auth/webmasters.readonly";
pub const WEBMASTERS_SCOPE: &str = "https://www.googleapis.com/auth/webmasters";

/// Every `/webmasters/v3/...` path lands here.
pub(crate) async fn dispatch(
    State(shared): State<Shared>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let Some((endpoint, site)) = route(&method, uri.path()) else {
        return not_found(uri.path());
    };
    let state = lock(&shared);
    let user = match authenticate(&state, &headers) {
        Ok(user) => user,
        Err(response) => return response,
    };
    let console = &state.search_console;
    match (endpoint, site) {
        (Endpoint::List, _) => list(console, &user),
        (Endpoint::Get, Some(site)) => match readable(console, &user, &site, true) {
            Ok(access) => json_response(
                StatusCode::OK,
                &json!({ "siteUrl": access.site_url, "permissionLevel": access.permission_level }),
            ),
            Err(response) => response,
        },
        (Endpoint::Query, Some(site)) => match readable(console, &user, &site, false) {
            Ok(_) => query(console, &site, &body),
            Err(response) => response,
        },
        _ => not_found(uri.path()),
    }
}

/// The token's user; 401 without a live token, 403 without a webmasters scope.
fn authenticate(state: &FakeState, headers: &HeaderMap) -> Result<String, Response> {
    let (user, scopes) = user_access(state, headers, invalid_credentials)?;
    if !scopes
        .iter()
        .any(|scope| scope == WEBMASTERS_READONLY_SCOPE || scope == WEBMASTERS_SCOPE)
    {
        return Err(insufficient_scope(
            json!({ "service": "searchconsole.googleapis.com" }),
        ));
    }
    Ok(user)
}

/// A scheduled failure on a webmasters path, in the API's error shape.
pub(crate) fn scheduled(fail: Fail) -> Response {
    errors::scheduled(
        fail,
        "Search Analytics load quota exceeded.",
        invalid_credentials,
    )
}

#[cfg(test)]
mod tests;
