//! Billing (issue 41): the workspaces pay Payback through Stripe Billing on the operator's own
//! Stripe account (nothing to do with the tenants' `payments` connections). One file a concern:
//! `plan` (the plan table, the effective plan, the gate [`plan::require`]), `summary`
//! (`GET /billing`), `checkout` and `portal` (Stripe-hosted pages), `webhook` with `signature`
//! (the only way a plan changes) and `plan_history` (the account event each change writes),
//! `quantity` (billable products and the job that keeps Stripe's quantity equal to them) and
//! `stripe` (the client from the settings, 503 without them).
//!
//! A server without billing settings bills nobody: every workspace has the top plan and no gate
//! refuses anything.

pub mod checkout;
pub mod plan;
pub mod plan_history;
pub mod portal;
pub mod quantity;
pub mod signature;
mod stripe;
pub mod summary;
pub mod webhook;

pub use plan::{Feature, Plan, require};
