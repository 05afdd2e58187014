//! Products (`routes/products.rs`, `services/products.rs`).

use payback_domain::validation as input;
use utoipa::openapi::schema::{KnownFormat, SchemaFormat};

use crate::openapi::rule::*;

pub fn rules() -> Vec<(At, Vec<Rule>)> {
    use At::{Field, Schema};
    vec![
        (
            Field("CreateProductRequest", "name"),
            one_line_name(input::PRODUCT_NAME_MAX_CHARS),
        ),
        (
            Field("CreateProductRequest", "slug"),
            vec![
                Rule::Chars(input::SLUG_MIN_CHARS, input::SLUG_MAX_CHARS),
                Rule::Pattern(input::SLUG_PATTERN.to_owned()),
            ],
        ),
        (
            Field("CreateProductRequest", "domain"),
            one_line_at_most(input::DOMAIN_MAX_CHARS),
        ),
        (Field("CreateProductRequest", "currency"), currency()),
        (
            Field("UpdateProductRequest", "name"),
            one_line_name(input::PRODUCT_NAME_MAX_CHARS),
        ),
        (Field("UpdateProductRequest", "currency"), currency()),
        (
            Field("UpdateProductRequest", "domain"),
            one_line_at_most(input::DOMAIN_MAX_CHARS),
        ),
        (
            Field("UpdateProductRequest", "gate_due_date"),
            vec![Rule::Format(SchemaFormat::KnownFormat(KnownFormat::Date))],
        ),
        (
            Schema("UpdateProductRequest"),
            vec![Rule::AnyRequired(vec![
                "name",
                "currency",
                "domain",
                "stage",
                "gate_due_date",
                "gate_result",
            ])],
        ),
    ]
}
