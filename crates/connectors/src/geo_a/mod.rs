//! `geo_a`: AI-search visibility, site-audit health and keyword ranks of one SE Ranking
//! project, read through the SE Ranking Project API with the API key the customer generated
//! (Settings, API). Read only.
//!
//! One file per concern: `client` (the URL, the key, retries and error bodies), `wire` (the
//! documented shapes), `reads` (the calls of one sync), `mapping` (answers to snapshots),
//! `source` (the [`crate::Source`]).
//!
//! Documentation followed (seranking.com/api/project): "Getting started" (origin
//! `https://api4.seranking.com`, `Authorization: Token KEY`, `{"message": "No token"}` on a
//! refused key), "Project management" (`GET /sites`: `id`, `title` the project's name, `name`
//! its URL), "AI Result Tracker" (`GET /sites/{id}/airt/llm`, `.../airt/llm/{id}/statistics`
//! with `from`/`to` and `presence.mention_percent_in_top`), "Audit" (`/audit/list`,
//! `/audit/{id}/report` with `score_percent`), keyword positions (`GET /sites/{id}/positions`
//! with `date_from`, `date_to`, `with_landing_pages`), and the rate-limits page (5 requests a
//! second per key, 429 without `Retry-After`).

mod client;
#[cfg(test)]
mod loopback_tests;
mod mapping;
mod reads;
mod source;
mod wire;

pub use source::GeoASource;

use std::fmt;

use crate::ConnectorError;
use crate::payments::RetryPolicy;
use client::SeRankingClient;

/// SE Ranking's Project API origin; the documented paths are appended.
pub const DEFAULT_API_BASE_URL: &str = "https://api4.seranking.com";

/// One `geo_a` connection. `Debug` never prints the key.
#[derive(Clone)]
pub struct GeoAConfig {
    /// The SE Ranking Project API key.
    pub api_key: String,
    /// The project (`/sites` id) the connection reads.
    pub company_id: String,
    /// Default [`DEFAULT_API_BASE_URL`]; tests point it at a fake.
    pub api_base_url: String,
    /// How often rate limits and server errors are retried.
    pub retry: RetryPolicy,
}

impl GeoAConfig {
    /// A config against SE Ranking's origin with the default retry policy.
    pub fn new(api_key: String, company_id: String) -> Self {
        Self {
            api_key,
            company_id,
            api_base_url: DEFAULT_API_BASE_URL.to_owned(),
            retry: RetryPolicy::default(),
        }
    }

    fn client<'a>(
        &'a self,
        http: &'a reqwest::Client,
    ) -> Result<SeRankingClient<'a>, ConnectorError> {
        SeRankingClient::new(http, &self.api_base_url, &self.api_key, self.retry)
    }
}

impl fmt::Debug for GeoAConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GeoAConfig")
            .field("api_key", &"[redacted]")
            .field("company_id", &self.company_id)
            .field("api_base_url", &self.api_base_url)
            .field("retry", &self.retry)
            .finish()
    }
}

/// A project of the key's account, as `GET /sites` lists it: Payback's "company".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Company {
    pub id: String,
    /// The project's title (its URL when it has none).
    pub name: String,
    /// The project's site URL as SE Ranking writes it.
    pub domain: String,
}

/// Every project of the key's account (`GET /sites`), with the default retry policy: the
/// connect's proof of the key. A refused key is [`ConnectorError::Unauthorized`] carrying SE
/// Ranking's message.
pub async fn list_companies(
    http: &reqwest::Client,
    origin: &str,
    api_key: &str,
) -> Result<Vec<Company>, ConnectorError> {
    let client = SeRankingClient::new(http, origin, api_key, RetryPolicy::default())?;
    companies(&client).await
}

async fn companies(client: &SeRankingClient<'_>) -> Result<Vec<Company>, ConnectorError> {
    let sites: Vec<wire::Site> = client.get("/sites", &[]).await?;
    Ok(sites
        .into_iter()
        .map(|site| {
            let domain = site.name.unwrap_or_default();
            let name = site
                .title
                .filter(|title| !title.trim().is_empty())
                .unwrap_or_else(|| domain.clone());
            Company {
                id: site.id,
                name,
                domain,
            }
        })
        .collect())
}

/// Why no company could be chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CompanyChoice {
    /// The key sees no project at all.
    NoProjects,
    /// Several projects and no `company_id`: the caller lists them.
    Several(Vec<Company>),
    /// `company_id` is not one of the key's projects.
    Unknown(String),
}

/// The company a connect uses: the one named by `company_id`, or the only one there is.
pub fn choose_company(
    companies: Vec<Company>,
    company_id: Option<&str>,
) -> Result<Company, CompanyChoice> {
    match company_id.map(str::trim).filter(|id| !id.is_empty()) {
        Some(id) => companies
            .into_iter()
            .find(|company| company.id == id)
            .ok_or_else(|| CompanyChoice::Unknown(id.to_owned())),
        None => match companies.len() {
            0 => Err(CompanyChoice::NoProjects),
            1 => companies
                .into_iter()
                .next()
                .ok_or(CompanyChoice::NoProjects),
            _ => Err(CompanyChoice::Several(companies)),
        },
    }
}

/// `company_id` among `companies`, else [`ConnectorError::Config`] naming the field.
fn find_company<'a>(
    companies: &'a [Company],
    company_id: &str,
) -> Result<&'a Company, ConnectorError> {
    companies
        .iter()
        .find(|company| company.id == company_id)
        .ok_or_else(|| {
            ConnectorError::Config(format!(
                "company_id: {company_id} is not a project of this key's SE Ranking account"
            ))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn company(id: &str) -> Company {
        Company {
            id: id.into(),
            name: format!("Project {id}"),
            domain: format!("{id}.example"),
        }
    }

    #[test]
    fn a_config_starts_at_se_ranking_and_never_prints_its_key() {
        let config = GeoAConfig::new("seranking-secret-key".into(), "42".into());
        assert_eq!(config.api_base_url, "https://api4.seranking.com");
        let text = format!("{config:?}");
        assert!(!text.contains("seranking-secret-key"), "{text}");
        assert!(text.contains("42"), "{text}");
    }

    #[test]
    fn one_project_is_used_several_need_a_choice_and_an_unknown_id_is_refused() {
        assert_eq!(choose_company(vec![company("1")], None), Ok(company("1")));
        assert_eq!(
            choose_company(vec![company("1"), company("2")], None),
            Err(CompanyChoice::Several(vec![company("1"), company("2")]))
        );
        assert_eq!(
            choose_company(vec![company("1"), company("2")], Some("2")),
            Ok(company("2"))
        );
        assert_eq!(
            choose_company(vec![company("1")], Some("9")),
            Err(CompanyChoice::Unknown("9".into()))
        );
        assert_eq!(choose_company(vec![], None), Err(CompanyChoice::NoProjects));
        let Err(ConnectorError::Config(message)) = find_company(&[company("1")], "9") else {
            panic!("an unknown project must be refused");
        };
        assert!(message.starts_with("company_id: 9"), "{message}");
    }
}
