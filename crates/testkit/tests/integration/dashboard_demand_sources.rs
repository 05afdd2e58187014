//! The five key-connected demand sources in headless Chromium
//! (`e2e/dashboard-demand-sources.mjs`): Bing Webmaster Tools, Semrush, Ahrefs, SE Ranking and an
//! X account are connected through their forms on the product's Connections page, each against
//! its loopback fake (a refused Ahrefs key shown under its form first, SE Ranking's key seeing
//! two projects so the form offers the choice), each card then says active, SE Ranking's and X's
//! keys are replaced from their cards, and the Demand page lists the demand ones as connected.
//! Afterwards the stored connections are checked here: the chosen project, the typed site,
//! domain and handle, and no key in any answer.

use base64::Engine as _;
use payback_domain::connection::ConnectionKind;
use payback_domain::source_kind::KINDS;
use payback_server::secret::Secret;
use payback_testkit::browser::{run_browser_script_with_env, spawn_on_wall_clock};
use payback_testkit::fakes::ahrefs::FakeAhrefs;
use payback_testkit::fakes::bing::FakeBing;
use payback_testkit::fakes::semrush::FakeSemrush;
use payback_testkit::fakes::seranking::FakeSeRanking;
use payback_testkit::fakes::x::FakeX;
use payback_testkit::{Backend, per_backend};
use serde_json::{Value, json};

const SLUG: &str = "demand-sources";
const EMAIL: &str = "demand-sources@example.com";
const BING_KEY: &str = "0123456789abcdef0123456789ABCDEF";
const SITE: &str = "https://shop.example/";
const SEMRUSH_KEY: &str = "0123456789abcdef0123456789abcdef";
const AHREFS_KEY: &str = "ahrefs0123456789abcdefghijklmnopqrstuvwx";
/// A key Ahrefs does not know: its refusal is shown under the form before the right one.
const AHREFS_WRONG_KEY: &str = "ahrefs-deleted-key-0123456789abcdefghij";
const DOMAIN: &str = "shop.example";
const SE_KEY: &str = "253a73ad0123456789abcdef340aa0a939012345";
/// The SE Ranking project the person chooses, and the other one the key sees.
const SE_SHOP: u64 = 77;
const SE_BLOG: u64 = 78;
const X_TOKEN: &str = "AAAAAAAAAAAAAAAAAAAAAShopBearer%2Fz0123456789abcdefXYZ";
const X_HANDLE: &str = "ShopHQ";

/// The five kinds this test connects, as the API names them.
const KINDS_CONNECTED: [&str; 5] = ["search_b", "seo_a", "seo_b", "geo_a", "social_b"];

async fn demand_sources(backend: Backend) {
    let bing = FakeBing::spawn().await;
    bing.add_key(BING_KEY);
    bing.add_site(BING_KEY, SITE, true);
    let semrush = FakeSemrush::spawn().await;
    semrush.add_key(SEMRUSH_KEY);
    let ahrefs = FakeAhrefs::spawn().await;
    ahrefs.add_key(AHREFS_KEY);
    ahrefs.set_domain_rating(DOMAIN, 47.0);
    let seranking = FakeSeRanking::spawn().await;
    seranking.add_project(SE_KEY, SE_SHOP, "Shop", SITE);
    seranking.add_project(SE_KEY, SE_BLOG, "Blog", "https://blog.shop.example/");
    let x = FakeX::spawn().await;
    x.add_token(X_TOKEN);
    x.add_account("1500000000000000001", X_HANDLE, 4_321);

    let origins = [
        (ConnectionKind::SearchB, bing.base_url()),
        (ConnectionKind::SeoA, semrush.base_url()),
        (ConnectionKind::SeoB, ahrefs.base_url()),
        (ConnectionKind::GeoA, seranking.base_url()),
        (ConnectionKind::SocialB, x.base_url()),
    ];
    let app = spawn_on_wall_clock(
        backend,
        move |config| {
            let key = base64::engine::general_purpose::STANDARD.encode([9_u8; 32]);
            config.secret_key = Some(Secret::new(key));
            for (kind, origin) in origins {
                config.api_urls.insert(kind, origin);
            }
        },
        |_| {},
    )
    .await;
    let owner = app.signup_verified(EMAIL).await;
    app.create_product(&owner.token, SLUG).await;

    // The demand page lists the kinds the kind table says feed it; of ours, those.
    let demand_kinds: Vec<&str> = KINDS
        .iter()
        .filter(|spec| !spec.demand.is_empty() && KINDS_CONNECTED.contains(&spec.wire))
        .map(|spec| spec.wire)
        .collect();
    assert!(
        demand_kinds.len() >= 4,
        "the search and SEO kinds feed the demand report: {demand_kinds:?}"
    );
    let text = |value: &str| value.to_owned();
    let env = [
        ("PAYBACK_E2E_EMAIL", text(EMAIL)),
        ("PAYBACK_E2E_SLUG", text(SLUG)),
        (
            "PAYBACK_E2E_DEMAND_KINDS",
            serde_json::to_string(&demand_kinds).expect("json"),
        ),
        ("PAYBACK_E2E_BING_KEY", text(BING_KEY)),
        ("PAYBACK_E2E_SITE", text(SITE)),
        ("PAYBACK_E2E_SEMRUSH_KEY", text(SEMRUSH_KEY)),
        ("PAYBACK_E2E_AHREFS_KEY", text(AHREFS_KEY)),
        ("PAYBACK_E2E_AHREFS_WRONG_KEY", text(AHREFS_WRONG_KEY)),
        ("PAYBACK_E2E_DOMAIN", text(DOMAIN)),
        ("PAYBACK_E2E_SE_KEY", text(SE_KEY)),
        ("PAYBACK_E2E_SE_PROJECT", format!("Shop ({SITE})")),
        ("PAYBACK_E2E_SE_PROJECT_ID", SE_SHOP.to_string()),
        ("PAYBACK_E2E_X_TOKEN", text(X_TOKEN)),
        ("PAYBACK_E2E_X_HANDLE", text(X_HANDLE)),
    ];
    run_browser_script_with_env(&app, "dashboard-demand-sources", &env).await;

    let listed = app
        .get("/connections", Some(&owner.token))
        .await
        .expect(200)
        .clone();
    let rows = listed.as_array().expect("connections");
    let config = |kind: &str| -> Value {
        let row = rows
            .iter()
            .find(|row| row["kind"] == kind && row["product_slug"] == SLUG)
            .unwrap_or_else(|| panic!("no {kind} connection in {listed}"));
        assert_eq!(row["status"], "active", "{kind}: {row}");
        row["config"].clone()
    };
    assert_eq!(config("search_b")["site_url"], SITE);
    assert_eq!(config("seo_a")["domain"], DOMAIN);
    assert_eq!(config("seo_b")["domain"], DOMAIN);
    assert_eq!(
        config("geo_a")["company_id"],
        json!(SE_SHOP.to_string()),
        "the project chosen in the picker"
    );
    assert_eq!(config("social_b")["username"], X_HANDLE);
    let answered = listed.to_string();
    for key in [BING_KEY, SEMRUSH_KEY, AHREFS_KEY, SE_KEY, X_TOKEN] {
        assert!(!answered.contains(key), "a key in the connections list");
    }
    // Semrush spends units per call: connecting never calls it.
    assert!(
        semrush.requests().is_empty(),
        "Semrush was called on connect: {:?}",
        semrush.requests()
    );
}

per_backend!(demand_sources);
