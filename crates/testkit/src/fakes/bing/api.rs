//! The two methods, read as the protocol page documents them: `GET` only, parameters in the
//! query string (`apikey` on every call), answers wrapped in `d`.

use axum::extract::State;
use axum::http::{Method, StatusCode, Uri};
use axum::response::Response;
use serde_json::{Value, json};

use super::errors::{invalid_api_key, invalid_parameter, json_response, not_authorized, not_found};
use super::state::{QueryDay, State as FakeState};
use super::{Day, Shared, lock};
use crate::fakes::form::form_pairs;

const JSON_PATH: &str = "/webmaster/api.svc/json/";

/// Bing stamps a day at midnight Pacific; the fake writes every day in standard time (PST).
const PACIFIC_OFFSET: &str = "-0800";
const PACIFIC_MIDNIGHT_UTC_MS: i64 = 8 * 3_600_000;

pub(crate) async fn dispatch(State(shared): State<Shared>, method: Method, uri: Uri) -> Response {
    let Some(name) = uri.path().strip_prefix(JSON_PATH) else {
        return not_found();
    };
    if method != Method::GET {
        return json_response(StatusCode::METHOD_NOT_ALLOWED, &json!({}));
    }
    let params = form_pairs(uri.query().unwrap_or(""));
    let param = |wanted: &str| {
        params
            .iter()
            .find(|(key, _)| key == wanted)
            .map(|(_, value)| value.clone())
    };
    let state = lock(&shared);
    let Some(user) = param("apikey").and_then(|key| state.user(&key).cloned()) else {
        return invalid_api_key();
    };
    match name {
        "GetUserSites" => {
            let sites: Vec<Value> = user
                .sites
                .iter()
                .map(|site| {
                    json!({
                        "__type": "Site:#Microsoft.Bing.Webmaster.Api",
                        "AuthenticationCode": "258CAD36B9EEE22F1CFDEB4C239D26BB",
                        "DnsVerificationCode": "258cad36b9eee22f1cfdeb4c239d26bb.example.com",
                        "IsVerified": site.verified,
                        "Url": site.url,
                    })
                })
                .collect();
            json_response(StatusCode::OK, &json!({ "d": sites }))
        }
        "GetQueryStats" => {
            let Some(site) = param("siteUrl").filter(|site| !site.is_empty()) else {
                return invalid_parameter();
            };
            if !user.sites.iter().any(|known| known.url == site) {
                return not_authorized();
            }
            json_response(StatusCode::OK, &json!({ "d": query_stats(&state, &site) }))
        }
        _ => not_found(),
    }
}

fn query_stats(state: &FakeState, site: &str) -> Vec<Value> {
    let days = state.stats.get(site).map(Vec::as_slice).unwrap_or_default();
    days.iter().map(row).collect()
}

fn row(stats: &QueryDay) -> Value {
    json!({
        "__type": "QueryStats:#Microsoft.Bing.Webmaster.Api",
        "AvgClickPosition": if stats.clicks > 0 { 2.0 } else { 0.0 },
        "AvgImpressionPosition": stats.position,
        "Clicks": stats.clicks,
        "Date": wcf_date(stats.day),
        "Impressions": stats.impressions,
        "Query": stats.query,
    })
}

/// `/Date(ms-0800)/` of the day's midnight Pacific (serde writes `/`; `\/` in Bing's samples is
/// the same string once parsed).
fn wcf_date(day: Day) -> String {
    let epoch = Day::from_ymd(1970, 1, 1).map_or(0, |epoch| epoch.until(day));
    let millis = i64::from(epoch) * 86_400_000 + PACIFIC_MIDNIGHT_UTC_MS;
    format!("/Date({millis}{PACIFIC_OFFSET})/")
}
