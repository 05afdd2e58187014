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

use std::collections::BTreeMap;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::Response;
use serde_json::{Map, Value, json};

use super::errors::{front_end, json_response, missing_credential};
use super::oauth::{Refused, check_user_access};
use super::state::{Fail, State as FakeState};
use super::{Day, Shared, lock};

/// The read-only scope, and the full one (which reads too).
pub const WEBMASTERS_READONLY_SCOPE: &str = "https://www.googleapis.com/auth/webmasters.readonly";
pub const WEBMASTERS_SCOPE: &str = "https://www.googleapis.com/auth/webmasters";

/// Google's largest `rowLimit`.
const MAX_ROW_LIMIT: u64 = 25_000;
/// `rowLimit` when the request names none.
const DEFAULT_ROW_LIMIT: u64 = 1_000;

/// One site in one user's Search Console.
#[derive(Debug, Clone)]
pub(crate) struct SiteAccess {
    pub user: String,
    pub site_url: String,
    pub permission_level: String,
}

/// One day's figures of one query on a site.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct QueryFigures {
    pub clicks: f64,
    pub impressions: f64,
    /// Average position (1 is the top).
    pub position: f64,
}

impl QueryFigures {
    pub fn new(clicks: f64, impressions: f64, position: f64) -> Self {
        Self {
            clicks,
            impressions,
            position,
        }
    }
}

/// What the fake's Search Console holds.
#[derive(Debug, Default)]
pub(crate) struct Console {
    pub sites: Vec<SiteAccess>,
    /// (site, day, query) to its figures.
    pub rows: BTreeMap<(String, Day, String), QueryFigures>,
}

impl Console {
    /// `user`'s access to `site_url` (a second call replaces the level).
    pub(crate) fn add_site(&mut self, user: &str, site_url: &str, permission_level: &str) {
        self.sites
            .retain(|site| !(site.user == user && site.site_url == site_url));
        self.sites.push(SiteAccess {
            user: user.to_owned(),
            site_url: site_url.to_owned(),
            permission_level: permission_level.to_owned(),
        });
    }

    fn access(&self, user: &str, site_url: &str) -> Option<&SiteAccess> {
        self.sites
            .iter()
            .find(|site| site.user == user && site.site_url == site_url)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Endpoint {
    List,
    Get,
    Query,
}

/// `(endpoint, site as decoded)` of a webmasters path.
fn route(method: &Method, path: &str) -> Option<(Endpoint, Option<String>)> {
    let rest = path.strip_prefix("/webmasters/v3/sites")?;
    if rest.is_empty() {
        return (method == Method::GET).then_some((Endpoint::List, None));
    }
    let rest = rest.strip_prefix('/')?;
    let (segment, endpoint) = match rest.strip_suffix("/searchAnalytics/query") {
        Some(segment) => (segment, Endpoint::Query),
        None => (rest, Endpoint::Get),
    };
    let wanted = if endpoint == Endpoint::Query {
        Method::POST
    } else {
        Method::GET
    };
    if *method != wanted || segment.is_empty() || segment.contains('/') {
        return None;
    }
    Some((endpoint, Some(percent_decode(segment)?)))
}

/// Strict percent-decoding of one path segment (`+` stays a plus, as in paths).
fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b'%' {
            let hex = text.get(at + 1..at + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            at += 3;
        } else {
            out.push(bytes[at]);
            at += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Google's error in the API's shape.
fn error(status: StatusCode, message: &str) -> Response {
    front_end(status, message, Vec::new())
}

fn not_found(path: &str) -> Response {
    error(
        StatusCode::NOT_FOUND,
        &format!("The requested URL {path} was not found on this server."),
    )
}

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
        .any(|scope| scope == WEBMASTERS_READONLY_SCOPE || scope == WEBMASTERS_SCOPE)
    {
        return Err(front_end(
            StatusCode::FORBIDDEN,
            "Request had insufficient authentication scopes.",
            vec![json!({
                "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                "reason": "ACCESS_TOKEN_SCOPE_INSUFFICIENT",
                "domain": "googleapis.com",
                "metadata": { "service": "searchconsole.googleapis.com" },
            })],
        ));
    }
    Ok(user)
}

fn invalid_credentials() -> Response {
    error(
        StatusCode::UNAUTHORIZED,
        "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
    )
}

fn list(console: &super::search_console::Console, user: &str) -> Response {
    let entries: Vec<Value> = console
        .sites
        .iter()
        .filter(|site| site.user == user)
        .map(|site| json!({ "siteUrl": site.site_url, "permissionLevel": site.permission_level }))
        .collect();
    let body = if entries.is_empty() {
        json!({})
    } else {
        json!({ "siteEntry": entries })
    };
    json_response(StatusCode::OK, &body)
}

/// The user's access to `site`; 403 as Google answers for a site not theirs (or, for data, one
/// they are unverified on).
fn readable<'a>(
    console: &'a Console,
    user: &str,
    site: &str,
    unverified_ok: bool,
) -> Result<&'a SiteAccess, Response> {
    console
        .access(user, site)
        .filter(|access| unverified_ok || access.permission_level != "siteUnverifiedUser")
        .ok_or_else(|| {
            error(
                StatusCode::FORBIDDEN,
                &format!(
                    "User does not have sufficient permission for site '{site}'. See also: https://support.google.com/webmasters/answer/2451999."
                ),
            )
        })
}

fn bad_request(message: &str) -> Response {
    error(StatusCode::BAD_REQUEST, message)
}

/// `searchAnalytics.query` over the site's rows.
fn query(console: &Console, site: &str, body: &[u8]) -> Response {
    let Ok(Value::Object(request)) = serde_json::from_slice::<Value>(body) else {
        return bad_request("Invalid JSON payload received.");
    };
    let day = |name: &str| -> Result<Day, Response> {
        let text = request
            .get(name)
            .and_then(Value::as_str)
            .ok_or_else(|| bad_request(&format!("Missing required field: {name}")))?;
        Day::parse(text).ok_or_else(|| bad_request(&format!("Invalid {name}: {text}")))
    };
    let (first, last) = match (day("startDate"), day("endDate")) {
        (Ok(first), Ok(last)) => (first, last),
        (Err(response), _) | (_, Err(response)) => return response,
    };
    if last < first {
        return bad_request("endDate must not be before startDate.");
    }
    let dimensions: Vec<&str> = match request.get("dimensions") {
        None => Vec::new(),
        Some(Value::Array(names)) => {
            let mut out = Vec::new();
            for name in names {
                match name.as_str() {
                    Some(name @ ("date" | "query")) if !out.contains(&name) => out.push(name),
                    _ => {
                        return bad_request(&format!(
                            "Invalid dimension {name} (this fake answers date and query)"
                        ));
                    }
                }
            }
            out
        }
        Some(_) => return bad_request("dimensions must be a list."),
    };
    let number = |name: &str, default: u64| -> Result<u64, Response> {
        match request.get(name) {
            None => Ok(default),
            Some(value) => value
                .as_u64()
                .ok_or_else(|| bad_request(&format!("Invalid {name}: {value}"))),
        }
    };
    let (row_limit, start_row) =
        match (number("rowLimit", DEFAULT_ROW_LIMIT), number("startRow", 0)) {
            (Ok(limit), Ok(start)) => (limit, start),
            (Err(response), _) | (_, Err(response)) => return response,
        };
    if !(1..=MAX_ROW_LIMIT).contains(&row_limit) {
        return bad_request(&format!(
            "rowLimit must be between 1 and {MAX_ROW_LIMIT}, not {row_limit}."
        ));
    }
    // Rows grouped by the keys asked, each with its sums and an impression-weighted position.
    let mut grouped: BTreeMap<Vec<String>, (f64, f64, f64)> = BTreeMap::new();
    for ((row_site, day, query), figures) in &console.rows {
        if row_site != site || *day < first || *day > last {
            continue;
        }
        let keys: Vec<String> = dimensions
            .iter()
            .map(|name| match *name {
                "date" => day.to_string(),
                _ => query.clone(),
            })
            .collect();
        let sums = grouped.entry(keys).or_default();
        sums.0 += figures.clicks;
        sums.1 += figures.impressions;
        sums.2 += figures.position * figures.impressions;
    }
    let mut rows: Vec<(Vec<String>, (f64, f64, f64))> = grouped.into_iter().collect();
    rows.sort_by(|a, b| b.1.0.total_cmp(&a.1.0).then_with(|| a.0.cmp(&b.0)));
    let page: Vec<Value> = rows
        .into_iter()
        .skip(usize::try_from(start_row).unwrap_or(usize::MAX))
        .take(usize::try_from(row_limit).unwrap_or(usize::MAX))
        .map(|(keys, (clicks, impressions, weighted))| {
            let mut row = Map::new();
            if !keys.is_empty() {
                row.insert("keys".into(), json!(keys));
            }
            row.insert("clicks".into(), json!(clicks));
            row.insert("impressions".into(), json!(impressions));
            let ctr = if impressions > 0.0 {
                clicks / impressions
            } else {
                0.0
            };
            let position = if impressions > 0.0 {
                weighted / impressions
            } else {
                0.0
            };
            row.insert("ctr".into(), json!(ctr));
            row.insert("position".into(), json!(position));
            Value::Object(row)
        })
        .collect();
    let mut answer = json!({ "responseAggregationType": "byProperty" });
    if !page.is_empty() {
        answer["rows"] = Value::Array(page);
    }
    json_response(StatusCode::OK, &answer)
}

/// A scheduled failure on a webmasters path, in the API's error shape.
pub(crate) fn scheduled(fail: Fail) -> Response {
    match fail {
        Fail::Quota | Fail::QuotaRetryAfter(_) => error(
            StatusCode::TOO_MANY_REQUESTS,
            "Search Analytics load quota exceeded.",
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
    fn paths_name_the_endpoint_and_the_decoded_site() {
        assert_eq!(
            route(&Method::GET, "/webmasters/v3/sites"),
            Some((Endpoint::List, None))
        );
        assert_eq!(
            route(
                &Method::GET,
                "/webmasters/v3/sites/https%3A%2F%2Fshop.example%2F"
            ),
            Some((Endpoint::Get, Some("https://shop.example/".into())))
        );
        assert_eq!(
            route(
                &Method::POST,
                "/webmasters/v3/sites/sc-domain%3Ashop.example/searchAnalytics/query"
            ),
            Some((Endpoint::Query, Some("sc-domain:shop.example".into())))
        );
        // A site not encoded as one segment is not a route.
        assert_eq!(
            route(&Method::GET, "/webmasters/v3/sites/https://shop.example/"),
            None
        );
        assert_eq!(route(&Method::POST, "/webmasters/v3/sites"), None);
        assert_eq!(percent_decode("%zz"), None);
    }

    fn http() -> reqwest::Client {
        let _ = rustls::crypto::ring::default_provider().install_default();
        reqwest::Client::new()
    }

    async fn call(
        google: &super::super::FakeGoogle,
        token: Option<&str>,
        path: &str,
        body: Option<Value>,
    ) -> (u16, Value) {
        let url = format!("{}{path}", google.search_console_base_url());
        let mut request = match &body {
            Some(body) => http().post(url).json(body),
            None => http().get(url),
        };
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.expect("fake answers");
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    #[tokio::test]
    async fn each_user_reads_their_sites_and_queries_page_by_start_row() {
        let google = super::super::FakeGoogle::spawn().await;
        google.add_search_console_site("a@example.com", "https://a.example/", "siteOwner");
        google.add_search_console_site(
            "a@example.com",
            "sc-domain:x.example",
            "siteUnverifiedUser",
        );
        google.add_search_console_site("b@example.com", "https://b.example/", "siteOwner");
        for (query, clicks) in [("one", 5.0), ("two", 4.0), ("three", 3.0)] {
            google.add_search_console_row(
                "https://a.example/",
                "2026-11-20",
                query,
                QueryFigures::new(clicks, 10.0, 2.0),
            );
        }
        google.add_search_console_row(
            "https://a.example/",
            "2026-11-21",
            "one",
            QueryFigures::new(1.0, 4.0, 3.0),
        );
        google.sign_in_as("a@example.com");
        let (token, _) = super::super::oauth::issue_offline(
            &mut google.state(),
            vec![WEBMASTERS_READONLY_SCOPE.to_owned()],
        );
        let (ads_only, _) = super::super::oauth::issue_offline(
            &mut google.state(),
            vec![super::super::ADWORDS_SCOPE.to_owned()],
        );

        let (status, listed) = call(&google, Some(&token), "/webmasters/v3/sites", None).await;
        assert_eq!(status, 200);
        assert_eq!(
            listed,
            json!({ "siteEntry": [
                { "siteUrl": "https://a.example/", "permissionLevel": "siteOwner" },
                { "siteUrl": "sc-domain:x.example", "permissionLevel": "siteUnverifiedUser" },
            ] })
        );
        let (status, other) = call(
            &google,
            Some(&token),
            "/webmasters/v3/sites/https%3A%2F%2Fb.example%2F",
            None,
        )
        .await;
        assert_eq!(status, 403);
        assert_eq!(other["error"]["status"], "PERMISSION_DENIED");
        assert!(
            other["error"]["message"]
                .as_str()
                .unwrap()
                .contains("https://b.example/")
        );

        let path = "/webmasters/v3/sites/https%3A%2F%2Fa.example%2F/searchAnalytics/query";
        let ask = |start: u64| {
            json!({ "startDate": "2026-11-20", "endDate": "2026-11-21",
                    "dimensions": ["date", "query"], "rowLimit": 3, "startRow": start })
        };
        let (status, first) = call(&google, Some(&token), path, Some(ask(0))).await;
        assert_eq!(status, 200);
        let rows = first["rows"].as_array().unwrap();
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[0]["keys"], json!(["2026-11-20", "one"]));
        assert_eq!(rows[0]["clicks"], json!(5.0));
        assert_eq!(rows[0]["ctr"], json!(0.5));
        let (_, second) = call(&google, Some(&token), path, Some(ask(3))).await;
        assert_eq!(second["rows"].as_array().unwrap().len(), 1);
        let (_, past) = call(&google, Some(&token), path, Some(ask(4))).await;
        assert!(past.get("rows").is_none(), "{past}");

        let (status, refused) = call(&google, Some(&ads_only), path, Some(ask(0))).await;
        assert_eq!(status, 403);
        assert_eq!(
            refused["error"]["message"],
            "Request had insufficient authentication scopes."
        );
        let (status, _) = call(&google, None, "/webmasters/v3/sites", None).await;
        assert_eq!(status, 401);
        let (status, _) = call(&google, Some("ya29.forged"), "/webmasters/v3/sites", None).await;
        assert_eq!(status, 401);
        let mut too_many = ask(0);
        too_many["rowLimit"] = json!(25_001);
        let (status, _) = call(&google, Some(&token), path, Some(too_many)).await;
        assert_eq!(status, 400);
        assert_eq!(google.requests_to("/webmasters/v3/").len(), 9);
    }
}
