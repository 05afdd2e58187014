//! The Tag Manager API v2 (`/tagmanager/v2/...`), as Google documents it:
//! - `GET accounts` and `GET accounts/{a}/containers`: `{"account": [...]}` /
//!   `{"container": [...]}` with `nextPageToken` while more pages follow (`pageToken` asks for
//!   the next; a small page size here so paging is exercised), the list absent when empty;
//!   only the accounts the token's user was given access to,
//! - `GET accounts/{a}/containers/{c}`: the `Container` (`path`, `accountId`, `containerId`,
//!   `name`, `publicId`, `usageContext`, `fingerprint`, `tagManagerUrl`),
//! - `GET .../containers/{c}/versions:live`: the published `ContainerVersion` (its `tag` list);
//!   404 `NOT_FOUND` when nothing was ever published,
//! - `POST .../containers/{c}/workspaces` `{name, description}`: a `Workspace` holding the
//!   latest version's entities,
//! - `GET|POST .../workspaces/{w}/tags` (paged like the lists; a duplicate name is refused 400)
//!   and `PUT .../workspaces/{w}/tags/{t}`,
//! - `POST .../workspaces/{w}:create_version` `{name, notes}`: `{containerVersion,
//!   compilerError: false}` and the workspace is gone, or `{compilerError: true, syncStatus}`
//!   and nothing is created (what [`FakeGoogle::set_tag_manager_compiler_error`] scripts),
//! - `POST .../versions/{v}:publish` (no body): `{containerVersion, compilerError}`, the version
//!   now live.
//!
//! Every call needs a live bearer token of the fake's OAuth (or a service account's) with the
//! method's scope (Google's lists: reads take `tagmanager.readonly` or
//! `tagmanager.edit.containers`; workspaces and tags `edit.containers`; versions
//! `edit.containerversions`; publishing `tagmanager.publish`), else 403 `PERMISSION_DENIED`
//! "Request had insufficient authentication scopes."; and the user's access to the account
//! (reading, or publishing, which includes editing), else 403 "The caller does not have
//! permission". Errors are `{"error": {"code", "message", "status"}}`.

// A refusal here is the whole HTTP answer, carried up as the `Err` of the helpers that build it.
#![allow(clippy::result_large_err)]

mod call;
mod containers;
mod controls;
mod state;
mod versions;
mod workspaces;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::Response;

use super::errors::{error, missing_credential, not_found};
use super::fail::Fail;
use super::{Shared, errors, lock};
use call::{Call, authenticate};
use containers::{get_container, list_accounts, list_containers};
pub(crate) use state::TagManager;
pub use state::{FakeTag, PublishedVersion, TagManagerPermission};
use versions::{create_version, live_version, publish};
use workspaces::{create_workspace, list_tags, put_tag};

pub const TAGMANAGER_READONLY_SCOPE: &str = "https://www.googleapis.com/auth/tagmanager.readonly";
pub const TAGMANAGER_EDIT_CONTAINERS_SCOPE: &str =
    "https://www.googleapis.com/auth/tagmanager.edit.containers";
pub const TAGMANAGER_EDIT_VERSIONS_SCOPE: &str =
    "https://www.googleapis.com/auth/tagmanager.edit.containerversions";
pub const TAGMANAGER_PUBLISH_SCOPE: &str = "https://www.googleapis.com/auth/tagmanager.publish";

/// The scope a call needs: any one of these.
const READ: &[&str] = &[TAGMANAGER_READONLY_SCOPE, TAGMANAGER_EDIT_CONTAINERS_SCOPE];
const EDIT: &[&str] = &[TAGMANAGER_EDIT_CONTAINERS_SCOPE];
const VERSION: &[&str] = &[TAGMANAGER_EDIT_VERSIONS_SCOPE];
const PUBLISH: &[&str] = &[TAGMANAGER_PUBLISH_SCOPE];

/// 403 for a user without the permission the method needs on the account.
fn denied() -> Response {
    error(StatusCode::FORBIDDEN, "The caller does not have permission")
}

/// Every `/tagmanager/v2/...` path lands here.
pub(crate) async fn dispatch(
    State(shared): State<Shared>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let Some(rest) = uri.path().strip_prefix("/tagmanager/v2/") else {
        return not_found(uri.path());
    };
    let page_token = uri.query().and_then(|query| {
        query
            .split('&')
            .find_map(|pair| pair.strip_prefix("pageToken="))
            .map(str::to_owned)
    });
    let mut state = lock(&shared);
    let (user, scopes) = match authenticate(&state, &headers) {
        Ok(found) => found,
        Err(response) => return response,
    };
    let call = Call {
        user: &user,
        scopes: &scopes,
        page_token: page_token.as_deref(),
        body: &body,
    };
    let parts: Vec<&str> = rest.split('/').collect();
    let tm = &mut state.tag_manager;
    match (&method, parts.as_slice()) {
        (&Method::GET, ["accounts"]) => list_accounts(tm, &call),
        (&Method::GET, ["accounts", a, "containers"]) => list_containers(tm, &call, a),
        (&Method::GET, ["accounts", a, "containers", c]) => get_container(tm, &call, a, c),
        (&Method::GET, ["accounts", a, "containers", c, "versions:live"]) => {
            live_version(tm, &call, a, c)
        }
        (&Method::POST, ["accounts", a, "containers", c, "workspaces"]) => {
            create_workspace(tm, &call, a, c)
        }
        (&Method::GET, ["accounts", a, "containers", c, "workspaces", w, "tags"]) => {
            list_tags(tm, &call, a, c, w)
        }
        (&Method::POST, ["accounts", a, "containers", c, "workspaces", w, "tags"]) => {
            put_tag(tm, &call, a, c, w, None)
        }
        (&Method::PUT, ["accounts", a, "containers", c, "workspaces", w, "tags", t]) => {
            put_tag(tm, &call, a, c, w, Some(t))
        }
        (&Method::POST, ["accounts", a, "containers", c, "workspaces", w]) => {
            match w.strip_suffix(":create_version") {
                Some(w) => create_version(tm, &call, a, c, w),
                None => not_found(uri.path()),
            }
        }
        (&Method::POST, ["accounts", a, "containers", c, "versions", v]) => {
            match v.strip_suffix(":publish") {
                Some(v) => publish(tm, &call, a, c, v),
                None => not_found(uri.path()),
            }
        }
        _ => not_found(uri.path()),
    }
}

/// A scheduled failure on a Tag Manager path, in the API's error shape.
pub(crate) fn scheduled(fail: Fail) -> Response {
    errors::scheduled(
        fail,
        "Quota exceeded for quota metric 'Queries' of service 'tagmanager.googleapis.com'.",
        missing_credential,
    )
}

#[cfg(test)]
mod tests;
