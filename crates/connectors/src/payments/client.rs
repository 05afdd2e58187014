//! HTTP against the Stripe API: bearer auth, list pagination with `starting_after`, retries on
//! 429 with exponential backoff, and Stripe's error bodies mapped to [`ConnectorError`].

use std::time::Duration;

use reqwest::StatusCode;
use serde::de::DeserializeOwned;

use super::key::redact;
use super::wire::{ErrorBody, HasId, List};
use super::{PaymentsConfig, RetryPolicy};
use crate::{ConnectorError, SyncWindow};

/// Stripe's maximum page size.
const PAGE_LIMIT: u32 = 100;

/// A hung connection must not hold a sync job's lease forever.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);

/// One list endpoint and the fields expanded on its objects.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ListSpec {
    pub path: &'static str,
    pub expand: &'static [&'static str],
}

/// Charges carry their customer, whose email is the identity of last resort.
pub(crate) const CHARGES: ListSpec = ListSpec {
    path: "/v1/charges",
    expand: &["data.customer"],
};

/// Refunds and disputes carry their charge, so they take the same identity as the payment they
/// take back.
pub(crate) const REFUNDS: ListSpec = ListSpec {
    path: "/v1/refunds",
    expand: &["data.charge", "data.charge.customer"],
};

pub(crate) const DISPUTES: ListSpec = ListSpec {
    path: "/v1/disputes",
    expand: &["data.charge", "data.charge.customer"],
};

/// `created[gte]`/`created[lt]` in Unix seconds for the window `[from, to)` in milliseconds: an
/// object created at second `s` is in the window when `from <= s * 1000 < to`, i.e. `s` is at
/// least `ceil(from / 1000)` and below `ceil(to / 1000)`.
pub(crate) fn created_range(window: SyncWindow) -> [(&'static str, String); 2] {
    let ceil_seconds = |millis: i64| -((-millis).div_euclid(1000));
    [
        (
            "created[gte]",
            ceil_seconds(window.from.millis()).to_string(),
        ),
        ("created[lt]", ceil_seconds(window.to.millis()).to_string()),
    ]
}

pub(crate) struct StripeClient<'a> {
    http: &'a reqwest::Client,
    base_url: &'a str,
    key: &'a str,
    retry: RetryPolicy,
}

impl<'a> StripeClient<'a> {
    pub(crate) fn new(http: &'a reqwest::Client, config: &'a PaymentsConfig) -> Self {
        Self {
            http,
            base_url: config.base_url.trim_end_matches('/'),
            key: &config.secret_key,
            retry: config.retry,
        }
    }

    /// One object of `list`: proves the key may read it (and expand what sync expands).
    pub(crate) async fn probe(&self, list: ListSpec) -> Result<(), ConnectorError> {
        let mut query = expand_params(list);
        query.push(("limit", "1".to_owned()));
        self.get::<List<serde_json::Value>>(list.path, &query)
            .await
            .map(|_| ())
    }

    /// Every object of `list` created in `created`, following `has_more` page by page.
    pub(crate) async fn list<T>(
        &self,
        list: ListSpec,
        created: &[(&'static str, String); 2],
    ) -> Result<Vec<T>, ConnectorError>
    where
        T: DeserializeOwned + HasId,
    {
        let mut base = expand_params(list);
        base.extend(created.iter().cloned());
        base.push(("limit", PAGE_LIMIT.to_string()));
        let mut objects: Vec<T> = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let mut query = base.clone();
            if let Some(after) = &cursor {
                query.push(("starting_after", after.clone()));
            }
            let page: List<T> = self.get(list.path, &query).await?;
            let last = page.data.last().map(|object| object.id().to_owned());
            objects.extend(page.data);
            if !page.has_more {
                break;
            }
            // A page that claims more but gives no new cursor would loop forever.
            match last {
                Some(id) if cursor.as_deref() != Some(id.as_str()) => cursor = Some(id),
                _ => {
                    return Err(ConnectorError::Vendor(format!(
                        "{} said has_more without a new last object",
                        list.path
                    )));
                }
            }
        }
        tracing::debug!(path = list.path, count = objects.len(), "stripe list read");
        Ok(objects)
    }

    /// `GET path?query`, retrying 429s; the key travels only in the `Authorization` header.
    async fn get<T: DeserializeOwned>(
        &self,
        path: &str,
        query: &[(&'static str, String)],
    ) -> Result<T, ConnectorError> {
        let url = format!("{}{path}", self.base_url);
        let mut retried = 0;
        loop {
            let response = self
                .http
                .get(&url)
                .bearer_auth(self.key)
                .query(query)
                .timeout(REQUEST_TIMEOUT)
                .send()
                .await
                .map_err(|err| ConnectorError::Unreachable(self.describe(&err)))?;
            let status = response.status();
            if status == StatusCode::TOO_MANY_REQUESTS && retried < self.retry.retries {
                let delay = self
                    .retry
                    .base_delay
                    .saturating_mul(2u32.saturating_pow(retried));
                tracing::warn!(
                    path,
                    retry = retried + 1,
                    ?delay,
                    "stripe answered 429; backing off"
                );
                tokio::time::sleep(delay).await;
                retried += 1;
                continue;
            }
            let body = response
                .bytes()
                .await
                .map_err(|err| ConnectorError::Unreachable(self.describe(&err)))?;
            if status.is_success() {
                return serde_json::from_slice(&body).map_err(|err| {
                    ConnectorError::Vendor(format!(
                        "{path} answered a shape Payback does not read: {err}"
                    ))
                });
            }
            return Err(self.error(path, status, &body));
        }
    }

    /// Stripe's `error.message` (or the status alone), with any key scrubbed out.
    fn error(&self, path: &str, status: StatusCode, body: &[u8]) -> ConnectorError {
        let detail = serde_json::from_slice::<ErrorBody>(body)
            .unwrap_or_default()
            .error;
        let message = match (detail.message, detail.code.or(detail.kind)) {
            (Some(message), _) => message,
            (None, Some(code)) => code,
            (None, None) => "no error message".to_owned(),
        };
        let line = redact(
            &format!("Stripe answered {} on {path}: {message}", status.as_u16()),
            self.key,
        );
        match status {
            StatusCode::UNAUTHORIZED => ConnectorError::Unauthorized(line),
            StatusCode::FORBIDDEN => ConnectorError::Unauthorized(format!(
                "{line} (a restricted key needs read access to charges, refunds, disputes and \
                 customers)"
            )),
            StatusCode::TOO_MANY_REQUESTS => ConnectorError::RateLimited(format!(
                "{line} (after {} retries)",
                self.retry.retries
            )),
            _ => ConnectorError::Vendor(line),
        }
    }

    /// The transport error with its causes (reqwest's own line is only "error sending request").
    fn describe(&self, err: &reqwest::Error) -> String {
        let mut text = err.to_string();
        let mut source = std::error::Error::source(err);
        while let Some(cause) = source {
            text.push_str(": ");
            text.push_str(&cause.to_string());
            source = cause.source();
        }
        redact(&text, self.key)
    }
}

fn expand_params(list: ListSpec) -> Vec<(&'static str, String)> {
    list.expand
        .iter()
        .map(|field| ("expand[]", (*field).to_owned()))
        .collect()
}

#[cfg(test)]
mod tests {
    use payback_domain::Timestamp;

    use super::*;

    #[test]
    fn window_edges_round_up_to_whole_seconds() {
        let window = SyncWindow {
            from: Timestamp::from_millis(1_000_500),
            to: Timestamp::from_millis(2_000_000),
        };
        let [gte, lt] = created_range(window);
        assert_eq!(gte.1, "1001");
        assert_eq!(lt.1, "2000");
        let negative = created_range(SyncWindow {
            from: Timestamp::from_millis(-1500),
            to: Timestamp::from_millis(-1000),
        });
        assert_eq!(negative[0].1, "-1");
        assert_eq!(negative[1].1, "-1");
    }
}
