//! Payback's storage: one query set over SQLite and PostgreSQL.
//!
//! Every query is written once and expanded into both driver arms by [`on_db!`] / [`on_tx!`], so
//! each is type-checked against both backends. Functions that read or write tenant data take an
//! [`AccountScope`]; a row of another account is simply not found.

#[macro_use]
mod macros;

pub mod accounts;
pub mod aggregate_stages;
pub mod api_keys;
pub mod billing;
pub mod budget_applications;
pub mod cards;
pub mod connections;
pub mod dashboards;
pub mod db;
pub mod demo_settings;
pub mod distribution;
pub mod error;
pub mod grant_states;
pub mod history;
mod identity_sql;
pub mod ingest;
pub mod jobs;
pub mod landing_pages;
pub mod leads;
mod locks;
pub mod members;
pub mod one_time_tokens;
pub mod policies;
pub mod products;
pub mod recordings;
pub mod replay_requests;
pub mod reports;
pub mod scope;
pub mod scorecard;
pub mod sessions;
pub mod snapshots;
pub mod social_posts;
pub mod spend;
pub mod sso;
pub mod tag_manager;
pub mod tracking_keys;
pub mod users;
mod words;

pub use db::{Backend, Db, Reader, Tx};
pub use error::StoreError;
pub use scope::{AccountScope, Visibility};

/// Fresh identifiers: UUID v7, so ids sort by creation time.
pub fn new_id() -> String {
    uuid::Uuid::now_v7().to_string()
}
