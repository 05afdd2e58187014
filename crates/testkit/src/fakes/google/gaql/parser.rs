//! The token cursor the clause parser walks, and the grammar of one field, literal, list and
//! condition.

use super::lexer::{Tok, show};
use super::syntax::{CmpOp, Cond, Lit};
use super::{QueryError, fail};

pub(super) struct Parser {
    pub(super) toks: Vec<Tok>,
    pub(super) at: usize,
}

impl Parser {
    pub(super) fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at)
    }

    pub(super) fn next(&mut self) -> Option<Tok> {
        let tok = self.toks.get(self.at).cloned();
        self.at += 1;
        tok
    }

    fn is_keyword(&self, keyword: &str) -> bool {
        matches!(self.peek(), Some(Tok::Word(word)) if word.eq_ignore_ascii_case(keyword))
    }

    pub(super) fn eat_keyword(&mut self, keyword: &str) -> bool {
        let found = self.is_keyword(keyword);
        if found {
            self.at += 1;
        }
        found
    }

    pub(super) fn end() -> QueryError {
        QueryError {
            code: "UNEXPECTED_END_OF_QUERY",
            message: "Query is incomplete and cannot be parsed.".to_owned(),
        }
    }

    pub(super) fn field(&mut self) -> Result<String, QueryError> {
        match self.next() {
            Some(Tok::Word(word)) if is_field_name(&word) && !is_keyword(&word) => Ok(word),
            Some(other) => fail(
                "BAD_FIELD_NAME",
                format!("Field name is invalid: {}.", show(&other)),
            ),
            None => Err(Self::end()),
        }
    }

    fn literal(&mut self) -> Result<Lit, QueryError> {
        match self.next() {
            Some(Tok::Str(text)) => Ok(Lit::Str(text)),
            Some(Tok::Num(text)) => Ok(Lit::Num(text)),
            Some(Tok::Word(word)) if !is_keyword(&word) || is_boolean(&word) => Ok(Lit::Word(word)),
            Some(Tok::Open) => fail(
                "EXPECTED_SINGLE_VALUE",
                "A list was passed as a value to a condition whose operator expects a single value.",
            ),
            Some(other) => fail("BAD_VALUE", format!("Value is invalid: {}.", show(&other))),
            None => Err(Self::end()),
        }
    }

    fn list(&mut self) -> Result<Vec<Lit>, QueryError> {
        match self.next() {
            Some(Tok::Open) => {}
            Some(_) => {
                return fail(
                    "EXPECTED_LIST",
                    "The operator used in the conditions requires the value to be a list.",
                );
            }
            None => return Err(Self::end()),
        }
        if self.peek() == Some(&Tok::Close) {
            return fail(
                "PROHIBITED_EMPTY_LIST_IN_CONDITION",
                "A Condition was found with an empty list.",
            );
        }
        let mut values = vec![self.literal()?];
        loop {
            match self.next() {
                Some(Tok::Comma) => values.push(self.literal()?),
                Some(Tok::Close) => return Ok(values),
                Some(other) => {
                    return fail(
                        "UNEXPECTED_INPUT",
                        format!("Query has an unexpected extra part: {}.", show(&other)),
                    );
                }
                None => return Err(Self::end()),
            }
        }
    }

    pub(super) fn condition(&mut self) -> Result<Cond, QueryError> {
        let field = self.field()?;
        let op = match self.next() {
            Some(op) => op,
            None => return Err(Self::end()),
        };
        let cond = match op {
            Tok::Op(symbol) => {
                let op = match symbol {
                    "=" => CmpOp::Eq,
                    "!=" => CmpOp::Ne,
                    ">" => CmpOp::Gt,
                    ">=" => CmpOp::Ge,
                    "<" => CmpOp::Lt,
                    _ => CmpOp::Le,
                };
                Cond::Compare {
                    field,
                    op,
                    value: self.literal()?,
                }
            }
            Tok::Word(word) => match word.to_ascii_uppercase().as_str() {
                "IN" => Cond::In {
                    field,
                    negated: false,
                    values: self.list()?,
                },
                "LIKE" => Cond::Like {
                    field,
                    negated: false,
                    pattern: self.literal()?,
                },
                "NOT" => match self.next() {
                    Some(Tok::Word(next)) if next.eq_ignore_ascii_case("IN") => Cond::In {
                        field,
                        negated: true,
                        values: self.list()?,
                    },
                    Some(Tok::Word(next)) if next.eq_ignore_ascii_case("LIKE") => Cond::Like {
                        field,
                        negated: true,
                        pattern: self.literal()?,
                    },
                    Some(Tok::Word(next)) if next.eq_ignore_ascii_case("REGEXP_MATCH") => {
                        return unsupported("NOT REGEXP_MATCH");
                    }
                    _ => return fail("BAD_OPERATOR", "Invalid operator encountered after NOT."),
                },
                "BETWEEN" => {
                    let low = self.literal().map_err(|_| QueryError {
                        code: "EXPECTED_VALUE_WITH_BETWEEN_OPERATOR",
                        message: "Missing one or both values with BETWEEN operator.".to_owned(),
                    })?;
                    if !self.eat_keyword("AND") {
                        return fail(
                            "EXPECTED_AND",
                            "Expected AND between values with BETWEEN operator.",
                        );
                    }
                    let high = self.literal().map_err(|_| QueryError {
                        code: "EXPECTED_VALUE_WITH_BETWEEN_OPERATOR",
                        message: "Missing one or both values with BETWEEN operator.".to_owned(),
                    })?;
                    Cond::Between { field, low, high }
                }
                "DURING" => match self.next() {
                    Some(Tok::Word(function)) => Cond::During { field, function },
                    Some(_) => {
                        return fail(
                            "INVALID_VALUE_WITH_DURING_OPERATOR",
                            "The value passed to the DURING operator is not a Date range literal.",
                        );
                    }
                    None => return Err(Self::end()),
                },
                "IS" => {
                    let negated = self.eat_keyword("NOT");
                    if !self.eat_keyword("NULL") {
                        return fail(
                            "BAD_OPERATOR",
                            "Invalid operator encountered: IS must be followed by NULL or NOT NULL.",
                        );
                    }
                    Cond::Null { field, negated }
                }
                "CONTAINS" => return unsupported("CONTAINS"),
                "REGEXP_MATCH" => return unsupported("REGEXP_MATCH"),
                _ => {
                    return fail(
                        "BAD_OPERATOR",
                        format!("Invalid operator encountered: {word}."),
                    );
                }
            },
            other => {
                return fail(
                    "BAD_OPERATOR",
                    format!("Invalid operator encountered: {}.", show(&other)),
                );
            }
        };
        Ok(cond)
    }
}

fn unsupported<T>(operator: &str) -> Result<T, QueryError> {
    fail(
        "QUERY_ERROR",
        format!("The {operator} operator is not supported by this fake of the Google Ads API."),
    )
}

const KEYWORDS: &[&str] = &[
    "SELECT",
    "FROM",
    "WHERE",
    "AND",
    "ORDER",
    "BY",
    "ASC",
    "DESC",
    "LIMIT",
    "PARAMETERS",
    "IN",
    "NOT",
    "LIKE",
    "BETWEEN",
    "DURING",
    "IS",
    "NULL",
    "CONTAINS",
    "REGEXP_MATCH",
];

fn is_keyword(word: &str) -> bool {
    KEYWORDS.iter().any(|k| k.eq_ignore_ascii_case(word))
}

pub(super) fn is_boolean(word: &str) -> bool {
    word.eq_ignore_ascii_case("TRUE") || word.eq_ignore_ascii_case("FALSE")
}

/// `[a-z] ([a-zA-Z0-9._])*`
fn is_field_name(word: &str) -> bool {
    word.starts_with(|c: char| c.is_ascii_lowercase())
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_')
}
