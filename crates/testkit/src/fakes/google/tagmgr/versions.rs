//! Container versions: the live one, creating one from a workspace (which closes it), and
//! publishing one.

use axum::http::StatusCode;
use axum::response::Response;
use serde_json::{Value, json};

use super::call::Call;
use super::containers::{container_json, readable};
use super::state::{Container, TagManager, TagManagerPermission, Version};
use super::{PUBLISH, READ, VERSION};
use crate::fakes::google::errors::{bad_request, error, json_response, not_found};

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

pub(super) fn live_version(tm: &TagManager, call: &Call<'_>, a: &str, c: &str) -> Response {
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

pub(super) fn create_version(
    tm: &mut TagManager,
    call: &Call<'_>,
    a: &str,
    c: &str,
    w: &str,
) -> Response {
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

pub(super) fn publish(tm: &mut TagManager, call: &Call<'_>, a: &str, c: &str, v: &str) -> Response {
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
