//! The page as the social-network grant serves it: the page's permissions, the pages the grant
//! reaches, and the chosen one.

use payback_connectors::graph::{self, GraphApp, PageOption, SOCIAL_PAGE_SCOPES};
use payback_domain::connection::ConnectionKind;
use serde_json::{Value, json};

use super::{KIND, choose_page, origin, page_config};
use crate::error::ApiResult;
use crate::services::acting::Caller;
use crate::services::grants::{
    self, Access, Activation, BoxFuture, GrantProvider, GrantedKind, Selectable,
};
use crate::services::socialco::{Socialco, UserToken};
use crate::state::AppState;

/// `social_a` in the social-network grant.
pub struct Page;

impl GrantedKind<Socialco> for Page {
    fn kind(&self) -> ConnectionKind {
        KIND
    }

    fn scopes(&self) -> &'static [&'static str] {
        SOCIAL_PAGE_SCOPES
    }

    fn access(&self) -> Access {
        Access {
            title: "Facebook page and its Instagram account",
            lines: &[
                "Read the page you choose next and its linked Instagram business account: posts, followers and insights.",
                "Never post, comment or change anything on the page.",
            ],
        }
    }

    fn choice_field(&self) -> &'static str {
        "page_id"
    }

    fn discover<'a>(
        &'a self,
        state: &'a AppState,
        _app: &'a GraphApp,
        token: &'a UserToken,
    ) -> BoxFuture<'a, Result<Value, String>> {
        Box::pin(async move {
            let pages = graph::discover_pages(&state.http, &origin(state), &token.access_token)
                .await
                .map_err(|err| grants::listing_failed(Socialco::PROVIDER, "pages", err))?;
            Ok(json!({ "pages": pages }))
        })
    }

    /// The chosen page; optional when exactly one was discovered.
    fn activate<'a>(
        &'a self,
        _state: &'a AppState,
        _caller: &'a Caller,
        chosen: &'a Selectable,
        choice: Option<&'a str>,
    ) -> BoxFuture<'a, ApiResult<Activation>> {
        Box::pin(async move {
            let pages: Vec<PageOption> =
                serde_json::from_value(chosen.options["pages"].clone()).unwrap_or_default();
            let page = choose_page(&pages, choice)?;
            Ok(Activation {
                kind: KIND,
                config: page_config(page),
                audit: json!({ "page_id": page.id }),
            })
        })
    }
}
