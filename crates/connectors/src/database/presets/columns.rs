//! The pieces presets share: the column kinds they accept, and finding a table's timestamp,
//! key, buyer, amount and attribution columns by their usual names.

use std::collections::BTreeMap;

use payback_domain::event_map::{EventMap, MoneyUnit, RevenueColumn};

use crate::database::schema::{ColumnKind, TableSummary};

pub(super) const TIME: &[ColumnKind] = &[ColumnKind::Timestamp];
pub(super) const KEY: &[ColumnKind] = &[ColumnKind::Integer, ColumnKind::Text];
pub(super) const TEXT: &[ColumnKind] = &[ColumnKind::Text];
pub(super) const AMOUNT: &[ColumnKind] = &[ColumnKind::Integer, ColumnKind::Decimal];
pub(super) const ANY_ID: &[ColumnKind] = &[ColumnKind::Integer, ColumnKind::Text];

pub(super) const CREATED: &[&str] = &[
    "created_at",
    "createdat",
    "created",
    "inserted_at",
    "created_on",
    "creation_date",
    "date_created",
    "created_date",
];

/// A signup map: the row's id is the user's id, with email and attribution when present.
pub(super) fn user_map(table: &TableSummary, created: String) -> Option<EventMap> {
    let key = column(table, &["id", "user_id", "uuid"], KEY)?;
    let mut map = base(table, "signup", created, key.clone());
    map.user_id = Some(key);
    map.email = column(table, &["email", "email_address", "user_email"], TEXT);
    map.attribution = attribution(table);
    Some(map)
}

pub(super) fn base(table: &TableSummary, stage: &str, timestamp: String, key: String) -> EventMap {
    EventMap {
        table: table.name.clone(),
        schema: table.schema.clone(),
        stage: stage.to_owned(),
        name: None,
        timestamp,
        dedupe_key: key,
        user_id: None,
        anonymous_id: None,
        email: None,
        attribution: BTreeMap::new(),
        revenue: None,
        filter: Vec::new(),
    }
}

/// Who paid: a user or customer id and an email, and attribution columns.
pub(super) fn buyer(table: &TableSummary, map: &mut EventMap) {
    map.user_id = column(
        table,
        &[
            "user_id",
            "customer_id",
            "account_id",
            "buyer_id",
            "member_id",
        ],
        ANY_ID,
    );
    map.email = column(
        table,
        &[
            "email",
            "customer_email",
            "billing_email",
            "buyer_email",
            "user_email",
        ],
        TEXT,
    );
    map.attribution = attribution(table);
}

/// The amount column: a `*_cents` one first (cents whatever its type), else an integer
/// (cents) or decimal (whole units) amount; and the currency column when there is one.
pub(super) fn revenue(table: &TableSummary) -> Option<RevenueColumn> {
    const CENTS: &[&str] = &[
        "amount_cents",
        "total_cents",
        "amount_in_cents",
        "total_in_cents",
        "price_cents",
        "grand_total_cents",
        "amount_paid_cents",
    ];
    const AMOUNTS: &[&str] = &[
        "amount",
        "total",
        "amount_total",
        "total_amount",
        "amount_paid",
        "grand_total",
        "total_price",
        "price",
        "value",
    ];
    let (column, unit) = match column(table, CENTS, AMOUNT) {
        Some(cents) => (cents, MoneyUnit::Cents),
        None => {
            let name = column(table, AMOUNTS, AMOUNT)?;
            let unit = match table.column(&name).map(|c| c.kind) {
                Some(ColumnKind::Integer) => MoneyUnit::Cents,
                _ => MoneyUnit::Major,
            };
            (name, unit)
        }
    };
    Some(RevenueColumn {
        column,
        unit,
        currency: self::column(table, &["currency", "currency_code", "currency_iso"], TEXT),
    })
}

/// `utm_*`, click ids, referrer and landing page columns, by their usual names.
pub(super) fn attribution(table: &TableSummary) -> BTreeMap<String, String> {
    const FIELDS: &[(&str, &[&str])] = &[
        ("utm_source", &["utm_source"]),
        ("utm_medium", &["utm_medium"]),
        ("utm_campaign", &["utm_campaign"]),
        ("utm_content", &["utm_content"]),
        ("utm_term", &["utm_term"]),
        ("utm_id", &["utm_id"]),
        ("gclid", &["gclid"]),
        ("fbclid", &["fbclid"]),
        ("msclkid", &["msclkid"]),
        ("li_fat_id", &["li_fat_id"]),
        (
            "referrer",
            &["referrer", "referer", "http_referrer", "referrer_url"],
        ),
        (
            "landing_url",
            &["landing_url", "landing_page", "landing_page_url"],
        ),
        ("channel", &["channel", "acquisition_channel"]),
    ];
    FIELDS
        .iter()
        .filter_map(|(field, names)| Some(((*field).to_owned(), column(table, names, TEXT)?)))
        .collect()
}

/// The first of `names` the table has with one of `kinds`, as the table spells it.
pub(super) fn column(table: &TableSummary, names: &[&str], kinds: &[ColumnKind]) -> Option<String> {
    names.iter().find_map(|name| {
        table
            .column(name)
            .filter(|column| kinds.contains(&column.kind))
            .map(|column| column.name.clone())
    })
}

pub(super) fn named_as(table: &TableSummary, names: &[&str]) -> bool {
    names
        .iter()
        .any(|name| table.name.eq_ignore_ascii_case(name))
}

/// `orders` -> `order`, `charges` -> `charge`: for `<table>_id` keys.
pub(super) fn singular(name: &str) -> &str {
    let last = name.rsplit('_').next().unwrap_or(name);
    last.strip_suffix('s').unwrap_or(last)
}
