//! Google Analytics 4's Admin and Data APIs (v1beta), as Google documents them:
//! - `GET /v1beta/accountSummaries?pageSize&pageToken` (Admin): the token's user's accounts, each
//!   with the properties the user reaches (`{"accountSummaries": [{"name":
//!   "accountSummaries/{a}", "account": "accounts/{a}", "displayName", "propertySummaries":
//!   [{"property": "properties/{p}", "displayName", "propertyType", "parent"}]}],
//!   "nextPageToken"}`), `pageSize` accounts a page (default 50, at most 200), the next page
//!   behind an opaque `nextPageToken` that only the same user may present;
//! - `POST /v1beta/properties/{p}:runReport` (Data): `{dateRanges: [{startDate, endDate}]
//!   (YYYY-MM-DD, `today`, `yesterday` or `NdaysAgo`), dimensions: [{name}], metrics: [{name}],
//!   dimensionFilter: {filter: {fieldName, inListFilter: {values, caseSensitive} | stringFilter:
//!   {value, matchType}}}, offset, limit (default 10,000, at most 250,000)}` answering
//!   `{"dimensionHeaders", "metricHeaders": [{name, "type": "TYPE_INTEGER"}], "rows":
//!   [{"dimensionValues": [{value}], "metricValues": [{value}]}], "rowCount", "metadata",
//!   "kind": "analyticsData#runReport"}`: `date` as `YYYYMMDD`, metric values as text, rows whose
//!   metrics are all zero left out, `rows` and `rowCount` absent when there is no row;
//!   `rowCount` counts the whole report whatever `offset` and `limit` cut.
//!
//! This fake answers the dimensions `date`, `sessionSource`, `sessionMedium`, `landingPage`
//! and `eventName`, and the metrics `sessions`, `engagedSessions` and `eventCount`, from the
//! figures a test seeds (sessions by day, source and medium; sessions by day and landing page;
//! event counts by day and name); the three tables are apart, so a report mixing them is
//! refused. Every call needs `Authorization: Bearer` with an access token the fake issued whose
//! grant has `analytics.readonly` (or `analytics`); a property belongs to the users given access
//! to it. Errors are `{"error": {"code", "message", "status"}}`.

// A refusal here is the whole HTTP answer, carried up as the `Err` of the helpers that build it.
#![allow(clippy::result_large_err)]

use std::collections::{BTreeMap, HashMap};

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::Response;
use serde_json::{Value, json};

use super::errors::{front_end, json_response, missing_credential};
use super::oauth::{Refused, check_user_access};
use super::state::{Fail, State as FakeState};
use super::{Day, FakeGoogle, Shared, lock};

/// The read-only scope, and the full one (which reads too).
pub const ANALYTICS_READONLY_SCOPE: &str = "https://www.googleapis.com/auth/analytics.readonly";
pub const ANALYTICS_SCOPE: &str = "https://www.googleapis.com/auth/analytics";

const DEFAULT_SUMMARIES_PAGE_SIZE: usize = 50;
const MAX_SUMMARIES_PAGE_SIZE: usize = 200;
const DEFAULT_LIMIT: u64 = 10_000;
const MAX_LIMIT: u64 = 250_000;

/// One user's access to one property.
#[derive(Debug, Clone)]
struct PropertyAccess {
    user: String,
    account_id: String,
    account_name: String,
    property_id: String,
    display_name: String,
}

/// What the fake's Google Analytics holds.
#[derive(Debug)]
pub(crate) struct Analytics {
    access: Vec<PropertyAccess>,
    /// (property, day, source, medium) to (sessions, engaged sessions).
    sessions: BTreeMap<(String, Day, String, String), (u64, u64)>,
    /// (property, day, landing page) to sessions.
    landing: BTreeMap<(String, Day, String), u64>,
    /// (property, day, event name) to its count.
    events: BTreeMap<(String, Day, String), u64>,
    /// Issued `nextPageToken`s: the user and the account index the page starts at.
    page_tokens: HashMap<String, (String, usize)>,
    /// Rows one `runReport` answers at most, below the request's `limit` (Google's is the
    /// limit; a test lowers it to see the connector follow `rowCount`).
    pub report_page_cap: usize,
    /// Accounts one `accountSummaries.list` page holds at most, below `pageSize` (a test lowers
    /// it to see the connector follow `nextPageToken`).
    pub summaries_page_cap: usize,
}

impl Default for Analytics {
    fn default() -> Self {
        Self {
            access: Vec::new(),
            sessions: BTreeMap::new(),
            landing: BTreeMap::new(),
            events: BTreeMap::new(),
            page_tokens: HashMap::new(),
            report_page_cap: usize::MAX,
            summaries_page_cap: usize::MAX,
        }
    }
}

fn day(text: &str, what: &str) -> Day {
    Day::parse(text).unwrap_or_else(|| panic!("{what} takes a YYYY-MM-DD day, not {text:?}"))
}

impl FakeGoogle {
    /// The GA4 origin (`https://analyticsadmin.googleapis.com` and
    /// `https://analyticsdata.googleapis.com`; here one server): calls go to
    /// `{analytics_base_url}/v1beta/...`.
    pub fn analytics_base_url(&self) -> String {
        self.base().to_owned()
    }

    /// Gives Google user `user` (Viewer) access to property `property_id` of account
    /// `account_id`.
    pub fn add_analytics_property(
        &self,
        user: &str,
        account_id: &str,
        account_name: &str,
        property_id: &str,
        display_name: &str,
    ) {
        let mut state = self.state();
        let analytics = &mut state.analytics;
        analytics
            .access
            .retain(|a| !(a.user == user && a.property_id == property_id));
        analytics.access.push(PropertyAccess {
            user: user.to_owned(),
            account_id: account_id.to_owned(),
            account_name: account_name.to_owned(),
            property_id: property_id.to_owned(),
            display_name: display_name.to_owned(),
        });
    }

    /// Google user `user` loses access to `property_id`.
    pub fn remove_analytics_property(&self, user: &str, property_id: &str) {
        self.state()
            .analytics
            .access
            .retain(|a| !(a.user == user && a.property_id == property_id));
    }

    /// One day's sessions and engaged sessions of `property_id` from `source` / `medium`; a
    /// later call for the same key replaces them, as GA4 restates recent days.
    pub fn add_analytics_sessions(
        &self,
        property_id: &str,
        on: &str,
        source: &str,
        medium: &str,
        sessions: u64,
        engaged: u64,
    ) {
        let key = (
            property_id.to_owned(),
            day(on, "add_analytics_sessions"),
            source.to_owned(),
            medium.to_owned(),
        );
        self.state()
            .analytics
            .sessions
            .insert(key, (sessions, engaged));
    }

    /// One day's sessions of `property_id` that began on `landing_page` (as GA4 spells it:
    /// a path, possibly with a query, or `(not set)`).
    pub fn add_analytics_landing(
        &self,
        property_id: &str,
        on: &str,
        landing_page: &str,
        sessions: u64,
    ) {
        let key = (
            property_id.to_owned(),
            day(on, "add_analytics_landing"),
            landing_page.to_owned(),
        );
        self.state().analytics.landing.insert(key, sessions);
    }

    /// One day's count of event `name` on `property_id`.
    pub fn add_analytics_events(&self, property_id: &str, on: &str, name: &str, count: u64) {
        let key = (
            property_id.to_owned(),
            day(on, "add_analytics_events"),
            name.to_owned(),
        );
        self.state().analytics.events.insert(key, count);
    }

    /// At most `accounts` accounts per `accountSummaries.list` page, whatever its `pageSize`.
    pub fn set_analytics_summaries_page_cap(&self, accounts: usize) {
        self.state().analytics.summaries_page_cap = accounts.max(1);
    }

    /// At most `rows` rows per `runReport` answer, whatever the request's `limit`.
    pub fn set_analytics_report_page_cap(&self, rows: usize) {
        self.state().analytics.report_page_cap = rows.max(1);
    }
}

fn error(status: StatusCode, message: &str) -> Response {
    front_end(status, message, Vec::new())
}

fn bad_request(message: &str) -> Response {
    error(StatusCode::BAD_REQUEST, message)
}

fn not_found(path: &str) -> Response {
    error(
        StatusCode::NOT_FOUND,
        &format!("The requested URL {path} was not found on this server."),
    )
}

fn invalid_credentials() -> Response {
    error(
        StatusCode::UNAUTHORIZED,
        "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
    )
}

/// Every `/v1beta/...` path lands here.
pub(crate) async fn dispatch(
    State(shared): State<Shared>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let path = uri.path();
    let mut state = lock(&shared);
    let user = match authenticate(&state, &headers, path) {
        Ok(user) => user,
        Err(response) => return response,
    };
    if path == "/v1beta/accountSummaries" && method == Method::GET {
        return account_summaries(&mut state, &user, uri.query().unwrap_or(""));
    }
    if let Some(property) = path
        .strip_prefix("/v1beta/properties/")
        .and_then(|rest| rest.strip_suffix(":runReport"))
        && method == Method::POST
    {
        if property.is_empty() || !property.bytes().all(|b| b.is_ascii_digit()) {
            return bad_request(&format!(
                "Invalid property ID: {property}. A numeric Property ID is required."
            ));
        }
        let reaches = state
            .analytics
            .access
            .iter()
            .any(|a| a.user == user && a.property_id == property);
        if !reaches {
            return error(
                StatusCode::FORBIDDEN,
                "User does not have sufficient permissions for this property. To learn more about Property ID, see https://developers.google.com/analytics/devguides/reporting/data/v1/property-id.",
            );
        }
        let today = state.today();
        return run_report(&state.analytics, property, today, &body);
    }
    not_found(path)
}

/// The token's user; 401 without a live token, 403 without an analytics scope.
fn authenticate(state: &FakeState, headers: &HeaderMap, path: &str) -> Result<String, Response> {
    let Some(authorization) = headers
        .get("authorization")
        .and_then(|value| value.to_str().ok())
    else {
        return Err(missing_credential());
    };
    let token = match authorization.trim().split_once(' ') {
        Some((scheme, token))
            if scheme.eq_ignore_ascii_case("Bearer") && !token.trim().is_empty() =>
        {
            token.trim()
        }
        _ => return Err(invalid_credentials()),
    };
    let (user, scopes) = check_user_access(state, token).map_err(|refused| match refused {
        Refused::Invalid | Refused::Expired | Refused::Revoked => invalid_credentials(),
    })?;
    if !scopes
        .iter()
        .any(|scope| scope == ANALYTICS_READONLY_SCOPE || scope == ANALYTICS_SCOPE)
    {
        let service = if path.contains(":runReport") {
            "analyticsdata.googleapis.com"
        } else {
            "analyticsadmin.googleapis.com"
        };
        return Err(front_end(
            StatusCode::FORBIDDEN,
            "Request had insufficient authentication scopes.",
            vec![json!({
                "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                "reason": "ACCESS_TOKEN_SCOPE_INSUFFICIENT",
                "domain": "googleapis.com",
                "metadata": { "service": service },
            })],
        ));
    }
    Ok(user)
}

/// One page of the user's account summaries.
fn account_summaries(state: &mut FakeState, user: &str, query: &str) -> Response {
    let pairs: Vec<(String, String)> = reqwest::Url::parse(&format!("http://fake/?{query}"))
        .map(|url| url.query_pairs().into_owned().collect())
        .unwrap_or_default();
    let param = |name: &str| {
        pairs
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.clone())
    };
    let page_size = match param("pageSize") {
        None => DEFAULT_SUMMARIES_PAGE_SIZE,
        Some(text) => match text.parse::<i64>() {
            Ok(size) if size < 0 => return bad_request("page_size must be non-negative"),
            Ok(0) => DEFAULT_SUMMARIES_PAGE_SIZE,
            Ok(size) => usize::try_from(size)
                .unwrap_or(MAX_SUMMARIES_PAGE_SIZE)
                .min(MAX_SUMMARIES_PAGE_SIZE),
            Err(_) => {
                return bad_request(&format!(
                    "Invalid value at 'page_size' (TYPE_INT32), \"{text}\""
                ));
            }
        },
    };
    let page_size = page_size.min(state.analytics.summaries_page_cap);
    let start = match param("pageToken").filter(|token| !token.is_empty()) {
        None => 0,
        Some(token) => match state.analytics.page_tokens.get(&token) {
            Some((owner, at)) if owner == user => *at,
            _ => return bad_request("The page token is invalid."),
        },
    };
    // The user's accounts, in account id order, each with its properties.
    let mut accounts: BTreeMap<&str, (&str, Vec<&PropertyAccess>)> = BTreeMap::new();
    for access in state.analytics.access.iter().filter(|a| a.user == user) {
        accounts
            .entry(access.account_id.as_str())
            .or_insert((access.account_name.as_str(), Vec::new()))
            .1
            .push(access);
    }
    let total = accounts.len();
    let summaries: Vec<Value> = accounts
        .iter()
        .skip(start)
        .take(page_size)
        .map(|(id, (name, properties))| {
            let properties: Vec<Value> = properties
                .iter()
                .map(|p| {
                    json!({
                        "property": format!("properties/{}", p.property_id),
                        "displayName": p.display_name,
                        "propertyType": "PROPERTY_TYPE_ORDINARY",
                        "parent": format!("accounts/{id}"),
                    })
                })
                .collect();
            json!({
                "name": format!("accountSummaries/{id}"),
                "account": format!("accounts/{id}"),
                "displayName": name,
                "propertySummaries": properties,
            })
        })
        .collect();
    let mut answer = json!({});
    if !summaries.is_empty() {
        answer["accountSummaries"] = Value::Array(summaries);
    }
    let next = start + page_size;
    if next < total {
        let token = state.mint("ga-page-");
        state
            .analytics
            .page_tokens
            .insert(token.clone(), (user.to_owned(), next));
        answer["nextPageToken"] = json!(token);
    }
    json_response(StatusCode::OK, &answer)
}

/// A `startDate`/`endDate`: a day, `today`, `yesterday` or `NdaysAgo`.
fn report_day(text: &str, today: Day) -> Option<Day> {
    match text {
        "today" => Some(today),
        "yesterday" => Some(today.plus(-1)),
        _ => match text.strip_suffix("daysAgo") {
            Some(count) => count.parse::<i32>().ok().map(|n| today.plus(-n)),
            None => Day::parse(text),
        },
    }
}

/// Which seeded table a report reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Table {
    Sessions,
    Landing,
    Events,
}

/// A row of the seeded table: its dimension values by name, its metric values by name.
struct Fact {
    dimensions: Vec<(&'static str, String)>,
    metrics: Vec<(&'static str, u64)>,
}

fn facts(analytics: &Analytics, table: Table, property: &str, first: Day, last: Day) -> Vec<Fact> {
    let within = |p: &str, d: Day| p == property && d >= first && d <= last;
    match table {
        Table::Sessions => analytics
            .sessions
            .iter()
            .filter(|((p, d, _, _), _)| within(p, *d))
            .map(|((_, d, source, medium), (sessions, engaged))| Fact {
                dimensions: vec![
                    ("date", d.to_string().replace('-', "")),
                    ("sessionSource", source.clone()),
                    ("sessionMedium", medium.clone()),
                ],
                metrics: vec![("sessions", *sessions), ("engagedSessions", *engaged)],
            })
            .collect(),
        Table::Landing => analytics
            .landing
            .iter()
            .filter(|((p, d, _), _)| within(p, *d))
            .map(|((_, d, page), sessions)| Fact {
                dimensions: vec![
                    ("date", d.to_string().replace('-', "")),
                    ("landingPage", page.clone()),
                ],
                metrics: vec![("sessions", *sessions)],
            })
            .collect(),
        Table::Events => analytics
            .events
            .iter()
            .filter(|((p, d, _), _)| within(p, *d))
            .map(|((_, d, name), count)| Fact {
                dimensions: vec![
                    ("date", d.to_string().replace('-', "")),
                    ("eventName", name.clone()),
                ],
                metrics: vec![("eventCount", *count)],
            })
            .collect(),
    }
}

/// The table that can answer `dimensions` and `metrics`, if one can.
fn table_for(dimensions: &[String], metrics: &[String]) -> Result<Table, String> {
    let known_dimension = [
        "date",
        "sessionSource",
        "sessionMedium",
        "landingPage",
        "eventName",
    ];
    let known_metric = ["sessions", "engagedSessions", "eventCount"];
    if let Some(unknown) = dimensions
        .iter()
        .find(|d| !known_dimension.contains(&d.as_str()))
    {
        return Err(format!(
            "Field {unknown} is not a valid dimension. For a list of valid dimensions and metrics, see https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema"
        ));
    }
    if let Some(unknown) = metrics.iter().find(|m| !known_metric.contains(&m.as_str())) {
        return Err(format!(
            "Field {unknown} is not a valid metric. For a list of valid dimensions and metrics, see https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema"
        ));
    }
    let has = |name: &str| dimensions.iter().any(|d| d == name);
    let events = metrics.iter().any(|m| m == "eventCount") || has("eventName");
    let landing = has("landingPage");
    let sources = has("sessionSource") || has("sessionMedium");
    let table = match (events, landing, sources) {
        (true, false, false) => Table::Events,
        (false, true, false) => Table::Landing,
        (false, false, _) => Table::Sessions,
        _ => return Err("This fake answers sessions by date, source and medium, sessions by date and landing page, or event counts by date and name; not a mix of them".to_owned()),
    };
    if table == Table::Events && metrics.iter().any(|m| m != "eventCount") {
        return Err("This fake answers eventName with eventCount only".to_owned());
    }
    if table != Table::Events && metrics.iter().any(|m| m == "eventCount") {
        return Err("This fake answers eventCount by date and eventName only".to_owned());
    }
    Ok(table)
}

/// The names of a `[{name}]` list.
fn names(request: &Value, field: &str) -> Result<Vec<String>, String> {
    match request.get(field) {
        None => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| {
                item.get("name")
                    .and_then(Value::as_str)
                    .map(str::to_owned)
                    .ok_or_else(|| format!("{field} must be a list of {{name}}"))
            })
            .collect(),
        Some(_) => Err(format!("{field} must be a list")),
    }
}

/// An int64 field, as JSON carries it (a number or a string).
fn int64(request: &Value, field: &str, default: u64) -> Result<u64, String> {
    match request.get(field) {
        None | Some(Value::Null) => Ok(default),
        Some(Value::Number(number)) => number
            .as_u64()
            .ok_or_else(|| format!("{field} must be non-negative")),
        Some(Value::String(text)) => text
            .parse::<i64>()
            .ok()
            .and_then(|n| u64::try_from(n).ok())
            .ok_or_else(|| format!("Invalid value at '{field}' (TYPE_INT64), \"{text}\"")),
        Some(other) => Err(format!("Invalid value at '{field}': {other}")),
    }
}

/// A `dimensionFilter` as a test on one row's dimension values.
type RowFilter = Box<dyn Fn(&[(&'static str, String)]) -> bool>;

fn dimension_filter(request: &Value, dimensions: &[String]) -> Result<RowFilter, String> {
    let Some(expression) = request.get("dimensionFilter") else {
        return Ok(Box::new(|_| true));
    };
    let filter = expression
        .get("filter")
        .ok_or("This fake answers a dimensionFilter of one filter")?;
    let field = filter
        .get("fieldName")
        .and_then(Value::as_str)
        .ok_or("filter.fieldName is required")?
        .to_owned();
    if !dimensions.contains(&field) {
        return Err(format!(
            "Field {field} in the dimension filter is not a dimension of this request"
        ));
    }
    if let Some(list) = filter.get("inListFilter") {
        let values: Vec<String> = list
            .get("values")
            .and_then(Value::as_array)
            .ok_or("inListFilter.values is required")?
            .iter()
            .map(|v| {
                v.as_str()
                    .map(str::to_owned)
                    .ok_or("inListFilter.values are strings")
            })
            .collect::<Result<_, _>>()?;
        if values.is_empty() {
            return Err("inListFilter.values must not be empty".to_owned());
        }
        let case_sensitive = list
            .get("caseSensitive")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        return Ok(Box::new(move |row| {
            row.iter().any(|(name, value)| {
                *name == field
                    && values.iter().any(|v| {
                        if case_sensitive {
                            v == value
                        } else {
                            v.eq_ignore_ascii_case(value)
                        }
                    })
            })
        }));
    }
    if let Some(string) = filter.get("stringFilter") {
        let wanted = string
            .get("value")
            .and_then(Value::as_str)
            .ok_or("stringFilter.value is required")?
            .to_owned();
        let match_type = string
            .get("matchType")
            .and_then(Value::as_str)
            .unwrap_or("EXACT");
        if match_type != "EXACT" {
            return Err("This fake answers stringFilter matchType EXACT only".to_owned());
        }
        return Ok(Box::new(move |row| {
            row.iter()
                .any(|(name, value)| *name == field && *value == wanted)
        }));
    }
    Err("This fake answers inListFilter and stringFilter".to_owned())
}

/// `runReport` over the property's seeded figures.
fn run_report(analytics: &Analytics, property: &str, today: Day, body: &[u8]) -> Response {
    match report(analytics, property, today, body) {
        Ok(answer) => json_response(StatusCode::OK, &answer),
        Err(message) => bad_request(&message),
    }
}

fn report(analytics: &Analytics, property: &str, today: Day, body: &[u8]) -> Result<Value, String> {
    let request: Value =
        serde_json::from_slice(body).map_err(|_| "Invalid JSON payload received.".to_owned())?;
    let ranges = request
        .get("dateRanges")
        .and_then(Value::as_array)
        .filter(|ranges| !ranges.is_empty())
        .ok_or("dateRanges is required")?;
    let [range] = ranges.as_slice() else {
        return Err("This fake answers one date range".to_owned());
    };
    let bound = |field: &str| -> Result<Day, String> {
        let text = range
            .get(field)
            .and_then(Value::as_str)
            .ok_or_else(|| format!("dateRanges[0].{field} is required"))?;
        report_day(text, today).ok_or_else(|| format!("Invalid {field}: {text}"))
    };
    let (first, last) = (bound("startDate")?, bound("endDate")?);
    if last < first {
        return Err("The dateRange endDate must not be before startDate.".to_owned());
    }
    let dimensions = names(&request, "dimensions")?;
    let metrics = names(&request, "metrics")?;
    if metrics.is_empty() {
        return Err("At least one metric is required.".to_owned());
    }
    let table = table_for(&dimensions, &metrics)?;
    let keep = dimension_filter(&request, &dimensions)?;
    let offset = int64(&request, "offset", 0)?;
    let limit = int64(&request, "limit", DEFAULT_LIMIT)?;
    let limit = if limit == 0 { DEFAULT_LIMIT } else { limit };
    if limit > MAX_LIMIT {
        return Err(format!("limit must not exceed {MAX_LIMIT}, not {limit}."));
    }
    // Sums per combination of the asked dimensions.
    let mut grouped: BTreeMap<Vec<String>, Vec<u64>> = BTreeMap::new();
    for fact in facts(analytics, table, property, first, last) {
        if !keep(&fact.dimensions) {
            continue;
        }
        let key: Vec<String> = dimensions
            .iter()
            .map(|name| {
                fact.dimensions
                    .iter()
                    .find(|(n, _)| n == name)
                    .map(|(_, v)| v.clone())
                    .unwrap_or_default()
            })
            .collect();
        let sums = grouped.entry(key).or_insert_with(|| vec![0; metrics.len()]);
        for (at, metric) in metrics.iter().enumerate() {
            sums[at] += fact
                .metrics
                .iter()
                .find(|(n, _)| n == metric)
                .map_or(0, |(_, v)| *v);
        }
    }
    // Rows of all-zero metrics are left out; the rest by the first metric, most first.
    let mut rows: Vec<(Vec<String>, Vec<u64>)> = grouped
        .into_iter()
        .filter(|(_, sums)| sums.iter().any(|v| *v != 0))
        .collect();
    rows.sort_by(|a, b| b.1[0].cmp(&a.1[0]).then_with(|| a.0.cmp(&b.0)));
    let row_count = rows.len();
    let take = usize::try_from(limit)
        .unwrap_or(usize::MAX)
        .min(analytics.report_page_cap);
    let page: Vec<Value> = rows
        .into_iter()
        .skip(usize::try_from(offset).unwrap_or(usize::MAX))
        .take(take)
        .map(|(keys, sums)| {
            json!({
                "dimensionValues": keys.iter().map(|v| json!({ "value": v })).collect::<Vec<_>>(),
                "metricValues": sums.iter().map(|v| json!({ "value": v.to_string() })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let mut answer = json!({
        "dimensionHeaders": dimensions.iter().map(|n| json!({ "name": n })).collect::<Vec<_>>(),
        "metricHeaders": metrics.iter().map(|n| json!({ "name": n, "type": "TYPE_INTEGER" })).collect::<Vec<_>>(),
        "metadata": { "currencyCode": "USD", "timeZone": "Etc/UTC" },
        "kind": "analyticsData#runReport",
    });
    if row_count > 0 {
        answer["rowCount"] = json!(row_count);
    }
    if !page.is_empty() {
        answer["rows"] = Value::Array(page);
    }
    Ok(answer)
}

/// A scheduled failure on a GA4 path, in the APIs' error shape.
pub(crate) fn scheduled(fail: Fail) -> Response {
    match fail {
        Fail::Quota | Fail::QuotaRetryAfter(_) => error(
            StatusCode::TOO_MANY_REQUESTS,
            "Exhausted property tokens for a project per hour. These quota tokens will return in under an hour.",
        ),
        Fail::Internal => error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "Internal error encountered.",
        ),
        Fail::Transient => error(
            StatusCode::SERVICE_UNAVAILABLE,
            "The service is currently unavailable.",
        ),
        Fail::Unauthenticated => invalid_credentials(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_dates_count_back_from_today() {
        let today = Day::parse("2026-11-21").unwrap();
        assert_eq!(report_day("today", today), Some(today));
        assert_eq!(report_day("yesterday", today), Day::parse("2026-11-20"));
        assert_eq!(report_day("30daysAgo", today), Day::parse("2026-10-22"));
        assert_eq!(report_day("2026-01-02", today), Day::parse("2026-01-02"));
        assert_eq!(report_day("soon", today), None);
    }

    #[test]
    fn a_report_mixing_tables_is_refused() {
        let s = |list: &[&str]| list.iter().map(|x| (*x).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            table_for(&s(&["date", "sessionSource"]), &s(&["sessions"])),
            Ok(Table::Sessions)
        );
        assert_eq!(
            table_for(&s(&["date", "eventName"]), &s(&["eventCount"])),
            Ok(Table::Events)
        );
        assert!(table_for(&s(&["landingPage", "eventName"]), &s(&["sessions"])).is_err());
        assert!(table_for(&s(&["city"]), &s(&["sessions"])).is_err());
    }
}
