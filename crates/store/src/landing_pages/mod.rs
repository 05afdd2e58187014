//! Landing pages: the pages a product tracks (`pages`), the exclude filters over their paths
//! (`filters`), each page's analyses (`analyses`), the reads of traffic per path and day
//! (`traffic`: the fold's first-party visits, `ingest/landing_visits.rs`, or an analytics
//! source's sessions) and of the friction replay sources counted per path (`friction`). Every
//! read and write of a page or filter filters on the caller's account, so another account's row
//! is simply not found.

pub mod analyses;
pub mod filters;
pub mod friction;
pub mod pages;
pub mod traffic;
