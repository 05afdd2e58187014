//! Accounts and containers: `accounts.list`, `containers.list` and `containers.get`, and the
//! container a call may reach.

use axum::http::StatusCode;
use axum::response::Response;
use serde_json::{Value, json};

use super::READ;
use super::call::Call;
use super::state::{Container, TagManager, TagManagerPermission};
use crate::fakes::google::errors::{error, json_response};

pub(super) fn list_accounts(tm: &TagManager, call: &Call<'_>) -> Response {
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
    call.list_answer("account", &mine, tm.page_size)
}

pub(super) fn container_json(container: &Container) -> Value {
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

pub(super) fn list_containers(tm: &TagManager, call: &Call<'_>, account: &str) -> Response {
    if let Err(response) = call.may(tm, READ, account, TagManagerPermission::Read) {
        return response;
    }
    let all: Vec<Value> = tm
        .containers
        .iter()
        .filter(|c| c.account_id == account)
        .map(container_json)
        .collect();
    call.list_answer("container", &all, tm.page_size)
}

/// The container, once the call may read it; 404 for one that does not exist.
pub(super) fn readable<'a>(
    tm: &'a TagManager,
    call: &Call<'_>,
    account: &str,
    container: &str,
    needed: &[&str],
    at_least: TagManagerPermission,
) -> Result<&'a Container, Response> {
    call.may(tm, needed, account, at_least)?;
    tm.container(account, container)
        .ok_or_else(|| error(StatusCode::NOT_FOUND, "Not found or permission denied."))
}

pub(super) fn get_container(tm: &TagManager, call: &Call<'_>, a: &str, c: &str) -> Response {
    match readable(tm, call, a, c, READ, TagManagerPermission::Read) {
        Ok(container) => json_response(StatusCode::OK, &container_json(container)),
        Err(response) => response,
    }
}
