//! PostHog's `host`: the origin a tenant names (EU cloud, a self-hosted instance) is a URL the
//! server will call with the tenant's key, so it passes the fetch guard's rule for tenant
//! origins (`fetch_guard::OriginGuard`: loopback, private, link-local and IPv4-mapped addresses
//! refused unless `PAYBACK_ALLOW_PRIVATE_FETCH_HOSTS=true`) before anything is sent, at connect
//! and again before every run (DNS can change), and the run's client dials exactly the
//! addresses checked. The operator's origin (`PAYBACK_PRODUCT_ANALYTICS_A_API_URL`, else
//! PostHog's US cloud) is exempt: it is not the tenant's.

use payback_connectors::product_analytics_a::DEFAULT_API_BASE_URL;
use reqwest::Url;

use super::KIND;
use crate::error::{ApiError, ApiResult};
use crate::services::fetch_guard::{Hop, OriginGuard};
use crate::services::source_config;
use crate::state::AppState;

/// The longest `host`, in characters.
pub const HOST_MAX_CHARS: usize = 2048;

/// The operator's PostHog origin: `PAYBACK_PRODUCT_ANALYTICS_A_API_URL`, else the US cloud.
pub fn operator_origin(state: &AppState) -> String {
    source_config::vendor_origin(state, KIND, DEFAULT_API_BASE_URL)
        .trim_end_matches('/')
        .to_owned()
}

/// `host` as an origin (`https://eu.posthog.com`, no trailing `/`), or 400 naming `host`: an
/// http(s) URL with a host and nothing after it but `/`.
pub fn origin_of(host: &str) -> ApiResult<String> {
    let refuse = |why: &str| ApiError::bad_request(format!("host: {why}"));
    let url = Url::parse(host.trim())
        .map_err(|_| refuse("must be an origin such as https://eu.posthog.com"))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(refuse("must be an http or https origin"));
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(refuse("must name a host"));
    }
    if url.path() != "/"
        || url.query().is_some()
        || url.fragment().is_some()
        || !url.username().is_empty()
        || url.password().is_some()
    {
        return Err(refuse(
            "must be an origin only (scheme, host and port; no path, query or credentials)",
        ));
    }
    Ok(url.origin().ascii_serialization())
}

/// The HTTP client for `origin`: the shared one for the operator's origin; for a tenant's, one
/// that dials only the addresses checked now (400 naming `host` when one is refused).
pub async fn client_for(
    state: &AppState,
    origin: &str,
    operator_origin: &str,
) -> ApiResult<reqwest::Client> {
    let url = Url::parse(origin).map_err(|_| ApiError::bad_request("host: must be an origin"))?;
    OriginGuard::new(state)
        .exempting(operator_origin)
        .client(&url, "host", Hop::Given)
        .await
}

#[cfg(test)]
mod tests {
    use super::origin_of;

    #[test]
    fn a_host_is_an_origin_only() {
        assert_eq!(
            origin_of("https://eu.posthog.com/").unwrap(),
            "https://eu.posthog.com"
        );
        assert_eq!(
            origin_of("http://ph.example:8000").unwrap(),
            "http://ph.example:8000"
        );
        for bad in [
            "eu.posthog.com",
            "ftp://eu.posthog.com",
            "https://eu.posthog.com/api",
            "https://eu.posthog.com/?a=1",
            "https://user:pw@eu.posthog.com",
        ] {
            let err = origin_of(bad).unwrap_err().to_string();
            assert!(err.starts_with("host:"), "{bad}: {err}");
        }
    }
}
