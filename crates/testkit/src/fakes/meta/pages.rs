//! Pages and Instagram (Graph API reference: User accounts, Page, Page Insights, Page posts;
//! Instagram Platform: IG User, IG User Insights, IG User Media):
//! - `GET /me/accounts` lists the human's Pages (needs `pages_show_list`; without it the list
//!   is empty) with each Page's `access_token`, a Page token the fake then accepts for that Page
//!   and its Instagram account, carrying the listing user token's Page permissions,
//! - `GET /{page-id}?fields=name,followers_count,fan_count,access_token,...`,
//!   `GET /{page-id}/posts` (newest first), `GET /{page-id}/insights?metric=..&period=day&since&until`
//!   with the current Page metrics (a retired or unknown metric is `(#100) The value must be a
//!   valid insights metric`),
//! - `GET /{ig-user-id}?fields=username,followers_count,...`, `GET /{ig-user-id}/media`,
//!   `GET /{ig-user-id}/insights?metric=reach,...&period=day` (time series for `reach` and
//!   `follower_count`; `views`, `accounts_engaged`, ... only with `metric_type=total_value`).
//!
//! Days run `[since, until)`: `since` and `until` take `YYYY-MM-DD` or Unix seconds, and a
//! day's value has `end_time` at the next midnight Pacific (`T08:00:00+0000`). Insights answers
//! page by time windows (`paging.previous`/`next` with the window moved), not by cursors.

use serde_json::{Map, Value, json};

use super::context::Ctx;
use super::errors::{GraphError, Reply, invalid_param, no_permission, page_permission_missing};
use super::fields::{NodeType, select};
use super::paging::{paged, with_query};
use super::state::{
    IgAccount, MediaSeed, PAGE_SCOPES, Page, PostSeed, State as FakeState, TokenKind,
};
use crate::fakes::day::Day;

const PAGE: NodeType = NodeType {
    name: "Page",
    fields: &[
        "id",
        "name",
        "category",
        "access_token",
        "tasks",
        "followers_count",
        "fan_count",
        "link",
        "instagram_business_account",
    ],
    defaults: &["name"],
};

/// The Page fields `/me/accounts` returns when none are asked for.
const ACCOUNTS_DEFAULTS: &[&str] = &["access_token", "category", "name", "tasks"];

const POST: NodeType = NodeType {
    name: "Post",
    fields: &[
        "id",
        "message",
        "created_time",
        "permalink_url",
        "shares",
        "reactions",
        "comments",
    ],
    defaults: &["created_time", "message"],
};

const IG_USER: NodeType = NodeType {
    name: "IGUser",
    fields: &[
        "id",
        "username",
        "followers_count",
        "follows_count",
        "media_count",
    ],
    defaults: &[],
};

const MEDIA: NodeType = NodeType {
    name: "IGMedia",
    fields: &[
        "id",
        "caption",
        "media_type",
        "media_product_type",
        "permalink",
        "timestamp",
        "like_count",
        "comments_count",
        "username",
    ],
    defaults: &[],
};

/// Page metrics the fake serves (Page Insights after the 2025 retirements of `page_impressions*`
/// and `page_fans*`).
const PAGE_METRICS: &[(&str, &str)] = &[
    ("page_media_view", "Media views"),
    ("page_total_media_view_unique", "Media viewers"),
    ("page_post_engagements", "Post engagements"),
    ("page_total_actions", "Total actions"),
    ("page_follows", "Follows"),
    ("page_daily_follows", "Daily follows"),
    ("page_daily_follows_unique", "Daily new followers"),
    ("page_daily_unfollows_unique", "Daily unfollows"),
    ("page_views_total", "Page views"),
    ("page_video_views", "Video views"),
];

/// Instagram account metrics with a daily time series.
const IG_TIME_SERIES: &[&str] = &["reach", "follower_count"];

/// Instagram account metrics answered only as `metric_type=total_value`.
const IG_TOTAL_ONLY: &[&str] = &[
    "views",
    "accounts_engaged",
    "total_interactions",
    "likes",
    "comments",
    "shares",
    "saves",
    "replies",
    "profile_links_taps",
    "follows_and_unfollows",
];

/// Seconds between the start of a UTC day and midnight Pacific (standard time).
const PACIFIC_MIDNIGHT: u64 = 8 * 3600;

fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

fn epoch() -> Day {
    Day::parse("1970-01-01").unwrap_or_else(Day::today)
}

fn day_seconds(day: Day) -> u64 {
    let days = u64::try_from(epoch().until(day)).unwrap_or(0);
    days * 86_400 + PACIFIC_MIDNIGHT
}

fn end_time(day: Day) -> String {
    format!("{}T08:00:00+0000", day.plus(1))
}

/// `since`/`until`: a `YYYY-MM-DD` day or Unix seconds.
fn parse_day(text: &str) -> Option<Day> {
    Day::parse(text).or_else(|| {
        let seconds: i64 = text.parse().ok()?;
        Some(epoch().plus(i32::try_from(seconds.div_euclid(86_400)).ok()?))
    })
}

/// The `[since, until)` window of an insights request, at most `max_days` long.
fn window(ctx: &Ctx<'_>, today: Day, max_days: i32) -> Result<(Day, Day), GraphError> {
    let get = |name: &str| -> Result<Option<Day>, GraphError> {
        match ctx.params.get(name) {
            None => Ok(None),
            Some(text) => parse_day(text).map(Some).ok_or_else(|| {
                invalid_param(format!("Param {name} must be a date or a Unix time"))
            }),
        }
    };
    let (since, until) = match (get("since")?, get("until")?) {
        (Some(since), Some(until)) => (since, until),
        (Some(since), None) => (since, today),
        (None, Some(until)) => (until.plus(-2), until),
        (None, None) => (today.plus(-2), today),
    };
    if since > until {
        return Err(invalid_param("Param since must be before until"));
    }
    if since.until(until) > max_days {
        let seconds = i64::from(max_days) * 86_400;
        return Err(invalid_param(format!(
            "There cannot be more than {max_days} days ({seconds} s) between since and until"
        )));
    }
    Ok((since, until))
}

/// `previous` and `next` windows of an insights answer.
fn window_paging(
    ctx: &Ctx<'_>,
    state: &FakeState,
    since: Day,
    until: Day,
) -> Result<Value, GraphError> {
    let length = since.until(until).max(1);
    let listing = ctx.listing(state);
    let moved = |from: Day, to: Day| -> Result<String, GraphError> {
        let mut pairs: Vec<(String, String)> = ctx
            .params
            .pairs()
            .iter()
            .filter(|(name, _)| name != "since" && name != "until")
            .cloned()
            .collect();
        pairs.push(("since".to_owned(), day_seconds(from).to_string()));
        pairs.push(("until".to_owned(), day_seconds(to).to_string()));
        with_query(&listing, &pairs)
    };
    Ok(json!({
        "previous": moved(since.plus(-length), since)?,
        "next": moved(until, until.plus(length))?,
    }))
}

fn metric_list(ctx: &Ctx<'_>) -> Vec<String> {
    ctx.params
        .get("metric")
        .unwrap_or("")
        .split(',')
        .map(str::trim)
        .filter(|m| !m.is_empty())
        .map(str::to_owned)
        .collect()
}

// ---- Pages ---------------------------------------------------------------------------------

fn page_json(state: &FakeState, page: &Page, token: Option<&str>) -> Map<String, Value> {
    let instagram = page
        .instagram
        .and_then(|id| state.ig(id))
        .map(|ig| Value::Object(ig_json(ig)));
    object(json!({
        "id": page.id.to_string(),
        "name": page.name,
        "category": page.category,
        "access_token": token,
        "tasks": ["ADVERTISE", "ANALYZE", "CREATE_CONTENT", "MESSAGING", "MODERATE", "MANAGE"],
        "followers_count": page.followers_count,
        "fan_count": page.fan_count,
        "link": format!("https://www.facebook.com/{}", page.id),
        "instagram_business_account": instagram,
    }))
}

/// Reading a Page takes a Page token of it, or a user token with `pages_read_engagement`.
fn require_page(ctx: &Ctx<'_>, permission: &str) -> Result<(), GraphError> {
    if ctx.caller.has(permission) {
        Ok(())
    } else {
        Err(page_permission_missing(permission))
    }
}

/// `GET /me/accounts`.
pub(crate) fn accounts(state: &mut FakeState, ctx: &Ctx<'_>) -> Reply {
    if !ctx.caller.has("pages_show_list") {
        return Ok(json!({ "data": [] }));
    }
    let scopes: Vec<String> = ctx
        .caller
        .scopes
        .iter()
        .filter(|s| PAGE_SCOPES.contains(&s.as_str()))
        .cloned()
        .collect();
    let page_ids: Vec<i64> = state.pages.iter().map(|p| p.id).collect();
    for id in page_ids {
        let current = state.page(id).map(|p| p.token.clone()).unwrap_or_default();
        let usable = state
            .tokens
            .get(&current)
            .is_some_and(|t| !t.revoked && !t.invalidated);
        if usable {
            if let Some(token) = state.tokens.get_mut(&current) {
                token.scopes = scopes.clone();
            }
        } else {
            let fresh = state.issue_token(TokenKind::Page(id), scopes.clone(), None);
            if let Some(page) = state.pages.iter_mut().find(|p| p.id == id) {
                page.token = fresh;
            }
        }
    }
    let fields = ctx.fields()?;
    let node = NodeType {
        defaults: ACCOUNTS_DEFAULTS,
        ..PAGE
    };
    let items = state
        .pages
        .iter()
        .map(|page| {
            select(
                node,
                &page_json(state, page, Some(&page.token)),
                fields.as_deref(),
            )
        })
        .collect::<Result<Vec<_>, _>>()?;
    paged(items, &ctx.listing(state))
}

/// `GET /{page-id}`.
pub(crate) fn page(state: &FakeState, ctx: &Ctx<'_>, id: i64) -> Reply {
    require_page(ctx, "pages_read_engagement")?;
    let Some(page) = state.page(id) else {
        return Err(super::errors::unsupported("get", &id.to_string()));
    };
    let token = match ctx.caller.kind {
        TokenKind::Page(_) => Some(ctx.caller.token.as_str()),
        TokenKind::User if ctx.caller.has("pages_show_list") => Some(page.token.as_str()),
        TokenKind::User => None,
    };
    select(
        PAGE,
        &page_json(state, page, token),
        ctx.fields()?.as_deref(),
    )
}

fn post_json(page: i64, post: &PostSeed) -> Map<String, Value> {
    object(json!({
        "id": format!("{page}_{}", post.id),
        "message": post.message,
        "created_time": post.created_time,
        "permalink_url": format!("https://www.facebook.com/{page}/posts/{}", post.id),
        // Graph leaves `shares` out of a post nobody shared.
        "shares": (post.shares > 0).then(|| json!({ "count": post.shares })),
        // Edges asked as fields with `.summary(total_count)`; `.limit(0)` keeps `data` empty,
        // which is how the fake always answers them.
        "reactions": { "data": [], "summary": { "total_count": post.reactions } },
        "comments": { "data": [], "summary": { "total_count": post.comments } },
    }))
}

/// `GET /{page-id}/posts`, newest first.
pub(crate) fn posts(state: &FakeState, ctx: &Ctx<'_>, id: i64) -> Reply {
    require_page(ctx, "pages_read_engagement")?;
    let Some(page) = state.page(id) else {
        return Err(super::errors::unsupported("get", &id.to_string()));
    };
    let mut posts: Vec<&PostSeed> = page.posts.iter().collect();
    posts.sort_by(|a, b| b.created_time.cmp(&a.created_time));
    let fields = ctx.fields()?;
    let items = posts
        .into_iter()
        .map(|post| select(POST, &post_json(id, post), fields.as_deref()))
        .collect::<Result<Vec<_>, _>>()?;
    paged(items, &ctx.listing(state))
}

/// `GET /{page-id}_{post-id}`.
pub(crate) fn post(state: &FakeState, ctx: &Ctx<'_>, page: i64, post: i64) -> Reply {
    require_page(ctx, "pages_read_engagement")?;
    let found = state
        .page(page)
        .and_then(|p| p.posts.iter().find(|p| p.id == post))
        .ok_or_else(|| super::errors::unsupported("get", &format!("{page}_{post}")))?;
    select(POST, &post_json(page, found), ctx.fields()?.as_deref())
}

/// How many days a Page insights value adds up, by `period`.
fn period_days(period: &str) -> Option<i32> {
    match period {
        "day" => Some(1),
        "week" => Some(7),
        "days_28" => Some(28),
        _ => None,
    }
}

/// `GET /{page-id}/insights`.
pub(crate) fn page_insights(state: &FakeState, ctx: &Ctx<'_>, id: i64) -> Reply {
    require_page(ctx, "read_insights")?;
    require_page(ctx, "pages_read_engagement")?;
    let Some(page) = state.page(id) else {
        return Err(super::errors::unsupported("get", &id.to_string()));
    };
    let metrics = metric_list(ctx);
    if metrics.is_empty() {
        return Err(GraphError::new(
            3001,
            "(#3001) No metric was specified to be fetched. Please specify one or more metrics to be fetched and try again.",
        )
        .subcode(1_504_028));
    }
    let period = ctx.params.get("period").unwrap_or("day");
    let Some(span) = period_days(period) else {
        return Err(invalid_param(format!(
            "period {period} is not modelled by the fake Meta, which answers day, week and days_28"
        )));
    };
    let (since, until) = window(ctx, state.today(), 93)?;
    let mut data = Vec::new();
    for metric in &metrics {
        let Some((_, title)) = PAGE_METRICS.iter().find(|(name, _)| name == metric) else {
            return Err(invalid_param("The value must be a valid insights metric"));
        };
        let values: Vec<Value> = (0..since.until(until))
            .map(|offset| {
                let day = since.plus(offset);
                let value: i64 = (0..span)
                    .map(|back| {
                        let key = (metric.clone(), day.plus(-back));
                        page.metrics.get(&key).copied().unwrap_or(0)
                    })
                    .sum();
                json!({ "value": value, "end_time": end_time(day) })
            })
            .collect();
        data.push(json!({
            "name": metric,
            "period": period,
            "values": values,
            "title": title,
            "description": format!("{title} of the Page ({period})"),
            "id": format!("{id}/insights/{metric}/{period}"),
        }));
    }
    Ok(json!({ "data": data, "paging": window_paging(ctx, state, since, until)? }))
}

// ---- Instagram -----------------------------------------------------------------------------

fn ig_json(ig: &IgAccount) -> Map<String, Value> {
    object(json!({
        "id": ig.id.to_string(),
        "username": ig.username,
        "followers_count": ig.followers_count,
        "follows_count": ig.follows_count,
        "media_count": ig.media.len(),
    }))
}

fn media_json(ig: &IgAccount, media: &MediaSeed) -> Map<String, Value> {
    object(json!({
        "id": media.id.to_string(),
        "caption": media.caption,
        "media_type": media.media_type,
        "media_product_type": "FEED",
        "permalink": format!("https://www.instagram.com/p/fake{}/", media.id),
        "timestamp": media.timestamp,
        "like_count": media.like_count,
        "comments_count": media.comments_count,
        "username": ig.username,
    }))
}

fn require_ig(ctx: &Ctx<'_>, permission: &str) -> Result<(), GraphError> {
    if ctx.caller.has(permission) {
        Ok(())
    } else {
        Err(no_permission())
    }
}

fn find_ig(state: &FakeState, id: i64) -> Result<&IgAccount, GraphError> {
    state
        .ig(id)
        .ok_or_else(|| super::errors::unsupported("get", &id.to_string()))
}

/// `GET /{ig-user-id}`.
pub(crate) fn ig(state: &FakeState, ctx: &Ctx<'_>, id: i64) -> Reply {
    require_ig(ctx, "instagram_basic")?;
    let account = find_ig(state, id)?;
    select(IG_USER, &ig_json(account), ctx.fields()?.as_deref())
}

/// `GET /{ig-user-id}/media`, newest first.
pub(crate) fn media_list(state: &FakeState, ctx: &Ctx<'_>, id: i64) -> Reply {
    require_ig(ctx, "instagram_basic")?;
    let account = find_ig(state, id)?;
    let mut media: Vec<&MediaSeed> = account.media.iter().collect();
    media.sort_by(|a, b| b.timestamp.cmp(&a.timestamp));
    let fields = ctx.fields()?;
    let items = media
        .into_iter()
        .map(|m| select(MEDIA, &media_json(account, m), fields.as_deref()))
        .collect::<Result<Vec<_>, _>>()?;
    paged(items, &ctx.listing(state))
}

/// `GET /{ig-media-id}`.
pub(crate) fn media(state: &FakeState, ctx: &Ctx<'_>, ig: i64, media: i64) -> Reply {
    require_ig(ctx, "instagram_basic")?;
    let account = find_ig(state, ig)?;
    let found = account
        .media
        .iter()
        .find(|m| m.id == media)
        .ok_or_else(|| super::errors::unsupported("get", &media.to_string()))?;
    select(MEDIA, &media_json(account, found), ctx.fields()?.as_deref())
}

/// `GET /{ig-user-id}/insights`.
pub(crate) fn ig_insights(state: &FakeState, ctx: &Ctx<'_>, id: i64) -> Reply {
    require_ig(ctx, "instagram_manage_insights")?;
    let account = find_ig(state, id)?;
    let metrics = metric_list(ctx);
    if metrics.is_empty() {
        return Err(invalid_param("The parameter metric is required"));
    }
    let known: Vec<&str> = IG_TIME_SERIES
        .iter()
        .chain(IG_TOTAL_ONLY)
        .copied()
        .collect();
    for (index, metric) in metrics.iter().enumerate() {
        if !known.contains(&metric.as_str()) {
            return Err(invalid_param(format!(
                "metric[{index}] must be one of the following values: {}",
                known.join(", ")
            )));
        }
    }
    match ctx.params.get("period") {
        Some("day") => {}
        Some(other) => {
            return Err(invalid_param(format!(
                "period {other} is not modelled by the fake Meta, which answers period=day"
            )));
        }
        None => return Err(invalid_param("The parameter period is required")),
    }
    let total = match ctx.params.get("metric_type") {
        None | Some("time_series") => false,
        Some("total_value") => true,
        Some(_) => {
            return Err(invalid_param(
                "metric_type must be one of the following values: time_series, total_value",
            ));
        }
    };
    let needs_total: Vec<&str> = metrics
        .iter()
        .map(String::as_str)
        .filter(|m| IG_TOTAL_ONLY.contains(m))
        .collect();
    if !total && !needs_total.is_empty() {
        return Err(invalid_param(format!(
            "The following metrics ({}) should be specified with parameter metric_type=total_value",
            needs_total.join(", ")
        )));
    }
    let today = state.today();
    let (since, until) = window(ctx, today, 30)?;
    if metrics.iter().any(|m| m == "follower_count") && since < today.plus(-30) {
        return Err(invalid_param(
            "follower_count is only available for the last 30 days, excluding the current day",
        ));
    }
    let value = |metric: &str, day: Day| {
        account
            .metrics
            .get(&(metric.to_owned(), day))
            .copied()
            .unwrap_or(0)
    };
    let days: Vec<Day> = (0..since.until(until)).map(|o| since.plus(o)).collect();
    let data: Vec<Value> = metrics
        .iter()
        .map(|metric| {
            let mut entry = json!({
                "name": metric,
                "period": "day",
                "title": metric,
                "description": format!("{metric} of the Instagram account"),
                "id": format!("{id}/insights/{metric}/day"),
            });
            if total {
                let sum: i64 = days.iter().map(|day| value(metric, *day)).sum();
                entry["total_value"] = json!({ "value": sum });
            } else {
                entry["values"] = days
                    .iter()
                    .map(|day| json!({ "value": value(metric, *day), "end_time": end_time(*day) }))
                    .collect();
            }
            entry
        })
        .collect();
    Ok(json!({ "data": data, "paging": window_paging(ctx, state, since, until)? }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_read_as_dates_or_unix_seconds_and_end_at_pacific_midnight() {
        let day = Day::parse("2026-11-20").unwrap();
        assert_eq!(parse_day("2026-11-20"), Some(day));
        assert_eq!(parse_day(&day_seconds(day).to_string()), Some(day));
        assert_eq!(
            parse_day("1795132800"),
            Some(day),
            "UTC midnight of the day"
        );
        assert_eq!(end_time(day), "2026-11-21T08:00:00+0000");
        assert_eq!(parse_day("yesterday"), None);
    }
}
