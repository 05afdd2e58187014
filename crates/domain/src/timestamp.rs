//! Instants are epoch milliseconds everywhere below the HTTP layer, and RFC 3339 UTC strings
//! (millisecond precision, `Z`) in every response.

use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

pub const MINUTE_MS: i64 = 60_000;
pub const HOUR_MS: i64 = 60 * MINUTE_MS;
pub const DAY_MS: i64 = 24 * HOUR_MS;

/// The Julian day number of 1970-01-01.
const UNIX_EPOCH_JULIAN_DAY: i32 = 2_440_588;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(i64);

impl Timestamp {
    pub const fn from_millis(millis: i64) -> Self {
        Self(millis)
    }

    pub const fn millis(self) -> i64 {
        self.0
    }

    pub const fn plus_millis(self, millis: i64) -> Self {
        Self(self.0 + millis)
    }

    pub const fn minus_millis(self, millis: i64) -> Self {
        Self(self.0 - millis)
    }

    /// RFC 3339 in UTC with milliseconds, e.g. `2026-11-21T09:30:00.000Z`.
    pub fn to_rfc3339(self) -> String {
        let nanos = i128::from(self.0) * 1_000_000;
        match OffsetDateTime::from_unix_timestamp_nanos(nanos) {
            Ok(at) => {
                let date = at.date();
                let clock = at.time();
                format!(
                    "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
                    date.year(),
                    u8::from(date.month()),
                    date.day(),
                    clock.hour(),
                    clock.minute(),
                    clock.second(),
                    clock.millisecond()
                )
            }
            // Out of range only for values no clock produces; say so rather than panic.
            Err(_) => format!("invalid-timestamp:{}", self.0),
        }
    }

    /// The UTC day of this instant, `YYYY-MM-DD`.
    pub fn day(self) -> String {
        let days = self.0.div_euclid(DAY_MS);
        match time::Date::from_julian_day(UNIX_EPOCH_JULIAN_DAY + days as i32) {
            Ok(date) => format!(
                "{:04}-{:02}-{:02}",
                date.year(),
                u8::from(date.month()),
                date.day()
            ),
            Err(_) => format!("invalid-day:{days}"),
        }
    }

    /// Midnight UTC starting this instant's day.
    pub const fn start_of_day(self) -> Self {
        Self(self.0 - self.0.rem_euclid(DAY_MS))
    }

    /// Parses a `YYYY-MM-DD` day to its midnight UTC.
    pub fn parse_day(text: &str) -> Option<Self> {
        let format = time::macros::format_description!("[year]-[month]-[day]");
        let date = time::Date::parse(text, format).ok()?;
        let days = i64::from(date.to_julian_day() - UNIX_EPOCH_JULIAN_DAY);
        Some(Self(days * DAY_MS))
    }

    /// Parses an RFC 3339 instant with any offset.
    pub fn parse_rfc3339(text: &str) -> Option<Self> {
        let at = OffsetDateTime::parse(text, &Rfc3339).ok()?;
        i64::try_from(at.unix_timestamp_nanos() / 1_000_000)
            .ok()
            .map(Self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_utc_with_milliseconds() {
        assert_eq!(
            Timestamp::from_millis(0).to_rfc3339(),
            "1970-01-01T00:00:00.000Z"
        );
        assert_eq!(
            Timestamp::from_millis(1_795_000_000_123).to_rfc3339(),
            "2026-11-18T11:06:40.123Z"
        );
    }

    #[test]
    fn days_are_utc_calendar_days() {
        let at = Timestamp::from_millis(1_795_000_000_123);
        assert_eq!(at.day(), "2026-11-18");
        assert_eq!(Timestamp::from_millis(0).day(), "1970-01-01");
        assert_eq!(Timestamp::from_millis(-1).day(), "1969-12-31");
        assert_eq!(Timestamp::parse_day("2026-11-18"), Some(at.start_of_day()));
        assert_eq!(Timestamp::parse_day("2026-02-30"), None);
    }

    #[test]
    fn parses_offsets_back_to_the_same_instant() {
        let at = Timestamp::parse_rfc3339("2026-11-18T12:06:40.123+01:00");
        assert_eq!(at, Some(Timestamp::from_millis(1_795_000_000_123)));
        assert_eq!(Timestamp::parse_rfc3339("yesterday"), None);
    }
}
