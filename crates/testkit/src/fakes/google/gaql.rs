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

use std::cmp::Ordering;
use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::state::{
    Ad, AdGroup, BreakdownKey, Budget, BudgetStatus, Campaign, Customer, Keyword, Metrics, State,
};
use crate::fakes::day::Day;

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

// ---- lexing --------------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Word(String),
    Num(String),
    Str(String),
    Comma,
    Open,
    Close,
    Op(&'static str),
}

fn lex(text: &str) -> Result<Vec<Tok>, QueryError> {
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

// ---- parsing -------------------------------------------------------------------------------

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
    fn field(&self) -> &str {
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

struct Parser {
    toks: Vec<Tok>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at)
    }

    fn next(&mut self) -> Option<Tok> {
        let tok = self.toks.get(self.at).cloned();
        self.at += 1;
        tok
    }

    fn is_keyword(&self, keyword: &str) -> bool {
        matches!(self.peek(), Some(Tok::Word(word)) if word.eq_ignore_ascii_case(keyword))
    }

    fn eat_keyword(&mut self, keyword: &str) -> bool {
        let found = self.is_keyword(keyword);
        if found {
            self.at += 1;
        }
        found
    }

    fn end() -> QueryError {
        QueryError {
            code: "UNEXPECTED_END_OF_QUERY",
            message: "Query is incomplete and cannot be parsed.".to_owned(),
        }
    }

    fn field(&mut self) -> Result<String, QueryError> {
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

    fn condition(&mut self) -> Result<Cond, QueryError> {
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

fn is_boolean(word: &str) -> bool {
    word.eq_ignore_ascii_case("TRUE") || word.eq_ignore_ascii_case("FALSE")
}

/// `[a-z] ([a-zA-Z0-9._])*`
fn is_field_name(word: &str) -> bool {
    word.starts_with(|c: char| c.is_ascii_lowercase())
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_')
}

fn show(tok: &Tok) -> String {
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

/// Parses a query (the grammar only; [`run`] checks the fields against the resources).
pub(crate) fn parse(text: &str) -> Result<Query, QueryError> {
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

// ---- the field catalog ---------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Family {
    Customer,
    CustomerClient,
    Campaign,
    CampaignBudget,
    AdGroup,
    AdGroupAd,
    AdGroupCriterion,
    KeywordView,
    Metrics,
    Segments,
}

impl Family {
    fn of(field: &str) -> Option<Self> {
        Some(match field.split('.').next()? {
            "customer" => Self::Customer,
            "customer_client" => Self::CustomerClient,
            "campaign" => Self::Campaign,
            "campaign_budget" => Self::CampaignBudget,
            "ad_group" => Self::AdGroup,
            "ad_group_ad" => Self::AdGroupAd,
            "ad_group_criterion" => Self::AdGroupCriterion,
            "keyword_view" => Self::KeywordView,
            "metrics" => Self::Metrics,
            "segments" => Self::Segments,
            _ => return None,
        })
    }

    fn prefix(self) -> &'static str {
        match self {
            Self::Customer => "customer",
            Self::CustomerClient => "customer_client",
            Self::Campaign => "campaign",
            Self::CampaignBudget => "campaign_budget",
            Self::AdGroup => "ad_group",
            Self::AdGroupAd => "ad_group_ad",
            Self::AdGroupCriterion => "ad_group_criterion",
            Self::KeywordView => "keyword_view",
            Self::Metrics => "metrics",
            Self::Segments => "segments",
        }
    }
}

/// The FROM resources the fake answers: the main family and the families selectable with it.
fn resource(name: &str) -> Option<(Family, &'static [Family])> {
    use Family::*;
    Some(match name {
        "customer" => (Customer, &[Customer, Metrics, Segments]),
        "customer_client" => (CustomerClient, &[CustomerClient, Customer]),
        "campaign" => (
            Campaign,
            &[Campaign, CampaignBudget, Customer, Metrics, Segments],
        ),
        "campaign_budget" => (CampaignBudget, &[CampaignBudget, Customer]),
        "ad_group" => (AdGroup, &[AdGroup, Campaign, Customer, Metrics, Segments]),
        "ad_group_ad" => (
            AdGroupAd,
            &[AdGroupAd, AdGroup, Campaign, Customer, Metrics, Segments],
        ),
        "ad_group_criterion" => (
            AdGroupCriterion,
            &[AdGroupCriterion, AdGroup, Campaign, Customer],
        ),
        "keyword_view" => (
            KeywordView,
            &[
                KeywordView,
                AdGroupCriterion,
                AdGroup,
                Campaign,
                Customer,
                Metrics,
                Segments,
            ],
        ),
        _ => return None,
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Int,
    Str,
    Bool,
    Enum(&'static [&'static str]),
    Date,
}

const ENTITY_STATUS: &[&str] = &["ENABLED", "PAUSED", "REMOVED", "UNKNOWN", "UNSPECIFIED"];
const CUSTOMER_STATUS: &[&str] = &[
    "ENABLED",
    "CANCELED",
    "SUSPENDED",
    "CLOSED",
    "UNKNOWN",
    "UNSPECIFIED",
];
const BUDGET_STATUS: &[&str] = &["ENABLED", "REMOVED", "UNKNOWN", "UNSPECIFIED"];
const CHANNEL: &[&str] = &[
    "SEARCH",
    "DISPLAY",
    "SHOPPING",
    "HOTEL",
    "VIDEO",
    "MULTI_CHANNEL",
    "LOCAL",
    "SMART",
    "PERFORMANCE_MAX",
    "LOCAL_SERVICES",
    "TRAVEL",
    "DEMAND_GEN",
    "UNKNOWN",
    "UNSPECIFIED",
];
const DELIVERY: &[&str] = &["STANDARD", "ACCELERATED", "UNKNOWN", "UNSPECIFIED"];
const PERIOD: &[&str] = &["DAILY", "CUSTOM_PERIOD", "UNKNOWN", "UNSPECIFIED"];
const BUDGET_TYPE: &[&str] = &[
    "STANDARD",
    "FIXED_CPA",
    "SMART_CAMPAIGN",
    "LOCAL_SERVICES",
    "UNKNOWN",
    "UNSPECIFIED",
];
const CRITERION_TYPE: &[&str] = &[
    "KEYWORD",
    "PLACEMENT",
    "MOBILE_APP_CATEGORY",
    "MOBILE_APPLICATION",
    "DEVICE",
    "LOCATION",
    "LISTING_GROUP",
    "AD_SCHEDULE",
    "AGE_RANGE",
    "GENDER",
    "INCOME_RANGE",
    "PARENTAL_STATUS",
    "YOUTUBE_VIDEO",
    "YOUTUBE_CHANNEL",
    "USER_LIST",
    "PROXIMITY",
    "TOPIC",
    "LISTING_SCOPE",
    "LANGUAGE",
    "IP_BLOCK",
    "CONTENT_LABEL",
    "CARRIER",
    "USER_INTEREST",
    "WEBPAGE",
    "OPERATING_SYSTEM_VERSION",
    "APP_PAYMENT_MODEL",
    "MOBILE_DEVICE",
    "CUSTOM_AFFINITY",
    "CUSTOM_INTENT",
    "LOCATION_GROUP",
    "CUSTOM_AUDIENCE",
    "COMBINED_AUDIENCE",
    "KEYWORD_THEME",
    "AUDIENCE",
    "LOCAL_SERVICE_ID",
    "BRAND",
    "BRAND_LIST",
    "LIFE_EVENT",
    "UNKNOWN",
    "UNSPECIFIED",
];
const MATCH_TYPE: &[&str] = &["EXACT", "PHRASE", "BROAD", "UNKNOWN", "UNSPECIFIED"];

/// The fields the fake knows, with their types.
fn kind_of(field: &str) -> Option<Kind> {
    use Kind::*;
    Some(match field {
        "customer.resource_name"
        | "customer.descriptive_name"
        | "customer.currency_code"
        | "customer.time_zone"
        | "customer.final_url_suffix" => Str,
        "customer.id" => Int,
        "customer.auto_tagging_enabled" | "customer.manager" | "customer.test_account" => Bool,
        "customer.status" => Enum(CUSTOMER_STATUS),

        "customer_client.resource_name"
        | "customer_client.client_customer"
        | "customer_client.descriptive_name"
        | "customer_client.currency_code"
        | "customer_client.time_zone" => Str,
        "customer_client.id" | "customer_client.level" => Int,
        "customer_client.manager" | "customer_client.hidden" | "customer_client.test_account" => {
            Bool
        }
        "customer_client.status" => Enum(CUSTOMER_STATUS),

        "campaign.resource_name" | "campaign.name" | "campaign.campaign_budget" => Str,
        "campaign.id" => Int,
        "campaign.status" => Enum(ENTITY_STATUS),
        "campaign.advertising_channel_type" => Enum(CHANNEL),

        "campaign_budget.resource_name" | "campaign_budget.name" => Str,
        "campaign_budget.id"
        | "campaign_budget.amount_micros"
        | "campaign_budget.reference_count" => Int,
        "campaign_budget.explicitly_shared" => Bool,
        "campaign_budget.status" => Enum(BUDGET_STATUS),
        "campaign_budget.delivery_method" => Enum(DELIVERY),
        "campaign_budget.period" => Enum(PERIOD),
        "campaign_budget.type" => Enum(BUDGET_TYPE),

        "ad_group.resource_name" | "ad_group.name" | "ad_group.campaign" => Str,
        "ad_group.id" => Int,
        "ad_group.status" => Enum(ENTITY_STATUS),

        "ad_group_ad.resource_name"
        | "ad_group_ad.ad_group"
        | "ad_group_ad.ad.resource_name"
        | "ad_group_ad.ad.name" => Str,
        "ad_group_ad.ad.id" => Int,
        "ad_group_ad.status" => Enum(ENTITY_STATUS),

        "ad_group_criterion.resource_name"
        | "ad_group_criterion.ad_group"
        | "ad_group_criterion.keyword.text" => Str,
        "ad_group_criterion.criterion_id" => Int,
        "ad_group_criterion.negative" => Bool,
        "ad_group_criterion.status" => Enum(ENTITY_STATUS),
        "ad_group_criterion.type" => Enum(CRITERION_TYPE),
        "ad_group_criterion.keyword.match_type" => Enum(MATCH_TYPE),

        "keyword_view.resource_name" => Str,

        "metrics.cost_micros" | "metrics.impressions" | "metrics.clicks" => Int,

        "segments.date" => Date,
        _ => return None,
    })
}

/// What a row is about.
#[derive(Debug, Clone, Copy)]
struct Ctx<'a> {
    customer: &'a Customer,
    client: Option<(&'a Customer, i64)>,
    campaign: Option<&'a Campaign>,
    budget: Option<&'a Budget>,
    ad_group: Option<&'a AdGroup>,
    ad: Option<&'a Ad>,
    keyword: Option<&'a Keyword>,
}

#[derive(Debug, Clone, Copy)]
struct Row<'a> {
    ctx: Ctx<'a>,
    metrics: Metrics,
    date: Option<Day>,
}

#[derive(Debug, Clone, PartialEq)]
enum Val {
    Int(i64),
    Str(String),
    Bool(bool),
    Enum(&'static str),
    Date(Day),
}

impl Val {
    fn to_json(&self) -> Value {
        match self {
            // int64 is a JSON string in the proto3 JSON mapping.
            Self::Int(n) => Value::String(n.to_string()),
            Self::Str(text) => Value::String(text.clone()),
            Self::Bool(b) => Value::Bool(*b),
            Self::Enum(word) => Value::String((*word).to_owned()),
            Self::Date(day) => Value::String(day.to_string()),
        }
    }

    fn compare(&self, other: &Self) -> Option<Ordering> {
        match (self, other) {
            (Self::Int(a), Self::Int(b)) => Some(a.cmp(b)),
            (Self::Str(a), Self::Str(b)) => Some(a.cmp(b)),
            (Self::Bool(a), Self::Bool(b)) => Some(a.cmp(b)),
            (Self::Enum(a), Self::Enum(b)) => Some(a.cmp(b)),
            (Self::Date(a), Self::Date(b)) => Some(a.cmp(b)),
            _ => None,
        }
    }
}

fn value(state: &State, field: &str, row: &Row<'_>) -> Option<Val> {
    let ctx = &row.ctx;
    let cid = ctx.customer.id;
    let text = |s: &str| Some(Val::Str(s.to_owned()));
    match field {
        "customer.resource_name" => Some(Val::Str(format!("customers/{cid}"))),
        "customer.id" => Some(Val::Int(cid)),
        "customer.descriptive_name" => text(&ctx.customer.name),
        "customer.currency_code" => text(&ctx.customer.currency),
        "customer.time_zone" => text(&ctx.customer.time_zone),
        "customer.final_url_suffix" => ctx.customer.final_url_suffix.as_deref().and_then(text),
        "customer.auto_tagging_enabled" => Some(Val::Bool(ctx.customer.auto_tagging)),
        "customer.manager" => Some(Val::Bool(state.is_manager(cid))),
        "customer.test_account" => Some(Val::Bool(false)),
        "customer.status" => Some(Val::Enum("ENABLED")),
        _ => {
            let (family, _) = field.split_once('.')?;
            match family {
                "customer_client" => client_value(state, field, cid, ctx.client?),
                "campaign" => campaign_value(field, cid, ctx.campaign?),
                "campaign_budget" => budget_value(state, field, ctx.budget?),
                "ad_group" => {
                    let group = ctx.ad_group?;
                    match field {
                        "ad_group.resource_name" => {
                            Some(Val::Str(format!("customers/{cid}/adGroups/{}", group.id)))
                        }
                        "ad_group.id" => Some(Val::Int(group.id)),
                        "ad_group.name" => text(&group.name),
                        "ad_group.status" => Some(Val::Enum(group.status.wire())),
                        "ad_group.campaign" => Some(Val::Str(format!(
                            "customers/{cid}/campaigns/{}",
                            group.campaign
                        ))),
                        _ => None,
                    }
                }
                "ad_group_ad" => {
                    let ad = ctx.ad?;
                    match field {
                        "ad_group_ad.resource_name" => Some(Val::Str(format!(
                            "customers/{cid}/adGroupAds/{}~{}",
                            ad.ad_group, ad.id
                        ))),
                        "ad_group_ad.ad_group" => Some(Val::Str(format!(
                            "customers/{cid}/adGroups/{}",
                            ad.ad_group
                        ))),
                        "ad_group_ad.status" => Some(Val::Enum(ad.status.wire())),
                        "ad_group_ad.ad.resource_name" => {
                            Some(Val::Str(format!("customers/{cid}/ads/{}", ad.id)))
                        }
                        "ad_group_ad.ad.id" => Some(Val::Int(ad.id)),
                        "ad_group_ad.ad.name" => ad.name.as_deref().and_then(text),
                        _ => None,
                    }
                }
                "ad_group_criterion" => {
                    let keyword = ctx.keyword?;
                    match field {
                        "ad_group_criterion.resource_name" => Some(Val::Str(format!(
                            "customers/{cid}/adGroupCriteria/{}~{}",
                            keyword.ad_group, keyword.criterion_id
                        ))),
                        "ad_group_criterion.ad_group" => Some(Val::Str(format!(
                            "customers/{cid}/adGroups/{}",
                            keyword.ad_group
                        ))),
                        "ad_group_criterion.criterion_id" => Some(Val::Int(keyword.criterion_id)),
                        "ad_group_criterion.status" => Some(Val::Enum(keyword.status.wire())),
                        "ad_group_criterion.type" => Some(Val::Enum("KEYWORD")),
                        "ad_group_criterion.negative" => Some(Val::Bool(false)),
                        "ad_group_criterion.keyword.text" => text(&keyword.text),
                        "ad_group_criterion.keyword.match_type" => {
                            Some(Val::Enum(keyword.match_type.wire()))
                        }
                        _ => None,
                    }
                }
                "keyword_view" => {
                    let keyword = ctx.keyword?;
                    (field == "keyword_view.resource_name").then(|| {
                        Val::Str(format!(
                            "customers/{cid}/keywordViews/{}~{}",
                            keyword.ad_group, keyword.criterion_id
                        ))
                    })
                }
                "metrics" => match field {
                    "metrics.cost_micros" => Some(Val::Int(row.metrics.cost_micros)),
                    "metrics.impressions" => Some(Val::Int(row.metrics.impressions)),
                    "metrics.clicks" => Some(Val::Int(row.metrics.clicks)),
                    _ => None,
                },
                "segments" => row.date.map(Val::Date),
                _ => None,
            }
        }
    }
}

fn client_value(
    state: &State,
    field: &str,
    cid: i64,
    (client, level): (&Customer, i64),
) -> Option<Val> {
    Some(match field {
        "customer_client.resource_name" => {
            Val::Str(format!("customers/{cid}/customerClients/{}", client.id))
        }
        "customer_client.client_customer" => Val::Str(format!("customers/{}", client.id)),
        "customer_client.id" => Val::Int(client.id),
        "customer_client.level" => Val::Int(level),
        "customer_client.manager" => Val::Bool(state.is_manager(client.id)),
        "customer_client.descriptive_name" => Val::Str(client.name.clone()),
        "customer_client.currency_code" => Val::Str(client.currency.clone()),
        "customer_client.time_zone" => Val::Str(client.time_zone.clone()),
        "customer_client.hidden" | "customer_client.test_account" => Val::Bool(false),
        "customer_client.status" => Val::Enum("ENABLED"),
        _ => return None,
    })
}

fn campaign_value(field: &str, cid: i64, campaign: &Campaign) -> Option<Val> {
    Some(match field {
        "campaign.resource_name" => Val::Str(format!("customers/{cid}/campaigns/{}", campaign.id)),
        "campaign.id" => Val::Int(campaign.id),
        "campaign.name" => Val::Str(campaign.name.clone()),
        "campaign.status" => Val::Enum(campaign.status.wire()),
        "campaign.advertising_channel_type" => Val::Enum(campaign.channel.wire()),
        "campaign.campaign_budget" => Val::Str(format!(
            "customers/{cid}/campaignBudgets/{}",
            campaign.budget
        )),
        _ => return None,
    })
}

fn budget_value(state: &State, field: &str, budget: &Budget) -> Option<Val> {
    Some(match field {
        "campaign_budget.resource_name" => Val::Str(format!(
            "customers/{}/campaignBudgets/{}",
            budget.customer, budget.id
        )),
        "campaign_budget.id" => Val::Int(budget.id),
        "campaign_budget.name" => Val::Str(budget.name.clone()),
        "campaign_budget.amount_micros" => Val::Int(budget.amount_micros),
        "campaign_budget.explicitly_shared" => Val::Bool(budget.explicitly_shared),
        "campaign_budget.reference_count" => {
            Val::Int(state.budget_references(budget.customer, budget.id))
        }
        "campaign_budget.status" => Val::Enum(match budget.status {
            BudgetStatus::Enabled => "ENABLED",
            BudgetStatus::Removed => "REMOVED",
        }),
        "campaign_budget.delivery_method" => Val::Enum("STANDARD"),
        "campaign_budget.period" => Val::Enum("DAILY"),
        "campaign_budget.type" => Val::Enum("STANDARD"),
        _ => return None,
    })
}

/// `snake_case.path` to the JSON member path `camelCase.path`.
pub(crate) fn camel_path(field: &str) -> String {
    field.split('.').map(camel).collect::<Vec<_>>().join(".")
}

pub(crate) fn camel(segment: &str) -> String {
    let mut out = String::with_capacity(segment.len());
    let mut upper = false;
    for c in segment.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.push(c.to_ascii_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

// ---- checking a query against the catalog --------------------------------------------------

#[derive(Debug, Clone)]
enum Test {
    Cmp(CmpOp, Val),
    In(bool, Vec<Val>),
    Like(bool, String),
    Range(Val, Val),
    Null(bool),
}

#[derive(Debug, Clone)]
struct Pred {
    field: String,
    test: Test,
}

fn check_field(field: &str, allowed: &[Family], clause: &str) -> Result<Kind, QueryError> {
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

fn predicate(cond: &Cond, kind: Kind, today: Day) -> Result<Pred, QueryError> {
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
    fn holds(&self, actual: Option<&Val>) -> bool {
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
    fn bounds(&self) -> (Option<Day>, Option<Day>) {
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

// ---- running a query -----------------------------------------------------------------------

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

/// The FROM resource's entities of the customer, each with the entities it joins to.
fn entities<'a>(state: &'a State, customer: &'a Customer, main: Family) -> Vec<Ctx<'a>> {
    let base = Ctx {
        customer,
        client: None,
        campaign: None,
        budget: None,
        ad_group: None,
        ad: None,
        keyword: None,
    };
    let cid = customer.id;
    let with_campaign = |ctx: Ctx<'a>, campaign: i64| -> Ctx<'a> {
        let campaign = state.campaign(cid, campaign);
        Ctx {
            campaign,
            budget: campaign.and_then(|c| state.budget(cid, c.budget)),
            ..ctx
        }
    };
    let with_group = |ctx: Ctx<'a>, group: i64| -> Ctx<'a> {
        let ad_group = state.ad_group(cid, group);
        let ctx = Ctx { ad_group, ..ctx };
        match ad_group {
            Some(group) => with_campaign(ctx, group.campaign),
            None => ctx,
        }
    };
    match main {
        Family::Customer => vec![base],
        Family::CustomerClient => {
            // The manager itself (level 0), then its clients level by level.
            let mut out = vec![Ctx {
                client: Some((customer, 0)),
                ..base
            }];
            let mut frontier = vec![cid];
            let mut level = 0;
            while !frontier.is_empty() {
                level += 1;
                let mut next = Vec::new();
                for parent in frontier {
                    for child in state.customers.iter().filter(|c| c.manager == Some(parent)) {
                        if out
                            .iter()
                            .all(|ctx| ctx.client.is_none_or(|(c, _)| c.id != child.id))
                        {
                            out.push(Ctx {
                                client: Some((child, level)),
                                ..base
                            });
                            next.push(child.id);
                        }
                    }
                }
                frontier = next;
            }
            out
        }
        Family::Campaign => state
            .campaigns
            .iter()
            .filter(|c| c.customer == cid)
            .map(|c| with_campaign(base, c.id))
            .collect(),
        Family::CampaignBudget => state
            .budgets
            .iter()
            .filter(|b| b.customer == cid)
            .map(|b| Ctx {
                budget: Some(b),
                ..base
            })
            .collect(),
        Family::AdGroup => state
            .ad_groups
            .iter()
            .filter(|g| g.customer == cid)
            .map(|g| with_group(base, g.id))
            .collect(),
        Family::AdGroupAd => state
            .ads
            .iter()
            .filter(|a| a.customer == cid)
            .map(|a| {
                with_group(
                    Ctx {
                        ad: Some(a),
                        ..base
                    },
                    a.ad_group,
                )
            })
            .collect(),
        Family::AdGroupCriterion | Family::KeywordView => state
            .keywords
            .iter()
            .filter(|k| k.customer == cid)
            .map(|k| {
                with_group(
                    Ctx {
                        keyword: Some(k),
                        ..base
                    },
                    k.ad_group,
                )
            })
            .collect(),
        Family::Metrics | Family::Segments => Vec::new(),
    }
}

/// The entity's metrics per day, on the days the date conditions keep.
fn daily(
    state: &State,
    ctx: &Ctx<'_>,
    main: Family,
    date_preds: &[Pred],
) -> BTreeMap<Day, Metrics> {
    let cid = ctx.customer.id;
    let campaign_of_group = |group: i64| state.ad_group(cid, group).map(|g| g.campaign);
    let counts = |key: &BreakdownKey| -> bool {
        match (main, key) {
            (Family::Customer, BreakdownKey::Ad(..) | BreakdownKey::CampaignOnly(_)) => true,
            (Family::Campaign, BreakdownKey::Ad(group, _)) => ctx
                .campaign
                .is_some_and(|c| campaign_of_group(*group) == Some(c.id)),
            (Family::Campaign, BreakdownKey::CampaignOnly(campaign)) => {
                ctx.campaign.is_some_and(|c| c.id == *campaign)
            }
            (Family::AdGroup, BreakdownKey::Ad(group, _)) => {
                ctx.ad_group.is_some_and(|g| g.id == *group)
            }
            (Family::AdGroupAd, BreakdownKey::Ad(group, ad)) => {
                ctx.ad.is_some_and(|a| a.ad_group == *group && a.id == *ad)
            }
            (Family::KeywordView, BreakdownKey::Keyword(group, criterion)) => ctx
                .keyword
                .is_some_and(|k| k.ad_group == *group && k.criterion_id == *criterion),
            _ => false,
        }
    };
    let mut days: BTreeMap<Day, Metrics> = BTreeMap::new();
    for (day, key, metrics) in state.daily_of(cid) {
        if counts(&key) && date_preds.iter().all(|p| p.holds(Some(&Val::Date(day)))) {
            days.entry(day).or_default().add(metrics);
        }
    }
    days
}

fn render(state: &State, query: &Query, main: Family, row: &Row<'_>) -> Value {
    let mut root = Map::new();
    for field in &query.select {
        let Some(val) = value(state, field, row) else {
            continue;
        };
        if state.omit_zero_metrics && field.starts_with("metrics.") && val == Val::Int(0) {
            continue;
        }
        insert(&mut root, field, val.to_json());
    }
    // The resource name of the FROM resource, and of each attributed resource selected from.
    let mut named = vec![main];
    if !query.omit_unselected_resource_names {
        for field in &query.select {
            if let Some(family) = Family::of(field)
                && !matches!(family, Family::Metrics | Family::Segments)
                && !named.contains(&family)
            {
                named.push(family);
            }
        }
    }
    for family in named {
        let field = format!("{}.resource_name", family.prefix());
        if query.omit_unselected_resource_names && !query.select.contains(&field) {
            continue;
        }
        if let Some(val) = value(state, &field, row) {
            insert(&mut root, &field, val.to_json());
        }
    }
    Value::Object(root)
}

fn insert(root: &mut Map<String, Value>, field: &str, value: Value) {
    let parts: Vec<String> = field.split('.').map(camel).collect();
    let mut at = root;
    for part in &parts[..parts.len() - 1] {
        let entry = at
            .entry(part.clone())
            .or_insert_with(|| Value::Object(Map::new()));
        if !entry.is_object() {
            *entry = Value::Object(Map::new());
        }
        let Value::Object(next) = entry else {
            return;
        };
        at = next;
    }
    if let Some(last) = parts.last() {
        at.insert(last.clone(), value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fakes::google::state::{
        AdGroupSeed, AdSeed, Breakdown, CampaignSeed, CustomerSeed, KeywordSeed, State,
    };
    use serde_json::json;

    fn day(text: &str) -> Day {
        Day::parse(text).expect("day")
    }

    fn seeded() -> State {
        let mut state = State::new("c".into(), "s".into(), "d".into());
        state.today = Some(day("2024-05-10"));
        state.add_customer(CustomerSeed::manager_account(100, "Manager", "USD"));
        state.add_customer(
            CustomerSeed::new(1, "Shop", "USD")
                .under(100)
                .final_url_suffix("utm_source=google"),
        );
        state.add_campaign(1, CampaignSeed::new(11, "Brand", 50_000_000));
        state.add_campaign(
            1,
            CampaignSeed::new(12, "Generic", 20_000_000)
                .paused()
                .shared_budget(900),
        );
        state.add_campaign(
            1,
            CampaignSeed::new(13, "PMax", 30_000_000)
                .performance_max()
                .shared_budget(900),
        );
        state.add_ad_group(1, AdGroupSeed::new(111, 11, "Brand exact"));
        state.add_ad(1, AdSeed::new(5001, 111, "Brand ad"));
        state.add_ad(1, AdSeed::unnamed(5002, 111));
        state.add_keyword(1, KeywordSeed::new(7001, 111, "shop"));
        let ad = |ad| Breakdown::Ad { ad_group: 111, ad };
        state.add_daily(
            1,
            day("2024-05-01"),
            ad(5001),
            Metrics::new(1_000_000, 100, 10),
        );
        state.add_daily(1, day("2024-05-01"), ad(5002), Metrics::new(500_000, 50, 5));
        state.add_daily(
            1,
            day("2024-05-02"),
            ad(5001),
            Metrics::new(2_000_000, 200, 20),
        );
        state.add_daily(1, day("2024-05-03"), ad(5001), Metrics::new(0, 0, 0));
        state.add_daily(
            1,
            day("2024-05-01"),
            Breakdown::Keyword {
                ad_group: 111,
                criterion: 7001,
            },
            Metrics::new(1_500_000, 150, 15),
        );
        state.add_daily(
            1,
            day("2024-05-02"),
            Breakdown::CampaignOnly { campaign: 13 },
            Metrics::new(4_000_000, 400, 4),
        );
        state
    }

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

    #[test]
    fn unknown_fields_and_resources_are_query_errors() {
        let state = seeded();
        let code = |q: &str| run(&state, 1, q).err().map(|e| e.code);
        assert_eq!(
            code("SELECT campaign.idd FROM campaign"),
            Some("UNRECOGNIZED_FIELD")
        );
        assert_eq!(
            code("SELECT campaign.id FROM campaigns"),
            Some("BAD_RESOURCE_TYPE_IN_FROM_CLAUSE")
        );
        assert_eq!(
            code("SELECT ad_group.id FROM campaign"),
            Some("PROHIBITED_RESOURCE_TYPE_IN_SELECT_CLAUSE")
        );
        assert_eq!(
            code("SELECT campaign_budget.id, metrics.clicks FROM campaign_budget"),
            Some("PROHIBITED_METRIC_IN_SELECT_OR_WHERE_CLAUSE")
        );
        assert_eq!(
            code("SELECT campaign.id FROM campaign WHERE campaign.status = 'LIVE'"),
            Some("BAD_ENUM_CONSTANT")
        );
        assert_eq!(
            code("SELECT campaign.id FROM campaign WHERE campaign.id = '11'"),
            Some("BAD_VALUE")
        );
        assert_eq!(
            code("SELECT campaign.id, segments.date FROM campaign"),
            Some("EXPECTED_FILTERS_ON_DATE_RANGE")
        );
        assert_eq!(
            code(
                "SELECT campaign.id, segments.date FROM campaign WHERE segments.date >= '2024-05-01'"
            ),
            Some("EXPECTED_FILTERS_ON_DATE_RANGE")
        );
        assert_eq!(
            code(
                "SELECT campaign.id FROM campaign WHERE segments.date BETWEEN '2024-05-02' AND '2024-05-01'"
            ),
            Some("DATE_RANGE_TOO_NARROW")
        );
        assert_eq!(
            code("SELECT campaign.id FROM campaign WHERE segments.date = '2024-5-1'"),
            Some("INVALID_DATE_FORMAT")
        );
        assert_eq!(
            code("SELECT campaign.id FROM campaign WHERE segments.date DURING LAST_YEAR"),
            Some("INVALID_VALUE_WITH_DURING_OPERATOR")
        );
        assert_eq!(
            run(
                &state,
                100,
                "SELECT customer.id, metrics.clicks FROM customer"
            )
            .err()
            .map(|e| e.code),
            Some("REQUESTED_METRICS_FOR_MANAGER")
        );
    }

    #[test]
    fn filters_and_selects_only_the_named_fields() {
        let state = seeded();
        let answer = run(
            &state,
            1,
            "SELECT campaign.id, campaign.name, campaign_budget.amount_micros, campaign_budget.explicitly_shared, \
             campaign_budget.reference_count FROM campaign WHERE campaign.status != 'REMOVED' AND campaign.id IN (12, 13) ORDER BY campaign.id DESC",
        )
        .expect("runs");
        assert_eq!(
            answer.field_mask,
            "campaign.id,campaign.name,campaignBudget.amountMicros,campaignBudget.explicitlyShared,campaignBudget.referenceCount"
        );
        assert_eq!(
            answer.rows,
            [
                json!({
                    "campaign": {"resourceName": "customers/1/campaigns/13", "id": "13", "name": "PMax"},
                    "campaignBudget": {"resourceName": "customers/1/campaignBudgets/900", "amountMicros": "20000000", "explicitlyShared": true, "referenceCount": "2"},
                }),
                json!({
                    "campaign": {"resourceName": "customers/1/campaigns/12", "id": "12", "name": "Generic"},
                    "campaignBudget": {"resourceName": "customers/1/campaignBudgets/900", "amountMicros": "20000000", "explicitlyShared": true, "referenceCount": "2"},
                }),
            ]
        );
        let paused = run(
            &state,
            1,
            "SELECT campaign.id FROM campaign WHERE campaign.status = PAUSED",
        )
        .expect("runs");
        assert_eq!(
            paused.rows,
            [json!({"campaign": {"resourceName": "customers/1/campaigns/12", "id": "12"}})]
        );
        let named = run(
            &state,
            1,
            "SELECT campaign.name FROM campaign WHERE campaign.name LIKE '%an%'",
        )
        .expect("runs");
        assert_eq!(named.rows.len(), 1, "Brand only: {:?}", named.rows);
        let omitted = run(&state, 1, "SELECT campaign.id, customer.id FROM campaign WHERE campaign.id = 11 PARAMETERS omit_unselected_resource_names = true").expect("runs");
        assert_eq!(
            omitted.rows,
            [json!({"campaign": {"id": "11"}, "customer": {"id": "1"}})]
        );
    }

    #[test]
    fn daily_metrics_add_up_per_resource() {
        let state = seeded();
        let by_day = run(
            &state,
            1,
            "SELECT campaign.id, segments.date, metrics.cost_micros, metrics.impressions, metrics.clicks FROM campaign \
             WHERE segments.date BETWEEN '2024-05-01' AND '2024-05-03'",
        )
        .expect("runs");
        // Campaign 11: two ads on 05-01 summed, 05-02, and 05-03's zero row left out; campaign 13's
        // campaign-only spend; keyword rows never count.
        assert_eq!(
            by_day.rows,
            [
                json!({"campaign": {"resourceName": "customers/1/campaigns/11", "id": "11"}, "segments": {"date": "2024-05-01"}, "metrics": {"costMicros": "1500000", "impressions": "150", "clicks": "15"}}),
                json!({"campaign": {"resourceName": "customers/1/campaigns/11", "id": "11"}, "segments": {"date": "2024-05-02"}, "metrics": {"costMicros": "2000000", "impressions": "200", "clicks": "20"}}),
                json!({"campaign": {"resourceName": "customers/1/campaigns/13", "id": "13"}, "segments": {"date": "2024-05-02"}, "metrics": {"costMicros": "4000000", "impressions": "400", "clicks": "4"}}),
            ]
        );
        let totals = run(&state, 1, "SELECT campaign.id, metrics.cost_micros FROM campaign WHERE segments.date DURING LAST_30_DAYS").expect("runs");
        let costs: Vec<&Value> = totals
            .rows
            .iter()
            .map(|r| &r["metrics"]["costMicros"])
            .collect();
        assert_eq!(
            costs,
            ["3500000", "0", "4000000"],
            "unsegmented rows keep zero metrics"
        );
        let ads = run(&state, 1, "SELECT ad_group_ad.ad.id, ad_group_ad.ad.name, metrics.clicks FROM ad_group_ad WHERE segments.date = '2024-05-01'").expect("runs");
        assert_eq!(
            ads.rows,
            [
                json!({"adGroupAd": {"resourceName": "customers/1/adGroupAds/111~5001", "ad": {"id": "5001", "name": "Brand ad"}}, "metrics": {"clicks": "10"}}),
                json!({"adGroupAd": {"resourceName": "customers/1/adGroupAds/111~5002", "ad": {"id": "5002"}}, "metrics": {"clicks": "5"}}),
            ]
        );
        let keywords = run(
            &state,
            1,
            "SELECT ad_group_criterion.criterion_id, ad_group_criterion.keyword.text, segments.date, metrics.cost_micros FROM keyword_view \
             WHERE segments.date >= '2024-05-01' AND segments.date <= '2024-05-31'",
        )
        .expect("runs");
        assert_eq!(
            keywords.rows,
            [json!({
                "keywordView": {"resourceName": "customers/1/keywordViews/111~7001"},
                "adGroupCriterion": {"resourceName": "customers/1/adGroupCriteria/111~7001", "criterionId": "7001", "keyword": {"text": "shop"}},
                "segments": {"date": "2024-05-01"},
                "metrics": {"costMicros": "1500000"},
            })]
        );
        let busy = run(
            &state,
            1,
            "SELECT ad_group.id, metrics.clicks FROM ad_group WHERE metrics.clicks > 30",
        )
        .expect("runs");
        assert_eq!(
            busy.rows,
            [
                json!({"adGroup": {"resourceName": "customers/1/adGroups/111", "id": "111"}, "metrics": {"clicks": "35"}})
            ]
        );
    }

    #[test]
    fn the_account_hierarchy_and_customer_read_as_documented() {
        let state = seeded();
        let tree = run(
            &state,
            100,
            "SELECT customer_client.client_customer, customer_client.level, customer_client.manager, customer_client.descriptive_name, \
             customer_client.currency_code, customer_client.id FROM customer_client WHERE customer_client.level <= 1",
        )
        .expect("runs");
        assert_eq!(tree.rows.len(), 2);
        assert_eq!(tree.rows[0]["customerClient"]["level"], "0");
        assert_eq!(tree.rows[0]["customerClient"]["manager"], true);
        assert_eq!(
            tree.rows[1]["customerClient"]["clientCustomer"],
            "customers/1"
        );
        assert_eq!(
            tree.rows[1]["customerClient"]["resourceName"],
            "customers/100/customerClients/1"
        );
        let me = run(&state, 1, "SELECT customer.id, customer.currency_code, customer.descriptive_name, customer.final_url_suffix, customer.auto_tagging_enabled FROM customer").expect("runs");
        assert_eq!(
            me.rows,
            [
                json!({"customer": {"resourceName": "customers/1", "id": "1", "currencyCode": "USD", "descriptiveName": "Shop", "finalUrlSuffix": "utm_source=google", "autoTaggingEnabled": true}})
            ]
        );
    }

    #[test]
    fn limit_and_total_count() {
        let state = seeded();
        let answer = run(
            &state,
            1,
            "SELECT campaign.id FROM campaign ORDER BY campaign.name LIMIT 2",
        )
        .expect("runs");
        assert_eq!(answer.total, 3);
        let names: Vec<&Value> = answer.rows.iter().map(|r| &r["campaign"]["id"]).collect();
        assert_eq!(names, ["11", "12"]);
    }
}
