//! The `social_b` connection: an X (Twitter) account's organic figures, read through the X API
//! v2 with an app's bearer token (app-only authentication): the account's followers count and
//! its recent posts with their public metrics. Read only.
//!
//! One file per concern: `client` (the origin, the token, error bodies and the rate limit),
//! `wire` (the documented shapes), `mapping` (posts and counts to the batch's parts), `source`
//! (the [`crate::Source`]: test and read).
//!
//! Documentation followed (docs.x.com): "Users lookup" (`GET /2/users/by/username/:username`,
//! `user.fields=public_metrics`), "User Posts timeline" (`GET /2/users/:id/tweets`,
//! `tweet.fields`, `max_results` 5-100, `start_time`, `pagination_token` from `meta.next_token`,
//! the most recent 3,200 posts), "Response codes and errors" (problem bodies, `errors[]` in a
//! 200 for a resource not found) and "Rate limits" (`x-rate-limit-reset`).

mod client;
#[cfg(test)]
mod loopback_tests;
mod mapping;
mod source;
mod wire;

pub use client::RateLimitWait;
pub use mapping::NETWORK;
pub use source::SocialBSource;

use std::fmt;

use crate::ConnectorError;
use crate::payments::RetryPolicy;
use client::XClient;
use wire::{RESOURCE_NOT_FOUND, UserAnswer};

/// X's API origin; `/2/...` paths are appended.
pub const DEFAULT_API_BASE_URL: &str = "https://api.x.com";

/// The longest X handle.
pub const USERNAME_MAX_CHARS: usize = 15;

/// One `social_b` connection. `Debug` never prints the token.
#[derive(Clone)]
pub struct SocialBConfig {
    /// The bearer token of the customer's X developer app.
    pub bearer_token: String,
    /// The account's handle, without `@`.
    pub username: String,
    /// Default [`DEFAULT_API_BASE_URL`]; tests point it at a fake.
    pub api_base_url: String,
    /// How often server errors are retried.
    pub retry: RetryPolicy,
    /// The longest a call waits for X's rate limit to reset.
    pub rate_limit_wait: RateLimitWait,
}

impl SocialBConfig {
    /// A config against X's origin with the default retry policy and rate-limit wait.
    pub fn new(bearer_token: String, username: String) -> Self {
        Self {
            bearer_token,
            username,
            api_base_url: DEFAULT_API_BASE_URL.to_owned(),
            retry: RetryPolicy::default(),
            rate_limit_wait: RateLimitWait::default(),
        }
    }

    fn client<'a>(&'a self, http: &'a reqwest::Client) -> Result<XClient<'a>, ConnectorError> {
        XClient::new(
            http,
            &self.api_base_url,
            &self.bearer_token,
            self.retry,
            self.rate_limit_wait,
        )
    }
}

impl fmt::Debug for SocialBConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SocialBConfig")
            .field("bearer_token", &"[redacted]")
            .field("username", &self.username)
            .field("api_base_url", &self.api_base_url)
            .field("retry", &self.retry)
            .field("rate_limit_wait", &self.rate_limit_wait)
            .finish()
    }
}

/// The handle as X spells it: a leading `@` dropped, then 1 to 15 letters, digits or
/// underscores (X's own `^[A-Za-z0-9_]{1,15}$`), else [`ConnectorError::Config`] naming the
/// field.
pub fn username(raw: &str) -> Result<String, ConnectorError> {
    let trimmed = raw.trim();
    let name = trimmed.strip_prefix('@').unwrap_or(trimmed);
    let valid = (1..=USERNAME_MAX_CHARS).contains(&name.len())
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    if valid {
        Ok(name.to_owned())
    } else {
        Err(ConnectorError::Config(format!(
            "username: must be an X handle of 1 to {USERNAME_MAX_CHARS} letters, digits or \
             underscores (with or without a leading @)"
        )))
    }
}

/// An X account as the users lookup answers it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XAccount {
    pub id: String,
    /// As X spells it (its case may differ from what was typed).
    pub username: String,
    /// `public_metrics.followers_count`; none when X did not give it.
    pub followers: Option<i64>,
}

/// Looks `username` up with the default retry policy and rate-limit wait: the connect's proof
/// of the token. A refused token is [`ConnectorError::Unauthorized`] carrying X's `detail`; a
/// user X cannot find is [`ConnectorError::Config`] naming `username` with X's detail.
pub async fn find_account(
    http: &reqwest::Client,
    origin: &str,
    bearer_token: &str,
    username: &str,
) -> Result<XAccount, ConnectorError> {
    let client = XClient::new(
        http,
        origin,
        bearer_token,
        RetryPolicy::default(),
        RateLimitWait::default(),
    )?;
    account(&client, username).await
}

async fn account(client: &XClient<'_>, username: &str) -> Result<XAccount, ConnectorError> {
    let name = self::username(username)?;
    let answer: UserAnswer = client
        .get(
            "the users lookup",
            &format!("/2/users/by/username/{name}"),
            &[("user.fields", "public_metrics".to_owned())],
        )
        .await?;
    match answer.data {
        Some(user) => Ok(XAccount {
            followers: user.public_metrics.and_then(|m| m.followers_count),
            id: user.id,
            username: user.username,
        }),
        None => {
            let problem = answer.errors.first();
            let reason = problem
                .and_then(|p| p.reason())
                .map(|reason| client.scrub(reason))
                .unwrap_or_else(|| format!("X answered no user for @{name}"));
            // A missing (or suspended) user is the field's fault; anything else is X's.
            let missing = problem.is_none_or(|p| {
                p.kind.as_deref() == Some(RESOURCE_NOT_FOUND)
                    || p.kind
                        .as_deref()
                        .is_some_and(|k| k.ends_with("/resource-unavailable"))
            });
            if missing {
                Err(ConnectorError::Config(format!("username: {reason}")))
            } else {
                Err(ConnectorError::Vendor(format!(
                    "X answered the users lookup: {reason}"
                )))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_config_starts_at_x_and_never_prints_its_token() {
        let config = SocialBConfig::new("AAAAbearer-secret".into(), "shop".into());
        assert_eq!(config.api_base_url, "https://api.x.com");
        assert_eq!(config.rate_limit_wait, RateLimitWait::default());
        let text = format!("{config:?}");
        assert!(!text.contains("AAAAbearer-secret"), "{text}");
        assert!(text.contains("shop"), "{text}");
    }

    #[test]
    fn a_username_drops_its_at_and_follows_xs_pattern() {
        assert_eq!(username("@Shop_01").unwrap(), "Shop_01");
        assert_eq!(username(" shop ").unwrap(), "shop");
        assert_eq!(username("a23456789012345").unwrap(), "a23456789012345");
        for bad in [
            "",
            "@",
            "@@shop",
            "a234567890123456",
            "shop.example",
            "sh op",
            "shöp",
        ] {
            let Err(ConnectorError::Config(message)) = username(bad) else {
                panic!("{bad:?} must be refused");
            };
            assert!(message.starts_with("username: "), "{message}");
        }
    }
}
