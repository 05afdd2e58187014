//! Which Ads API method a path names, and the one handler every Ads API path lands in.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use serde_json::Value;

use super::auth::{authenticate, reach};
use super::budgets::mutate_budgets;
use super::customer::mutate_customer;
use super::errors::{AdsError, google_ads, with_request_id};
use super::is_version;
use super::search::{list_accessible, search, search_stream};
use crate::fakes::google::errors::json_response;
use crate::fakes::google::{Shared, lock};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Endpoint {
    ListAccessibleCustomers,
    Search,
    SearchStream,
    MutateCampaignBudgets,
    MutateCustomer,
}

impl Endpoint {
    pub(super) fn method_name(self) -> &'static str {
        match self {
            Self::ListAccessibleCustomers => {
                "google.ads.googleads.CustomerService.ListAccessibleCustomers"
            }
            Self::Search => "google.ads.googleads.GoogleAdsService.Search",
            Self::SearchStream => "google.ads.googleads.GoogleAdsService.SearchStream",
            Self::MutateCampaignBudgets => {
                "google.ads.googleads.CampaignBudgetService.MutateCampaignBudgets"
            }
            Self::MutateCustomer => "google.ads.googleads.CustomerService.MutateCustomer",
        }
    }
}

/// `(version, customer id as written, endpoint)` of an Ads API path.
fn route(method: &Method, path: &str) -> Option<(String, Option<String>, Endpoint)> {
    let (version, rest) = path.trim_start_matches('/').split_once('/')?;
    if !is_version(version) {
        return None;
    }
    let version = version.to_owned();
    if rest == "customers:listAccessibleCustomers" {
        return (method == Method::GET).then_some((
            version,
            None,
            Endpoint::ListAccessibleCustomers,
        ));
    }
    let rest = rest.strip_prefix("customers/")?;
    if method != Method::POST {
        return None;
    }
    let (customer, endpoint) = match rest.split_once('/') {
        Some((customer, "googleAds:search")) => (customer, Endpoint::Search),
        Some((customer, "googleAds:searchStream")) => (customer, Endpoint::SearchStream),
        Some((customer, "campaignBudgets:mutate")) => (customer, Endpoint::MutateCampaignBudgets),
        Some(_) => return None,
        None => (rest.strip_suffix(":mutate")?, Endpoint::MutateCustomer),
    };
    (!customer.is_empty()).then(|| (version, Some(customer.to_owned()), endpoint))
}

fn not_found(path: &str) -> Response {
    (
        StatusCode::NOT_FOUND,
        [(axum::http::header::CONTENT_TYPE, "text/html; charset=UTF-8")],
        format!("<!DOCTYPE html><title>Error 404 (Not Found)</title><p>The requested URL <code>{path}</code> was not found on this server (the fake Google serves the OAuth endpoints and the Ads API calls its module documents).</p>"),
    )
        .into_response()
}

/// One call's context.
pub(super) struct Call {
    pub(super) version: String,
    pub(super) request_id: String,
}

impl Call {
    pub(super) fn fail(&self, status: StatusCode, errors: &[AdsError]) -> Response {
        google_ads(status, &self.version, &self.request_id, errors)
    }

    pub(super) fn ok(&self, body: &Value) -> Response {
        with_request_id(json_response(StatusCode::OK, body), &self.request_id)
    }
}

/// Every Ads API path lands here.
pub(crate) async fn dispatch(
    State(shared): State<Shared>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let path = uri.path().replace("%3A", ":").replace("%3a", ":");
    let Some((version, customer, endpoint)) = route(&method, &path) else {
        return not_found(&path);
    };
    let mut state = lock(&shared);
    let call = Call {
        version,
        request_id: state.mint("fakeReq"),
    };
    if let Err(response) = authenticate(&state, &headers, &call, endpoint) {
        return response;
    }
    let customer = match customer {
        Some(written) => match reach(&state, &headers, &call, &written) {
            Ok(id) => id,
            Err(response) => return response,
        },
        None => 0,
    };
    match endpoint {
        Endpoint::ListAccessibleCustomers => list_accessible(&state, &call),
        Endpoint::Search => search(&mut state, &call, customer, &body),
        Endpoint::SearchStream => search_stream(&state, &call, customer, &body),
        Endpoint::MutateCampaignBudgets => mutate_budgets(&mut state, &call, customer, &body),
        Endpoint::MutateCustomer => mutate_customer(&mut state, &call, customer, &body),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_any_version_and_the_documented_paths() {
        let post = Method::POST;
        assert_eq!(
            route(&Method::GET, "/v21/customers:listAccessibleCustomers").map(|r| r.2),
            Some(Endpoint::ListAccessibleCustomers)
        );
        assert_eq!(
            route(&post, "/v99/customers/123/googleAds:search").map(|r| (r.0, r.1, r.2)),
            Some(("v99".into(), Some("123".into()), Endpoint::Search))
        );
        assert_eq!(
            route(&post, "/v21/customers/123/googleAds:searchStream").map(|r| r.2),
            Some(Endpoint::SearchStream)
        );
        assert_eq!(
            route(&post, "/v21/customers/123/campaignBudgets:mutate").map(|r| r.2),
            Some(Endpoint::MutateCampaignBudgets)
        );
        assert_eq!(
            route(&post, "/v21/customers/123:mutate").map(|r| r.2),
            Some(Endpoint::MutateCustomer)
        );
        assert!(route(&Method::GET, "/v21/customers/123/googleAds:search").is_none());
        assert!(route(&post, "/api/customers/123/googleAds:search").is_none());
        assert!(route(&post, "/v21/customers/123/campaigns:mutate").is_none());
    }
}
