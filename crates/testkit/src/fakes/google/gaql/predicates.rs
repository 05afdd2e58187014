//! A WHERE condition checked against the catalog and typed (a [`Pred`]), and how it holds on a
//! value; `DURING`'s date ranges.

use std::cmp::Ordering;

use super::catalog::{Family, Kind, kind_of};
use super::parser::is_boolean;
use super::syntax::{CmpOp, Cond, Lit};
use super::values::Val;
use super::{QueryError, fail};
use crate::fakes::day::Day;

#[derive(Debug, Clone)]
enum Test {
    Cmp(CmpOp, Val),
    In(bool, Vec<Val>),
    Like(bool, String),
    Range(Val, Val),
    Null(bool),
}

#[derive(Debug, Clone)]
pub(super) struct Pred {
    pub(super) field: String,
    test: Test,
}

pub(super) fn check_field(
    field: &str,
    allowed: &[Family],
    clause: &str,
) -> Result<Kind, QueryError> {
    let unrecognized = || QueryError {
        code: "UNRECOGNIZED_FIELD",
        message: format!("Unrecognized field in the query: '{field}'."),
    };
    let family = Family::of(field).ok_or_else(unrecognized)?;
    let kind = kind_of(field).ok_or_else(unrecognized)?;
    if !allowed.contains(&family) {
        return match family {
            Family::Metrics => fail(
                "PROHIBITED_METRIC_IN_SELECT_OR_WHERE_CLAUSE",
                format!(
                    "Cannot select or filter on the following metrics: '{field}' (could not support requested resources: 'FROM' resource)"
                ),
            ),
            Family::Segments => fail(
                "PROHIBITED_SEGMENT_IN_SELECT_OR_WHERE_CLAUSE",
                format!("Cannot select or filter on the following segments: '{field}'."),
            ),
            _ if clause == "WHERE" => fail(
                "PROHIBITED_RESOURCE_TYPE_IN_WHERE_CLAUSE",
                format!(
                    "Cannot filter on the field '{field}': its resource is incompatible with the resource in the FROM clause."
                ),
            ),
            _ => fail(
                "PROHIBITED_RESOURCE_TYPE_IN_SELECT_CLAUSE",
                format!(
                    "Cannot select the field '{field}': its resource is incompatible with the resource in the FROM clause."
                ),
            ),
        };
    }
    Ok(kind)
}

fn typed(field: &str, kind: Kind, lit: &Lit) -> Result<Val, QueryError> {
    match (kind, lit) {
        (Kind::Int, Lit::Num(number)) => number.parse::<i64>().map(Val::Int).or_else(|_| {
            fail(
                "BAD_NUMBER",
                format!("Encountered number can not be parsed: '{number}'."),
            )
        }),
        (Kind::Int, _) => fail(
            "BAD_VALUE",
            format!("Value is invalid for the int64 field '{field}': expected a number."),
        ),
        (Kind::Str, Lit::Str(text)) => Ok(Val::Str(text.clone())),
        (Kind::Str, _) => fail(
            "INVALID_STRING_VALUE",
            format!("Value passed for '{field}' was not a string."),
        ),
        (Kind::Bool, Lit::Word(word)) if is_boolean(word) => {
            Ok(Val::Bool(word.eq_ignore_ascii_case("TRUE")))
        }
        (Kind::Bool, _) => fail(
            "BAD_VALUE",
            format!("Value is invalid for the boolean field '{field}': expected TRUE or FALSE."),
        ),
        (Kind::Enum(values), Lit::Word(word) | Lit::Str(word)) => {
            match values.iter().find(|v| *v == word) {
                Some(found) => Ok(Val::Enum(found)),
                None => fail(
                    "BAD_ENUM_CONSTANT",
                    format!(
                        "A condition used in the query references an invalid enum constant: '{word}' for '{field}'."
                    ),
                ),
            }
        }
        (Kind::Enum(_), Lit::Num(number)) => fail(
            "BAD_ENUM_CONSTANT",
            format!(
                "A condition used in the query references an invalid enum constant: '{number}' for '{field}'."
            ),
        ),
        (Kind::Date, Lit::Str(text)) => Day::parse(text).map(Val::Date).ok_or_else(|| QueryError {
            code: "INVALID_DATE_FORMAT",
            message: format!("Invalid date format '{text}'. Expected 'YYYY-MM-DD'."),
        }),
        (Kind::Date, _) => fail(
            "INVALID_DATE_FORMAT",
            format!("Invalid date value for '{field}'. Expected a quoted 'YYYY-MM-DD'."),
        ),
    }
}

fn during(function: &str, today: Day) -> Option<(Day, Day)> {
    let monday = today.plus(-today.weekday());
    let sunday = today.plus(-((today.weekday() + 1) % 7));
    let last_month_end = today.month_start().plus(-1);
    Some(match function {
        "TODAY" => (today, today),
        "YESTERDAY" => (today.plus(-1), today.plus(-1)),
        "LAST_7_DAYS" => (today.plus(-7), today.plus(-1)),
        "LAST_14_DAYS" => (today.plus(-14), today.plus(-1)),
        "LAST_30_DAYS" => (today.plus(-30), today.plus(-1)),
        "THIS_MONTH" => (today.month_start(), today),
        "LAST_MONTH" => (last_month_end.month_start(), last_month_end),
        "THIS_WEEK_MON_TODAY" => (monday, today),
        "THIS_WEEK_SUN_TODAY" => (sunday, today),
        "LAST_WEEK_MON_SUN" => (monday.plus(-7), monday.plus(-1)),
        "LAST_WEEK_SUN_SAT" => (sunday.plus(-7), sunday.plus(-1)),
        "LAST_BUSINESS_WEEK" => (monday.plus(-7), monday.plus(-3)),
        _ => return None,
    })
}

pub(super) fn predicate(cond: &Cond, kind: Kind, today: Day) -> Result<Pred, QueryError> {
    let field = cond.field().to_owned();
    let ordered = matches!(kind, Kind::Int | Kind::Str | Kind::Date);
    let test = match cond {
        Cond::Compare { op, value, .. } => {
            if !ordered && !matches!(op, CmpOp::Eq | CmpOp::Ne) {
                return fail(
                    "OPERATOR_FIELD_MISMATCH",
                    format!(
                        "An operator was provided that is inapplicable to the field being filtered: '{field}'."
                    ),
                );
            }
            Test::Cmp(*op, typed(&field, kind, value)?)
        }
        Cond::In {
            negated, values, ..
        } => Test::In(
            *negated,
            values
                .iter()
                .map(|v| typed(&field, kind, v))
                .collect::<Result<_, _>>()?,
        ),
        Cond::Like {
            negated, pattern, ..
        } => {
            if kind != Kind::Str {
                return fail(
                    "OPERATOR_FIELD_MISMATCH",
                    format!("LIKE is inapplicable to the field '{field}'."),
                );
            }
            match pattern {
                Lit::Str(text) => Test::Like(*negated, text.clone()),
                _ => {
                    return fail(
                        "INVALID_VALUE_WITH_LIKE_OPERATOR",
                        "An invalid value was passed to the LIKE operator.",
                    );
                }
            }
        }
        Cond::Between { low, high, .. } => {
            let bad = || QueryError {
                code: "INVALID_VALUE_WITH_BETWEEN_OPERATOR",
                message: format!(
                    "A value passed to the BETWEEN operator on '{field}' does not parse as a date."
                ),
            };
            let (low, high) = match kind {
                Kind::Date => (
                    typed(&field, kind, low).map_err(|_| bad())?,
                    typed(&field, kind, high).map_err(|_| bad())?,
                ),
                Kind::Int => (typed(&field, kind, low)?, typed(&field, kind, high)?),
                _ => {
                    return fail(
                        "OPERATOR_FIELD_MISMATCH",
                        format!("BETWEEN is inapplicable to the field '{field}'."),
                    );
                }
            };
            if low.compare(&high) == Some(Ordering::Greater) {
                return fail(
                    "DATE_RANGE_TOO_NARROW",
                    "Filters on date/week/month/quarter have a start date after end date.",
                );
            }
            Test::Range(low, high)
        }
        Cond::During { function, .. } => {
            if kind != Kind::Date {
                return fail(
                    "OPERATOR_FIELD_MISMATCH",
                    format!("DURING is inapplicable to the field '{field}'."),
                );
            }
            let (from, to) = during(function, today).ok_or_else(|| QueryError {
                code: "INVALID_VALUE_WITH_DURING_OPERATOR",
                message: format!("The value passed to the DURING operator is not a Date range literal: '{function}'."),
            })?;
            Test::Range(Val::Date(from), Val::Date(to))
        }
        Cond::Null { negated, .. } => Test::Null(*negated),
    };
    Ok(Pred { field, test })
}

fn like(text: &str, pattern: &str) -> bool {
    // `%` any run, `_` one character, `[x]` the character x.
    fn go(text: &[char], pattern: &[char]) -> bool {
        match pattern.first() {
            None => text.is_empty(),
            Some('%') => (0..=text.len()).any(|skip| go(&text[skip..], &pattern[1..])),
            Some('_') => !text.is_empty() && go(&text[1..], &pattern[1..]),
            Some('[') if pattern.len() >= 3 && pattern[2] == ']' => {
                text.first() == Some(&pattern[1]) && go(&text[1..], &pattern[3..])
            }
            Some(c) => text.first() == Some(c) && go(&text[1..], &pattern[1..]),
        }
    }
    let text: Vec<char> = text.chars().collect();
    let pattern: Vec<char> = pattern.chars().collect();
    go(&text, &pattern)
}

impl Pred {
    pub(super) fn holds(&self, actual: Option<&Val>) -> bool {
        match (&self.test, actual) {
            (Test::Null(negated), actual) => actual.is_some() == *negated,
            (_, None) => false,
            (Test::Cmp(op, expected), Some(actual)) => match actual.compare(expected) {
                Some(ordering) => match op {
                    CmpOp::Eq => ordering == Ordering::Equal,
                    CmpOp::Ne => ordering != Ordering::Equal,
                    CmpOp::Gt => ordering == Ordering::Greater,
                    CmpOp::Ge => ordering != Ordering::Less,
                    CmpOp::Lt => ordering == Ordering::Less,
                    CmpOp::Le => ordering != Ordering::Greater,
                },
                None => false,
            },
            (Test::In(negated, values), Some(actual)) => values.contains(actual) != *negated,
            (Test::Like(negated, pattern), Some(Val::Str(text))) => like(text, pattern) != *negated,
            (Test::Like(..), Some(_)) => false,
            (Test::Range(low, high), Some(actual)) => {
                actual.compare(low).is_some_and(|o| o != Ordering::Less)
                    && actual.compare(high).is_some_and(|o| o != Ordering::Greater)
            }
        }
    }

    /// The `[from, to]` days a `segments.date` predicate allows (`None` where unbounded).
    pub(super) fn bounds(&self) -> (Option<Day>, Option<Day>) {
        let day = |v: &Val| match v {
            Val::Date(day) => Some(*day),
            _ => None,
        };
        match &self.test {
            Test::Cmp(CmpOp::Eq, v) => (day(v), day(v)),
            Test::Cmp(CmpOp::Ge, v) => (day(v), None),
            Test::Cmp(CmpOp::Gt, v) => (day(v).map(|d| d.plus(1)), None),
            Test::Cmp(CmpOp::Le, v) => (None, day(v)),
            Test::Cmp(CmpOp::Lt, v) => (None, day(v).map(|d| d.plus(-1))),
            Test::In(false, values) => (
                values.iter().filter_map(day).min(),
                values.iter().filter_map(day).max(),
            ),
            Test::Range(low, high) => (day(low), day(high)),
            _ => (None, None),
        }
    }
}
