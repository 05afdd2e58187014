//! What a grant lets Payback do in Tag Manager. A person may untick scopes on Google's consent
//! screen (granular consent), so a grant that reads may not write. The grant's scopes are not
//! stored: before a deploy writes anything, one token request asks Google which scopes a fresh
//! access token carries (the refresh answer's `scope`), which also sees scopes granted or
//! removed since the connection was made.

use super::{SCOPE_EDIT_CONTAINERS, SCOPE_EDIT_VERSIONS, SCOPE_PUBLISH};
use crate::ConnectorError;
use crate::google::GoogleAuth;

/// The scopes a deploy needs besides reading.
pub const DEPLOY_SCOPES: [&str; 3] = [SCOPE_EDIT_CONTAINERS, SCOPE_EDIT_VERSIONS, SCOPE_PUBLISH];

/// The deploy scopes `auth` lacks. A service account asks for every scope itself (what it may
/// do is the container's user permission, which Google checks at each write), and a refresh
/// answer naming no scope leaves the check to Google too: both answer none missing.
pub async fn missing_deploy_scopes(
    http: &reqwest::Client,
    auth: &GoogleAuth,
) -> Result<Vec<&'static str>, ConnectorError> {
    let GoogleAuth::Grant {
        oauth,
        refresh_token,
    } = auth
    else {
        return Ok(Vec::new());
    };
    let Some(granted) = oauth.granted_scopes(http, refresh_token).await? else {
        return Ok(Vec::new());
    };
    Ok(missing(&granted))
}

fn missing(granted: &[String]) -> Vec<&'static str> {
    DEPLOY_SCOPES
        .into_iter()
        .filter(|scope| !granted.iter().any(|have| have == scope))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tagmgr::SCOPE_READONLY;

    #[test]
    fn a_read_only_grant_misses_every_write_scope() {
        assert_eq!(
            missing(&[SCOPE_READONLY.to_owned()]),
            DEPLOY_SCOPES.to_vec()
        );
        let all: Vec<String> = DEPLOY_SCOPES.iter().map(|s| (*s).to_owned()).collect();
        assert!(missing(&all).is_empty());
        let no_publish = vec![
            SCOPE_EDIT_CONTAINERS.to_owned(),
            SCOPE_EDIT_VERSIONS.to_owned(),
        ];
        assert_eq!(missing(&no_publish), vec![SCOPE_PUBLISH]);
    }
}
