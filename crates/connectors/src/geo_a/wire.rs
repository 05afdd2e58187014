//! The SE Ranking Project API's JSON shapes, as its documentation (seranking.com/api/project)
//! writes them: the projects of `GET /sites`, the AI Result Tracker's engines and statistics
//! (`/sites/{id}/airt/llm`, `.../airt/llm/{id}/statistics`), the audits of `GET /audit/list` and
//! a report's `score_percent` (`/audit/{id}/report`), the keyword positions of
//! `GET /sites/{id}/positions` (one entry per search engine of the project), the competitors
//! of `GET /competitors/site/{id}` and their positions (`GET /competitors/{id}/positions`,
//! the project's keywords by id), and the error body
//! `{"message": "..."}`.
//!
//! Ids are read as numbers or strings: SE Ranking writes both in neighbouring endpoints.

use serde::{Deserialize, Deserializer};

/// An id as text, whether SE Ranking wrote `147696` or `"147696"`.
fn id_text<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    optional_id(deserializer)?.ok_or_else(|| serde::de::Error::custom("the id is null"))
}

/// An id as text, or `None` for null or absent.
fn optional_id<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Id {
        Number(i64),
        Text(String),
    }
    Ok(match Option::<Id>::deserialize(deserializer)? {
        Some(Id::Number(number)) => Some(number.to_string()),
        Some(Id::Text(text)) => Some(text),
        None => None,
    })
}

/// A number SE Ranking may write as `79` or `"79"`; `None` for null, absent or blank.
fn loose_number<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<f64>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Loose {
        Number(f64),
        Text(String),
    }
    Ok(match Option::<Loose>::deserialize(deserializer)? {
        Some(Loose::Number(number)) => Some(number),
        Some(Loose::Text(text)) => text.trim().parse().ok(),
        None => None,
    })
}

/// One project of `GET /sites`: `title` is the project's name, `name` the site's URL.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Site {
    #[serde(deserialize_with = "id_text")]
    pub id: String,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub name: Option<String>,
}

/// One engine of `GET /sites/{id}/airt/llm` (`base_name`: `chatgpt`, `perplexity`, `gemini`,
/// `google_ai_overview`, `google_ai_mode`).
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Llm {
    #[serde(deserialize_with = "id_text")]
    pub id: String,
    pub base_name: String,
}

/// `GET .../airt/llm/{id}/statistics?from&to`: only the mention share is read.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct Statistics {
    #[serde(default)]
    pub presence: Option<Presence>,
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct Presence {
    /// The share (0-100) of the period's answers that mention the brand.
    #[serde(default, deserialize_with = "loose_number")]
    pub mention_percent_in_top: Option<f64>,
}

impl Statistics {
    /// The period's mention share, when the engine has one.
    pub fn mention_percent(&self) -> Option<f64> {
        self.presence
            .as_ref()
            .and_then(|presence| presence.mention_percent_in_top)
            .filter(|value| value.is_finite())
    }
}

/// `GET /audit/list`: a page of audits, `{total, items}` (a bare list is read too).
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(crate) enum AuditList {
    Page {
        #[serde(default)]
        items: Vec<Audit>,
    },
    Bare(Vec<Audit>),
}

impl AuditList {
    pub fn into_items(self) -> Vec<Audit> {
        match self {
            Self::Page { items } | Self::Bare(items) => items,
        }
    }
}

/// One audit of the list: its id, title and audited domain.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Audit {
    #[serde(deserialize_with = "id_text")]
    pub id: String,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub url: Option<String>,
    #[serde(default)]
    pub domain: Option<String>,
}

/// `GET /audit/{id}/report`: the health score once the audit is finished.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct AuditReport {
    #[serde(default)]
    pub is_finished: bool,
    #[serde(default, deserialize_with = "loose_number")]
    pub score_percent: Option<f64>,
}

/// One search engine's entry of `GET /sites/{id}/positions`.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct EnginePositions {
    #[serde(default, deserialize_with = "optional_id")]
    pub site_engine_id: Option<String>,
    #[serde(default)]
    pub keywords: Vec<KeywordPositions>,
}

/// A competitor of the project (`GET /competitors/site/{id}`).
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Competitor {
    #[serde(deserialize_with = "id_text")]
    pub id: String,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub url: Option<String>,
}

impl Competitor {
    /// How the report names it: its name, else its URL, else its id.
    pub fn label(&self) -> String {
        [&self.name, &self.url]
            .into_iter()
            .flatten()
            .map(|text| text.trim())
            .find(|text| !text.is_empty())
            .map_or_else(|| format!("competitor {}", self.id), str::to_owned)
    }
}

/// One search engine's entry of `GET /competitors/{id}/positions`: the project's keywords
/// (by id; a name when given) with the competitor's checks.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct CompetitorEngine {
    #[serde(default, deserialize_with = "optional_id")]
    pub site_engine_id: Option<String>,
    #[serde(default)]
    pub keywords: Vec<CompetitorKeyword>,
}

#[derive(Debug, Clone, Deserialize)]
pub(crate) struct CompetitorKeyword {
    #[serde(default, deserialize_with = "optional_id")]
    pub id: Option<String>,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub positions: Vec<Position>,
}

/// A tracked keyword with its checks in the period.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct KeywordPositions {
    /// The keyword's id in the project (competitors' positions name keywords by it).
    #[serde(default, deserialize_with = "optional_id")]
    pub id: Option<String>,
    pub name: String,
    #[serde(default, deserialize_with = "loose_number")]
    pub volume: Option<f64>,
    #[serde(default)]
    pub positions: Vec<Position>,
    /// With `with_landing_pages=1`: the ranking URL per check date.
    #[serde(default)]
    pub landing_pages: Vec<LandingPage>,
}

/// One check: `pos` 0 means the site was not found in the checked depth.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Position {
    pub date: String,
    #[serde(default, deserialize_with = "loose_number")]
    pub pos: Option<f64>,
}

#[derive(Debug, Clone, Deserialize)]
pub(crate) struct LandingPage {
    pub date: String,
    #[serde(default)]
    pub url: Option<String>,
}

/// An error body: `{"message": "No token"}`, or the rate limit's
/// `{"error": {"code": 429, "message": "Too Many Requests", "description": "..."}}`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct ErrorBody {
    pub message: Option<String>,
    pub error: Option<NestedError>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct NestedError {
    pub message: Option<String>,
    pub description: Option<String>,
}

impl ErrorBody {
    /// The vendor's reason, whichever of the two shapes carried it.
    pub fn reason(&self) -> Option<String> {
        let nested = self.error.as_ref().and_then(|error| {
            match (error.message.as_deref(), error.description.as_deref()) {
                (Some(message), Some(description)) => Some(format!("{message}: {description}")),
                (Some(text), None) | (None, Some(text)) => Some(text.to_owned()),
                (None, None) => None,
            }
        });
        self.message
            .clone()
            .or(nested)
            .map(|text| text.trim().to_owned())
            .filter(|text| !text.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_shapes_parse() {
        let sites: Vec<Site> = serde_json::from_str(
            r#"[{"id":1,"title":"zniqpf","name":"Cronin.info","group_id":0,"is_active":1,
            "check_freq":"check_daily","keyword_count":0}]"#,
        )
        .unwrap();
        assert_eq!(sites[0].id, "1");
        assert_eq!(sites[0].name.as_deref(), Some("Cronin.info"));
        let stats: Statistics = serde_json::from_str(
            r#"{"llm_id":4975,"stats":{"prompts_count":12,"last_update":"2026-08-05"},
            "presence":{"link_percent_in_top":25,"link_diff":5,"mention_percent_in_top":"40.5",
            "mention_diff":-2}}"#,
        )
        .unwrap();
        assert_eq!(stats.mention_percent(), Some(40.5));
        let empty: Statistics =
            serde_json::from_str(r#"{"presence":{"mention_percent_in_top":null}}"#).unwrap();
        assert_eq!(empty.mention_percent(), None);
        let report: AuditReport =
            serde_json::from_str(r#"{"is_finished":true,"score_percent":79,"total_pages":10}"#)
                .unwrap();
        assert_eq!(
            (report.is_finished, report.score_percent),
            (true, Some(79.0))
        );
        let list: AuditList =
            serde_json::from_str(r#"{"total":1,"items":[{"id":"7","title":"Shop"}]}"#).unwrap();
        assert_eq!(list.into_items()[0].id, "7");
        let positions: Vec<EnginePositions> = serde_json::from_str(
            r#"[{"site_engine_id":1,"keywords":[{"id":5,"name":"payback","volume":"390",
            "positions":[{"date":"2026-11-20","pos":3,"change":1}],
            "landing_pages":[{"date":"2026-11-20","url":"https://shop.example/"}]}]}]"#,
        )
        .unwrap();
        let keyword = &positions[0].keywords[0];
        assert_eq!(
            (keyword.volume, keyword.positions[0].pos),
            (Some(390.0), Some(3.0))
        );
        let refused: ErrorBody = serde_json::from_str(r#"{"message":"Incorrect token"}"#).unwrap();
        assert_eq!(refused.reason().as_deref(), Some("Incorrect token"));
        let limited: ErrorBody = serde_json::from_str(
            r#"{"error":{"code":429,"message":"Too Many Requests","description":"Slow down."}}"#,
        )
        .unwrap();
        assert_eq!(
            limited.reason().as_deref(),
            Some("Too Many Requests: Slow down.")
        );
    }
}
