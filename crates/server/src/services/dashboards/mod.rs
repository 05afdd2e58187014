//! Stored dashboards: a product's named widget specs, listed, created (from a full spec, a
//! prompt the [`composer`] turns into one, or blank), edited and deleted for good. Every change
//! is audited (`dashboard.create`, `dashboard.update`, `dashboard.delete`) in the transaction
//! that makes it. A dashboard is found through the caller's account only, so another
//! account's dashboard answers 404 on every route, as an unknown id does.
//!
//! The rules of the spec itself live in `payback_domain::dashboard_spec`; the ones of the
//! dashboard around it (name, description, prompt) here, so every door checks the same.

pub mod composer;
mod prompt_vocabulary;

use payback_domain::Timestamp;
use payback_domain::dashboard_spec::DashboardSpec;
use payback_domain::validation::check_length;
use payback_store::dashboards::{self, DashboardEdit, DashboardRow, NewDashboard};
use payback_store::products::{self as product_rows, ProductRow};
use serde::Serialize;
use serde_json::json;
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};
use crate::services::acting::Caller;
use crate::services::{audit, products};
use crate::state::AppState;

use self::composer::ComposedDashboard;

/// `name`, in characters; not blank, stored trimmed.
pub const NAME_MAX_CHARS: usize = 80;
/// `description`, in characters.
pub const DESCRIPTION_MAX_CHARS: usize = 300;
/// `prompt`, in characters; not blank.
pub const PROMPT_MIN_CHARS: usize = 3;
pub const PROMPT_MAX_CHARS: usize = 500;
/// A product holds at most this many dashboards, so its list is read whole and stays bounded.
pub const MAX_PER_PRODUCT: i64 = 200;

/// The spec's Dashboard.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DashboardView {
    pub id: String,
    pub product_slug: String,
    pub name: String,
    pub description: Option<String>,
    pub spec: DashboardSpec,
    /// Who created it: a person's email, or `keeper` for an API key.
    pub created_by: String,
    /// Who edited it last; null until someone does.
    pub updated_by: Option<String>,
    pub created_at: String,
    pub updated_at: String,
}

/// A dashboard to create: from `spec` when given (then `prompt` is ignored), else composed
/// from `prompt`, else blank.
#[derive(Debug, Clone)]
pub struct NewDashboardInput {
    pub name: String,
    pub description: Option<String>,
    pub spec: Option<DashboardSpec>,
    pub prompt: Option<String>,
}

/// An edit; `None` leaves a field as it is, `description: Some(None)` clears it.
#[derive(Debug, Clone, Default)]
pub struct DashboardEditInput {
    pub name: Option<String>,
    pub description: Option<Option<String>>,
    pub spec: Option<DashboardSpec>,
}

fn bad(field: &str, message: impl std::fmt::Display) -> ApiError {
    ApiError::bad_request(format!("{field}: {message}"))
}

/// 1-80 characters, not only whitespace; answers it trimmed. The length is counted as sent,
/// as the OpenAPI document states it.
fn check_name(name: &str) -> ApiResult<String> {
    check_length(name, 1, NAME_MAX_CHARS).map_err(|msg| bad("name", msg))?;
    payback_domain::validation::check_one_line_field("name", name)
        .map_err(ApiError::bad_request)?;
    let trimmed = name.trim();
    if trimmed.is_empty() {
        return Err(bad("name", "must not be blank"));
    }
    Ok(trimmed.to_owned())
}

fn check_description(description: Option<&str>) -> ApiResult<()> {
    if let Some(text) = description {
        check_length(text, 0, DESCRIPTION_MAX_CHARS).map_err(|msg| bad("description", msg))?;
    }
    Ok(())
}

fn check_prompt(prompt: &str) -> ApiResult<()> {
    check_length(prompt, PROMPT_MIN_CHARS, PROMPT_MAX_CHARS).map_err(|msg| bad("prompt", msg))?;
    if prompt.trim().is_empty() {
        return Err(bad("prompt", "must not be blank"));
    }
    Ok(())
}

/// The spec checked by every rule of the domain, errors naming `spec.<field>`.
fn check_spec(spec: &DashboardSpec) -> ApiResult<()> {
    spec.check()
        .map_err(|err| bad(&format!("spec.{}", err.field), err.message))
}

fn spec_text(spec: &DashboardSpec) -> ApiResult<String> {
    serde_json::to_string(spec).map_err(ApiError::internal)
}

fn view(row: DashboardRow, product: &ProductRow) -> ApiResult<DashboardView> {
    // Specs are checked before they are written; one that does not read back is a bug.
    let spec: DashboardSpec = serde_json::from_str(&row.spec)
        .map_err(|err| ApiError::internal(format!("dashboard {} spec: {err}", row.id)))?;
    Ok(DashboardView {
        id: row.id,
        product_slug: product.slug.clone(),
        name: row.name,
        description: row.description,
        spec,
        created_by: row.created_by,
        updated_by: row.updated_by,
        created_at: Timestamp::from_millis(row.created_at).to_rfc3339(),
        updated_at: Timestamp::from_millis(row.updated_at).to_rfc3339(),
    })
}

/// What history keeps of a dashboard: enough to tell which one and what it showed.
fn summary(row: &DashboardRow, spec: &DashboardSpec) -> serde_json::Value {
    let widgets: Vec<&str> = spec.widgets.iter().map(|w| w.id.as_str()).collect();
    json!({ "name": row.name, "description": row.description, "widgets": widgets })
}

fn stored_spec(row: &DashboardRow) -> ApiResult<DashboardSpec> {
    serde_json::from_str(&row.spec)
        .map_err(|err| ApiError::internal(format!("dashboard {} spec: {err}", row.id)))
}

/// The product's dashboards, oldest first.
pub async fn list(state: &AppState, caller: &Caller, slug: &str) -> ApiResult<Vec<DashboardView>> {
    let scope = caller.scope()?;
    let product = products::find(state, scope, slug).await?;
    dashboards::list(&state.store, scope, &product.id)
        .await?
        .into_iter()
        .map(|row| view(row, &product))
        .collect()
}

/// Composes the spec `prompt` asks for, saving nothing (404 for another account's product).
pub async fn generate(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    prompt: &str,
) -> ApiResult<ComposedDashboard> {
    check_prompt(prompt)?;
    products::find(state, caller.scope()?, slug).await?;
    Ok(composer::compose(prompt))
}

/// Creates a dashboard: a given spec exactly as sent, else one composed from the prompt, else
/// a blank one. Audited as `dashboard.create` with where its spec came from.
pub async fn create(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    input: NewDashboardInput,
) -> ApiResult<DashboardView> {
    let scope = caller.scope()?;
    let name = check_name(&input.name)?;
    check_description(input.description.as_deref())?;
    let (spec, source, matched) = match (input.spec, input.prompt) {
        (Some(spec), _) => {
            check_spec(&spec)?;
            (spec, "spec", None)
        }
        (None, Some(prompt)) => {
            check_prompt(&prompt)?;
            let composed = composer::compose(&prompt);
            (composed.spec, "prompt", Some(composed.matched))
        }
        (None, None) => (DashboardSpec::blank(), "blank", None),
    };
    let product = products::find(state, scope, slug).await?;
    let actor = caller.actor();
    let now = state.clock.now();
    let text = spec_text(&spec)?;
    let mut tx = state.store.begin().await?;
    let new = NewDashboard {
        product_id: &product.id,
        name: &name,
        description: input.description.as_deref(),
        spec: &text,
        created_by: &actor.who,
    };
    let row = dashboards::insert(&mut tx, scope, new, MAX_PER_PRODUCT, now)
        .await?
        .ok_or_else(|| {
            ApiError::Conflict(format!(
                "a product holds at most {MAX_PER_PRODUCT} dashboards; delete one first"
            ))
        })?;
    let mut payload = summary(&row, &spec);
    payload["dashboard_id"] = json!(row.id);
    payload["source"] = json!(source);
    if let Some(matched) = matched {
        payload["matched"] = json!(matched);
    }
    audit::record_product(&mut tx, &actor, &product, "dashboard.create", payload, now).await?;
    tx.commit().await?;
    view(row, &product)
}

/// Edits the caller's dashboard (at least one field). Audited as `dashboard.update` with the
/// fields changed, before and after.
pub async fn update(
    state: &AppState,
    caller: &Caller,
    id: &str,
    edit: DashboardEditInput,
) -> ApiResult<DashboardView> {
    let scope = caller.scope()?;
    if edit.name.is_none() && edit.description.is_none() && edit.spec.is_none() {
        return Err(ApiError::bad_request(
            "nothing to update: send name, description or spec",
        ));
    }
    let name = edit.name.as_deref().map(check_name).transpose()?;
    check_description(edit.description.as_ref().and_then(Option::as_deref))?;
    let spec = match &edit.spec {
        Some(spec) => {
            check_spec(spec)?;
            Some(spec_text(spec)?)
        }
        None => None,
    };
    let product = owning_product(state, caller, id).await?;
    let actor = caller.actor();
    let now = state.clock.now();
    let mut tx = state.store.begin().await?;
    let before = dashboards::find_for_change(&mut tx, scope, id)
        .await?
        .ok_or_else(|| ApiError::not_found("dashboard"))?;
    let change = DashboardEdit {
        name: name.as_deref(),
        description: edit.description.as_ref().map(Option::as_deref),
        spec: spec.as_deref(),
        updated_by: &actor.who,
    };
    let after = dashboards::update(&mut tx, scope, id, change, now)
        .await?
        .ok_or_else(|| ApiError::not_found("dashboard"))?;
    let changed: Vec<&str> = [
        ("name", name.is_some()),
        ("description", edit.description.is_some()),
        ("spec", edit.spec.is_some()),
    ]
    .into_iter()
    .filter_map(|(field, given)| given.then_some(field))
    .collect();
    let payload = json!({
        "dashboard_id": after.id,
        "changed": changed,
        "before": summary(&before, &stored_spec(&before)?),
        "after": summary(&after, &stored_spec(&after)?),
    });
    audit::record_product(&mut tx, &actor, &product, "dashboard.update", payload, now).await?;
    tx.commit().await?;
    view(after, &product)
}

/// Deletes the caller's dashboard: the row is gone, history keeps what it was. Audited as
/// `dashboard.delete`.
pub async fn delete(state: &AppState, caller: &Caller, id: &str) -> ApiResult<()> {
    let scope = caller.scope()?;
    let product = owning_product(state, caller, id).await?;
    let actor = caller.actor();
    let now = state.clock.now();
    let mut tx = state.store.begin().await?;
    // Another deletion may have come first: then this one finds nothing, as a second one would.
    let deleted = dashboards::delete(&mut tx, scope, id)
        .await?
        .ok_or_else(|| ApiError::not_found("dashboard"))?;
    let mut payload = summary(&deleted, &stored_spec(&deleted)?);
    payload["dashboard_id"] = json!(deleted.id);
    audit::record_product(&mut tx, &actor, &product, "dashboard.delete", payload, now).await?;
    tx.commit().await?;
    Ok(())
}

/// The product of the caller's dashboard `id`: 404 when the caller's account has no such
/// dashboard (another account's included). Read before the change's transaction opens.
async fn owning_product(state: &AppState, caller: &Caller, id: &str) -> ApiResult<ProductRow> {
    let scope = caller.scope()?;
    let row = dashboards::find(&state.store, scope, id)
        .await?
        .ok_or_else(|| ApiError::not_found("dashboard"))?;
    // A product takes its dashboards with it, so it is there while the dashboard is.
    product_rows::find_by_id(&state.store, scope, &row.product_id)
        .await?
        .ok_or_else(|| ApiError::not_found("dashboard"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(result: ApiResult<impl std::fmt::Debug>) -> String {
        match result {
            Err(err) => err.to_string(),
            Ok(value) => format!("accepted {value:?}"),
        }
    }

    #[test]
    fn names_descriptions_and_prompts_are_checked_by_name() {
        assert_eq!(check_name("  Weekly  ").ok(), Some("Weekly".to_owned()));
        assert_eq!(check_name(&"n".repeat(80)).ok(), Some("n".repeat(80)));
        assert_eq!(
            message(check_name("")),
            "name: must be 1-80 characters, got 0"
        );
        assert_eq!(message(check_name("   ")), "name: must not be blank");
        assert!(message(check_name(&"n".repeat(81))).starts_with("name: must be 1-80"));
        assert!(check_description(Some(&"d".repeat(300))).is_ok());
        assert!(check_description(None).is_ok());
        assert_eq!(
            message(check_description(Some(&"d".repeat(301)))),
            "description: must be at most 300 characters, got 301"
        );
        assert!(check_prompt("cac").is_ok());
        assert!(check_prompt(&"p".repeat(500)).is_ok());
        assert!(message(check_prompt("ab")).starts_with("prompt: must be 3-500"));
        assert!(message(check_prompt(&"p".repeat(501))).starts_with("prompt: must be 3-500"));
        assert_eq!(message(check_prompt("    ")), "prompt: must not be blank");
    }

    #[test]
    fn spec_errors_name_the_field_under_spec() {
        let spec: DashboardSpec = serde_json::from_value(json!({"widgets": [
            {"id": "a", "type": "queue"},
            {"id": "b", "type": "queue", "layout": {"x": 10, "y": 0, "w": 3, "h": 2}}
        ]}))
        .unwrap_or_default();
        assert_eq!(
            message(check_spec(&spec)),
            "spec.widgets[1].layout.w: x + w must be at most 12 (the grid's columns), got 10 + 3"
        );
    }
}
