//! An HTTP answer, read whole.

use serde_json::Value;

#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    /// The body as JSON (`Value::Null` when it is not JSON).
    pub body: Value,
    pub text: String,
}

impl Reply {
    /// Reads a whole answer (for requests a test sends itself, concurrent ones say).
    pub async fn read(response: reqwest::Response) -> Self {
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let text = response.text().await.unwrap_or_default();
        let body = serde_json::from_str(&text).unwrap_or(Value::Null);
        Self {
            status,
            headers,
            body,
            text,
        }
    }

    /// Asserts the status and returns the body, showing the body when the status differs.
    #[track_caller]
    pub fn expect(&self, status: u16) -> &Value {
        assert_eq!(
            self.status, status,
            "unexpected status; body: {}",
            self.text
        );
        &self.body
    }

    /// Asserts an error answer: the status, a JSON `{error}` body, and that the message
    /// contains `needle` (case-insensitive).
    #[track_caller]
    pub fn expect_error(&self, status: u16, needle: &str) {
        assert_eq!(
            self.status, status,
            "unexpected status; body: {}",
            self.text
        );
        let message = self.body["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no error field in {}", self.text));
        assert!(
            message.to_lowercase().contains(&needle.to_lowercase()),
            "error {message:?} does not mention {needle:?}"
        );
    }

    /// Asserts a rate-limit refusal: 429, a `Retry-After` of whole seconds within `most`, and
    /// the message's "try again in N s" saying the same N. Returns N.
    #[track_caller]
    pub fn expect_retry_after(&self, most: u64) -> u64 {
        self.expect_error(429, "try again in");
        let seconds: u64 = self
            .header("retry-after")
            .unwrap_or_else(|| panic!("429 without Retry-After: {}", self.text))
            .parse()
            .expect("Retry-After in whole seconds");
        assert!((1..=most).contains(&seconds), "Retry-After {seconds}");
        self.expect_error(429, &format!("try again in {seconds} s"));
        seconds
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
}
