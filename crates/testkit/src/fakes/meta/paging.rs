//! Cursor-based pagination (Graph API "Paginated Results"): a list answers
//! `{"data": [...], "paging": {"cursors": {"before", "after"}, "previous"?, "next"?}}`, where
//! `next` is the full URL of the next page and is left out on the last page (`previous` likewise
//! on the first). `limit` asks for fewer rows than the fake's page size, never more, so every
//! listing with more rows than that is paged.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Value, json};

use super::errors::{GraphError, Reply, invalid_param};
use super::params::Params;

/// Where the listing was asked for, to build its `previous` and `next` URLs.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Listing<'a> {
    /// The fake's origin.
    pub base: &'a str,
    /// The request path as sent (with its version, if any).
    pub path: &'a str,
    pub params: &'a Params,
    pub page_size: usize,
}

fn cursor(index: usize) -> String {
    URL_SAFE_NO_PAD.encode(format!("fake-cursor:{index}"))
}

fn decode(name: &str, value: &str) -> Result<usize, GraphError> {
    URL_SAFE_NO_PAD
        .decode(value)
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .and_then(|text| text.strip_prefix("fake-cursor:")?.parse().ok())
        .ok_or_else(|| invalid_param(format!("The {name} cursor {value:?} is not valid")))
}

/// The rows per page: `limit` when smaller than the page size.
pub(crate) fn limit(listing: &Listing<'_>) -> Result<usize, GraphError> {
    match listing.params.get("limit") {
        None => Ok(listing.page_size),
        Some(text) => text
            .parse::<usize>()
            .map(|limit| limit.clamp(1, listing.page_size.max(1)))
            .map_err(|_| invalid_param("Param limit must be a non-negative integer")),
    }
}

/// One page of `items` with Graph's paging object.
pub(crate) fn paged(items: Vec<Value>, listing: &Listing<'_>) -> Reply {
    let limit = limit(listing)?;
    let total = items.len();
    let (start, end) = match (listing.params.get("after"), listing.params.get("before")) {
        (Some(after), _) => {
            let start = decode("after", after)?.saturating_add(1).min(total);
            (start, start.saturating_add(limit).min(total))
        }
        (None, Some(before)) => {
            let end = decode("before", before)?.min(total);
            (end.saturating_sub(limit), end)
        }
        (None, None) => (0, limit.min(total)),
    };
    let data: Vec<Value> = items.into_iter().skip(start).take(end - start).collect();
    if data.is_empty() {
        return Ok(json!({ "data": [] }));
    }
    let mut paging = json!({
        "cursors": { "before": cursor(start), "after": cursor(end - 1) },
    });
    if start > 0 {
        paging["previous"] = json!(url(listing, limit, "before", &cursor(start))?);
    }
    if end < total {
        paging["next"] = json!(url(listing, limit, "after", &cursor(end - 1))?);
    }
    Ok(json!({ "data": data, "paging": paging }))
}

/// The request's URL with its paging parameters replaced.
pub(crate) fn url(
    listing: &Listing<'_>,
    limit: usize,
    key: &str,
    value: &str,
) -> Result<String, GraphError> {
    let replaced = ["after", "before", "limit", key];
    let mut pairs: Vec<(String, String)> = listing
        .params
        .pairs()
        .iter()
        .filter(|(name, _)| !replaced.contains(&name.as_str()))
        .cloned()
        .collect();
    pairs.push(("limit".to_owned(), limit.to_string()));
    pairs.push((key.to_owned(), value.to_owned()));
    with_query(listing, &pairs)
}

/// The request's URL with exactly these query pairs.
pub(crate) fn with_query(
    listing: &Listing<'_>,
    pairs: &[(String, String)],
) -> Result<String, GraphError> {
    let mut url = reqwest::Url::parse(&format!("{}{}", listing.base, listing.path))
        .map_err(|_| invalid_param("the request path does not make a URL"))?;
    url.query_pairs_mut().extend_pairs(pairs);
    Ok(url.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(query: &str) -> Params {
        Params::from_text(query)
    }

    fn listing<'a>(params: &'a Params) -> Listing<'a> {
        Listing {
            base: "http://127.0.0.1:9",
            path: "/v23.0/me/adaccounts",
            params,
            page_size: 2,
        }
    }

    fn numbers(count: usize) -> Vec<Value> {
        (0..count).map(|i| json!(i)).collect()
    }

    #[test]
    fn pages_forward_to_the_end_and_back() {
        let first_params = params("fields=id&access_token=tok");
        let first = paged(numbers(5), &listing(&first_params)).unwrap();
        assert_eq!(first["data"], json!([0, 1]));
        assert!(first["paging"]["previous"].is_null());
        let next = first["paging"]["next"].as_str().unwrap();
        let next = reqwest::Url::parse(next).unwrap();
        assert_eq!(next.path(), "/v23.0/me/adaccounts");
        let query = Params::from_text(next.query().unwrap());
        assert_eq!(query.get("fields"), Some("id"));
        assert_eq!(query.get("access_token"), Some("tok"));
        assert_eq!(query.get("limit"), Some("2"));

        let second = paged(numbers(5), &listing(&query)).unwrap();
        assert_eq!(second["data"], json!([2, 3]));
        let after = second["paging"]["cursors"]["after"].as_str().unwrap();
        let last_params = params(&format!("after={after}"));
        let last = paged(numbers(5), &listing(&last_params)).unwrap();
        assert_eq!(last["data"], json!([4]));
        assert!(last["paging"]["next"].is_null(), "{last}");
        let before = last["paging"]["cursors"]["before"].as_str().unwrap();
        let back_params = params(&format!("before={before}"));
        let back = paged(numbers(5), &listing(&back_params)).unwrap();
        assert_eq!(back["data"], json!([2, 3]));
    }

    #[test]
    fn limit_only_shrinks_pages_and_bad_cursors_are_refused() {
        let one = params("limit=1");
        assert_eq!(
            paged(numbers(3), &listing(&one)).unwrap()["data"],
            json!([0])
        );
        let many = params("limit=500");
        assert_eq!(
            paged(numbers(3), &listing(&many)).unwrap()["data"],
            json!([0, 1])
        );
        let bad = params("after=nonsense");
        assert_eq!(paged(numbers(3), &listing(&bad)).unwrap_err().code, 100);
        let empty = params("");
        assert_eq!(
            paged(Vec::new(), &listing(&empty)).unwrap(),
            json!({"data": []})
        );
    }
}
