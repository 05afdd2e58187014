//! Every rule the server checks of a request body, query or path, by area, each built from the
//! constant or list its check reads: a module per area here, and the rules of the routes that
//! state their own next to their handlers (`routes::landing_pages`, `routes::scorecard`, ...).
//! A kind's own connect bodies state theirs in its plug-in (`crate::kinds`).

mod account;
mod chat;
mod connections;
mod conversions;
mod dashboards;
mod grants;
mod growth;
mod ingest;
mod outreach;
mod products;
mod queue;
mod reads;

use super::rule::{At, Rule};
use crate::routes;

/// Every rule the server checks of a request body, query or path, where the schema states it.
pub fn rules() -> Vec<(At, Vec<Rule>)> {
    let mut rules = account::rules();
    rules.extend(products::rules());
    rules.extend(ingest::rules());
    rules.extend(conversions::rules());
    rules.extend(outreach::rules());
    rules.extend(queue::rules());
    rules.extend(chat::rules());
    rules.extend(connections::rules());
    rules.extend(grants::rules());
    rules.extend(reads::rules());
    rules.extend(
        crate::kinds::all()
            .iter()
            .flat_map(|plugin| (plugin.rules)()),
    );
    rules.extend(dashboards::rules());
    rules.extend(growth::rules());
    rules.extend(routes::landing_pages::rules());
    rules.extend(routes::scorecard::rules());
    rules.extend(routes::service_account::rules());
    rules.extend(routes::detect::rules());
    rules.extend(routes::recordings::rules());
    rules
}
