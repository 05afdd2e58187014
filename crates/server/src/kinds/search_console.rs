//! `search_console`: one Google Search Console site, connected through the search-engine grant
//! when the operator switched it on (`PAYBACK_SEARCHCO_SEARCH_CONSOLE`). Its days land as
//! `search_clicks`/`search_impressions` snapshots per query, which the timeseries reads. It has
//! no route of its own: the grant connects it, and test, sync now and disconnect are the
//! connections' routes.

use std::sync::Arc;

use payback_connectors::Source;
use payback_connectors::google::GoogleAuth;
use payback_connectors::oauth::OAuthClient;
use payback_connectors::search_console::{
    self, SCOPE, SearchConsoleConfig, SearchConsoleSource, SiteOption,
};
use payback_domain::connection::ConnectionKind;
use payback_store::connections::ConnectionRow;
use payback_store::products::ProductRow;
use serde::Deserialize;
use serde_json::{Value, json};
use utoipa_axum::router::OpenApiRouter;

use super::{Granted, Plugin, boxed};
use crate::error::{ApiError, ApiResult};
use crate::services::acting::Caller;
use crate::services::grants::choice::{ChoiceWords, choose_exact};
use crate::services::grants::{
    self, Access, Activation, BoxFuture, GrantProvider, GrantedKind, Selectable,
};
use crate::services::searchco::Searchco;
use crate::services::searchco_account::{ServiceAccountKind, discover_granted};
use crate::services::source_config;
use crate::state::{AppState, OpenFuture};

const KIND: ConnectionKind = ConnectionKind::SearchConsole;

/// The select field choosing the site.
const CHOICE: &str = "search_console_site_url";

/// The site choice's refusals.
const WORDS: ChoiceWords = ChoiceWords {
    field: CHOICE,
    offered: "a site this grant reaches",
    none: "this grant reaches no Search Console site its login may read",
};

/// Where discovery puts the sites in the status's `options`.
const OPTIONS_KEY: &str = "search_console_sites";

pub fn plugin() -> Plugin {
    Plugin {
        kind: KIND,
        open,
        routes: OpenApiRouter::new,
        grant: Some(Granted::Searchco(Arc::new(SearchConsole))),
        rules: super::no_rules,
    }
}

/// What `select` stored of the chosen site.
#[derive(Deserialize)]
struct Settings {
    site_url: String,
}

/// The grant's refresh token with Payback's OAuth client (or Payback's service account), and
/// the chosen site.
fn open<'a>(
    state: &'a AppState,
    _product: &'a ProductRow,
    row: &'a ConnectionRow,
) -> OpenFuture<'a> {
    Box::pin(async move {
        let settings: Settings = source_config::settings_of(row)?;
        let auth = source_config::google_auth(state, row, &[SCOPE]).await?;
        let mut config = SearchConsoleConfig::new(settings.site_url, auth);
        config.api_base_url = api_base_url(state);
        Ok(boxed(SearchConsoleSource::new(state.http.clone(), config)))
    })
}

/// `PAYBACK_SEARCH_CONSOLE_API_URL`, else Google's origin.
fn api_base_url(state: &AppState) -> String {
    source_config::vendor_origin(state, KIND, search_console::DEFAULT_API_BASE_URL)
}

/// `search_console` in the search-engine grant.
struct SearchConsole;

impl GrantedKind<Searchco> for SearchConsole {
    fn kind(&self) -> ConnectionKind {
        KIND
    }

    fn scopes(&self) -> &'static [&'static str] {
        &[SCOPE]
    }

    fn access(&self) -> Access {
        Access {
            title: "Google Search Console",
            lines: &[
                "Read the search queries, clicks and impressions of the site you choose next.",
                "Change nothing in Search Console.",
            ],
        }
    }

    fn choice_field(&self) -> &'static str {
        CHOICE
    }

    /// Only while the operator switched it on.
    fn available(&self, state: &AppState) -> bool {
        state.config.searchco_search_console
    }

    /// Every site the granting login may read.
    fn discover<'a>(
        &'a self,
        state: &'a AppState,
        client: &'a OAuthClient,
        refresh_token: &'a String,
    ) -> BoxFuture<'a, Result<Value, String>> {
        discover_granted(self, state, client, refresh_token)
    }

    fn service_account(&self) -> Option<&dyn ServiceAccountKind> {
        Some(self)
    }

    /// The chosen site; optional when the grant reaches exactly one.
    fn activate<'a>(
        &'a self,
        _state: &'a AppState,
        _caller: &'a Caller,
        chosen: &'a Selectable,
        choice: Option<&'a str>,
    ) -> BoxFuture<'a, ApiResult<Activation>> {
        Box::pin(async move {
            let sites: Vec<SiteOption> =
                serde_json::from_value(chosen.options[OPTIONS_KEY].clone()).unwrap_or_default();
            let site = choose_site(&sites, choice)?;
            Ok(activation(site))
        })
    }
}

/// `search_console` on the service-account path: the sites the account was added to, and a
/// chosen one proven by the connection's own test (`sites.get`, refused when unverified).
impl ServiceAccountKind for SearchConsole {
    fn instructions(&self) -> &'static [&'static str] {
        &[
            "Open Search Console and the property to connect, then Settings and Users and permissions.",
            "Add user {email} with Restricted permission (read-only).",
            "Back here, verify and choose the site.",
        ]
    }

    fn discover<'a>(
        &'a self,
        state: &'a AppState,
        auth: &'a GoogleAuth,
    ) -> BoxFuture<'a, Result<Value, String>> {
        Box::pin(discover_sites(state, auth))
    }

    fn verify<'a>(
        &'a self,
        state: &'a AppState,
        auth: &'a GoogleAuth,
        options: &'a Value,
        choice: &'a str,
    ) -> BoxFuture<'a, ApiResult<Activation>> {
        Box::pin(async move {
            let sites: Vec<SiteOption> =
                serde_json::from_value(options[OPTIONS_KEY].clone()).unwrap_or_default();
            let site = choose_site(&sites, Some(choice))?;
            let mut config = SearchConsoleConfig::new(site.site_url.clone(), auth.clone());
            config.api_base_url = api_base_url(state);
            SearchConsoleSource::new(state.http.clone(), config)
                .test()
                .await
                .map_err(|err| ApiError::bad_request(format!("{CHOICE}: {err}")))?;
            Ok(activation(site))
        })
    }
}

/// The sites `auth` may read, as the status's `options` list them.
async fn discover_sites(state: &AppState, auth: &GoogleAuth) -> Result<Value, String> {
    let sites = search_console::list_sites(&state.http, &api_base_url(state), auth)
        .await
        .map_err(|err| grants::listing_failed(Searchco::PROVIDER, "Search Console sites", err))?;
    Ok(json!({ OPTIONS_KEY: sites }))
}

/// The connection of a chosen site.
fn activation(site: &SiteOption) -> Activation {
    Activation {
        kind: KIND,
        config: json!({
            "site_url": site.site_url,
            "permission_level": site.permission_level,
        }),
        audit: json!({ "site_url": site.site_url }),
    }
}

/// The site to connect: the one named, exactly as offered, or the only one there is.
fn choose_site<'a>(sites: &'a [SiteOption], chosen: Option<&str>) -> ApiResult<&'a SiteOption> {
    choose_exact(sites, chosen, |site| &site.site_url, WORDS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::services::grants::choice::refusals;

    fn site(url: &str) -> SiteOption {
        SiteOption {
            site_url: url.into(),
            permission_level: "siteOwner".into(),
        }
    }

    #[test]
    fn the_choice_refuses_in_search_consoles_words() {
        let two = [
            site("https://shop.example/"),
            site("sc-domain:shop.example"),
        ];
        assert_eq!(
            refusals(choose_site, &two, "https://other.example/"),
            [
                "search_console_site_url: https://other.example/ is not a site this grant reaches",
                "search_console_site_url: this grant reaches no Search Console site its login may read",
            ]
        );
    }
}
