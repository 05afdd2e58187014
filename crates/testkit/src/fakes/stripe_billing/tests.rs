//! The fake against Stripe's documentation, over HTTP.

use serde_json::Value;

use super::*;

async fn post(
    stripe: &FakeStripeBilling,
    key: &str,
    path: &str,
    form: &[(&str, &str)],
    idempotency: Option<&str>,
) -> (u16, Value) {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let mut request = reqwest::Client::new()
        .post(format!("{}{path}", stripe.base_url()))
        .bearer_auth(key)
        .form(form);
    if let Some(idempotency) = idempotency {
        request = request.header("Idempotency-Key", idempotency);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn customers_checkout_and_items_answer_the_documented_objects() {
    let stripe = FakeStripeBilling::spawn("sk_test_k", &["price_a"]).await;
    let (status, customer) = post(
        &stripe,
        "sk_test_k",
        "/v1/customers",
        &[("email", "a@example.com"), ("metadata[account_id]", "acc")],
        Some("k1"),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(customer["object"], "customer");
    assert_eq!(customer["metadata"]["account_id"], "acc");
    let id = customer["id"].as_str().unwrap().to_owned();
    // The same key and parameters replay the first answer; other parameters are refused.
    let (_, again) = post(
        &stripe,
        "sk_test_k",
        "/v1/customers",
        &[("email", "a@example.com"), ("metadata[account_id]", "acc")],
        Some("k1"),
    )
    .await;
    assert_eq!(again["id"], id.as_str());
    let (status, refused) = post(
        &stripe,
        "sk_test_k",
        "/v1/customers",
        &[("email", "b@example.com")],
        Some("k1"),
    )
    .await;
    assert_eq!(
        (status, refused["error"]["type"].as_str()),
        (400, Some("idempotency_error"))
    );
    assert_eq!(stripe.customers().len(), 1);

    let form = [
        ("mode", "subscription"),
        ("customer", id.as_str()),
        ("line_items[0][price]", "price_a"),
        ("line_items[0][quantity]", "2"),
        ("success_url", "http://x/ok"),
    ];
    let (status, session) = post(&stripe, "sk_test_k", "/v1/checkout/sessions", &form, None).await;
    assert_eq!(status, 200);
    assert!(session["url"].as_str().unwrap().contains("/c/pay/cs_test_"));
    let session_id = session["id"].as_str().unwrap().to_owned();
    let subscription = stripe.complete_checkout(&session_id);
    let item = stripe.subscription(&subscription).item_id;
    let (status, updated) = post(
        &stripe,
        "sk_test_k",
        &format!("/v1/subscription_items/{item}"),
        &[("quantity", "5")],
        None,
    )
    .await;
    assert_eq!((status, updated["quantity"].as_i64()), (200, Some(5)));
    assert_eq!(stripe.subscription(&subscription).quantity, 5);
}

#[tokio::test]
async fn refusals_use_stripes_error_object() {
    let stripe = FakeStripeBilling::spawn("sk_test_k", &["price_a"]).await;
    let (status, body) = post(&stripe, "sk_test_other", "/v1/customers", &[], None).await;
    assert_eq!(status, 401);
    assert_eq!(body["error"]["type"], "invalid_request_error");
    let (status, body) = post(
        &stripe,
        "sk_test_k",
        "/v1/checkout/sessions",
        &[
            ("mode", "subscription"),
            ("line_items[0][price]", "price_zz"),
            ("success_url", "http://x"),
        ],
        None,
    )
    .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (400, Some("resource_missing"))
    );
    let (status, body) = post(
        &stripe,
        "sk_test_k",
        "/v1/billing_portal/sessions",
        &[],
        None,
    )
    .await;
    assert_eq!(
        (status, body["error"]["param"].as_str()),
        (400, Some("customer"))
    );
    stripe.fail_next("/v1/customers", 1, Fail::CardDeclined);
    let (status, body) = post(&stripe, "sk_test_k", "/v1/customers", &[], None).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (402, Some("card_declined"))
    );
}

#[test]
fn signatures_are_hmac_sha256_of_the_timestamp_and_payload() {
    // Python's `hmac.new(b"whsec_x", b"1.{}", hashlib.sha256).hexdigest()`.
    let expected = "36ee2f7498f0c1777d1312b2a7361947fe5ad31223be30d0c62421f4ca753401";
    assert_eq!(signature("whsec_x", 1, "{}"), expected);
    assert_eq!(
        signature_header("whsec_x", 1, "{}"),
        format!("t=1,v1={expected}")
    );
}

#[tokio::test]
async fn stripe_version_picks_where_an_items_period_is() {
    let stripe = FakeStripeBilling::spawn("sk_test_k", &["price_a"]).await;
    let (_, customer) = post(&stripe, "sk_test_k", "/v1/customers", &[], None).await;
    let form = [
        ("mode", "subscription"),
        ("customer", customer["id"].as_str().unwrap()),
        ("line_items[0][price]", "price_a"),
        ("success_url", "http://x/ok"),
    ];
    let (_, session) = post(&stripe, "sk_test_k", "/v1/checkout/sessions", &form, None).await;
    let subscription = stripe.complete_checkout(session["id"].as_str().unwrap());
    let item = stripe.subscription(&subscription);
    let update = |version: Option<&'static str>| {
        let mut request = reqwest::Client::new()
            .post(format!(
                "{}/v1/subscription_items/{}",
                stripe.base_url(),
                item.item_id
            ))
            .bearer_auth("sk_test_k")
            .form(&[("quantity", "2")]);
        if let Some(version) = version {
            request = request.header("Stripe-Version", version);
        }
        async move {
            let response = request.send().await.unwrap();
            let status = response.status().as_u16();
            (status, response.json::<Value>().await.unwrap())
        }
    };
    let (status, basil) = update(Some("2025-03-31.basil")).await;
    assert_eq!(status, 200);
    assert_eq!(basil["current_period_end"], item.current_period_end);
    let (status, default) = update(None).await;
    assert_eq!(status, 200);
    assert!(default.get("current_period_end").is_none(), "{default}");
    let (status, refused) = update(Some("basil")).await;
    assert_eq!(
        (status, refused["error"]["type"].as_str()),
        (400, Some("invalid_request_error"))
    );
}
