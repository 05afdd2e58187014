//! Meta's rate-limit usage headers, read for how long a throttled caller has to wait.
//!
//! - `X-Business-Use-Case-Usage` (Marketing API, Pages with page tokens, Instagram):
//!   `{"<business object id>": [{"type", "call_count", "total_cputime", "total_time",
//!   "estimated_time_to_regain_access"}]}`, the estimate in minutes.
//! - `X-Ad-Account-Usage`: `{"acc_id_util_pct", "reset_time_duration", "ads_api_access_tier"}`,
//!   the reset in seconds.
//! - `X-App-Usage`: `{"call_count", "total_cputime", "total_time"}` (percentages); it carries no
//!   time, but an `estimated_time_to_regain_access` there is honoured too.
//!
//! A header that is absent or unreadable says nothing; it never fails a call.

use std::time::Duration;

use reqwest::header::HeaderMap;
use serde_json::Value;

pub(crate) const BUSINESS_USE_CASE: &str = "x-business-use-case-usage";
pub(crate) const AD_ACCOUNT: &str = "x-ad-account-usage";
pub(crate) const APP: &str = "x-app-usage";

/// The longest wait any usage header announces; `None` when none announces one (or all say 0).
pub(crate) fn regain_access(headers: &HeaderMap) -> Option<Duration> {
    let json = |name: &str| -> Option<Value> {
        let text = headers.get(name)?.to_str().ok()?;
        serde_json::from_str(text).ok()
    };
    let mut waits = Vec::new();
    if let Some(Value::Object(objects)) = json(BUSINESS_USE_CASE) {
        for entries in objects.values() {
            let Value::Array(entries) = entries else {
                continue;
            };
            waits.extend(entries.iter().filter_map(minutes_to_regain));
        }
    }
    if let Some(usage) = json(AD_ACCOUNT) {
        waits.extend(seconds(usage.get("reset_time_duration")));
    }
    if let Some(usage) = json(APP) {
        waits.extend(minutes_to_regain(&usage));
    }
    waits.into_iter().filter(|wait| !wait.is_zero()).max()
}

fn minutes_to_regain(entry: &Value) -> Option<Duration> {
    let minutes = number(entry.get("estimated_time_to_regain_access"))?;
    Some(Duration::from_secs_f64(minutes * 60.0))
}

fn seconds(value: Option<&Value>) -> Option<Duration> {
    number(value).map(Duration::from_secs_f64)
}

/// A non-negative finite number, written as a number or a string.
fn number(value: Option<&Value>) -> Option<f64> {
    let n = match value? {
        Value::Number(n) => n.as_f64()?,
        Value::String(text) => text.trim().parse().ok()?,
        _ => return None,
    };
    (0.0..1.0e9).contains(&n).then_some(n)
}

#[cfg(test)]
mod tests {
    use reqwest::header::HeaderValue;

    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            // A header is one line; the fixtures are written over several.
            let line = value.split_whitespace().collect::<Vec<_>>().join(" ");
            map.insert(*name, HeaderValue::from_str(&line).unwrap());
        }
        map
    }

    #[test]
    fn the_business_use_case_estimate_is_in_minutes() {
        let map = headers(&[(
            BUSINESS_USE_CASE,
            r#"{"1234567890": [
                {"type": "ads_insights", "call_count": 100, "total_cputime": 25, "total_time": 25,
                 "estimated_time_to_regain_access": 4, "ads_api_access_tier": "standard_access"},
                {"type": "ads_management", "call_count": 10, "total_cputime": 1, "total_time": 1,
                 "estimated_time_to_regain_access": 0}
            ]}"#,
        )]);
        assert_eq!(regain_access(&map), Some(Duration::from_secs(240)));
    }

    #[test]
    fn the_ad_account_reset_is_in_seconds_and_the_longest_wins() {
        let map = headers(&[
            (
                AD_ACCOUNT,
                r#"{"acc_id_util_pct": 100, "reset_time_duration": 20, "ads_api_access_tier": "development_access"}"#,
            ),
            (
                APP,
                r#"{"call_count": 100, "total_cputime": 3, "total_time": 4}"#,
            ),
        ]);
        assert_eq!(regain_access(&map), Some(Duration::from_secs(20)));
        let both = headers(&[
            (
                AD_ACCOUNT,
                r#"{"acc_id_util_pct": 100, "reset_time_duration": 20}"#,
            ),
            (
                BUSINESS_USE_CASE,
                r#"{"1": [{"type": "ads_management", "estimated_time_to_regain_access": 1}]}"#,
            ),
        ]);
        assert_eq!(regain_access(&both), Some(Duration::from_secs(60)));
    }

    #[test]
    fn zero_absent_or_garbled_headers_announce_nothing() {
        assert_eq!(regain_access(&HeaderMap::new()), None);
        let zero = headers(&[(
            BUSINESS_USE_CASE,
            r#"{"1": [{"type": "pages", "call_count": 1, "estimated_time_to_regain_access": 0}]}"#,
        )]);
        assert_eq!(regain_access(&zero), None);
        let garbled = headers(&[
            (BUSINESS_USE_CASE, "not json"),
            (AD_ACCOUNT, r#"{"reset_time_duration": -5}"#),
            (APP, r#"[1, 2]"#),
        ]);
        assert_eq!(regain_access(&garbled), None);
    }
}
