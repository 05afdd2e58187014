//! What every family of actions reads, loaded once per call: the product, the window, the
//! health report (whose checks decide whether a situation needs an action, with their own
//! thresholds), the attribution report (spend, customers and CAC per channel), the all-time LTV
//! of the product row, the funnel in effect with its volumes, and the kinds connected.

use std::collections::BTreeMap;

use payback_domain::Timestamp;
use payback_domain::connection::ConnectionKind;
use payback_domain::money::format_cents;
use payback_domain::source_kind::Family;
use payback_store::connections;
use payback_store::products::ProductRow;

use crate::error::ApiResult;
use crate::input::Window;
use crate::services::acting::Caller;
use crate::services::attribution::{self, AttributionReport};
use crate::services::funnel::{self, FunnelStep};
use crate::services::health_report::{self, HealthCheck, HealthReport, HealthStatus};
use crate::services::{product_metrics, products};
use crate::state::AppState;

use super::quoting::quoted;

pub struct Situation<'a> {
    pub state: &'a AppState,
    pub caller: &'a Caller,
    pub product: ProductRow,
    pub window: Window,
    pub now: Timestamp,
    pub health: HealthReport,
    pub attribution: AttributionReport,
    /// All-time net revenue per customer ever acquired (the product row's LTV).
    pub ltv_cents: Option<i64>,
    /// The funnel in effect and each stage's volume in the window.
    pub steps: Vec<FunnelStep>,
    pub volumes: BTreeMap<String, i64>,
    /// Kinds of the product's connections, oldest first.
    pub connected: Vec<ConnectionKind>,
}

impl<'a> Situation<'a> {
    pub async fn load(
        state: &'a AppState,
        caller: &'a Caller,
        slug: &str,
        days: Option<i64>,
    ) -> ApiResult<Self> {
        let window = health_report::window(days)?;
        // The health report finds the product in the caller's account (404 otherwise) and
        // waits for its pending events; the reads after it count the same data.
        let health = health_report::report(state, caller, slug, Some(window.days)).await?;
        let product = products::find(state, caller.scope()?, slug).await?;
        let attribution = attribution::report(state, caller, slug, window).await?;
        let id = product.id.as_str();
        let ltv_cents = product_metrics::for_products(state, &[id])
            .await?
            .remove(id)
            .and_then(|row| row.ltv_cents);
        let (steps, _) = funnel::steps(state, &product).await?;
        let mut volumes: BTreeMap<String, i64> = BTreeMap::new();
        for row in funnel::report(state, &product, window).await? {
            *volumes.entry(row.stage.as_str().to_owned()).or_default() += row.volume;
        }
        let connected = connections::for_product(&state.store, id)
            .await?
            .iter()
            .map(|row| row.kind)
            .collect();
        Ok(Self {
            now: state.clock.now(),
            state,
            caller,
            product,
            window,
            health,
            attribution,
            ltv_cents,
            steps,
            volumes,
            connected,
        })
    }

    /// The health check `id`, when its verdict is `fail` or `warn` (what actions answer).
    pub fn failing(&self, id: &str) -> Option<&HealthCheck> {
        self.health
            .categories
            .iter()
            .flat_map(|category| &category.checks)
            .find(|check| check.id == id)
            .filter(|check| matches!(check.status, HealthStatus::Fail | HealthStatus::Warn))
    }

    /// Whether a connection of the `family` exists (payments: whether revenue arrives by
    /// itself).
    pub fn has_family(&self, family: Family) -> bool {
        self.connected.iter().any(|kind| kind.family() == family)
    }

    /// An API path under the product (`/products/shop` + `rest`).
    pub fn path(&self, rest: &str) -> String {
        format!("/products/{}{rest}", self.product.slug)
    }

    /// `?days=N` for reads over the same window.
    pub fn days_query(&self) -> String {
        format!("?days={}", self.window.days)
    }

    /// Money in the product's currency (`123.45 USD`).
    pub fn money(&self, cents: i64) -> String {
        format_cents(cents, &self.product.currency)
    }

    /// The product's name as prompts show it: quoted on one line ([`quoted`]).
    pub fn quoted_name(&self) -> String {
        quoted(&self.product.name)
    }

    /// What is known of the product's stack: its domain and its connected sources.
    pub fn stack(&self) -> Vec<String> {
        let mut stack = Vec::new();
        if let Some(domain) = &self.product.domain {
            stack.push(format!("website {}", quoted(domain)));
        }
        // Each source as a sentence names it (the kind table's phrase).
        for kind in &self.connected {
            stack.push(kind.prose().to_owned());
        }
        stack
    }
}
