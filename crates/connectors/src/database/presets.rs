//! The presets `suggest-mappings` offers without a model: event maps for schemas common enough
//! to recognise by their table and column names (case-insensitive) and column kinds. A preset
//! "fits" when at least one table matches it; its maps are proposals, never saved here.

use std::collections::BTreeMap;

use payback_domain::event_map::{
    Condition, EventMap, FieldSyntax, FilterOp, MAX_MAPS, MoneyUnit, RevenueColumn, check_maps,
};
use serde::Serialize;

use super::schema::{ColumnKind, SchemaSummary, TableSummary};

/// One preset as the API lists it.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Preset {
    pub id: &'static str,
    pub label: &'static str,
    pub description: &'static str,
    /// The map this preset proposes for one table, if the table is one it knows.
    #[serde(skip)]
    fit: fn(&TableSummary) -> Option<EventMap>,
}

/// A preset and whether the described schema has a table it maps.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PresetFit {
    pub id: String,
    pub label: String,
    pub description: String,
    pub fits: bool,
}

/// What `suggest-mappings` answers on its preset path.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PresetSuggestions {
    pub suggestions: Vec<EventMap>,
    pub presets: Vec<PresetFit>,
}

/// The server answers 404 for both.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PresetError {
    #[error("no preset `{0}`")]
    UnknownPreset(String),
    #[error("preset `{0}` fits none of the tables")]
    DoesNotFit(String),
}

const PRESETS: &[Preset] = &[
    Preset {
        id: "django",
        label: "Django users",
        description: "Django's auth_user table: each user is a signup at date_joined.",
        fit: django,
    },
    Preset {
        id: "supabase",
        label: "Supabase Auth users",
        description: "Supabase's auth.users table: each user is a signup at created_at (anonymous users left out).",
        fit: supabase,
    },
    Preset {
        id: "rails_devise",
        label: "Rails / Devise users",
        description: "A Rails users table with Devise's encrypted_password: each user is a signup at created_at.",
        fit: rails_devise,
    },
    Preset {
        id: "wordpress",
        label: "WordPress users",
        description: "WordPress's wp_users table: each user is a signup at user_registered.",
        fit: wordpress,
    },
    Preset {
        id: "signups",
        label: "Users, accounts or customers",
        description: "A users, accounts or customers table with a creation time: each row is a signup, with its email and utm_* attribution columns when present.",
        fit: signups,
    },
    Preset {
        id: "orders",
        label: "Orders and payments",
        description: "Orders, payments, invoices or charges with an amount: each row is a payment with revenue (integer and *_cents amounts as cents, decimals as whole units) in its currency column's currency.",
        fit: orders,
    },
    Preset {
        id: "subscriptions",
        label: "Subscriptions",
        description: "A subscriptions table: each subscription started is a conversion, with its price when there is one.",
        fit: subscriptions,
    },
    Preset {
        id: "leads",
        label: "Leads and contacts",
        description: "Leads, contacts, waitlist or newsletter subscribers with an email: each row is a lead.",
        fit: leads,
    },
];

/// Every preset, in the order their maps are preferred.
pub fn presets() -> &'static [Preset] {
    PRESETS
}

/// Proposes maps for the described schema. Without `preset_id`: the maps of every preset that
/// fits (a table and stage once, the first preset's map winning), and every preset with
/// whether it fits. With one: only that preset's maps, refused when it fits nothing.
pub fn suggest(
    summary: &SchemaSummary,
    preset_id: Option<&str>,
) -> Result<PresetSuggestions, PresetError> {
    if let Some(id) = preset_id {
        let preset = PRESETS
            .iter()
            .find(|preset| preset.id.eq_ignore_ascii_case(id.trim()))
            .ok_or_else(|| PresetError::UnknownPreset(id.to_owned()))?;
        let suggestions = maps_of(preset, summary);
        if suggestions.is_empty() {
            return Err(PresetError::DoesNotFit(preset.id.to_owned()));
        }
        return Ok(PresetSuggestions {
            suggestions,
            presets: vec![fit_of(preset, true)],
        });
    }
    let mut suggestions: Vec<EventMap> = Vec::new();
    let mut fits = Vec::with_capacity(PRESETS.len());
    for preset in PRESETS {
        let maps = maps_of(preset, summary);
        fits.push(fit_of(preset, !maps.is_empty()));
        for map in maps {
            let taken = suggestions.iter().any(|other| {
                other.schema == map.schema && other.table == map.table && other.stage == map.stage
            });
            if !taken && suggestions.len() < MAX_MAPS {
                suggestions.push(map);
            }
        }
    }
    Ok(PresetSuggestions {
        suggestions,
        presets: fits,
    })
}

fn fit_of(preset: &Preset, fits: bool) -> PresetFit {
    PresetFit {
        id: preset.id.to_owned(),
        label: preset.label.to_owned(),
        description: preset.description.to_owned(),
        fits,
    }
}

/// The preset's maps, each one `check_maps` accepts (a table or column whose name is not a
/// plain identifier cannot be mapped and is passed over).
fn maps_of(preset: &Preset, summary: &SchemaSummary) -> Vec<EventMap> {
    summary
        .tables
        .iter()
        .filter_map(preset.fit)
        .filter_map(|map| check_maps(vec![map], FieldSyntax::Column).ok()?.pop())
        .collect()
}

// ---- the presets -------------------------------------------------------------------------

const TIME: &[ColumnKind] = &[ColumnKind::Timestamp];
const KEY: &[ColumnKind] = &[ColumnKind::Integer, ColumnKind::Text];
const TEXT: &[ColumnKind] = &[ColumnKind::Text];
const AMOUNT: &[ColumnKind] = &[ColumnKind::Integer, ColumnKind::Decimal];
const ANY_ID: &[ColumnKind] = &[ColumnKind::Integer, ColumnKind::Text];

const CREATED: &[&str] = &[
    "created_at",
    "createdat",
    "created",
    "inserted_at",
    "created_on",
    "creation_date",
    "date_created",
    "created_date",
];

fn django(table: &TableSummary) -> Option<EventMap> {
    if !named_as(table, &["auth_user"]) {
        return None;
    }
    user_map(table, column(table, &["date_joined"], TIME)?)
}

fn supabase(table: &TableSummary) -> Option<EventMap> {
    let in_auth = table
        .schema
        .as_deref()
        .is_some_and(|schema| schema.eq_ignore_ascii_case("auth"));
    if !in_auth || !named_as(table, &["users"]) {
        return None;
    }
    let mut map = user_map(table, column(table, &["created_at"], TIME)?)?;
    if let Some(anonymous) = column(table, &["is_anonymous"], &[ColumnKind::Boolean]) {
        map.filter.push(Condition {
            column: anonymous,
            op: FilterOp::Ne,
            value: Some(serde_json::Value::Bool(true)),
        });
    }
    Some(map)
}

fn rails_devise(table: &TableSummary) -> Option<EventMap> {
    if table.schema.is_some() || !named_as(table, &["users"]) {
        return None;
    }
    column(table, &["encrypted_password"], TEXT)?;
    user_map(table, column(table, &["created_at"], TIME)?)
}

fn wordpress(table: &TableSummary) -> Option<EventMap> {
    if !table.name.to_ascii_lowercase().ends_with("users") {
        return None;
    }
    let registered = column(table, &["user_registered"], TIME)?;
    let key = column(table, &["id"], KEY)?;
    let mut map = base(table, "signup", registered, key.clone());
    map.user_id = Some(key);
    map.email = column(table, &["user_email"], TEXT);
    Some(map)
}

fn signups(table: &TableSummary) -> Option<EventMap> {
    if !named_as(
        table,
        &[
            "users",
            "user",
            "accounts",
            "account",
            "customers",
            "customer",
            "members",
            "member",
        ],
    ) {
        return None;
    }
    let created = column(
        table,
        &[
            CREATED,
            &[
                "date_joined",
                "signup_date",
                "signed_up_at",
                "registered_at",
                "joined_at",
            ],
        ]
        .concat(),
        TIME,
    )?;
    user_map(table, created)
}

fn orders(table: &TableSummary) -> Option<EventMap> {
    let kinds = [
        "orders",
        "order",
        "payments",
        "payment",
        "invoices",
        "invoice",
        "charges",
        "charge",
        "purchases",
        "purchase",
        "transactions",
        "sales",
    ];
    let name = table.name.to_ascii_lowercase();
    let known = kinds
        .iter()
        .any(|kind| name == *kind || name.ends_with(&format!("_{kind}")));
    if !known {
        return None;
    }
    let paid = column(
        table,
        &[
            &[
                "paid_at",
                "completed_at",
                "charged_at",
                "purchased_at",
                "ordered_at",
                "order_date",
            ],
            CREATED,
        ]
        .concat(),
        TIME,
    )?;
    let key = column(table, &["id", &format!("{}_id", singular(&name))], KEY)?;
    let mut map = base(table, "payment", paid, key);
    map.revenue = Some(revenue(table)?);
    buyer(table, &mut map);
    Some(map)
}

fn subscriptions(table: &TableSummary) -> Option<EventMap> {
    let name = table.name.to_ascii_lowercase();
    if !(name == "subscriptions" || name == "subscription" || name.ends_with("_subscriptions")) {
        return None;
    }
    let started = column(
        table,
        &[&["started_at", "start_date", "starts_at"], CREATED].concat(),
        TIME,
    )?;
    let key = column(table, &["id", "subscription_id"], KEY)?;
    let mut map = base(table, "converted", started, key);
    map.revenue = revenue(table);
    buyer(table, &mut map);
    Some(map)
}

fn leads(table: &TableSummary) -> Option<EventMap> {
    if !named_as(
        table,
        &[
            "leads",
            "lead",
            "contacts",
            "contact",
            "waitlist",
            "waitlist_entries",
            "subscribers",
            "newsletter_subscribers",
            "inquiries",
            "enquiries",
        ],
    ) {
        return None;
    }
    let created = column(
        table,
        &[CREATED, &["subscribed_at", "signed_up_at"]].concat(),
        TIME,
    )?;
    let key = column(table, &["id", "lead_id", "contact_id"], KEY)?;
    let mut map = base(table, "lead", created, key);
    map.email = Some(column(table, &["email", "email_address"], TEXT)?);
    map.user_id = column(table, &["user_id"], ANY_ID);
    map.attribution = attribution(table);
    Some(map)
}

// ---- shared pieces -----------------------------------------------------------------------

/// A signup map: the row's id is the user's id, with email and attribution when present.
fn user_map(table: &TableSummary, created: String) -> Option<EventMap> {
    let key = column(table, &["id", "user_id", "uuid"], KEY)?;
    let mut map = base(table, "signup", created, key.clone());
    map.user_id = Some(key);
    map.email = column(table, &["email", "email_address", "user_email"], TEXT);
    map.attribution = attribution(table);
    Some(map)
}

fn base(table: &TableSummary, stage: &str, timestamp: String, key: String) -> EventMap {
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
fn buyer(table: &TableSummary, map: &mut EventMap) {
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
fn revenue(table: &TableSummary) -> Option<RevenueColumn> {
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
fn attribution(table: &TableSummary) -> BTreeMap<String, String> {
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
fn column(table: &TableSummary, names: &[&str], kinds: &[ColumnKind]) -> Option<String> {
    names.iter().find_map(|name| {
        table
            .column(name)
            .filter(|column| kinds.contains(&column.kind))
            .map(|column| column.name.clone())
    })
}

fn named_as(table: &TableSummary, names: &[&str]) -> bool {
    names
        .iter()
        .any(|name| table.name.eq_ignore_ascii_case(name))
}

/// `orders` -> `order`, `charges` -> `charge`: for `<table>_id` keys.
fn singular(name: &str) -> &str {
    let last = name.rsplit('_').next().unwrap_or(name);
    last.strip_suffix('s').unwrap_or(last)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::database::schema::ColumnSummary;

    fn table(schema: Option<&str>, name: &str, columns: &[(&str, ColumnKind)]) -> TableSummary {
        TableSummary {
            schema: schema.map(str::to_owned),
            name: name.to_owned(),
            columns: columns
                .iter()
                .map(|(name, kind)| ColumnSummary {
                    name: (*name).to_owned(),
                    data_type: format!("{kind:?}"),
                    kind: *kind,
                })
                .collect(),
            row_estimate: None,
        }
    }

    use ColumnKind::{Boolean, Decimal, Integer, Text, Timestamp};

    #[test]
    fn a_supabase_schema_fits_supabase_and_its_orders() {
        let summary = SchemaSummary {
            tables: vec![
                table(
                    Some("auth"),
                    "users",
                    &[
                        ("id", Text),
                        ("email", Text),
                        ("encrypted_password", Text),
                        ("created_at", Timestamp),
                        ("is_anonymous", Boolean),
                    ],
                ),
                table(
                    None,
                    "Charges",
                    &[
                        ("ID", Integer),
                        ("Amount", Integer),
                        ("Currency", Text),
                        ("Created", Timestamp),
                        ("customer_id", Text),
                    ],
                ),
            ],
            more_tables: 0,
        };
        let all = suggest(&summary, None).expect("suggests");
        assert_eq!(all.suggestions.len(), 2);
        let users = &all.suggestions[0];
        assert_eq!(users.schema.as_deref(), Some("auth"));
        assert_eq!(users.stage, "signup");
        assert_eq!(users.filter[0].column, "is_anonymous");
        let charges = &all.suggestions[1];
        assert_eq!(charges.dedupe_key, "ID");
        assert_eq!(charges.timestamp, "Created");
        assert_eq!(charges.user_id.as_deref(), Some("customer_id"));
        let revenue = charges.revenue.as_ref().expect("revenue");
        assert_eq!(
            (revenue.column.as_str(), revenue.unit),
            ("Amount", MoneyUnit::Cents)
        );
        assert_eq!(revenue.currency.as_deref(), Some("Currency"));
        let fitting: Vec<&str> = all
            .presets
            .iter()
            .filter(|p| p.fits)
            .map(|p| p.id.as_str())
            .collect();
        assert_eq!(fitting, vec!["supabase", "signups", "orders"]);
        assert_eq!(all.presets.len(), presets().len());

        let err = suggest(&summary, Some("django")).expect_err("no auth_user");
        assert_eq!(err, PresetError::DoesNotFit("django".to_owned()));
        let err = suggest(&summary, Some("magento")).expect_err("unknown");
        assert_eq!(err, PresetError::UnknownPreset("magento".to_owned()));
    }

    #[test]
    fn decimal_amounts_are_whole_units_and_cents_columns_win() {
        let decimal = table(
            None,
            "shop_orders",
            &[
                ("id", Integer),
                ("total", Decimal),
                ("completed_at", Timestamp),
            ],
        );
        let both = table(
            None,
            "payments",
            &[
                ("payment_id", Integer),
                ("amount", Decimal),
                ("amount_cents", Integer),
                ("paid_at", Timestamp),
                ("created_at", Timestamp),
            ],
        );
        let summary = SchemaSummary {
            tables: vec![decimal, both],
            more_tables: 0,
        };
        let orders = suggest(&summary, Some("orders")).expect("fits");
        let first = &orders.suggestions[0];
        let revenue = first.revenue.as_ref().expect("revenue");
        assert_eq!(
            (revenue.column.as_str(), revenue.unit),
            ("total", MoneyUnit::Major)
        );
        assert_eq!(first.timestamp, "completed_at");
        let second = &orders.suggestions[1];
        assert_eq!(second.dedupe_key, "payment_id");
        assert_eq!(second.timestamp, "paid_at");
        let revenue = second.revenue.as_ref().expect("revenue");
        assert_eq!(
            (revenue.column.as_str(), revenue.unit),
            ("amount_cents", MoneyUnit::Cents)
        );
    }

    #[test]
    fn unmappable_names_are_passed_over() {
        let summary = SchemaSummary {
            tables: vec![table(
                None,
                "users",
                &[("id", Integer), ("created at", Timestamp)],
            )],
            more_tables: 0,
        };
        let all = suggest(&summary, None).expect("suggests");
        assert!(all.suggestions.is_empty());
        assert!(all.presets.iter().all(|p| !p.fits));
    }
}
