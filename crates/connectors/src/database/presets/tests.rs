//! The presets against hand-made schema summaries.

use payback_domain::event_map::MoneyUnit;

use super::*;
use crate::database::schema::{ColumnKind, ColumnSummary};

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
