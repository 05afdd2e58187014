//! How numbers read in a check's evidence: ages, shares and counts, written the same way in
//! every check so a person can compare them at a glance.

use payback_domain::{DAY_MS, HOUR_MS, MINUTE_MS};

/// How long ago, coarsely: minutes under an hour, hours under two days, then days.
pub fn ago(elapsed_ms: i64) -> String {
    let elapsed_ms = elapsed_ms.max(0);
    if elapsed_ms < HOUR_MS {
        format!("{} min", elapsed_ms / MINUTE_MS)
    } else if elapsed_ms < 2 * DAY_MS {
        format!("{} h", elapsed_ms / HOUR_MS)
    } else {
        format!("{} d", elapsed_ms / DAY_MS)
    }
}

/// `part / whole` as a percentage with one decimal (`37.5%`); `whole` must be positive.
pub fn percent(part: i64, whole: i64) -> String {
    format!("{:.1}%", share(part, whole) * 100.0)
}

/// `part / whole` as a fraction; 0 when `whole` is not positive.
pub fn share(part: i64, whole: i64) -> f64 {
    if whole <= 0 {
        return 0.0;
    }
    // Counts and cents of one product fit an f64 exactly.
    #[allow(clippy::cast_precision_loss)]
    let ratio = part as f64 / whole as f64;
    ratio
}

/// `1 day`, `30 days`.
pub fn days(count: i64) -> String {
    if count == 1 {
        "1 day".to_owned()
    } else {
        format!("{count} days")
    }
}

/// A list for a sentence: `a`, `a and b`, `a, b and c`.
pub fn list(items: &[String]) -> String {
    joined(items, "and")
}

/// Alternatives for a sentence: `a`, `a or b`, `a, b or c`.
pub fn either(items: &[String]) -> String {
    joined(items, "or")
}

fn joined(items: &[String], last_word: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} {last_word} {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ages_read_in_minutes_hours_then_days() {
        assert_eq!(ago(-5), "0 min");
        assert_eq!(ago(59 * MINUTE_MS), "59 min");
        assert_eq!(ago(HOUR_MS), "1 h");
        assert_eq!(ago(47 * HOUR_MS + 59 * MINUTE_MS), "47 h");
        assert_eq!(ago(2 * DAY_MS), "2 d");
        assert_eq!(ago(9 * DAY_MS + HOUR_MS), "9 d");
    }

    #[test]
    fn shares_have_one_decimal_and_survive_an_empty_whole() {
        assert_eq!(percent(1, 3), "33.3%");
        assert_eq!(percent(3, 10), "30.0%");
        assert_eq!(percent(5, 0), "0.0%");
        assert!((share(1, 4) - 0.25).abs() < f64::EPSILON);
    }

    #[test]
    fn lists_and_days_read_as_sentences() {
        let words =
            |items: &[&str]| -> Vec<String> { items.iter().map(|s| (*s).to_owned()).collect() };
        assert_eq!(list(&words(&[])), "");
        assert_eq!(list(&words(&["api"])), "api");
        assert_eq!(list(&words(&["api", "web"])), "api and web");
        assert_eq!(list(&words(&["api", "web", "sql_a"])), "api, web and sql_a");
        assert_eq!(
            either(&words(&["seo_a", "seo_b", "geo_a"])),
            "seo_a, seo_b or geo_a"
        );
        assert_eq!(
            either(&words(&["search_console", "search_b"])),
            "search_console or search_b"
        );
        assert_eq!(days(1), "1 day");
        assert_eq!(days(30), "30 days");
    }
}
