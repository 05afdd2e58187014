//! GAQL's tokens: words (keywords, field and resource names, enum constants), numbers, quoted
//! strings (with `\\`, `\'` and `\"` escapes), commas, parentheses and comparison operators.

use super::{QueryError, fail};

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Tok {
    Word(String),
    Num(String),
    Str(String),
    Comma,
    Open,
    Close,
    Op(&'static str),
}

pub(super) fn lex(text: &str) -> Result<Vec<Tok>, QueryError> {
    let chars: Vec<char> = text.chars().collect();
    let mut toks = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len()
                && (chars[i].is_ascii_alphanumeric() || chars[i] == '_' || chars[i] == '.')
            {
                i += 1;
            }
            toks.push(Tok::Word(chars[start..i].iter().collect()));
        } else if c.is_ascii_digit()
            || (c == '-' && chars.get(i + 1).is_some_and(char::is_ascii_digit))
        {
            let start = i;
            i += 1;
            while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '.') {
                i += 1;
            }
            toks.push(Tok::Num(chars[start..i].iter().collect()));
        } else if c == '\'' || c == '"' {
            let mut value = String::new();
            i += 1;
            loop {
                match chars.get(i) {
                    None => {
                        return fail(
                            "STRING_NOT_TERMINATED",
                            "Query contains unterminated string.",
                        );
                    }
                    Some('\n') => {
                        return fail(
                            "PROHIBITED_NEWLINE_IN_STRING",
                            "Query has a string containing a newline character.",
                        );
                    }
                    Some('\\') => match chars.get(i + 1) {
                        Some(escaped @ ('\\' | '\'' | '"')) => {
                            value.push(*escaped);
                            i += 2;
                        }
                        _ => {
                            return fail(
                                "BAD_ESCAPE_SEQUENCE",
                                "Query contains an invalid escape sequence.",
                            );
                        }
                    },
                    Some(q) if *q == c => {
                        i += 1;
                        break;
                    }
                    Some(other) => {
                        value.push(*other);
                        i += 1;
                    }
                }
            }
            toks.push(Tok::Str(value));
        } else {
            let next = chars.get(i + 1).copied();
            let (tok, width) = match (c, next) {
                (',', _) => (Tok::Comma, 1),
                ('(', _) => (Tok::Open, 1),
                (')', _) => (Tok::Close, 1),
                ('!', Some('=')) => (Tok::Op("!="), 2),
                ('>', Some('=')) => (Tok::Op(">="), 2),
                ('<', Some('=')) => (Tok::Op("<="), 2),
                ('=', _) => (Tok::Op("="), 1),
                ('>', _) => (Tok::Op(">"), 1),
                ('<', _) => (Tok::Op("<"), 1),
                _ => {
                    return fail(
                        "BAD_SYMBOL",
                        format!("Non-ASCII or unexpected symbol '{c}' outside of strings."),
                    );
                }
            };
            toks.push(tok);
            i += width;
        }
    }
    Ok(toks)
}

/// A token as Google's error messages quote it.
pub(super) fn show(tok: &Tok) -> String {
    match tok {
        Tok::Word(word) => format!("'{word}'"),
        Tok::Num(number) => format!("'{number}'"),
        Tok::Str(text) => format!("'{text}'"),
        Tok::Comma => "','".to_owned(),
        Tok::Open => "'('".to_owned(),
        Tok::Close => "')'".to_owned(),
        Tok::Op(op) => format!("'{op}'"),
    }
}
