//! The machine-readable description and the JSON answers for unknown routes and wrong methods.

use axum::Json;
use axum::extract::State;
use axum::http::{Method, Uri};
use utoipa::openapi::OpenApi;

use crate::error::ApiError;

/// `GET /openapi.json`: generated from the handlers and their types at start-up.
pub async fn openapi(State(api): State<std::sync::Arc<OpenApi>>) -> Json<OpenApi> {
    Json((*api).clone())
}

pub async fn unknown_route(uri: Uri) -> ApiError {
    ApiError::NotFound(format!("no route for {}", uri.path()))
}

pub async fn wrong_method(method: Method, uri: Uri) -> ApiError {
    ApiError::MethodNotAllowed(format!("{method} is not allowed on {}", uri.path()))
}
