//! The token endpoint, `POST /token`: the client's credentials (form or HTTP Basic), then the
//! grant (`authorization_code`, `refresh_token` in `grants.rs`; a service account's JWT bearer
//! grant needs no client).

use axum::body::Bytes;
use axum::extract::State;
use axum::http::header::{AUTHORIZATION, CONTENT_TYPE, HOST};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::json;

use super::errors::{no_store, oauth};
use super::grants::{exchange_code, refresh};
use super::param;
use super::state::ACCESS_TOKEN_SECONDS;
use crate::fakes::form::form_pairs;
use crate::fakes::google::errors::json_response;
use crate::fakes::google::{Shared, lock, service_account};

/// The JWT bearer grant of service accounts (`service_account.rs`).
const JWT_BEARER: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/// The client credentials of a token request: HTTP Basic, or the form's `client_id` and
/// `client_secret`.
fn client_credentials(
    headers: &HeaderMap,
    pairs: &[(String, String)],
) -> Result<(String, Option<String>), Box<Response>> {
    let form_id = param(pairs, "client_id").map(str::to_owned);
    let form_secret = param(pairs, "client_secret").map(str::to_owned);
    let basic = headers
        .get(AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| {
            value
                .strip_prefix("Basic ")
                .or_else(|| value.strip_prefix("basic "))
        })
        .map(|encoded| {
            let decoded = STANDARD
                .decode(encoded.trim())
                .ok()
                .and_then(|bytes| String::from_utf8(bytes).ok());
            let (id, secret) = decoded
                .as_deref()
                .and_then(|text| text.split_once(':'))
                .ok_or_else(|| {
                    Box::new(oauth(
                        StatusCode::UNAUTHORIZED,
                        "invalid_client",
                        "Unauthorized",
                    ))
                })?;
            // RFC 6749 2.3.1: each part is form-urlencoded before joining.
            Ok::<_, Box<Response>>((percent_decode(id), percent_decode(secret)))
        })
        .transpose()?;
    match (basic, form_id) {
        (Some((id, secret)), form_id) => {
            if form_id.is_some_and(|form_id| form_id != id)
                || form_secret.is_some_and(|form_secret| form_secret != secret)
            {
                return Err(Box::new(oauth(
                    StatusCode::BAD_REQUEST,
                    "invalid_request",
                    "Client credentials in the Authorization header and the body disagree.",
                )));
            }
            Ok((id, Some(secret)))
        }
        (None, Some(id)) => Ok((id, form_secret)),
        (None, None) => Err(Box::new(oauth(
            StatusCode::BAD_REQUEST,
            "invalid_request",
            "Could not determine client ID from request.",
        ))),
    }
}

fn percent_decode(text: &str) -> String {
    form_pairs(&format!("x={text}"))
        .pop()
        .map(|(_, value)| value)
        .unwrap_or_default()
}

pub(super) fn token_answer(
    access_token: &str,
    scopes: &[String],
    refresh_token: Option<&str>,
) -> Response {
    let mut body = json!({
        "access_token": access_token,
        "expires_in": ACCESS_TOKEN_SECONDS,
        "scope": scopes.join(" "),
        "token_type": "Bearer",
    });
    if let Some(refresh_token) = refresh_token {
        body["refresh_token"] = json!(refresh_token);
    }
    no_store(json_response(StatusCode::OK, &body))
}

/// `POST /token`.
pub(crate) async fn token(
    State(shared): State<Shared>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let form = headers
        .get(CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| {
            value
                .to_ascii_lowercase()
                .starts_with("application/x-www-form-urlencoded")
        });
    if !form {
        return oauth(
            StatusCode::BAD_REQUEST,
            "invalid_request",
            "The token endpoint takes an application/x-www-form-urlencoded body.",
        );
    }
    let pairs = form_pairs(&String::from_utf8_lossy(&body));
    // A service account authenticates by its signed assertion alone, without a client.
    if param(&pairs, "grant_type") == Some(JWT_BEARER) {
        let audience = headers
            .get(HOST)
            .and_then(|host| host.to_str().ok())
            .map(|host| format!("http://{host}/token"))
            .unwrap_or_default();
        return service_account::exchange(
            &mut lock(&shared),
            param(&pairs, "assertion"),
            &audience,
        );
    }
    let (client_id, secret) = match client_credentials(&headers, &pairs) {
        Ok(credentials) => credentials,
        Err(response) => return *response,
    };
    let mut state = lock(&shared);
    if client_id != state.client_id {
        return oauth(
            StatusCode::UNAUTHORIZED,
            "invalid_client",
            "The OAuth client was not found.",
        );
    }
    if secret.as_deref() != Some(state.client_secret.as_str()) {
        return oauth(StatusCode::UNAUTHORIZED, "invalid_client", "Unauthorized");
    }
    match param(&pairs, "grant_type") {
        Some("authorization_code") => exchange_code(&mut state, &pairs, &client_id),
        Some("refresh_token") => refresh(&mut state, &pairs, &client_id),
        Some(other) => oauth(
            StatusCode::BAD_REQUEST,
            "unsupported_grant_type",
            &format!("Invalid grant_type: {other}"),
        ),
        None => oauth(
            StatusCode::BAD_REQUEST,
            "invalid_request",
            "Missing required parameter: grant_type",
        ),
    }
}
