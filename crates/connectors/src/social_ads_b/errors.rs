//! A LinkedIn error answer read into what Payback does with it: retry (429, 5xx), ask for a
//! reconnect (401), name the missing permission (403), tell the operator to upgrade (426), or
//! report LinkedIn's message.
//!
//! The body is LinkedIn's service error, `{"status": 401, "serviceErrorCode": 65601, "code":
//! "REVOKED_ACCESS_TOKEN", "message": "The token used in the request has been revoked by the
//! user"}`; `code` is only present on the newer resources, so the HTTP status decides and the
//! rest is quoted. LinkedIn's messages do not echo the token, but a message is scrubbed of it
//! anyway before it goes anywhere.

use serde::Deserialize;

use super::LINKEDIN_VERSION;
use crate::ConnectorError;

/// The line every expired or revoked token ends in.
pub(crate) const RECONNECT: &str =
    "the LinkedIn access token was revoked or has expired; reconnect";

/// The resource a call reads, which decides the permission a 403 is missing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Resource {
    /// `GET /rest/adAccounts/{id}`.
    AdAccount,
    /// `GET /rest/adAccounts?q=search`.
    AdAccountSearch,
    /// `GET /rest/adAccounts/{id}/adCampaigns?q=search`.
    Campaigns,
    /// `GET /rest/adAccounts/{id}/creatives?q=criteria`.
    Creatives,
    /// `GET /rest/adAnalytics`.
    Analytics,
}

impl Resource {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Resource::AdAccount => "adAccounts",
            Resource::AdAccountSearch => "adAccounts search",
            Resource::Campaigns => "adCampaigns search",
            Resource::Creatives => "creatives",
            Resource::Analytics => "adAnalytics",
        }
    }

    /// Reporting needs `r_ads_reporting`; the account structure needs `r_ads` (or `rw_ads`).
    pub(crate) fn permission(self) -> &'static str {
        match self {
            Resource::Analytics => "r_ads_reporting",
            _ => "r_ads",
        }
    }
}

/// What kind of refusal an answer was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FailureKind {
    /// 401: the token is missing, malformed, expired or revoked.
    Unauthenticated,
    /// 403: the token lacks the permission, or its member has no role on the account.
    Forbidden,
    /// 404: no such entity (or none this token may see).
    NotFound,
    /// 426: `Linkedin-Version` names a sunset version.
    VersionSunset,
    /// 429: a throttle; retried.
    RateLimited,
    /// 5xx: LinkedIn's trouble; retried.
    Server,
    /// Anything else (a malformed query, say): final.
    Other,
}

/// LinkedIn's error body; every field optional, since a proxy may answer HTML.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ErrorBody {
    service_error_code: Option<i64>,
    code: Option<String>,
    message: Option<String>,
}

/// One error answer, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Failure {
    pub kind: FailureKind,
    pub resource: Resource,
    /// `LinkedIn answered 403 ACCESS_DENIED on adAnalytics: <message> (serviceErrorCode 100)`.
    pub line: String,
}

impl Failure {
    /// Reads a non-2xx answer of `resource`; `secret` (the access token) is cut out of
    /// LinkedIn's text wherever it appears.
    pub(crate) fn read(resource: Resource, status: u16, body: &[u8], secret: &str) -> Self {
        let parsed = serde_json::from_slice::<ErrorBody>(body).unwrap_or_default();
        let kind = match status {
            401 => FailureKind::Unauthenticated,
            403 => FailureKind::Forbidden,
            404 => FailureKind::NotFound,
            426 => FailureKind::VersionSunset,
            429 => FailureKind::RateLimited,
            500..=599 => FailureKind::Server,
            _ => FailureKind::Other,
        };
        let message = parsed
            .message
            .filter(|text| !text.trim().is_empty())
            .map(|text| scrub(&text, secret))
            .unwrap_or_else(|| "no error message".to_owned());
        let mut line = format!("LinkedIn answered {status}");
        if let Some(code) = parsed.code.filter(|code| !code.trim().is_empty()) {
            line.push(' ');
            line.push_str(&scrub(&code, secret));
        }
        line.push_str(&format!(" on {}: {message}", resource.name()));
        if let Some(code) = parsed.service_error_code {
            line.push_str(&format!(" (serviceErrorCode {code})"));
        }
        Self {
            kind,
            resource,
            line,
        }
    }

    /// Whether waiting and asking again may help.
    pub(crate) fn retryable(&self) -> bool {
        matches!(self.kind, FailureKind::RateLimited | FailureKind::Server)
    }

    /// The error Payback reports, once `retries` retries did not help.
    pub(crate) fn into_error(self, retries: u32) -> ConnectorError {
        let Failure {
            kind,
            resource,
            line,
        } = self;
        match kind {
            FailureKind::Unauthenticated => ConnectorError::Unauthorized(RECONNECT.to_owned()),
            FailureKind::Forbidden => ConnectorError::Unauthorized(format!(
                "{line}; the LinkedIn access token needs the {} permission, and its member a \
                 role on the ad account: reconnect with a token that has both",
                resource.permission()
            )),
            FailureKind::NotFound if resource == Resource::AdAccount => {
                ConnectorError::Config(format!(
                    "{line}; no such ad account, or the token's member has no role on it: check \
                     the ad account id"
                ))
            }
            FailureKind::VersionSunset => ConnectorError::Config(format!(
                "{line}; LinkedIn no longer serves Marketing API version {LINKEDIN_VERSION}: \
                 upgrade Payback to a release that speaks a current version"
            )),
            FailureKind::RateLimited => ConnectorError::RateLimited(format!(
                "{line} (after {retries} retries; the run stored nothing and will try again)"
            )),
            FailureKind::Server => {
                ConnectorError::Unreachable(format!("{line} (after {retries} retries)"))
            }
            FailureKind::NotFound | FailureKind::Other => ConnectorError::Vendor(line),
        }
    }
}

/// `text` with every occurrence of `secret` replaced. Tokens are long; a short "secret" (an
/// empty or test value) would blank out ordinary words, so it is left alone.
pub(crate) fn scrub(text: &str, secret: &str) -> String {
    if secret.len() >= 8 && text.contains(secret) {
        text.replace(secret, "[redacted]")
    } else {
        text.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOKEN: &str = "AQV-secret-access-token";

    fn error_of(resource: Resource, status: u16, body: &str) -> ConnectorError {
        Failure::read(resource, status, body.as_bytes(), TOKEN).into_error(0)
    }

    #[test]
    fn a_revoked_or_expired_token_asks_for_a_reconnect() {
        let revoked = r#"{"status":401,"serviceErrorCode":65601,"code":"REVOKED_ACCESS_TOKEN",
            "message":"The token used in the request has been revoked by the user"}"#;
        let failure = Failure::read(Resource::Analytics, 401, revoked.as_bytes(), TOKEN);
        assert_eq!(failure.kind, FailureKind::Unauthenticated);
        assert!(!failure.retryable());
        assert_eq!(
            failure.line,
            "LinkedIn answered 401 REVOKED_ACCESS_TOKEN on adAnalytics: The token used in the \
             request has been revoked by the user (serviceErrorCode 65601)"
        );
        match failure.into_error(0) {
            ConnectorError::Unauthorized(line) => assert_eq!(line, RECONNECT),
            other => panic!("{other:?}"),
        }
        // The older shape without `code`, and an empty token.
        let expired = r#"{"status":401,"serviceErrorCode":65602,
            "message":"The token used in the request has expired"}"#;
        assert!(matches!(error_of(Resource::AdAccount, 401, expired),
            ConnectorError::Unauthorized(line) if line == RECONNECT));
        let empty =
            r#"{"message":"Empty oauth2_access_token","serviceErrorCode":401,"status":401}"#;
        assert!(matches!(error_of(Resource::AdAccountSearch, 401, empty),
            ConnectorError::Unauthorized(line) if line == RECONNECT));
    }

    #[test]
    fn a_refusal_names_the_missing_permission() {
        let body = r#"{"status":403,"serviceErrorCode":100,"code":"ACCESS_DENIED",
            "message":"Not enough permissions to access: adAnalytics.GET.20260701"}"#;
        match error_of(Resource::Analytics, 403, body) {
            ConnectorError::Unauthorized(line) => {
                assert!(line.contains("r_ads_reporting"), "{line}");
                assert!(line.contains("ACCESS_DENIED"), "{line}");
                assert!(
                    line.contains("Not enough permissions to access: adAnalytics.GET.20260701"),
                    "{line}"
                );
            }
            other => panic!("{other:?}"),
        }
        for resource in [
            Resource::AdAccount,
            Resource::AdAccountSearch,
            Resource::Campaigns,
            Resource::Creatives,
        ] {
            match error_of(resource, 403, body) {
                ConnectorError::Unauthorized(line) => {
                    assert!(line.contains("needs the r_ads permission"), "{line}");
                }
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn throttles_and_server_trouble_are_retried_then_reported() {
        let body = r#"{"status":429,"serviceErrorCode":101,"code":"TOO_MANY_REQUESTS",
            "message":"Resource level throttle limit for calls to this resource is reached."}"#;
        let failure = Failure::read(Resource::Analytics, 429, body.as_bytes(), TOKEN);
        assert_eq!(failure.kind, FailureKind::RateLimited);
        assert!(failure.retryable());
        match failure.into_error(4) {
            ConnectorError::RateLimited(line) => {
                assert!(line.contains("throttle limit"), "{line}");
                assert!(line.contains("after 4 retries"), "{line}");
            }
            other => panic!("{other:?}"),
        }
        let failure = Failure::read(Resource::Campaigns, 503, b"<html>busy</html>", TOKEN);
        assert_eq!(failure.kind, FailureKind::Server);
        assert!(failure.retryable());
        assert_eq!(
            failure.line,
            "LinkedIn answered 503 on adCampaigns search: no error message"
        );
        assert!(matches!(
            failure.into_error(4),
            ConnectorError::Unreachable(line) if line.contains("after 4 retries")
        ));
    }

    #[test]
    fn a_sunset_version_tells_the_operator_to_upgrade() {
        let body = r#"{"status":426,"code":"VERSION_MISSING_OR_DEPRECATED",
            "message":"Requested version 202507 is not active"}"#;
        let failure = Failure::read(Resource::AdAccount, 426, body.as_bytes(), TOKEN);
        assert_eq!(failure.kind, FailureKind::VersionSunset);
        assert!(!failure.retryable());
        match failure.into_error(0) {
            ConnectorError::Config(line) => {
                assert!(line.contains(LINKEDIN_VERSION), "{line}");
                assert!(line.contains("upgrade Payback"), "{line}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_missing_account_is_a_configuration_error_and_other_answers_are_quoted() {
        let body = r#"{"status":404,"code":"NOT_FOUND","message":"Not Found"}"#;
        assert!(matches!(
            error_of(Resource::AdAccount, 404, body),
            ConnectorError::Config(line) if line.contains("check the ad account id")
        ));
        assert!(matches!(
            error_of(Resource::Creatives, 404, body),
            ConnectorError::Vendor(_)
        ));
        let bad = r#"{"status":400,"serviceErrorCode":100,
            "message":"Invalid param. Please see errorDetails for more information."}"#;
        match error_of(Resource::Analytics, 400, bad) {
            ConnectorError::Vendor(line) => assert_eq!(
                line,
                "LinkedIn answered 400 on adAnalytics: Invalid param. Please see errorDetails \
                 for more information. (serviceErrorCode 100)"
            ),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_token_never_reaches_a_message() {
        let body = format!(r#"{{"status":400,"message":"bad token {TOKEN} in request"}}"#);
        let error = error_of(Resource::Analytics, 400, &body);
        let text = error.to_string();
        assert!(!text.contains(TOKEN), "{text}");
        assert!(text.contains("bad token [redacted] in request"), "{text}");
        assert_eq!(scrub("short words", "s"), "short words");
    }
}
