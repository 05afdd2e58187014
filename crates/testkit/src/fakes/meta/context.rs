//! What every Graph handler is handed, kept apart from the router (`graph.rs`) so handlers and
//! router do not import each other: who is calling ([`Caller`]), the call itself ([`Ctx`]), the
//! object a path names ([`Object`]), and how a path's version and a header's token are read.

use axum::http::header::AUTHORIZATION;
use axum::http::{HeaderMap, Method};

use super::errors::GraphError;
use super::fields::{self, Field};
use super::paging::Listing;
use super::params::Params;
use super::state::{State as FakeState, TokenKind};

/// `v` and digits, optionally `.` and digits (`v23.0`).
pub(crate) fn is_version(segment: &str) -> bool {
    let Some(rest) = segment.strip_prefix('v') else {
        return false;
    };
    let (major, minor) = rest.split_once('.').unwrap_or((rest, "0"));
    let digits = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
    digits(major) && digits(minor)
}

/// The token of an `Authorization: Bearer` (or `OAuth`) header.
pub(crate) fn bearer(headers: &HeaderMap) -> Option<String> {
    bearer_in(headers.get(AUTHORIZATION)?.to_str().ok()?)
}

/// The token of an `Authorization` header's value, when its scheme is `Bearer` or `OAuth`.
pub(crate) fn bearer_in(value: &str) -> Option<String> {
    let (scheme, token) = value.trim().split_once(' ')?;
    (scheme.eq_ignore_ascii_case("bearer") || scheme.eq_ignore_ascii_case("oauth"))
        .then(|| token.trim().to_owned())
        .filter(|token| !token.is_empty())
}

/// Who is calling: the token and what it may do.
#[derive(Debug, Clone)]
pub(crate) struct Caller {
    pub token: String,
    pub kind: TokenKind,
    pub scopes: Vec<String>,
}

impl Caller {
    pub fn has(&self, scope: &str) -> bool {
        self.scopes.iter().any(|s| s == scope)
    }

    pub fn is_user(&self) -> bool {
        self.kind == TokenKind::User
    }
}

/// One authenticated Graph call.
#[derive(Debug)]
pub(crate) struct Ctx<'a> {
    pub method: &'a Method,
    /// The path as sent, for paging URLs.
    pub path: &'a str,
    pub params: &'a Params,
    pub caller: Caller,
}

impl Ctx<'_> {
    pub fn listing<'s>(&'s self, state: &'s FakeState) -> Listing<'s> {
        Listing {
            base: &state.base,
            path: self.path,
            params: self.params,
            page_size: state.page_size,
        }
    }

    pub fn fields(&self) -> Result<Option<Vec<Field>>, GraphError> {
        fields::requested(self.params.get("fields"))
    }

    pub fn is_get(&self) -> bool {
        self.method == Method::GET
    }
}

/// What a path's first segment names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Object {
    User,
    Account(i64),
    Campaign(i64),
    AdSet(i64),
    Ad(i64),
    Report(String),
    Page(i64),
    Ig(i64),
    Post { page: i64, post: i64 },
    Media { ig: i64, media: i64 },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_are_v_digits_with_an_optional_minor() {
        assert!(is_version("v23.0"));
        assert!(is_version("v9"));
        assert!(!is_version("v23."));
        assert!(!is_version("vx.0"));
        assert!(!is_version("act_1"));
        assert!(!is_version("v"));
    }

    #[test]
    fn bearer_and_oauth_schemes_carry_the_token() {
        let mut headers = HeaderMap::new();
        headers.insert(AUTHORIZATION, "Bearer abc".parse().unwrap());
        assert_eq!(bearer(&headers).as_deref(), Some("abc"));
        headers.insert(AUTHORIZATION, "OAuth def".parse().unwrap());
        assert_eq!(bearer(&headers).as_deref(), Some("def"));
        headers.insert(AUTHORIZATION, "Basic xyz".parse().unwrap());
        assert_eq!(bearer(&headers), None);
    }
}
