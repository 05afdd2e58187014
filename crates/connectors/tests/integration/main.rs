#![allow(clippy::unwrap_used)]
//! The connectors' integration tests, one binary with a module per source: each speaks to a
//! real server or a loopback fake of the vendor's documented API. The fakes live here too, and
//! the server's integration tests include the same files.

mod fake_replica_set;
mod nx_server;
mod stripe_fake;

mod docdb;
mod payments;
mod sql;
