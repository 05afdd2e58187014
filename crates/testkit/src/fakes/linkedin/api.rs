//! Every request lands here: the gate first (`gate.rs`), then the endpoint its path names.
//! Only `GET` is served (the fake is read-only, as Payback's connector is); unknown paths are
//! LinkedIn's 404.

use axum::extract::State;
use axum::http::{HeaderMap, Method, Uri};
use axum::response::Response;

use super::errors::{illegal_argument, method_not_allowed, not_found};
use super::restli::Query;
use super::{Shared, analytics, entities, gate, lock};

pub(crate) async fn dispatch(
    State(shared): State<Shared>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    let path = uri.path();
    let Some(rest) = path.strip_prefix("/rest/") else {
        return not_found();
    };
    let state = lock(&shared);
    let caller = match gate::admit(&state, &headers) {
        Ok(caller) => caller,
        Err(refusal) => return refusal,
    };
    if method != Method::GET {
        return method_not_allowed();
    }
    let query = match Query::parse(uri.query()) {
        Ok(query) => query,
        Err(invalid) => return illegal_argument(&invalid.0),
    };
    let segments: Vec<&str> = rest.split('/').collect();
    match segments.as_slice() {
        ["adAccounts"] => entities::search_accounts(&state, &caller, path, &query),
        ["adAccounts", account] => entities::get_account(&state, &caller, account, &query),
        ["adAccounts", account, "adCampaigns"] => {
            entities::search_campaigns(&state, &caller, account, path, &query)
        }
        ["adAccounts", account, "adCampaigns", campaign] => {
            entities::get_campaign(&state, &caller, account, campaign, &query)
        }
        ["adAccounts", account, "creatives"] => {
            entities::creatives(&state, &caller, account, path, &query)
        }
        ["adAnalytics"] => analytics::analytics(&state, &caller, &query),
        _ => not_found(),
    }
}
