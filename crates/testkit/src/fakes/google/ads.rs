//! The Google Ads API's REST interface, any version (`/v{N}/…`):
//! - `GET  /vN/customers:listAccessibleCustomers`
//! - `POST /vN/customers/{customerId}/googleAds:search` (pages of the fake's page size)
//! - `POST /vN/customers/{customerId}/googleAds:searchStream` (a JSON array of batches)
//! - `POST /vN/customers/{customerId}/campaignBudgets:mutate` (updates of `amount_micros`, `name`)
//! - `POST /vN/customers/{customerId}:mutate` (updates of `final_url_suffix`,
//!   `auto_tagging_enabled`)
//!
//! Every call needs `Authorization: Bearer <access token the fake issued, with the adwords
//! scope>` and the configured `developer-token`; a customer reached through a manager needs that
//! manager (or one above it) in `login-customer-id`, digits only. Bodies are the request messages
//! in proto3 JSON: camelCase or the proto's snake_case names, unknown names refused as Google's
//! front end refuses them.

// A refusal here is the whole HTTP answer, carried up as the `Err` of the helpers that build it;
// boxing it would buy nothing on a test fake's error path.
#![allow(clippy::result_large_err)]

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use serde_json::{Map, Value, json};

use super::errors::{
    AdsError, bad_payload, failure_detail, front_end, google_ads, insufficient_scope,
    json_response, missing_credential, with_request_id,
};
use super::gaql::{self, camel};
use super::oauth::{Refused, check_access};
use super::state::{ADWORDS_SCOPE, BudgetStatus, Cursor, State as FakeState, minimum_unit_micros};
use super::{Shared, lock};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Endpoint {
    ListAccessibleCustomers,
    Search,
    SearchStream,
    MutateCampaignBudgets,
    MutateCustomer,
}

impl Endpoint {
    fn method_name(self) -> &'static str {
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

/// `v` followed by digits.
pub(crate) fn is_version(segment: &str) -> bool {
    segment.len() > 1
        && segment.starts_with('v')
        && segment[1..].bytes().all(|b| b.is_ascii_digit())
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
struct Call {
    version: String,
    request_id: String,
}

impl Call {
    fn fail(&self, status: StatusCode, errors: &[AdsError]) -> Response {
        google_ads(status, &self.version, &self.request_id, errors)
    }

    fn ok(&self, body: &Value) -> Response {
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

fn header<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get(name)
        .and_then(|value| value.to_str().ok())
        .map(str::trim)
}

/// The OAuth access token and the developer token.
fn authenticate(
    state: &FakeState,
    headers: &HeaderMap,
    call: &Call,
    endpoint: Endpoint,
) -> Result<(), Response> {
    let Some(authorization) = header(headers, "authorization") else {
        return Err(missing_credential());
    };
    let token = match authorization.split_once(' ') {
        Some((scheme, token))
            if scheme.eq_ignore_ascii_case("Bearer") && !token.trim().is_empty() =>
        {
            token.trim()
        }
        _ => {
            return Err(front_end(
                StatusCode::UNAUTHORIZED,
                "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
                Vec::new(),
            ));
        }
    };
    let scopes = check_access(state, token).map_err(|refused| {
        let (code, message) = match refused {
            Refused::Invalid => (
                "OAUTH_TOKEN_INVALID",
                "Oauth token in the header is not valid.",
            ),
            Refused::Expired => (
                "OAUTH_TOKEN_EXPIRED",
                "Oauth token in the header has expired.",
            ),
            Refused::Revoked => (
                "OAUTH_TOKEN_REVOKED",
                "Oauth token in the header has been revoked.",
            ),
        };
        call.fail(
            StatusCode::UNAUTHORIZED,
            &[AdsError::new("authenticationError", code, message)],
        )
    })?;
    if !scopes.iter().any(|scope| scope == ADWORDS_SCOPE) {
        return Err(insufficient_scope(endpoint.method_name()));
    }
    match header(headers, "developer-token").filter(|value| !value.is_empty()) {
        None => Err(call.fail(
            StatusCode::BAD_REQUEST,
            &[AdsError::new(
                "requestError",
                "DEVELOPER_TOKEN_PARAMETER_MISSING",
                "The developer-token parameter is required for all requests.",
            )],
        )),
        Some(token) if token != state.developer_token => Err(call.fail(
            StatusCode::UNAUTHORIZED,
            &[AdsError::new(
                "authenticationError",
                "DEVELOPER_TOKEN_INVALID",
                "The developer token is not valid.",
            )],
        )),
        Some(_) => Ok(()),
    }
}

fn digits(text: &str) -> Option<i64> {
    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        text.parse().ok()
    } else {
        None
    }
}

/// The customer of the path, if the human may reach it with the `login-customer-id` given.
fn reach(
    state: &FakeState,
    headers: &HeaderMap,
    call: &Call,
    written: &str,
) -> Result<i64, Response> {
    let Some(customer) = digits(written) else {
        return Err(call.fail(
            StatusCode::BAD_REQUEST,
            &[AdsError::new(
                "requestError",
                "INVALID_CUSTOMER_ID",
                format!("Customer ID is invalid: '{written}' (digits only, without hyphens)."),
            )],
        ));
    };
    let login = match header(headers, "login-customer-id") {
        None => None,
        Some(value) => match digits(value) {
            Some(login) => Some(login),
            None => {
                return Err(call.fail(
                    StatusCode::BAD_REQUEST,
                    &[AdsError::new("headerError", "INVALID_LOGIN_CUSTOMER_ID", format!("The login customer ID could not be validated: '{value}' (digits only, without hyphens)."))],
                ));
            }
        },
    };
    let direct = |id: i64| state.customer(id).is_some_and(|c| c.manager.is_none());
    let allowed = state.customer(customer).is_some()
        && match login {
            None => direct(customer),
            Some(login) => {
                direct(login) && (login == customer || state.managers_of(customer).contains(&login))
            }
        };
    if allowed {
        Ok(customer)
    } else {
        Err(call.fail(
            StatusCode::FORBIDDEN,
            &[AdsError::new(
                "authorizationError",
                "USER_PERMISSION_DENIED",
                "User doesn't have permission to access customer. Note: If you're accessing a client customer, the manager's customer id must be set in the 'login-customer-id' header. See https://developers.google.com/google-ads/api/docs/concepts/call-structure#cid",
            )],
        ))
    }
}

fn list_accessible(state: &FakeState, call: &Call) -> Response {
    let names: Vec<Value> = state
        .customers
        .iter()
        .filter(|c| c.manager.is_none())
        .map(|c| json!(format!("customers/{}", c.id)))
        .collect();
    // proto3 JSON leaves an empty repeated field out.
    let body = if names.is_empty() {
        json!({})
    } else {
        json!({ "resourceNames": names })
    };
    call.ok(&body)
}

// ---- request bodies ------------------------------------------------------------------------

/// A request message's JSON object, refusing member names the message does not have (each name
/// is accepted in its proto snake_case and its JSON camelCase).
fn message(body: &[u8], names: &[&str], at: &str) -> Result<Map<String, Value>, Response> {
    let value: Value = if body.iter().all(u8::is_ascii_whitespace) {
        json!({})
    } else {
        serde_json::from_slice(body).map_err(|err| bad_payload(&format!("Syntax error: {err}")))?
    };
    let Value::Object(map) = value else {
        return Err(bad_payload(&format!(
            "Invalid value at '{at}': expected an object."
        )));
    };
    check_names(&map, names, at)?;
    Ok(map)
}

fn check_names(map: &Map<String, Value>, names: &[&str], at: &str) -> Result<(), Response> {
    for key in map.keys() {
        if !names.iter().any(|name| key == name || *key == camel(name)) {
            let place = if at.is_empty() {
                String::new()
            } else {
                format!(" at '{at}'")
            };
            return Err(bad_payload(&format!(
                "Unknown name \"{key}\"{place}: Cannot find field."
            )));
        }
    }
    Ok(())
}

fn member<'a>(map: &'a Map<String, Value>, name: &str) -> Option<&'a Value> {
    map.get(name).or_else(|| map.get(&camel(name)))
}

fn string_member(
    map: &Map<String, Value>,
    name: &str,
    at: &str,
) -> Result<Option<String>, Response> {
    match member(map, name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(other) => Err(bad_payload(&format!(
            "Invalid value at '{at}{name}' (TYPE_STRING), {other}"
        ))),
    }
}

fn bool_member(map: &Map<String, Value>, name: &str, at: &str) -> Result<Option<bool>, Response> {
    match member(map, name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(other) => Err(bad_payload(&format!(
            "Invalid value at '{at}{name}' (TYPE_BOOL), {other}"
        ))),
    }
}

/// An int64: a JSON string of digits or a JSON number, as proto3 JSON reads it.
fn int64_member(map: &Map<String, Value>, name: &str, at: &str) -> Result<Option<i64>, Response> {
    let bad = |value: &Value| {
        bad_payload(&format!(
            "Invalid value at '{at}{name}' (TYPE_INT64), {value}"
        ))
    };
    match member(map, name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => text
            .trim()
            .parse()
            .map(Some)
            .map_err(|_| bad(&Value::String(text.clone()))),
        Some(Value::Number(number)) => number
            .as_i64()
            .map(Some)
            .ok_or_else(|| bad(&Value::Number(number.clone()))),
        Some(other) => Err(bad(other)),
    }
}

fn response_content_type(map: &Map<String, Value>) -> Result<bool, Response> {
    match string_member(map, "response_content_type", "")?.as_deref() {
        None | Some("UNSPECIFIED" | "RESOURCE_NAME_ONLY") => Ok(false),
        Some("MUTABLE_RESOURCE") => Ok(true),
        Some(other) => Err(bad_payload(&format!(
            "Invalid value at 'response_content_type' (type.googleapis.com/google.ads.googleads.v.enums.ResponseContentTypeEnum.ResponseContentType), \"{other}\""
        ))),
    }
}

/// A FieldMask in its JSON form (comma-separated paths), each path in snake_case.
fn field_mask(map: &Map<String, Value>, at: &str) -> Result<Vec<String>, Response> {
    match member(map, "update_mask") {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::String(text)) => Ok(text
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(snake)
            .collect()),
        Some(other) => Err(bad_payload(&format!(
            "Invalid value at '{at}update_mask' (type.googleapis.com/google.protobuf.FieldMask), {other}"
        ))),
    }
}

fn snake(path: &str) -> String {
    let mut out = String::with_capacity(path.len() + 4);
    for c in path.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

// ---- search --------------------------------------------------------------------------------

fn query_failure(call: &Call, error: gaql::QueryError) -> Response {
    call.fail(
        StatusCode::BAD_REQUEST,
        &[AdsError::new("queryError", error.code, error.message)],
    )
}

fn search(state: &mut FakeState, call: &Call, customer: i64, body: &[u8]) -> Response {
    let names = [
        "customer_id",
        "query",
        "page_token",
        "page_size",
        "validate_only",
        "search_settings",
    ];
    let map = match message(body, &names, "") {
        Ok(map) => map,
        Err(response) => return response,
    };
    let fields = (|| -> Result<_, Response> {
        let query = string_member(&map, "query", "")?.unwrap_or_default();
        let page_token = string_member(&map, "page_token", "")?.filter(|t| !t.is_empty());
        let page_size = int64_member(&map, "page_size", "")?.unwrap_or(0);
        let validate_only = bool_member(&map, "validate_only", "")?.unwrap_or(false);
        let total_count = match member(&map, "search_settings") {
            None | Some(Value::Null) => false,
            Some(Value::Object(settings)) => {
                check_names(
                    settings,
                    &[
                        "omit_results",
                        "return_summary_row",
                        "return_total_results_count",
                    ],
                    "search_settings",
                )?;
                bool_member(settings, "return_total_results_count", "search_settings.")?
                    .unwrap_or(false)
            }
            Some(other) => {
                return Err(bad_payload(&format!(
                    "Invalid value at 'search_settings', {other}"
                )));
            }
        };
        Ok((query, page_token, page_size, validate_only, total_count))
    })();
    let (query, page_token, page_size, validate_only, total_count) = match fields {
        Ok(fields) => fields,
        Err(response) => return response,
    };
    if page_size != 0 {
        return call.fail(
            StatusCode::BAD_REQUEST,
            &[AdsError::new("requestError", "PAGE_SIZE_NOT_SUPPORTED", "Setting the page size is not supported, and will be unavailable in a future version.")],
        );
    }
    let offset = match page_token {
        None => 0,
        Some(token) => match state.cursors.get(&token) {
            Some(cursor) if cursor.customer == customer && cursor.query == query => cursor.offset,
            _ => {
                return call.fail(
                    StatusCode::BAD_REQUEST,
                    &[AdsError::new(
                        "requestError",
                        "INVALID_PAGE_TOKEN",
                        "Next page token specified in user request is invalid.",
                    )],
                );
            }
        },
    };
    let answer = match gaql::run(state, customer, &query) {
        Ok(answer) => answer,
        Err(error) => return query_failure(call, error),
    };
    let mut body = Map::new();
    if !validate_only {
        let page: Vec<Value> = answer
            .rows
            .iter()
            .skip(offset)
            .take(state.page_size)
            .cloned()
            .collect();
        let next = offset + page.len();
        if !page.is_empty() {
            body.insert("results".into(), Value::Array(page));
        }
        if next < answer.rows.len() {
            let token = state.mint("fakePage");
            state.cursors.insert(
                token.clone(),
                Cursor {
                    customer,
                    query,
                    offset: next,
                },
            );
            body.insert("nextPageToken".into(), json!(token));
        }
        if total_count {
            body.insert("totalResultsCount".into(), json!(answer.total.to_string()));
        }
        body.insert(
            "queryResourceConsumption".into(),
            json!(answer.rows.len().max(1).to_string()),
        );
    }
    body.insert("fieldMask".into(), json!(answer.field_mask));
    call.ok(&Value::Object(body))
}

fn search_stream(state: &FakeState, call: &Call, customer: i64, body: &[u8]) -> Response {
    let map = match message(body, &["customer_id", "query", "summary_row_setting"], "") {
        Ok(map) => map,
        Err(response) => return response,
    };
    let query = match string_member(&map, "query", "") {
        Ok(query) => query.unwrap_or_default(),
        Err(response) => return response,
    };
    let answer = match gaql::run(state, customer, &query) {
        Ok(answer) => answer,
        Err(error) => return query_failure(call, error),
    };
    let mut batches: Vec<Value> = answer
        .rows
        .chunks(state.page_size.max(1))
        .map(|chunk| json!({ "results": chunk, "fieldMask": answer.field_mask, "requestId": call.request_id }))
        .collect();
    if batches.is_empty() {
        batches.push(json!({ "fieldMask": answer.field_mask, "requestId": call.request_id }));
    }
    if let Some(Value::Object(last)) = batches.last_mut() {
        last.insert(
            "queryResourceConsumption".into(),
            json!(answer.rows.len().max(1).to_string()),
        );
    }
    call.ok(&Value::Array(batches))
}

// ---- mutates -------------------------------------------------------------------------------

const BUDGET_FIELDS: &[&str] = &[
    "resource_name",
    "id",
    "name",
    "amount_micros",
    "total_amount_micros",
    "status",
    "delivery_method",
    "explicitly_shared",
    "reference_count",
    "has_recommended_budget",
    "recommended_budget_amount_micros",
    "period",
    "recommended_budget_estimated_change_weekly_clicks",
    "recommended_budget_estimated_change_weekly_cost_micros",
    "recommended_budget_estimated_change_weekly_interactions",
    "recommended_budget_estimated_change_weekly_views",
    "type",
    "aligned_bidding_strategy_id",
];

const CUSTOMER_FIELDS: &[&str] = &[
    "resource_name",
    "id",
    "descriptive_name",
    "currency_code",
    "time_zone",
    "tracking_url_template",
    "final_url_suffix",
    "auto_tagging_enabled",
    "has_partners_badge",
    "manager",
    "test_account",
    "call_reporting_setting",
    "conversion_tracking_setting",
    "remarketing_setting",
    "pay_per_conversion_eligibility_failure_reasons",
    "optimization_score",
    "optimization_score_weight",
    "status",
    "location_asset_auto_migration_done",
    "image_asset_auto_migration_done",
    "location_asset_auto_migration_done_date_time",
    "image_asset_auto_migration_done_date_time",
    "customer_agreement_setting",
    "local_services_settings",
    "video_brand_safety_suitability",
    "video_customer",
];

fn unmodelled(what: &str) -> Response {
    front_end(
        StatusCode::NOT_IMPLEMENTED,
        &format!("The fake Google Ads API does not model {what}."),
        Vec::new(),
    )
}

/// A budget change that passed its checks.
struct BudgetChange {
    index: usize,
    budget: i64,
    amount_micros: Option<i64>,
    name: Option<String>,
}

fn mutate_budgets(state: &mut FakeState, call: &Call, customer: i64, body: &[u8]) -> Response {
    let names = [
        "customer_id",
        "operations",
        "partial_failure",
        "validate_only",
        "response_content_type",
    ];
    let map = match message(body, &names, "") {
        Ok(map) => map,
        Err(response) => return response,
    };
    let header = (|| -> Result<_, Response> {
        Ok((
            bool_member(&map, "partial_failure", "")?.unwrap_or(false),
            bool_member(&map, "validate_only", "")?.unwrap_or(false),
            response_content_type(&map)?,
        ))
    })();
    let (partial, validate_only, mutable_resource) = match header {
        Ok(header) => header,
        Err(response) => return response,
    };
    let operations = match member(&map, "operations") {
        Some(Value::Array(operations)) if !operations.is_empty() => operations.clone(),
        Some(Value::Array(_)) | None | Some(Value::Null) => {
            return call.fail(
                StatusCode::BAD_REQUEST,
                &[AdsError::new(
                    "requestError",
                    "REQUIRED_FIELD_MISSING",
                    "Required field is missing: operations.",
                )
                .at(&[("operations", None)])],
            );
        }
        Some(other) => return bad_payload(&format!("Invalid value at 'operations', {other}")),
    };
    let currency = state
        .customer(customer)
        .map(|c| c.currency.clone())
        .unwrap_or_default();
    let mut errors = Vec::new();
    let mut changes = Vec::new();
    for (index, operation) in operations.iter().enumerate() {
        let at = format!("operations[{index}].");
        let Value::Object(operation) = operation else {
            return bad_payload(&format!(
                "Invalid value at 'operations[{index}]', {operation}"
            ));
        };
        if let Err(response) = check_names(
            operation,
            &["update_mask", "create", "update", "remove"],
            &format!("operations[{index}]"),
        ) {
            return response;
        }
        if member(operation, "create").is_some() || member(operation, "remove").is_some() {
            return unmodelled("campaign budget create or remove operations (updates only)");
        }
        let Some(Value::Object(update)) = member(operation, "update") else {
            errors.push(
                AdsError::new(
                    "requestError",
                    "OPERATION_REQUIRED",
                    "Mutate operation should have either create, update, or remove specified.",
                )
                .at(&[("operations", Some(index))]),
            );
            continue;
        };
        if let Err(response) = check_names(
            update,
            BUDGET_FIELDS,
            &format!("operations[{index}].update"),
        ) {
            return response;
        }
        let parsed = (|| -> Result<_, Response> {
            let mask = field_mask(operation, &at)?;
            let resource_name = string_member(update, "resource_name", &format!("{at}update."))?;
            let amount = int64_member(update, "amount_micros", &format!("{at}update."))?;
            let name = string_member(update, "name", &format!("{at}update."))?;
            Ok((mask, resource_name, amount, name))
        })();
        let (mask, resource_name, amount, name) = match parsed {
            Ok(parsed) => parsed,
            Err(response) => return response,
        };
        match budget_change(
            state,
            customer,
            &currency,
            index,
            &mask,
            resource_name,
            amount,
            name,
        ) {
            Ok(change) => changes.push(change),
            Err(Outcome::Refused(error)) => errors.push(error),
            Err(Outcome::Unmodelled(field)) => {
                return unmodelled(&format!("updates of campaign_budget.{field}"));
            }
        }
    }
    if !errors.is_empty() && !partial {
        return call.fail(StatusCode::BAD_REQUEST, &errors);
    }
    if validate_only {
        return call.ok(&json!({}));
    }
    let mut results: Vec<Value> = vec![json!({}); operations.len()];
    for change in changes {
        let Some(budget) = state
            .budgets
            .iter_mut()
            .find(|b| b.customer == customer && b.id == change.budget)
        else {
            continue;
        };
        if let Some(amount) = change.amount_micros {
            budget.amount_micros = amount;
        }
        if let Some(name) = change.name {
            budget.name = name;
        }
        let resource_name = format!("customers/{customer}/campaignBudgets/{}", budget.id);
        let mut result = json!({ "resourceName": resource_name });
        if mutable_resource {
            result["campaignBudget"] = json!({
                "resourceName": resource_name,
                "name": budget.name,
                "amountMicros": budget.amount_micros.to_string(),
                "status": if budget.status == BudgetStatus::Enabled { "ENABLED" } else { "REMOVED" },
                "deliveryMethod": "STANDARD",
                "explicitlyShared": budget.explicitly_shared,
                "period": "DAILY",
            });
        }
        results[change.index] = result;
    }
    let mut body = json!({ "results": results });
    if !errors.is_empty() {
        let first = errors
            .first()
            .map(|e| e.message.clone())
            .unwrap_or_default();
        body["partialFailureError"] = json!({
            "code": 3,
            "message": if errors.len() > 1 { format!("Multiple errors in 'details'. First error: {first}") } else { first },
            "details": [failure_detail(&call.version, &call.request_id, &errors)],
        });
    }
    call.ok(&body)
}

enum Outcome {
    Refused(AdsError),
    Unmodelled(String),
}

#[allow(clippy::too_many_arguments)]
fn budget_change(
    state: &FakeState,
    customer: i64,
    currency: &str,
    index: usize,
    mask: &[String],
    resource_name: Option<String>,
    amount: Option<i64>,
    name: Option<String>,
) -> Result<BudgetChange, Outcome> {
    let here = |field: &'static str| -> Vec<(&'static str, Option<usize>)> {
        vec![("operations", Some(index)), ("update", None), (field, None)]
    };
    let refuse = |kind: &'static str, code: &'static str, message: &str, field: &'static str| {
        let path = here(field);
        Outcome::Refused(AdsError::new(kind, code, message).at(&path))
    };
    if mask.is_empty() {
        return Err(Outcome::Refused(
            AdsError::new(
                "fieldMaskError",
                "FIELD_MASK_MISSING",
                "The field mask must be provided for update operations.",
            )
            .at(&[("operations", Some(index)), ("update_mask", None)]),
        ));
    }
    for path in mask {
        if !BUDGET_FIELDS.contains(&path.as_str()) || path == "resource_name" {
            return Err(Outcome::Refused(
                AdsError::new(
                    "fieldMaskError",
                    "FIELD_NOT_FOUND",
                    format!("The field mask contained an invalid field: '{path}'."),
                )
                .at(&[("operations", Some(index)), ("update_mask", None)]),
            ));
        }
        if !matches!(path.as_str(), "amount_micros" | "name") {
            return Err(Outcome::Unmodelled(path.clone()));
        }
    }
    let Some(resource_name) = resource_name else {
        return Err(refuse(
            "requestError",
            "RESOURCE_NAME_MISSING",
            "Resource name is required for this request.",
            "resource_name",
        ));
    };
    let parsed = resource_name
        .strip_prefix("customers/")
        .and_then(|rest| rest.split_once("/campaignBudgets/"))
        .and_then(|(owner, id)| Some((digits(owner)?, digits(id)?)));
    let Some((owner, budget_id)) = parsed else {
        return Err(refuse(
            "requestError",
            "RESOURCE_NAME_MALFORMED",
            "Resource name provided is malformed.",
            "resource_name",
        ));
    };
    let budget = state
        .budget(customer, budget_id)
        .filter(|_| owner == customer);
    let Some(budget) = budget else {
        return Err(refuse(
            "mutateError",
            "RESOURCE_NOT_FOUND",
            "Resource was not found.",
            "resource_name",
        ));
    };
    if budget.status == BudgetStatus::Removed {
        return Err(refuse(
            "campaignBudgetError",
            "CAMPAIGN_BUDGET_REMOVED",
            "The requested campaign budget no longer exists.",
            "resource_name",
        ));
    }
    let mut change = BudgetChange {
        index,
        budget: budget.id,
        amount_micros: None,
        name: None,
    };
    if mask.iter().any(|p| p == "amount_micros") {
        let Some(amount) = amount else {
            return Err(refuse(
                "fieldError",
                "REQUIRED",
                "The required field was not present.",
                "amount_micros",
            ));
        };
        if amount < 0 {
            return Err(refuse(
                "campaignBudgetError",
                "NEGATIVE_MONEY_AMOUNT",
                "A money amount was negative.",
                "amount_micros",
            ));
        }
        if amount == 0 {
            return Err(refuse(
                "campaignBudgetError",
                "MONEY_AMOUNT_LESS_THAN_CURRENCY_MINIMUM_CPC",
                "A money amount was less than the minimum CPC for currency.",
                "amount_micros",
            ));
        }
        if amount % minimum_unit_micros(currency) != 0 {
            return Err(refuse(
                "campaignBudgetError",
                "NON_MULTIPLE_OF_MINIMUM_CURRENCY_UNIT",
                "A money amount was not a multiple of a minimum unit.",
                "amount_micros",
            ));
        }
        change.amount_micros = Some(amount);
    }
    if mask.iter().any(|p| p == "name") {
        let name = name.filter(|n| !n.trim().is_empty());
        let Some(name) = name else {
            return Err(refuse(
                "fieldError",
                "REQUIRED",
                "The required field was not present.",
                "name",
            ));
        };
        if state
            .budgets
            .iter()
            .any(|b| b.customer == customer && b.id != budget.id && b.name == name)
        {
            return Err(refuse(
                "campaignBudgetError",
                "DUPLICATE_NAME",
                "A campaign budget with this name already exists.",
                "name",
            ));
        }
        change.name = Some(name);
    }
    Ok(change)
}

fn mutate_customer(state: &mut FakeState, call: &Call, customer: i64, body: &[u8]) -> Response {
    let map = match message(
        body,
        &[
            "customer_id",
            "operation",
            "validate_only",
            "response_content_type",
        ],
        "",
    ) {
        Ok(map) => map,
        Err(response) => return response,
    };
    let header = (|| -> Result<_, Response> {
        Ok((
            bool_member(&map, "validate_only", "")?.unwrap_or(false),
            response_content_type(&map)?,
        ))
    })();
    let (validate_only, mutable_resource) = match header {
        Ok(header) => header,
        Err(response) => return response,
    };
    let operation = match member(&map, "operation") {
        Some(Value::Object(operation)) => operation.clone(),
        None | Some(Value::Null) => {
            return call.fail(
                StatusCode::BAD_REQUEST,
                &[AdsError::new(
                    "requestError",
                    "OPERATION_REQUIRED",
                    "Mutate operation should have either create, update, or remove specified.",
                )
                .at(&[("operation", None)])],
            );
        }
        Some(other) => return bad_payload(&format!("Invalid value at 'operation', {other}")),
    };
    if let Err(response) = check_names(&operation, &["update", "update_mask"], "operation") {
        return response;
    }
    let Some(Value::Object(update)) = member(&operation, "update") else {
        return call.fail(
            StatusCode::BAD_REQUEST,
            &[AdsError::new(
                "requestError",
                "OPERATION_REQUIRED",
                "Mutate operation should have either create, update, or remove specified.",
            )
            .at(&[("operation", None)])],
        );
    };
    if let Err(response) = check_names(update, CUSTOMER_FIELDS, "operation.update") {
        return response;
    }
    let parsed = (|| -> Result<_, Response> {
        Ok((
            field_mask(&operation, "operation.")?,
            string_member(update, "resource_name", "operation.update.")?,
            string_member(update, "final_url_suffix", "operation.update.")?,
            bool_member(update, "auto_tagging_enabled", "operation.update.")?,
        ))
    })();
    let (mask, resource_name, suffix, auto_tagging) = match parsed {
        Ok(parsed) => parsed,
        Err(response) => return response,
    };
    let refuse = |kind: &'static str, code: &'static str, message: &str, field: &'static str| {
        call.fail(
            StatusCode::BAD_REQUEST,
            &[AdsError::new(kind, code, message).at(&[
                ("operation", None),
                ("update", None),
                (field, None),
            ])],
        )
    };
    if mask.is_empty() {
        return call.fail(
            StatusCode::BAD_REQUEST,
            &[AdsError::new(
                "fieldMaskError",
                "FIELD_MASK_MISSING",
                "The field mask must be provided for update operations.",
            )
            .at(&[("operation", None), ("update_mask", None)])],
        );
    }
    for path in &mask {
        if !CUSTOMER_FIELDS.contains(&path.as_str()) || path == "resource_name" {
            return call.fail(
                StatusCode::BAD_REQUEST,
                &[AdsError::new(
                    "fieldMaskError",
                    "FIELD_NOT_FOUND",
                    format!("The field mask contained an invalid field: '{path}'."),
                )
                .at(&[("operation", None), ("update_mask", None)])],
            );
        }
        if !matches!(path.as_str(), "final_url_suffix" | "auto_tagging_enabled") {
            return unmodelled(&format!("updates of customer.{path}"));
        }
    }
    let expected = format!("customers/{customer}");
    match resource_name.as_deref() {
        None => {
            return refuse(
                "requestError",
                "RESOURCE_NAME_MISSING",
                "Resource name is required for this request.",
                "resource_name",
            );
        }
        Some(name) if name == expected => {}
        Some(name) if name.strip_prefix("customers/").and_then(digits).is_some() => {
            return refuse(
                "mutateError",
                "RESOURCE_NOT_FOUND",
                "Resource was not found.",
                "resource_name",
            );
        }
        Some(_) => {
            return refuse(
                "requestError",
                "RESOURCE_NAME_MALFORMED",
                "Resource name provided is malformed.",
                "resource_name",
            );
        }
    }
    let sets_suffix = mask.iter().any(|p| p == "final_url_suffix");
    if sets_suffix && let Some(suffix) = suffix.as_deref() {
        if suffix.starts_with('?')
            || suffix.starts_with('&')
            || suffix.contains(char::is_whitespace)
            || suffix.contains('#')
        {
            return refuse(
                "urlFieldError",
                "FINAL_URL_SUFFIX_MALFORMED",
                "The final url suffix cannot begin with '?' or '&' characters and must be a valid query string.",
                "final_url_suffix",
            );
        }
        if suffix.contains("{lpurl") || suffix.contains("{ignore}") {
            return refuse(
                "urlFieldError",
                "INVALID_TAG_IN_FINAL_URL_SUFFIX",
                "The final url suffix cannot contain {lpurl} related or {ignore} tags.",
                "final_url_suffix",
            );
        }
    }
    if validate_only {
        return call.ok(&json!({}));
    }
    let Some(account) = state.customers.iter_mut().find(|c| c.id == customer) else {
        return refuse(
            "mutateError",
            "RESOURCE_NOT_FOUND",
            "Resource was not found.",
            "resource_name",
        );
    };
    if sets_suffix {
        // A field in the mask and absent from the resource is cleared.
        account.final_url_suffix = suffix.filter(|s| !s.is_empty());
    }
    if mask.iter().any(|p| p == "auto_tagging_enabled") {
        account.auto_tagging = auto_tagging.unwrap_or(false);
    }
    let mut result = json!({ "resourceName": expected });
    if mutable_resource {
        let mut resource =
            json!({ "resourceName": expected, "autoTaggingEnabled": account.auto_tagging });
        if let Some(suffix) = &account.final_url_suffix {
            resource["finalUrlSuffix"] = json!(suffix);
        }
        result["customer"] = resource;
    }
    call.ok(&json!({ "result": result }))
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

    #[test]
    fn field_masks_read_either_spelling() {
        assert_eq!(snake("finalUrlSuffix"), "final_url_suffix");
        assert_eq!(snake("final_url_suffix"), "final_url_suffix");
        assert_eq!(snake("amountMicros"), "amount_micros");
    }
}
