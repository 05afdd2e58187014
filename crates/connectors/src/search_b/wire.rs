//! The Bing Webmaster API's JSON shapes (its `.NET` data contracts as WCF's JSON protocol writes
//! them), as documented in Microsoft's `IWebmasterApi` reference
//! (learn.microsoft.com/dotnet/api/microsoft.bing.webmaster.api.interfaces): every answer wraps
//! its data in `d`, objects carry a `__type` we ignore, and dates are WCF's `\/Date(ms±hhmm)\/`.

use payback_domain::Timestamp;
use serde::Deserialize;

/// Every JSON answer: the method's return value under `d`.
#[derive(Debug, Deserialize)]
pub(crate) struct Envelope<T> {
    pub d: T,
}

/// One `Site` of `GetUserSites` (`AuthenticationCode` and `DnsVerificationCode` are not read).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub(crate) struct Site {
    /// As verified, e.g. `http://example.com/`.
    pub url: String,
    #[serde(default)]
    pub is_verified: bool,
}

/// One `QueryStats` of `GetQueryStats`: a query's numbers for one period of Bing's (the reference
/// documents `AvgClickPosition` too; the position stored is the impressions' one, as Search
/// Console's).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub(crate) struct QueryStats {
    /// `\/Date(ms±hhmm)\/`, read by [`wcf_date`].
    pub date: String,
    pub query: String,
    #[serde(default)]
    pub clicks: i64,
    #[serde(default)]
    pub impressions: i64,
    /// The average position of the site in the results that showed it (1 is the top).
    #[serde(default)]
    pub avg_impression_position: f64,
}

/// The body Bing answers an error with (the `ApiFault` contract): the `ApiErrorCode` number and
/// a message, e.g. `{"ErrorCode":3,"Message":"ERROR!!! InvalidApiKey"}`.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub(crate) struct ErrorBody {
    pub error_code: Option<i64>,
    pub message: Option<String>,
}

/// `ApiErrorCode` values that mean the key itself is refused: `InvalidApiKey` (3),
/// `UserBlocked` (6), `NotAuthorized` (14, a site the key's user may not read).
pub(crate) const REFUSED_KEY_CODES: [i64; 3] = [3, 6, 14];

/// `ThrottleUser` (4) and `ThrottleHost` (5): Bing's own way of saying "too many requests".
pub(crate) const THROTTLE_CODES: [i64; 2] = [4, 5];

/// The UTC day (`YYYY-MM-DD`) of a WCF date, `\/Date(1316156400000-0700)\/` (the JSON escape
/// `\/` is already `/` once parsed), or `None` when the text is not one.
///
/// Why the UTC day of the milliseconds: Microsoft's `DataContractJsonSerializer` documents the
/// number as milliseconds since 1970-01-01 UTC, and the `±hhmm` suffix only as a marker that the
/// value was a local time where it was written (deserializers convert it to *their* zone), so
/// the offset never moves the instant. Bing stamps a period at midnight Pacific (`-0700` or
/// `-0800`), which is the same calendar day in UTC (07:00 or 08:00), so the UTC day is the
/// period's own date: the documented sample `1316156400000-0700` is 2011-09-16 either way.
pub(crate) fn wcf_date(text: &str) -> Option<String> {
    let inner = text
        .trim()
        .strip_prefix("/Date(")
        .and_then(|rest| rest.strip_suffix(")/"))?;
    // The sign of the offset, if any, comes after the first digit (the number may be negative).
    let split = inner
        .char_indices()
        .skip(1)
        .find(|(_, c)| *c == '+' || *c == '-')
        .map_or(inner.len(), |(at, _)| at);
    let (millis, offset) = inner.split_at(split);
    if !offset.is_empty() {
        let digits = &offset[1..];
        if digits.len() != 4 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
    }
    let millis: i64 = millis.parse().ok()?;
    Some(Timestamp::from_millis(millis).day())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_sample_date_is_its_utc_day() {
        assert_eq!(
            wcf_date("/Date(1316156400000-0700)/").as_deref(),
            Some("2011-09-16")
        );
        // Midnight Pacific in winter, and without an offset (a UTC value).
        assert_eq!(
            wcf_date("/Date(1795248000000-0800)/").as_deref(),
            Some("2026-11-21")
        );
        assert_eq!(
            wcf_date("/Date(1795248000000)/").as_deref(),
            Some("2026-11-21")
        );
        // An offset never moves the instant: 23:30 UTC stays on its UTC day.
        assert_eq!(
            wcf_date("/Date(1795303800000+0530)/").as_deref(),
            Some("2026-11-21")
        );
        assert_eq!(wcf_date("/Date(-86400000)/").as_deref(), Some("1969-12-31"));
    }

    #[test]
    fn anything_else_is_not_a_date() {
        for text in [
            "",
            "2011-09-16",
            "/Date()/",
            "/Date(abc)/",
            "/Date(1316156400000-07)/",
            "/Date(1316156400000-07000)/",
            "Date(1316156400000)",
        ] {
            assert_eq!(wcf_date(text), None, "{text}");
        }
    }

    #[test]
    fn the_documented_shapes_parse() {
        let sites: Envelope<Vec<Site>> = serde_json::from_str(
            r#"{"d":[{"__type":"Site:#Microsoft.Bing.Webmaster.Api","AuthenticationCode":"258C",
            "DnsVerificationCode":"258c.example.com","IsVerified":false,"Url":"http:\/\/example.com"}]}"#,
        )
        .unwrap();
        assert_eq!(sites.d[0].url, "http://example.com");
        assert!(!sites.d[0].is_verified);
        let stats: Envelope<Vec<QueryStats>> = serde_json::from_str(
            r#"{"d":[{"__type":"QueryStats:#Microsoft.Bing.Webmaster.Api","AvgClickPosition":2.5,
            "AvgImpressionPosition":3.1,"Clicks":10,"Date":"\/Date(1316156400000-0700)\/",
            "Impressions":150,"Query":"payback"}]}"#,
        )
        .unwrap();
        let row = &stats.d[0];
        assert_eq!((row.clicks, row.impressions), (10, 150));
        assert_eq!(row.query, "payback");
        assert_eq!(wcf_date(&row.date).as_deref(), Some("2011-09-16"));
        let error: ErrorBody =
            serde_json::from_str(r#"{"ErrorCode":3,"Message":"ERROR!!! InvalidApiKey"}"#).unwrap();
        assert_eq!(error.error_code, Some(3));
        assert_eq!(error.message.as_deref(), Some("ERROR!!! InvalidApiKey"));
    }
}
