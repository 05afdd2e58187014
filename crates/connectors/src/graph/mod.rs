//! Meta's Graph API, as the social kinds share it: the Facebook Login grant (`socialco`), the
//! one HTTP client every Graph call goes through, and discovery of what a grant reaches.
//!
//! One file per concern: `app` (the Login dialog, code exchange, long-lived tokens), `client`
//! (headers, timeouts, retries, cursor paging), `errors` (Meta's error body and what Payback does
//! with each code), `usage` (the rate-limit usage headers), `wire` (shared JSON shapes),
//! `discover` (ad accounts and pages a user token reaches, and revoking the grant).
//!
//! Every call sends its token as `Authorization: Bearer` (never in a URL, so no log or error
//! line carries it) and no `appsecret_proof`: the key-connect path has no app secret, and Meta
//! only requires the proof when an app turns "Require App Secret" on.

mod app;
pub(crate) mod client;
mod discover;
pub(crate) mod errors;
#[cfg(test)]
pub(crate) mod test_fake;
mod usage;
pub(crate) mod wire;

pub use app::{GraphApp, UserToken, default_token_url};
pub(crate) use discover::disconnect;
pub use discover::{
    LinkedAccount, PageOption, account_status_word, discover_ad_accounts, discover_pages, revoke,
};

/// The version, once, for the constants built from it.
macro_rules! graph_version {
    () => {
        "v27.0"
    };
}

/// The Graph API (and Marketing API) version every path starts with: v27.0, the newest in
/// Meta's changelog (released November 4, 2026). Versions live about two years; move this on
/// before Meta's "available until" date for it.
pub const GRAPH_VERSION: &str = graph_version!();

/// Meta's Graph origin; `/{GRAPH_VERSION}/...` paths are appended.
pub const DEFAULT_GRAPH_BASE_URL: &str = "https://graph.facebook.com";

/// The Facebook Login dialog a person opens to grant Payback access.
pub const DEFAULT_DIALOG_URL: &str = concat!(
    "https://www.facebook.com/",
    graph_version!(),
    "/dialog/oauth"
);

/// What `social_ads_a` asks for: `ads_read` for insights, `ads_management` to change budgets
/// (Meta's Marketing API access doc: reading reports needs `ads_read`, reading and managing
/// needs `ads_management`). `/me/adaccounts` needs no more; `business_management` is only for
/// Business Manager endpoints Payback does not call, and Meta reviews every extra scope.
pub const SOCIAL_ADS_SCOPES: &[&str] = &["ads_read", "ads_management"];

/// What `social_a` asks for: `pages_show_list` to list the pages (`/me/accounts`),
/// `pages_read_engagement` and `read_insights` for Page Insights and posts, and
/// `instagram_basic` with `instagram_manage_insights` for the linked Instagram professional
/// account (its fields, media and insights).
pub const SOCIAL_PAGE_SCOPES: &[&str] = &[
    "pages_show_list",
    "pages_read_engagement",
    "read_insights",
    "instagram_basic",
    "instagram_manage_insights",
];

/// What a person reads when Meta refuses the token (error 190).
pub const TOKEN_REVOKED: &str = "the Meta access token was revoked or has expired; reconnect";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dialog_url_carries_the_version() {
        assert_eq!(
            DEFAULT_DIALOG_URL,
            format!("https://www.facebook.com/{GRAPH_VERSION}/dialog/oauth")
        );
        assert!(GRAPH_VERSION.starts_with('v') && GRAPH_VERSION.ends_with(".0"));
    }
}
