//! The ad account hierarchy (scope `r_ads` or `rw_ads`):
//! - `GET /rest/adAccounts/{id}`, `GET /rest/adAccounts?q=search&search=(...)&sort=(...)`,
//! - `GET /rest/adAccounts/{id}/adCampaigns?q=search&search=(...)&sortOrder=...`,
//!   `GET /rest/adAccounts/{id}/adCampaigns/{campaignId}`,
//! - `GET /rest/adAccounts/{id}/creatives?q=criteria&campaigns=List(...)&creatives=List(...)
//!   &intendedStatuses=List(...)&isTestAccount=...&sortOrder=...`,
//!
//! the finders cursor-paged (`paging.rs`), every answer narrowed by a `fields=a,b` projection.
//! Search criteria are `(field:(values:List(...)),...,test:true|false)`: values of one field are
//! ORed, fields ANDed; a `name` value matches names containing it, ignoring case.
//! Path keys are numeric ids or percent-encoded URNs (`urn%3Ali%3AsponsoredAccount%3A1`); a raw
//! `:` in a path key is LinkedIn's 400 "Syntax exception in path variables".

// A refusal is the whole HTTP answer, carried up as the `Err` of the helpers that build it.
#![allow(clippy::result_large_err)]

use axum::http::StatusCode;
use axum::response::Response;
use serde_json::{Map, Value, json};

use super::errors::{illegal_argument, json_response, not_found};
use super::gate::Caller;
use super::paging::{PAGING_PARAMS, Page};
use super::restli::{self, Invalid, Query, positive_id, urn_id};
use super::state::{
    AccountSeed, AccountStatus, AccountType, Campaign, CampaignStatus, Creative, CreativeStatus,
    State,
};

/// The campaign types LinkedIn documents; every seeded campaign is `SPONSORED_UPDATES`.
const CAMPAIGN_TYPES: [&str; 4] = [
    "TEXT_AD",
    "SPONSORED_UPDATES",
    "SPONSORED_INMAILS",
    "DYNAMIC",
];

pub(crate) fn get_account(state: &State, caller: &Caller, key: &str, query: &Query) -> Response {
    if !caller.may_read_ads() {
        return caller.denied("adAccounts.GET");
    }
    answer(|| {
        query.only(&["fields"])?;
        let id = path_key(key, "sponsoredAccount")?;
        let account = state.accounts.get(&id).ok_or_else(not_found)?;
        Ok(project(account_json(account), &fields(query)?))
    })
}

pub(crate) fn search_accounts(
    state: &State,
    caller: &Caller,
    path: &str,
    query: &Query,
) -> Response {
    if !caller.may_read_ads() {
        return caller.denied("adAccounts.FINDER-search");
    }
    answer(|| {
        query.only(&with_paging(&["q", "search", "sort", "fields"]))?;
        finder(query, "search")?;
        let criteria = criteria(
            query,
            &["id", "name", "reference", "type", "status", "test"],
        )?;
        for (name, criterion) in &criteria {
            match name.as_str() {
                "type" => enums(criterion, name, |v| AccountType::from_wire(v).is_some())?,
                "status" => enums(criterion, name, |v| AccountStatus::from_wire(v).is_some())?,
                _ => {}
            }
        }
        let descending = account_sort(query)?;
        let page = Page::read(path, query, state.page_size)?;
        let fields = fields(query)?;
        let mut found: Vec<&AccountSeed> = state
            .accounts
            .values()
            .filter(|account| {
                criteria
                    .iter()
                    .all(|(name, criterion)| match name.as_str() {
                        "id" => {
                            criterion.any(|v| id_or_urn(v, "sponsoredAccount") == Some(account.id))
                        }
                        "name" => criterion.any(|v| contains_ignoring_case(&account.name, v)),
                        "reference" => criterion.any(|v| v == account.reference),
                        "type" => criterion.any(|v| v == account.kind.wire()),
                        "status" => criterion.any(|v| v == account.status.wire()),
                        _ => criterion.flag() == Some(account.test),
                    })
            })
            .collect();
        if descending {
            found.reverse();
        }
        Ok(page.answer(
            found
                .into_iter()
                .map(|account| project(account_json(account), &fields))
                .collect(),
        ))
    })
}

pub(crate) fn search_campaigns(
    state: &State,
    caller: &Caller,
    account_key: &str,
    path: &str,
    query: &Query,
) -> Response {
    if !caller.may_read_ads() {
        return caller.denied("adCampaigns.FINDER-search");
    }
    answer(|| {
        query.only(&with_paging(&["q", "search", "sortOrder", "fields"]))?;
        let account = path_key(account_key, "sponsoredAccount")?;
        let test = state.accounts.get(&account).ok_or_else(not_found)?.test;
        finder(query, "search")?;
        let criteria = criteria(
            query,
            &["id", "campaignGroup", "status", "type", "name", "test"],
        )?;
        for (name, criterion) in &criteria {
            match name.as_str() {
                "status" => enums(criterion, name, |v| CampaignStatus::from_wire(v).is_some())?,
                "type" => enums(criterion, name, |v| CAMPAIGN_TYPES.contains(&v))?,
                "campaignGroup" => enums(criterion, name, |v| {
                    urn_id(v, "sponsoredCampaignGroup").is_some()
                })?,
                _ => {}
            }
        }
        let descending = sort_order(query)?;
        let page = Page::read(path, query, state.page_size)?;
        let fields = fields(query)?;
        let mut found: Vec<(i64, &Campaign)> = state
            .campaigns
            .iter()
            .filter(|(_, campaign)| campaign.account == account)
            .filter(|&(&id, campaign)| {
                criteria
                    .iter()
                    .all(|(name, criterion)| match name.as_str() {
                        "id" => criterion.any(|v| id_or_urn(v, "sponsoredCampaign") == Some(id)),
                        "campaignGroup" => criterion
                            .any(|v| urn_id(v, "sponsoredCampaignGroup") == Some(campaign.group)),
                        "status" => criterion.any(|v| v == campaign.seed.status.wire()),
                        "type" => criterion.any(|v| v == "SPONSORED_UPDATES"),
                        "name" => criterion.any(|v| contains_ignoring_case(&campaign.seed.name, v)),
                        _ => criterion.flag() == Some(test),
                    })
            })
            .map(|(&id, campaign)| (id, campaign))
            .collect();
        if descending {
            found.reverse();
        }
        Ok(page.answer(
            found
                .into_iter()
                .map(|(id, campaign)| project(campaign_json(id, campaign, test), &fields))
                .collect(),
        ))
    })
}

pub(crate) fn get_campaign(
    state: &State,
    caller: &Caller,
    account_key: &str,
    campaign_key: &str,
    query: &Query,
) -> Response {
    if !caller.may_read_ads() {
        return caller.denied("adCampaigns.GET");
    }
    answer(|| {
        query.only(&["fields"])?;
        let account = path_key(account_key, "sponsoredAccount")?;
        let id = path_key(campaign_key, "sponsoredCampaign")?;
        let test = state.accounts.get(&account).ok_or_else(not_found)?.test;
        let campaign = state
            .campaigns
            .get(&id)
            .filter(|campaign| campaign.account == account)
            .ok_or_else(not_found)?;
        Ok(project(campaign_json(id, campaign, test), &fields(query)?))
    })
}

pub(crate) fn creatives(
    state: &State,
    caller: &Caller,
    account_key: &str,
    path: &str,
    query: &Query,
) -> Response {
    if !caller.may_read_ads() {
        return caller.denied("creatives.FINDER-criteria");
    }
    answer(|| {
        query.only(&with_paging(&[
            "q",
            "campaigns",
            "creatives",
            "intendedStatuses",
            "isTestAccount",
            "sortOrder",
            "fields",
        ]))?;
        let account = path_key(account_key, "sponsoredAccount")?;
        let account_seed = state.accounts.get(&account).ok_or_else(not_found)?;
        finder(query, "criteria")?;
        let campaigns = urn_list(query, "campaigns", "sponsoredCampaign")?;
        let creatives = urn_list(query, "creatives", "sponsoredCreative")?;
        let statuses = match query.value("intendedStatuses")? {
            None => None,
            Some(value) => Some(
                texts(&value, "intendedStatuses")?
                    .into_iter()
                    .map(|v| {
                        CreativeStatus::from_wire(&v).ok_or_else(|| {
                            Invalid::param("intendedStatuses", format!("'{v}' is not a status"))
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()?,
            ),
        };
        let test = match query.text("isTestAccount")? {
            None => None,
            Some(text) => Some(boolean(&text, "isTestAccount")?),
        };
        let descending = sort_order(query)?;
        let page = Page::read(path, query, state.page_size)?;
        let fields = fields(query)?;
        let mut found: Vec<(i64, &Creative)> = state
            .creatives
            .iter()
            .filter(|&(&id, creative)| {
                creative.account == account
                    && campaigns
                        .as_ref()
                        .is_none_or(|wanted| wanted.contains(&creative.campaign))
                    && creatives.as_ref().is_none_or(|wanted| wanted.contains(&id))
                    && statuses
                        .as_ref()
                        .is_none_or(|wanted| wanted.contains(&creative.seed.status))
                    && test.is_none_or(|wanted| wanted == account_seed.test)
            })
            .map(|(&id, creative)| (id, creative))
            .collect();
        if descending {
            found.reverse();
        }
        Ok(page.answer(
            found
                .into_iter()
                .map(|(id, creative)| project(creative_json(state, id, creative), &fields))
                .collect(),
        ))
    })
}

// ---- the entities on the wire -------------------------------------------------------------------

fn account_json(account: &AccountSeed) -> Value {
    json!({
        "id": account.id,
        "name": account.name,
        "currency": account.currency,
        "status": account.status.wire(),
        "type": account.kind.wire(),
        "reference": account.reference,
        "test": account.test,
    })
}

fn campaign_json(id: i64, campaign: &Campaign, test: bool) -> Value {
    json!({
        "id": id,
        "name": campaign.seed.name,
        "status": campaign.seed.status.wire(),
        "account": format!("urn:li:sponsoredAccount:{}", campaign.account),
        "campaignGroup": format!("urn:li:sponsoredCampaignGroup:{}", campaign.group),
        "type": "SPONSORED_UPDATES",
        "test": test,
    })
}

fn creative_json(state: &State, id: i64, creative: &Creative) -> Value {
    let campaign_active = state
        .campaigns
        .get(&creative.campaign)
        .is_some_and(|campaign| campaign.seed.status == CampaignStatus::Active);
    let account = state.accounts.get(&creative.account);
    let account_active = account.is_some_and(|a| a.status == AccountStatus::Active);
    let mut body = json!({
        "id": format!("urn:li:sponsoredCreative:{id}"),
        "account": format!("urn:li:sponsoredAccount:{}", creative.account),
        "campaign": format!("urn:li:sponsoredCampaign:{}", creative.campaign),
        "intendedStatus": creative.seed.status.wire(),
        "isServing": creative.seed.status == CreativeStatus::Active && campaign_active && account_active,
        "isTest": account.is_some_and(|a| a.test),
    });
    if let Some(name) = &creative.seed.name {
        body["name"] = json!(name);
    }
    body
}

// ---- reading requests ---------------------------------------------------------------------------

/// One search criterion: the values of a field, or the `test` flag.
enum Criterion {
    Values(Vec<String>),
    Flag(bool),
}

impl Criterion {
    fn any(&self, matches: impl Fn(&str) -> bool) -> bool {
        match self {
            Self::Values(values) => values.iter().any(|v| matches(v)),
            Self::Flag(_) => false,
        }
    }

    fn flag(&self) -> Option<bool> {
        match self {
            Self::Flag(flag) => Some(*flag),
            Self::Values(_) => None,
        }
    }
}

/// `search=(field:(values:List(...)),test:bool)`, fields limited to `allowed`.
fn criteria(query: &Query, allowed: &[&str]) -> Result<Vec<(String, Criterion)>, Invalid> {
    let Some(search) = query.value("search")? else {
        return Ok(Vec::new());
    };
    let fields = search
        .as_object()
        .ok_or_else(|| Invalid::param("search", "expected (field:(values:List(...)),...)"))?;
    fields
        .iter()
        .map(|(name, value)| {
            if !allowed.contains(&name.as_str()) {
                return Err(Invalid::param(
                    "search",
                    format!(
                        "'{name}' is not a criterion (known: {})",
                        allowed.join(", ")
                    ),
                ));
            }
            if name == "test" {
                let flag = value
                    .as_text()
                    .ok_or_else(|| Invalid::param("search", "test is true or false"))?;
                return Ok((name.clone(), Criterion::Flag(boolean(flag, "search")?)));
            }
            let values = match value.as_object() {
                Some([(key, values)]) if key == "values" => texts(values, "search")?,
                _ => {
                    return Err(Invalid::param(
                        "search",
                        format!("{name} is (values:List(...))"),
                    ));
                }
            };
            Ok((name.clone(), Criterion::Values(values)))
        })
        .collect()
}

/// Checks every value of an enum criterion.
fn enums(criterion: &Criterion, name: &str, known: impl Fn(&str) -> bool) -> Result<(), Invalid> {
    if let Criterion::Values(values) = criterion
        && let Some(bad) = values.iter().find(|v| !known(v))
    {
        return Err(Invalid::param(
            "search",
            format!("'{bad}' is not a value of {name}"),
        ));
    }
    Ok(())
}

/// The primitives of a non-empty `List(...)`.
fn texts(value: &restli::Value, param: &str) -> Result<Vec<String>, Invalid> {
    let items = value
        .as_list()
        .filter(|items| !items.is_empty())
        .ok_or_else(|| Invalid::param(param, "expected a non-empty List(...)"))?;
    items
        .iter()
        .map(|item| {
            item.as_text()
                .map(str::to_owned)
                .ok_or_else(|| Invalid::param(param, "expected a List of values"))
        })
        .collect()
}

/// A `List(...)` of URNs of `kind`, as ids.
pub(crate) fn urn_list(
    query: &Query,
    param: &str,
    kind: &str,
) -> Result<Option<Vec<i64>>, Invalid> {
    let Some(value) = query.value(param)? else {
        return Ok(None);
    };
    texts(&value, param)?
        .iter()
        .map(|urn| {
            urn_id(urn, kind).ok_or_else(|| {
                Invalid::param(param, format!("'{urn}' is not a urn:li:{kind}:{{id}}"))
            })
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

fn boolean(text: &str, param: &str) -> Result<bool, Invalid> {
    match text {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(Invalid::param(param, "expected true or false")),
    }
}

fn finder(query: &Query, name: &str) -> Result<(), Invalid> {
    let q = query.required_text("q")?;
    if q == name {
        Ok(())
    } else {
        Err(Invalid::param(
            "q",
            format!("this resource's finder is q={name}"),
        ))
    }
}

/// `sort=(field:ID,order:ASCENDING|DESCENDING)`; true when descending.
fn account_sort(query: &Query) -> Result<bool, Invalid> {
    let Some(sort) = query.value("sort")? else {
        return Ok(false);
    };
    let fields = sort.as_object().unwrap_or_default();
    let get = |key: &str| {
        fields
            .iter()
            .find(|(name, _)| name == key)
            .and_then(|(_, value)| value.as_text())
    };
    match (fields.len(), get("field"), get("order")) {
        (2, Some("ID"), Some("ASCENDING")) => Ok(false),
        (2, Some("ID"), Some("DESCENDING")) => Ok(true),
        _ => Err(Invalid::param(
            "sort",
            "expected (field:ID,order:ASCENDING|DESCENDING)",
        )),
    }
}

/// `sortOrder=ASCENDING|DESCENDING`; true when descending.
fn sort_order(query: &Query) -> Result<bool, Invalid> {
    match query.text("sortOrder")?.as_deref() {
        None | Some("ASCENDING") => Ok(false),
        Some("DESCENDING") => Ok(true),
        Some(_) => Err(Invalid::param(
            "sortOrder",
            "expected ASCENDING or DESCENDING",
        )),
    }
}

/// The `fields=a,b` projection (`None`: every field).
fn fields(query: &Query) -> Result<Option<Vec<String>>, Invalid> {
    let Some(raw) = query.raw("fields") else {
        return Ok(None);
    };
    raw.split(',')
        .map(|name| {
            let ok =
                !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
            ok.then(|| name.to_owned())
                .ok_or_else(|| Invalid::param("fields", format!("'{name}' is not a field name")))
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

fn project(value: Value, fields: &Option<Vec<String>>) -> Value {
    match (value, fields) {
        (Value::Object(map), Some(fields)) => Value::Object(
            map.into_iter()
                .filter(|(key, _)| fields.contains(key))
                .collect::<Map<String, Value>>(),
        ),
        (value, _) => value,
    }
}

fn with_paging(params: &[&'static str]) -> Vec<&'static str> {
    params.iter().copied().chain(PAGING_PARAMS).collect()
}

/// A path key: digits, or a percent-encoded URN of `kind`.
fn path_key(segment: &str, kind: &str) -> Result<i64, Response> {
    let syntax = || illegal_argument("Syntax exception in path variables");
    if segment.contains(':') {
        return Err(syntax());
    }
    let decoded = restli::parse_value(segment).map_err(|_| syntax())?;
    let text = decoded.as_text().ok_or_else(syntax)?;
    id_or_urn(text, kind).ok_or_else(syntax)
}

fn id_or_urn(text: &str, kind: &str) -> Option<i64> {
    urn_id(text, kind).or_else(|| positive_id(text))
}

fn contains_ignoring_case(haystack: &str, needle: &str) -> bool {
    haystack.to_lowercase().contains(&needle.to_lowercase())
}

/// Runs a handler body: its refusal (a response, or an unreadable parameter) or 200 with JSON.
fn answer(body: impl FnOnce() -> Result<Value, Refusal>) -> Response {
    match body() {
        Ok(value) => json_response(StatusCode::OK, &value),
        Err(Refusal::Response(response)) => response,
        Err(Refusal::Invalid(invalid)) => illegal_argument(&invalid.0),
    }
}

/// Why a handler stopped.
enum Refusal {
    Response(Response),
    Invalid(Invalid),
}

impl From<Response> for Refusal {
    fn from(response: Response) -> Self {
        Self::Response(response)
    }
}

impl From<Invalid> for Refusal {
    fn from(invalid: Invalid) -> Self {
        Self::Invalid(invalid)
    }
}
