//! Every request lands here: the version prefix (`/v23.0/`, any `v{N}.{M}`, or none) is dropped,
//! parameters are read from the query string and, for writes, the form or JSON body; the Login
//! endpoints are answered without a token, everything else after the access token checks out.
//!
//! As Graph does, the token comes from `Authorization: Bearer <token>` (or `OAuth <token>`) or
//! the `access_token` parameter, and `me` is the token's subject: the human for a user token,
//! the Page for a Page token.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderMap, Method, Uri};
use axum::response::Response;
use serde_json::json;

use super::context::{Caller, Ctx, Object, bearer, is_version};
use super::errors::{Reply, missing_token, reply, unknown_path, unsupported};
use super::fields;
use super::params::Params;
use super::state::{Shared, State as FakeState, TokenKind};
use super::{ads, insights, oauth, pages};
use crate::fakes::lock;

fn resolve(state: &FakeState, caller: &Caller, id: &str) -> Option<Object> {
    if id == "me" {
        return Some(match caller.kind {
            TokenKind::User => Object::User,
            TokenKind::Page(page) => Object::Page(page),
        });
    }
    if let Some(account) = id.strip_prefix("act_") {
        let account = account.parse().ok()?;
        return state.account(account).map(|_| Object::Account(account));
    }
    if let Some((page, post)) = id.split_once('_') {
        let (page, post) = (page.parse().ok()?, post.parse().ok()?);
        let found = state.page(page)?.posts.iter().any(|p| p.id == post);
        return found.then_some(Object::Post { page, post });
    }
    if state.reports.iter().any(|r| r.id == id) {
        return Some(Object::Report(id.to_owned()));
    }
    let number: i64 = id.parse().ok()?;
    if number == state.user_id {
        return Some(Object::User);
    }
    if state.campaign(number).is_some() {
        return Some(Object::Campaign(number));
    }
    if state.adset(number).is_some() {
        return Some(Object::AdSet(number));
    }
    if state.ad(number).is_some() {
        return Some(Object::Ad(number));
    }
    if state.page(number).is_some() {
        return Some(Object::Page(number));
    }
    if state.ig(number).is_some() {
        return Some(Object::Ig(number));
    }
    state
        .instagram
        .iter()
        .find(|ig| ig.media.iter().any(|m| m.id == number))
        .map(|ig| Object::Media {
            ig: ig.id,
            media: number,
        })
}

/// Whether a Page token may see `object` (its own Page, that Page's Instagram account, posts
/// and media); user tokens see everything the human has.
fn visible(state: &FakeState, caller: &Caller, object: &Object) -> bool {
    let TokenKind::Page(own) = caller.kind else {
        return true;
    };
    match object {
        Object::Page(page) | Object::Post { page, .. } => *page == own,
        Object::Ig(ig) | Object::Media { ig, .. } => state.ig(*ig).is_some_and(|i| i.page == own),
        _ => false,
    }
}

/// Every request.
pub(crate) async fn dispatch(
    State(shared): State<Shared>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let path = uri.path().to_owned();
    let mut segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    if segments.first().is_some_and(|s| is_version(s)) {
        segments.remove(0);
    }
    let mut params = Params::from_text(uri.query().unwrap_or(""));
    if !body.is_empty() {
        let text = String::from_utf8_lossy(&body);
        let json = headers
            .get(CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .is_some_and(|value| value.to_ascii_lowercase().starts_with("application/json"));
        params.extend(if json {
            Params::from_json(&text)
        } else {
            Params::from_text(&text)
        });
    }
    let mut state = lock(&shared);
    let trace = state.mint_trace();
    let get = method == Method::GET;
    let result = match segments.as_slice() {
        ["dialog", "oauth"] if get => return oauth::dialog(&mut state, &params),
        ["oauth", "access_token"] if get || method == Method::POST => {
            oauth::access_token(&mut state, &params)
        }
        ["debug_token"] if get => {
            let token = bearer(&headers).or_else(|| params.get("access_token").map(str::to_owned));
            oauth::debug_token(&state, &params, token.as_deref())
        }
        _ => graph(&mut state, &method, &path, &segments, &params, &headers),
    };
    reply(result, &trace)
}

fn graph(
    state: &mut FakeState,
    method: &Method,
    path: &str,
    segments: &[&str],
    params: &Params,
    headers: &HeaderMap,
) -> Reply {
    let about_me = segments.first() == Some(&"me");
    let token = bearer(headers)
        .or_else(|| params.get("access_token").map(str::to_owned))
        .filter(|token| !token.is_empty());
    let Some(token) = token else {
        return Err(missing_token(about_me));
    };
    let caller = oauth::authenticate(state, &token)?;
    oauth::check_proof(state, &token, params)?;
    let ctx = Ctx {
        method,
        path,
        params,
        caller,
    };
    route(state, &ctx, segments)
}

fn route(state: &mut FakeState, ctx: &Ctx<'_>, segments: &[&str]) -> Reply {
    let method = ctx.method.as_str();
    let Some((first, rest)) = segments.split_first() else {
        return Err(unsupported(method, ""));
    };
    let object = resolve(state, &ctx.caller, first)
        .filter(|object| visible(state, &ctx.caller, object))
        .ok_or_else(|| unsupported(method, first))?;
    let get = ctx.is_get();
    let post = ctx.method == Method::POST;
    let delete = ctx.method == Method::DELETE;
    match (&object, rest) {
        (Object::User, []) if get => user_node(state, ctx),
        (Object::User, ["permissions"]) if get => oauth::permissions(state, ctx),
        (Object::User, ["permissions"]) if delete => oauth::revoke(state, ctx, None),
        (Object::User, ["permissions", permission]) if delete => {
            oauth::revoke(state, ctx, Some(*permission))
        }
        (Object::User, ["adaccounts"]) if get => ads::adaccounts(state, ctx),
        (Object::User, ["accounts"]) if get => pages::accounts(state, ctx),
        (Object::Account(id), []) if get => ads::account(state, ctx, *id),
        (Object::Account(_), [edge @ ("campaigns" | "adsets" | "ads")]) if get => {
            ads::edge(state, ctx, &object, edge)
        }
        (Object::Account(id), ["insights"]) if get => {
            insights::sync(state, ctx, insights::Scope::Account(*id))
        }
        (Object::Account(id), ["insights"]) if post => insights::start_report(state, ctx, *id),
        (Object::Campaign(id), []) if get => ads::campaign(state, ctx, *id),
        (Object::Campaign(id), []) if post => ads::write_budget(state, ctx, &object, *id),
        (Object::Campaign(_), [edge @ ("adsets" | "ads")]) if get => {
            ads::edge(state, ctx, &object, edge)
        }
        (Object::Campaign(id), ["insights"]) if get => {
            insights::sync(state, ctx, insights::Scope::Campaign(*id))
        }
        (Object::AdSet(id), []) if get => ads::adset(state, ctx, *id),
        (Object::AdSet(id), []) if post => ads::write_budget(state, ctx, &object, *id),
        (Object::AdSet(_), [edge @ "ads"]) if get => ads::edge(state, ctx, &object, edge),
        (Object::AdSet(id), ["insights"]) if get => {
            insights::sync(state, ctx, insights::Scope::AdSet(*id))
        }
        (Object::Ad(id), []) if get => ads::ad(state, ctx, *id),
        (Object::Ad(id), ["insights"]) if get => {
            insights::sync(state, ctx, insights::Scope::Ad(*id))
        }
        (Object::Report(id), []) if get => insights::report_status(state, ctx, id),
        (Object::Report(id), ["insights"]) if get => insights::report_rows(state, ctx, id),
        (Object::Page(id), []) if get => pages::page(state, ctx, *id),
        (Object::Page(id), ["insights"]) if get => pages::page_insights(state, ctx, *id),
        (Object::Page(id), ["posts" | "published_posts"]) if get => pages::posts(state, ctx, *id),
        (Object::Post { page, post }, []) if get => pages::post(state, ctx, *page, *post),
        (Object::Ig(id), []) if get => pages::ig(state, ctx, *id),
        (Object::Ig(id), ["insights"]) if get => pages::ig_insights(state, ctx, *id),
        (Object::Ig(id), ["media"]) if get => pages::media_list(state, ctx, *id),
        (Object::Media { ig, media }, []) if get => pages::media(state, ctx, *ig, *media),
        (_, []) => Err(unsupported(method, first)),
        (_, rest) => Err(unknown_path(&rest.join("/"))),
    }
}

fn user_node(state: &FakeState, ctx: &Ctx<'_>) -> Reply {
    const USER: fields::NodeType = fields::NodeType {
        name: "User",
        fields: &["id", "name"],
        defaults: &["name"],
    };
    let full = json!({ "id": state.user_id.to_string(), "name": state.user_name });
    let full = full.as_object().cloned().unwrap_or_default();
    fields::select(USER, &full, ctx.fields()?.as_deref())
}
