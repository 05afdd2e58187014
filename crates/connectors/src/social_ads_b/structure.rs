//! The names behind the analytics ids, and each creative's campaign:
//! - campaigns: `GET /rest/adAccounts/{id}/adCampaigns?q=search` with every status asked for
//!   (a campaign archived since it spent still names its rows);
//! - creatives: the creatives finder, `GET /rest/adAccounts/{id}/creatives?q=criteria
//!   &campaigns=List(...)`, for the campaigns that had activity, [`CAMPAIGNS_PER_REQUEST`] at a
//!   time. A creative's name is optional at LinkedIn; without one the row has none.
//!
//! Both finders page by cursor (`pageSize`, `pageToken` / `metadata.nextPageToken`).

use std::collections::{BTreeSet, HashMap};

use super::client::LinkedInClient;
use super::errors::Resource;
use super::restli::{self, Query};
use super::urn::{self, CAMPAIGN, CREATIVE};
use super::wire::{Campaign, Creative};
use crate::ConnectorError;

/// Every documented campaign status, so the search leaves none out.
pub(crate) const ALL_CAMPAIGN_STATUSES: &str = "(status:(values:List(ACTIVE,PAUSED,ARCHIVED,COMPLETED,CANCELED,DRAFT,PENDING_DELETION,REMOVED)))";

/// Campaign URNs per request filtered by campaign (about 40 bytes each once encoded, so URLs
/// stay far from LinkedIn's length limit).
pub(crate) const CAMPAIGNS_PER_REQUEST: usize = 50;

/// A creative as the spend rows need it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CreativeInfo {
    pub campaign_id: String,
    pub name: Option<String>,
}

/// Campaign names by id and creatives by id (all plain digits).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Structure {
    pub campaign_names: HashMap<String, String>,
    pub creatives: HashMap<String, CreativeInfo>,
}

/// The campaign search's query.
pub(crate) fn campaigns_query() -> Query {
    Query::new()
        .raw("q", "search")
        .raw("search", ALL_CAMPAIGN_STATUSES)
}

/// The creatives finder's query for `campaign_ids`.
pub(crate) fn creatives_query(campaign_ids: &[String]) -> Query {
    let urns: Vec<String> = campaign_ids
        .iter()
        .map(|id| urn::urn(CAMPAIGN, id))
        .collect();
    Query::new()
        .raw("q", "criteria")
        .raw("campaigns", restli::list(urns.iter().map(String::as_str)))
}

/// Every campaign of the account, whatever its status.
pub(crate) async fn campaigns(
    client: &LinkedInClient,
    account_id: &str,
) -> Result<Vec<Campaign>, ConnectorError> {
    client
        .search(
            Resource::Campaigns,
            &format!("adAccounts/{account_id}/adCampaigns"),
            &campaigns_query(),
        )
        .await
}

/// The creatives of `campaign_ids`, a batch of campaigns per search.
pub(crate) async fn creatives(
    client: &LinkedInClient,
    account_id: &str,
    campaign_ids: &BTreeSet<String>,
) -> Result<Vec<Creative>, ConnectorError> {
    let ids: Vec<String> = campaign_ids.iter().cloned().collect();
    let mut creatives: Vec<Creative> = Vec::new();
    for batch in ids.chunks(CAMPAIGNS_PER_REQUEST) {
        creatives.extend(
            client
                .search::<Creative>(
                    Resource::Creatives,
                    &format!("adAccounts/{account_id}/creatives"),
                    &creatives_query(batch),
                )
                .await?,
        );
    }
    Ok(creatives)
}

/// The plain ids of `campaigns`, in order.
pub(crate) fn campaign_ids(campaigns: &[Campaign]) -> Vec<String> {
    campaigns
        .iter()
        .filter_map(|campaign| campaign.id.as_ref()?.plain(CAMPAIGN))
        .collect()
}

/// The lookup tables of the two answers; elements without a usable id are left out.
pub(crate) fn assemble(campaigns: Vec<Campaign>, creatives: Vec<Creative>) -> Structure {
    let campaign_names = campaigns
        .into_iter()
        .filter_map(|campaign| {
            let id = campaign.id?.plain(CAMPAIGN)?;
            let name = named(campaign.name)?;
            Some((id, name))
        })
        .collect();
    let creatives = creatives
        .into_iter()
        .filter_map(|creative| {
            let id = creative.id?.plain(CREATIVE)?;
            let campaign_id = urn::plain_id(CAMPAIGN, creative.campaign.as_deref()?)?;
            Some((
                id,
                CreativeInfo {
                    campaign_id,
                    name: named(creative.name),
                },
            ))
        })
        .collect();
    Structure {
        campaign_names,
        creatives,
    }
}

fn named(name: Option<String>) -> Option<String> {
    name.map(|text| text.trim().to_owned())
        .filter(|text| !text.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_are_the_documented_finders() {
        assert_eq!(
            campaigns_query().render(),
            "q=search&search=(status:(values:List(ACTIVE,PAUSED,ARCHIVED,COMPLETED,CANCELED,\
             DRAFT,PENDING_DELETION,REMOVED)))"
        );
        assert_eq!(
            creatives_query(&["145282384".to_owned(), "7".to_owned()]).render(),
            "q=criteria&campaigns=List(urn%3Ali%3AsponsoredCampaign%3A145282384,\
             urn%3Ali%3AsponsoredCampaign%3A7)"
        );
    }

    #[test]
    fn answers_become_lookups_by_plain_id() {
        let campaigns: Vec<Campaign> = serde_json::from_str(
            r#"[
              {"id": 145282384, "name": "Spring launch", "status": "ACTIVE",
               "campaignGroup": "urn:li:sponsoredCampaignGroup:600000001",
               "account": "urn:li:sponsoredAccount:507404993"},
              {"id": 145282385, "name": "  ", "status": "ARCHIVED"},
              {"name": "no id"}
            ]"#,
        )
        .unwrap();
        let creatives: Vec<Creative> = serde_json::from_str(
            r#"[
              {"id": "urn:li:sponsoredCreative:915033233", "name": "Hero video",
               "campaign": "urn:li:sponsoredCampaign:145282384"},
              {"id": "urn:li:sponsoredCreative:915033234",
               "campaign": "urn:li:sponsoredCampaign:145282384"},
              {"id": "urn:li:sponsoredCreative:915033235"}
            ]"#,
        )
        .unwrap();
        assert_eq!(campaign_ids(&campaigns), ["145282384", "145282385"]);
        let structure = assemble(campaigns, creatives);
        assert_eq!(structure.campaign_names.len(), 1);
        assert_eq!(
            structure
                .campaign_names
                .get("145282384")
                .map(String::as_str),
            Some("Spring launch")
        );
        assert_eq!(structure.creatives.len(), 2);
        assert_eq!(
            structure.creatives.get("915033233"),
            Some(&CreativeInfo {
                campaign_id: "145282384".into(),
                name: Some("Hero video".into())
            })
        );
        assert_eq!(
            structure.creatives.get("915033234").map(|c| c.name.clone()),
            Some(None)
        );
    }
}
