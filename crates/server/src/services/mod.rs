//! Business rules shared by every door (HTTP today; MCP, chat and jobs later). Routes parse and
//! answer; everything they decide lives here or in `payback_domain`.

pub mod audit;
pub mod ingest;
pub mod keys;
pub mod products;
pub mod sessions;
pub mod signup;
pub mod team;
pub mod tracking;
pub mod workspaces;
