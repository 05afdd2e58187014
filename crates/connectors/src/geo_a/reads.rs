//! The calls of one sync, one function per part of the project: AI visibility per engine and
//! day, the site audit's health score, and the keyword positions.

use payback_domain::Timestamp;
use payback_domain::timestamp::DAY_MS;

use super::client::SeRankingClient;
use super::mapping::VisibilityDay;
use super::wire::{
    AuditList, AuditReport, Competitor, CompetitorEngine, EnginePositions, Llm, Statistics,
};
use super::{Company, companies, find_company};
use crate::ConnectorError;
use crate::batch::DayRange;

/// The project of the connection, as `GET /sites` lists it now.
pub(crate) async fn project(
    client: &SeRankingClient<'_>,
    company_id: &str,
) -> Result<Company, ConnectorError> {
    let all = companies(client).await?;
    find_company(&all, company_id).cloned()
}

/// Each UTC day of `days`, oldest first.
fn each_day(days: &DayRange) -> Vec<String> {
    let mut out = Vec::new();
    let Some(mut at) = Timestamp::parse_day(&days.first) else {
        return out;
    };
    loop {
        let day = at.day();
        if day.as_str() > days.last.as_str() {
            return out;
        }
        out.push(day);
        at = at.plus_millis(DAY_MS);
    }
}

/// For each engine the project tracks and each day: the day's statistics
/// (`from=D&to=D`), keeping the engines' `mention_percent_in_top`. Answers the days and how
/// many engines there are.
pub(crate) async fn visibility(
    client: &SeRankingClient<'_>,
    site_id: &str,
    days: &DayRange,
) -> Result<(Vec<VisibilityDay>, usize), ConnectorError> {
    let engines: Vec<Llm> = client
        .get(&format!("/sites/{site_id}/airt/llm"), &[])
        .await?;
    let mut read = Vec::new();
    for day in each_day(days) {
        let mut figures = Vec::new();
        for engine in &engines {
            let stats: Statistics = client
                .get(
                    &format!("/sites/{site_id}/airt/llm/{}/statistics", engine.id),
                    &[("from", day.as_str()), ("to", day.as_str())],
                )
                .await?;
            if let Some(value) = stats.mention_percent() {
                figures.push((engine.base_name.clone(), value));
            }
        }
        read.push(VisibilityDay { day, figures });
    }
    Ok((read, engines.len()))
}

/// Whether an audit of the list is the project's: its title (or name) is the project's name,
/// or, failing that, it audits the project's site.
fn is_projects(audit: &super::wire::Audit, project: &Company) -> bool {
    let same = |a: &str, b: &str| !a.trim().is_empty() && a.trim().eq_ignore_ascii_case(b.trim());
    let host = |url: &str| {
        let url = url.trim().to_ascii_lowercase();
        let url = url
            .strip_prefix("https://")
            .or_else(|| url.strip_prefix("http://"))
            .unwrap_or(&url)
            .to_owned();
        url.trim_start_matches("www.")
            .trim_end_matches('/')
            .to_owned()
    };
    let named = [&audit.title, &audit.name]
        .into_iter()
        .flatten()
        .any(|text| same(text, &project.name));
    let audits_site = [&audit.url, &audit.domain]
        .into_iter()
        .flatten()
        .any(|url| !project.domain.trim().is_empty() && host(url) == host(&project.domain));
    named || audits_site
}

/// The health score of the project's audit (`score_percent` of its report), when there is a
/// finished one.
pub(crate) async fn health(
    client: &SeRankingClient<'_>,
    project: &Company,
) -> Result<Option<f64>, ConnectorError> {
    let list: AuditList = client.get("/audit/list", &[]).await?;
    let Some(audit) = list
        .into_items()
        .into_iter()
        .find(|audit| is_projects(audit, project))
    else {
        return Ok(None);
    };
    let report: AuditReport = client
        .get(&format!("/audit/{}/report", audit.id), &[])
        .await?;
    Ok(report
        .score_percent
        .filter(|score| report.is_finished && score.is_finite()))
}

/// The project's keyword positions of the days, with their ranking URLs.
pub(crate) async fn positions(
    client: &SeRankingClient<'_>,
    site_id: &str,
    days: &DayRange,
) -> Result<Vec<EnginePositions>, ConnectorError> {
    client
        .get(
            &format!("/sites/{site_id}/positions"),
            &[
                ("date_from", days.first.as_str()),
                ("date_to", days.last.as_str()),
                ("with_landing_pages", "1"),
            ],
        )
        .await
}

/// The competitors added to the project, each with its positions for the project's keywords
/// over the days (one request per competitor; a project tracks a handful).
pub(crate) async fn competitor_positions(
    client: &SeRankingClient<'_>,
    site_id: &str,
    days: &DayRange,
) -> Result<Vec<(Competitor, Vec<CompetitorEngine>)>, ConnectorError> {
    let competitors: Vec<Competitor> = client
        .get(&format!("/competitors/site/{site_id}"), &[])
        .await?;
    let mut read = Vec::with_capacity(competitors.len());
    for competitor in competitors {
        let engines: Vec<CompetitorEngine> = client
            .get(
                &format!("/competitors/{}/positions", competitor.id),
                &[
                    ("date_from", days.first.as_str()),
                    ("date_to", days.last.as_str()),
                ],
            )
            .await?;
        read.push((competitor, engines));
    }
    Ok(read)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geo_a::wire::Audit;

    #[test]
    fn the_days_of_a_range_in_order() {
        let days = DayRange {
            first: "2026-11-29".into(),
            last: "2026-12-01".into(),
        };
        assert_eq!(each_day(&days), ["2026-11-29", "2026-11-30", "2026-12-01"]);
    }

    #[test]
    fn the_projects_audit_is_found_by_name_or_site() {
        let project = Company {
            id: "1".into(),
            name: "Shop".into(),
            domain: "https://www.shop.example/".into(),
        };
        let audit = |title: &str, url: &str| Audit {
            id: "9".into(),
            title: Some(title.into()),
            name: None,
            url: Some(url.into()),
            domain: None,
        };
        assert!(is_projects(&audit("shop", "other.example"), &project));
        assert!(is_projects(&audit("Another", "shop.example"), &project));
        assert!(!is_projects(&audit("Blog", "blog.example"), &project));
    }
}
