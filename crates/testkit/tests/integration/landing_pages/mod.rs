//! Landing pages, on both backends: pages added by URL (the URL rules, one page a path),
//! exclude filters and their matching, traffic from first-party visits and from
//! `analytics_a`'s landing sessions (numbers computed here from the test's own data),
//! discovery of top session paths, deletion cascading to analyses while traffic stays, the
//! analysis of a live page on a local website through the model gateway fake (the weighted
//! mean, every `error` case, never a 500), the fetch guard refusing private addresses by
//! default, and another account's 404 on every route.
//!
//! - `pages`: add, list, detail, delete, the URL rules, 409.
//! - `filters`: CRUD, pattern rules, `is_excluded` by prefix and glob.
//! - `traffic`: first-party visits, sessions, the series, discovery.
//! - `friction`: friction from Clarity and PostHog, their URLs discovered, the detail's
//!   recordings, history of page and filter changes.
//! - `analysis`: scored analyses, error analyses, 503, redirects.
//! - `guard`: private, loopback, link-local and IPv4-mapped addresses refused by default.
//! - `access`: another account 404, no bearer 401.

use payback_server::Config;
use payback_testkit::{Backend, FakeGateway, Session, TestApp};
use serde_json::{Value, json};

mod access;
mod analysis;
mod filters;
mod friction;
mod guard;
mod pages;
pub(crate) mod site;
mod traffic;

/// An app whose fetches may reach the local website on loopback.
async fn spawn(backend: Backend) -> TestApp {
    TestApp::spawn_with(backend, allow_loopback).await
}

fn allow_loopback(config: &mut Config) {
    config.allow_private_fetch_hosts = true;
}

/// An app asking `gateway` (and reaching loopback).
async fn spawn_with_gateway(backend: Backend, gateway: &FakeGateway) -> TestApp {
    let url = gateway.base_url();
    TestApp::spawn_with(backend, move |config| {
        allow_loopback(config);
        config.model_gateway_url = url;
        config.model_gateway_key = Some(FakeGateway::KEY.to_owned().into());
    })
    .await
}

/// The founder, with product `slug` on `domain` (none: any host).
async fn founder_with_product(app: &TestApp, slug: &str, domain: Option<&str>) -> Session {
    let founder = app.signup_verified("founder@example.com").await;
    create_product(app, &founder.token, slug, domain).await;
    founder
}

async fn create_product(app: &TestApp, token: &str, slug: &str, domain: Option<&str>) -> Value {
    let mut body = json!({ "name": format!("Product {slug}"), "slug": slug });
    if let Some(domain) = domain {
        body["domain"] = json!(domain);
    }
    app.post("/products", Some(token), body)
        .await
        .expect(200)
        .clone()
}

/// Adds the page at `url` to `slug`, answering it.
async fn add_page(app: &TestApp, token: &str, slug: &str, url: &str) -> Value {
    app.post(
        &format!("/products/{slug}/landing-pages"),
        Some(token),
        json!({ "url": url }),
    )
    .await
    .expect(200)
    .clone()
}

/// `GET /products/{slug}/landing-pages{query}`.
async fn list(app: &TestApp, token: &str, slug: &str, query: &str) -> Value {
    app.get(
        &format!("/products/{slug}/landing-pages{query}"),
        Some(token),
    )
    .await
    .expect(200)
    .clone()
}

/// The listed page of `path`.
fn page_of<'a>(list: &'a Value, path: &str) -> &'a Value {
    list["pages"]
        .as_array()
        .and_then(|pages| pages.iter().find(|page| page["path"] == path))
        .unwrap_or_else(|| panic!("no page {path} in {list}"))
}

fn id_of(value: &Value) -> String {
    value["id"].as_str().expect("an id").to_owned()
}
