//! The documented requests, read as SE Ranking's Project API pages write them: `GET` only here,
//! the key in `Authorization: Token KEY` (or the documented `token` query parameter).
//! - `GET /sites`: the account's projects (`id`, `title`, `name` the URL, ...);
//! - `GET /sites/{id}/airt/llm`: the project's AI Result Tracker engines;
//! - `GET /sites/{id}/airt/llm/{llm}/statistics?from&to`: the period's `presence` (the
//!   `mention_percent_in_top` of the days with answers, their mean over a longer period;
//!   `null` when no day of the period has one) and `stats`;
//! - `GET /audit/list`: the account's audits, `{total, items}`; `GET /audit/{id}/report`:
//!   `{is_finished, score_percent, ...}`;
//! - `GET /sites/{id}/positions?date_from&date_to&with_landing_pages`: one entry per search
//!   engine of the project with its keywords and their checks in the period;
//! - `GET /competitors/site/{id}`: the project's competitors (`id`, `name`, `url`,
//!   `domain_trust`); `GET /competitors/{id}/positions?date_from&date_to` (both optional: the
//!   last week by default): one entry per search engine with the project's keywords by id and
//!   the competitor's checks in the period.

use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::Response;
use serde_json::{Value, json};

use super::errors::{bad_parameter, incorrect_token, json_response, no_token, not_found};
use super::state::{Account, Competitor, Project};
use super::{Day, Shared, lock};
use crate::fakes::form::form_pairs;

pub(crate) async fn dispatch(
    State(shared): State<Shared>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    if method != Method::GET {
        return json_response(
            StatusCode::METHOD_NOT_ALLOWED,
            &json!({ "message": "Method not allowed" }),
        );
    }
    let params = form_pairs(uri.query().unwrap_or(""));
    let param = |wanted: &str| {
        params
            .iter()
            .find(|(key, _)| key == wanted)
            .map(|(_, value)| value.clone())
    };
    let header_key = headers
        .get("authorization")
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Token "))
        .map(str::to_owned);
    let Some(key) = header_key.or_else(|| param("token")) else {
        return no_token();
    };
    let state = lock(&shared);
    let Some(account) = state.account(&key) else {
        return incorrect_token();
    };
    let segments: Vec<&str> = uri.path().trim_matches('/').split('/').collect();
    match segments.as_slice() {
        ["sites"] => json_response(StatusCode::OK, &sites(account)),
        ["sites", id, rest @ ..] => {
            let Some(project) = own_project(account, id) else {
                return not_found("Site");
            };
            match rest {
                ["airt", "llm"] => json_response(StatusCode::OK, &engines(project)),
                ["airt", "llm", llm, "statistics"] => {
                    let (Some(from), Some(to)) = (
                        param("from").as_deref().and_then(Day::parse),
                        param("to").as_deref().and_then(Day::parse),
                    ) else {
                        return bad_parameter("from/to");
                    };
                    statistics(project, llm, from, to)
                }
                ["positions"] => {
                    let (Some(from), Some(to)) = (
                        param("date_from").as_deref().and_then(Day::parse),
                        param("date_to").as_deref().and_then(Day::parse),
                    ) else {
                        return bad_parameter("date_from/date_to");
                    };
                    let landing = param("with_landing_pages").as_deref() == Some("1");
                    json_response(StatusCode::OK, &positions(project, from, to, landing))
                }
                _ => not_found("Method"),
            }
        }
        ["competitors", "site", id] => match own_project(account, id) {
            Some(project) => json_response(StatusCode::OK, &competitors(project)),
            None => not_found("Site"),
        },
        ["competitors", id, "positions"] => {
            let found = account.projects.iter().find_map(|project| {
                project
                    .competitors
                    .iter()
                    .find(|competitor| id.parse() == Ok(competitor.id))
                    .map(|competitor| (project, competitor))
            });
            let Some((project, competitor)) = found else {
                return not_found("Competitor");
            };
            let to = match param("date_to") {
                Some(text) => match Day::parse(&text) {
                    Some(day) => day,
                    None => return bad_parameter("date_to"),
                },
                None => Day::today(),
            };
            let from = match param("date_from") {
                Some(text) => match Day::parse(&text) {
                    Some(day) => day,
                    None => return bad_parameter("date_from"),
                },
                None => to.plus(-7),
            };
            json_response(
                StatusCode::OK,
                &competitor_positions(project, competitor, from, to),
            )
        }
        ["audit", "list"] => json_response(StatusCode::OK, &audits(account)),
        ["audit", id, "report"] => report(account, id),
        _ => not_found("Method"),
    }
}

fn own_project<'a>(account: &'a Account, id: &str) -> Option<&'a Project> {
    let id: u64 = id.parse().ok()?;
    account.projects.iter().find(|project| project.id == id)
}

fn sites(account: &Account) -> Value {
    let sites: Vec<Value> = account
        .projects
        .iter()
        .map(|project| {
            json!({
                "id": project.id,
                "title": project.title,
                "name": project.url,
                "group_id": 0,
                "is_active": 1,
                "exact_url": 0,
                "subdomain_match": 0,
                "depth": 100,
                "check_freq": "check_daily",
                "check_day": null,
                "guest_link": format!("https://seranking.com/guest.html?site_id={}", project.id),
                "keyword_count": project.keywords.len(),
            })
        })
        .collect();
    json!(sites)
}

fn engines(project: &Project) -> Value {
    let engines: Vec<Value> = project
        .engines
        .iter()
        .map(|engine| {
            json!({
                "id": engine.id,
                "base_name": engine.base_name,
                "country_code": "us",
                "lang_code": "en",
                "region_name": null,
            })
        })
        .collect();
    json!(engines)
}

fn statistics(project: &Project, llm: &str, from: Day, to: Day) -> Response {
    let Some(engine) = project
        .engines
        .iter()
        .find(|engine| engine.id.to_string() == llm)
    else {
        return not_found("LLM");
    };
    let figures: Vec<f64> = engine
        .mentions
        .range(from..=to)
        .map(|(_, value)| *value)
        .collect();
    let mention = if figures.is_empty() {
        Value::Null
    } else {
        let count = u32::try_from(figures.len()).unwrap_or(u32::MAX);
        json!(figures.iter().sum::<f64>() / f64::from(count))
    };
    let last_update = engine
        .mentions
        .range(from..=to)
        .next_back()
        .map(|(day, _)| day.to_string());
    json_response(
        StatusCode::OK,
        &json!({
            "llm_id": engine.id,
            "stats": { "prompts_count": 12, "last_update": last_update },
            "presence": {
                "link_percent_in_top": null,
                "link_diff": null,
                "mention_percent_in_top": mention,
                "mention_diff": null,
            },
            "sources_presence": { "answers_with_sources": figures.len() },
        }),
    )
}

fn positions(project: &Project, from: Day, to: Day, landing: bool) -> Value {
    let mut engines: Vec<u64> = project
        .keywords
        .iter()
        .map(|keyword| keyword.site_engine_id)
        .collect();
    engines.sort_unstable();
    engines.dedup();
    let entries: Vec<Value> = engines
        .into_iter()
        .map(|site_engine_id| {
            let keywords: Vec<Value> = project
                .keywords
                .iter()
                .filter(|keyword| keyword.site_engine_id == site_engine_id)
                .enumerate()
                .map(|(at, keyword)| {
                    let checks: Vec<_> = keyword
                        .checks
                        .iter()
                        .filter(|(day, _, _)| from <= *day && *day <= to)
                        .collect();
                    let mut entry = json!({
                        "id": at + 1,
                        "name": keyword.name,
                        "group_id": 0,
                        "volume": keyword.volume,
                        "positions": checks.iter().map(|(day, pos, _)| json!({
                            "date": day.to_string(),
                            "pos": pos,
                            "change": 0,
                            "price": 0,
                            "is_map": 0,
                            "map_position": 0,
                            "paid_position": 0,
                        })).collect::<Vec<_>>(),
                    });
                    if landing {
                        entry["landing_pages"] = json!(
                            checks
                                .iter()
                                .filter_map(|(day, _, url)| url.as_ref().map(|url| json!({
                                    "date": day.to_string(),
                                    "url": url,
                                })))
                                .collect::<Vec<_>>()
                        );
                    }
                    entry
                })
                .collect();
            json!({ "site_engine_id": site_engine_id, "keywords": keywords })
        })
        .collect();
    json!(entries)
}

fn competitors(project: &Project) -> Value {
    json!(
        project
            .competitors
            .iter()
            .map(|competitor| json!({
                "id": competitor.id,
                "name": competitor.name,
                "url": competitor.url,
                "domain_trust": 4,
            }))
            .collect::<Vec<_>>()
    )
}

/// The competitor's checks of the project's keywords, by the ids `positions` gives them.
fn competitor_positions(project: &Project, competitor: &Competitor, from: Day, to: Day) -> Value {
    let mut engines: Vec<u64> = project
        .keywords
        .iter()
        .map(|keyword| keyword.site_engine_id)
        .collect();
    engines.sort_unstable();
    engines.dedup();
    let entries: Vec<Value> = engines
        .into_iter()
        .map(|site_engine_id| {
            let keywords: Vec<Value> = project
                .keywords
                .iter()
                .filter(|keyword| keyword.site_engine_id == site_engine_id)
                .enumerate()
                .map(|(at, keyword)| {
                    let checks: Vec<Value> = competitor
                        .checks
                        .iter()
                        .filter(|(engine, name, day, _)| {
                            *engine == site_engine_id
                                && *name == keyword.name
                                && from <= *day
                                && *day <= to
                        })
                        .map(|(_, _, day, pos)| {
                            json!({
                                "date": day.to_string(),
                                "pos": pos,
                                "change": 0,
                            })
                        })
                        .collect();
                    json!({ "id": at + 1, "positions": checks })
                })
                .collect();
            json!({ "site_engine_id": site_engine_id, "keywords": keywords })
        })
        .collect();
    json!(entries)
}

fn audits(account: &Account) -> Value {
    let items: Vec<Value> = account
        .audits
        .iter()
        .map(|audit| {
            json!({
                "id": audit.id,
                "title": audit.title,
                "url": audit.url,
                "status": if audit.score.is_some() { "finished" } else { "processing" },
                "group_id": 0,
            })
        })
        .collect();
    json!({ "total": items.len(), "items": items })
}

fn report(account: &Account, id: &str) -> Response {
    let Some(audit) = account
        .audits
        .iter()
        .find(|audit| audit.id.to_string() == id)
    else {
        return not_found("Audit");
    };
    let body = match audit.score {
        Some(score) => json!({
            "is_finished": true,
            "domain_props": {},
            "sections": [],
            "score_percent": score,
            "total_pages": 10,
            "total_warnings": 7,
            "total_errors": 2,
            "total_passed": 81,
            "audit_time": "2026-11-20 06:00:00",
        }),
        None => json!({ "is_finished": false }),
    };
    json_response(StatusCode::OK, &body)
}
