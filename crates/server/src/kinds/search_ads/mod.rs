//! `search_ads`: Google Ads, connected through the search-engine grant. Spend lands as
//! `paid_google`, approved `google` budgets are applied to it, and its final URL suffix can be
//! completed from the dashboard.

mod grant;
mod url_suffix;

use std::sync::Arc;

use payback_connectors::search_ads::SearchAdsSource;
use payback_domain::connection::ConnectionKind;
use payback_store::connections::ConnectionRow;
use payback_store::products::ProductRow;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Granted, Plugin, boxed};
use crate::services::source_config;
use crate::state::{AppState, OpenFuture};

const KIND: ConnectionKind = ConnectionKind::SearchAds;

pub fn plugin() -> Plugin {
    Plugin {
        kind: KIND,
        open,
        routes: || {
            OpenApiRouter::new().routes(routes!(
                url_suffix::read_url_suffix,
                url_suffix::write_url_suffix
            ))
        },
        grant: Some(Granted::Searchco(Arc::new(grant::GoogleAds))),
        rules: super::no_rules,
    }
}

/// The grant's refresh token, the chosen account and its manager login.
fn open<'a>(
    state: &'a AppState,
    product: &'a ProductRow,
    row: &'a ConnectionRow,
) -> OpenFuture<'a> {
    Box::pin(async move {
        let config = source_config::search_ads(state, row).await?;
        Ok(boxed(SearchAdsSource::new(
            state.http.clone(),
            config,
            &product.currency,
        )))
    })
}
