//! Products: the portfolio (`GET /portfolio`) and one product's row (`GET /products/{slug}`).

use serde_json::Value;

use crate::input::limits;
use crate::services::acting::Caller;
use crate::services::products;
use crate::state::AppState;
use crate::tools::args::{self, LimitArgs, ProductArgs};
use crate::tools::{Access, Tool, ToolFuture, json};

pub const LIST_PRODUCTS: Tool = Tool {
    name: "list_products",
    description: "The portfolio: one row per product of the account, oldest first, as GET \
        /portfolio answers: slug, name, stage, currency, gate, 7- and 30-day spend, 30-day \
        visits, leads, customers and revenue (amounts in cents), CAC, LTV, LTV:CAC and cards \
        pending. Start here to learn the slugs the other tools take.",
    access: Access::Read,
    schema: args::schema::<LimitArgs>,
    run: list_products,
};

pub const GET_PRODUCT: Tool = Tool {
    name: "get_product",
    description: "One product's row, as GET /products/{slug} answers: stage, gate, currency, \
        domain and the same metric columns as list_products.",
    access: Access::Read,
    schema: args::schema::<ProductArgs>,
    run: get_product,
};

fn list_products<'a>(state: &'a AppState, caller: &'a Caller, arguments: Value) -> ToolFuture<'a> {
    Box::pin(async move {
        let args: LimitArgs = args::parse(arguments)?;
        let limit = limits::PORTFOLIO.check(args.limit)?;
        json(products::portfolio(state, caller, limit).await?)
    })
}

fn get_product<'a>(state: &'a AppState, caller: &'a Caller, arguments: Value) -> ToolFuture<'a> {
    Box::pin(async move {
        let args: ProductArgs = args::parse(arguments)?;
        json(products::row(state, caller, &args.slug).await?)
    })
}
