//! The product's health audit, as `GET /products/{slug}/health-report` answers it: what is
//! broken in its tracking, funnel, advertising and SEO/social sources, and what fixes each.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use crate::services::acting::Caller;
use crate::services::health_report::{self, MAX_DAYS};
use crate::state::AppState;
use crate::tools::args;
use crate::tools::{Access, Tool, ToolFuture, json};

pub const HEALTH_REPORT: Tool = Tool {
    name: "get_health_report",
    description: "The product's health audit (GET /products/{slug}/health-report): checks in \
        four categories (tracking, funnel, advertising, seo_social), each pass, warn, fail or \
        skip with the one metric line behind it and the action that fixes it; a score 0-100 \
        and a grade. Reading it changes nothing.",
    access: Access::Read,
    schema: args::schema::<HealthReportArgs>,
    run: health_report,
};

/// `GET /products/{slug}/health-report`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct HealthReportArgs {
    /// The product's slug (as listed by `list_products`).
    slug: String,
    /// The N UTC days ending today, 1-365; default 30.
    #[schemars(range(min = 1, max = MAX_DAYS))]
    days: Option<i64>,
}

fn health_report<'a>(state: &'a AppState, caller: &'a Caller, arguments: Value) -> ToolFuture<'a> {
    Box::pin(async move {
        let args: HealthReportArgs = args::parse(arguments)?;
        json(health_report::report(state, caller, &args.slug, args.days).await?)
    })
}
