//! The built-in openers: for each kind that has a connector, how a stored connection becomes a
//! [`Source`] (its credential opened by `source_config`, its settings and the product's currency
//! handed over), registered in the [`SourceRegistry`] the state holds.

use std::sync::Arc;

use payback_connectors::Source;
use payback_connectors::docdb::DocdbSource;
use payback_connectors::payments::PaymentsSource;
use payback_connectors::search_ads::SearchAdsSource;
use payback_connectors::social_a::SocialASource;
use payback_connectors::social_ads_a::SocialAdsASource;
use payback_connectors::social_ads_b::SocialAdsBSource;
use payback_connectors::sql::SqlSource;
use payback_domain::connection::ConnectionKind;
use payback_store::connections::ConnectionRow;
use payback_store::products::ProductRow;

use crate::services::source_config::{self, Database};
use crate::state::{AppState, OpenFuture, OpenSource, SourceRegistry};

/// The connectors this build has.
pub fn built_in() -> SourceRegistry {
    let mut registry = SourceRegistry::default();
    let openers: [(ConnectionKind, OpenFn); 8] = [
        (ConnectionKind::Payments, open_payments),
        (ConnectionKind::SqlA, open_database),
        (ConnectionKind::SqlB, open_database),
        (ConnectionKind::Docdb, open_database),
        (ConnectionKind::SearchAds, open_search_ads),
        (ConnectionKind::SocialAdsA, open_social_ads),
        (ConnectionKind::SocialAdsB, open_pro_ads),
        (ConnectionKind::SocialA, open_social_page),
    ];
    for (kind, open) in openers {
        registry.register(kind, Arc::new(FnOpener(open)));
    }
    registry
}

/// A kind's opener as a plain function: most kinds need nothing but their config and the
/// product's currency, so one adapter serves them all.
type OpenFn = for<'a> fn(&'a AppState, &'a ProductRow, &'a ConnectionRow) -> OpenFuture<'a>;

struct FnOpener(OpenFn);

impl OpenSource for FnOpener {
    fn open<'a>(
        &'a self,
        state: &'a AppState,
        product: &'a ProductRow,
        row: &'a ConnectionRow,
    ) -> OpenFuture<'a> {
        (self.0)(state, product, row)
    }
}

fn boxed(source: impl Source + 'static) -> Box<dyn Source> {
    Box::new(source)
}

/// `payments`: the Stripe key and the charges' stage.
fn open_payments<'a>(
    state: &'a AppState,
    product: &'a ProductRow,
    row: &'a ConnectionRow,
) -> OpenFuture<'a> {
    Box::pin(async move {
        let config = source_config::payments(state, row).await?;
        Ok(boxed(PaymentsSource::new(
            state.http.clone(),
            config,
            &product.currency,
        )))
    })
}

/// `sql_a`, `sql_b`, `docdb`: the checked database and the event maps.
fn open_database<'a>(
    state: &'a AppState,
    product: &'a ProductRow,
    row: &'a ConnectionRow,
) -> OpenFuture<'a> {
    Box::pin(async move {
        let maps = source_config::event_maps(row)?;
        let currency = &product.currency;
        Ok(match source_config::database(state, row).await? {
            Database::Sql(config) => boxed(SqlSource::new(config, maps, currency)),
            Database::Docdb(config) => boxed(DocdbSource::new(config, maps, currency)),
        })
    })
}

/// `search_ads`: the grant's refresh token, the chosen account and its manager login.
fn open_search_ads<'a>(
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

/// `social_ads_a`: the Meta token, the ad account and its campaign filter.
fn open_social_ads<'a>(
    state: &'a AppState,
    product: &'a ProductRow,
    row: &'a ConnectionRow,
) -> OpenFuture<'a> {
    Box::pin(async move {
        let config = source_config::social_ads_a(state, row).await?;
        Ok(boxed(SocialAdsASource::new(
            state.http.clone(),
            config,
            &product.currency,
        )))
    })
}

/// `social_ads_b`: the LinkedIn token and the ad account.
fn open_pro_ads<'a>(
    state: &'a AppState,
    product: &'a ProductRow,
    row: &'a ConnectionRow,
) -> OpenFuture<'a> {
    Box::pin(async move {
        let config = source_config::social_ads_b(state, row).await?;
        Ok(boxed(SocialAdsBSource::new(
            state.http.clone(),
            config,
            &product.currency,
        )))
    })
}

/// `social_a`: the Meta token and the page.
fn open_social_page<'a>(
    state: &'a AppState,
    _product: &'a ProductRow,
    row: &'a ConnectionRow,
) -> OpenFuture<'a> {
    Box::pin(async move {
        let config = source_config::social_a(state, row).await?;
        Ok(boxed(SocialASource::new(state.http.clone(), config)))
    })
}

#[cfg(test)]
mod tests {
    use payback_domain::connection::ConnectionKind;

    use super::built_in;

    /// The dashboard offers exactly the kinds this build can read: the kind table's
    /// `connectable` column (which `kinds.ts` carries to the web) and the registry agree.
    #[test]
    fn the_kind_tables_connectable_kinds_are_the_registered_ones() {
        let registry = built_in();
        for kind in ConnectionKind::all() {
            assert_eq!(registry.reads(kind), kind.connectable(), "{kind}");
        }
    }
}
