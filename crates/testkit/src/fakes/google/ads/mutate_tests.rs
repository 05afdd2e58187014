//! The Ads API's mutates over HTTP: what a budget or customer mutate changes, and what it refuses.

use serde_json::json;

use crate::fakes::google::test_support::{CUSTOMER, ads, ads_error, search, seeded};

#[tokio::test]
async fn a_budget_mutate_changes_what_a_later_search_reads() {
    let google = seeded().await;
    let access = google.issue_tokens().access_token;
    let budget = google.budget_id(CUSTOMER, 3).expect("budget");
    let resource_name = format!("customers/{CUSTOMER}/campaignBudgets/{budget}");
    let mutate = format!("customers/{CUSTOMER}/campaignBudgets:mutate");

    let (status, body) = ads(&google, &mutate, &access, None, json!({"operations": [{"update": {"resourceName": resource_name, "amountMicros": "45000000"}, "updateMask": "amount_micros"}]})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body, json!({"results": [{"resourceName": resource_name}]}));
    assert_eq!(google.budget_micros(CUSTOMER, 3), Some(45_000_000));
    let (_, body) = search(
        &google,
        &access,
        "SELECT campaign_budget.amount_micros FROM campaign WHERE campaign.id = 3",
    )
    .await;
    assert_eq!(
        body["results"][0]["campaignBudget"]["amountMicros"],
        "45000000"
    );

    for (operation, expected) in [
        (
            json!({"update": {"resourceName": resource_name, "amountMicros": "45000001"}, "updateMask": "amountMicros"}),
            json!({"campaignBudgetError": "NON_MULTIPLE_OF_MINIMUM_CURRENCY_UNIT"}),
        ),
        (
            json!({"update": {"resourceName": resource_name, "amountMicros": "1000000"}}),
            json!({"fieldMaskError": "FIELD_MASK_MISSING"}),
        ),
        (
            json!({"update": {"resourceName": format!("customers/{CUSTOMER}/campaignBudgets/1"), "amountMicros": "1000000"}, "updateMask": "amount_micros"}),
            json!({"mutateError": "RESOURCE_NOT_FOUND"}),
        ),
    ] {
        let (status, body) = ads(
            &google,
            &mutate,
            &access,
            None,
            json!({"operations": [operation]}),
        )
        .await;
        assert_eq!(status, 400, "{body}");
        assert_eq!(ads_error(&body).1, expected);
    }
    assert_eq!(
        google.budget_micros(CUSTOMER, 3),
        Some(45_000_000),
        "refused mutates change nothing"
    );

    let (status, body) = ads(&google, &mutate, &access, None, json!({"operations": [{"update": {"resourceName": resource_name, "amount_micros": 50000000}, "update_mask": "amount_micros"}], "validateOnly": true})).await;
    assert_eq!((status, body), (200, json!({})));
    assert_eq!(
        google.budget_micros(CUSTOMER, 3),
        Some(45_000_000),
        "validate only"
    );

    let (status, body) = ads(
        &google,
        &mutate,
        &access,
        None,
        json!({"operations": [], "pageSize": 1}),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(body["error"]["status"], "INVALID_ARGUMENT");
    assert!(
        body["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("Unknown name \"pageSize\"")),
        "{body}"
    );
}

#[tokio::test]
async fn the_customer_mutate_sets_the_final_url_suffix() {
    let google = seeded().await;
    let access = google.issue_tokens().access_token;
    let path = format!("customers/{CUSTOMER}:mutate");
    let update = |suffix: &str| json!({"operation": {"update": {"resourceName": format!("customers/{CUSTOMER}"), "finalUrlSuffix": suffix}, "updateMask": "final_url_suffix"}});
    let (status, body) = ads(
        &google,
        &path,
        &access,
        None,
        update("utm_source=google&gclid={gclid}"),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body,
        json!({"result": {"resourceName": format!("customers/{CUSTOMER}")}})
    );
    assert_eq!(
        google.final_url_suffix(CUSTOMER).as_deref(),
        Some("utm_source=google&gclid={gclid}")
    );
    let (_, body) = search(
        &google,
        &access,
        "SELECT customer.final_url_suffix FROM customer",
    )
    .await;
    assert_eq!(
        body["results"][0]["customer"]["finalUrlSuffix"],
        "utm_source=google&gclid={gclid}"
    );

    let (status, body) = ads(&google, &path, &access, None, update("?utm_source=google")).await;
    assert_eq!(status, 400);
    assert_eq!(
        ads_error(&body).1,
        json!({"urlFieldError": "FINAL_URL_SUFFIX_MALFORMED"})
    );
}
