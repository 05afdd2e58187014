//! `social_a`: a Facebook page and its linked photo-sharing business account, connected through
//! the social-network grant or with a pasted token. Daily followers, impressions and engagement
//! land as snapshots; recent posts are stored.

mod grant;

use std::sync::Arc;

use axum::extract::{Path, State};
use payback_connectors::Source;
use payback_connectors::graph::{self, DEFAULT_GRAPH_BASE_URL, PageOption};
use payback_connectors::social_a::{SocialAConfig, SocialASource};
use payback_domain::connection::ConnectionKind;
use payback_store::connections::ConnectionRow;
use payback_store::products::ProductRow;
use serde::Deserialize;
use serde_json::{Value, json};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Granted, Plugin, boxed};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{Caller, Json, ValidJson};
use crate::input::rules::secret_within;
use crate::routes::connect::CHOICE_MAX_CHARS;
use crate::routes::tags;
use crate::secret::Secret;
use crate::services::ad_accounts::SocialConnected;
use crate::services::grants::choice::{ChoiceWords, choose_exact};
use crate::services::key_connect::{self, ACCESS_TOKEN_MAX_CHARS, Keyed};
use crate::services::{products, source_config};
use crate::state::{AppState, OpenFuture};

const KIND: ConnectionKind = ConnectionKind::SocialA;

pub fn plugin() -> Plugin {
    Plugin {
        kind: KIND,
        open,
        routes: || OpenApiRouter::new().routes(routes!(connect)),
        grant: Some(Granted::Socialco(Arc::new(grant::Page))),
        rules: || super::token_rules("SocialARequest", "page_id"),
    }
}

/// Where the Graph API answers for pages.
fn origin(state: &AppState) -> String {
    source_config::vendor_origin(state, KIND, DEFAULT_GRAPH_BASE_URL)
}

#[derive(Debug, Deserialize, ToSchema, garde::Validate)]
#[serde(deny_unknown_fields)]
pub struct SocialARequest {
    /// A Meta page access token (or a user token that manages the page). Stored encrypted.
    #[garde(custom(secret_within::<ACCESS_TOKEN_MAX_CHARS>))]
    access_token: Secret,
    /// The page's numeric id; left out, the token's pages are listed in `pages` and the only
    /// one is connected.
    #[garde(inner(length(chars, min = 1, max = CHOICE_MAX_CHARS)))]
    page_id: Option<String>,
}

/// Connects a Facebook page (and its linked Instagram business account): daily followers,
/// impressions and engagement land as snapshots feeding the timeseries' `social_*` columns,
/// and recent posts are stored.
#[utoipa::path(post, path = "/products/{slug}/connections/social-a", tag = tags::CONNECTIONS,
    security(("bearer" = [])), params(("slug" = String, Path, description = "product slug")),
    request_body = SocialARequest,
    responses((status = 200, body = SocialConnected), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 502, body = ErrorBody, description = "Meta could not be reached"),
        (status = 503, body = ErrorBody, description = "PAYBACK_SECRET_KEY is not configured")))]
async fn connect(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    ValidJson(body): ValidJson<SocialARequest>,
) -> ApiResult<Json<SocialConnected>> {
    source_config::vault(&state)?;
    let product = products::find(&state, caller.scope()?, &slug).await?;
    let token = body.access_token.expose().trim().to_owned();
    let base = origin(&state);
    let (page, pages) = match body.page_id.as_deref() {
        Some(id) => {
            if id.is_empty() || !id.chars().all(|c| c.is_ascii_digit()) {
                return Err(ApiError::bad_request(
                    "page_id: must be the numeric page id",
                ));
            }
            let mut config = SocialAConfig::new(token.clone(), id.to_owned());
            base.clone_into(&mut config.graph_base_url);
            let source = SocialASource::new(state.http.clone(), config);
            source
                .test()
                .await
                .map_err(|err| key_connect::refused(err, "page_id"))?;
            let page = PageOption {
                id: id.to_owned(),
                name: String::new(),
                instagram_account: None,
            };
            (Some(page), None)
        }
        None => {
            let found = graph::discover_pages(&state.http, &base, &token)
                .await
                .map_err(|err| key_connect::refused(err, "page_id"))?;
            let chosen = choose_page(&found, None).ok().cloned();
            (chosen, Some(found))
        }
    };
    let Some(page) = page else {
        return Ok(Json(SocialConnected {
            ok: true,
            connection_id: None,
            accounts: None,
            pages,
        }));
    };
    let keyed = Keyed {
        kind: KIND,
        secret: json!({ "access_token": token }),
        config: page_config(&page),
        audit: json!({ "page_id": page.id }),
    };
    let id = key_connect::store_keyed(&state, &caller, &product, keyed).await?;
    Ok(Json(SocialConnected {
        ok: true,
        connection_id: Some(id),
        accounts: None,
        pages,
    }))
}

/// The page choice's refusals.
const PAGE_WORDS: ChoiceWords = ChoiceWords {
    field: "page_id",
    offered: "a page this token reaches",
    none: "this token reaches no page",
};

/// The page to connect: the one named, or the only one.
fn choose_page<'a>(pages: &'a [PageOption], chosen: Option<&str>) -> ApiResult<&'a PageOption> {
    choose_exact(pages, chosen, |page| &page.id, PAGE_WORDS)
}

/// The stored settings of a page connection.
fn page_config(page: &PageOption) -> Value {
    json!({
        "page_id": page.id,
        "page_name": page.name,
        "instagram_account_id": page.instagram_account.as_ref().map(|account| account.id.clone()),
        "instagram_username": page.instagram_account.as_ref().and_then(|account| account.username.clone()),
    })
}

/// The page a connection reads.
#[derive(Deserialize)]
struct Settings {
    page_id: String,
    /// Set when the social-network grant made the connection: its token is Payback's to
    /// revoke at disconnect; a pasted token stays the customer's.
    grant: Option<String>,
}

/// The Meta token and the page.
fn open<'a>(
    state: &'a AppState,
    _product: &'a ProductRow,
    row: &'a ConnectionRow,
) -> OpenFuture<'a> {
    Box::pin(async move {
        let settings: Settings = source_config::settings_of(row)?;
        let mut config = SocialAConfig::new(
            source_config::access_token(state, row).await?,
            settings.page_id,
        );
        config.revoke_on_disconnect = settings.grant.is_some();
        config.graph_base_url = origin(state);
        Ok(boxed(SocialASource::new(state.http.clone(), config)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::services::grants::choice::refusals;

    fn page(id: &str) -> PageOption {
        PageOption {
            id: id.into(),
            name: format!("page {id}"),
            instagram_account: None,
        }
    }

    #[test]
    fn the_page_choice_refuses_in_the_tokens_words() {
        let one = [page("11")];
        assert_eq!(
            refusals(choose_page, &one, "99"),
            [
                "page_id: 99 is not a page this token reaches",
                "page_id: this token reaches no page",
            ]
        );
    }
}
