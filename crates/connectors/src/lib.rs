//! Connectors: every source kind speaks one vendor's documented API (base URL configurable, so
//! tests run against HTTP fakes on loopback) and answers records the sync engine writes through
//! the same ingestion path as the events API. Each kind is a [`Source`]; what one pass read is
//! one normalized [`SyncOutput`].

pub mod ad_account;
pub mod analytics_a;
pub mod api_source;
pub mod batch;
pub mod billing;
pub mod budget;
pub mod database;
pub mod docdb;
pub mod error;
pub mod geo_a;
pub mod google;
pub mod graph;
mod keyed_http;
pub mod oauth;
mod oauth_http;
pub mod oidc;
pub mod payments;
pub mod product_analytics_a;
pub mod replay_a;
pub mod search_ads;
pub mod search_b;
pub mod search_console;
pub mod seo_a;
pub mod seo_b;
pub mod sheets;
pub mod social_a;
pub mod social_ads_a;
pub mod social_ads_b;
pub mod social_b;
pub mod source;
pub mod sql;
pub mod tagmgr;
mod window;

pub use ad_account::AdAccountOption;
pub use batch::{
    DayRange, RevenueRow, Snapshot, SocialPost, SpendRead, SpendRow, StageDay, StageDaysRead,
    SyncOutput,
};
pub use budget::{BudgetChange, BudgetOutcome, BudgetWriter};
pub use error::ConnectorError;
pub use source::{PageSink, Revocation, Source, SourceFuture};
pub use window::SyncWindow;
