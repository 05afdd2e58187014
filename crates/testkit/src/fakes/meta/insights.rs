//! Ads Insights (Marketing API "Insights API", "Insights: Asynchronous and Batch Requests",
//! "Limits and Best Practices"):
//! - `GET /act_{id}/insights` (and `/{campaign,adset,ad-id}/insights`) with `level`
//!   (`account`, `campaign`, `adset`, `ad`), `time_range={"since","until"}` (inclusive days) or
//!   `date_preset` (default `last_30d`), `time_increment` (`1`..`90`, `monthly`, `all_days`),
//!   `fields`, `filtering=[{"field","operator","value"}]` on `campaign.id`, `adset.id`, `ad.id`,
//!   `limit` and cursor paging; every row has `date_start` and `date_stop`, ids and names are
//!   strings, `spend` a decimal string, `impressions` and `clicks` integer strings,
//! - `POST /act_{id}/insights` starts a report run (`{"report_run_id"}`), `GET /{report_run_id}`
//!   reports `async_status` ("Job Running" for the first polls, then "Job Completed" or "Job
//!   Failed") and `async_percent_completion`, `GET /{report_run_id}/insights` pages the rows,
//! - a `time_range` starting more than 37 months ago is refused with `(#3018)`.
//!
//! Rows come from the seeded ad days, summed per level as `state.rs` describes; an object
//! without delivery in a bucket has no row there.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::ads::require_read;
use super::context::Ctx;
use super::errors::{GraphError, Reply, invalid_param};
use super::fields::{NodeType, select};
use super::paging::paged;
use super::params::Params;
use super::state::{Ad, ReportRun, State as FakeState, Stats, format_spend, unix_now};
use crate::fakes::day::Day;

/// What an insights edge reports on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scope {
    Account(i64),
    Campaign(i64),
    AdSet(i64),
    Ad(i64),
}

impl Scope {
    fn contains(self, ad: &Ad) -> bool {
        match self {
            Self::Account(id) => ad.account == id,
            Self::Campaign(id) => ad.campaign == id,
            Self::AdSet(id) => ad.adset == id,
            Self::Ad(id) => ad.id == id,
        }
    }

    fn level(self) -> Level {
        match self {
            Self::Account(_) => Level::Account,
            Self::Campaign(_) => Level::Campaign,
            Self::AdSet(_) => Level::AdSet,
            Self::Ad(_) => Level::Ad,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Level {
    Account,
    Campaign,
    AdSet,
    Ad,
}

impl Level {
    fn parse(text: &str) -> Option<Self> {
        match text {
            "account" => Some(Self::Account),
            "campaign" => Some(Self::Campaign),
            "adset" => Some(Self::AdSet),
            "ad" => Some(Self::Ad),
            _ => None,
        }
    }

    /// The id a row at this level groups `ad` by.
    fn key(self, ad: &Ad) -> i64 {
        match self {
            Self::Account => ad.account,
            Self::Campaign => ad.campaign,
            Self::AdSet => ad.adset,
            Self::Ad => ad.id,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Increment {
    AllDays,
    Days(i32),
    Monthly,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FilterField {
    Campaign,
    AdSet,
    Ad,
}

#[derive(Debug, Clone)]
struct Filter {
    field: FilterField,
    negate: bool,
    values: Vec<String>,
}

impl Filter {
    fn keeps(&self, ad: &Ad) -> bool {
        let id = match self.field {
            FilterField::Campaign => ad.campaign,
            FilterField::AdSet => ad.adset,
            FilterField::Ad => ad.id,
        }
        .to_string();
        self.values.contains(&id) != self.negate
    }
}

#[derive(Debug, Clone)]
struct Query {
    level: Level,
    since: Day,
    until: Day,
    increment: Increment,
    fields: Vec<String>,
    filters: Vec<Filter>,
}

/// Fields the fake computes.
const MODELLED: &[&str] = &[
    "account_currency",
    "account_id",
    "account_name",
    "campaign_id",
    "campaign_name",
    "adset_id",
    "adset_name",
    "ad_id",
    "ad_name",
    "spend",
    "impressions",
    "clicks",
    "date_start",
    "date_stop",
];

/// Real insights fields the fake accepts but never fills (Meta leaves out fields without data).
const UNMODELLED: &[&str] = &[
    "reach",
    "frequency",
    "cpc",
    "cpm",
    "ctr",
    "cpp",
    "actions",
    "action_values",
    "conversions",
    "conversion_values",
    "cost_per_action_type",
    "purchase_roas",
    "objective",
    "inline_link_clicks",
    "outbound_clicks",
    "unique_clicks",
];

const DATE_PRESETS: &[&str] = &[
    "today",
    "yesterday",
    "this_month",
    "last_month",
    "last_3d",
    "last_7d",
    "last_14d",
    "last_28d",
    "last_30d",
    "last_90d",
    "maximum",
];

/// How far back insights reach.
const MONTHS_KEPT: i64 = 37;

/// `day` moved back `months` calendar months (the day of month clamped to the month's length).
pub(crate) fn months_back(day: Day, months: i64) -> Day {
    let text = day.to_string();
    let number = |range: std::ops::Range<usize>| text[range].parse::<i64>().unwrap_or(1);
    let (year, month, dom) = (number(0..4), number(5..7), number(8..10));
    let index = year * 12 + (month - 1) - months;
    let (year, month) = (index.div_euclid(12), index.rem_euclid(12) + 1);
    (dom.min(28)..=dom)
        .rev()
        .find_map(|d| Day::parse(&format!("{year:04}-{month:02}-{d:02}")))
        .unwrap_or(day)
}

fn next_month(day: Day) -> Day {
    day.month_start().plus(31).month_start()
}

fn range_of(state: &FakeState, params: &Params) -> Result<(Day, Day), GraphError> {
    let today = state.today();
    if let Some(text) = params.get("time_range") {
        let value: Value = serde_json::from_str(text).unwrap_or(Value::Null);
        let day = |name: &str| value.get(name).and_then(Value::as_str).and_then(Day::parse);
        let (Some(since), Some(until)) = (day("since"), day("until")) else {
            return Err(invalid_param(
                r#"Param time_range must be a JSON object {"since":"YYYY-MM-DD","until":"YYYY-MM-DD"}"#,
            ));
        };
        if since > until {
            return Err(invalid_param(
                "Param time_range: since must be on or before until",
            ));
        }
        return Ok((since, until));
    }
    let preset = params.get("date_preset").unwrap_or("last_30d");
    let last = |days: i32| (today.plus(-days), today.plus(-1));
    Ok(match preset {
        "today" => (today, today),
        "yesterday" => last(1),
        "this_month" => (today.month_start(), today),
        "last_month" => {
            let start = today.month_start();
            (start.plus(-1).month_start(), start.plus(-1))
        }
        "last_3d" => last(3),
        "last_7d" => last(7),
        "last_14d" => last(14),
        "last_28d" => last(28),
        "last_30d" => last(30),
        "last_90d" => last(90),
        "maximum" => (months_back(today, MONTHS_KEPT), today),
        _ => {
            return Err(invalid_param(format!(
                "date_preset must be one of the following values: {}",
                DATE_PRESETS.join(", ")
            )));
        }
    })
}

fn parse_filters(text: Option<&str>) -> Result<Vec<Filter>, GraphError> {
    let Some(text) = text else {
        return Ok(Vec::new());
    };
    let bad = || {
        invalid_param(
            r#"Param filtering must be a JSON array of {"field","operator","value"} on campaign.id, adset.id or ad.id with IN, NOT_IN, EQUAL or NOT_EQUAL"#,
        )
    };
    let Ok(Value::Array(items)) = serde_json::from_str::<Value>(text) else {
        return Err(bad());
    };
    items
        .iter()
        .map(|item| {
            let field = match item.get("field").and_then(Value::as_str) {
                Some("campaign.id") => FilterField::Campaign,
                Some("adset.id") => FilterField::AdSet,
                Some("ad.id") => FilterField::Ad,
                _ => return Err(bad()),
            };
            let scalar = |value: &Value| match value {
                Value::String(text) => Some(text.clone()),
                Value::Number(number) => Some(number.to_string()),
                _ => None,
            };
            let values: Vec<String> = match item.get("value") {
                Some(Value::Array(values)) => values.iter().filter_map(scalar).collect(),
                Some(value) => scalar(value).into_iter().collect(),
                None => return Err(bad()),
            };
            let negate = match item.get("operator").and_then(Value::as_str) {
                Some("IN" | "EQUAL") => false,
                Some("NOT_IN" | "NOT_EQUAL") => true,
                _ => return Err(bad()),
            };
            Ok(Filter {
                field,
                negate,
                values,
            })
        })
        .collect()
}

fn parse_fields(text: Option<&str>) -> Result<Vec<String>, GraphError> {
    let Some(text) = text.filter(|t| !t.trim().is_empty()) else {
        return Ok(vec!["impressions".to_owned(), "spend".to_owned()]);
    };
    text.split(',')
        .map(str::trim)
        .enumerate()
        .map(|(index, field)| {
            if MODELLED.contains(&field) || UNMODELLED.contains(&field) {
                Ok(field.to_owned())
            } else {
                let all: Vec<&str> = MODELLED.iter().chain(UNMODELLED).copied().collect();
                Err(invalid_param(format!(
                    "fields[{index}] must be one of the following values: {}",
                    all.join(", ")
                )))
            }
        })
        .collect()
}

fn parse_query(state: &FakeState, scope: Scope, params: &Params) -> Result<Query, GraphError> {
    for unmodelled in ["breakdowns", "time_ranges", "action_breakdowns"] {
        if params.get(unmodelled).is_some() {
            return Err(invalid_param(format!(
                "Param {unmodelled} is not modelled by the fake Meta"
            )));
        }
    }
    let level = match params.get("level") {
        None => scope.level(),
        Some(text) => Level::parse(text).ok_or_else(|| {
            invalid_param("level must be one of the following values: ad, adset, campaign, account")
        })?,
    };
    let (since, until) = range_of(state, params)?;
    if since < months_back(state.today(), MONTHS_KEPT) {
        return Err(GraphError::new(
            3018,
            "(#3018) The start date of the time range cannot be beyond 37 months from the current date",
        ));
    }
    let increment = match params.get("time_increment") {
        None | Some("all_days") => Increment::AllDays,
        Some("monthly") => Increment::Monthly,
        Some(text) => match text.parse::<i32>() {
            Ok(days) if (1..=90).contains(&days) => Increment::Days(days),
            _ => {
                return Err(invalid_param(
                    "time_increment must be all_days, monthly or an integer from 1 to 90",
                ));
            }
        },
    };
    Ok(Query {
        level,
        since,
        until,
        increment,
        fields: parse_fields(params.get("fields"))?,
        filters: parse_filters(params.get("filtering"))?,
    })
}

/// The reporting periods of a query: `(date_start, date_stop)`, inclusive.
fn buckets(query: &Query) -> Vec<(Day, Day)> {
    let mut out = Vec::new();
    let mut start = query.since;
    while start <= query.until {
        let stop = match query.increment {
            Increment::AllDays => query.until,
            Increment::Days(days) => start.plus(days - 1).min(query.until),
            Increment::Monthly => next_month(start).plus(-1).min(query.until),
        };
        out.push((start, stop));
        start = stop.plus(1);
    }
    out
}

fn rows(state: &FakeState, scope: Scope, query: &Query) -> Vec<Value> {
    let periods = buckets(query);
    let mut groups: BTreeMap<(usize, i64), (Stats, Ad)> = BTreeMap::new();
    for ((ad_id, day), stats) in &state.daily {
        if *day < query.since || *day > query.until {
            continue;
        }
        let Some(ad) = state.ad(*ad_id) else {
            continue;
        };
        if !scope.contains(ad) || !query.filters.iter().all(|f| f.keeps(ad)) {
            continue;
        }
        let Some(period) = periods
            .iter()
            .position(|(start, stop)| start <= day && day <= stop)
        else {
            continue;
        };
        groups
            .entry((period, query.level.key(ad)))
            .or_insert_with(|| (Stats::default(), ad.clone()))
            .0
            .add(*stats);
    }
    groups
        .into_iter()
        .map(|((period, _), (stats, ad))| {
            let (start, stop) = periods[period];
            row(state, query, &ad, stats, start, stop)
        })
        .collect()
}

fn row(state: &FakeState, query: &Query, ad: &Ad, stats: Stats, start: Day, stop: Day) -> Value {
    let account = state.account(ad.account);
    let mut full = Map::new();
    let mut put = |name: &str, value: Value| {
        full.insert(name.to_owned(), value);
    };
    put("account_id", json!(ad.account.to_string()));
    put("account_name", json!(account.map(|a| a.name.clone())));
    put(
        "account_currency",
        json!(account.map(|a| a.currency.clone())),
    );
    if query.level >= Level::Campaign {
        put("campaign_id", json!(ad.campaign.to_string()));
        put(
            "campaign_name",
            json!(state.campaign(ad.campaign).map(|c| c.name.clone())),
        );
    }
    if query.level >= Level::AdSet {
        put("adset_id", json!(ad.adset.to_string()));
        put(
            "adset_name",
            json!(state.adset(ad.adset).map(|s| s.name.clone())),
        );
    }
    if query.level >= Level::Ad {
        put("ad_id", json!(ad.id.to_string()));
        put("ad_name", json!(ad.name));
    }
    put("spend", json!(format_spend(stats.spend_hundredths)));
    put("impressions", json!(stats.impressions.to_string()));
    put("clicks", json!(stats.clicks.to_string()));
    let mut out = Map::new();
    for field in &query.fields {
        if let Some(value) = full.get(field).filter(|v| !v.is_null()) {
            out.insert(field.clone(), value.clone());
        }
    }
    out.insert("date_start".to_owned(), json!(start.to_string()));
    out.insert("date_stop".to_owned(), json!(stop.to_string()));
    Value::Object(out)
}

/// `GET .../insights`.
pub(crate) fn sync(state: &FakeState, ctx: &Ctx<'_>, scope: Scope) -> Reply {
    require_read(ctx)?;
    let query = parse_query(state, scope, ctx.params)?;
    paged(rows(state, scope, &query), &ctx.listing(state))
}

/// `POST /act_{id}/insights`: the rows are computed now and handed out once the job is done.
pub(crate) fn start_report(state: &mut FakeState, ctx: &Ctx<'_>, account: i64) -> Reply {
    require_read(ctx)?;
    let scope = Scope::Account(account);
    let query = parse_query(state, scope, ctx.params)?;
    let rows = rows(state, scope, &query);
    let id = state.mint_id();
    let polls = state.report_polls;
    let fails = std::mem::take(&mut state.fail_next_report);
    state.reports.push(ReportRun {
        id: id.clone(),
        account,
        rows,
        date_start: query.since,
        date_stop: query.until,
        time_ref: unix_now(),
        polls_left: polls,
        polls_total: polls,
        fails,
    });
    Ok(json!({ "report_run_id": id }))
}

const REPORT_RUN: NodeType = NodeType {
    name: "AdReportRun",
    fields: &[
        "id",
        "account_id",
        "async_status",
        "async_percent_completion",
        "date_start",
        "date_stop",
        "time_ref",
        "time_completed",
        "is_running",
    ],
    defaults: &[
        "account_id",
        "async_status",
        "async_percent_completion",
        "date_start",
        "date_stop",
        "time_ref",
        "time_completed",
        "is_running",
    ],
};

/// `GET /{report_run_id}`: "Job Running" while polls are left, then the outcome.
pub(crate) fn report_status(state: &mut FakeState, ctx: &Ctx<'_>, id: &str) -> Reply {
    require_read(ctx)?;
    let fields = ctx.fields()?;
    let Some(report) = state.reports.iter_mut().find(|r| r.id == id) else {
        return Err(super::errors::unsupported("get", id));
    };
    let status = report.status();
    let percent = report.percent();
    report.polls_left = report.polls_left.saturating_sub(1);
    let done = status != "Job Running";
    let full = json!({
        "id": report.id,
        "account_id": report.account.to_string(),
        "async_status": status,
        "async_percent_completion": percent,
        "date_start": report.date_start.to_string(),
        "date_stop": report.date_stop.to_string(),
        "time_ref": report.time_ref,
        "time_completed": if done { json!(report.time_ref + 1) } else { Value::Null },
        "is_running": !done,
    });
    let full = full.as_object().cloned().unwrap_or_default();
    select(REPORT_RUN, &full, fields.as_deref())
}

/// `GET /{report_run_id}/insights`, once the job completed.
pub(crate) fn report_rows(state: &FakeState, ctx: &Ctx<'_>, id: &str) -> Reply {
    require_read(ctx)?;
    let Some(report) = state.reports.iter().find(|r| r.id == id) else {
        return Err(super::errors::unsupported("get", id));
    };
    if report.status() != "Job Completed" {
        return Err(GraphError::new(
            2601,
            "(#2601) Error accessing adreport job.",
        ));
    }
    paged(report.rows.clone(), &ctx.listing(state))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(text: &str) -> Day {
        Day::parse(text).unwrap()
    }

    #[test]
    fn months_back_clamps_to_the_month_length() {
        assert_eq!(months_back(day("2026-11-20"), 37), day("2023-10-20"));
        assert_eq!(months_back(day("2026-03-31"), 1), day("2026-02-28"));
        assert_eq!(months_back(day("2024-03-31"), 1), day("2024-02-29"));
        assert_eq!(months_back(day("2026-01-15"), 13), day("2024-12-15"));
    }

    #[test]
    fn buckets_cover_the_range_by_increment() {
        let query = |increment| Query {
            level: Level::Ad,
            since: day("2026-01-30"),
            until: day("2026-03-02"),
            increment,
            fields: Vec::new(),
            filters: Vec::new(),
        };
        let text = |periods: Vec<(Day, Day)>| -> Vec<String> {
            periods.iter().map(|(a, b)| format!("{a}..{b}")).collect()
        };
        assert_eq!(
            text(buckets(&query(Increment::Monthly))),
            [
                "2026-01-30..2026-01-31",
                "2026-02-01..2026-02-28",
                "2026-03-01..2026-03-02"
            ]
        );
        assert_eq!(
            text(buckets(&query(Increment::AllDays))),
            ["2026-01-30..2026-03-02"]
        );
        let weekly = buckets(&query(Increment::Days(7)));
        assert_eq!(weekly.len(), 5);
        assert_eq!(text(weekly)[4], "2026-02-27..2026-03-02");
        assert_eq!(buckets(&query(Increment::Days(1))).len(), 32);
    }
}
