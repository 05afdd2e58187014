//! Who may call: the OAuth access token (with the `adwords` scope), the developer token, and the
//! customer the path names, reached directly or through a manager in `login-customer-id`.

use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use serde_json::json;

use super::ADWORDS_SCOPE;
use super::body::digits;
use super::dispatch::{Call, Endpoint};
use super::errors::AdsError;
use crate::fakes::google::bearer::bearer_token;
use crate::fakes::google::errors::{insufficient_scope, invalid_credentials};
use crate::fakes::google::oauth::{Refused, check_access};
use crate::fakes::google::state::State as FakeState;

fn header<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get(name)
        .and_then(|value| value.to_str().ok())
        .map(str::trim)
}

/// The OAuth access token and the developer token.
pub(super) fn authenticate(
    state: &FakeState,
    headers: &HeaderMap,
    call: &Call,
    endpoint: Endpoint,
) -> Result<(), Response> {
    let token = bearer_token(headers, invalid_credentials)?;
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
        return Err(insufficient_scope(json!({
            "service": "googleads.googleapis.com",
            "method": endpoint.method_name(),
        })));
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

/// The customer of the path, if the human may reach it with the `login-customer-id` given.
pub(super) fn reach(
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
