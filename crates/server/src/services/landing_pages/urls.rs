//! What a tracked page's `url` must be: an absolute http(s) URL of at most 2,048 characters,
//! on the product's domain or a subdomain of it when the product has a domain (any host
//! otherwise). Its `path` is `payback_domain::landing_path`'s spelling of the URL's path.

use payback_domain::landing_path::landing_path;

use crate::error::{ApiError, ApiResult};
use crate::services::fetch_guard;

/// A page URL that passed the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageUrl {
    /// As the URL parser spells it (scheme and host lowercased).
    pub url: String,
    pub path: String,
}

/// `url` checked against the product's `domain`; 400 naming `url` otherwise.
pub fn check_page_url(url: &str, domain: Option<&str>) -> ApiResult<PageUrl> {
    let bad = |message: String| ApiError::bad_request(format!("url: {message}"));
    let parsed = fetch_guard::parse_web_url(url).map_err(bad)?;
    if let Some(domain) = domain.map(base_domain).filter(|base| !base.is_empty()) {
        let host = parsed
            .host_str()
            .unwrap_or_default()
            .trim_end_matches('.')
            .to_ascii_lowercase();
        if !on_domain(&host, &domain) {
            return Err(bad(format!(
                "must be on the product's domain `{domain}` or a subdomain of it"
            )));
        }
    }
    Ok(PageUrl {
        url: parsed.to_string(),
        path: landing_path(parsed.path()),
    })
}

/// The product's domain without a port or a leading `www.`: `www.example.com` stands for the
/// site, so `example.com` and `blog.example.com` are on it too.
fn base_domain(domain: &str) -> String {
    let host = domain.split(':').next().unwrap_or_default();
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    host.strip_prefix("www.")
        .map_or(host.clone(), str::to_owned)
}

fn on_domain(host: &str, base: &str) -> bool {
    host == base || host.ends_with(&format!(".{base}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_live_on_the_products_domain() {
        let page = check_page_url(
            "https://Shop.example.com/Pricing/?a=1#x",
            Some("example.com"),
        )
        .unwrap_or_else(|err| panic!("{err}"));
        assert_eq!(page.path, "/Pricing");
        assert_eq!(page.url, "https://shop.example.com/Pricing/?a=1#x");
        for (url, domain) in [
            ("https://example.com/", "www.example.com"),
            ("https://www.example.com/a", "example.com"),
            ("http://anything.test/a", ""),
        ] {
            assert!(
                check_page_url(url, Some(domain)).is_ok(),
                "{url} on {domain}"
            );
        }
        assert!(check_page_url("https://other.test/a", None).is_ok());
        for (url, domain) in [
            ("https://notexample.com/", "example.com"),
            ("https://example.com.evil.test/", "example.com"),
            ("ftp://example.com/", "example.com"),
            ("example.com/a", "example.com"),
        ] {
            assert!(
                check_page_url(url, Some(domain)).is_err(),
                "{url} on {domain}"
            );
        }
    }
}
