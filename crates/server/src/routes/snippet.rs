//! `GET /svc.js`: the browser tracking snippet, served as written (no build step).

use std::sync::LazyLock;

use axum::http::header::{
    ACCESS_CONTROL_ALLOW_ORIGIN, CACHE_CONTROL, CONTENT_TYPE, ETAG, IF_NONE_MATCH,
    X_CONTENT_TYPE_OPTIONS,
};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};
use tower_http::compression::CompressionLayer;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::routes::tags;
use crate::state::AppState;

/// The snippet source, compiled into the binary so the served file always matches the build.
pub const SNIPPET: &str = include_str!("../../assets/svc.js");

/// A strong validator: the first 16 bytes of the content's SHA-256, quoted. The content only
/// changes with a new build, so it is computed once.
static ETAG_VALUE: LazyLock<String> = LazyLock::new(|| {
    let digest = Sha256::digest(SNIPPET.as_bytes());
    let hex: String = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
    format!("\"{hex}\"")
});

/// The header value: weak, because the same content goes out gzipped or not (one validator for
/// both encodings is only allowed to a weak ETag).
static WEAK_ETAG: LazyLock<String> = LazyLock::new(|| format!("W/{}", ETAG_VALUE.as_str()));

pub fn router() -> OpenApiRouter<AppState> {
    // Every customer page loads this file: send it gzipped to clients that accept it.
    OpenApiRouter::new()
        .routes(routes!(snippet))
        .layer(CompressionLayer::new())
}

/// The tracking snippet. Load it with
/// `<script src="{base}/svc.js" data-key="svc_pub_..." async></script>`; it reads `data-key`
/// from its own tag, records visits with their landing attribution, batches events to
/// `POST /t/events`, and exposes `svc.track(stage, props)` and `svc.identify(user_id, traits)`.
#[utoipa::path(get, path = "/svc.js", tag = tags::TRACKING,
    responses(
        (status = 200, description = "The snippet (cacheable for an hour; revalidate with the ETag)",
            content_type = "application/javascript", body = String),
        (status = 304, description = "Unchanged since the ETag in If-None-Match")))]
async fn snippet(headers: HeaderMap) -> Response {
    let etag = ETAG_VALUE.as_str();
    let common = [
        (CACHE_CONTROL, "public, max-age=3600"),
        (ETAG, WEAK_ETAG.as_str()),
        // Lets a page load it with `crossorigin` and subresource integrity.
        (ACCESS_CONTROL_ALLOW_ORIGIN, "*"),
        (X_CONTENT_TYPE_OPTIONS, "nosniff"),
    ];
    if matches_etag(headers.get(IF_NONE_MATCH), etag) {
        return (StatusCode::NOT_MODIFIED, common).into_response();
    }
    (
        StatusCode::OK,
        common,
        [(CONTENT_TYPE, "application/javascript; charset=utf-8")],
        SNIPPET,
    )
        .into_response()
}

/// `If-None-Match` uses weak comparison (RFC 9110 13.1.2): `W/` prefixes are ignored, the
/// header may list several tags, and `*` matches any current representation.
fn matches_etag(if_none_match: Option<&HeaderValue>, etag: &str) -> bool {
    let Some(value) = if_none_match.and_then(|v| v.to_str().ok()) else {
        return false;
    };
    value
        .split(',')
        .map(str::trim)
        .any(|tag| tag == "*" || tag.strip_prefix("W/").unwrap_or(tag) == etag)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn if_none_match_uses_weak_comparison() {
        let etag = ETAG_VALUE.as_str();
        let header = |s: &str| HeaderValue::from_str(s).ok();
        assert!(matches_etag(header(etag).as_ref(), etag));
        assert!(matches_etag(header(&format!("W/{etag}")).as_ref(), etag));
        assert!(matches_etag(
            header(&format!("\"x\", {etag}")).as_ref(),
            etag
        ));
        assert!(matches_etag(header("*").as_ref(), etag));
        assert!(!matches_etag(header("\"other\"").as_ref(), etag));
        assert!(!matches_etag(None, etag));
    }

    #[test]
    fn etag_is_a_quoted_hash() {
        assert_eq!(ETAG_VALUE.len(), 34);
        assert!(ETAG_VALUE.starts_with('"') && ETAG_VALUE.ends_with('"'));
    }
}
