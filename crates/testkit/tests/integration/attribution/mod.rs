//! GET /products/{slug}/attribution, /attribution/sales and /attribution/ads against an
//! independent oracle computed from the synthetic dataset's events (identities resolved here,
//! channels from what the generator intended), plus hand-built edge cases, on both backends.
//!
//! - `oracle`: the dataset with identities (and emails' holders) resolved, and the expected
//!   reports computed from it.
//! - `matches_oracle`: the three reports against the oracle over several seeds and windows.
//! - `empty_and_errors`: an empty product reads zero; bad parameters answer errors naming them.
//! - `honesty`: hand-built edge cases: unattributed revenue, late touches, the primary goal.
//! - `emails`: hand-built charges known only by an email: before and after their holder,
//!   visitors, conflicts, emails nobody holds, each step its own fold.

use payback_domain::Clock;
use payback_store::spend::SpendRow;
use payback_testkit::{TestApp, backend_tests};
use serde_json::{Value, json};

mod emails;
mod empty_and_errors;
mod honesty;
mod matches_oracle;
mod oracle;

const UN: &str = "unattributed";

async fn setup(app: &TestApp, email: &str) -> String {
    let session = app.signup_verified(email).await;
    app.api_key(&session).await
}

async fn get(app: &TestApp, key: &str, path: &str) -> Value {
    app.get(path, Some(key)).await.expect(200).clone()
}
