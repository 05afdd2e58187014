//! The query's clauses in order: `SELECT … FROM … [WHERE …] [ORDER BY …] [LIMIT n]
//! [PARAMETERS …]`.

use super::lexer::{Tok, lex, show};
use super::parser::{Parser, is_boolean};
use super::syntax::Query;
use super::{QueryError, fail};

/// Parses a query (the grammar only; [`run`] checks the fields against the resources).
pub(super) fn parse(text: &str) -> Result<Query, QueryError> {
    let mut p = Parser {
        toks: lex(text)?,
        at: 0,
    };
    if !p.eat_keyword("SELECT") {
        return fail(
            "EXPECTED_SELECT",
            "SELECT is missing at the beginning of query.",
        );
    }
    let mut select = vec![p.field()?];
    while p.peek() == Some(&Tok::Comma) {
        p.at += 1;
        select.push(p.field()?);
    }
    if !p.eat_keyword("FROM") {
        return match p.peek() {
            None => fail("EXPECTED_FROM", "Missing FROM clause."),
            Some(other) => fail(
                "EXPECTED_FROM",
                format!("Missing FROM clause; found {}.", show(other)),
            ),
        };
    }
    let from = match p.next() {
        Some(Tok::Word(word))
            if word.starts_with(|c: char| c.is_ascii_lowercase())
                && word.chars().all(|c| c.is_ascii_alphabetic() || c == '_') =>
        {
            word
        }
        Some(other) => {
            return fail(
                "BAD_RESOURCE_TYPE_IN_FROM_CLAUSE",
                format!(
                    "Invalid resource type was specified in the FROM clause: {}.",
                    show(&other)
                ),
            );
        }
        None => return Err(Parser::end()),
    };
    let mut conditions = Vec::new();
    if p.eat_keyword("WHERE") {
        conditions.push(p.condition()?);
        while p.eat_keyword("AND") {
            conditions.push(p.condition()?);
        }
    }
    let mut order = Vec::new();
    if p.eat_keyword("ORDER") {
        if !p.eat_keyword("BY") {
            return fail("EXPECTED_BY", "Expecting ORDER BY to have BY.");
        }
        loop {
            let field = p.field()?;
            let descending = if p.eat_keyword("DESC") {
                true
            } else {
                p.eat_keyword("ASC");
                false
            };
            order.push((field, descending));
            if p.peek() == Some(&Tok::Comma) {
                p.at += 1;
            } else {
                break;
            }
        }
    }
    let mut limit = None;
    if p.eat_keyword("LIMIT") {
        match p.next() {
            Some(Tok::Num(number)) => match number.parse::<usize>() {
                Ok(0) => {
                    return fail(
                        "LIMIT_VALUE_TOO_LOW",
                        "The value passed to the limit clause is too low.",
                    );
                }
                Ok(n) if !number.starts_with('0') => limit = Some(n),
                _ => {
                    return fail(
                        "BAD_LIMIT_VALUE",
                        format!("Limit value is invalid: '{number}'."),
                    );
                }
            },
            Some(other) => {
                return fail(
                    "BAD_LIMIT_VALUE",
                    format!("Limit value is invalid: {}.", show(&other)),
                );
            }
            None => return Err(Parser::end()),
        }
    }
    let mut omit_unselected_resource_names = false;
    if p.eat_keyword("PARAMETERS") {
        loop {
            let name = match p.next() {
                Some(Tok::Word(word)) => word,
                Some(other) => {
                    return fail(
                        "BAD_PARAMETER_NAME",
                        format!("Parameter unknown or not supported: {}.", show(&other)),
                    );
                }
                None => return Err(Parser::end()),
            };
            if p.next() != Some(Tok::Op("=")) {
                return fail(
                    "BAD_PARAMETER_VALUE",
                    format!("Parameter {name} must be followed by = and a value."),
                );
            }
            let value = match p.next() {
                Some(Tok::Word(word)) if is_boolean(&word) => word.eq_ignore_ascii_case("TRUE"),
                _ => {
                    return fail(
                        "BAD_PARAMETER_VALUE",
                        format!("Parameter {name} takes true or false."),
                    );
                }
            };
            match name.as_str() {
                "omit_unselected_resource_names" => omit_unselected_resource_names = value,
                "include_drafts" => {}
                _ => {
                    return fail(
                        "BAD_PARAMETER_NAME",
                        format!("Parameter unknown or not supported: '{name}'."),
                    );
                }
            }
            if p.peek() == Some(&Tok::Comma) {
                p.at += 1;
            } else {
                break;
            }
        }
    }
    if let Some(extra) = p.peek() {
        return fail(
            "UNEXPECTED_INPUT",
            format!("Query has an unexpected extra part: {}.", show(extra)),
        );
    }
    Ok(Query {
        select,
        from,
        conditions,
        order,
        limit,
        omit_unselected_resource_names,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fakes::google::gaql::syntax::{Cond, Lit};

    #[test]
    fn parses_the_documented_grammar() {
        let query = parse(
            "select campaign.id, metrics.cost_micros FROM campaign WHERE campaign.status IN ('ENABLED', PAUSED) \
             AND segments.date BETWEEN '2024-05-01' AND \"2024-05-31\" AND metrics.clicks >= 1 \
             ORDER BY metrics.cost_micros DESC, campaign.id LIMIT 10 PARAMETERS include_drafts = true",
        )
        .expect("parses");
        assert_eq!(query.select, ["campaign.id", "metrics.cost_micros"]);
        assert_eq!(query.from, "campaign");
        assert_eq!(query.conditions.len(), 3);
        assert_eq!(
            query.order,
            [
                ("metrics.cost_micros".to_owned(), true),
                ("campaign.id".to_owned(), false)
            ]
        );
        assert_eq!(query.limit, Some(10));
        assert_eq!(
            query.conditions[1],
            Cond::Between {
                field: "segments.date".into(),
                low: Lit::Str("2024-05-01".into()),
                high: Lit::Str("2024-05-31".into())
            }
        );
    }

    #[test]
    fn malformed_queries_answer_the_documented_codes() {
        let code = |q: &str| parse(q).err().map(|e| e.code);
        assert_eq!(code("campaign.id FROM campaign"), Some("EXPECTED_SELECT"));
        assert_eq!(code("SELECT campaign.id"), Some("EXPECTED_FROM"));
        assert_eq!(
            code("SELECT campaign.id FROM campaign ORDER campaign.id"),
            Some("EXPECTED_BY")
        );
        assert_eq!(
            code("SELECT campaign.id FROM campaign WHERE campaign.name = 'x"),
            Some("STRING_NOT_TERMINATED")
        );
        assert_eq!(
            code(
                "SELECT campaign.id FROM campaign WHERE segments.date BETWEEN '2024-01-01' '2024-01-02'"
            ),
            Some("EXPECTED_AND")
        );
        assert_eq!(
            code("SELECT campaign.id FROM campaign WHERE campaign.id IN 1"),
            Some("EXPECTED_LIST")
        );
        assert_eq!(
            code("SELECT campaign.id FROM campaign WHERE campaign.id IN ()"),
            Some("PROHIBITED_EMPTY_LIST_IN_CONDITION")
        );
        assert_eq!(
            code("SELECT campaign.id FROM campaign LIMIT 0"),
            Some("LIMIT_VALUE_TOO_LOW")
        );
        assert_eq!(
            code("SELECT campaign.id FROM campaign LIMIT ten"),
            Some("BAD_LIMIT_VALUE")
        );
        assert_eq!(
            code("SELECT campaign.id, FROM campaign"),
            Some("BAD_FIELD_NAME")
        );
        assert_eq!(
            code("SELECT campaign.id FROM campaign extra"),
            Some("UNEXPECTED_INPUT")
        );
        assert_eq!(
            code("SELECT campaign.id FROM campaign WHERE campaign.id ~ 1"),
            Some("BAD_SYMBOL")
        );
    }
}
