//! Query strings with JSON errors, and the shared `days` / `limit` window of every read.

use axum::extract::{FromRequestParts, OptionalFromRequestParts};
use axum::http::request::Parts;
use payback_domain::Timestamp;
use payback_domain::span::Span;
use serde::de::DeserializeOwned;

use crate::error::ApiError;

#[derive(Debug, Clone, Copy, Default)]
pub struct Query<T>(pub T);

impl<T, S> FromRequestParts<S> for Query<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        axum::extract::Query::<T>::from_request_parts(parts, state)
            .await
            .map(|axum::extract::Query(value)| Query(value))
            .map_err(|rejection| {
                let text = rejection.body_text();
                let detail = text
                    .strip_prefix("Failed to deserialize query string: ")
                    .unwrap_or(&text);
                ApiError::BadRequest(format!("invalid query: {detail}"))
            })
    }
}

impl<T, S> OptionalFromRequestParts<S> for Query<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &S,
    ) -> Result<Option<Self>, Self::Rejection> {
        <Self as FromRequestParts<S>>::from_request_parts(parts, state)
            .await
            .map(Some)
    }
}

/// `days` (default 30, 1-3650) and `limit` (default 100, 1-1000), checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    pub days: i64,
    pub limit: i64,
}

impl Window {
    pub const DEFAULT_DAYS: i64 = 30;
    pub const MAX_DAYS: i64 = 3650;
    pub const DEFAULT_LIMIT: i64 = 100;
    pub const MAX_LIMIT: i64 = 1000;

    pub fn new(days: Option<i64>, limit: Option<i64>) -> Result<Self, ApiError> {
        let days = days.unwrap_or(Self::DEFAULT_DAYS);
        if !(1..=Self::MAX_DAYS).contains(&days) {
            return Err(ApiError::bad_request(format!(
                "days: must be 1-{}, got {days}",
                Self::MAX_DAYS
            )));
        }
        let limit = limit.unwrap_or(Self::DEFAULT_LIMIT);
        if !(1..=Self::MAX_LIMIT).contains(&limit) {
            return Err(ApiError::bad_request(format!(
                "limit: must be 1-{}, got {limit}",
                Self::MAX_LIMIT
            )));
        }
        Ok(Self { days, limit })
    }

    /// The window's span: the `days` UTC days ending today.
    pub fn span(&self, now: Timestamp) -> Span {
        Span::days_ending(now, self.days)
    }

    /// The first instant of the window: midnight UTC starting the N days that end today.
    pub fn since(&self, now: Timestamp) -> Timestamp {
        self.span(now).start
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use payback_domain::DAY_MS;

    #[test]
    fn defaults_and_bounds() {
        assert_eq!(
            Window::new(None, None).unwrap(),
            Window {
                days: 30,
                limit: 100
            }
        );
        assert!(Window::new(Some(0), None).is_err());
        assert!(Window::new(Some(3651), None).is_err());
        assert!(Window::new(None, Some(1001)).is_err());
    }

    #[test]
    fn one_day_window_starts_at_midnight_today() {
        let now = Timestamp::from_millis(3 * DAY_MS + 5_000);
        let window = Window::new(Some(1), None).unwrap();
        assert_eq!(window.since(now), Timestamp::from_millis(3 * DAY_MS));
        let week = Window::new(Some(7), None).unwrap();
        assert_eq!(
            week.since(Timestamp::from_millis(10 * DAY_MS + 1)),
            Timestamp::from_millis(4 * DAY_MS)
        );
    }
}
