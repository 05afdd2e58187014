//! Field lists the spec fixes, written once for every test that checks a shape against them.

/// The Product row's identifying and editable fields.
pub const PRODUCT_FIELDS: &[&str] = &[
    "product_id",
    "slug",
    "name",
    "stage",
    "currency",
    "domain",
    "gate_result",
    "gate_due_date",
];

/// The Product row's metric fields.
pub const PRODUCT_METRIC_FIELDS: &[&str] = &[
    "spend_7d_cents",
    "spend_30d_cents",
    "spend_prev_30d_cents",
    "visits_30d",
    "leads_30d",
    "customers_30d",
    "revenue_30d_cents",
    "revenue_prev_30d_cents",
    "cac_cents",
    "ltv_cents",
    "ltv_cac",
    "pending_cards",
];

/// Every field of the Product row, in the spec's order.
pub fn product_row_fields() -> Vec<&'static str> {
    [PRODUCT_FIELDS, PRODUCT_METRIC_FIELDS].concat()
}
