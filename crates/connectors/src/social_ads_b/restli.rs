//! Rest.li 2.0 query strings, built by hand.
//!
//! LinkedIn's versioned API speaks Rest.li protocol 2.0 (`X-Restli-Protocol-Version: 2.0.0`),
//! whose query values are expressions: `List(a,b)`, records `(key:value,...)`. The characters
//! `(`, `)`, `,`, `:` and `'` are the syntax and travel as they are; any of them inside a value
//! (every URN has colons) is percent-encoded, as is anything outside the URL-safe set. Hence
//! `accounts=List(urn%3Ali%3AsponsoredAccount%3A123)` and
//! `dateRange=(start:(year:2026,month:11,day:1),end:(year:2026,month:11,day:30))`.
//!
//! A generic URL encoder would encode the syntax too (and encoding the encoded URNs again gives
//! `%253A`), so the query is assembled here and handed to `reqwest` as part of the URL, whose
//! parser leaves `(`, `)`, `,`, `:` and `%XX` in a query alone.

use std::fmt::Write as _;

use time::Date;

/// `text` as one Rest.li value: everything but the unreserved characters of RFC 3986
/// (`A-Z a-z 0-9 - . _ ~`) percent-encoded, upper-case hex.
pub(crate) fn value(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(byte));
        } else {
            // Writing to a String cannot fail.
            let _ = write!(out, "%{byte:02X}");
        }
    }
    out
}

/// `List(v1,v2)`, each item encoded as a value.
pub(crate) fn list<'a>(items: impl IntoIterator<Item = &'a str>) -> String {
    let items: Vec<String> = items.into_iter().map(value).collect();
    format!("List({})", items.join(","))
}

/// A Rest.li date record: `(year:2026,month:11,day:1)`.
pub(crate) fn date(day: Date) -> String {
    format!(
        "(year:{},month:{},day:{})",
        day.year(),
        u8::from(day.month()),
        day.day()
    )
}

/// An inclusive date range: `(start:(...),end:(...))`.
pub(crate) fn date_range(first: Date, last: Date) -> String {
    format!("(start:{},end:{})", date(first), date(last))
}

/// A query string whose values are already Rest.li expressions (or plain words), joined in the
/// order they were added.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Query {
    pairs: Vec<(&'static str, String)>,
}

impl Query {
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// Adds `key=expression`; `expression` must already be encoded (see [`value`], [`list`]).
    pub(crate) fn raw(mut self, key: &'static str, expression: impl Into<String>) -> Self {
        self.pairs.push((key, expression.into()));
        self
    }

    /// Adds `key=text` with `text` encoded as one value (an opaque page token, say).
    pub(crate) fn text(self, key: &'static str, text: &str) -> Self {
        self.raw(key, value(text))
    }

    /// `k1=v1&k2=v2`.
    pub(crate) fn render(&self) -> String {
        self.pairs
            .iter()
            .map(|(key, expression)| format!("{key}={expression}"))
            .collect::<Vec<_>>()
            .join("&")
    }
}

#[cfg(test)]
mod tests {
    use time::Month;

    use super::*;

    fn day(year: i32, month: Month, day: u8) -> Date {
        Date::from_calendar_date(year, month, day).unwrap()
    }

    #[test]
    fn urns_in_lists_are_encoded_and_the_syntax_is_not() {
        assert_eq!(
            list(["urn:li:sponsoredAccount:123"]),
            "List(urn%3Ali%3AsponsoredAccount%3A123)"
        );
        assert_eq!(
            list(["urn:li:sponsoredCampaign:1", "urn:li:sponsoredCampaign:22"]),
            "List(urn%3Ali%3AsponsoredCampaign%3A1,urn%3Ali%3AsponsoredCampaign%3A22)"
        );
        assert_eq!(list([]), "List()");
    }

    #[test]
    fn values_escape_every_reserved_character() {
        assert_eq!(value("ACTIVE"), "ACTIVE");
        assert_eq!(value("a-b.c_d~e"), "a-b.c_d~e");
        assert_eq!(value("(a,b):'c'"), "%28a%2Cb%29%3A%27c%27");
        // An opaque page token with base64 padding and a space.
        assert_eq!(value("ab+/c= d"), "ab%2B%2Fc%3D%20d");
        // Multi-byte text is encoded byte by byte.
        assert_eq!(value("é"), "%C3%A9");
        // An already encoded value is encoded again: callers pass raw text.
        assert_eq!(value("%3A"), "%253A");
    }

    #[test]
    fn dates_are_records_without_padding() {
        assert_eq!(
            date(day(2026, Month::November, 1)),
            "(year:2026,month:11,day:1)"
        );
        assert_eq!(
            date_range(
                day(2026, Month::November, 1),
                day(2026, Month::December, 31)
            ),
            "(start:(year:2026,month:11,day:1),end:(year:2026,month:12,day:31))"
        );
    }

    #[test]
    fn queries_keep_their_order_and_their_expressions() {
        let query = Query::new()
            .raw("q", "analytics")
            .raw("pivot", "CREATIVE")
            .raw(
                "dateRange",
                date_range(day(2026, Month::November, 1), day(2026, Month::November, 2)),
            )
            .raw("accounts", list(["urn:li:sponsoredAccount:123"]))
            .text("pageToken", "x=y");
        assert_eq!(
            query.render(),
            "q=analytics&pivot=CREATIVE\
             &dateRange=(start:(year:2026,month:11,day:1),end:(year:2026,month:11,day:2))\
             &accounts=List(urn%3Ali%3AsponsoredAccount%3A123)&pageToken=x%3Dy"
        );
        assert_eq!(Query::new().render(), "");
    }

    #[test]
    fn reqwest_sends_the_query_as_built() {
        // The URL parser must leave the Rest.li syntax and the %3A escapes alone.
        let query = Query::new()
            .raw("q", "analytics")
            .raw(
                "dateRange",
                date_range(day(2026, Month::November, 1), day(2026, Month::November, 2)),
            )
            .raw("accounts", list(["urn:li:sponsoredAccount:123"]))
            .raw("fields", "costInLocalCurrency,impressions");
        let url = format!(
            "https://api.linkedin.com/rest/adAnalytics?{}",
            query.render()
        );
        let _ = rustls::crypto::ring::default_provider().install_default();
        let request = reqwest::Client::new().get(&url).build().unwrap();
        assert_eq!(request.url().as_str(), url);
    }
}
