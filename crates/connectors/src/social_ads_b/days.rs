//! The UTC days a read asks LinkedIn for: the window's days, clamped to the history ad analytics
//! keeps, and cut into spans a request can answer whole.
//!
//! Retention: LinkedIn keeps ad performance (non-demographic) analytics for 10 years, so a day
//! before today minus 10 years answers nothing; such days are left out of the read (and out of
//! the days the read replaces, so older rows stored earlier stay).

use time::{Date, Month};

use crate::batch::DayRange;

/// Years of ad performance analytics LinkedIn serves.
pub(crate) const RETENTION_YEARS: i32 = 10;

/// Inclusive UTC days.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Span {
    pub first: Date,
    pub last: Date,
}

impl Span {
    /// Days in the span (at least 1 for a well-formed span).
    pub(crate) fn len(self) -> i64 {
        i64::from(self.last.to_julian_day() - self.first.to_julian_day()) + 1
    }

    pub(crate) fn contains(self, day: Date) -> bool {
        self.first <= day && day <= self.last
    }

    /// The span as the days a spend read replaces.
    pub(crate) fn day_range(self) -> DayRange {
        DayRange {
            first: text(self.first),
            last: text(self.last),
        }
    }

    /// Consecutive spans of at most `max_days` days covering this one, in order.
    pub(crate) fn chunks(self, max_days: i64) -> Vec<Span> {
        let max_days = max_days.max(1);
        let mut spans = Vec::new();
        let mut first = self.first;
        while first <= self.last {
            let last = add_days(first, max_days - 1).min(self.last);
            spans.push(Span { first, last });
            match last.next_day() {
                Some(next) => first = next,
                None => break,
            }
        }
        spans
    }

    /// The two halves of a span of two days or more, each strictly shorter (the second the
    /// longer when the length is odd); `None` for a single day.
    pub(crate) fn halves(self) -> Option<(Span, Span)> {
        let len = self.len();
        if len < 2 {
            return None;
        }
        let first_last = add_days(self.first, len / 2 - 1);
        let second_first = first_last.next_day()?;
        Some((
            Span {
                first: self.first,
                last: first_last,
            },
            Span {
                first: second_first,
                last: self.last,
            },
        ))
    }
}

/// `2026-11-01` as a date; `None` for anything else.
pub(crate) fn parse(text: &str) -> Option<Date> {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    Date::parse(text.trim(), format).ok()
}

/// A date as `YYYY-MM-DD`.
pub(crate) fn text(day: Date) -> String {
    format!(
        "{:04}-{:02}-{:02}",
        day.year(),
        u8::from(day.month()),
        day.day()
    )
}

/// The first day LinkedIn still serves analytics for, seen from `today`: the same calendar day
/// ten years earlier (28 February for a 29th).
pub(crate) fn retention_start(today: Date) -> Date {
    let year = today.year() - RETENTION_YEARS;
    Date::from_calendar_date(year, today.month(), today.day())
        .or_else(|_| Date::from_calendar_date(year, Month::February, 28))
        .unwrap_or(today)
}

/// What of `days` can be read on `today`: `None` when no day of it is within retention (or the
/// range does not parse); otherwise the span, its start clamped to the retention.
pub(crate) fn readable(days: &DayRange, today: Date) -> Option<Span> {
    let first = parse(&days.first)?;
    let last = parse(&days.last)?;
    let first = first.max(retention_start(today));
    (first <= last).then_some(Span { first, last })
}

/// `day` moved by `count` days, saturating at the calendar's ends.
fn add_days(day: Date, count: i64) -> Date {
    day.checked_add(time::Duration::days(count))
        .unwrap_or(Date::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(text: &str) -> Date {
        parse(text).unwrap()
    }

    fn span(first: &str, last: &str) -> Span {
        Span {
            first: day(first),
            last: day(last),
        }
    }

    fn range(first: &str, last: &str) -> DayRange {
        DayRange {
            first: first.to_owned(),
            last: last.to_owned(),
        }
    }

    #[test]
    fn days_parse_and_print_as_stored() {
        assert_eq!(text(day("2026-11-01")), "2026-11-01");
        assert_eq!(parse("2026-13-01"), None);
        assert_eq!(parse("yesterday"), None);
        assert_eq!(span("2026-11-01", "2026-11-30").len(), 30);
        assert_eq!(span("2026-11-01", "2026-11-01").len(), 1);
        assert!(span("2026-11-01", "2026-11-30").contains(day("2026-11-30")));
        assert!(!span("2026-11-01", "2026-11-30").contains(day("2026-12-01")));
    }

    #[test]
    fn the_window_is_clamped_to_ten_years_of_analytics() {
        let today = day("2026-11-21");
        assert_eq!(retention_start(today), day("2016-11-21"));
        assert_eq!(retention_start(day("2028-02-29")), day("2018-02-28"));
        // Inside retention: unchanged.
        let recent = readable(&range("2026-11-14", "2026-11-21"), today).unwrap();
        assert_eq!(recent, span("2026-11-14", "2026-11-21"));
        // A backfill reaching further back starts at the retention.
        let deep = readable(&range("2010-01-01", "2026-11-21"), today).unwrap();
        assert_eq!(deep, span("2016-11-21", "2026-11-21"));
        assert_eq!(deep.day_range(), range("2016-11-21", "2026-11-21"));
        // Entirely beyond it: nothing to read.
        assert_eq!(readable(&range("2010-01-01", "2015-12-31"), today), None);
        assert_eq!(readable(&range("garbage", "2026-11-21"), today), None);
    }

    #[test]
    fn chunks_cover_the_span_without_gaps_or_overlap() {
        let chunks = span("2026-01-01", "2026-03-05").chunks(31);
        assert_eq!(
            chunks,
            vec![
                span("2026-01-01", "2026-01-31"),
                span("2026-02-01", "2026-03-03"),
                span("2026-03-04", "2026-03-05"),
            ]
        );
        assert_eq!(
            span("2026-01-01", "2026-01-07").chunks(31),
            vec![span("2026-01-01", "2026-01-07")]
        );
        let total: i64 = span("2016-11-21", "2026-11-21")
            .chunks(31)
            .iter()
            .map(|chunk| chunk.len())
            .sum();
        assert_eq!(total, span("2016-11-21", "2026-11-21").len());
    }

    #[test]
    fn halves_split_until_one_day() {
        assert_eq!(
            span("2026-11-01", "2026-11-30").halves(),
            Some((
                span("2026-11-01", "2026-11-15"),
                span("2026-11-16", "2026-11-30")
            ))
        );
        assert_eq!(
            span("2026-11-01", "2026-11-03").halves(),
            Some((
                span("2026-11-01", "2026-11-01"),
                span("2026-11-02", "2026-11-03")
            ))
        );
        assert_eq!(
            span("2026-11-01", "2026-11-02").halves(),
            Some((
                span("2026-11-01", "2026-11-01"),
                span("2026-11-02", "2026-11-02")
            ))
        );
        assert_eq!(span("2026-11-01", "2026-11-01").halves(), None);
    }
}
