//! Request extractors: our own JSON and query extractors (so every rejection is a JSON error
//! naming the problem) and the auth levels of the spec (B, O, S, operator), which build the
//! acting party of `services::acting`.

pub mod auth;
pub mod json;
pub mod nul;
pub mod query;

pub use auth::{Caller, Owner, Person, Principal, SessionCaller};
pub use json::{BeaconJson, Json, ValidJson};
pub use query::Query;
