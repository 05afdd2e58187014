//! The scorecard's weeks: ISO weeks, Monday to Sunday in UTC, keyed `YYYY-Www`, oldest first;
//! how many a request may ask for, and the keys a manual cell may name.

use payback_domain::{DAY_MS, Timestamp};
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};

/// Weeks a matrix, its insights and exports show when the request names none.
pub const DEFAULT_WEEKS: usize = 13;

/// The most weeks a request is served; more are clamped to it (`clamped: true`): ten years of
/// weeks (`history_days // 7` of the top plan's 3,650 days). A workspace's plan clamps further
/// ([`plan_weeks`], applied by `matrix::read` through [`WeeksAsked::within`]).
pub fn max_weeks() -> usize {
    plan_weeks(crate::services::billing::Plan::TOP.history_days())
}

/// The weeks a plan reading `history_days` of history shows (issue 41): `history_days // 7`.
pub fn plan_weeks(history_days: i64) -> usize {
    usize::try_from(history_days / 7).unwrap_or(0).max(1)
}

/// One column of the matrix.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct Week {
    /// `YYYY-Www`, the ISO week-numbering year and week.
    pub key: String,
    /// The Monday, `YYYY-MM-DD`.
    pub start: String,
    /// The Sunday, `YYYY-MM-DD`.
    pub end: String,
    /// Whether this is the week in progress (only with `current=1`).
    pub current: bool,
}

/// What a request asked for, checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WeeksAsked {
    /// Completed weeks served (after the clamp).
    pub weeks: usize,
    pub clamped: bool,
    /// Whether the week in progress is appended.
    pub current: bool,
}

impl WeeksAsked {
    /// These weeks clamped to `most` (a plan's [`plan_weeks`]); `clamped` once anything was cut.
    #[must_use]
    pub fn within(self, most: usize) -> Self {
        Self {
            weeks: self.weeks.min(most),
            clamped: self.clamped || self.weeks > most,
            current: self.current,
        }
    }

    /// The default: 13 completed weeks, no week in progress.
    pub fn default_weeks() -> Self {
        Self {
            weeks: DEFAULT_WEEKS,
            clamped: false,
            current: false,
        }
    }

    /// Parses the `weeks` and `current` query values: `weeks` an integer of at least 1
    /// (default 13), clamped to [`max_weeks`]; `current` `1` or `0`.
    pub fn parse(weeks: Option<&str>, current: Option<&str>) -> ApiResult<Self> {
        let asked = match weeks.map(str::trim) {
            None | Some("") => DEFAULT_WEEKS,
            Some(text) => match text.parse::<i64>() {
                Ok(n) if n >= 1 => usize::try_from(n).unwrap_or(usize::MAX),
                _ => {
                    return Err(ApiError::bad_request(
                        "weeks: must be an integer of at least 1",
                    ));
                }
            },
        };
        let current = match current.map(str::trim) {
            None | Some("") | Some("0") => false,
            Some("1") => true,
            Some(_) => return Err(ApiError::bad_request("current: must be 1 or 0")),
        };
        let most = max_weeks();
        Ok(Self {
            weeks: asked.min(most),
            clamped: asked > most,
            current,
        })
    }
}

/// Days since 1970-01-01 of the UTC day holding `at`.
fn epoch_day(at: Timestamp) -> i64 {
    at.millis().div_euclid(DAY_MS)
}

fn date_of(epoch_day: i64) -> time::Date {
    // 2440588 is 1970-01-01's Julian day; the dates the service meets are far inside range.
    let julian = i32::try_from(2_440_588 + epoch_day).unwrap_or(2_440_588);
    time::Date::from_julian_day(julian).unwrap_or(time::Date::MIN)
}

fn day_text(epoch_day: i64) -> String {
    Timestamp::from_millis(epoch_day * DAY_MS).day()
}

/// The Monday (days since the epoch) of the week holding `at`.
fn monday_of(at: Timestamp) -> i64 {
    let day = epoch_day(at);
    day - i64::from(date_of(day).weekday().number_days_from_monday())
}

/// The week starting on the Monday `monday` (days since the epoch).
fn week_at(monday: i64, current: bool) -> Week {
    let (year, number, _) = date_of(monday).to_iso_week_date();
    Week {
        key: format!("{year}-W{number:02}"),
        start: day_text(monday),
        end: day_text(monday + 6),
        current,
    }
}

/// The `asked.weeks` completed weeks before the one holding `now`, oldest first, and the week
/// in progress after them when `asked.current`.
pub fn weeks_to(now: Timestamp, asked: WeeksAsked) -> Vec<Week> {
    let this_monday = monday_of(now);
    let mut weeks: Vec<Week> = (1..=asked.weeks as i64)
        .rev()
        .map(|back| week_at(this_monday - 7 * back, false))
        .collect();
    if asked.current {
        weeks.push(week_at(this_monday, true));
    }
    weeks
}

/// The key of the week in progress at `now`.
pub fn current_key(now: Timestamp) -> String {
    week_at(monday_of(now), true).key
}

/// Whether `key` is a real ISO week spelled `YYYY-Www` (week 53 only in years that have it).
pub fn is_week_key(key: &str) -> bool {
    let Some((year, week)) = key.split_once("-W") else {
        return false;
    };
    if year.len() != 4 || week.len() != 2 || !week.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    let (Ok(year), Ok(week)) = (year.parse::<i32>(), week.parse::<u8>()) else {
        return false;
    };
    time::Date::from_iso_week_date(year, week, time::Weekday::Monday).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> Timestamp {
        Timestamp::parse_rfc3339(text).unwrap()
    }

    #[test]
    fn completed_weeks_end_before_the_week_in_progress() {
        // 2026-11-21 is a Saturday of week 47.
        let asked = WeeksAsked::parse(Some("2"), Some("1")).unwrap();
        let weeks = weeks_to(at("2026-11-21T12:00:00Z"), asked);
        let keys: Vec<&str> = weeks.iter().map(|w| w.key.as_str()).collect();
        assert_eq!(keys, ["2026-W45", "2026-W46", "2026-W47"]);
        assert_eq!(weeks[1].start, "2026-11-09");
        assert_eq!(weeks[1].end, "2026-11-15");
        assert!(weeks[2].current && !weeks[1].current);
    }

    #[test]
    fn iso_years_cross_calendar_years() {
        // Monday 2027-01-04 starts 2027-W01; the week before is 2026-W53.
        let weeks = weeks_to(
            at("2027-01-04T00:00:00Z"),
            WeeksAsked::parse(Some("1"), None).unwrap(),
        );
        assert_eq!(weeks[0].key, "2026-W53");
        assert_eq!(weeks[0].start, "2026-12-28");
        assert_eq!(weeks[0].end, "2027-01-03");
        assert!(is_week_key("2026-W53"));
        assert!(!is_week_key("2027-W53"));
        assert!(!is_week_key("2026-W5"));
        assert!(!is_week_key("2026-11-09"));
    }

    #[test]
    fn weeks_are_checked_and_clamped() {
        assert!(WeeksAsked::parse(Some("0"), None).is_err());
        assert!(WeeksAsked::parse(Some("x"), None).is_err());
        assert!(WeeksAsked::parse(None, Some("yes")).is_err());
        let many = WeeksAsked::parse(Some("9999"), None).unwrap();
        assert_eq!((many.weeks, many.clamped), (521, true));
        assert_eq!(WeeksAsked::parse(None, None).unwrap().weeks, 13);
    }
}
