//! The Payback HTTP service.
//!
//! Data flows one way: HTTP -> service function -> store -> database. `routes/` parses and
//! answers, `services/` holds the rules, `payback_store` owns SQL, `payback_domain` owns the
//! vocabulary.

pub mod app;
pub mod body_limit;
pub mod config;
pub mod crypto;
pub mod demo;
pub mod error;
pub mod extract;
pub mod input;
pub mod jobs;
pub mod kinds;
pub mod mail;
pub mod mcp;
pub mod model_gateway;
pub mod openapi;
pub mod operator;
pub mod pending_events;
pub mod rate_limit;
pub mod raw_env;
pub mod routes;
pub mod secret;
pub mod secrets;
pub mod services;
pub mod state;
pub mod tools;
pub mod trusted_proxies;
pub mod views;

pub use app::{build_state, router, serve, shutdown_signal, state_from_config};
pub use config::Config;
pub use error::ApiError;
pub use state::AppState;
