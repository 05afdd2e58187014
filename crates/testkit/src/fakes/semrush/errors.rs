//! Semrush's error answers, in one place. The Analytics API v3 answers an error as a plain-text
//! body `ERROR NN :: TEXT` (the basic docs' error list), with HTTP 200 as it does every report:
//! a client must read the body, not the status. The codes used here:
//! - 50 `NOTHING FOUND`: the report has no rows (a domain Semrush has no data for),
//! - 120 `WRONG KEY - ID PAIR`: an unknown key,
//! - 122 `WRONG FORMAT OR EMPTY KEY`: no key,
//! - 132 `API UNITS BALANCE IS ZERO`: the account's units are spent,
//! - 40 and 30: a mandatory parameter missing, a report type or sort it does not know.
//!
//! Overload is an HTTP status with no body (429, 5xx).

use axum::http::StatusCode;
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};

use super::state::Fail;

const TEXT: &str = "text/plain; charset=utf-8";

/// A report or an error body: always `text/plain`, as Semrush serves both.
pub(crate) fn text(status: StatusCode, body: String) -> Response {
    (status, [(CONTENT_TYPE, TEXT)], body).into_response()
}

fn error(code: u32, words: &str) -> Response {
    text(StatusCode::OK, format!("ERROR {code} :: {words}"))
}

pub(crate) fn nothing_found() -> Response {
    error(50, "NOTHING FOUND")
}

pub(crate) fn wrong_key() -> Response {
    error(120, "WRONG KEY - ID PAIR")
}

pub(crate) fn empty_key() -> Response {
    error(122, "WRONG FORMAT OR EMPTY KEY")
}

pub(crate) fn units_spent() -> Response {
    error(132, "API UNITS BALANCE IS ZERO")
}

pub(crate) fn missing(parameter: &str) -> Response {
    error(
        40,
        &format!(
            "MANDATORY PARAMETER {} NOT SET",
            parameter.to_ascii_uppercase()
        ),
    )
}

pub(crate) fn unknown(what: &str) -> Response {
    error(30, &format!("UNKNOWN {}", what.to_ascii_uppercase()))
}

/// The answer of a failure a test scheduled.
pub(crate) fn scheduled(fail: Fail) -> Response {
    match fail {
        Fail::TooManyRequests => StatusCode::TOO_MANY_REQUESTS.into_response(),
        Fail::BadGateway => StatusCode::BAD_GATEWAY.into_response(),
    }
}
