//! Ahrefs API v3's JSON shapes, as its reference documents them: each answer is one object
//! named after its resource, with no envelope; errors are `{"error": "..."}`.

use serde::Deserialize;

/// `GET site-explorer/domain-rating`: `{"domain_rating": {"domain_rating": 66.0, "ahrefs_rank": 3840}}`.
#[derive(Debug, Deserialize)]
pub(crate) struct DomainRatingAnswer {
    pub domain_rating: DomainRating,
}

#[derive(Debug, Deserialize)]
pub(crate) struct DomainRating {
    /// 0-100; documented as a number, written with a fraction. (`ahrefs_rank` beside it is
    /// not read.)
    pub domain_rating: f64,
}

/// `GET site-explorer/backlinks-stats`: `{"metrics": {"live", "all_time", "live_refdomains",
/// "all_time_refdomains"}}`. Payback stores the live figures.
#[derive(Debug, Deserialize)]
pub(crate) struct BacklinksStatsAnswer {
    pub metrics: BacklinksStats,
}

#[derive(Debug, Deserialize)]
pub(crate) struct BacklinksStats {
    /// Live backlinks.
    pub live: i64,
    /// Live referring domains.
    pub live_refdomains: i64,
}

/// `GET site-explorer/organic-keywords`: `{"keywords": [...]}`, each row holding the columns
/// `select` asked for.
#[derive(Debug, Deserialize)]
pub(crate) struct OrganicKeywordsAnswer {
    pub keywords: Vec<OrganicKeyword>,
}

/// One row of [`OrganicKeywordsAnswer`] with the columns `reads::KEYWORD_COLUMNS` selects; the
/// reference documents the position, its URL and the volume as nullable.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct OrganicKeyword {
    pub keyword: String,
    #[serde(default)]
    pub best_position: Option<i64>,
    #[serde(default)]
    pub best_position_url: Option<String>,
    #[serde(default)]
    pub volume: Option<i64>,
}

/// The text of an error body: the documented `{"error": "..."}`, or the `["Error", "Unauthorized"]`
/// array some gateways of Ahrefs are seen answering; `None` when the body is neither.
pub(crate) fn error_text(body: &[u8]) -> Option<String> {
    #[derive(Deserialize)]
    struct Documented {
        error: String,
    }
    if let Ok(documented) = serde_json::from_slice::<Documented>(body) {
        return Some(documented.error.trim().to_owned()).filter(|text| !text.is_empty());
    }
    let parts = serde_json::from_slice::<Vec<String>>(body).ok()?;
    Some(parts.join(": ")).filter(|text| !text.trim().is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_shapes_parse() {
        let rating: DomainRatingAnswer =
            serde_json::from_str(r#"{"domain_rating":{"domain_rating":66.0,"ahrefs_rank":3840}}"#)
                .unwrap();
        assert_eq!(rating.domain_rating.domain_rating, 66.0);
        let stats: BacklinksStatsAnswer = serde_json::from_str(
            r#"{"metrics":{"live":4545,"all_time":9000,"live_refdomains":718,"all_time_refdomains":1200}}"#,
        )
        .unwrap();
        assert_eq!(
            (stats.metrics.live, stats.metrics.live_refdomains),
            (4545, 718)
        );
        let keywords: OrganicKeywordsAnswer = serde_json::from_str(
            r#"{"keywords":[{"keyword":"payback","best_position":3,
            "best_position_url":"https://shop.example/","volume":1900},
            {"keyword":"cac","best_position":null,"best_position_url":null,"volume":null}]}"#,
        )
        .unwrap();
        assert_eq!(keywords.keywords[0].best_position, Some(3));
        assert_eq!(keywords.keywords[1].volume, None);
    }

    #[test]
    fn error_bodies_give_their_text() {
        assert_eq!(
            error_text(br#"{"error":"Invalid API key"}"#).as_deref(),
            Some("Invalid API key")
        );
        assert_eq!(
            error_text(br#"["Error","Unauthorized"]"#).as_deref(),
            Some("Error: Unauthorized")
        );
        assert_eq!(error_text(b"<html>bad gateway</html>"), None);
        assert_eq!(error_text(br#"{"error":"  "}"#), None);
    }
}
