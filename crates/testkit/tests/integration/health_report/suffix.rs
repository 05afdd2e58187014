//! The URL suffix check's live read, against the loopback Google fake: a suffix lacking
//! Payback's parameters fails naming them, one Payback wrote passes without asking Google, and
//! a read Google refuses is a polite skip.

use payback_testkit::fake_google::{CustomerSeed, Fail};
use payback_testkit::{Backend, FakeGoogle, per_backend};

use super::*;

const CUSTOMER: i64 = 1_234_567_890;
const SUFFIX: &str = "/products/shop/connections/search-ads/url-suffix";

/// The service wired to the fake (OAuth client, developer token, ads API, sealing key), and a
/// founder whose `shop` has Google Ads connected through the search-engine grant.
async fn connected(backend: Backend, google: &FakeGoogle) -> (TestApp, Founder) {
    let app = crate::search_ads::spawn(backend, google).await;
    let owner = founder(&app, "founder@example.com").await;
    product(&app, &owner, "shop").await;
    crate::search_ads::connect(&app, google, &owner.session.token).await;
    (app, owner)
}

async fn the_suffix_is_read_live_until_payback_writes_it(backend: Backend) {
    let google = FakeGoogle::spawn().await;
    google.add_customer(
        CustomerSeed::new(CUSTOMER, "Shop Ads", "USD").final_url_suffix("ref=partner"),
    );
    let (app, owner) = connected(backend, &google).await;
    let missing: Vec<String> = app.get(SUFFIX, Some(&owner.key)).await.expect(200)["missing"]
        .as_array()
        .unwrap()
        .iter()
        .map(|name| name.as_str().unwrap().to_owned())
        .collect();
    assert!(!missing.is_empty());

    let report = report(&app, &owner.key, "shop").await;
    assert_eq!(check(&report, "advertising.url_suffix")["status"], "fail");
    assert_eq!(
        evidence(&report, "advertising.url_suffix"),
        format!("The final URL suffix lacks {}", missing.join(", "))
    );
    let action = check(&report, "advertising.url_suffix")["action"]
        .as_str()
        .unwrap();
    assert!(action.contains(&format!("POST {SUFFIX}")), "{action}");

    // Google refuses the read: nothing to say about the suffix, and no verdict on it.
    google.fail_next("googleAds:search", 1, Fail::Unauthenticated);
    let refused = super::report(&app, &owner.key, "shop").await;
    assert_eq!(check(&refused, "advertising.url_suffix")["status"], "skip");
    assert!(
        evidence(&refused, "advertising.url_suffix").starts_with("The suffix could not be read"),
        "{}",
        evidence(&refused, "advertising.url_suffix")
    );

    // Payback completes it: the check passes from what the connection stored, even while
    // Google would refuse another read.
    app.post(SUFFIX, Some(&owner.session.token), json!({}))
        .await
        .expect(200);
    google.fail_next("googleAds:search", 5, Fail::Unauthenticated);
    let written = super::report(&app, &owner.key, "shop").await;
    assert_eq!(check(&written, "advertising.url_suffix")["status"], "pass");
    assert_eq!(
        evidence(&written, "advertising.url_suffix"),
        "Payback wrote the complete suffix on 2026-11-21T12:00:00.000Z"
    );
}

per_backend!(the_suffix_is_read_live_until_payback_writes_it);
