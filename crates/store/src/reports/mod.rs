//! Report queries. Each reads indexed tables and the rollups `ingest` maintains
//! (`identity_profiles`, `transactions`, `stage_identity_days`, `event_days`,
//! `aggregate_stage_days`, `spend_rows`), never a scan of raw events.

pub mod activity;
pub mod attribution;
pub mod conversions;
pub mod demand;
pub mod exports;
pub mod funnel;
pub mod payback;
pub mod product_metrics;
pub mod report_days;
pub mod series;
pub mod weekly;
