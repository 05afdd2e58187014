//! The scorecard's catalog: every metric a row may show, its unit, the source family it needs,
//! and whether the product has that source connected.

use std::collections::BTreeSet;

use payback_store::connections;
use payback_store::products::ProductRow;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::ApiResult;
use crate::state::AppState;

/// How a row's numbers read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    Count,
    /// Integer cents in the product's currency.
    Cents,
    /// 0-100.
    Percent,
    Ratio,
}

impl Unit {
    pub fn word(self) -> &'static str {
        match self {
            Unit::Count => "count",
            Unit::Cents => "cents",
            Unit::Percent => "percent",
            Unit::Ratio => "ratio",
        }
    }
}

/// Where a row's numbers come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// Ingested events and revenue: always available.
    FirstParty,
    /// An ad network (`search_ads`, `social_ads_a`, `social_ads_b`).
    Ads,
    /// A search console (`search_console`, `search_b`).
    Search,
    /// Organic social (`social_a`, `social_b`).
    Social,
    /// Typed by a person.
    Manual,
}

impl Source {
    /// The connection kinds that make this source available; empty for first-party and manual.
    fn kinds(self) -> &'static [&'static str] {
        match self {
            Source::Ads => &["search_ads", "social_ads_a", "social_ads_b"],
            Source::Search => &["search_console", "search_b"],
            Source::Social => &["social_a", "social_b"],
            Source::FirstParty | Source::Manual => &[],
        }
    }
}

/// One metric of the catalog.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MetricDef {
    pub metric: &'static str,
    pub label: &'static str,
    pub unit: Unit,
    pub source: Source,
}

const fn def(metric: &'static str, label: &'static str, unit: Unit, source: Source) -> MetricDef {
    MetricDef {
        metric,
        label,
        unit,
        source,
    }
}

/// Every catalog metric, in the order the catalog lists them.
pub const METRICS: &[MetricDef] = &[
    def("visits", "Visits", Unit::Count, Source::FirstParty),
    def("leads", "Leads", Unit::Count, Source::FirstParty),
    def("signups", "Signups", Unit::Count, Source::FirstParty),
    def(
        "customers",
        "New customers",
        Unit::Count,
        Source::FirstParty,
    ),
    def("revenue", "Revenue", Unit::Cents, Source::FirstParty),
    def(
        "visit_to_signup",
        "Visit to signup",
        Unit::Percent,
        Source::FirstParty,
    ),
    def(
        "signup_to_customer",
        "Signup to customer",
        Unit::Percent,
        Source::FirstParty,
    ),
    def("spend", "Ad spend", Unit::Cents, Source::Ads),
    def("cac", "CAC", Unit::Cents, Source::Ads),
    def("roas", "ROAS", Unit::Ratio, Source::Ads),
    def("ltv_cac", "LTV:CAC", Unit::Ratio, Source::Ads),
    def(
        "search_clicks",
        "Search clicks",
        Unit::Count,
        Source::Search,
    ),
    def(
        "search_impressions",
        "Search impressions",
        Unit::Count,
        Source::Search,
    ),
    def(
        "social_followers",
        "Social followers",
        Unit::Count,
        Source::Social,
    ),
];

/// The catalog metric named `metric`.
pub fn find(metric: &str) -> Option<&'static MetricDef> {
    METRICS.iter().find(|def| def.metric == metric)
}

/// A catalog entry as the API shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct CatalogEntry {
    pub metric: String,
    pub label: String,
    pub unit: Unit,
    pub source: Source,
    /// Whether the product has a source of this family connected (first-party: always).
    pub available: bool,
}

/// `GET /products/{slug}/scorecard/catalog`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Catalog {
    pub catalog: Vec<CatalogEntry>,
}

/// The source families a product has connected.
#[derive(Debug, Clone, Default)]
pub struct Connected(BTreeSet<&'static str>);

impl Connected {
    /// The product's connections, whatever their status: a connected source with a failing
    /// run is still connected (its rows show zeros, and health says why).
    pub async fn of(state: &AppState, product: &ProductRow) -> ApiResult<Self> {
        let kinds = connections::for_product(&state.store, &product.id)
            .await?
            .into_iter()
            .map(|row| row.kind.as_str())
            .collect();
        Ok(Self(kinds))
    }

    pub fn has(&self, source: Source) -> bool {
        match source {
            Source::FirstParty => true,
            Source::Manual => false,
            family => family.kinds().iter().any(|kind| self.0.contains(kind)),
        }
    }
}

/// Every catalog metric with whether it is available to this product.
pub fn entries(connected: &Connected) -> Vec<CatalogEntry> {
    METRICS
        .iter()
        .map(|def| CatalogEntry {
            metric: def.metric.to_owned(),
            label: def.label.to_owned(),
            unit: def.unit,
            source: def.source,
            available: connected.has(def.source),
        })
        .collect()
}
