//! A small Google Ads Query Language (GAQL) parser and evaluator: the subset the fake's
//! resources need, checked as Google's grammar and query errors document.
//!
//! Grammar (Google's, minus `CONTAINS …` and `REGEXP_MATCH`, which answer a `QUERY_ERROR`):
//! `SELECT field (, field)* FROM resource [WHERE cond (AND cond)*] [ORDER BY field [ASC|DESC]
//! (, …)*] [LIMIT n] [PARAMETERS name = value (, …)*]`, a condition being `field op value` with
//! `= != > >= < <= IN (…) NOT IN (…) LIKE NOT LIKE BETWEEN a AND b DURING FUNCTION IS [NOT] NULL`.
//! Keywords are case-insensitive; strings take single or double quotes; enum constants may be
//! bare or quoted.
//!
//! Semantics:
//! - rows are the FROM resource's entities of the customer; fields of attributed resources
//!   (a campaign's budget, an ad group's campaign, the customer) join through the entity,
//! - with metrics selected and no segment, one row per entity with its metrics summed over the
//!   days the `segments.date` conditions keep (zero rows included),
//! - with `segments.date` selected, one row per entity and day with data; rows whose selected
//!   metrics are all zero are left out, and a finite date range must be filtered,
//! - each row carries the selected fields (camelCase, nested) plus the `resourceName` of the
//!   FROM resource and of each attributed resource a field was selected from (unless
//!   `PARAMETERS omit_unselected_resource_names = true`); int64 values are JSON strings.

mod catalog;
mod clauses;
mod entities;
mod lexer;
mod parser;
mod predicates;
mod render;
mod run;
mod syntax;
mod values;

pub(crate) use render::camel;
pub(crate) use run::run;

/// A `QueryError` code and message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct QueryError {
    pub code: &'static str,
    pub message: String,
}

fn fail<T>(code: &'static str, message: impl Into<String>) -> Result<T, QueryError> {
    Err(QueryError {
        code,
        message: message.into(),
    })
}

#[cfg(test)]
mod tests;
