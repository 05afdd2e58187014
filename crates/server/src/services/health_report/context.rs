//! What several categories read, loaded once per report: the product, the window, its
//! connections, the attribution coverage, spend per channel, the funnel's cells and which
//! sources wrote each stage, and when the last event and revenue row arrived. Every read goes
//! through the store or service function that the corresponding report uses, so the health
//! report never counts differently from the report a person opens to dig in.

use payback_domain::Timestamp;
use payback_domain::connection::ConnectionKind;
use payback_domain::money::format_cents;
use payback_domain::span::Span;
use payback_store::connections::{self, ConnectionRow};
use payback_store::products::ProductRow;
use payback_store::reports::attribution::{self, ChannelSum, Coverage};
use payback_store::reports::{activity, funnel as funnel_store};

use crate::error::ApiResult;
use crate::input::Window;
use crate::services::acting::Caller;
use crate::services::funnel::{self, FunnelRow};
use crate::state::AppState;

use super::text;

pub struct Context<'a> {
    pub state: &'a AppState,
    pub caller: &'a Caller,
    pub product: ProductRow,
    pub window: Window,
    pub now: Timestamp,
    /// The window's days.
    pub span: Span,
    /// Every connection of the product, oldest first.
    pub connections: Vec<ConnectionRow>,
    /// What the attribution rests on over the window (the attribution report's `coverage`).
    pub coverage: Coverage,
    /// Spend per channel over the window (the attribution report's spend column).
    pub spend: Vec<ChannelSum>,
    /// The funnel report's stage x channel cells over the window.
    pub funnel: Vec<FunnelRow>,
    /// `(stage, source)` for every source that wrote a stage in the window.
    pub stage_sources: Vec<(String, String)>,
    /// The product's newest event (epoch ms), ever.
    pub last_event_at: Option<i64>,
    /// The product's newest revenue row (epoch ms), ever.
    pub last_revenue_at: Option<i64>,
    /// Accepted batches set aside because the database refused them, and the newest error.
    pub set_aside: (i64, Option<String>),
}

impl<'a> Context<'a> {
    pub async fn load(
        state: &'a AppState,
        caller: &'a Caller,
        product: ProductRow,
        window: Window,
    ) -> ApiResult<Self> {
        let now = state.clock.now();
        let span = window.span(now);
        let db = &state.store;
        let id = product.id.as_str();
        Ok(Self {
            connections: connections::for_product(db, id).await?,
            coverage: attribution::coverage(db, id, span).await?,
            spend: attribution::spend_by_channel(db, id, span).await?,
            funnel: funnel::report(state, &product, window).await?,
            stage_sources: funnel_store::stage_sources(db, id, span).await?,
            last_event_at: activity::last_event_at(db, id).await?,
            last_revenue_at: activity::last_revenue_at(db, id).await?,
            set_aside: activity::ingest_failures(db, id).await?,
            state,
            caller,
            product,
            window,
            now,
            span,
        })
    }

    /// Whether the product has any data a score could rest on: an event or a revenue row ever,
    /// spend in the window, or a connection that has synced.
    pub fn has_data(&self) -> bool {
        self.last_event_at.is_some()
            || self.last_revenue_at.is_some()
            || self.spend_cents() != 0
            || self
                .connections
                .iter()
                .any(|row| row.last_sync_at.is_some())
    }

    /// The product's connections of the kinds `keep` takes, with their kinds.
    pub fn connections_where(
        &self,
        keep: impl Fn(ConnectionKind) -> bool,
    ) -> Vec<(ConnectionKind, &ConnectionRow)> {
        self.connections
            .iter()
            .map(|row| (row.kind, row))
            .filter(|(kind, _)| keep(*kind))
            .collect()
    }

    /// Total spend over the window.
    pub fn spend_cents(&self) -> i64 {
        self.spend.iter().map(|row| row.cents).sum()
    }

    /// Spend of one channel over the window.
    pub fn channel_spend_cents(&self, channel: &str) -> i64 {
        self.spend
            .iter()
            .filter(|row| row.channel.as_deref() == Some(channel))
            .map(|row| row.cents)
            .sum()
    }

    /// Money in the product's currency (`123.45 USD`).
    pub fn money(&self, cents: i64) -> String {
        format_cents(cents, &self.product.currency)
    }

    /// `30 days`: the window as evidence names it.
    pub fn window_text(&self) -> String {
        text::days(self.window.days)
    }

    /// An API path under the product (`/products/shop` + `rest`), for actions to name.
    pub fn path(&self, rest: &str) -> String {
        format!("/products/{}{rest}", self.product.slug)
    }
}
