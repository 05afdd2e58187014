//! `GET /rest/adAnalytics?q=analytics` (scope `r_ads_reporting`), the analytics finder:
//! - `pivot`: `CREATIVE`, `CAMPAIGN`, `CAMPAIGN_GROUP` or `ACCOUNT` (LinkedIn's other pivots,
//!   company and member demographics among them, are not modeled and refused),
//! - `timeGranularity`: `DAILY`, `MONTHLY`, `YEARLY` or `ALL`,
//! - `dateRange=(start:(year:Y,month:M,day:D),end:(...))`, both days included, `end` optional
//!   (up to today),
//! - at least one facet: `accounts=`, `campaignGroups=`, `campaigns=`, `creatives=`, each a
//!   `List(...)` of percent-encoded URNs,
//! - `fields=a,b` (at most 20; without it LinkedIn answers `impressions` and `clicks` only, so a
//!   connector asks for `pivotValues` and `dateRange` by name).
//!
//! The answer is `{"paging": {...}, "elements": [{"pivotValues": [urn], "dateRange": {...},
//! "costInLocalCurrency": "12.34", "impressions": N, ...}]}`, one element per pivot value and
//! period that had activity (none: `elements` empty), not paginated. How pivots sum, retention
//! and the element cap are in `state.rs`.

use std::collections::BTreeMap;

use axum::http::StatusCode;
use axum::response::Response;
use serde_json::{Map, Value, json};

use super::entities::urn_list;
use super::errors::{illegal_argument, json_response};
use super::gate::Caller;
use super::restli::{self, Invalid, Query};
use super::state::{Atom, Row, State};
use crate::fakes::day::Day;

/// The metric fields the fake answers (and the two structural ones).
const KNOWN_FIELDS: [&str; 6] = [
    "pivotValues",
    "dateRange",
    "impressions",
    "clicks",
    "costInLocalCurrency",
    "costInUsd",
];
const DEFAULT_FIELDS: [&str; 2] = ["impressions", "clicks"];
/// LinkedIn answers at most 20 fields per request.
const MAX_FIELDS: usize = 20;

/// Pivots LinkedIn documents that the fake does not model.
const UNMODELED_PIVOTS: [&str; 15] = [
    "COMPANY",
    "SHARE",
    "CONVERSION",
    "CONVERSATION_NODE",
    "CONVERSATION_NODE_OPTION_INDEX",
    "SERVING_LOCATION",
    "CARD_INDEX",
    "MEMBER_COMPANY_SIZE",
    "MEMBER_INDUSTRY",
    "MEMBER_SENIORITY",
    "MEMBER_JOB_TITLE",
    "MEMBER_JOB_FUNCTION",
    "MEMBER_COUNTRY_V2",
    "MEMBER_REGION_V2",
    "MEMBER_COMPANY",
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pivot {
    Account,
    CampaignGroup,
    Campaign,
    Creative,
}

impl Pivot {
    fn read(text: &str) -> Result<Self, Invalid> {
        match text {
            "ACCOUNT" => Ok(Self::Account),
            "CAMPAIGN_GROUP" => Ok(Self::CampaignGroup),
            "CAMPAIGN" => Ok(Self::Campaign),
            "CREATIVE" => Ok(Self::Creative),
            other if UNMODELED_PIVOTS.contains(&other) => Err(Invalid::param(
                "pivot",
                format!("{other} is not modeled by the fake LinkedIn"),
            )),
            other => Err(Invalid::param("pivot", format!("'{other}' is not a pivot"))),
        }
    }

    /// The pivot value an atom counts toward (none: a campaign's own spend on `CREATIVE`).
    fn urn(self, atom: &Atom) -> Option<String> {
        match self {
            Self::Account => Some(format!("urn:li:sponsoredAccount:{}", atom.account)),
            Self::CampaignGroup => Some(format!("urn:li:sponsoredCampaignGroup:{}", atom.group)),
            Self::Campaign => Some(format!("urn:li:sponsoredCampaign:{}", atom.campaign)),
            Self::Creative => atom
                .creative
                .map(|id| format!("urn:li:sponsoredCreative:{id}")),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Granularity {
    Daily,
    Monthly,
    Yearly,
    All,
}

impl Granularity {
    fn read(text: &str) -> Result<Self, Invalid> {
        match text {
            "DAILY" => Ok(Self::Daily),
            "MONTHLY" => Ok(Self::Monthly),
            "YEARLY" => Ok(Self::Yearly),
            "ALL" => Ok(Self::All),
            other => Err(Invalid::param(
                "timeGranularity",
                format!("'{other}' is not DAILY, MONTHLY, YEARLY or ALL"),
            )),
        }
    }

    /// The period of `day` within the requested `[start, end]`.
    fn period(self, day: Day, start: Day, end: Day) -> (Day, Day) {
        let (from, to) = match self {
            Self::Daily => (day, day),
            Self::Monthly => (day.month_start(), day.month_end()),
            Self::Yearly => (day.year_start(), day.year_end()),
            Self::All => (start, end),
        };
        (from.max(start), to.min(end))
    }
}

/// The facets: which accounts, groups, campaigns and creatives count (`None`: any).
#[derive(Debug, Default)]
struct Facets {
    accounts: Option<Vec<i64>>,
    groups: Option<Vec<i64>>,
    campaigns: Option<Vec<i64>>,
    creatives: Option<Vec<i64>>,
}

impl Facets {
    fn admit(&self, atom: &Atom) -> bool {
        let within =
            |facet: &Option<Vec<i64>>, id: i64| facet.as_ref().is_none_or(|ids| ids.contains(&id));
        within(&self.accounts, atom.account)
            && within(&self.groups, atom.group)
            && within(&self.campaigns, atom.campaign)
            && self.creatives.as_ref().is_none_or(|ids| {
                atom.creative
                    .is_some_and(|creative| ids.contains(&creative))
            })
    }
}

/// One analytics request, read.
#[derive(Debug)]
struct Request {
    pivot: Pivot,
    granularity: Granularity,
    start: Day,
    end: Day,
    facets: Facets,
    fields: Vec<String>,
}

impl Request {
    fn read(query: &Query, today: Day) -> Result<Self, Invalid> {
        query.only(&[
            "q",
            "pivot",
            "timeGranularity",
            "dateRange",
            "accounts",
            "campaignGroups",
            "campaigns",
            "creatives",
            "fields",
        ])?;
        match query.required_text("q")?.as_str() {
            "analytics" => {}
            "statistics" | "attributedRevenueMetrics" => {
                return Err(Invalid::param(
                    "q",
                    "the fake LinkedIn answers the analytics finder only",
                ));
            }
            other => return Err(Invalid::param("q", format!("'{other}' is not a finder"))),
        }
        let pivot = Pivot::read(&query.required_text("pivot")?)?;
        let granularity = Granularity::read(&query.required_text("timeGranularity")?)?;
        let range = query
            .value("dateRange")?
            .ok_or_else(|| Invalid("Parameter 'dateRange' is required".into()))?;
        let (start, end) = date_range(&range, today)?;
        let facets = Facets {
            accounts: urn_list(query, "accounts", "sponsoredAccount")?,
            groups: urn_list(query, "campaignGroups", "sponsoredCampaignGroup")?,
            campaigns: urn_list(query, "campaigns", "sponsoredCampaign")?,
            creatives: urn_list(query, "creatives", "sponsoredCreative")?,
        };
        if facets.accounts.is_none()
            && facets.groups.is_none()
            && facets.campaigns.is_none()
            && facets.creatives.is_none()
        {
            return Err(Invalid(
                "One of accounts, campaignGroups, campaigns or creatives is required".into(),
            ));
        }
        Ok(Self {
            pivot,
            granularity,
            start,
            end,
            facets,
            fields: fields(query)?,
        })
    }
}

/// `(start:(year,month,day),end:(...))`, end defaulting to today.
fn date_range(value: &restli::Value, today: Day) -> Result<(Day, Day), Invalid> {
    let shape = || {
        Invalid::param(
            "dateRange",
            "expected (start:(year:Y,month:M,day:D),end:(...))",
        )
    };
    let fields = value.as_object().ok_or_else(shape)?;
    let mut start = None;
    let mut end = None;
    for (key, date) in fields {
        match key.as_str() {
            "start" => start = Some(day(date)?),
            "end" => end = Some(day(date)?),
            _ => return Err(shape()),
        }
    }
    let start = start.ok_or_else(|| Invalid::param("dateRange", "start is required"))?;
    let end = end.unwrap_or(today);
    if end < start {
        return Err(Invalid::param("dateRange", "end is before start"));
    }
    Ok((start, end))
}

/// `(year:Y,month:M,day:D)`, every part present, a real date.
fn day(value: &restli::Value) -> Result<Day, Invalid> {
    let fields = value
        .as_object()
        .filter(|fields| fields.len() == 3)
        .ok_or_else(|| Invalid::param("dateRange", "a date is (year:Y,month:M,day:D)"))?;
    let part = |name: &str| -> Result<i64, Invalid> {
        fields
            .iter()
            .find(|(key, _)| key == name)
            .and_then(|(_, v)| v.as_text())
            .filter(|text| !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|text| text.parse().ok())
            .ok_or_else(|| Invalid::param("dateRange", format!("{name} must be a number")))
    };
    let (year, month, day) = (part("year")?, part("month")?, part("day")?);
    Day::from_ymd(year, month, day)
        .ok_or_else(|| Invalid::param("dateRange", format!("{year}-{month}-{day} is not a date")))
}

/// `fields=a,b`: known names, at most 20.
fn fields(query: &Query) -> Result<Vec<String>, Invalid> {
    let Some(raw) = query.raw("fields") else {
        return Ok(DEFAULT_FIELDS.iter().map(|f| (*f).to_owned()).collect());
    };
    let names: Vec<&str> = raw.split(',').collect();
    if names.len() > MAX_FIELDS {
        return Err(Invalid::param(
            "fields",
            format!(
                "at most {MAX_FIELDS} fields per request, {} asked",
                names.len()
            ),
        ));
    }
    let mut fields: Vec<String> = Vec::new();
    for name in names {
        if !KNOWN_FIELDS.contains(&name) {
            return Err(Invalid::param(
                "fields",
                format!(
                    "'{name}' is not a field the fake LinkedIn answers ({})",
                    KNOWN_FIELDS.join(", ")
                ),
            ));
        }
        if !fields.iter().any(|known| known == name) {
            fields.push(name.to_owned());
        }
    }
    Ok(fields)
}

pub(crate) fn analytics(state: &State, caller: &Caller, query: &Query) -> Response {
    if !caller.may_report() {
        return caller.denied("adAnalytics.FINDER-analytics");
    }
    match Request::read(query, state.today()) {
        Ok(request) => json_response(StatusCode::OK, &answer(state, &request)),
        Err(invalid) => illegal_argument(&invalid.0),
    }
}

fn answer(state: &State, request: &Request) -> Value {
    let served_from = state.retention_start().max(request.start);
    let mut periods: BTreeMap<(Day, String), (Day, Row)> = BTreeMap::new();
    for atom in state.atoms() {
        if atom.day < served_from || atom.day > request.end || !request.facets.admit(&atom) {
            continue;
        }
        let Some(urn) = request.pivot.urn(&atom) else {
            continue;
        };
        let (from, to) = request
            .granularity
            .period(atom.day, request.start, request.end);
        periods
            .entry((from, urn))
            .or_insert_with(|| (to, Row::default()))
            .1
            .add(&atom.row);
    }
    let elements: Vec<Value> = periods
        .into_iter()
        .take(state.analytics_cap)
        .map(|((from, urn), (to, row))| element(&request.fields, &urn, from, to, &row))
        .collect();
    json!({
        "paging": { "start": 0, "count": 10, "links": [] },
        "elements": elements,
    })
}

fn element(fields: &[String], urn: &str, from: Day, to: Day, row: &Row) -> Value {
    let mut element = Map::new();
    for field in fields {
        let value = match field.as_str() {
            "pivotValues" => json!([urn]),
            "dateRange" => json!({ "start": date(from), "end": date(to) }),
            "impressions" => json!(row.impressions),
            "clicks" => json!(row.clicks),
            "costInLocalCurrency" => json!(row.cost.to_string()),
            "costInUsd" => json!(row.cost_usd.to_string()),
            _ => continue,
        };
        element.insert(field.clone(), value);
    }
    Value::Object(element)
}

fn date(day: Day) -> Value {
    let (year, month, day) = day.ymd();
    json!({ "year": year, "month": month, "day": day })
}
