//! Workspaces and their tags: creating a workspace from the latest version, listing its tags,
//! creating and updating one.

use axum::http::StatusCode;
use axum::response::Response;
use serde_json::{Value, json};

use super::call::Call;
use super::containers::readable;
use super::state::{Container, TagManager, TagManagerPermission, Workspace};
use super::{EDIT, READ};
use crate::fakes::google::errors::{bad_request, error, json_response, not_found};

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

pub(super) fn create_workspace(tm: &mut TagManager, call: &Call<'_>, a: &str, c: &str) -> Response {
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

pub(super) fn list_tags(tm: &TagManager, call: &Call<'_>, a: &str, c: &str, w: &str) -> Response {
    let container = match readable(tm, call, a, c, READ, TagManagerPermission::Read) {
        Ok(container) => container,
        Err(response) => return response,
    };
    let Some(workspace) = container.workspaces.iter().find(|ws| ws.id == w) else {
        return error(StatusCode::NOT_FOUND, "Not found.");
    };
    call.list_answer("tag", &workspace.tags, tm.page_size)
}

/// `tags.create` (`tag` none) or `tags.update`.
pub(super) fn put_tag(
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
