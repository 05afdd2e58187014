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

mod analytics_a;
mod attribution;
mod auth;
mod backfill_ladder;
mod billing;
mod chat;
mod connections;
mod conversions;
mod coverage;
mod dashboard;
mod dashboard_analytics_a;
mod dashboard_billing;
mod dashboard_chat;
mod dashboard_databases;
mod dashboard_demand;
mod dashboard_demand_sources;
mod dashboard_detect;
mod dashboard_growth;
mod dashboard_landing_pages;
mod dashboard_pages;
mod dashboard_recordings;
mod dashboard_scorecard;
mod dashboard_service_account;
mod dashboard_social;
mod dashboard_sso;
mod dashboard_tagmgr;
mod dashboards;
mod database_sync;
mod databases;
mod dedupe_keys;
mod demand;
mod demo;
mod detect_integrations;
mod distribution;
mod docdb_sync;
mod doors;
mod email_identities_backfill;
mod errors;
mod exports;
mod funnel;
mod geo_a;
mod google_grant;
mod group_commit;
mod growth;
mod health_report;
mod history;
mod identity_touches_backfill;
mod ingest;
mod ingest_failures;
mod jobs;
mod keyword_spend;
mod landing_pages;
mod lease_recovery;
mod log_capture;
mod mail;
mod mapping_suggestions;
mod mcp;
mod openapi;
mod paid_and_cohort_days_backfill;
mod paid_touches_backfill;
mod payback;
mod policy;
mod portfolio_metrics;
mod product_analytics_a;
mod products;
mod queue;
mod recordings;
mod replay_a;
mod scorecard;
mod search_ads;
mod search_b;
mod search_console;
mod seo_a;
mod seo_b;
mod service_account;
mod shop;
mod smoke;
mod snapshots;
mod snippet;
mod social_ads;
mod social_b;
mod social_report;
mod spend;
mod sso;
mod sync_scheduler;
mod tagmgr;
mod team;
mod timeseries;
mod typed_rows;
