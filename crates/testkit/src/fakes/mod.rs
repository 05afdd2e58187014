//! Every stand-in for something outside the app, in one place: loopback HTTP fakes of the
//! vendors the connectors talk to (`google`, `meta`, `linkedin`, the chat `gateway`), an SMTP
//! sink, and in-process fakes of a source and a budget writer.
//!
//! What the fakes share lives beside them rather than in one of them: reaching a fake's state
//! ([`lock`]), serving on loopback (`loopback.rs`), recording every request (`recorder.rs`),
//! failures a test schedules by path (`schedule.rs`), the calendar day (`day.rs`), form decoding
//! (`form.rs`) and the scripted human on a consent screen (`human.rs`).

pub mod ahrefs;
pub mod bing;
pub(crate) mod budgets;
pub mod clarity;
pub(crate) mod day;
pub(crate) mod form;
pub mod gateway;
pub mod google;
pub(crate) mod human;
pub mod linkedin;
pub(crate) mod loopback;
pub mod meta;
pub mod oidc;
pub mod posthog;
pub(crate) mod recorder;
pub(crate) mod schedule;
pub mod semrush;
pub mod seranking;
pub mod sheets;
pub(crate) mod smtp;
pub(crate) mod source;
pub mod stripe_billing;
pub mod x;

use std::sync::{Mutex, MutexGuard, PoisonError};

/// A fake's state, even if a panicking test poisoned the lock: every change is made under one
/// lock, so the data stays consistent, and the test that panicked has failed already.
pub(crate) fn lock<T>(shared: &Mutex<T>) -> MutexGuard<'_, T> {
    shared.lock().unwrap_or_else(PoisonError::into_inner)
}
