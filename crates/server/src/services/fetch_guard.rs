//! The one way the server fetches a URL a tenant gave (a landing page to analyze, a site to
//! detect integrations on): the tenant must not make the API host reach its neighbours (cloud
//! metadata at 169.254.169.254, an admin port on loopback, the private network).
//!
//! Every hop is checked by [`OriginGuard`] (`tenant_origin.rs`, the one rule for any origin a
//! tenant gave, PostHog's `host` included): the host resolved once, every address checked by
//! `host_guard`'s rules, and the request sent to exactly those addresses, never to a second
//! lookup of the name (rebinding). Redirects are followed here, not by the HTTP client, each
//! hop checked the same way, at most [`MAX_REDIRECTS`]. The whole fetch takes at most
//! [`FETCH_TIMEOUT`] and reads at most [`MAX_BODY_BYTES`] of the body (the rest is never read).
//! Refusals and failures are 400 naming the caller's field (`url`, `host`) and the host as it
//! was given, before anything is sent to a refused address.
//! `PAYBACK_ALLOW_PRIVATE_FETCH_HOSTS=true` lifts the address rule only (tests, self-hosted
//! setups); a name that does not resolve is refused always.

mod tenant_origin;

use std::time::Duration;

use reqwest::Url;
use reqwest::header::{ACCEPT, CONTENT_TYPE, LOCATION};
use reqwest::{Response, StatusCode};

use crate::error::{ApiError, ApiResult};
use crate::state::AppState;

pub use tenant_origin::{Hop, OriginGuard};

/// Redirects followed before the fetch gives up.
pub const MAX_REDIRECTS: usize = 5;
/// The whole fetch, every hop and the body included.
pub const FETCH_TIMEOUT: Duration = Duration::from_secs(10);
/// The most of a body read; a longer page is cut here.
pub const MAX_BODY_BYTES: usize = 2 * 1024 * 1024;
/// The longest URL fetched, in characters.
pub const MAX_URL_CHARS: usize = 2048;

/// What a fetch brought back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchedPage {
    /// The URL that answered, after redirects.
    pub final_url: String,
    /// Its status (a non-2xx answer is returned too: callers decide what it means).
    pub status: u16,
    /// The `Content-Type` it declared.
    pub content_type: Option<String>,
    /// The first [`MAX_BODY_BYTES`] of the body as text (invalid UTF-8 replaced).
    pub body_text: String,
}

impl FetchedPage {
    pub fn is_success(&self) -> bool {
        (200..300).contains(&self.status)
    }
}

/// Fetches `url` (http or https) through the guard; errors are 400 naming `field`.
pub async fn fetch_page(state: &AppState, url: &str, field: &str) -> ApiResult<FetchedPage> {
    let guard = OriginGuard::new(state);
    match tokio::time::timeout(FETCH_TIMEOUT, follow(&guard, url, field)).await {
        Ok(result) => result,
        Err(_) => Err(refused(
            field,
            format!("did not answer within {} s", FETCH_TIMEOUT.as_secs()),
        )),
    }
}

/// `url` as an absolute http(s) URL of at most [`MAX_URL_CHARS`]; the message says why not.
pub fn parse_web_url(url: &str) -> Result<Url, String> {
    if url.chars().count() > MAX_URL_CHARS {
        return Err(format!("must be at most {MAX_URL_CHARS} characters"));
    }
    let parsed = Url::parse(url.trim()).map_err(|_| "must be an absolute http or https URL")?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err("must be an http or https URL".to_owned());
    }
    if parsed.host_str().is_none_or(str::is_empty) {
        return Err("must name a host".to_owned());
    }
    Ok(parsed)
}

fn refused(field: &str, message: impl std::fmt::Display) -> ApiError {
    ApiError::bad_request(format!("{field}: {message}"))
}

async fn follow(guard: &OriginGuard<'_>, url: &str, field: &str) -> ApiResult<FetchedPage> {
    let mut current = parse_web_url(url).map_err(|message| refused(field, message))?;
    let mut redirects = 0;
    loop {
        let hop = if redirects > 0 {
            Hop::Redirected
        } else {
            Hop::Given
        };
        let response = send(guard, &current, field, hop).await?;
        let status = response.status();
        let location = response
            .headers()
            .get(LOCATION)
            .and_then(|value| value.to_str().ok())
            .map(str::to_owned);
        match location {
            Some(location) if is_redirect(status) => {
                if redirects == MAX_REDIRECTS {
                    return Err(refused(
                        field,
                        format!("more than {MAX_REDIRECTS} redirects"),
                    ));
                }
                redirects += 1;
                let next = current
                    .join(&location)
                    .map_err(|_| refused(field, "redirects to an invalid URL"))?;
                current = parse_web_url(next.as_str()).map_err(|message| {
                    refused(field, format!("redirects to a URL that {message}"))
                })?;
            }
            _ => return read(response, current).await,
        }
    }
}

fn is_redirect(status: StatusCode) -> bool {
    matches!(status.as_u16(), 301 | 302 | 303 | 307 | 308)
}

/// Checks the URL's host and sends one GET to the addresses checked.
async fn send(guard: &OriginGuard<'_>, url: &Url, field: &str, hop: Hop) -> ApiResult<Response> {
    let client = guard.client(url, field, hop).await?;
    client
        .get(url.clone())
        .header(ACCEPT, "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5")
        .send()
        .await
        .map_err(|err| {
            let err = err.without_url();
            let why = if err.is_timeout() {
                "did not answer in time"
            } else {
                "could not be reached"
            };
            let given = url.host_str().unwrap_or_default();
            refused(field, format!("{} `{given}` {why}", hop.words()))
        })
}

/// The body's first [`MAX_BODY_BYTES`], as text.
async fn read(mut response: Response, url: Url) -> ApiResult<FetchedPage> {
    let status = response.status().as_u16();
    let content_type = response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned);
    let mut body: Vec<u8> = Vec::new();
    while body.len() < MAX_BODY_BYTES {
        match response.chunk().await {
            Ok(Some(chunk)) => {
                let room = MAX_BODY_BYTES - body.len();
                body.extend_from_slice(&chunk[..chunk.len().min(room)]);
            }
            // A body cut short still says what it said so far.
            Ok(None) | Err(_) => break,
        }
    }
    Ok(FetchedPage {
        final_url: url.to_string(),
        status,
        content_type,
        body_text: String::from_utf8_lossy(&body).into_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::parse_web_url;

    #[test]
    fn only_absolute_web_urls_are_fetched() {
        assert!(parse_web_url("https://example.com/a?b=1").is_ok());
        assert!(parse_web_url("HTTP://Example.com").is_ok());
        for bad in [
            "ftp://example.com/",
            "javascript:alert(1)",
            "/relative",
            "file:///etc/passwd",
            "",
        ] {
            assert!(parse_web_url(bad).is_err(), "{bad}");
        }
        let long = format!("https://example.com/{}", "a".repeat(2048));
        assert!(parse_web_url(&long).is_err());
    }
}
