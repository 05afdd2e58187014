//! Outreach (`routes/distribution.rs`).

use utoipa::openapi::schema::SchemaFormat;

use crate::input::rules::{WEB_URL_PATTERN, distribution};
use crate::openapi::rule::*;

pub fn rules() -> Vec<(At, Vec<Rule>)> {
    use At::Field;
    vec![
        (
            Field("DistributionRequest", "productSlug"),
            vec![Rule::Chars(1, distribution::PRODUCT_SLUG_MAX_CHARS)],
        ),
        (
            Field("DistributionRequest", "channel"),
            one_line_name(distribution::LABEL_MAX_CHARS),
        ),
        (
            Field("DistributionRequest", "kind"),
            one_line_name(distribution::LABEL_MAX_CHARS),
        ),
        (
            Field("DistributionRequest", "url"),
            vec![
                Rule::Chars(0, distribution::TEXT_MAX_CHARS),
                Rule::Format(SchemaFormat::Custom("uri".to_owned())),
                Rule::Pattern(WEB_URL_PATTERN.to_owned()),
            ],
        ),
        (
            Field("DistributionRequest", "utmCampaign"),
            one_line_name(distribution::CAMPAIGN_MAX_CHARS),
        ),
        (
            Field("DistributionRequest", "note"),
            at_most(distribution::TEXT_MAX_CHARS),
        ),
    ]
}
