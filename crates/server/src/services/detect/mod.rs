//! Detect integrations (`POST /products/{slug}/detect-integrations`, `POST
//! /tools/detect-integrations`): fetch a site through the one fetch guard (`fetch_guard`: no
//! private address, also after a redirect; 5 redirects, 10 s, the first 2 MiB) and recognise
//! what it loads (`scan` over `catalog`: analytics, tag managers, ad pixels, session recorders,
//! Payback's own snippet, payments, CRM, and the site platform) from loader code and script
//! URLs only. For a product, each integration is cross-referenced with its connections
//! (`connected`); the tools route knows no product, so nothing is connected there.
//!
//! The fetch spends the server's time and bandwidth on a tenant's say: each account may fetch
//! `PAYBACK_FETCH_PER_MINUTE` pages a minute (`rate_limit`), analyses included.

mod catalog;
mod scan;

use payback_store::products::ProductRow;
use payback_store::{connections, landing_pages, tracking_keys};
use serde::Serialize;
use utoipa::ToSchema;

use self::catalog::Connected;
use self::scan::Found;
use crate::error::{ApiError, ApiResult};
use crate::services::acting::Caller;
use crate::services::{fetch_guard, products};
use crate::state::AppState;

/// The request field naming the page, in every refusal.
const URL_FIELD: &str = "url";

/// What detection found on a page.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct Detection {
    /// The URL asked for.
    pub url: String,
    /// The URL that answered, after redirects.
    pub final_url: String,
    /// The final URL's host.
    pub domain: String,
    pub detected_count: usize,
    /// In the catalog's order: analytics, tag managers, ad pixels, recorders, first party,
    /// payments, CRM.
    pub integrations: Vec<Integration>,
    /// The site platform, when one is recognised.
    pub platform: Option<SitePlatform>,
    /// One sentence of what was found.
    pub summary: String,
}

/// One integration the page loads.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct Integration {
    /// `ga4`, `posthog`, `gtm`, `google_ads`, `meta_pixel`, `linkedin_insight`, `clarity`,
    /// `hotjar`, `first_party`, `stripe`, `hubspot`.
    pub key: String,
    pub name: String,
    /// `analytics`, `tag_manager`, `ad_pixel`, `session_recording`, `first_party`, `payments`,
    /// `crm`.
    pub category: String,
    /// The tag, pixel, project or key ids its loader names, in page order.
    pub ids: Vec<String>,
    /// Whether the product has that vendor's source (`first_party`: a write key); always false
    /// on `/tools/detect-integrations`.
    pub connected: bool,
}

/// A site platform.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct SitePlatform {
    /// `wordpress`, `shopify`, `webflow`.
    pub key: String,
    pub name: String,
}

/// A product's site: `url` when given, else `https://{domain}/`, else its oldest landing page;
/// 400 naming `url` when it has none of them or the fetch fails; 404 another account's product.
pub async fn for_product(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    url: Option<&str>,
) -> ApiResult<Detection> {
    let scope = caller.scope()?;
    let product = products::find(state, scope, slug).await?;
    let url = match url {
        Some(url) => url.to_owned(),
        None => default_url(state, caller, &product).await?,
    };
    let (page, found, platform) = fetch_and_scan(state, caller, &url).await?;
    let mut integrations = Vec::with_capacity(found.len());
    for found in found {
        let connected = is_connected(state, &product, found.signature.connected).await?;
        integrations.push(integration(found, connected));
    }
    Ok(detection(url, page, integrations, platform))
}

/// Any site, for no product (`/tools/detect-integrations`): nothing is connected.
pub async fn for_url(state: &AppState, caller: &Caller, url: &str) -> ApiResult<Detection> {
    let (page, found, platform) = fetch_and_scan(state, caller, url).await?;
    let integrations = found
        .into_iter()
        .map(|found| integration(found, false))
        .collect();
    Ok(detection(url.to_owned(), page, integrations, platform))
}

async fn default_url(state: &AppState, caller: &Caller, product: &ProductRow) -> ApiResult<String> {
    if let Some(domain) = product.domain.as_deref().filter(|d| !d.trim().is_empty()) {
        return Ok(format!("https://{}/", domain.trim()));
    }
    let pages = landing_pages::pages::list(&state.store, caller.scope()?, &product.id).await?;
    pages
        .into_iter()
        .next()
        .map(|page| page.url)
        .ok_or_else(|| {
            ApiError::bad_request(format!(
                "{URL_FIELD}: the product has no domain and no landing page; give the URL to check"
            ))
        })
}

/// The page fetched through the guard (counted against the account's fetches) and scanned.
async fn fetch_and_scan(
    state: &AppState,
    caller: &Caller,
    url: &str,
) -> ApiResult<(fetch_guard::FetchedPage, Vec<Found>, Option<SitePlatform>)> {
    state.limiters.check_fetch(caller.scope()?.account_id())?;
    let page = fetch_guard::fetch_page(state, url, URL_FIELD).await?;
    if !page.is_success() {
        return Err(ApiError::bad_request(format!(
            "{URL_FIELD}: {} answered {}",
            page.final_url, page.status
        )));
    }
    let loaded = scan::loaded(&page.body_text);
    let platform = loaded.platform().map(|platform| SitePlatform {
        key: platform.key.to_owned(),
        name: platform.name.to_owned(),
    });
    Ok((page, loaded.integrations(), platform))
}

async fn is_connected(state: &AppState, product: &ProductRow, by: Connected) -> ApiResult<bool> {
    Ok(match by {
        Connected::Kind(kind) => connections::find(&state.store, &product.id, kind)
            .await?
            .is_some(),
        Connected::WriteKey => tracking_keys::live_for_product(&state.store, &product.id)
            .await?
            .is_some(),
        Connected::Never => false,
    })
}

fn integration(found: Found, connected: bool) -> Integration {
    Integration {
        key: found.signature.key.to_owned(),
        name: found.signature.name.to_owned(),
        category: found.signature.category.to_owned(),
        ids: found.ids,
        connected,
    }
}

fn detection(
    url: String,
    page: fetch_guard::FetchedPage,
    integrations: Vec<Integration>,
    platform: Option<SitePlatform>,
) -> Detection {
    let domain = reqwest::Url::parse(&page.final_url)
        .ok()
        .and_then(|final_url| final_url.host_str().map(str::to_owned))
        .unwrap_or_default();
    let summary = summary(&domain, &integrations, platform.as_ref());
    Detection {
        url,
        final_url: page.final_url,
        domain,
        detected_count: integrations.len(),
        integrations,
        platform,
        summary,
    }
}

/// "3 integrations on shop.example: Google Analytics 4 (connected), Meta Pixel (not connected),
/// Stripe (connected); built on WordPress."
fn summary(domain: &str, integrations: &[Integration], platform: Option<&SitePlatform>) -> String {
    let platform = platform.map_or(String::new(), |platform| {
        format!("; built on {}", platform.name)
    });
    if integrations.is_empty() {
        return format!("No known integration loads on {domain}{platform}.");
    }
    let listed: Vec<String> = integrations
        .iter()
        .map(|found| {
            let state = if found.connected {
                "connected"
            } else {
                "not connected"
            };
            format!("{} ({state})", found.name)
        })
        .collect();
    let noun = if integrations.len() == 1 {
        "integration"
    } else {
        "integrations"
    };
    format!(
        "{} {noun} on {domain}: {}{platform}.",
        integrations.len(),
        listed.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(name: &str, connected: bool) -> Integration {
        Integration {
            key: name.to_lowercase(),
            name: name.to_owned(),
            category: "analytics".to_owned(),
            ids: Vec::new(),
            connected,
        }
    }

    #[test]
    fn the_summary_says_what_was_found_and_what_is_connected() {
        let platform = SitePlatform {
            key: "wordpress".into(),
            name: "WordPress".into(),
        };
        assert_eq!(
            summary(
                "shop.example",
                &[found("Stripe", true), found("Hotjar", false)],
                Some(&platform)
            ),
            "2 integrations on shop.example: Stripe (connected), Hotjar (not connected); built on WordPress."
        );
        assert_eq!(
            summary("plain.example", &[], None),
            "No known integration loads on plain.example."
        );
    }
}
