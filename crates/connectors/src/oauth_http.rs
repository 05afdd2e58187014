//! `oauth2`'s HTTP client over our `reqwest::Client`, shared by the OAuth grants (`oauth`) and
//! the OpenID Connect sign-in (`oidc`): the crates' own reqwest glue targets another reqwest
//! than ours, so [`Adapter`] implements `oauth2::AsyncHttpClient` (`http::Request<Vec<u8>>` in,
//! a future of `http::Response<Vec<u8>>` out; `openidconnect` speaks the same trait).

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use crate::oauth::describe;

/// A hung endpoint must not hold a sync job's lease (or a person's callback) forever.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);

/// Why the adapter gave no response to `oauth2`: the request never completed, or the endpoint
/// answered with a status worth telling apart (429, 5xx) rather than an OAuth error body.
#[derive(Debug, thiserror::Error)]
pub(crate) enum EndpointFailure {
    #[error("{0}")]
    Transport(String),
    #[error("answered {0}")]
    Status(u16),
}

/// `oauth2`'s HTTP client over our `reqwest::Client` (a cloned handle; the pool is shared). A
/// named type owning its client rather than a closure borrowing one: the sources' futures must
/// be `Send`, and a borrowed client inside `oauth2`'s future trips the compiler's higher-ranked
/// `Send` check; the boxed future is `Send` by declaration.
pub(crate) struct Adapter(pub(crate) reqwest::Client);

impl<'c> oauth2::AsyncHttpClient<'c> for Adapter {
    type Error = EndpointFailure;
    type Future =
        Pin<Box<dyn Future<Output = Result<oauth2::HttpResponse, EndpointFailure>> + Send + 'c>>;

    fn call(&'c self, request: oauth2::HttpRequest) -> Self::Future {
        Box::pin(send(&self.0, request))
    }
}

/// One request of `oauth2`'s, sent with the request timeout.
async fn send(
    http: &reqwest::Client,
    request: oauth2::HttpRequest,
) -> Result<oauth2::HttpResponse, EndpointFailure> {
    let (parts, body) = request.into_parts();
    let response = http
        .request(parts.method, parts.uri.to_string())
        .headers(parts.headers)
        .body(body)
        .timeout(REQUEST_TIMEOUT)
        .send()
        .await
        .map_err(|err| EndpointFailure::Transport(describe(&err)))?;
    let status = response.status();
    if status.as_u16() == 429 || status.is_server_error() {
        return Err(EndpointFailure::Status(status.as_u16()));
    }
    let headers = response.headers().clone();
    let bytes = response
        .bytes()
        .await
        .map_err(|err| EndpointFailure::Transport(describe(&err)))?;
    let mut built = oauth2::http::Response::builder().status(status);
    if let Some(target) = built.headers_mut() {
        target.extend(headers);
    }
    built
        .body(bytes.to_vec())
        .map_err(|err| EndpointFailure::Transport(err.to_string()))
}
