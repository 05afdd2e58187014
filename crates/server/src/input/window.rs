//! The shared `days` / `limit` window of every read, and each list read's `limit`: values a
//! caller sends to any door (a query string, an MCP tool's arguments), checked the same.

use payback_domain::Timestamp;
use payback_domain::span::Span;

use crate::error::ApiError;

/// The default and the largest `limit` of one list read. Every list the API answers has one,
/// so no read grows with what a tenant (or a runaway agent) has stored; the values of each
/// endpoint are in [`limits`] and in the docs/api.md's "List limits".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListLimit {
    pub default: i64,
    pub max: i64,
}

impl ListLimit {
    pub const fn new(default: i64, max: i64) -> Self {
        Self { default, max }
    }

    /// The caller's `limit`, or the default; 400 `limit: must be between 1 and N` otherwise.
    pub fn check(self, limit: Option<i64>) -> Result<i64, ApiError> {
        let limit = limit.unwrap_or(self.default);
        if !(1..=self.max).contains(&limit) {
            return Err(ApiError::bad_request(format!(
                "limit: must be between 1 and {}, got {limit}",
                self.max
            )));
        }
        Ok(limit)
    }

    /// [`ListLimit::check`] as a row count, for lists cut after they are read.
    pub fn rows(self, limit: Option<i64>) -> Result<usize, ApiError> {
        self.check(limit)
            .map(|limit| usize::try_from(limit).unwrap_or(usize::MAX))
    }
}

/// The `limit` of each list read (docs/api.md "List limits"). Logs that grow by themselves (cards,
/// history, outreach, revenue rows) default to a page of 100; collections people build by hand
/// (products, members, keys, connections, conversion definitions) default to their maximum, so
/// any real account sees them whole while the read stays bounded. Reports with a row per day
/// or per stage are bounded by `days` instead.
pub mod limits {
    use super::{ListLimit, Window};

    /// `GET /queue`, each `status`.
    pub const QUEUE: ListLimit = ListLimit::new(100, 500);
    /// `GET /history`, `GET /products/{slug}/distribution`, `.../attribution/sales` and
    /// `.../attribution/ads` (the `Window` of reads with `days`).
    pub const WINDOW: ListLimit = ListLimit::new(Window::DEFAULT_LIMIT, Window::MAX_LIMIT);
    /// `GET /portfolio`.
    pub const PORTFOLIO: ListLimit = ListLimit::new(500, 500);
    /// `GET /team`.
    pub const TEAM: ListLimit = ListLimit::new(500, 500);
    /// `GET /auth/keys`.
    pub const KEYS: ListLimit = ListLimit::new(500, 500);
    /// `GET /connections`.
    pub const CONNECTIONS: ListLimit = ListLimit::new(500, 500);
    /// `GET /products/{slug}/conversions` (the conversions report reads at most `max`).
    pub const CONVERSIONS: ListLimit = ListLimit::new(500, 500);
}

/// The `limit` query parameter alone, for list reads without a `days` window. Each endpoint
/// documents its own default and maximum in its `#[utoipa::path]` params.
#[derive(Debug, Default, serde::Deserialize)]
pub struct LimitParams {
    pub limit: Option<i64>,
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
        let limit = limits::WINDOW.check(limit)?;
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
    fn list_limits_default_and_refuse_beyond_the_max() {
        assert_eq!(limits::QUEUE.check(None).unwrap(), 100);
        assert_eq!(limits::QUEUE.check(Some(500)).unwrap(), 500);
        for refused in [0, -1, 501] {
            let err = limits::QUEUE.check(Some(refused)).unwrap_err();
            assert_eq!(
                err.to_string(),
                format!("limit: must be between 1 and 500, got {refused}")
            );
        }
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
