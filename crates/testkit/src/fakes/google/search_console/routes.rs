//! Which webmasters method a path names, and the site it names (one percent-encoded segment).

use axum::http::Method;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Endpoint {
    List,
    Get,
    Query,
}

/// `(endpoint, site as decoded)` of a webmasters path.
pub(super) fn route(method: &Method, path: &str) -> Option<(Endpoint, Option<String>)> {
    let rest = path.strip_prefix("/webmasters/v3/sites")?;
    if rest.is_empty() {
        return (method == Method::GET).then_some((Endpoint::List, None));
    }
    let rest = rest.strip_prefix('/')?;
    let (segment, endpoint) = match rest.strip_suffix("/searchAnalytics/query") {
        Some(segment) => (segment, Endpoint::Query),
        None => (rest, Endpoint::Get),
    };
    let wanted = if endpoint == Endpoint::Query {
        Method::POST
    } else {
        Method::GET
    };
    if *method != wanted || segment.is_empty() || segment.contains('/') {
        return None;
    }
    Some((endpoint, Some(percent_decode(segment)?)))
}

/// Strict percent-decoding of one path segment (`+` stays a plus, as in paths).
fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b'%' {
            let hex = text.get(at + 1..at + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            at += 3;
        } else {
            out.push(bytes[at]);
            at += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_name_the_endpoint_and_the_decoded_site() {
        assert_eq!(
            route(&Method::GET, "/webmasters/v3/sites"),
            Some((Endpoint::List, None))
        );
        assert_eq!(
            route(
                &Method::GET,
                "/webmasters/v3/sites/https%3A%2F%2Fshop.example%2F"
            ),
            Some((Endpoint::Get, Some("https://shop.example/".into())))
        );
        assert_eq!(
            route(
                &Method::POST,
                "/webmasters/v3/sites/sc-domain%3Ashop.example/searchAnalytics/query"
            ),
            Some((Endpoint::Query, Some("sc-domain:shop.example".into())))
        );
        // A site not encoded as one segment is not a route.
        assert_eq!(
            route(&Method::GET, "/webmasters/v3/sites/https://shop.example/"),
            None
        );
        assert_eq!(route(&Method::POST, "/webmasters/v3/sites"), None);
        assert_eq!(percent_decode("%zz"), None);
    }
}
