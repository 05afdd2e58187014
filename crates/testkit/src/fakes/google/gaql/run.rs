//! Running a query: check it, gather the FROM resource's rows (with metrics per day or summed),
//! filter, order, limit and render them.

use std::cmp::Ordering;

use serde_json::Value;

use super::catalog::resource;
use super::clauses::parse;
use super::entities::{daily, entities};
use super::predicates::{Pred, check_field, predicate};
use super::render::{camel_path, render};
use super::values::{Row, Val, value};
use super::{QueryError, fail};
use crate::fakes::google::ads::Metrics;
use crate::fakes::google::state::State;

/// What a query answered: every row (LIMIT applied) and the response's `fieldMask`.
#[derive(Debug, Clone)]
pub(crate) struct Answer {
    pub rows: Vec<Value>,
    pub field_mask: String,
    /// The rows matched before LIMIT (`totalResultsCount`).
    pub total: usize,
}

/// Runs `text` against customer `customer`'s data.
pub(crate) fn run(state: &State, customer: i64, text: &str) -> Result<Answer, QueryError> {
    let query = parse(text)?;
    let Some(customer) = state.customer(customer) else {
        return fail(
            "QUERY_ERROR",
            format!("Customer {customer} is not known to the fake."),
        );
    };
    let Some((main, allowed)) = resource(&query.from) else {
        return fail(
            "BAD_RESOURCE_TYPE_IN_FROM_CLAUSE",
            format!(
                "Invalid resource type was specified in the FROM clause: '{}'.",
                query.from
            ),
        );
    };
    for field in &query.select {
        check_field(field, allowed, "SELECT")?;
    }
    for (field, _) in &query.order {
        check_field(field, allowed, "ORDER BY")?;
    }
    let today = state.today();
    let mut preds = Vec::new();
    for cond in &query.conditions {
        let kind = check_field(cond.field(), allowed, "WHERE")?;
        preds.push(predicate(cond, kind, today)?);
    }
    let is_metric = |field: &str| field.starts_with("metrics.");
    let metrics_selected: Vec<&String> = query.select.iter().filter(|f| is_metric(f)).collect();
    let wants_metrics = !metrics_selected.is_empty() || preds.iter().any(|p| is_metric(&p.field));
    let date_selected = query.select.iter().any(|f| f == "segments.date");
    if wants_metrics && state.is_manager(customer.id) {
        return fail(
            "REQUESTED_METRICS_FOR_MANAGER",
            "Metrics cannot be requested for a manager account. To retrieve metrics, issue separate requests against each client account under the manager account.",
        );
    }
    let (date_preds, other): (Vec<Pred>, Vec<Pred>) =
        preds.into_iter().partition(|p| p.field == "segments.date");
    let (metric_preds, entity_preds): (Vec<Pred>, Vec<Pred>) =
        other.into_iter().partition(|p| is_metric(&p.field));
    if date_selected {
        let from = date_preds.iter().filter_map(|p| p.bounds().0).max();
        let to = date_preds.iter().filter_map(|p| p.bounds().1).min();
        if from.is_none() || to.is_none() {
            return fail(
                "EXPECTED_FILTERS_ON_DATE_RANGE",
                "Missing filters on date related fields: a finite date range must be specified in the WHERE clause when selecting segments.date.",
            );
        }
    }

    let mut rows = Vec::new();
    for ctx in entities(state, customer, main) {
        let plain = Row {
            ctx,
            metrics: Metrics::default(),
            date: None,
        };
        if !entity_preds
            .iter()
            .all(|p| p.holds(value(state, &p.field, &plain).as_ref()))
        {
            continue;
        }
        if !wants_metrics && !date_selected {
            rows.push(plain);
            continue;
        }
        let days = daily(state, &ctx, main, &date_preds);
        if date_selected {
            for (day, metrics) in days {
                let row = Row {
                    ctx,
                    metrics,
                    date: Some(day),
                };
                let all_zero = metrics_selected
                    .iter()
                    .all(|f| value(state, f, &row) == Some(Val::Int(0)));
                if metrics_selected.is_empty() || !all_zero {
                    rows.push(row);
                }
            }
        } else {
            let mut sum = Metrics::default();
            for metrics in days.values() {
                sum.add(*metrics);
            }
            rows.push(Row {
                ctx,
                metrics: sum,
                date: None,
            });
        }
    }
    rows.retain(|row| {
        metric_preds
            .iter()
            .all(|p| p.holds(value(state, &p.field, row).as_ref()))
    });
    if !query.order.is_empty() {
        rows.sort_by(|a, b| {
            for (field, descending) in &query.order {
                let (x, y) = (value(state, field, a), value(state, field, b));
                let ordering = match (&x, &y) {
                    (Some(x), Some(y)) => x.compare(y).unwrap_or(Ordering::Equal),
                    (None, Some(_)) => Ordering::Less,
                    (Some(_), None) => Ordering::Greater,
                    (None, None) => Ordering::Equal,
                };
                let ordering = if *descending {
                    ordering.reverse()
                } else {
                    ordering
                };
                if ordering != Ordering::Equal {
                    return ordering;
                }
            }
            Ordering::Equal
        });
    }
    let total = rows.len();
    if let Some(limit) = query.limit {
        rows.truncate(limit);
    }
    let rendered = rows
        .iter()
        .map(|row| render(state, &query, main, row))
        .collect();
    let field_mask = query
        .select
        .iter()
        .map(|f| camel_path(f))
        .collect::<Vec<_>>()
        .join(",");
    Ok(Answer {
        rows: rendered,
        field_mask,
        total,
    })
}
