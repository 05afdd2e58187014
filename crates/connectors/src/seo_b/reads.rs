//! The three Site Explorer endpoints a run reads, each with the parameters its reference page
//! documents: `target` (the domain) and `date` (`YYYY-MM-DD`) on all three; `mode=subdomains`
//! (the domain with its subdomains, `www.` included: Ahrefs' default, written out) where the
//! endpoint takes one; and for the keyword list `select`, `country`, `order_by` and `limit`
//! (Ahrefs has no offset: `limit` bounds the one page).

use super::client::AhrefsClient;
use super::wire::{
    BacklinksStats, BacklinksStatsAnswer, DomainRatingAnswer, OrganicKeyword, OrganicKeywordsAnswer,
};
use super::{KEYWORD_COUNTRY, KEYWORD_LIMIT};
use crate::ConnectorError;

/// The keyword columns read: each selected column costs units per row, so only what is stored.
pub(crate) const KEYWORD_COLUMNS: &str = "keyword,best_position,best_position_url,volume";

/// The keyword list's order: by the domain's estimated traffic from the keyword, highest first.
pub(crate) const KEYWORD_ORDER: &str = "sum_traffic:desc";

/// The domain's Domain Rating on `day` (one request of the base cost: the cheap proof of a key).
pub(crate) async fn domain_rating(
    client: &AhrefsClient<'_>,
    domain: &str,
    day: &str,
) -> Result<f64, ConnectorError> {
    let answer: DomainRatingAnswer = client
        .get(
            "site-explorer/domain-rating",
            &[("target", domain), ("date", day)],
        )
        .await?;
    Ok(answer.domain_rating.domain_rating)
}

/// The domain's backlink counts on `day`.
pub(crate) async fn backlinks_stats(
    client: &AhrefsClient<'_>,
    domain: &str,
    day: &str,
) -> Result<BacklinksStats, ConnectorError> {
    let answer: BacklinksStatsAnswer = client
        .get(
            "site-explorer/backlinks-stats",
            &[("target", domain), ("date", day), ("mode", "subdomains")],
        )
        .await?;
    Ok(answer.metrics)
}

/// The domain's top [`KEYWORD_LIMIT`] organic keywords in [`KEYWORD_COUNTRY`] on `day`, by
/// traffic.
pub(crate) async fn top_keywords(
    client: &AhrefsClient<'_>,
    domain: &str,
    day: &str,
) -> Result<Vec<OrganicKeyword>, ConnectorError> {
    let limit = KEYWORD_LIMIT.to_string();
    let answer: OrganicKeywordsAnswer = client
        .get(
            "site-explorer/organic-keywords",
            &[
                ("target", domain),
                ("date", day),
                ("mode", "subdomains"),
                ("country", KEYWORD_COUNTRY),
                ("select", KEYWORD_COLUMNS),
                ("order_by", KEYWORD_ORDER),
                ("limit", &limit),
            ],
        )
        .await?;
    Ok(answer.keywords)
}
