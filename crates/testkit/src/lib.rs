//! Test support: [`TestApp::spawn`] runs the real router over HTTP on port 0 against a fresh
//! SQLite file or a fresh PostgreSQL database, with an injected clock and file-captured mail.

mod app;
pub mod browser;
pub mod customer_db;
mod eventually;
pub mod fakes;
pub mod grant_page;
mod mail;
mod postgres;
mod raw_sql;
mod records;
mod reply;
pub mod spec;
mod store_direct;
pub mod synthetic;

pub use app::{Backend, Session, TEST_PASSWORD, TEST_START, TestApp};
// The fakes' first paths, kept so tests name them as they always have.
pub use eventually::eventually;
pub use fakes::budgets::RecordingBudgets;
pub use fakes::gateway::{self as fake_gateway, FakeGateway};
pub use fakes::google::{self as fake_google, FakeGoogle};
pub use fakes::linkedin::{self as fake_linkedin, FakeLinkedIn};
pub use fakes::meta::{self as fake_meta, FakeMeta};
pub use fakes::oidc::{self as fake_oidc, FakeOidc};
pub use fakes::smtp::SmtpSink;
pub use fakes::source::FakeSource;
pub use mail::ReceivedMail;
pub use postgres::ScratchPostgres;
pub use raw_sql::Bind;
pub use records::{event_record, keep_folder_busy};
pub use reply::Reply;

/// Expands each named `async fn(Backend)` into one test per backend, for tests that configure
/// their own app: `name::sqlite` and `name::postgres`.
#[macro_export]
macro_rules! per_backend {
    ($($name:ident),* $(,)?) => {
        $(
            mod $name {
                #[tokio::test]
                async fn sqlite() {
                    super::$name($crate::Backend::Sqlite).await
                }
                #[tokio::test]
                async fn postgres() {
                    super::$name($crate::Backend::Postgres).await
                }
            }
        )*
    };
}

/// Expands each named `async fn(TestApp)` into one test per backend:
/// `name::sqlite` and `name::postgres`.
#[macro_export]
macro_rules! backend_tests {
    ($($name:ident),* $(,)?) => {
        $(
            mod $name {
                #[tokio::test]
                async fn sqlite() {
                    super::$name($crate::TestApp::spawn($crate::Backend::Sqlite).await).await
                }
                #[tokio::test]
                async fn postgres() {
                    super::$name($crate::TestApp::spawn($crate::Backend::Postgres).await).await
                }
            }
        )*
    };
}
