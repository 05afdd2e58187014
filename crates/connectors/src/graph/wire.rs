//! JSON shapes every Graph edge shares: a page of `data` with `paging` cursors, the error body,
//! and the loose number encodings Meta uses (ids and counts arrive as strings or numbers,
//! depending on the field and the version). Unknown fields are ignored, as a new version may add
//! some.

use serde::{Deserialize, Deserializer};

/// One page of an edge: `{"data": [...], "paging": {"cursors": {"before", "after"}, "next"}}`.
/// `next` is absent on the last page (Meta's documented end signal; a page can be empty and
/// still have one).
#[derive(Debug, Deserialize)]
#[serde(bound(deserialize = "T: Deserialize<'de>"))]
pub(crate) struct Paged<T> {
    #[serde(default = "Vec::new")]
    pub data: Vec<T>,
    #[serde(default)]
    pub paging: Option<Paging>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct Paging {
    pub cursors: Option<Cursors>,
    pub next: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct Cursors {
    pub before: Option<String>,
    pub after: Option<String>,
}

impl<T> Paged<T> {
    /// The cursor of the next page, when there is one: `paging.next` present and
    /// `paging.cursors.after` naming where it starts.
    pub(crate) fn after(&self) -> Option<&str> {
        let paging = self.paging.as_ref()?;
        paging.next.as_deref().filter(|next| !next.is_empty())?;
        paging
            .cursors
            .as_ref()?
            .after
            .as_deref()
            .filter(|after| !after.is_empty())
    }
}

/// Every error answer: `{"error": {"message", "type", "code", "error_subcode", "is_transient",
/// "error_user_title", "error_user_msg", "fbtrace_id"}}`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct ErrorBody {
    pub error: Option<GraphErrorObject>,
}

#[derive(Debug, Default, Clone, Deserialize)]
#[serde(default)]
pub(crate) struct GraphErrorObject {
    pub message: Option<String>,
    #[serde(rename = "type")]
    pub kind: Option<String>,
    #[serde(deserialize_with = "int")]
    pub code: Option<i64>,
    #[serde(deserialize_with = "int")]
    pub error_subcode: Option<i64>,
    pub is_transient: Option<bool>,
    pub error_user_title: Option<String>,
    pub error_user_msg: Option<String>,
    pub fbtrace_id: Option<String>,
}

/// A number written as a JSON string or number.
#[derive(Deserialize)]
#[serde(untagged)]
enum Loose {
    Int(i64),
    Float(f64),
    Text(String),
}

/// An integer that Meta writes as `"123"` or `123`; `None` when absent or null.
pub(crate) fn int<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<i64>, D::Error> {
    match Option::<Loose>::deserialize(deserializer)? {
        None => Ok(None),
        Some(Loose::Int(n)) => Ok(Some(n)),
        // Whole numbers only: a count with a fraction is not a count.
        Some(Loose::Float(f)) if f.fract() == 0.0 && f.abs() < 9.0e15 => Ok(Some(f as i64)),
        Some(Loose::Float(f)) => Err(serde::de::Error::custom(format!("not a whole number: {f}"))),
        Some(Loose::Text(text)) if text.trim().is_empty() => Ok(None),
        Some(Loose::Text(text)) => text
            .trim()
            .parse()
            .map(Some)
            .map_err(|_| serde::de::Error::custom(format!("not a whole number: {text:?}"))),
    }
}

/// An id, as its decimal text, whichever way it was written.
pub(crate) fn id<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
    match Option::<Loose>::deserialize(deserializer)? {
        None => Ok(None),
        Some(Loose::Int(n)) => Ok(Some(n.to_string())),
        Some(Loose::Text(text)) => Ok(Some(text)),
        Some(Loose::Float(f)) => Err(serde::de::Error::custom(format!(
            "an id is not a fraction: {f}"
        ))),
    }
}

/// `{"success": true}`, what a write or a delete answers.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct Success {
    pub success: Option<bool>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize)]
    struct Row {
        #[serde(default, deserialize_with = "id")]
        id: Option<String>,
        #[serde(default, deserialize_with = "int")]
        count: Option<i64>,
    }

    #[test]
    fn a_middle_page_names_its_successor() {
        let page: Paged<Row> = serde_json::from_str(
            r#"{
              "data": [{"id": "act_1", "count": "12"}, {"id": 22, "count": 3}],
              "paging": {
                "cursors": {"before": "MAZDZD", "after": "MjQZD"},
                "next": "https://graph.facebook.com/v27.0/me/adaccounts?after=MjQZD"
              }
            }"#,
        )
        .unwrap();
        assert_eq!(page.after(), Some("MjQZD"));
        assert_eq!(page.data[0].id.as_deref(), Some("act_1"));
        assert_eq!(page.data[0].count, Some(12));
        assert_eq!(page.data[1].id.as_deref(), Some("22"));
        assert_eq!(page.data[1].count, Some(3));
    }

    #[test]
    fn a_page_without_next_is_the_last_even_with_cursors() {
        let page: Paged<Row> = serde_json::from_str(
            r#"{"data": [], "paging": {"cursors": {"before": "MAZDZD", "after": "MAZDZD"}}}"#,
        )
        .unwrap();
        assert!(page.data.is_empty());
        assert_eq!(page.after(), None);
        let bare: Paged<Row> = serde_json::from_str(r#"{"data": [{"id": "1"}]}"#).unwrap();
        assert_eq!(bare.after(), None);
        assert_eq!(bare.data[0].count, None);
    }

    #[test]
    fn loose_numbers_refuse_what_is_not_whole() {
        assert!(serde_json::from_str::<Row>(r#"{"count": "1.5"}"#).is_err());
        assert!(serde_json::from_str::<Row>(r#"{"count": 1.5}"#).is_err());
        assert_eq!(
            serde_json::from_str::<Row>(r#"{"count": 4.0}"#)
                .unwrap()
                .count,
            Some(4)
        );
        assert_eq!(
            serde_json::from_str::<Row>(r#"{"count": ""}"#)
                .unwrap()
                .count,
            None
        );
    }
}
