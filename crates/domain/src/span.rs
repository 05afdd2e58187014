//! Report windows: the N UTC days ending today, and the N days before them.

use crate::{DAY_MS, Timestamp};

/// A half-open span of time `[start, end)` aligned to UTC days.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub start: Timestamp,
    pub end: Timestamp,
}

impl Span {
    /// The `days` UTC days ending with today (inclusive): `days = 1` is today so far.
    pub fn days_ending(now: Timestamp, days: i64) -> Self {
        let tomorrow = now.start_of_day().plus_millis(DAY_MS);
        Self {
            start: tomorrow.minus_millis(days * DAY_MS),
            end: tomorrow,
        }
    }

    /// The span of equal length just before this one.
    pub fn previous(self) -> Self {
        let length = self.end.millis() - self.start.millis();
        Self {
            start: self.start.minus_millis(length),
            end: self.start,
        }
    }

    pub fn days(self) -> i64 {
        (self.end.millis() - self.start.millis()) / DAY_MS
    }

    /// The first day, `YYYY-MM-DD`.
    pub fn first_day(self) -> String {
        self.start.day()
    }

    /// The last day included, `YYYY-MM-DD`.
    pub fn last_day(self) -> String {
        self.end.minus_millis(1).day()
    }

    /// Every day of the span, oldest first.
    pub fn each_day(self) -> impl Iterator<Item = String> {
        (0..self.days()).map(move |offset| self.start.plus_millis(offset * DAY_MS).day())
    }

    pub fn contains(self, at: Timestamp) -> bool {
        self.start <= at && at < self.end
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thirty_days_end_today() {
        let now = Timestamp::parse_rfc3339("2026-11-21T12:00:00Z").unwrap();
        let span = Span::days_ending(now, 30);
        assert_eq!(span.first_day(), "2026-10-23");
        assert_eq!(span.last_day(), "2026-11-21");
        assert_eq!(span.days(), 30);
        assert_eq!(span.each_day().count(), 30);
        assert!(span.contains(now));
        let previous = span.previous();
        assert_eq!(previous.first_day(), "2026-09-23");
        assert_eq!(previous.last_day(), "2026-10-22");
        assert_eq!(Span::days_ending(now, 1).first_day(), "2026-11-21");
    }
}
