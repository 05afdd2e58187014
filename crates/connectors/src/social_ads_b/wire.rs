//! The JSON LinkedIn answers, as far as Payback reads it. Every field is optional: a field
//! Payback needs and LinkedIn left out is reported where it is needed, and fields it adds later
//! are ignored.

use serde::Deserialize;

/// A collection answer: `{"elements": [...], "paging": {...}, "metadata": {"nextPageToken"}}`.
/// Search finders of the ads entities page by cursor (`pageToken` in, `nextPageToken` out);
/// `adAnalytics` answers one page with no `metadata`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Page<T> {
    #[serde(default = "Vec::new")]
    pub elements: Vec<T>,
    #[serde(default)]
    pub metadata: Option<PageMetadata>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PageMetadata {
    pub next_page_token: Option<String>,
}

/// An id as LinkedIn writes it: a number (`"id": 507404993`) or a URN string
/// (`"id": "urn:li:sponsoredCreative:915033233"`), depending on the resource.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub(crate) enum Id {
    Number(u64),
    Text(String),
}

impl Id {
    /// The plain number, whichever way it came.
    pub(crate) fn plain(&self, kind: &str) -> Option<String> {
        match self {
            Id::Number(number) => Some(number.to_string()),
            Id::Text(text) => super::urn::plain_id(kind, text),
        }
    }
}

/// `GET /rest/adAccounts/{id}` and the elements of `adAccounts?q=search`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AdAccount {
    pub id: Option<Id>,
    pub name: Option<String>,
    /// ISO 4217.
    pub currency: Option<String>,
    /// `ACTIVE`, `CANCELED`, `DRAFT`, `PENDING_DELETION`, `REMOVED`.
    pub status: Option<String>,
    /// `BUSINESS` or `ENTERPRISE`.
    #[serde(rename = "type")]
    pub kind: Option<String>,
}

/// An element of `adAccounts/{id}/adCampaigns?q=search`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Campaign {
    pub id: Option<Id>,
    pub name: Option<String>,
}

/// An element of `adAccounts/{id}/creatives?q=criteria`: its id is a URN, its campaign a URN,
/// and its name optional (many creatives are named after the post they promote, not here).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Creative {
    pub id: Option<Id>,
    pub name: Option<String>,
    pub campaign: Option<String>,
}

/// A date record of `dateRange`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub(crate) struct DateParts {
    pub year: i32,
    pub month: u8,
    pub day: u8,
}

#[derive(Debug, Clone, Copy, Default, Deserialize)]
pub(crate) struct DateRange {
    pub start: Option<DateParts>,
}

/// A decimal amount: LinkedIn writes `costInLocalCurrency` as a string (`"12.34"`). A JSON
/// number is read through its text too (never through arithmetic on a float).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub(crate) enum Amount {
    Text(String),
    Number(serde_json::Number),
}

impl Amount {
    pub(crate) fn text(&self) -> String {
        match self {
            Amount::Text(text) => text.clone(),
            Amount::Number(number) => number.to_string(),
        }
    }
}

/// An element of `adAnalytics?q=analytics`: one pivot value on one day (with
/// `timeGranularity=DAILY`), carrying only the `fields` asked for.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AnalyticsElement {
    pub date_range: Option<DateRange>,
    /// The pivot's URN, e.g. `["urn:li:sponsoredCreative:123"]`.
    #[serde(default)]
    pub pivot_values: Vec<String>,
    pub cost_in_local_currency: Option<Amount>,
    pub impressions: Option<i64>,
    pub clicks: Option<i64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_analytics_page_reads_as_documented() {
        let page: Page<AnalyticsElement> = serde_json::from_str(
            r#"{
              "paging": {"start": 0, "count": 10, "links": []},
              "elements": [
                {"clicks": 100, "impressions": 19090,
                 "pivotValues": ["urn:li:sponsoredCreative:1111"],
                 "costInLocalCurrency": "209.449",
                 "dateRange": {"start": {"month": 1, "day": 2, "year": 2026},
                               "end": {"month": 1, "day": 2, "year": 2026}}},
                {"pivotValues": ["urn:li:sponsoredCreative:2222"],
                 "costInLocalCurrency": 0.5,
                 "dateRange": {"start": {"month": 1, "day": 3, "year": 2026},
                               "end": {"month": 1, "day": 3, "year": 2026}}}
              ]
            }"#,
        )
        .unwrap();
        assert!(page.metadata.is_none());
        let first = &page.elements[0];
        assert_eq!(first.pivot_values, ["urn:li:sponsoredCreative:1111"]);
        assert_eq!((first.impressions, first.clicks), (Some(19_090), Some(100)));
        assert_eq!(
            first.cost_in_local_currency.as_ref().map(Amount::text),
            Some("209.449".to_owned())
        );
        assert_eq!(
            first.date_range.and_then(|range| range.start),
            Some(DateParts {
                year: 2026,
                month: 1,
                day: 2
            })
        );
        let second = &page.elements[1];
        assert_eq!(
            second.cost_in_local_currency.as_ref().map(Amount::text),
            Some("0.5".to_owned())
        );
        assert_eq!((second.impressions, second.clicks), (None, None));
    }

    #[test]
    fn search_pages_carry_their_cursor_and_ids_of_either_shape() {
        let page: Page<Creative> = serde_json::from_str(
            r#"{
              "elements": [
                {"id": "urn:li:sponsoredCreative:915033233", "name": "Spring launch",
                 "campaign": "urn:li:sponsoredCampaign:145282384", "intendedStatus": "ACTIVE"},
                {"id": "urn:li:sponsoredCreative:915033234",
                 "campaign": "urn:li:sponsoredCampaign:145282384"}
              ],
              "metadata": {"nextPageToken": "DgESQwAAAZ"}
            }"#,
        )
        .unwrap();
        assert_eq!(
            page.metadata.and_then(|m| m.next_page_token).as_deref(),
            Some("DgESQwAAAZ")
        );
        let id = page.elements[0].id.clone().unwrap();
        assert_eq!(
            id.plain(super::super::urn::CREATIVE).as_deref(),
            Some("915033233")
        );
        assert_eq!(page.elements[1].name, None);

        let account: AdAccount = serde_json::from_str(
            r#"{"id": 507404993, "name": "Acme", "currency": "USD", "status": "ACTIVE",
                "type": "BUSINESS", "test": false, "reference": "urn:li:organization:2414183",
                "servingStatuses": ["RUNNABLE"]}"#,
        )
        .unwrap();
        assert_eq!(
            account
                .id
                .and_then(|id| id.plain(super::super::urn::ACCOUNT))
                .as_deref(),
            Some("507404993")
        );
        assert_eq!(account.kind.as_deref(), Some("BUSINESS"));
        let empty: Page<Campaign> = serde_json::from_str(r#"{"paging": {}}"#).unwrap();
        assert!(empty.elements.is_empty());
    }
}
