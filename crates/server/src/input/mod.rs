//! What callers send, checked the same at every door: the HTTP routes (`routes/`) and the MCP
//! tools (`tools/`) read the same fields with the same bounds and rules, and the services take
//! the checked values (a [`Window`]). Nothing here knows HTTP: the extractors that read a
//! request live in `extract/`.

pub mod rules;
pub mod window;

pub use window::{LimitParams, ListLimit, Window, limits};
