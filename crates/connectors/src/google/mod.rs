//! What Google's JSON APIs beside Google Ads share (Search Console, GA4 Admin and Data, Tag
//! Manager, Sheets, Drive): the credential a connection holds ([`GoogleAuth`]: a person's grant
//! or Payback's service account, [`ServiceAccountKey`]), one client over the shared HTTP core
//! (`client`), and Google's `{"error": {code, message, status}}` shape (`errors`).
//!
//! Google Ads stays apart (`search_ads`): its errors are `GoogleAdsFailure`s and its calls need
//! a developer token.

mod auth;
mod client;
mod errors;
pub mod service_account;

pub use auth::GoogleAuth;
pub(crate) use client::{CallError, Effect, GoogleClient, encode_segment};
pub(crate) use errors::FailureKind;
pub use service_account::ServiceAccountKey;

/// Declares a Google API for [`GoogleClient`]: its name in messages; the access token as its
/// secret (never blank: Google's token endpoint answers one or fails).
macro_rules! google_api {
    ($(#[$doc:meta])* $api:ident, $name:literal) => {
        $(#[$doc])*
        pub(crate) enum $api {}

        impl $crate::keyed_http::Vendor for $api {
            const NAME: &'static str = $name;
            const KEY_FIELD: &'static str = "access_token";
            const KEY_LABEL: &'static str = "Google access token";
        }
    };
}
pub(crate) use google_api;
