//! Graph API errors in the documented shape, built in one place:
//! `{"error": {"message", "type", "code", "error_subcode"?, "is_transient"?, "error_user_title"?,
//! "error_user_msg"?, "fbtrace_id"}}` (Graph API "Handling Errors"). Graph answers them with
//! HTTP 400, except server-side failures (500); OAuth failures (code 190) also carry a
//! `WWW-Authenticate: OAuth "Facebook Platform" "invalid_token" "..."` header. The token
//! endpoint answers in the same shape.
//!
//! Throttling (Graph API "Rate Limits", Marketing API "Rate Limiting"): the Business Use Case
//! limits answer `80000` (ads_insights), `80004` (ads_management), `80001` (pages, Page token),
//! `80002` (instagram) with subcode 2446079 where documented, and an `X-Business-Use-Case-Usage`
//! header `{"<business object id>": [{"type", "call_count", "total_cputime", "total_time",
//! "estimated_time_to_regain_access", "ads_api_access_tier"}]}`; the ad-account limit answers
//! `17` / 2446079 with `X-Ad-Account-Usage` `{"acc_id_util_pct", "reset_time_duration",
//! "ads_api_access_tier"}`; the app limit `4` with `X-App-Usage`.

use axum::http::header::{CONTENT_TYPE, WWW_AUTHENTICATE};
use axum::http::{HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::state::Fail;

pub(crate) const JSON: &str = "application/json; charset=UTF-8";

/// One Graph error, before it gets its `fbtrace_id` (boxed: it travels up as the `Err` of
/// every handler).
#[derive(Debug, Clone)]
pub(crate) struct GraphError(Box<Details>);

#[derive(Debug, Clone)]
pub(crate) struct Details {
    pub status: StatusCode,
    pub message: String,
    pub kind: &'static str,
    pub code: i64,
    pub subcode: Option<i64>,
    pub user_title: Option<String>,
    pub user_msg: Option<String>,
    pub is_transient: Option<bool>,
    pub headers: Vec<(&'static str, String)>,
}

impl std::ops::Deref for GraphError {
    type Target = Details;

    fn deref(&self) -> &Details {
        &self.0
    }
}

pub(crate) type Reply = Result<Value, GraphError>;

impl GraphError {
    /// An `OAuthException` answered with HTTP 400.
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        Self(Box::new(Details {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
            kind: "OAuthException",
            code,
            subcode: None,
            user_title: None,
            user_msg: None,
            is_transient: None,
            headers: Vec::new(),
        }))
    }

    /// A `GraphMethodException` (a request Graph cannot route to an object).
    pub fn method(code: i64, message: impl Into<String>) -> Self {
        let mut error = Self::new(code, message);
        error.0.kind = "GraphMethodException";
        error
    }

    pub fn subcode(mut self, subcode: i64) -> Self {
        self.0.subcode = Some(subcode);
        self
    }

    pub fn user(mut self, title: &str, message: impl Into<String>) -> Self {
        self.0.user_title = Some(title.to_owned());
        self.0.user_msg = Some(message.into());
        self
    }

    pub fn transient(mut self, transient: bool) -> Self {
        self.0.is_transient = Some(transient);
        self
    }

    pub fn status(mut self, status: StatusCode) -> Self {
        self.0.status = status;
        self
    }

    pub fn header(mut self, name: &'static str, value: String) -> Self {
        self.0.headers.push((name, value));
        self
    }

    pub fn body(&self, trace: &str) -> Value {
        let mut error = json!({
            "message": self.message,
            "type": self.kind,
            "code": self.code,
        });
        if let Some(subcode) = self.subcode {
            error["error_subcode"] = json!(subcode);
        }
        if let Some(transient) = self.is_transient {
            error["is_transient"] = json!(transient);
        }
        if let Some(title) = &self.user_title {
            error["error_user_title"] = json!(title);
        }
        if let Some(message) = &self.user_msg {
            error["error_user_msg"] = json!(message);
        }
        error["fbtrace_id"] = json!(trace);
        json!({ "error": error })
    }

    pub fn respond(self, trace: &str) -> Response {
        let mut response = json_response(self.status, &self.body(trace), trace);
        let headers = response.headers_mut();
        if self.code == 190 {
            let challenge = format!(
                "OAuth \"Facebook Platform\" \"invalid_token\" \"{}\"",
                self.message.replace('"', "'")
            );
            if let Ok(value) = HeaderValue::from_str(&challenge) {
                headers.insert(WWW_AUTHENTICATE, value);
            }
        }
        for (name, value) in &self.headers {
            if let Ok(value) = HeaderValue::from_str(value) {
                headers.insert(HeaderName::from_static(name), value);
            }
        }
        response
    }
}

/// A JSON answer carrying Graph's trace header.
pub(crate) fn json_response(status: StatusCode, body: &Value, trace: &str) -> Response {
    let mut response = (status, [(CONTENT_TYPE, JSON)], body.to_string()).into_response();
    if let Ok(value) = HeaderValue::from_str(trace) {
        response.headers_mut().insert("x-fb-trace-id", value);
    }
    response
}

pub(crate) fn reply(result: Reply, trace: &str) -> Response {
    match result {
        Ok(body) => json_response(StatusCode::OK, &body, trace),
        Err(error) => error.respond(trace),
    }
}

// ---- tokens ------------------------------------------------------------------------------

/// A token Graph cannot parse or does not know: code 190 without a subcode.
pub(crate) fn invalid_token() -> GraphError {
    GraphError::new(
        190,
        "Invalid OAuth access token - Cannot parse access token",
    )
}

pub(crate) fn expired_token() -> GraphError {
    GraphError::new(
        190,
        "Error validating access token: Session has expired. The current time is after the token's expiry.",
    )
    .subcode(463)
}

pub(crate) fn app_removed(app_id: &str) -> GraphError {
    GraphError::new(
        190,
        format!("Error validating access token: The user has not authorized application {app_id}."),
    )
    .subcode(458)
}

pub(crate) fn session_invalidated() -> GraphError {
    GraphError::new(
        190,
        "Error validating access token: The session has been invalidated because the user changed their password or Facebook has changed the session for security reasons.",
    )
    .subcode(460)
}

/// No token at all.
pub(crate) fn missing_token(about_me: bool) -> GraphError {
    if about_me {
        GraphError::new(
            2500,
            "An active access token must be used to query information about the current user.",
        )
    } else {
        GraphError::new(104, "An access token is required to request this resource.")
    }
}

pub(crate) fn bad_proof() -> GraphError {
    GraphError::method(100, "Invalid appsecret_proof provided in the API argument")
}

pub(crate) fn proof_required() -> GraphError {
    GraphError::method(
        100,
        "API calls from the server require an appsecret_proof argument",
    )
}

// ---- routing and parameters --------------------------------------------------------------

/// An id Graph cannot load for this token, or a method it does not take (code 100, subcode 33).
pub(crate) fn unsupported(method: &str, id: &str) -> GraphError {
    let verb = method.to_ascii_lowercase();
    GraphError::method(
        100,
        format!(
            "Unsupported {verb} request. Object with ID '{id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api"
        ),
    )
    .subcode(33)
}

pub(crate) fn unknown_path(rest: &str) -> GraphError {
    GraphError::new(2500, format!("Unknown path components: /{rest}"))
}

pub(crate) fn nonexisting_field(field: &str, node_type: &str) -> GraphError {
    GraphError::new(
        100,
        format!("(#100) Tried accessing nonexisting field ({field}) on node type ({node_type})"),
    )
}

pub(crate) fn invalid_param(message: impl AsRef<str>) -> GraphError {
    GraphError::new(100, format!("(#100) {}", message.as_ref()))
}

// ---- permissions -------------------------------------------------------------------------

pub(crate) fn ads_read_missing() -> GraphError {
    GraphError::new(
        200,
        "(#200) Ad account owner has NOT grant ads_management or ads_read permission",
    )
}

pub(crate) fn ads_management_missing() -> GraphError {
    GraphError::new(
        200,
        "(#200) Requires ads_management permission to manage the object",
    )
}

pub(crate) fn page_permission_missing(permission: &str) -> GraphError {
    GraphError::new(
        10,
        format!(
            "(#10) This endpoint requires the '{permission}' permission or the 'Page Public Content Access' feature. Refer to https://developers.facebook.com/docs/apps/review/login-permissions#manage-pages and https://developers.facebook.com/docs/apps/review/feature#reference-PAGES_ACCESS for details."
        ),
    )
}

pub(crate) fn no_permission() -> GraphError {
    GraphError::new(
        10,
        "(#10) Application does not have permission for this action",
    )
}

// ---- throttling and failures -------------------------------------------------------------

/// What a scheduled failure needs to know about the request it answers.
#[derive(Debug, Clone)]
pub(crate) struct Throttled {
    /// The business object the usage header is keyed by (an ad account or a Page).
    pub object_id: String,
    /// The request carried a Page access token.
    pub page_token: bool,
}

fn usage(object_id: &str, kind: &str, minutes: u32) -> String {
    json!({
        object_id: [{
            "type": kind,
            "call_count": 100,
            "total_cputime": 34,
            "total_time": 41,
            "estimated_time_to_regain_access": minutes,
            "ads_api_access_tier": "standard_access",
        }]
    })
    .to_string()
}

const BUC_HEADER: &str = "x-business-use-case-usage";

pub(crate) fn scheduled(fail: Fail, context: &Throttled) -> GraphError {
    let id = context.object_id.as_str();
    match fail {
        Fail::InsightsThrottled { minutes } => GraphError::new(
            80000,
            "(#80000) There have been too many calls from this ad-account. Wait a bit and try again. For more info, please refer to https://developers.facebook.com/docs/graph-api/overview/rate-limiting#ads-insights.",
        )
        .subcode(2_446_079)
        .transient(true)
        .header(BUC_HEADER, usage(id, "ads_insights", minutes)),
        Fail::ManagementThrottled { minutes } => GraphError::new(
            80004,
            "(#80004) There have been too many calls to this ad-account. Wait a bit and try again. For more info, please refer to https://developers.facebook.com/docs/graph-api/overview/rate-limiting#ads-management.",
        )
        .subcode(2_446_079)
        .transient(true)
        .header(BUC_HEADER, usage(id, "ads_management", minutes)),
        Fail::AdAccountThrottled { reset_seconds } => {
            GraphError::new(17, "(#17) User request limit reached")
                .subcode(2_446_079)
                .transient(true)
                .header(
                    "x-ad-account-usage",
                    json!({
                        "acc_id_util_pct": 100,
                        "reset_time_duration": reset_seconds,
                        "ads_api_access_tier": "standard_access",
                    })
                    .to_string(),
                )
        }
        Fail::AppThrottled => GraphError::new(4, "(#4) Application request limit reached")
            .transient(true)
            .header(
                "x-app-usage",
                json!({"call_count": 100, "total_cputime": 30, "total_time": 45}).to_string(),
            ),
        Fail::PagesThrottled { minutes } if context.page_token => GraphError::new(
            80001,
            "(#80001) There have been too many calls to this Page account. Wait a bit and try again. For more info, please refer to https://developers.facebook.com/docs/graph-api/overview/rate-limiting.",
        )
        .transient(true)
        .header(BUC_HEADER, usage(id, "pages", minutes)),
        Fail::PagesThrottled { minutes } => GraphError::new(32, "(#32) Page request limit reached")
            .transient(true)
            .header(BUC_HEADER, usage(id, "pages", minutes)),
        Fail::InstagramThrottled { minutes } => GraphError::new(
            80002,
            "(#80002) There have been too many calls to this Instagram account. Wait a bit and try again. For more info, please refer to https://developers.facebook.com/docs/graph-api/overview/rate-limiting.",
        )
        .transient(true)
        .header(BUC_HEADER, usage(id, "instagram", minutes)),
        Fail::Transient => GraphError::new(
            2,
            "An unexpected error has occurred. Please retry your request later.",
        )
        .transient(true)
        .status(StatusCode::INTERNAL_SERVER_ERROR),
        Fail::Unknown => GraphError::new(1, "An unknown error has occurred.")
            .transient(false)
            .status(StatusCode::INTERNAL_SERVER_ERROR),
        Fail::TokenExpired => expired_token(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_body_has_the_documented_members_only_when_set() {
        let body = GraphError::new(190, "Error validating access token: x")
            .subcode(463)
            .body("AbC123");
        assert_eq!(
            body,
            json!({"error": {
                "message": "Error validating access token: x",
                "type": "OAuthException",
                "code": 190,
                "error_subcode": 463,
                "fbtrace_id": "AbC123",
            }})
        );
    }

    #[test]
    fn throttling_carries_the_usage_header_keyed_by_the_object() {
        let error = scheduled(
            Fail::InsightsThrottled { minutes: 7 },
            &Throttled {
                object_id: "1234".to_owned(),
                page_token: false,
            },
        );
        assert_eq!((error.code, error.subcode), (80000, Some(2_446_079)));
        let (name, value) = &error.headers[0];
        assert_eq!(*name, "x-business-use-case-usage");
        let usage: Value = serde_json::from_str(value).unwrap();
        assert_eq!(usage["1234"][0]["type"], "ads_insights");
        assert_eq!(usage["1234"][0]["estimated_time_to_regain_access"], 7);
    }
}
