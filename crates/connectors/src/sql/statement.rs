//! A statement the connector sends: SQL text built from quoted identifiers and placeholders, and
//! the text parameters bound to them. Values never enter the SQL text.

use super::Dialect;

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Statement {
    pub sql: String,
    pub params: Vec<String>,
    /// How each selected column is decoded, in order.
    pub slots: Vec<Slot>,
}

/// How one selected column is decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Slot {
    Text,
    Int,
}

/// One decoded value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Raw {
    Null,
    Text(String),
    Int(i64),
}

impl Raw {
    pub(crate) fn text(&self) -> Option<&str> {
        match self {
            Raw::Text(text) => Some(text),
            _ => None,
        }
    }

    pub(crate) fn int(&self) -> Option<i64> {
        match self {
            Raw::Int(value) => Some(*value),
            _ => None,
        }
    }
}

/// Builds a statement, numbering placeholders as parameters are bound.
#[derive(Debug)]
pub(crate) struct Builder {
    pub dialect: Dialect,
    sql: String,
    params: Vec<String>,
}

impl Builder {
    pub(crate) fn new(dialect: Dialect) -> Self {
        Self {
            dialect,
            sql: String::new(),
            params: Vec::new(),
        }
    }

    pub(crate) fn push(&mut self, sql: &str) -> &mut Self {
        self.sql.push_str(sql);
        self
    }

    /// Binds a value and answers its placeholder (to be pushed by the caller, possibly inside
    /// a cast).
    pub(crate) fn bind(&mut self, value: String) -> String {
        self.params.push(value);
        self.dialect.placeholder(self.params.len())
    }

    pub(crate) fn finish(self, slots: Vec<Slot>) -> Statement {
        Statement {
            sql: self.sql,
            params: self.params,
            slots,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_follow_the_bound_parameters() {
        let mut builder = Builder::new(Dialect::Postgres);
        let first = builder.bind("a".to_owned());
        let second = builder.bind("b".to_owned());
        builder.push(&format!("SELECT {first}, {second}"));
        let statement = builder.finish(vec![Slot::Text, Slot::Text]);
        assert_eq!(statement.sql, "SELECT $1, $2");
        assert_eq!(statement.params, vec!["a", "b"]);
    }
}
