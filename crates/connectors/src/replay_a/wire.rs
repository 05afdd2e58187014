//! The Data Export API's documented shapes. The answer is one entry per metric, each with
//! rows per dimension value: `[{"metricName": "RageClickCount", "information": [{"subTotal":
//! "4", "URL": "https://shop.example/pricing?x=1", ...}]}]`. Clarity writes its counts as
//! strings in some metrics and numbers in others; both are read.
//!
//! The documentation's example keys a row's dimension by the dimension's name as asked
//! (`dimension1=OS` -> `"OS": "Other"`), so `URL`; answers recorded from Clarity key it `Url`.
//! The key is matched without regard to case, and a row whose URL is null (Clarity's total
//! across URLs) has none.

use serde::Deserialize;
use serde_json::Value;

/// One metric of the answer.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct MetricInsight {
    #[serde(rename = "metricName")]
    pub metric_name: String,
    #[serde(default)]
    pub information: Vec<serde_json::Map<String, Value>>,
}

/// A row's count named `field` (`subTotal`), a string or a number; none when absent or not a
/// count.
pub(crate) fn count(row: &serde_json::Map<String, Value>, field: &str) -> Option<f64> {
    match row.get(field)? {
        Value::Number(number) => number.as_f64(),
        Value::String(text) => text.trim().parse::<f64>().ok(),
        _ => None,
    }
    .filter(|value| value.is_finite() && *value >= 0.0)
}

/// A row's URL dimension (`URL`, `Url`, any case).
pub(crate) fn url(row: &serde_json::Map<String, Value>) -> Option<&str> {
    row.iter()
        .find(|(key, _)| key.eq_ignore_ascii_case("url"))
        .and_then(|(_, value)| value.as_str())
}

/// An error body's text: a JSON `message` or `error`, or the body itself when it is short text.
pub(crate) fn error_text(body: &[u8]) -> Option<String> {
    if let Ok(value) = serde_json::from_slice::<Value>(body) {
        for field in ["message", "error", "detail"] {
            if let Some(text) = value.get(field).and_then(Value::as_str) {
                return Some(text.to_owned());
            }
        }
    }
    let text = String::from_utf8_lossy(body).trim().to_owned();
    (!text.is_empty() && text.len() <= 300).then_some(text)
}
