//! The reports of one product, each as its `GET /products/{slug}/...` route answers: attribution
//! with its sales and ads levels, the daily timeseries, the funnel, cohort payback and the
//! conversions report.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use crate::input::Window;
use crate::services::acting::Caller;
use crate::services::{attribution, conversions, funnel, payback, products, series};
use crate::state::AppState;
use crate::tools::args::{self, DaysArgs, ProductArgs};
use crate::tools::{Access, Tool, ToolFuture, json};

pub const ATTRIBUTION: Tool = Tool {
    name: "get_attribution",
    description: "The attribution report of a product (GET /products/{slug}/attribution): per \
        channel the spend, first- and last-touch revenue, customers, CAC and ROAS over the \
        window, with `unattributed` as its own row, totals, the primary goal and coverage. \
        Amounts are in cents of the product's currency.",
    access: Access::Read,
    schema: args::schema::<DaysArgs>,
    run: attribution_report,
};

pub const SALES: Tool = Tool {
    name: "list_sales",
    description: "The revenue rows behind the attribution report (GET \
        /products/{slug}/attribution/sales), newest first, each with its first- and last-touch \
        channel; `channel` keeps the sales whose first touch is that channel.",
    access: Access::Read,
    schema: args::schema::<SalesArgs>,
    run: sales,
};

pub const ADS: Tool = Tool {
    name: "get_ads_report",
    description: "The ads report (GET /products/{slug}/attribution/ads): spend, clicks, revenue, \
        customers, CAC and ROAS per campaign, ad group, keyword or ad, revenue joined through \
        each customer's last paid touch; the rows `no_dimension` and `unattributed` hold what \
        no ad explains.",
    access: Access::Read,
    schema: args::schema::<AdsArgs>,
    run: ads,
};

pub const TIMESERIES: Tool = Tool {
    name: "get_timeseries",
    description: "One row per UTC day of the window, oldest first, zero-filled (GET \
        /products/{slug}/timeseries): spend, net revenue, visits, leads, customers acquired and \
        the search and social columns.",
    access: Access::Read,
    schema: args::schema::<DaysArgs>,
    run: timeseries,
};

pub const FUNNEL: Tool = Tool {
    name: "get_funnel",
    description: "The funnel (GET /products/{slug}/funnel): volume per stage and channel over \
        the window; identified traffic counts under its first-touch channel.",
    access: Access::Read,
    schema: args::schema::<DaysArgs>,
    run: funnel_report,
};

pub const PAYBACK: Tool = Tool {
    name: "get_payback",
    description: "Cohort payback (GET /products/{slug}/payback): weekly acquisition cohorts with \
        cumulative revenue per cohort day against the week's spend, and the last 90 days' CAC \
        per first-touch channel.",
    access: Access::Read,
    schema: args::schema::<ProductArgs>,
    run: payback_report,
};

pub const CONVERSIONS: Tool = Tool {
    name: "get_conversions_report",
    description: "The conversions report (GET /products/{slug}/conversions/report): each active \
        conversion's count and value in the window against the previous window as long, split \
        per channel.",
    access: Access::Read,
    schema: args::schema::<DaysArgs>,
    run: conversions_report,
};

/// `GET /products/{slug}/attribution/sales`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct SalesArgs {
    /// The product's slug (as listed by `list_products`).
    slug: String,
    /// The N UTC days ending today, 1-3650; default 30.
    #[schemars(range(min = 1, max = Window::MAX_DAYS))]
    days: Option<i64>,
    /// Only sales whose first touch is this channel; `unattributed` for those with none.
    channel: Option<String>,
    /// At most this many sales, 1-1000; default 100.
    #[schemars(range(min = 1, max = Window::MAX_LIMIT))]
    limit: Option<i64>,
}

/// `GET /products/{slug}/attribution/ads`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct AdsArgs {
    /// The product's slug (as listed by `list_products`).
    slug: String,
    /// The N UTC days ending today, 1-3650; default 30.
    #[schemars(range(min = 1, max = Window::MAX_DAYS))]
    days: Option<i64>,
    /// `campaign` (default), `ad_group`, `keyword` or `ad`.
    level: Option<String>,
    /// At most this many rows (the sentinel rows always follow), 1-1000; default 100.
    #[schemars(range(min = 1, max = Window::MAX_LIMIT))]
    limit: Option<i64>,
}

fn attribution_report<'a>(
    state: &'a AppState,
    caller: &'a Caller,
    arguments: Value,
) -> ToolFuture<'a> {
    Box::pin(async move {
        let args: DaysArgs = args::parse(arguments)?;
        let window = Window::new(args.days, None)?;
        json(attribution::report(state, caller, &args.slug, window).await?)
    })
}

fn sales<'a>(state: &'a AppState, caller: &'a Caller, arguments: Value) -> ToolFuture<'a> {
    Box::pin(async move {
        let args: SalesArgs = args::parse(arguments)?;
        let window = Window::new(args.days, args.limit)?;
        let channel = args.channel.as_deref();
        json(attribution::sales(state, caller, &args.slug, window, channel).await?)
    })
}

fn ads<'a>(state: &'a AppState, caller: &'a Caller, arguments: Value) -> ToolFuture<'a> {
    Box::pin(async move {
        let args: AdsArgs = args::parse(arguments)?;
        let window = Window::new(args.days, args.limit)?;
        let level = args.level.as_deref();
        json(attribution::ads(state, caller, &args.slug, window, level).await?)
    })
}

fn timeseries<'a>(state: &'a AppState, caller: &'a Caller, arguments: Value) -> ToolFuture<'a> {
    Box::pin(async move {
        let args: DaysArgs = args::parse(arguments)?;
        let window = Window::new(args.days, None)?;
        let product = products::find_settled(state, caller.scope()?, &args.slug).await?;
        json(series::timeseries(state, &product, window).await?)
    })
}

fn funnel_report<'a>(state: &'a AppState, caller: &'a Caller, arguments: Value) -> ToolFuture<'a> {
    Box::pin(async move {
        let args: DaysArgs = args::parse(arguments)?;
        let window = Window::new(args.days, None)?;
        let product = products::find_settled(state, caller.scope()?, &args.slug).await?;
        json(funnel::report(state, &product, window).await?)
    })
}

fn payback_report<'a>(state: &'a AppState, caller: &'a Caller, arguments: Value) -> ToolFuture<'a> {
    Box::pin(async move {
        let args: ProductArgs = args::parse(arguments)?;
        json(payback::report(state, caller, &args.slug).await?)
    })
}

fn conversions_report<'a>(
    state: &'a AppState,
    caller: &'a Caller,
    arguments: Value,
) -> ToolFuture<'a> {
    Box::pin(async move {
        let args: DaysArgs = args::parse(arguments)?;
        let window = Window::new(args.days, None)?;
        json(conversions::report(state, caller, &args.slug, window).await?)
    })
}
