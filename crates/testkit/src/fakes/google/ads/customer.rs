//! `customers/{id}:mutate`: updates of the account's `final_url_suffix` and
//! `auto_tagging_enabled`.

use axum::http::StatusCode;
use axum::response::Response;
use serde_json::{Value, json};

use super::body::{
    Refusal, bool_member, check_mask, check_names, digits, field_mask, member, message,
    response_content_type, string_member,
};
use super::dispatch::Call;
use super::errors::{AdsError, bad_payload, unmodelled};
use crate::fakes::google::state::State as FakeState;

const CUSTOMER_FIELDS: &[&str] = &[
    "resource_name",
    "id",
    "descriptive_name",
    "currency_code",
    "time_zone",
    "tracking_url_template",
    "final_url_suffix",
    "auto_tagging_enabled",
    "has_partners_badge",
    "manager",
    "test_account",
    "call_reporting_setting",
    "conversion_tracking_setting",
    "remarketing_setting",
    "pay_per_conversion_eligibility_failure_reasons",
    "optimization_score",
    "optimization_score_weight",
    "status",
    "location_asset_auto_migration_done",
    "image_asset_auto_migration_done",
    "location_asset_auto_migration_done_date_time",
    "image_asset_auto_migration_done_date_time",
    "customer_agreement_setting",
    "local_services_settings",
    "video_brand_safety_suitability",
    "video_customer",
];

pub(super) fn mutate_customer(
    state: &mut FakeState,
    call: &Call,
    customer: i64,
    body: &[u8],
) -> Response {
    let map = match message(
        body,
        &[
            "customer_id",
            "operation",
            "validate_only",
            "response_content_type",
        ],
        "",
    ) {
        Ok(map) => map,
        Err(response) => return response,
    };
    let header = (|| -> Result<_, Response> {
        Ok((
            bool_member(&map, "validate_only", "")?.unwrap_or(false),
            response_content_type(&map)?,
        ))
    })();
    let (validate_only, mutable_resource) = match header {
        Ok(header) => header,
        Err(response) => return response,
    };
    let operation = match member(&map, "operation") {
        Some(Value::Object(operation)) => operation.clone(),
        None | Some(Value::Null) => {
            return call.fail(
                StatusCode::BAD_REQUEST,
                &[AdsError::new(
                    "requestError",
                    "OPERATION_REQUIRED",
                    "Mutate operation should have either create, update, or remove specified.",
                )
                .at(&[("operation", None)])],
            );
        }
        Some(other) => return bad_payload(&format!("Invalid value at 'operation', {other}")),
    };
    if let Err(response) = check_names(&operation, &["update", "update_mask"], "operation") {
        return response;
    }
    let Some(Value::Object(update)) = member(&operation, "update") else {
        return call.fail(
            StatusCode::BAD_REQUEST,
            &[AdsError::new(
                "requestError",
                "OPERATION_REQUIRED",
                "Mutate operation should have either create, update, or remove specified.",
            )
            .at(&[("operation", None)])],
        );
    };
    if let Err(response) = check_names(update, CUSTOMER_FIELDS, "operation.update") {
        return response;
    }
    let parsed = (|| -> Result<_, Response> {
        Ok((
            field_mask(&operation, "operation.")?,
            string_member(update, "resource_name", "operation.update.")?,
            string_member(update, "final_url_suffix", "operation.update.")?,
            bool_member(update, "auto_tagging_enabled", "operation.update.")?,
        ))
    })();
    let (mask, resource_name, suffix, auto_tagging) = match parsed {
        Ok(parsed) => parsed,
        Err(response) => return response,
    };
    let refuse = |kind: &'static str, code: &'static str, message: &str, field: &'static str| {
        call.fail(
            StatusCode::BAD_REQUEST,
            &[AdsError::new(kind, code, message).at(&[
                ("operation", None),
                ("update", None),
                (field, None),
            ])],
        )
    };
    match check_mask(
        &mask,
        CUSTOMER_FIELDS,
        &["final_url_suffix", "auto_tagging_enabled"],
        ("operation", None),
    ) {
        Ok(()) => {}
        Err(Refusal::Refused(error)) => return call.fail(StatusCode::BAD_REQUEST, &[error]),
        Err(Refusal::Unmodelled(path)) => {
            return unmodelled(&format!("updates of customer.{path}"));
        }
    }
    let expected = format!("customers/{customer}");
    match resource_name.as_deref() {
        None => {
            return refuse(
                "requestError",
                "RESOURCE_NAME_MISSING",
                "Resource name is required for this request.",
                "resource_name",
            );
        }
        Some(name) if name == expected => {}
        Some(name) if name.strip_prefix("customers/").and_then(digits).is_some() => {
            return refuse(
                "mutateError",
                "RESOURCE_NOT_FOUND",
                "Resource was not found.",
                "resource_name",
            );
        }
        Some(_) => {
            return refuse(
                "requestError",
                "RESOURCE_NAME_MALFORMED",
                "Resource name provided is malformed.",
                "resource_name",
            );
        }
    }
    let sets_suffix = mask.iter().any(|p| p == "final_url_suffix");
    if sets_suffix && let Some(suffix) = suffix.as_deref() {
        if suffix.starts_with('?')
            || suffix.starts_with('&')
            || suffix.contains(char::is_whitespace)
            || suffix.contains('#')
        {
            return refuse(
                "urlFieldError",
                "FINAL_URL_SUFFIX_MALFORMED",
                "The final url suffix cannot begin with '?' or '&' characters and must be a valid query string.",
                "final_url_suffix",
            );
        }
        if suffix.contains("{lpurl") || suffix.contains("{ignore}") {
            return refuse(
                "urlFieldError",
                "INVALID_TAG_IN_FINAL_URL_SUFFIX",
                "The final url suffix cannot contain {lpurl} related or {ignore} tags.",
                "final_url_suffix",
            );
        }
    }
    if validate_only {
        return call.ok(&json!({}));
    }
    let Some(account) = state.customers.iter_mut().find(|c| c.id == customer) else {
        return refuse(
            "mutateError",
            "RESOURCE_NOT_FOUND",
            "Resource was not found.",
            "resource_name",
        );
    };
    if sets_suffix {
        // A field in the mask and absent from the resource is cleared.
        account.final_url_suffix = suffix.filter(|s| !s.is_empty());
    }
    if mask.iter().any(|p| p == "auto_tagging_enabled") {
        account.auto_tagging = auto_tagging.unwrap_or(false);
    }
    let mut result = json!({ "resourceName": expected });
    if mutable_resource {
        let mut resource =
            json!({ "resourceName": expected, "autoTaggingEnabled": account.auto_tagging });
        if let Some(suffix) = &account.final_url_suffix {
            resource["finalUrlSuffix"] = json!(suffix);
        }
        result["customer"] = resource;
    }
    call.ok(&json!({ "result": result }))
}
