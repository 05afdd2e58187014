//! Business rules shared by every door (HTTP today; MCP, chat and jobs later). Routes parse and
//! answer; everything they decide lives here or in `payback_domain`.
//!
//! A door builds the acting party ([`acting::Caller`]: who, for which account, through which
//! `via`) and calls these functions; they never import axum and answer `ApiResult<T>`, whose
//! mapping to HTTP statuses lives in `error.rs` (`IntoResponse`), used by the HTTP door alone.

pub mod acting;
pub mod ad_accounts;
pub mod attribution;
pub mod audit;
pub mod billing;
pub mod budget_apply;
pub mod chat;
pub mod connections;
pub mod conversions;
pub mod dashboards;
pub mod database_env;
pub mod databases;
pub mod demand;
pub mod detect;
pub mod distribution;
pub mod event_maps;
pub mod exports;
pub mod fetch_guard;
pub mod funnel;
pub mod grants;
pub mod growth;
pub mod health;
pub mod health_report;
pub mod host_guard;
pub mod ingest;
pub mod key_connect;
pub mod keys;
pub mod landing_pages;
pub mod mapping_suggestions;
pub mod payback;
pub mod policy;
pub mod product_metrics;
pub mod products;
pub mod proposals;
pub mod queue;
pub mod recordings;
pub mod scorecard;
pub mod searchco;
pub mod searchco_account;
pub mod series;
pub mod sessions;
pub mod signup;
pub mod social;
pub mod socialco;
pub mod source_config;
pub mod spend;
pub mod spend_intake;
pub mod sso;
pub mod sync;
pub mod sync_batch;
pub mod team;
pub mod tracking;
pub mod url_suffix;
pub mod workspaces;
