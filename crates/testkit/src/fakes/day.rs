//! The calendar day (UTC) every fake counts its metrics by, written `YYYY-MM-DD` as the vendors'
//! date parameters and the tests' seeds are.

use std::fmt;
use std::time::{SystemTime, UNIX_EPOCH};

/// A calendar day (UTC), as days since 1970-01-01.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Day(i32);

impl Day {
    /// Before every day: the lower end of a range over all days.
    pub(crate) const MIN: Self = Self(i32::MIN);

    /// Parses exactly `YYYY-MM-DD` (the GAQL date format, and LinkedIn's and Meta's).
    pub fn parse(text: &str) -> Option<Self> {
        let bytes = text.as_bytes();
        if bytes.len() != 10 || bytes[4] != b'-' || bytes[7] != b'-' {
            return None;
        }
        let number = |range: std::ops::Range<usize>| -> Option<i64> {
            let part = &text[range];
            part.bytes()
                .all(|b| b.is_ascii_digit())
                .then(|| part.parse().ok())
                .flatten()
        };
        Self::from_ymd(number(0..4)?, number(5..7)?, number(8..10)?)
    }

    /// The day, when `month` and `day` name one of `year` (years 1 to 9999).
    pub fn from_ymd(year: i64, month: i64, day: i64) -> Option<Self> {
        if !(1..=9999).contains(&year)
            || !(1..=12).contains(&month)
            || day < 1
            || day > days_in_month(year, month)
        {
            return None;
        }
        // Howard Hinnant's days_from_civil.
        let y = if month <= 2 { year - 1 } else { year };
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let doy = (153 * ((month + 9) % 12) + 2) / 5 + day - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        i32::try_from(era * 146_097 + doe - 719_468).ok().map(Self)
    }

    /// `(year, month, day)`.
    pub fn ymd(self) -> (i64, i64, i64) {
        let z = i64::from(self.0) + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = doy - (153 * mp + 2) / 5 + 1;
        let month = if mp < 10 { mp + 3 } else { mp - 9 };
        (yoe + era * 400 + i64::from(month <= 2), month, day)
    }

    /// Today in UTC by the machine's clock.
    pub fn today() -> Self {
        let secs = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|elapsed| elapsed.as_secs())
            .unwrap_or(0);
        Self(i32::try_from(secs / 86_400).unwrap_or(0))
    }

    pub fn plus(self, days: i32) -> Self {
        Self(self.0 + days)
    }

    /// Days from `self` to `other`.
    pub fn until(self, other: Self) -> i32 {
        other.0 - self.0
    }

    /// 0 for Monday through 6 for Sunday.
    pub fn weekday(self) -> i32 {
        // 1970-01-01 was a Thursday.
        (self.0 + 3).rem_euclid(7)
    }

    /// The first day of this day's month.
    pub fn month_start(self) -> Self {
        let (year, month, _) = self.ymd();
        Self::first_of(year, month)
    }

    /// The last day of this day's month.
    pub fn month_end(self) -> Self {
        let (year, month, _) = self.ymd();
        let (next_year, next_month) = if month == 12 {
            (year + 1, 1)
        } else {
            (year, month + 1)
        };
        Self::first_of(next_year, next_month).plus(-1)
    }

    /// January 1st of this day's year.
    pub fn year_start(self) -> Self {
        Self::first_of(self.ymd().0, 1)
    }

    /// December 31st of this day's year.
    pub fn year_end(self) -> Self {
        Self::first_of(self.ymd().0 + 1, 1).plus(-1)
    }

    /// The same date `years` earlier (February 29th becomes the 28th).
    pub fn years_before(self, years: i32) -> Self {
        let (year, month, day) = self.ymd();
        let year = year - i64::from(years);
        let day = day.min(days_in_month(year, month));
        Self::from_ymd(year, month, day).unwrap_or(self)
    }

    fn first_of(year: i64, month: i64) -> Self {
        // The first of a month of years 1..=9999 always exists; the fallback is unreachable.
        Self::from_ymd(year, month, 1).unwrap_or(Self(0))
    }
}

impl fmt::Display for Day {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (year, month, day) = self.ymd();
        write!(f, "{year:04}-{month:02}-{day:02}")
    }
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_round_trip_and_know_their_weekday() {
        let day = Day::parse("2024-02-29").expect("leap day");
        assert_eq!(day.to_string(), "2024-02-29");
        assert_eq!(day.plus(1).to_string(), "2024-03-01");
        assert_eq!(Day::parse("1970-01-01").map(|d| d.weekday()), Some(3));
        assert_eq!(day.weekday(), 3, "2024-02-29 was a Thursday");
        assert_eq!(day.month_start().to_string(), "2024-02-01");
        assert!(Day::parse("2023-02-29").is_none());
        assert!(Day::parse("2024-2-01").is_none());
        assert!(Day::parse("2024/02/01").is_none());
    }

    #[test]
    fn days_know_their_months_and_years() {
        let day = Day::parse("2024-02-29").expect("a leap day");
        assert_eq!(day.month_end().to_string(), "2024-02-29");
        assert_eq!(day.year_start().to_string(), "2024-01-01");
        assert_eq!(day.year_end().to_string(), "2024-12-31");
        assert_eq!(day.years_before(10).to_string(), "2014-02-28");
        assert_eq!(Day::parse("2023-2-28"), None);
    }
}
