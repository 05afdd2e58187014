//! Rest.li 2.0 query parameters, read strictly as LinkedIn's versioned API reads them.
//!
//! A value is a primitive, `List(v1,v2)` or an object `(key:value,key:value)`. The structural
//! characters `(`, `)`, `,` and `:` are written literally; inside a primitive they must be
//! percent-encoded, which is why a URN in a list reads `List(urn%3Ali%3AsponsoredAccount%3A1)`
//! (an unencoded `:` there is a syntax error, as it is at LinkedIn). `''` is the empty string.
//! A client that percent-encodes the structure itself (`List%28...%29`) sends a primitive, not a
//! list, and the handlers refuse it.

use std::fmt;

/// A parsed Rest.li value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Value {
    Text(String),
    List(Vec<Value>),
    Object(Vec<(String, Value)>),
}

impl Value {
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Self::Text(text) => Some(text),
            _ => None,
        }
    }

    pub fn as_list(&self) -> Option<&[Value]> {
        match self {
            Self::List(items) => Some(items),
            _ => None,
        }
    }

    pub fn as_object(&self) -> Option<&[(String, Value)]> {
        match self {
            Self::Object(fields) => Some(fields),
            _ => None,
        }
    }
}

/// Why a parameter could not be read; becomes a 400 `ILLEGAL_ARGUMENT`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Invalid(pub String);

impl Invalid {
    pub fn param(name: &str, reason: impl fmt::Display) -> Self {
        Self(format!("Invalid value for param '{name}': {reason}"))
    }
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A query string: decoded names, values kept raw until a handler reads them as it expects.
#[derive(Debug, Clone, Default)]
pub(crate) struct Query {
    params: Vec<(String, String)>,
}

impl Query {
    /// Splits `a=1&b=List(x)`; a repeated name is refused (Rest.li 2.0 sends lists as `List()`).
    pub fn parse(raw: Option<&str>) -> Result<Self, Invalid> {
        let mut params: Vec<(String, String)> = Vec::new();
        for pair in raw.unwrap_or("").split('&').filter(|pair| !pair.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let name = decode(name).map_err(|reason| Invalid::param(name, reason))?;
            if params.iter().any(|(known, _)| *known == name) {
                return Err(Invalid(format!("Parameter '{name}' is repeated")));
            }
            params.push((name, value.to_owned()));
        }
        Ok(Self { params })
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.params.iter().map(|(name, _)| name.as_str())
    }

    /// Refuses any parameter not in `allowed`.
    pub fn only(&self, allowed: &[&str]) -> Result<(), Invalid> {
        match self.names().find(|name| !allowed.contains(name)) {
            Some(name) => Err(Invalid(format!(
                "Parameter '{name}' is not allowed here (the fake LinkedIn knows: {})",
                allowed.join(", ")
            ))),
            None => Ok(()),
        }
    }

    /// The value as written in the URL.
    pub fn raw(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(known, _)| known == name)
            .map(|(_, value)| value.as_str())
    }

    /// The parameter read as a Rest.li value.
    pub fn value(&self, name: &str) -> Result<Option<Value>, Invalid> {
        self.raw(name)
            .map(|raw| parse_value(raw).map_err(|reason| Invalid::param(name, reason)))
            .transpose()
    }

    /// The parameter read as a primitive.
    pub fn text(&self, name: &str) -> Result<Option<String>, Invalid> {
        match self.value(name)? {
            None => Ok(None),
            Some(Value::Text(text)) => Ok(Some(text)),
            Some(_) => Err(Invalid::param(name, "expected a single value")),
        }
    }

    /// The parameter, which must be present, read as a primitive.
    pub fn required_text(&self, name: &str) -> Result<String, Invalid> {
        self.text(name)?
            .ok_or_else(|| Invalid(format!("Parameter '{name}' is required")))
    }
}

/// Reads one whole value; trailing characters are an error.
pub(crate) fn parse_value(raw: &str) -> Result<Value, String> {
    let mut parser = Parser {
        bytes: raw.as_bytes(),
        pos: 0,
    };
    let value = parser.value()?;
    match parser.peek() {
        None => Ok(value),
        Some(byte) => Err(format!(
            "unexpected '{}' at position {}",
            char::from(byte),
            parser.pos
        )),
    }
}

struct Parser<'a> {
    bytes: &'a [u8],
    pos: usize,
}

const STRUCTURAL: &[u8] = b"(),:";

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn value(&mut self) -> Result<Value, String> {
        if self.bytes[self.pos..].starts_with(b"List(") {
            self.pos += "List(".len();
            self.list()
        } else if self.peek() == Some(b'(') {
            self.pos += 1;
            self.object()
        } else {
            self.primitive().map(Value::Text)
        }
    }

    /// After `List(`.
    fn list(&mut self) -> Result<Value, String> {
        let mut items = Vec::new();
        if self.peek() == Some(b')') {
            self.pos += 1;
            return Ok(Value::List(items));
        }
        loop {
            items.push(self.value()?);
            match self.next_byte() {
                Some(b',') => {}
                Some(b')') => return Ok(Value::List(items)),
                other => return Err(self.expected("',' or ')' in a List", other)),
            }
        }
    }

    /// After `(`.
    fn object(&mut self) -> Result<Value, String> {
        let mut fields: Vec<(String, Value)> = Vec::new();
        if self.peek() == Some(b')') {
            self.pos += 1;
            return Ok(Value::Object(fields));
        }
        loop {
            let key = self.primitive()?;
            match self.next_byte() {
                Some(b':') => {}
                other => return Err(self.expected("':' after a key", other)),
            }
            if fields.iter().any(|(known, _)| *known == key) {
                return Err(format!("key '{key}' is repeated"));
            }
            let value = self.value()?;
            fields.push((key, value));
            match self.next_byte() {
                Some(b',') => {}
                Some(b')') => return Ok(Value::Object(fields)),
                other => return Err(self.expected("',' or ')' in an object", other)),
            }
        }
    }

    fn primitive(&mut self) -> Result<String, String> {
        let start = self.pos;
        while self.peek().is_some_and(|byte| !STRUCTURAL.contains(&byte)) {
            self.pos += 1;
        }
        let raw = std::str::from_utf8(&self.bytes[start..self.pos])
            .map_err(|_| "a value is not UTF-8".to_owned())?;
        match raw {
            "" => Err(match self.peek() {
                Some(byte) => format!("unexpected '{}' at position {start}", char::from(byte)),
                None => "a value is empty (Rest.li writes the empty string as '')".to_owned(),
            }),
            "''" => Ok(String::new()),
            _ => decode(raw),
        }
    }

    fn next_byte(&mut self) -> Option<u8> {
        let byte = self.peek();
        if byte.is_some() {
            self.pos += 1;
        }
        byte
    }

    fn expected(&self, what: &str, found: Option<u8>) -> String {
        match found {
            Some(byte) => format!(
                "expected {what}, found '{}' at position {}",
                char::from(byte),
                self.pos - 1
            ),
            None => format!("expected {what}, found the end"),
        }
    }
}

/// Percent-decoding (`+` is a space, as in any query string); a stray `%` is an error.
fn decode(text: &str) -> Result<String, String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let byte = bytes
                    .get(i + 1..i + 3)
                    .and_then(|hex| std::str::from_utf8(hex).ok())
                    .and_then(|hex| u8::from_str_radix(hex, 16).ok())
                    .ok_or_else(|| format!("bad percent-encoding at position {i}"))?;
                out.push(byte);
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            byte => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8(out).map_err(|_| "a value is not UTF-8".to_owned())
}

/// `urn:li:{kind}:{id}` with a positive numeric id.
pub(crate) fn urn_id(urn: &str, kind: &str) -> Option<i64> {
    let id = urn
        .strip_prefix("urn:li:")?
        .strip_prefix(kind)?
        .strip_prefix(':')?;
    positive_id(id)
}

/// Digits only, no sign, no leading zero.
pub(crate) fn positive_id(text: &str) -> Option<i64> {
    let well_formed =
        !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) && !text.starts_with('0');
    well_formed.then(|| text.parse().ok()).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(value: &str) -> Value {
        Value::Text(value.to_owned())
    }

    #[test]
    fn reads_lists_objects_and_encoded_urns() {
        assert_eq!(
            parse_value("List(urn%3Ali%3AsponsoredAccount%3A123,urn%3Ali%3AsponsoredAccount%3A9)"),
            Ok(Value::List(vec![
                text("urn:li:sponsoredAccount:123"),
                text("urn:li:sponsoredAccount:9")
            ]))
        );
        assert_eq!(
            parse_value("(start:(year:2026,month:11,day:20))"),
            Ok(Value::Object(vec![(
                "start".into(),
                Value::Object(vec![
                    ("year".into(), text("2026")),
                    ("month".into(), text("11")),
                    ("day".into(), text("20")),
                ])
            )]))
        );
        assert_eq!(
            parse_value("(status:(values:List(ACTIVE,PAUSED)),test:false)"),
            Ok(Value::Object(vec![
                (
                    "status".into(),
                    Value::Object(vec![(
                        "values".into(),
                        Value::List(vec![text("ACTIVE"), text("PAUSED")])
                    )])
                ),
                ("test".into(), text("false")),
            ]))
        );
        assert_eq!(parse_value("List()"), Ok(Value::List(vec![])));
        assert_eq!(parse_value("''"), Ok(text("")));
        assert_eq!(parse_value("Brand+%26+Co"), Ok(text("Brand & Co")));
    }

    #[test]
    fn refuses_what_rest_li_cannot_read() {
        for bad in [
            "List(urn:li:sponsoredAccount:1)",
            "List(1,2",
            "List(1,,2)",
            "(start:(year:2026)",
            "(start(year:2026))",
            "(a:1,a:2)",
            "(a:1))",
            "CAMPAIGN)",
            "",
            "%zz",
            "100%",
        ] {
            assert!(parse_value(bad).is_err(), "{bad:?} should be refused");
        }
        // Structure percent-encoded by an over-eager client is a plain string, not a list.
        assert_eq!(
            parse_value("List%28urn%3Ali%3AsponsoredAccount%3A1%29"),
            Ok(text("List(urn:li:sponsoredAccount:1)"))
        );
    }

    #[test]
    fn query_names_are_unique_and_checked() {
        assert!(Query::parse(Some("q=search&q=search")).is_err());
        let query = Query::parse(Some("q=analytics&pivot=CREATIVE")).expect("query");
        assert_eq!(query.required_text("pivot"), Ok("CREATIVE".to_owned()));
        assert!(query.required_text("dateRange").is_err());
        assert!(query.only(&["q"]).is_err());
        assert!(query.only(&["q", "pivot"]).is_ok());
    }

    #[test]
    fn urns_name_their_kind_and_a_positive_id() {
        assert_eq!(
            urn_id("urn:li:sponsoredCampaign:42", "sponsoredCampaign"),
            Some(42)
        );
        assert_eq!(
            urn_id("urn:li:sponsoredCampaign:42", "sponsoredCreative"),
            None
        );
        assert_eq!(
            urn_id("urn:li:sponsoredCampaign:042", "sponsoredCampaign"),
            None
        );
        assert_eq!(
            urn_id("urn:li:sponsoredCampaign:-4", "sponsoredCampaign"),
            None
        );
    }
}
