//! The Google Ads API's REST JSON, as far as Payback reads it. Field names are the proto fields in
//! lowerCamelCase (`costMicros`, `nextPageToken`); 64-bit integers (ids, micros, impressions)
//! arrive as JSON strings, as proto3's JSON mapping writes them, and are read from numbers too.
//! Fields Google omits (a default value, a field not selected) are `None` or zero; unknown
//! fields are ignored, as a new minor version may add some.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer};

/// `googleAds:search`: one page of rows and the token of the next (absent on the last page).
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct SearchPage {
    pub results: Vec<GoogleAdsRow>,
    pub next_page_token: Option<String>,
}

/// `customers:listAccessibleCustomers`: `{resourceNames: ["customers/1234567890"]}`.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct AccessibleCustomers {
    pub resource_names: Vec<String>,
}

/// One row of a GAQL answer: the selected resources, each with only its selected fields.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct GoogleAdsRow {
    pub customer: Option<Customer>,
    pub customer_client: Option<CustomerClient>,
    pub campaign: Option<Campaign>,
    pub campaign_budget: Option<CampaignBudget>,
    pub ad_group: Option<AdGroup>,
    pub ad_group_ad: Option<AdGroupAd>,
    pub ad_group_criterion: Option<AdGroupCriterion>,
    pub metrics: Option<Metrics>,
    pub segments: Option<Segments>,
}

#[derive(Debug, Default, Clone, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct Customer {
    #[serde(deserialize_with = "id")]
    pub id: Option<String>,
    pub descriptive_name: Option<String>,
    pub currency_code: Option<String>,
    pub time_zone: Option<String>,
    pub manager: Option<bool>,
    pub final_url_suffix: Option<String>,
    pub auto_tagging_enabled: Option<bool>,
}

#[derive(Debug, Default, Clone, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct CustomerClient {
    /// `customers/{id}`.
    pub client_customer: Option<String>,
    #[serde(deserialize_with = "id")]
    pub id: Option<String>,
    pub descriptive_name: Option<String>,
    pub currency_code: Option<String>,
    pub manager: Option<bool>,
    #[serde(deserialize_with = "int64")]
    pub level: Option<i64>,
    pub status: Option<String>,
}

#[derive(Debug, Default, Clone, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct Campaign {
    pub resource_name: Option<String>,
    #[serde(deserialize_with = "id")]
    pub id: Option<String>,
    pub name: Option<String>,
    /// `ENABLED`, `PAUSED`, `REMOVED`.
    pub status: Option<String>,
}

#[derive(Debug, Default, Clone, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct CampaignBudget {
    /// `customers/{customer_id}/campaignBudgets/{budget_id}`.
    pub resource_name: Option<String>,
    #[serde(deserialize_with = "int64")]
    pub amount_micros: Option<i64>,
    pub explicitly_shared: Option<bool>,
    #[serde(deserialize_with = "int64")]
    pub reference_count: Option<i64>,
    /// `ENABLED`, `REMOVED`.
    pub status: Option<String>,
    /// `DAILY`, `CUSTOM_PERIOD`.
    pub period: Option<String>,
}

#[derive(Debug, Default, Clone, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct AdGroup {
    #[serde(deserialize_with = "id")]
    pub id: Option<String>,
    pub name: Option<String>,
}

#[derive(Debug, Default, Clone, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct AdGroupAd {
    pub ad: Option<Ad>,
}

#[derive(Debug, Default, Clone, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct Ad {
    #[serde(deserialize_with = "id")]
    pub id: Option<String>,
    pub name: Option<String>,
}

#[derive(Debug, Default, Clone, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct AdGroupCriterion {
    #[serde(deserialize_with = "id")]
    pub criterion_id: Option<String>,
    pub keyword: Option<Keyword>,
}

#[derive(Debug, Default, Clone, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct Keyword {
    pub text: Option<String>,
}

#[derive(Debug, Default, Clone, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct Metrics {
    #[serde(deserialize_with = "int64")]
    pub cost_micros: Option<i64>,
    #[serde(deserialize_with = "int64")]
    pub impressions: Option<i64>,
    #[serde(deserialize_with = "int64")]
    pub clicks: Option<i64>,
}

#[derive(Debug, Default, Clone, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct Segments {
    /// `YYYY-MM-DD`, in the account's time zone.
    pub date: Option<String>,
}

/// Every non-2xx answer: `{error: {code, message, status, details: [...]}}`, where the detail of
/// type `...googleads.vN.errors.GoogleAdsFailure` lists the Google Ads errors.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct ErrorBody {
    pub error: RpcStatus,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct RpcStatus {
    pub code: Option<i64>,
    pub message: Option<String>,
    /// `INVALID_ARGUMENT`, `UNAUTHENTICATED`, `PERMISSION_DENIED`, `RESOURCE_EXHAUSTED`, ...
    pub status: Option<String>,
    pub details: Vec<ErrorDetail>,
}

/// One `details[]` entry; only `GoogleAdsFailure` carries `errors`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct ErrorDetail {
    #[serde(rename = "@type")]
    pub kind: Option<String>,
    pub errors: Vec<AdsError>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct AdsError {
    /// A one-entry object naming the error's family and code, e.g. `{"queryError": "..."}`.
    pub error_code: BTreeMap<String, serde_json::Value>,
    pub message: Option<String>,
    pub details: Option<AdsErrorDetails>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct AdsErrorDetails {
    pub quota_error_details: Option<QuotaErrorDetails>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct QuotaErrorDetails {
    /// A protobuf Duration in JSON: `"30s"`, `"0.5s"`.
    pub retry_delay: Option<String>,
}

/// A 64-bit integer written as a JSON string or number.
#[derive(Deserialize)]
#[serde(untagged)]
enum Int64 {
    Text(String),
    Number(i64),
}

fn int64<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<i64>, D::Error> {
    match Option::<Int64>::deserialize(deserializer)? {
        None => Ok(None),
        Some(Int64::Number(n)) => Ok(Some(n)),
        Some(Int64::Text(text)) => text
            .trim()
            .parse()
            .map(Some)
            .map_err(|_| serde::de::Error::custom(format!("not a 64-bit integer: {text:?}"))),
    }
}

/// An id (a 64-bit integer) as its decimal text, whichever way it was written.
fn id<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
    Ok(int64(deserializer)?.map(|n| n.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_search_page_reads_strings_and_numbers() {
        let page: SearchPage = serde_json::from_str(
            r#"{
              "results": [
                {
                  "campaign": {"resourceName": "customers/1/campaigns/11", "id": "11", "name": "Brand"},
                  "adGroup": {"resourceName": "customers/1/adGroups/22", "id": 22, "name": "Exact"},
                  "adGroupAd": {"resourceName": "customers/1/adGroupAds/22~33", "ad": {"resourceName": "customers/1/ads/33", "id": "33"}},
                  "metrics": {"costMicros": "1234567", "impressions": "100", "clicks": 7},
                  "segments": {"date": "2026-11-20"}
                }
              ],
              "fieldMask": "campaign.id,campaign.name",
              "nextPageToken": "CAE"
            }"#,
        )
        .unwrap();
        assert_eq!(page.next_page_token.as_deref(), Some("CAE"));
        let row = &page.results[0];
        assert_eq!(row.campaign.as_ref().unwrap().id.as_deref(), Some("11"));
        assert_eq!(row.ad_group.as_ref().unwrap().id.as_deref(), Some("22"));
        let ad = row.ad_group_ad.as_ref().unwrap().ad.as_ref().unwrap();
        assert_eq!((ad.id.as_deref(), ad.name.as_deref()), (Some("33"), None));
        let metrics = row.metrics.as_ref().unwrap();
        assert_eq!(metrics.cost_micros, Some(1_234_567));
        assert_eq!((metrics.impressions, metrics.clicks), (Some(100), Some(7)));
        assert_eq!(
            row.segments.as_ref().unwrap().date.as_deref(),
            Some("2026-11-20")
        );
    }

    #[test]
    fn an_empty_answer_is_an_empty_last_page() {
        let page: SearchPage = serde_json::from_str(r#"{"fieldMask": "campaign.id"}"#).unwrap();
        assert!(page.results.is_empty() && page.next_page_token.is_none());
    }
}
