//! What a row is about (the FROM resource's entity and what it joins to) and the value of each
//! field on it.

use std::cmp::Ordering;

use serde_json::Value;

use crate::fakes::day::Day;
use crate::fakes::google::ads::{Ad, AdGroup, Budget, Campaign, Customer, Keyword, Metrics};
use crate::fakes::google::state::State;

#[derive(Debug, Clone, Copy)]
pub(super) struct Ctx<'a> {
    pub(super) customer: &'a Customer,
    pub(super) client: Option<(&'a Customer, i64)>,
    pub(super) campaign: Option<&'a Campaign>,
    pub(super) budget: Option<&'a Budget>,
    pub(super) ad_group: Option<&'a AdGroup>,
    pub(super) ad: Option<&'a Ad>,
    pub(super) keyword: Option<&'a Keyword>,
}

#[derive(Debug, Clone, Copy)]
pub(super) struct Row<'a> {
    pub(super) ctx: Ctx<'a>,
    pub(super) metrics: Metrics,
    pub(super) date: Option<Day>,
}

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Val {
    Int(i64),
    Str(String),
    Bool(bool),
    Enum(&'static str),
    Date(Day),
}

impl Val {
    pub(super) fn to_json(&self) -> Value {
        match self {
            // int64 is a JSON string in the proto3 JSON mapping.
            Self::Int(n) => Value::String(n.to_string()),
            Self::Str(text) => Value::String(text.clone()),
            Self::Bool(b) => Value::Bool(*b),
            Self::Enum(word) => Value::String((*word).to_owned()),
            Self::Date(day) => Value::String(day.to_string()),
        }
    }

    pub(super) fn compare(&self, other: &Self) -> Option<Ordering> {
        match (self, other) {
            (Self::Int(a), Self::Int(b)) => Some(a.cmp(b)),
            (Self::Str(a), Self::Str(b)) => Some(a.cmp(b)),
            (Self::Bool(a), Self::Bool(b)) => Some(a.cmp(b)),
            (Self::Enum(a), Self::Enum(b)) => Some(a.cmp(b)),
            (Self::Date(a), Self::Date(b)) => Some(a.cmp(b)),
            _ => None,
        }
    }
}

pub(super) fn value(state: &State, field: &str, row: &Row<'_>) -> Option<Val> {
    let ctx = &row.ctx;
    let cid = ctx.customer.id;
    let text = |s: &str| Some(Val::Str(s.to_owned()));
    match field {
        "customer.resource_name" => Some(Val::Str(format!("customers/{cid}"))),
        "customer.id" => Some(Val::Int(cid)),
        "customer.descriptive_name" => text(&ctx.customer.name),
        "customer.currency_code" => text(&ctx.customer.currency),
        "customer.time_zone" => text(&ctx.customer.time_zone),
        "customer.final_url_suffix" => ctx.customer.final_url_suffix.as_deref().and_then(text),
        "customer.auto_tagging_enabled" => Some(Val::Bool(ctx.customer.auto_tagging)),
        "customer.manager" => Some(Val::Bool(state.is_manager(cid))),
        "customer.test_account" => Some(Val::Bool(false)),
        "customer.status" => Some(Val::Enum("ENABLED")),
        _ => {
            let (family, _) = field.split_once('.')?;
            match family {
                "customer_client" => client_value(state, field, cid, ctx.client?),
                "campaign" => campaign_value(field, cid, ctx.campaign?),
                "campaign_budget" => budget_value(state, field, ctx.budget?),
                "ad_group" => {
                    let group = ctx.ad_group?;
                    match field {
                        "ad_group.resource_name" => {
                            Some(Val::Str(format!("customers/{cid}/adGroups/{}", group.id)))
                        }
                        "ad_group.id" => Some(Val::Int(group.id)),
                        "ad_group.name" => text(&group.name),
                        "ad_group.status" => Some(Val::Enum(group.status.wire())),
                        "ad_group.campaign" => Some(Val::Str(format!(
                            "customers/{cid}/campaigns/{}",
                            group.campaign
                        ))),
                        _ => None,
                    }
                }
                "ad_group_ad" => {
                    let ad = ctx.ad?;
                    match field {
                        "ad_group_ad.resource_name" => Some(Val::Str(format!(
                            "customers/{cid}/adGroupAds/{}~{}",
                            ad.ad_group, ad.id
                        ))),
                        "ad_group_ad.ad_group" => Some(Val::Str(format!(
                            "customers/{cid}/adGroups/{}",
                            ad.ad_group
                        ))),
                        "ad_group_ad.status" => Some(Val::Enum(ad.status.wire())),
                        "ad_group_ad.ad.resource_name" => {
                            Some(Val::Str(format!("customers/{cid}/ads/{}", ad.id)))
                        }
                        "ad_group_ad.ad.id" => Some(Val::Int(ad.id)),
                        "ad_group_ad.ad.name" => ad.name.as_deref().and_then(text),
                        _ => None,
                    }
                }
                "ad_group_criterion" => {
                    let keyword = ctx.keyword?;
                    match field {
                        "ad_group_criterion.resource_name" => Some(Val::Str(format!(
                            "customers/{cid}/adGroupCriteria/{}~{}",
                            keyword.ad_group, keyword.criterion_id
                        ))),
                        "ad_group_criterion.ad_group" => Some(Val::Str(format!(
                            "customers/{cid}/adGroups/{}",
                            keyword.ad_group
                        ))),
                        "ad_group_criterion.criterion_id" => Some(Val::Int(keyword.criterion_id)),
                        "ad_group_criterion.status" => Some(Val::Enum(keyword.status.wire())),
                        "ad_group_criterion.type" => Some(Val::Enum("KEYWORD")),
                        "ad_group_criterion.negative" => Some(Val::Bool(false)),
                        "ad_group_criterion.keyword.text" => text(&keyword.text),
                        "ad_group_criterion.keyword.match_type" => {
                            Some(Val::Enum(keyword.match_type.wire()))
                        }
                        _ => None,
                    }
                }
                "keyword_view" => {
                    let keyword = ctx.keyword?;
                    (field == "keyword_view.resource_name").then(|| {
                        Val::Str(format!(
                            "customers/{cid}/keywordViews/{}~{}",
                            keyword.ad_group, keyword.criterion_id
                        ))
                    })
                }
                "metrics" => match field {
                    "metrics.cost_micros" => Some(Val::Int(row.metrics.cost_micros)),
                    "metrics.impressions" => Some(Val::Int(row.metrics.impressions)),
                    "metrics.clicks" => Some(Val::Int(row.metrics.clicks)),
                    _ => None,
                },
                "segments" => row.date.map(Val::Date),
                _ => None,
            }
        }
    }
}

fn client_value(
    state: &State,
    field: &str,
    cid: i64,
    (client, level): (&Customer, i64),
) -> Option<Val> {
    Some(match field {
        "customer_client.resource_name" => {
            Val::Str(format!("customers/{cid}/customerClients/{}", client.id))
        }
        "customer_client.client_customer" => Val::Str(format!("customers/{}", client.id)),
        "customer_client.id" => Val::Int(client.id),
        "customer_client.level" => Val::Int(level),
        "customer_client.manager" => Val::Bool(state.is_manager(client.id)),
        "customer_client.descriptive_name" => Val::Str(client.name.clone()),
        "customer_client.currency_code" => Val::Str(client.currency.clone()),
        "customer_client.time_zone" => Val::Str(client.time_zone.clone()),
        "customer_client.hidden" | "customer_client.test_account" => Val::Bool(false),
        "customer_client.status" => Val::Enum("ENABLED"),
        _ => return None,
    })
}

fn campaign_value(field: &str, cid: i64, campaign: &Campaign) -> Option<Val> {
    Some(match field {
        "campaign.resource_name" => Val::Str(format!("customers/{cid}/campaigns/{}", campaign.id)),
        "campaign.id" => Val::Int(campaign.id),
        "campaign.name" => Val::Str(campaign.name.clone()),
        "campaign.status" => Val::Enum(campaign.status.wire()),
        "campaign.advertising_channel_type" => Val::Enum(campaign.channel.wire()),
        "campaign.campaign_budget" => Val::Str(format!(
            "customers/{cid}/campaignBudgets/{}",
            campaign.budget
        )),
        _ => return None,
    })
}

fn budget_value(state: &State, field: &str, budget: &Budget) -> Option<Val> {
    Some(match field {
        "campaign_budget.resource_name" => Val::Str(format!(
            "customers/{}/campaignBudgets/{}",
            budget.customer, budget.id
        )),
        "campaign_budget.id" => Val::Int(budget.id),
        "campaign_budget.name" => Val::Str(budget.name.clone()),
        "campaign_budget.amount_micros" => Val::Int(budget.amount_micros),
        "campaign_budget.explicitly_shared" => Val::Bool(budget.explicitly_shared),
        "campaign_budget.reference_count" => {
            Val::Int(state.budget_references(budget.customer, budget.id))
        }
        "campaign_budget.status" => Val::Enum(budget.status.wire()),
        "campaign_budget.delivery_method" => Val::Enum("STANDARD"),
        "campaign_budget.period" => Val::Enum("DAILY"),
        "campaign_budget.type" => Val::Enum("STANDARD"),
        _ => return None,
    })
}
