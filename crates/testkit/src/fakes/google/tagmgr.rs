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

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::Response;
use serde_json::{Value, json};

use super::errors::{front_end, json_response, missing_credential};
use super::oauth::{Refused, check_user_access};
use super::state::{Fail, State as FakeState};
use super::{FakeGoogle, Shared, lock};

pub const TAGMANAGER_READONLY_SCOPE: &str = "https://www.googleapis.com/auth/tagmanager.readonly";
pub const TAGMANAGER_EDIT_CONTAINERS_SCOPE: &str =
    "https://www.googleapis.com/auth/tagmanager.edit.containers";
pub const TAGMANAGER_EDIT_VERSIONS_SCOPE: &str =
    "https://www.googleapis.com/auth/tagmanager.edit.containerversions";
pub const TAGMANAGER_PUBLISH_SCOPE: &str = "https://www.googleapis.com/auth/tagmanager.publish";

/// What a user may do in a Tag Manager account.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum TagManagerPermission {
    /// Read containers and versions.
    Read,
    /// Edit workspaces, create versions and publish them.
    Publish,
}

/// A tag as a test reads it back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FakeTag {
    pub name: String,
    /// `html` for Custom HTML.
    pub kind: String,
    /// The `html` parameter's value.
    pub html: Option<String>,
    pub firing_trigger_ids: Vec<String>,
}

/// A published version as a test reads it back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublishedVersion {
    pub version_id: String,
    pub name: String,
    pub tags: Vec<FakeTag>,
}

#[derive(Debug, Clone)]
struct Account {
    id: String,
    name: String,
    users: Vec<(String, TagManagerPermission)>,
}

#[derive(Debug, Clone)]
struct Workspace {
    id: String,
    name: String,
    description: String,
    tags: Vec<Value>,
}

#[derive(Debug, Clone)]
struct Version {
    id: String,
    name: String,
    tags: Vec<Value>,
}

#[derive(Debug, Clone)]
struct Container {
    account_id: String,
    id: String,
    name: String,
    public_id: String,
    workspaces: Vec<Workspace>,
    versions: Vec<Version>,
    live: Option<String>,
    /// Version ids in the order they were published.
    published: Vec<String>,
}

impl Container {
    fn path(&self) -> String {
        format!("accounts/{}/containers/{}", self.account_id, self.id)
    }
}

/// What the fake's Tag Manager holds.
#[derive(Debug)]
pub(crate) struct TagManager {
    accounts: Vec<Account>,
    containers: Vec<Container>,
    next_id: u64,
    /// The next `create_version` answers `compilerError: true`.
    compiler_error: bool,
    page_size: usize,
}

impl Default for TagManager {
    fn default() -> Self {
        Self {
            accounts: Vec::new(),
            containers: Vec::new(),
            next_id: 100,
            compiler_error: false,
            page_size: 2,
        }
    }
}

impl TagManager {
    fn fresh_id(&mut self) -> String {
        self.next_id += 1;
        self.next_id.to_string()
    }

    fn permission(&self, user: &str, account_id: &str) -> Option<TagManagerPermission> {
        self.accounts
            .iter()
            .find(|account| account.id == account_id)?
            .users
            .iter()
            .find(|(who, _)| who == user)
            .map(|(_, permission)| *permission)
    }

    fn container_mut(&mut self, account_id: &str, id: &str) -> Option<&mut Container> {
        self.containers
            .iter_mut()
            .find(|c| c.account_id == account_id && c.id == id)
    }
}

/// The scope a call needs: any one of these.
const READ: &[&str] = &[TAGMANAGER_READONLY_SCOPE, TAGMANAGER_EDIT_CONTAINERS_SCOPE];
const EDIT: &[&str] = &[TAGMANAGER_EDIT_CONTAINERS_SCOPE];
const VERSION: &[&str] = &[TAGMANAGER_EDIT_VERSIONS_SCOPE];
const PUBLISH: &[&str] = &[TAGMANAGER_PUBLISH_SCOPE];

fn error(status: StatusCode, message: &str) -> Response {
    front_end(status, message, Vec::new())
}

fn not_found(path: &str) -> Response {
    error(
        StatusCode::NOT_FOUND,
        &format!("The requested URL {path} was not found on this server."),
    )
}

fn denied() -> Response {
    error(StatusCode::FORBIDDEN, "The caller does not have permission")
}

fn bad_request(message: &str) -> Response {
    error(StatusCode::BAD_REQUEST, message)
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

/// One authenticated call.
struct Call<'a> {
    user: &'a str,
    scopes: &'a [String],
    page_token: Option<&'a str>,
    body: &'a [u8],
}

impl Call<'_> {
    /// 403 unless the token carries one of `needed`.
    fn needs(&self, needed: &[&str]) -> Result<(), Response> {
        if self.scopes.iter().any(|s| needed.contains(&s.as_str())) {
            return Ok(());
        }
        Err(front_end(
            StatusCode::FORBIDDEN,
            "Request had insufficient authentication scopes.",
            vec![json!({
                "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                "reason": "ACCESS_TOKEN_SCOPE_INSUFFICIENT",
                "domain": "googleapis.com",
                "metadata": { "service": "tagmanager.googleapis.com" },
            })],
        ))
    }

    /// The scope, then the user's permission on account `a`.
    fn may(
        &self,
        tm: &TagManager,
        needed: &[&str],
        account: &str,
        at_least: TagManagerPermission,
    ) -> Result<(), Response> {
        self.needs(needed)?;
        match tm.permission(self.user, account) {
            Some(permission) if permission >= at_least => Ok(()),
            _ => Err(denied()),
        }
    }

    /// The slice of `items` this page shows, and the next page's token.
    fn page<T: Clone>(
        &self,
        items: &[T],
        size: usize,
    ) -> Result<(Vec<T>, Option<String>), Response> {
        let start = match self.page_token {
            None => 0,
            Some(token) => token
                .strip_prefix("tmpage")
                .and_then(|n| n.parse::<usize>().ok())
                .filter(|n| *n <= items.len())
                .ok_or_else(|| bad_request("Invalid page token."))?,
        };
        let end = (start + size).min(items.len());
        let next = (end < items.len()).then(|| format!("tmpage{end}"));
        Ok((items[start..end].to_vec(), next))
    }

    fn json(&self) -> Result<serde_json::Map<String, Value>, Response> {
        match serde_json::from_slice::<Value>(self.body) {
            Ok(Value::Object(map)) => Ok(map),
            _ => Err(bad_request("Invalid JSON payload received.")),
        }
    }
}

/// The token's user and scopes; 401 without a live token.
fn authenticate(state: &FakeState, headers: &HeaderMap) -> Result<(String, Vec<String>), Response> {
    let Some(authorization) = headers
        .get("authorization")
        .and_then(|value| value.to_str().ok())
    else {
        return Err(missing_credential());
    };
    let invalid = || {
        error(
            StatusCode::UNAUTHORIZED,
            "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
        )
    };
    let token = match authorization.trim().split_once(' ') {
        Some((scheme, token))
            if scheme.eq_ignore_ascii_case("Bearer") && !token.trim().is_empty() =>
        {
            token.trim()
        }
        _ => return Err(invalid()),
    };
    check_user_access(state, token).map_err(|refused| match refused {
        Refused::Invalid | Refused::Expired | Refused::Revoked => invalid(),
    })
}

fn with_page(mut body: Value, next: Option<String>) -> Value {
    if let Some(next) = next {
        body["nextPageToken"] = json!(next);
    }
    body
}

fn list_accounts(tm: &TagManager, call: &Call<'_>) -> Response {
    if let Err(response) = call.needs(READ) {
        return response;
    }
    let mine: Vec<Value> = tm
        .accounts
        .iter()
        .filter(|account| tm.permission(call.user, &account.id).is_some())
        .map(|account| {
            json!({
                "path": format!("accounts/{}", account.id),
                "accountId": account.id,
                "name": account.name,
                "fingerprint": "1",
                "tagManagerUrl": format!("https://tagmanager.google.com/#/admin/accounts/{}", account.id),
            })
        })
        .collect();
    match call.page(&mine, tm.page_size) {
        Ok((page, next)) => {
            let body = if page.is_empty() {
                json!({})
            } else {
                json!({ "account": page })
            };
            json_response(StatusCode::OK, &with_page(body, next))
        }
        Err(response) => response,
    }
}

fn container_json(container: &Container) -> Value {
    json!({
        "path": container.path(),
        "accountId": container.account_id,
        "containerId": container.id,
        "name": container.name,
        "publicId": container.public_id,
        "usageContext": ["web"],
        "fingerprint": "1",
        "tagManagerUrl": format!(
            "https://tagmanager.google.com/#/container/accounts/{}/containers/{}/",
            container.account_id, container.id
        ),
    })
}

fn list_containers(tm: &TagManager, call: &Call<'_>, account: &str) -> Response {
    if let Err(response) = call.may(tm, READ, account, TagManagerPermission::Read) {
        return response;
    }
    let all: Vec<Value> = tm
        .containers
        .iter()
        .filter(|c| c.account_id == account)
        .map(container_json)
        .collect();
    match call.page(&all, tm.page_size) {
        Ok((page, next)) => {
            let body = if page.is_empty() {
                json!({})
            } else {
                json!({ "container": page })
            };
            json_response(StatusCode::OK, &with_page(body, next))
        }
        Err(response) => response,
    }
}

/// The container, once the call may read it; 404 for one that does not exist.
fn readable<'a>(
    tm: &'a TagManager,
    call: &Call<'_>,
    account: &str,
    container: &str,
    needed: &[&str],
    at_least: TagManagerPermission,
) -> Result<&'a Container, Response> {
    call.may(tm, needed, account, at_least)?;
    tm.containers
        .iter()
        .find(|c| c.account_id == account && c.id == container)
        .ok_or_else(|| error(StatusCode::NOT_FOUND, "Not found or permission denied."))
}

fn get_container(tm: &TagManager, call: &Call<'_>, a: &str, c: &str) -> Response {
    match readable(tm, call, a, c, READ, TagManagerPermission::Read) {
        Ok(container) => json_response(StatusCode::OK, &container_json(container)),
        Err(response) => response,
    }
}

fn version_json(container: &Container, version: &Version) -> Value {
    json!({
        "path": format!("{}/versions/{}", container.path(), version.id),
        "accountId": container.account_id,
        "containerId": container.id,
        "containerVersionId": version.id,
        "name": version.name,
        "container": container_json(container),
        "tag": version.tags,
        "fingerprint": "1",
    })
}

fn live_version(tm: &TagManager, call: &Call<'_>, a: &str, c: &str) -> Response {
    let container = match readable(tm, call, a, c, READ, TagManagerPermission::Read) {
        Ok(container) => container,
        Err(response) => return response,
    };
    let live = container
        .live
        .as_ref()
        .and_then(|id| container.versions.iter().find(|v| &v.id == id));
    match live {
        Some(version) => json_response(StatusCode::OK, &version_json(container, version)),
        None => error(StatusCode::NOT_FOUND, "Not found."),
    }
}

fn workspace_json(container: &Container, workspace: &Workspace) -> Value {
    json!({
        "path": format!("{}/workspaces/{}", container.path(), workspace.id),
        "accountId": container.account_id,
        "containerId": container.id,
        "workspaceId": workspace.id,
        "name": workspace.name,
        "description": workspace.description,
        "fingerprint": "1",
    })
}

fn create_workspace(tm: &mut TagManager, call: &Call<'_>, a: &str, c: &str) -> Response {
    if let Err(response) = readable(tm, call, a, c, EDIT, TagManagerPermission::Publish) {
        return response;
    }
    let body = match call.json() {
        Ok(body) => body,
        Err(response) => return response,
    };
    let Some(name) = body
        .get("name")
        .and_then(Value::as_str)
        .filter(|n| !n.trim().is_empty())
    else {
        return bad_request("Workspace name is required.");
    };
    let id = tm.fresh_id();
    let Some(container) = tm.container_mut(a, c) else {
        return not_found("container");
    };
    if container.workspaces.iter().any(|w| w.name == name) {
        return bad_request("Found entity with duplicate name in this container.");
    }
    // Based on the latest version: its entities are the workspace's to start with, each now
    // addressed under the workspace.
    let base = container.path();
    let tags = container
        .versions
        .last()
        .map(|v| v.tags.clone())
        .unwrap_or_default()
        .into_iter()
        .map(|mut tag| {
            let tag_id = tag["tagId"].as_str().unwrap_or_default().to_owned();
            tag["path"] = json!(format!("{base}/workspaces/{id}/tags/{tag_id}"));
            tag["workspaceId"] = json!(id);
            tag
        })
        .collect();
    let workspace = Workspace {
        id: id.clone(),
        name: name.to_owned(),
        description: body
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned(),
        tags,
    };
    let answer = workspace_json(container, &workspace);
    container.workspaces.push(workspace);
    json_response(StatusCode::OK, &answer)
}

fn list_tags(tm: &TagManager, call: &Call<'_>, a: &str, c: &str, w: &str) -> Response {
    let container = match readable(tm, call, a, c, READ, TagManagerPermission::Read) {
        Ok(container) => container,
        Err(response) => return response,
    };
    let Some(workspace) = container.workspaces.iter().find(|ws| ws.id == w) else {
        return error(StatusCode::NOT_FOUND, "Not found.");
    };
    match call.page(&workspace.tags, tm.page_size) {
        Ok((page, next)) => {
            let body = if page.is_empty() {
                json!({})
            } else {
                json!({ "tag": page })
            };
            json_response(StatusCode::OK, &with_page(body, next))
        }
        Err(response) => response,
    }
}

/// `tags.create` (`tag` none) or `tags.update`.
fn put_tag(
    tm: &mut TagManager,
    call: &Call<'_>,
    a: &str,
    c: &str,
    w: &str,
    tag: Option<&str>,
) -> Response {
    if let Err(response) = readable(tm, call, a, c, EDIT, TagManagerPermission::Publish) {
        return response;
    }
    let body = match call.json() {
        Ok(body) => body,
        Err(response) => return response,
    };
    let Some(name) = body
        .get("name")
        .and_then(Value::as_str)
        .filter(|n| !n.trim().is_empty())
    else {
        return bad_request("Tag name is required.");
    };
    let Some(kind) = body
        .get("type")
        .and_then(Value::as_str)
        .filter(|t| !t.is_empty())
    else {
        return bad_request("Tag type is required.");
    };
    let fresh = tm.fresh_id();
    let Some(container) = tm.container_mut(a, c) else {
        return not_found("container");
    };
    let path = container.path();
    let Some(workspace) = container.workspaces.iter_mut().find(|ws| ws.id == w) else {
        return error(StatusCode::NOT_FOUND, "Not found.");
    };
    let tag_id = match tag {
        Some(id) => {
            if !workspace.tags.iter().any(|t| t["tagId"] == json!(id)) {
                return error(StatusCode::NOT_FOUND, "Not found.");
            }
            id.to_owned()
        }
        None => fresh,
    };
    if workspace
        .tags
        .iter()
        .any(|t| t["name"] == json!(name) && t["tagId"] != json!(tag_id))
    {
        return bad_request("Found entity with duplicate name in this container.");
    }
    let mut stored = json!({
        "path": format!("{path}/workspaces/{w}/tags/{tag_id}"),
        "accountId": a,
        "containerId": c,
        "workspaceId": w,
        "tagId": tag_id,
        "name": name,
        "type": kind,
        "parameter": body.get("parameter").cloned().unwrap_or_else(|| json!([])),
        "fingerprint": "1",
    });
    if let Some(triggers) = body.get("firingTriggerId") {
        stored["firingTriggerId"] = triggers.clone();
    }
    if let Some(paused) = body.get("paused") {
        stored["paused"] = paused.clone();
    }
    workspace.tags.retain(|t| t["tagId"] != json!(tag_id));
    workspace.tags.push(stored.clone());
    json_response(StatusCode::OK, &stored)
}

fn create_version(tm: &mut TagManager, call: &Call<'_>, a: &str, c: &str, w: &str) -> Response {
    if let Err(response) = readable(tm, call, a, c, VERSION, TagManagerPermission::Publish) {
        return response;
    }
    let body = match call.json() {
        Ok(body) => body,
        Err(response) => return response,
    };
    let compiler_error = std::mem::take(&mut tm.compiler_error);
    let id = tm.fresh_id();
    let Some(container) = tm.container_mut(a, c) else {
        return not_found("container");
    };
    let Some(at) = container.workspaces.iter().position(|ws| ws.id == w) else {
        return error(StatusCode::NOT_FOUND, "Not found.");
    };
    if compiler_error {
        return json_response(
            StatusCode::OK,
            &json!({ "compilerError": true, "syncStatus": { "mergeConflict": false, "syncError": true } }),
        );
    }
    let workspace = container.workspaces.remove(at);
    let name = body
        .get("name")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .unwrap_or_else(|| format!("Version {id}"));
    let version = Version {
        id,
        name,
        tags: workspace.tags,
    };
    let answer = version_json(container, &version);
    container.versions.push(version);
    json_response(
        StatusCode::OK,
        &json!({ "containerVersion": answer, "compilerError": false }),
    )
}

fn publish(tm: &mut TagManager, call: &Call<'_>, a: &str, c: &str, v: &str) -> Response {
    if let Err(response) = readable(tm, call, a, c, PUBLISH, TagManagerPermission::Publish) {
        return response;
    }
    if !call.body.is_empty() && call.body != b"null" {
        return bad_request("The request body must be empty.");
    }
    let Some(container) = tm.container_mut(a, c) else {
        return not_found("container");
    };
    let Some(version) = container.versions.iter().find(|ver| ver.id == v).cloned() else {
        return error(StatusCode::NOT_FOUND, "Not found.");
    };
    container.live = Some(version.id.clone());
    container.published.push(version.id.clone());
    json_response(
        StatusCode::OK,
        &json!({ "containerVersion": version_json(container, &version), "compilerError": false }),
    )
}

/// A scheduled failure on a Tag Manager path, in the API's error shape.
pub(crate) fn scheduled(fail: Fail) -> Response {
    match fail {
        Fail::Quota | Fail::QuotaRetryAfter(_) => error(
            StatusCode::TOO_MANY_REQUESTS,
            "Quota exceeded for quota metric 'Queries' of service 'tagmanager.googleapis.com'.",
        ),
        Fail::Internal => error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "Internal error encountered.",
        ),
        Fail::Transient => error(
            StatusCode::SERVICE_UNAVAILABLE,
            "The service is currently unavailable.",
        ),
        Fail::Unauthenticated => missing_credential(),
    }
}

fn fake_tag(tag: &Value) -> FakeTag {
    let html = tag["parameter"].as_array().and_then(|params| {
        params
            .iter()
            .find(|p| p["key"] == json!("html"))
            .and_then(|p| p["value"].as_str())
            .map(str::to_owned)
    });
    FakeTag {
        name: tag["name"].as_str().unwrap_or_default().to_owned(),
        kind: tag["type"].as_str().unwrap_or_default().to_owned(),
        html,
        firing_trigger_ids: tag["firingTriggerId"]
            .as_array()
            .map(|ids| {
                ids.iter()
                    .filter_map(|id| id.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default(),
    }
}

/// `accounts/{a}/containers/{c}` split, or a panic naming the test's mistake.
fn split_path(path: &str) -> (String, String) {
    match path.split('/').collect::<Vec<_>>().as_slice() {
        ["accounts", a, "containers", c] => ((*a).to_owned(), (*c).to_owned()),
        _ => panic!("a container path is accounts/{{a}}/containers/{{c}}, not {path:?}"),
    }
}

impl FakeGoogle {
    /// The Tag Manager API origin (`https://tagmanager.googleapis.com`): calls go to
    /// `{tag_manager_base_url}/tagmanager/v2/...`.
    pub fn tag_manager_base_url(&self) -> String {
        self.base().to_owned()
    }

    /// A Tag Manager account (`account_id` digits) nobody has access to yet.
    pub fn add_tag_manager_account(&self, account_id: &str, name: &str) {
        self.state().tag_manager.accounts.push(Account {
            id: account_id.to_owned(),
            name: name.to_owned(),
            users: Vec::new(),
        });
    }

    /// Gives Google user `user` (or a service account's email) `permission` on the account.
    pub fn grant_tag_manager_access(
        &self,
        user: &str,
        account_id: &str,
        permission: TagManagerPermission,
    ) {
        let mut state = self.state();
        let account = state
            .tag_manager
            .accounts
            .iter_mut()
            .find(|account| account.id == account_id)
            .unwrap_or_else(|| panic!("no Tag Manager account {account_id}"));
        account.users.retain(|(who, _)| who != user);
        account.users.push((user.to_owned(), permission));
    }

    /// A web container in the account, never published.
    pub fn add_tag_manager_container(
        &self,
        account_id: &str,
        container_id: &str,
        name: &str,
        public_id: &str,
    ) {
        self.state().tag_manager.containers.push(Container {
            account_id: account_id.to_owned(),
            id: container_id.to_owned(),
            name: name.to_owned(),
            public_id: public_id.to_owned(),
            workspaces: Vec::new(),
            versions: Vec::new(),
            live: None,
            published: Vec::new(),
        });
    }

    /// Publishes a version of the container holding one Custom HTML tag `tag_name` with `html`
    /// (as if someone had published it in Tag Manager's interface).
    pub fn publish_tag_manager_html(&self, container_path: &str, tag_name: &str, html: &str) {
        let (a, c) = split_path(container_path);
        let mut state = self.state();
        let tm = &mut state.tag_manager;
        let id = tm.fresh_id();
        let tag_id = tm.fresh_id();
        let container = tm
            .container_mut(&a, &c)
            .unwrap_or_else(|| panic!("no container {container_path}"));
        let tag = json!({
            "path": format!("{container_path}/versions/{id}/tags/{tag_id}"),
            "accountId": a, "containerId": c, "tagId": tag_id,
            "name": tag_name, "type": "html",
            "parameter": [{ "type": "template", "key": "html", "value": html }],
            "firingTriggerId": ["2147479553"],
        });
        container.versions.push(Version {
            id: id.clone(),
            name: format!("Published by hand {id}"),
            tags: vec![tag],
        });
        container.live = Some(id.clone());
        container.published.push(id);
    }

    /// The next `create_version` answers `compilerError: true` (and creates nothing).
    pub fn set_tag_manager_compiler_error(&self, on: bool) {
        self.state().tag_manager.compiler_error = on;
    }

    /// Items per page of the Tag Manager lists (2 by default).
    pub fn set_tag_manager_page_size(&self, size: usize) {
        self.state().tag_manager.page_size = size.max(1);
    }

    /// The versions of the container published through the API or by hand, in order.
    pub fn tag_manager_published(&self, container_path: &str) -> Vec<PublishedVersion> {
        let (a, c) = split_path(container_path);
        let state = self.state();
        let Some(container) = state
            .tag_manager
            .containers
            .iter()
            .find(|k| k.account_id == a && k.id == c)
        else {
            return Vec::new();
        };
        container
            .published
            .iter()
            .filter_map(|id| container.versions.iter().find(|v| &v.id == id))
            .map(|version| PublishedVersion {
                version_id: version.id.clone(),
                name: version.name.clone(),
                tags: version.tags.iter().map(fake_tag).collect(),
            })
            .collect()
    }

    /// How many versions the container has (published or not).
    pub fn tag_manager_version_count(&self, container_path: &str) -> usize {
        let (a, c) = split_path(container_path);
        self.state()
            .tag_manager
            .containers
            .iter()
            .find(|k| k.account_id == a && k.id == c)
            .map_or(0, |k| k.versions.len())
    }

    /// The names of the container's open workspaces.
    pub fn tag_manager_workspaces(&self, container_path: &str) -> Vec<String> {
        let (a, c) = split_path(container_path);
        self.state()
            .tag_manager
            .containers
            .iter()
            .find(|k| k.account_id == a && k.id == c)
            .map(|k| k.workspaces.iter().map(|w| w.name.clone()).collect())
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn http() -> reqwest::Client {
        let _ = rustls::crypto::ring::default_provider().install_default();
        reqwest::Client::new()
    }

    async fn call(
        google: &FakeGoogle,
        token: &str,
        method: Method,
        path: &str,
        body: Option<Value>,
    ) -> (u16, Value) {
        let url = format!("{}/tagmanager/v2/{path}", google.tag_manager_base_url());
        let mut request = http().request(method, url).bearer_auth(token);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.expect("fake answers");
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    #[tokio::test]
    async fn lists_page_each_user_sees_their_accounts_and_scopes_gate_writes() {
        let google = FakeGoogle::spawn().await;
        for (id, name) in [("1", "One"), ("2", "Two"), ("3", "Three")] {
            google.add_tag_manager_account(id, name);
            google.grant_tag_manager_access("a@example.com", id, TagManagerPermission::Publish);
        }
        google.add_tag_manager_account("9", "Other");
        google.grant_tag_manager_access("b@example.com", "9", TagManagerPermission::Read);
        google.add_tag_manager_container("1", "11", "Site", "GTM-AAA");
        google.sign_in_as("a@example.com");
        let (read_only, _) = super::super::oauth::issue_offline(
            &mut google.state(),
            vec![TAGMANAGER_READONLY_SCOPE.to_owned()],
        );
        let (all, _) = super::super::oauth::issue_offline(
            &mut google.state(),
            [
                TAGMANAGER_READONLY_SCOPE,
                TAGMANAGER_EDIT_CONTAINERS_SCOPE,
                TAGMANAGER_EDIT_VERSIONS_SCOPE,
                TAGMANAGER_PUBLISH_SCOPE,
            ]
            .map(str::to_owned)
            .to_vec(),
        );

        let (status, first) = call(&google, &read_only, Method::GET, "accounts", None).await;
        assert_eq!(status, 200);
        assert_eq!(first["account"].as_array().unwrap().len(), 2);
        let token = first["nextPageToken"].as_str().unwrap().to_owned();
        let (_, second) = call(
            &google,
            &read_only,
            Method::GET,
            &format!("accounts?pageToken={token}"),
            None,
        )
        .await;
        assert_eq!(second["account"][0]["accountId"], "3");
        assert!(second.get("nextPageToken").is_none());
        let (status, _) = call(
            &google,
            &read_only,
            Method::GET,
            "accounts/9/containers",
            None,
        )
        .await;
        assert_eq!(status, 403);

        let (status, live) = call(
            &google,
            &all,
            Method::GET,
            "accounts/1/containers/11/versions:live",
            None,
        )
        .await;
        assert_eq!(status, 404, "{live}");
        let (status, refused) = call(
            &google,
            &read_only,
            Method::POST,
            "accounts/1/containers/11/workspaces",
            Some(json!({ "name": "w" })),
        )
        .await;
        assert_eq!(status, 403);
        assert_eq!(
            refused["error"]["message"],
            "Request had insufficient authentication scopes."
        );

        let (_, workspace) = call(
            &google,
            &all,
            Method::POST,
            "accounts/1/containers/11/workspaces",
            Some(json!({ "name": "w" })),
        )
        .await;
        let ws = workspace["path"].as_str().unwrap().to_owned();
        let tag = json!({ "name": "t", "type": "html",
            "parameter": [{ "type": "template", "key": "html", "value": "<b>x</b>" }],
            "firingTriggerId": ["2147479553"] });
        let (status, _) = call(
            &google,
            &all,
            Method::POST,
            &format!("{ws}/tags"),
            Some(tag.clone()),
        )
        .await;
        assert_eq!(status, 200);
        let (status, _) = call(
            &google,
            &all,
            Method::POST,
            &format!("{ws}/tags"),
            Some(tag),
        )
        .await;
        assert_eq!(status, 400, "a duplicate name is refused");
        let (_, created) = call(
            &google,
            &all,
            Method::POST,
            &format!("{ws}:create_version"),
            Some(json!({ "name": "v1" })),
        )
        .await;
        assert_eq!(created["compilerError"], false);
        let version = created["containerVersion"]["path"]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(
            google
                .tag_manager_workspaces("accounts/1/containers/11")
                .is_empty()
        );
        let (status, published) = call(
            &google,
            &all,
            Method::POST,
            &format!("{version}:publish"),
            None,
        )
        .await;
        assert_eq!(status, 200);
        assert_eq!(published["containerVersion"]["name"], "v1");
        let live = google.tag_manager_published("accounts/1/containers/11");
        assert_eq!(live.len(), 1);
        assert_eq!(live[0].tags[0].html.as_deref(), Some("<b>x</b>"));
    }
}
