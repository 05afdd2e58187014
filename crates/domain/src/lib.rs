//! Payback's domain: the vocabulary and the rules that hold no matter how a request arrives.
//!
//! Nothing in this crate performs I/O. The HTTP layer, the store, jobs and (later) MCP and chat
//! all reach for these types so that one rule lives in one place.

pub mod actor;
pub mod card;
pub mod channel;
pub mod clock;
pub mod connection;
pub mod dashboard_spec;
pub mod event;
pub mod event_map;
pub mod landing_path;
pub mod lease;
pub mod metrics;
pub mod money;
pub mod policy;
pub mod roles;
pub mod snapshot_metric;
pub mod source_kind;
pub mod span;
pub mod stage;
pub mod timestamp;
pub mod validation;

pub use actor::{Actor, Via};
pub use clock::{Clock, ManualClock, SystemClock};
pub use roles::{AccountRole, GateResult, MemberRole, MemberStatus, ProductStage};
pub use stage::Stage;
pub use timestamp::{DAY_MS, HOUR_MS, MINUTE_MS, Timestamp};
