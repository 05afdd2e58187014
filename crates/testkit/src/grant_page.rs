//! The grants' confirmation page as a person goes through it: `auth_url` (Payback's page) is
//! read, its form submitted, and the provider's URL it redirects to answered, for the fakes'
//! `authorize` to play the consent. The form's answer sets the cookie binding the state to the
//! confirming browser; this module keeps it (per state) the way a browser would, and
//! [`TestApp::follow_callback`] sends it with the provider's redirect back.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use crate::TestApp;

/// The "browser's" cookies of confirmed grants: state -> `name=value`. States are random, so
/// tests running side by side never share one.
fn cookie_jar() -> &'static Mutex<HashMap<String, String>> {
    static JAR: OnceLock<Mutex<HashMap<String, String>>> = OnceLock::new();
    JAR.get_or_init(Mutex::default)
}

/// The `state` query parameter of a URL.
fn state_of(url: &str) -> Option<String> {
    reqwest::Url::parse(url).ok().and_then(|url| {
        url.query_pairs()
            .find(|(key, _)| key == "state")
            .map(|(_, value)| value.into_owned())
    })
}

/// The page as fetched: status, `Content-Type` and the HTML.
#[derive(Debug, Clone)]
pub struct GrantPage {
    pub status: u16,
    pub content_type: String,
    pub headers: reqwest::header::HeaderMap,
    pub body: String,
}

impl GrantPage {
    /// The value of the form's hidden `state` field.
    pub fn hidden_state(&self) -> Option<String> {
        let marker = "name=\"state\" value=\"";
        let start = self.body.find(marker)? + marker.len();
        let end = self.body[start..].find('"')?;
        Some(self.body[start..start + end].to_owned())
    }

    /// The form's `action`.
    pub fn form_action(&self) -> Option<String> {
        let marker = "<form method=\"post\" action=\"";
        let start = self.body.find(marker)? + marker.len();
        let end = self.body[start..].find('"')?;
        Some(self.body[start..start + end].replace("&amp;", "&"))
    }
}

/// The form's answer: its status, `Location`, `Set-Cookie` and body.
#[derive(Debug, Clone)]
pub struct Confirmed {
    pub status: u16,
    pub location: Option<String>,
    pub set_cookie: Option<String>,
    pub body: String,
}

impl TestApp {
    /// `GET auth_url`, as the person's browser opens it.
    pub async fn grant_page(&self, auth_url: &str) -> GrantPage {
        let response = self
            .client
            .get(auth_url)
            .send()
            .await
            .expect("the confirmation page answers");
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let content_type = headers
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        let body = response.text().await.unwrap_or_default();
        GrantPage {
            status,
            content_type,
            headers,
            body,
        }
    }

    /// Submits the page's form (`POST {action}` with `state`), with extra request headers.
    pub async fn submit_grant_page(
        &self,
        action: &str,
        state: &str,
        headers: &[(&str, &str)],
    ) -> Confirmed {
        let mut request = self.client.post(action).form(&[("state", state)]);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let response = request.send().await.expect("the confirmation form answers");
        let status = response.status().as_u16();
        let header = |name| {
            response
                .headers()
                .get(name)
                .and_then(|value: &reqwest::header::HeaderValue| value.to_str().ok())
                .map(str::to_owned)
        };
        let location = header(reqwest::header::LOCATION);
        let set_cookie = header(reqwest::header::SET_COOKIE);
        if let Some(cookie) = &set_cookie
            && let Some(pair) = cookie.split(';').next()
        {
            cookie_jar()
                .lock()
                .expect("cookie jar")
                .insert(state.to_owned(), pair.trim().to_owned());
        }
        let body = response.text().await.unwrap_or_default();
        Confirmed {
            status,
            location,
            set_cookie,
            body,
        }
    }

    /// The cookie (`name=value`) the confirmation of `state` set, if it was confirmed here.
    pub fn grant_cookie(&self, state: &str) -> Option<String> {
        cookie_jar().lock().expect("cookie jar").get(state).cloned()
    }

    /// Follows the provider's redirect back to the callback as the browser that confirmed
    /// the state: with the cookie the confirmation set.
    pub async fn follow_callback(&self, location: &str) -> reqwest::Response {
        let mut request = self.client.get(location);
        if let Some(cookie) = state_of(location).and_then(|state| self.grant_cookie(&state)) {
            request = request.header(reqwest::header::COOKIE, cookie);
        }
        request.send().await.expect("the callback answers")
    }

    /// Opens `auth_url`, checks it is the confirmation page, submits its form as the person
    /// does and answers the provider's URL it redirects to (303).
    pub async fn confirm_grant(&self, auth_url: &str) -> String {
        let page = self.grant_page(auth_url).await;
        assert_eq!(page.status, 200, "{}", page.body);
        assert!(
            page.content_type.starts_with("text/html"),
            "{}",
            page.content_type
        );
        let state = page.hidden_state().expect("the form's hidden state");
        let action = page.form_action().expect("the form's action");
        let confirmed = self.submit_grant_page(&action, &state, &[]).await;
        assert_eq!(confirmed.status, 303, "{}", confirmed.body);
        confirmed.location.expect("a Location to the provider")
    }
}
