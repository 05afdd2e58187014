//! Billing (issue 41) from outside, against a fake of Stripe's documented API
//! (`fakes/stripe_billing`) with webhooks signed as Stripe signs them: the trial summary of a
//! new workspace, checkout (price, quantity, one customer per workspace) and the portal, every
//! webhook rule, the plan gates and the exports' content, the backfill ladder capped by the
//! plan, the quantity following products as each passes its free days, a server without
//! billing settings, the plan changes in the account's history, and no key or secret in any
//! answer or log line. Both backends.

mod checkout;
mod gates;
mod history;
mod quantity;
mod scorecard;
mod summary;
mod support;
mod unconfigured;
mod webhook;
