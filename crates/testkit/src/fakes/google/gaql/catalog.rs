//! The resources a FROM clause may name, the field families each may select with it, and the
//! fields the fake knows with their types.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Family {
    Customer,
    CustomerClient,
    Campaign,
    CampaignBudget,
    AdGroup,
    AdGroupAd,
    AdGroupCriterion,
    KeywordView,
    Metrics,
    Segments,
}

impl Family {
    pub(super) fn of(field: &str) -> Option<Self> {
        Some(match field.split('.').next()? {
            "customer" => Self::Customer,
            "customer_client" => Self::CustomerClient,
            "campaign" => Self::Campaign,
            "campaign_budget" => Self::CampaignBudget,
            "ad_group" => Self::AdGroup,
            "ad_group_ad" => Self::AdGroupAd,
            "ad_group_criterion" => Self::AdGroupCriterion,
            "keyword_view" => Self::KeywordView,
            "metrics" => Self::Metrics,
            "segments" => Self::Segments,
            _ => return None,
        })
    }

    pub(super) fn prefix(self) -> &'static str {
        match self {
            Self::Customer => "customer",
            Self::CustomerClient => "customer_client",
            Self::Campaign => "campaign",
            Self::CampaignBudget => "campaign_budget",
            Self::AdGroup => "ad_group",
            Self::AdGroupAd => "ad_group_ad",
            Self::AdGroupCriterion => "ad_group_criterion",
            Self::KeywordView => "keyword_view",
            Self::Metrics => "metrics",
            Self::Segments => "segments",
        }
    }
}

/// The FROM resources the fake answers: the main family and the families selectable with it.
pub(super) fn resource(name: &str) -> Option<(Family, &'static [Family])> {
    use Family::*;
    Some(match name {
        "customer" => (Customer, &[Customer, Metrics, Segments]),
        "customer_client" => (CustomerClient, &[CustomerClient, Customer]),
        "campaign" => (
            Campaign,
            &[Campaign, CampaignBudget, Customer, Metrics, Segments],
        ),
        "campaign_budget" => (CampaignBudget, &[CampaignBudget, Customer]),
        "ad_group" => (AdGroup, &[AdGroup, Campaign, Customer, Metrics, Segments]),
        "ad_group_ad" => (
            AdGroupAd,
            &[AdGroupAd, AdGroup, Campaign, Customer, Metrics, Segments],
        ),
        "ad_group_criterion" => (
            AdGroupCriterion,
            &[AdGroupCriterion, AdGroup, Campaign, Customer],
        ),
        "keyword_view" => (
            KeywordView,
            &[
                KeywordView,
                AdGroupCriterion,
                AdGroup,
                Campaign,
                Customer,
                Metrics,
                Segments,
            ],
        ),
        _ => return None,
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Int,
    Str,
    Bool,
    Enum(&'static [&'static str]),
    Date,
}

const ENTITY_STATUS: &[&str] = &["ENABLED", "PAUSED", "REMOVED", "UNKNOWN", "UNSPECIFIED"];
const CUSTOMER_STATUS: &[&str] = &[
    "ENABLED",
    "CANCELED",
    "SUSPENDED",
    "CLOSED",
    "UNKNOWN",
    "UNSPECIFIED",
];
const BUDGET_STATUS: &[&str] = &["ENABLED", "REMOVED", "UNKNOWN", "UNSPECIFIED"];
const CHANNEL: &[&str] = &[
    "SEARCH",
    "DISPLAY",
    "SHOPPING",
    "HOTEL",
    "VIDEO",
    "MULTI_CHANNEL",
    "LOCAL",
    "SMART",
    "PERFORMANCE_MAX",
    "LOCAL_SERVICES",
    "TRAVEL",
    "DEMAND_GEN",
    "UNKNOWN",
    "UNSPECIFIED",
];
const DELIVERY: &[&str] = &["STANDARD", "ACCELERATED", "UNKNOWN", "UNSPECIFIED"];
const PERIOD: &[&str] = &["DAILY", "CUSTOM_PERIOD", "UNKNOWN", "UNSPECIFIED"];
const BUDGET_TYPE: &[&str] = &[
    "STANDARD",
    "FIXED_CPA",
    "SMART_CAMPAIGN",
    "LOCAL_SERVICES",
    "UNKNOWN",
    "UNSPECIFIED",
];
const CRITERION_TYPE: &[&str] = &[
    "KEYWORD",
    "PLACEMENT",
    "MOBILE_APP_CATEGORY",
    "MOBILE_APPLICATION",
    "DEVICE",
    "LOCATION",
    "LISTING_GROUP",
    "AD_SCHEDULE",
    "AGE_RANGE",
    "GENDER",
    "INCOME_RANGE",
    "PARENTAL_STATUS",
    "YOUTUBE_VIDEO",
    "YOUTUBE_CHANNEL",
    "USER_LIST",
    "PROXIMITY",
    "TOPIC",
    "LISTING_SCOPE",
    "LANGUAGE",
    "IP_BLOCK",
    "CONTENT_LABEL",
    "CARRIER",
    "USER_INTEREST",
    "WEBPAGE",
    "OPERATING_SYSTEM_VERSION",
    "APP_PAYMENT_MODEL",
    "MOBILE_DEVICE",
    "CUSTOM_AFFINITY",
    "CUSTOM_INTENT",
    "LOCATION_GROUP",
    "CUSTOM_AUDIENCE",
    "COMBINED_AUDIENCE",
    "KEYWORD_THEME",
    "AUDIENCE",
    "LOCAL_SERVICE_ID",
    "BRAND",
    "BRAND_LIST",
    "LIFE_EVENT",
    "UNKNOWN",
    "UNSPECIFIED",
];
const MATCH_TYPE: &[&str] = &["EXACT", "PHRASE", "BROAD", "UNKNOWN", "UNSPECIFIED"];

/// The fields the fake knows, with their types.
pub(super) fn kind_of(field: &str) -> Option<Kind> {
    use Kind::*;
    Some(match field {
        "customer.resource_name"
        | "customer.descriptive_name"
        | "customer.currency_code"
        | "customer.time_zone"
        | "customer.final_url_suffix" => Str,
        "customer.id" => Int,
        "customer.auto_tagging_enabled" | "customer.manager" | "customer.test_account" => Bool,
        "customer.status" => Enum(CUSTOMER_STATUS),

        "customer_client.resource_name"
        | "customer_client.client_customer"
        | "customer_client.descriptive_name"
        | "customer_client.currency_code"
        | "customer_client.time_zone" => Str,
        "customer_client.id" | "customer_client.level" => Int,
        "customer_client.manager" | "customer_client.hidden" | "customer_client.test_account" => {
            Bool
        }
        "customer_client.status" => Enum(CUSTOMER_STATUS),

        "campaign.resource_name" | "campaign.name" | "campaign.campaign_budget" => Str,
        "campaign.id" => Int,
        "campaign.status" => Enum(ENTITY_STATUS),
        "campaign.advertising_channel_type" => Enum(CHANNEL),

        "campaign_budget.resource_name" | "campaign_budget.name" => Str,
        "campaign_budget.id"
        | "campaign_budget.amount_micros"
        | "campaign_budget.reference_count" => Int,
        "campaign_budget.explicitly_shared" => Bool,
        "campaign_budget.status" => Enum(BUDGET_STATUS),
        "campaign_budget.delivery_method" => Enum(DELIVERY),
        "campaign_budget.period" => Enum(PERIOD),
        "campaign_budget.type" => Enum(BUDGET_TYPE),

        "ad_group.resource_name" | "ad_group.name" | "ad_group.campaign" => Str,
        "ad_group.id" => Int,
        "ad_group.status" => Enum(ENTITY_STATUS),

        "ad_group_ad.resource_name"
        | "ad_group_ad.ad_group"
        | "ad_group_ad.ad.resource_name"
        | "ad_group_ad.ad.name" => Str,
        "ad_group_ad.ad.id" => Int,
        "ad_group_ad.status" => Enum(ENTITY_STATUS),

        "ad_group_criterion.resource_name"
        | "ad_group_criterion.ad_group"
        | "ad_group_criterion.keyword.text" => Str,
        "ad_group_criterion.criterion_id" => Int,
        "ad_group_criterion.negative" => Bool,
        "ad_group_criterion.status" => Enum(ENTITY_STATUS),
        "ad_group_criterion.type" => Enum(CRITERION_TYPE),
        "ad_group_criterion.keyword.match_type" => Enum(MATCH_TYPE),

        "keyword_view.resource_name" => Str,

        "metrics.cost_micros" | "metrics.impressions" | "metrics.clicks" => Int,

        "segments.date" => Date,
        _ => return None,
    })
}
