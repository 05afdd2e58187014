//! `campaignBudgets:mutate`: updates of a budget's `amount_micros` and `name`, each operation
//! checked as Google checks it, refused all together or (with `partial_failure`) one by one.

use axum::http::StatusCode;
use axum::response::Response;
use serde_json::{Value, json};

use super::accounts::{BudgetStatus, minimum_unit_micros};
use super::body::{
    Refusal, bool_member, check_mask, check_names, digits, field_mask, int64_member, member,
    message, response_content_type, string_member,
};
use super::dispatch::Call;
use super::errors::{AdsError, bad_payload, failure_detail, unmodelled};
use crate::fakes::google::state::State as FakeState;

const BUDGET_FIELDS: &[&str] = &[
    "resource_name",
    "id",
    "name",
    "amount_micros",
    "total_amount_micros",
    "status",
    "delivery_method",
    "explicitly_shared",
    "reference_count",
    "has_recommended_budget",
    "recommended_budget_amount_micros",
    "period",
    "recommended_budget_estimated_change_weekly_clicks",
    "recommended_budget_estimated_change_weekly_cost_micros",
    "recommended_budget_estimated_change_weekly_interactions",
    "recommended_budget_estimated_change_weekly_views",
    "type",
    "aligned_bidding_strategy_id",
];

/// A budget change that passed its checks.
struct BudgetChange {
    index: usize,
    budget: i64,
    amount_micros: Option<i64>,
    name: Option<String>,
}

pub(super) fn mutate_budgets(
    state: &mut FakeState,
    call: &Call,
    customer: i64,
    body: &[u8],
) -> Response {
    let names = [
        "customer_id",
        "operations",
        "partial_failure",
        "validate_only",
        "response_content_type",
    ];
    let map = match message(body, &names, "") {
        Ok(map) => map,
        Err(response) => return response,
    };
    let header = (|| -> Result<_, Response> {
        Ok((
            bool_member(&map, "partial_failure", "")?.unwrap_or(false),
            bool_member(&map, "validate_only", "")?.unwrap_or(false),
            response_content_type(&map)?,
        ))
    })();
    let (partial, validate_only, mutable_resource) = match header {
        Ok(header) => header,
        Err(response) => return response,
    };
    let operations = match member(&map, "operations") {
        Some(Value::Array(operations)) if !operations.is_empty() => operations.clone(),
        Some(Value::Array(_)) | None | Some(Value::Null) => {
            return call.fail(
                StatusCode::BAD_REQUEST,
                &[AdsError::new(
                    "requestError",
                    "REQUIRED_FIELD_MISSING",
                    "Required field is missing: operations.",
                )
                .at(&[("operations", None)])],
            );
        }
        Some(other) => return bad_payload(&format!("Invalid value at 'operations', {other}")),
    };
    let currency = state
        .customer(customer)
        .map(|c| c.currency.clone())
        .unwrap_or_default();
    let mut errors = Vec::new();
    let mut changes = Vec::new();
    for (index, operation) in operations.iter().enumerate() {
        let at = format!("operations[{index}].");
        let Value::Object(operation) = operation else {
            return bad_payload(&format!(
                "Invalid value at 'operations[{index}]', {operation}"
            ));
        };
        if let Err(response) = check_names(
            operation,
            &["update_mask", "create", "update", "remove"],
            &format!("operations[{index}]"),
        ) {
            return response;
        }
        if member(operation, "create").is_some() || member(operation, "remove").is_some() {
            return unmodelled("campaign budget create or remove operations (updates only)");
        }
        let Some(Value::Object(update)) = member(operation, "update") else {
            errors.push(
                AdsError::new(
                    "requestError",
                    "OPERATION_REQUIRED",
                    "Mutate operation should have either create, update, or remove specified.",
                )
                .at(&[("operations", Some(index))]),
            );
            continue;
        };
        if let Err(response) = check_names(
            update,
            BUDGET_FIELDS,
            &format!("operations[{index}].update"),
        ) {
            return response;
        }
        let parsed = (|| -> Result<_, Response> {
            let mask = field_mask(operation, &at)?;
            let resource_name = string_member(update, "resource_name", &format!("{at}update."))?;
            let amount = int64_member(update, "amount_micros", &format!("{at}update."))?;
            let name = string_member(update, "name", &format!("{at}update."))?;
            Ok((mask, resource_name, amount, name))
        })();
        let (mask, resource_name, amount, name) = match parsed {
            Ok(parsed) => parsed,
            Err(response) => return response,
        };
        match budget_change(
            state,
            customer,
            &currency,
            index,
            &mask,
            resource_name,
            amount,
            name,
        ) {
            Ok(change) => changes.push(change),
            Err(Refusal::Refused(error)) => errors.push(error),
            Err(Refusal::Unmodelled(field)) => {
                return unmodelled(&format!("updates of campaign_budget.{field}"));
            }
        }
    }
    if !errors.is_empty() && !partial {
        return call.fail(StatusCode::BAD_REQUEST, &errors);
    }
    if validate_only {
        return call.ok(&json!({}));
    }
    let mut results: Vec<Value> = vec![json!({}); operations.len()];
    for change in changes {
        let Some(budget) = state
            .budgets
            .iter_mut()
            .find(|b| b.customer == customer && b.id == change.budget)
        else {
            continue;
        };
        if let Some(amount) = change.amount_micros {
            budget.amount_micros = amount;
        }
        if let Some(name) = change.name {
            budget.name = name;
        }
        let resource_name = format!("customers/{customer}/campaignBudgets/{}", budget.id);
        let mut result = json!({ "resourceName": resource_name });
        if mutable_resource {
            result["campaignBudget"] = json!({
                "resourceName": resource_name,
                "name": budget.name,
                "amountMicros": budget.amount_micros.to_string(),
                "status": budget.status.wire(),
                "deliveryMethod": "STANDARD",
                "explicitlyShared": budget.explicitly_shared,
                "period": "DAILY",
            });
        }
        results[change.index] = result;
    }
    let mut body = json!({ "results": results });
    if !errors.is_empty() {
        let first = errors
            .first()
            .map(|e| e.message.clone())
            .unwrap_or_default();
        body["partialFailureError"] = json!({
            "code": 3,
            "message": if errors.len() > 1 { format!("Multiple errors in 'details'. First error: {first}") } else { first },
            "details": [failure_detail(&call.version, &call.request_id, &errors)],
        });
    }
    call.ok(&body)
}

#[allow(clippy::too_many_arguments)]
fn budget_change(
    state: &FakeState,
    customer: i64,
    currency: &str,
    index: usize,
    mask: &[String],
    resource_name: Option<String>,
    amount: Option<i64>,
    name: Option<String>,
) -> Result<BudgetChange, Refusal> {
    let here = |field: &'static str| -> Vec<(&'static str, Option<usize>)> {
        vec![("operations", Some(index)), ("update", None), (field, None)]
    };
    let refuse = |kind: &'static str, code: &'static str, message: &str, field: &'static str| {
        let path = here(field);
        Refusal::Refused(AdsError::new(kind, code, message).at(&path))
    };
    check_mask(
        mask,
        BUDGET_FIELDS,
        &["amount_micros", "name"],
        ("operations", Some(index)),
    )?;
    let Some(resource_name) = resource_name else {
        return Err(refuse(
            "requestError",
            "RESOURCE_NAME_MISSING",
            "Resource name is required for this request.",
            "resource_name",
        ));
    };
    let parsed = resource_name
        .strip_prefix("customers/")
        .and_then(|rest| rest.split_once("/campaignBudgets/"))
        .and_then(|(owner, id)| Some((digits(owner)?, digits(id)?)));
    let Some((owner, budget_id)) = parsed else {
        return Err(refuse(
            "requestError",
            "RESOURCE_NAME_MALFORMED",
            "Resource name provided is malformed.",
            "resource_name",
        ));
    };
    let budget = state
        .budget(customer, budget_id)
        .filter(|_| owner == customer);
    let Some(budget) = budget else {
        return Err(refuse(
            "mutateError",
            "RESOURCE_NOT_FOUND",
            "Resource was not found.",
            "resource_name",
        ));
    };
    if budget.status == BudgetStatus::Removed {
        return Err(refuse(
            "campaignBudgetError",
            "CAMPAIGN_BUDGET_REMOVED",
            "The requested campaign budget no longer exists.",
            "resource_name",
        ));
    }
    let mut change = BudgetChange {
        index,
        budget: budget.id,
        amount_micros: None,
        name: None,
    };
    if mask.iter().any(|p| p == "amount_micros") {
        let Some(amount) = amount else {
            return Err(refuse(
                "fieldError",
                "REQUIRED",
                "The required field was not present.",
                "amount_micros",
            ));
        };
        if amount < 0 {
            return Err(refuse(
                "campaignBudgetError",
                "NEGATIVE_MONEY_AMOUNT",
                "A money amount was negative.",
                "amount_micros",
            ));
        }
        if amount == 0 {
            return Err(refuse(
                "campaignBudgetError",
                "MONEY_AMOUNT_LESS_THAN_CURRENCY_MINIMUM_CPC",
                "A money amount was less than the minimum CPC for currency.",
                "amount_micros",
            ));
        }
        if amount % minimum_unit_micros(currency) != 0 {
            return Err(refuse(
                "campaignBudgetError",
                "NON_MULTIPLE_OF_MINIMUM_CURRENCY_UNIT",
                "A money amount was not a multiple of a minimum unit.",
                "amount_micros",
            ));
        }
        change.amount_micros = Some(amount);
    }
    if mask.iter().any(|p| p == "name") {
        let name = name.filter(|n| !n.trim().is_empty());
        let Some(name) = name else {
            return Err(refuse(
                "fieldError",
                "REQUIRED",
                "The required field was not present.",
                "name",
            ));
        };
        if state
            .budgets
            .iter()
            .any(|b| b.customer == customer && b.id != budget.id && b.name == name)
        {
            return Err(refuse(
                "campaignBudgetError",
                "DUPLICATE_NAME",
                "A campaign budget with this name already exists.",
                "name",
            ));
        }
        change.name = Some(name);
    }
    Ok(change)
}
