//! The scripted human in a browser on a provider's consent screen: opens the URL the app built
//! and reports where the provider redirects them, or the error page it shows instead.

/// What a consent screen showed instead of redirecting (an unknown client, a redirect URI it
/// does not accept, a malformed request); status 0 when the screen could not be reached.
#[derive(Debug, Clone)]
pub struct ErrorPage {
    pub status: u16,
    pub body: String,
}

/// GETs `url` without following redirects and returns the `Location` it redirects to; `screen`
/// names the page in the error bodies ("the consent screen").
pub(crate) async fn visit(url: &str, screen: &str) -> Result<String, ErrorPage> {
    // Tests may build their first HTTPS client here; installing twice is harmless.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let unreachable = |body: String| ErrorPage { status: 0, body };
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(|error| unreachable(format!("no HTTP client for the human: {error}")))?;
    let response = client
        .get(url)
        .send()
        .await
        .map_err(|error| unreachable(format!("{screen} did not answer: {error}")))?;
    let status = response.status();
    let location = response
        .headers()
        .get(reqwest::header::LOCATION)
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned);
    match location {
        Some(location) if status.is_redirection() => Ok(location),
        _ => Err(ErrorPage {
            status: status.as_u16(),
            body: response.text().await.unwrap_or_default(),
        }),
    }
}

/// The redirect of [`visit`], failing the test when `screen` showed an error page instead.
pub(crate) fn expect_redirect(visited: Result<String, ErrorPage>, screen: &str) -> String {
    match visited {
        Ok(location) => location,
        Err(page) => panic!("{screen} showed an error ({}): {}", page.status, page.body),
    }
}
