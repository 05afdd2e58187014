//! A parsed query: its clauses, its conditions and their literal values (untyped until checked
//! against the field catalog).

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Lit {
    Str(String),
    Num(String),
    Word(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CmpOp {
    Eq,
    Ne,
    Gt,
    Ge,
    Lt,
    Le,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Cond {
    Compare {
        field: String,
        op: CmpOp,
        value: Lit,
    },
    In {
        field: String,
        negated: bool,
        values: Vec<Lit>,
    },
    Like {
        field: String,
        negated: bool,
        pattern: Lit,
    },
    Between {
        field: String,
        low: Lit,
        high: Lit,
    },
    During {
        field: String,
        function: String,
    },
    Null {
        field: String,
        negated: bool,
    },
}

impl Cond {
    pub(super) fn field(&self) -> &str {
        match self {
            Self::Compare { field, .. }
            | Self::In { field, .. }
            | Self::Like { field, .. }
            | Self::Between { field, .. }
            | Self::During { field, .. }
            | Self::Null { field, .. } => field,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Query {
    pub select: Vec<String>,
    pub from: String,
    pub conditions: Vec<Cond>,
    /// `(field, descending)`.
    pub order: Vec<(String, bool)>,
    pub limit: Option<usize>,
    pub omit_unselected_resource_names: bool,
}
