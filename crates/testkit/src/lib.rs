//! Test support: [`TestApp::spawn`] runs the real router over HTTP on port 0 against a fresh
//! SQLite file or a fresh PostgreSQL database, with an injected clock and file-captured mail.

mod app;
pub mod browser;
pub mod customer_db;
mod fake_budgets;
pub mod fake_gateway;
pub mod fake_google;
pub mod fake_linkedin;
pub mod fake_meta;
mod fake_source;
pub mod grant_page;
mod mail;
mod postgres;
mod raw_sql;
mod records;
mod reply;
mod smtp;
pub mod spec;
mod store_direct;
pub mod synthetic;

pub use app::{Backend, Session, TEST_PASSWORD, TEST_START, TestApp};
pub use fake_budgets::RecordingBudgets;
pub use fake_gateway::FakeGateway;
pub use fake_google::FakeGoogle;
pub use fake_linkedin::FakeLinkedIn;
pub use fake_meta::FakeMeta;
pub use fake_source::FakeSource;
pub use mail::ReceivedMail;
pub use postgres::ScratchPostgres;
pub use raw_sql::Bind;
pub use records::{event_record, keep_folder_busy};
pub use reply::Reply;
pub use smtp::SmtpSink;

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
