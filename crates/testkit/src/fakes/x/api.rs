//! The two endpoints, read as X documents them: `GET` only, `Authorization: Bearer TOKEN`,
//! parameters in the query string; a parameter the endpoint does not document is refused as X
//! refuses it.
//!
//! - `GET /2/users/by/username/:username`: the user (`id`, `name`, `username`), with
//!   `public_metrics` when `user.fields` asks for it.
//! - `GET /2/users/:id/tweets`: the user's posts, newest first, `max_results` (5-100, default
//!   10) a page, `start_time`/`end_time` (RFC 3339) bounding `created_at`, `meta.next_token`
//!   while more remain (taken back as `pagination_token`), only the most recent 3,200 reachable;
//!   each post has `id`, `text`, `edit_history_tweet_ids`, plus `created_at` and
//!   `public_metrics` when `tweet.fields` asks for them.

use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::Response;
use payback_domain::Timestamp;
use serde_json::{Map, Value, json};

use super::errors::{invalid_request, json_response, no_route, not_found_entry, unauthorized};
use super::state::{Post, State as FakeState};
use super::{Shared, lock};
use crate::fakes::form::form_pairs;

/// The most recent posts the timeline reaches.
const TIMELINE_CAP: usize = 3_200;

const LOOKUP_PARAMS: [&str; 3] = ["user.fields", "expansions", "tweet.fields"];
const TIMELINE_PARAMS: [&str; 13] = [
    "tweet.fields",
    "user.fields",
    "expansions",
    "media.fields",
    "place.fields",
    "poll.fields",
    "max_results",
    "pagination_token",
    "start_time",
    "end_time",
    "since_id",
    "until_id",
    "exclude",
];

pub(crate) async fn dispatch(
    State(shared): State<Shared>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    if method != Method::GET {
        return no_route();
    }
    let params = form_pairs(uri.query().unwrap_or(""));
    let state = lock(&shared);
    let token = headers
        .get("authorization")
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer "));
    if !token.is_some_and(|token| state.live_token(token)) {
        return unauthorized();
    }
    let path = uri.path();
    if let Some(username) = path.strip_prefix("/2/users/by/username/") {
        return lookup(&state, username, &params);
    }
    if let Some(id) = path
        .strip_prefix("/2/users/")
        .and_then(|rest| rest.strip_suffix("/tweets"))
    {
        return timeline(&state, id, &params);
    }
    no_route()
}

fn unknown_param(params: &[(String, String)], known: &[&str]) -> Option<Response> {
    let (name, value) = params
        .iter()
        .find(|(name, _)| !known.contains(&name.as_str()))?;
    Some(invalid_request(
        name,
        value,
        &format!(
            "The query parameter [{name}] is not one of [{}]",
            known.join(",")
        ),
    ))
}

fn fields(params: &[(String, String)], name: &str) -> Vec<String> {
    params
        .iter()
        .filter(|(key, _)| key == name)
        .flat_map(|(_, value)| value.split(',').map(str::to_owned).collect::<Vec<_>>())
        .collect()
}

fn param<'a>(params: &'a [(String, String)], name: &str) -> Option<&'a str> {
    params
        .iter()
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.as_str())
}

fn lookup(state: &FakeState, username: &str, params: &[(String, String)]) -> Response {
    if let Some(refused) = unknown_param(params, &LOOKUP_PARAMS) {
        return refused;
    }
    let valid = (1..=15).contains(&username.len())
        && username
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_');
    if !valid {
        return invalid_request(
            "username",
            username,
            &format!(
                "The `username` query parameter value [{username}] does not match \
                 ^[A-Za-z0-9_]{{1,15}}$"
            ),
        );
    }
    let Some(account) = state.by_username(username) else {
        return not_found_entry("user", "username", username);
    };
    let mut user = Map::new();
    user.insert("id".into(), json!(account.id));
    user.insert("name".into(), json!(account.username.to_uppercase()));
    user.insert("username".into(), json!(account.username));
    if fields(params, "user.fields")
        .iter()
        .any(|f| f == "public_metrics")
    {
        user.insert(
            "public_metrics".into(),
            json!({ "followers_count": account.followers, "following_count": 12,
                    "tweet_count": account.posts.len(), "listed_count": 1, "like_count": 0 }),
        );
    }
    json_response(StatusCode::OK, &json!({ "data": user }))
}

fn timeline(state: &FakeState, id: &str, params: &[(String, String)]) -> Response {
    if let Some(refused) = unknown_param(params, &TIMELINE_PARAMS) {
        return refused;
    }
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) {
        return invalid_request(
            "id",
            id,
            &format!("The `id` query parameter value [{id}] does not match ^[0-9]{{1,19}}$"),
        );
    }
    let page_size = match param(params, "max_results") {
        None => 10,
        Some(text) => match text.parse::<usize>() {
            Ok(n) if (5..=100).contains(&n) => n,
            _ => {
                return invalid_request(
                    "max_results",
                    text,
                    &format!(
                        "The `max_results` query parameter value [{text}] is not between 5 and 100"
                    ),
                );
            }
        },
    };
    let mut bounds = [None, None];
    for (at, name) in ["start_time", "end_time"].into_iter().enumerate() {
        if let Some(text) = param(params, name) {
            match Timestamp::parse_rfc3339(text) {
                Some(instant) => bounds[at] = Some(instant.millis()),
                None => {
                    return invalid_request(
                        name,
                        text,
                        &format!(
                            "Invalid '{name}':'{text}'. '{name}' must be a valid RFC 3339 time"
                        ),
                    );
                }
            }
        }
    }
    let offset = match param(params, "pagination_token") {
        None => 0,
        Some(token) => match token.strip_prefix("7140dibd").and_then(|n| n.parse().ok()) {
            Some(offset) => offset,
            None => {
                return invalid_request(
                    "pagination_token",
                    token,
                    "The `pagination_token` query parameter value is not valid",
                );
            }
        },
    };
    let Some(account) = state.by_id(id) else {
        return not_found_entry("user", "id", id);
    };
    let mut posts: Vec<&Post> = account.posts.iter().collect();
    posts.sort_by(|a, b| b.created_ms.cmp(&a.created_ms).then(b.id.cmp(&a.id)));
    posts.truncate(TIMELINE_CAP);
    let [start, end] = bounds;
    posts.retain(|post| {
        start.is_none_or(|start| post.created_ms >= start)
            && end.is_none_or(|end| post.created_ms <= end)
    });
    let page: Vec<&Post> = posts.iter().skip(offset).take(page_size).copied().collect();
    let asked = fields(params, "tweet.fields");
    let mut meta = Map::new();
    meta.insert("result_count".into(), json!(page.len()));
    if let (Some(newest), Some(oldest)) = (page.first(), page.last()) {
        meta.insert("newest_id".into(), json!(newest.id));
        meta.insert("oldest_id".into(), json!(oldest.id));
    }
    if offset + page.len() < posts.len() {
        meta.insert(
            "next_token".into(),
            json!(format!("7140dibd{}", offset + page.len())),
        );
    }
    if offset > 0 {
        meta.insert(
            "previous_token".into(),
            json!(format!("7140dibd{}", offset.saturating_sub(page_size))),
        );
    }
    let mut body = Map::new();
    if !page.is_empty() {
        body.insert(
            "data".into(),
            Value::Array(page.iter().map(|post| tweet(post, &asked)).collect()),
        );
    }
    body.insert("meta".into(), Value::Object(meta));
    json_response(StatusCode::OK, &Value::Object(body))
}

fn tweet(post: &Post, asked: &[String]) -> Value {
    let mut object = Map::new();
    object.insert("id".into(), json!(post.id));
    object.insert("text".into(), json!(post.text));
    object.insert("edit_history_tweet_ids".into(), json!([post.id]));
    if asked.iter().any(|f| f == "created_at") {
        object.insert("created_at".into(), json!(post.created_at));
    }
    if asked.iter().any(|f| f == "public_metrics") {
        let m = post.metrics;
        object.insert(
            "public_metrics".into(),
            json!({ "retweet_count": m.reposts, "reply_count": m.replies, "like_count": m.likes,
                    "quote_count": m.quotes, "bookmark_count": m.bookmarks,
                    "impression_count": m.impressions }),
        );
    }
    Value::Object(object)
}
