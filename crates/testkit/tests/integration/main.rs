#![allow(clippy::unwrap_used)]
//! Payback's integration tests, one binary with a module per area (linking the server once,
//! not once per area): each spawns the real service on loopback per backend (`TestApp`), or
//! drives the store directly, and checks numbers against oracles computed in the test.
//! Run one area with `cargo test -p payback-testkit --test integration <area>::`.

// The vendor fakes the connectors' own tests use; the server's tests drive the same ones.
#[path = "../../../connectors/tests/integration/fake_replica_set/mod.rs"]
mod fake_replica_set;
#[path = "../../../connectors/tests/integration/nx_server/mod.rs"]
mod nx_server;
#[allow(dead_code)]
#[path = "../../../connectors/tests/integration/stripe_fake/mod.rs"]
mod stripe_fake;

mod attribution;
mod auth;
mod backfill_ladder;
mod chat;
mod connections;
mod conversions;
mod coverage;
mod dashboard;
mod dashboard_chat;
mod dashboard_databases;
mod dashboard_demand;
mod dashboard_demand_sources;
mod dashboard_growth;
mod dashboard_pages;
mod dashboard_social;
mod dashboards;
mod database_sync;
mod databases;
mod dedupe_keys;
mod demand;
mod demo;
mod distribution;
mod docdb_sync;
mod doors;
mod email_identities_backfill;
mod errors;
mod exports;
mod funnel;
mod geo_a;
mod group_commit;
mod growth;
mod health_report;
mod history;
mod identity_touches_backfill;
mod ingest;
mod ingest_failures;
mod jobs;
mod keyword_spend;
mod lease_recovery;
mod mail;
mod mapping_suggestions;
mod mcp;
mod openapi;
mod paid_and_cohort_days_backfill;
mod paid_touches_backfill;
mod payback;
mod policy;
mod portfolio_metrics;
mod products;
mod queue;
mod search_ads;
mod search_b;
mod search_console;
mod seo_a;
mod seo_b;
mod shop;
mod smoke;
mod snapshots;
mod snippet;
mod social_ads;
mod social_b;
mod social_report;
mod spend;
mod sync_scheduler;
mod team;
mod timeseries;
mod typed_rows;
