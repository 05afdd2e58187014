//! The three reports, read as the Analytics API v3 documents them: `GET /?type=REPORT&key=KEY&...`,
//! each answering `;`-separated CSV whose first line names the columns (the response names of
//! the `export_columns` codes asked, in the order asked; the report's defaults otherwise), lines
//! ending `\r\n`:
//! - `domain_rank`: the domain's overview in `database` (default `us`), one line,
//! - `domain_ranks`: its overview in every database holding it, one line each,
//! - `domain_organic`: its organic keywords in `database`, sorted by `display_sort` (default
//!   `tr_desc`), cut by `display_offset` and `display_limit` (default 10,000).
//!
//! Every line costs 10 units; an account short of units gets the lines it can pay for, and
//! `ERROR 132` once it has none.

use axum::extract::State;
use axum::http::{Method, StatusCode, Uri};
use axum::response::Response;

use super::errors::{self, text};
use super::state::{Account, OrganicKeyword, Overview, State as FakeState};
use super::{Shared, lock};
use crate::fakes::form::form_pairs;

/// The documented default database.
const DEFAULT_DATABASE: &str = "us";
/// The documented largest answer, and `display_limit`'s default.
const MAX_LINES: usize = 10_000;
/// What one line of these reports costs.
const UNITS_PER_LINE: i64 = 10;

/// Column codes and the names the CSV's first line gives them (the basic docs' column table).
const COLUMNS: &[(&str, &str)] = &[
    ("Db", "Database"),
    ("Dn", "Domain"),
    ("Rk", "Rank"),
    ("Or", "Organic Keywords"),
    ("Ot", "Organic Traffic"),
    ("Oc", "Organic Cost"),
    ("Ad", "Adwords Keywords"),
    ("At", "Adwords Traffic"),
    ("Ac", "Adwords Cost"),
    ("Ph", "Keyword"),
    ("Po", "Position"),
    ("Pp", "Previous Position"),
    ("Nq", "Search Volume"),
    ("Cp", "CPC"),
    ("Ur", "Url"),
    ("Tr", "Traffic (%)"),
    ("Co", "Competition"),
    ("Nr", "Number of Results"),
];

const OVERVIEW_DEFAULTS: &[&str] = &["Db", "Dn", "Rk", "Or", "Ot", "Oc", "Ad", "At", "Ac"];
const ORGANIC_DEFAULTS: &[&str] = &["Ph", "Po", "Pp", "Nq", "Cp", "Ur", "Tr", "Co", "Nr"];

pub(crate) async fn dispatch(State(shared): State<Shared>, method: Method, uri: Uri) -> Response {
    if uri.path() != "/" {
        return text(StatusCode::NOT_FOUND, "Not Found".to_owned());
    }
    if method != Method::GET {
        return text(StatusCode::METHOD_NOT_ALLOWED, String::new());
    }
    let params = form_pairs(uri.query().unwrap_or(""));
    let param = |wanted: &str| {
        params
            .iter()
            .find(|(key, _)| key == wanted)
            .map(|(_, value)| value.trim().to_owned())
            .filter(|value| !value.is_empty())
    };
    let mut state = lock(&shared);
    let Some(key) = param("key") else {
        return errors::empty_key();
    };
    if !state.keys.contains_key(&key) {
        return errors::wrong_key();
    }
    let Some(report) = param("type") else {
        return errors::missing("type");
    };
    let Some(domain) = param("domain").map(|domain| domain.to_ascii_lowercase()) else {
        return errors::missing("domain");
    };
    let database = param("database").unwrap_or_else(|| DEFAULT_DATABASE.to_owned());
    let lines: Vec<Vec<(&str, String)>> = match report.as_str() {
        "domain_rank" => overview(&state, &domain, Some(&database)),
        "domain_ranks" => overview(&state, &domain, None),
        "domain_organic" => {
            let Some(mut rows) = organic(&state, &domain, &database) else {
                return errors::nothing_found();
            };
            let Some(order) = sort_key(param("display_sort").as_deref()) else {
                return errors::unknown("display_sort");
            };
            rows.sort_by(order);
            let offset = number(param("display_offset")).unwrap_or(0);
            let limit = number(param("display_limit"))
                .filter(|limit| *limit > 0)
                .unwrap_or(MAX_LINES)
                .min(MAX_LINES);
            rows.into_iter()
                .skip(offset)
                .take(limit)
                .map(|row| keyword_line(&domain, &database, &row))
                .collect()
        }
        _ => return errors::unknown("report type"),
    };
    if lines.is_empty() {
        return errors::nothing_found();
    }
    let defaults = if report == "domain_organic" {
        ORGANIC_DEFAULTS
    } else {
        OVERVIEW_DEFAULTS
    };
    let asked = param("export_columns");
    let codes: Vec<&str> = match asked.as_deref() {
        Some(asked) => asked.split(',').map(str::trim).collect(),
        None => defaults.to_vec(),
    };
    let mut header = Vec::new();
    for code in &codes {
        let Some((_, name)) = COLUMNS.iter().find(|(known, _)| known == code) else {
            return errors::unknown(&format!("export column {code}"));
        };
        header.push(*name);
    }
    let Some(account) = state.keys.get_mut(&key) else {
        return errors::wrong_key();
    };
    let paid = pay(account, lines.len());
    if paid == 0 {
        return errors::units_spent();
    }
    let mut csv = header.join(";");
    for line in lines.into_iter().take(paid) {
        csv.push_str("\r\n");
        let cells: Vec<String> = codes
            .iter()
            .map(|code| {
                line.iter()
                    .find(|(known, _)| known == code)
                    .map(|(_, value)| value.clone())
                    .unwrap_or_default()
            })
            .collect();
        csv.push_str(&cells.join(";"));
    }
    text(StatusCode::OK, csv)
}

/// The lines the account's units pay for, spending them.
fn pay(account: &mut Account, lines: usize) -> usize {
    let wanted = i64::try_from(lines).unwrap_or(i64::MAX);
    let paid = match account.units {
        None => wanted,
        Some(units) => wanted.min((units - account.spent).max(0) / UNITS_PER_LINE),
    };
    account.spent += paid * UNITS_PER_LINE;
    usize::try_from(paid).unwrap_or(0)
}

fn number(text: Option<String>) -> Option<usize> {
    text.and_then(|text| text.parse().ok())
}

/// The overview lines of `domain` in `database`, or in every database holding it.
fn overview<'a>(
    state: &FakeState,
    domain: &str,
    database: Option<&str>,
) -> Vec<Vec<(&'a str, String)>> {
    let Some(databases) = state.overviews.get(domain) else {
        return Vec::new();
    };
    databases
        .iter()
        .filter(|(db, _)| database.is_none_or(|wanted| wanted == db.as_str()))
        .map(|(db, numbers)| overview_line(domain, db, numbers))
        .collect()
}

fn overview_line<'a>(domain: &str, database: &str, o: &Overview) -> Vec<(&'a str, String)> {
    vec![
        ("Db", database.to_owned()),
        ("Dn", domain.to_owned()),
        ("Rk", o.rank.to_string()),
        ("Or", o.organic_keywords.to_string()),
        ("Ot", o.organic_traffic.to_string()),
        ("Oc", o.organic_cost.to_string()),
        ("Ad", "0".to_owned()),
        ("At", "0".to_owned()),
        ("Ac", "0".to_owned()),
    ]
}

fn organic(state: &FakeState, domain: &str, database: &str) -> Option<Vec<OrganicKeyword>> {
    state
        .keywords
        .get(domain)
        .and_then(|databases| databases.get(database))
        .filter(|rows| !rows.is_empty())
        .cloned()
}

type Order = fn(&OrganicKeyword, &OrganicKeyword) -> std::cmp::Ordering;

/// The documented `display_sort` values the fake serves (`tr_desc` when none is asked).
fn sort_key(asked: Option<&str>) -> Option<Order> {
    let order: Order = match asked.unwrap_or("tr_desc") {
        "tr_desc" => |a, b| b.traffic_percent.total_cmp(&a.traffic_percent),
        "tr_asc" => |a, b| a.traffic_percent.total_cmp(&b.traffic_percent),
        "po_asc" => |a, b| a.position.cmp(&b.position),
        "po_desc" => |a, b| b.position.cmp(&a.position),
        "nq_desc" => |a, b| b.volume.cmp(&a.volume),
        "nq_asc" => |a, b| a.volume.cmp(&b.volume),
        _ => return None,
    };
    Some(order)
}

fn keyword_line<'a>(domain: &str, database: &str, row: &OrganicKeyword) -> Vec<(&'a str, String)> {
    vec![
        ("Db", database.to_owned()),
        ("Dn", domain.to_owned()),
        ("Ph", row.keyword.clone()),
        ("Po", row.position.to_string()),
        ("Pp", row.position.to_string()),
        ("Nq", row.volume.to_string()),
        ("Cp", "1.25".to_owned()),
        ("Ur", row.url.clone()),
        ("Tr", format!("{:.2}", row.traffic_percent)),
        ("Co", "0.42".to_owned()),
        ("Nr", "1250000".to_owned()),
    ]
}
