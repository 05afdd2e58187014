//! `sites.list` and a user's access to one site.

use axum::http::StatusCode;
use axum::response::Response;
use serde_json::{Value, json};

use super::state::{Console, SiteAccess};
use crate::fakes::google::errors::{error, json_response};

pub(super) fn list(console: &Console, user: &str) -> Response {
    let entries: Vec<Value> = console
        .sites
        .iter()
        .filter(|site| site.user == user)
        .map(|site| json!({ "siteUrl": site.site_url, "permissionLevel": site.permission_level }))
        .collect();
    let body = if entries.is_empty() {
        json!({})
    } else {
        json!({ "siteEntry": entries })
    };
    json_response(StatusCode::OK, &body)
}

/// The user's access to `site`; 403 as Google answers for a site not theirs (or, for data, one
/// they are unverified on).
pub(super) fn readable<'a>(
    console: &'a Console,
    user: &str,
    site: &str,
    unverified_ok: bool,
) -> Result<&'a SiteAccess, Response> {
    console
        .access(user, site)
        .filter(|access| unverified_ok || access.permission_level != "siteUnverifiedUser")
        .ok_or_else(|| {
            error(
                StatusCode::FORBIDDEN,
                &format!(
                    "User does not have sufficient permission for site '{site}'. See also: https://support.google.com/webmasters/answer/2451999."
                ),
            )
        })
}
