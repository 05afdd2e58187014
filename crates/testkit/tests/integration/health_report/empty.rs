//! A product with nothing yet: every check tells how to start, and there is no score.

use super::*;

async fn an_empty_product_has_no_score_and_says_how_to_start(app: TestApp) {
    let owner = founder(&app, "founder@example.com").await;
    product(&app, &owner, "blank").await;
    let report = report(&app, &owner.key, "blank").await;
    assert_eq!(report["product_slug"], "blank");
    assert_eq!(report["window_days"], 30);
    assert_eq!(report["score"], Value::Null, "no data, no score");
    assert_eq!(report["grade"], Value::Null);
    for category in report["categories"].as_array().unwrap() {
        assert_eq!(category["score"], Value::Null);
    }
    assert_eq!(statuses(&report), expect(&nothing_yet(&app), &[]));
    assert_eq!(
        evidence(&report, "tracking.events"),
        "No event received yet"
    );
    let install = check(&report, "tracking.events")["action"]
        .as_str()
        .unwrap();
    assert!(
        install.contains("/products/blank/tracking-key"),
        "{install}"
    );
    assert!(install.contains("/products/blank/events"), "{install}");
    assert_eq!(
        evidence(&report, "tracking.payments"),
        "Not connected, and no revenue recorded in 30 days"
    );
    assert!(
        evidence(&report, "funnel.definition")
            .starts_with("Still the built-in ladder: Visits > Leads")
    );
    assert_eq!(
        evidence(&report, "funnel.primary_conversion"),
        "No active primary conversion"
    );
    assert_eq!(
        evidence(&report, "advertising.ltv_cac"),
        "No ad spend in 30 days"
    );
    assert_eq!(
        evidence(&report, "advertising.url_suffix"),
        "Google Ads not connected"
    );
    // A skip still shows its setup action.
    assert!(
        check(&report, "advertising.url_suffix")["action"]
            .as_str()
            .unwrap()
            .contains("/connect/searchco/start")
    );
}

backend_tests!(an_empty_product_has_no_score_and_says_how_to_start);
