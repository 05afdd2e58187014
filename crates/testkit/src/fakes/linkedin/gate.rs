//! What every versioned (`/rest/`) call must carry before any endpoint reads it, checked in the
//! order LinkedIn's gateway answers: `Authorization: Bearer <token>` (401 in LinkedIn's shapes),
//! `Linkedin-Version: YYYYMM` (400 `VERSION_MISSING`, 426 `NONEXISTENT_VERSION` outside the
//! versions the fake serves), then `X-Restli-Protocol-Version: 2.0.0`.
//!
//! Without the protocol header LinkedIn reads a call as Rest.li 1.0, in which the 2.0 syntax
//! every finder here needs (`List(...)`, `(key:value)`) means something else; the fake refuses
//! such a call outright (400 `ILLEGAL_ARGUMENT`) so a connector that forgets it fails loudly.

// A refusal is the whole HTTP answer, carried up as the `Err` of the checks that build it.
#![allow(clippy::result_large_err)]

use axum::http::HeaderMap;
use axum::http::header::AUTHORIZATION;
use axum::response::Response;

use super::errors;
use super::state::{R_ADS, R_ADS_REPORTING, RW_ADS, State, TokenState};

/// An admitted call: the token's scopes and the version it asked for.
#[derive(Debug, Clone)]
pub(crate) struct Caller {
    scopes: Vec<String>,
    /// As sent: `YYYYMM` or `YYYYMM.RR`.
    version: String,
}

impl Caller {
    fn has(&self, scope: &str) -> bool {
        self.scopes.iter().any(|granted| granted == scope)
    }

    /// Ad accounts, campaigns and creatives (`r_ads`, or `rw_ads`).
    pub fn may_read_ads(&self) -> bool {
        self.has(R_ADS) || self.has(RW_ADS)
    }

    /// Ad analytics (`r_ads_reporting`).
    pub fn may_report(&self) -> bool {
        self.has(R_ADS_REPORTING)
    }

    /// 403 for `resource_method` (`adAnalytics.FINDER-analytics`), named with the version as
    /// LinkedIn names it.
    pub fn denied(&self, resource_method: &str) -> Response {
        errors::access_denied(&format!(
            "{resource_method}.{}",
            version_as_date(&self.version)
        ))
    }
}

/// Admits the call or answers LinkedIn's refusal.
pub(crate) fn admit(state: &State, headers: &HeaderMap) -> Result<Caller, Response> {
    let scopes = authenticate(state, headers)?;
    let version = version(state, headers)?;
    let protocol = headers
        .get("x-restli-protocol-version")
        .and_then(|value| value.to_str().ok());
    if protocol != Some("2.0.0") {
        return Err(errors::illegal_argument(
            "X-Restli-Protocol-Version: 2.0.0 is required: without it the request is read as Rest.li 1.0",
        ));
    }
    Ok(Caller { scopes, version })
}

fn authenticate(state: &State, headers: &HeaderMap) -> Result<Vec<String>, Response> {
    let Some(header) = headers.get(AUTHORIZATION) else {
        return Err(errors::empty_token());
    };
    let header = header.to_str().map_err(|_| errors::invalid_token())?;
    let (scheme, token) = header.split_once(' ').unwrap_or((header, ""));
    if !scheme.eq_ignore_ascii_case("bearer") {
        return Err(errors::unknown_scheme());
    }
    let token = token.trim();
    if token.is_empty() {
        return Err(errors::empty_token());
    }
    let known = state.tokens.get(token).ok_or_else(errors::invalid_token)?;
    match known.state {
        TokenState::Live => Ok(known.scopes.clone()),
        TokenState::Revoked => Err(errors::revoked_token()),
        TokenState::Expired => Err(errors::expired_token()),
    }
}

fn version(state: &State, headers: &HeaderMap) -> Result<String, Response> {
    let Some(value) = headers.get("linkedin-version") else {
        return Err(errors::version_missing());
    };
    let text = value.to_str().unwrap_or("").trim();
    if text.is_empty() {
        return Err(errors::version_missing());
    }
    let (oldest, newest) = state.versions;
    match year_month(text) {
        Some(version) if (oldest..=newest).contains(&version) => Ok(text.to_owned()),
        _ => Err(errors::nonexistent_version(&version_as_date(text))),
    }
}

/// `YYYYMM` of `YYYYMM` or `YYYYMM.RR`.
fn year_month(text: &str) -> Option<u32> {
    let (main, revision) = text.split_once('.').unwrap_or((text, "00"));
    let digits =
        |part: &str, len: usize| part.len() == len && part.bytes().all(|b| b.is_ascii_digit());
    if !digits(main, 6) || !digits(revision, 2) {
        return None;
    }
    let version: u32 = main.parse().ok()?;
    (1..=12).contains(&(version % 100)).then_some(version)
}

/// `202611` as LinkedIn writes it in messages, `20261101`; `202611.02` is `20261102`.
fn version_as_date(text: &str) -> String {
    match text.split_once('.') {
        Some((main, revision)) => format!("{main}{revision}"),
        None if text.len() == 6 => format!("{text}01"),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_are_year_months_with_an_optional_revision() {
        assert_eq!(year_month("202611"), Some(202_611));
        assert_eq!(year_month("202611.02"), Some(202_611));
        for bad in [
            "2026-11", "20261101", "202613", "202600", "v202611", "202611.2",
        ] {
            assert_eq!(year_month(bad), None, "{bad}");
        }
        assert_eq!(version_as_date("202411"), "20241101");
        assert_eq!(version_as_date("202508.02"), "20250802");
    }
}
