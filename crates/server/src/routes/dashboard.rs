//! The web dashboard: its single page at `/` and its hashed assets under `/assets/`. Not part of
//! the API, so not in the OpenAPI document.

use axum::Router;
use axum::extract::Path;
use axum::http::StatusCode;
use axum::http::header::{
    CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS,
    X_FRAME_OPTIONS,
};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use payback_web::Asset;
use tower_http::compression::CompressionLayer;

use crate::error::ApiError;

/// Scripts and styles come from this origin only. Inline styles are allowed because the chart
/// library and component `style` attributes set them; nothing inline may run.
const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
     img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; \
     frame-ancestors 'none'; form-action 'self'";

pub fn router<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/", get(index))
        .route("/index.html", get(index))
        .route("/assets/{*path}", get(asset))
        .layer(CompressionLayer::new())
}

async fn index() -> Response {
    match payback_web::index() {
        Some(page) => serve(page),
        None => {
            ApiError::NotFound("the dashboard is not built (run `npm run build` in web/)".into())
                .into_response()
        }
    }
}

async fn asset(Path(path): Path<String>) -> Response {
    match payback_web::asset(&format!("assets/{path}")) {
        Some(file) => serve(file),
        None => ApiError::NotFound(format!("no dashboard asset assets/{path}")).into_response(),
    }
}

fn serve(file: Asset) -> Response {
    let cache = if file.immutable {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    (
        StatusCode::OK,
        [
            (CONTENT_TYPE, file.content_type.as_str()),
            (CACHE_CONTROL, cache),
            (X_CONTENT_TYPE_OPTIONS, "nosniff"),
            // Approve buttons must never be clickable inside someone else's frame.
            (X_FRAME_OPTIONS, "DENY"),
            (CONTENT_SECURITY_POLICY, CSP),
            (REFERRER_POLICY, "same-origin"),
        ],
        file.bytes.into_owned(),
    )
        .into_response()
}
