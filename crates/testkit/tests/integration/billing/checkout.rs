//! `POST /billing/checkout` and `POST /billing/portal` against the fake: the price of the plan
//! asked, the quantity of billable products, one customer per workspace made at the first
//! checkout and reused, idempotency keys, the 400 naming `plan`, the portal's 409 before a
//! customer, Stripe's refusals as 502, and no key in any answer or log line.

use payback_domain::DAY_MS;
use payback_testkit::fakes::stripe_billing::Fail;
use payback_testkit::{Backend, per_backend};
use serde_json::json;

use super::support::{
    KEY, LogCapture, PRICE_GROWTH, PRICE_INDIE, WEBHOOK_SECRET, billed, checkout, summary,
};

fn form_value(form: &[(String, String)], name: &str) -> Option<String> {
    form.iter()
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.clone())
}

async fn checkout_asks_for_the_plans_price_and_the_billable_products(backend: Backend) {
    let log = LogCapture::start();
    let billed = billed(backend).await;
    let (app, stripe) = (&billed.app, &billed.stripe);
    let owner = app.signup_verified("founder@example.com").await;
    let mut answers = Vec::new();
    // An API key does not idle out while the clock jumps over days.
    let key = app.api_key(&owner).await;
    // Three products: made on days 0, 5 and 40; on day 41 the first two are past their 30 days.
    app.create_product(&key, "one").await;
    app.clock.advance(5 * DAY_MS);
    app.create_product(&key, "two").await;
    app.clock.advance(35 * DAY_MS);
    app.create_product(&key, "three").await;
    app.clock.advance(DAY_MS);
    // Sessions end after 7 idle days: sign in again after the jumps.
    let owner = app.login(&owner.email).await;
    let before = summary(app, &owner.token).await;
    assert_eq!(
        (
            before["billable_products"].clone(),
            before["quantity"].clone()
        ),
        (json!(2), json!(2))
    );

    let session = checkout(&billed, &owner, "indie").await;
    let requests = stripe.requests();
    assert_eq!(requests.len(), 2, "a customer, then the session");
    let customer_request = &requests[0];
    assert_eq!(customer_request.path, "/v1/customers");
    assert_eq!(
        customer_request.header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
    assert!(
        customer_request
            .header("content-type")
            .unwrap()
            .starts_with("application/x-www-form-urlencoded")
    );
    assert!(
        customer_request
            .header("idempotency-key")
            .is_some_and(|key| !key.is_empty())
    );
    let customer_form = customer_request.form();
    assert_eq!(
        form_value(&customer_form, "email").as_deref(),
        Some("founder@example.com")
    );
    assert_eq!(
        form_value(&customer_form, "metadata[account_id]").as_deref(),
        Some(owner.account_id.as_str())
    );
    let customers = stripe.customers();
    assert_eq!(customers.len(), 1);

    let session_request = &requests[1];
    assert_eq!(session_request.path, "/v1/checkout/sessions");
    assert!(
        session_request
            .header("idempotency-key")
            .is_some_and(|key| !key.is_empty())
    );
    // Every call pins the API version rather than taking the account's default.
    for request in &requests {
        assert_eq!(request.header("stripe-version"), Some("2025-03-31.basil"));
    }
    let form = session_request.form();
    assert_eq!(form_value(&form, "mode").as_deref(), Some("subscription"));
    assert_eq!(form_value(&form, "customer"), Some(customers[0].id.clone()));
    assert_eq!(
        form_value(&form, "client_reference_id"),
        Some(owner.account_id.clone())
    );
    assert_eq!(
        form_value(&form, "line_items[0][price]").as_deref(),
        Some(PRICE_INDIE)
    );
    assert_eq!(
        form_value(&form, "line_items[0][quantity]").as_deref(),
        Some("2")
    );
    let public = app.base_url.clone();
    assert!(
        form_value(&form, "success_url")
            .unwrap()
            .starts_with(&format!("{public}/#/billing"))
    );
    assert!(
        form_value(&form, "cancel_url")
            .unwrap()
            .starts_with(&format!("{public}/#/billing"))
    );
    // No trial at Checkout: the workspace had its own.
    assert!(form.iter().all(|(key, _)| !key.contains("trial")));
    assert_eq!(stripe.checkouts()[0].id, session);

    // The customer is the workspace's from now on, whoever checks out next.
    assert_eq!(summary(app, &owner.token).await["has_customer"], true);
    let member = app.add_member(&owner, "member@example.com", "member").await;
    let reply = app
        .post(
            "/billing/checkout",
            Some(&member.token),
            json!({"plan": "growth"}),
        )
        .await;
    answers.push(reply.text.clone());
    reply.expect(200);
    assert_eq!(stripe.customers().len(), 1, "one customer per workspace");
    let second = stripe.checkouts()[1].clone();
    assert_eq!(second.customer, customers[0].id);
    assert_eq!(second.price, PRICE_GROWTH);
    assert_eq!(second.quantity, 2);
    // Another workspace gets its own.
    let other = app.signup_verified("other@example.com").await;
    let reply = app
        .post(
            "/billing/checkout",
            Some(&other.token),
            json!({"plan": "indie"}),
        )
        .await;
    reply.expect(200);
    assert_eq!(stripe.customers().len(), 2);
    assert_eq!(
        stripe.checkouts()[2].quantity,
        1,
        "no billable product still pays for one"
    );

    // `plan` exactly `indie` or `growth`, else 400 naming it; nothing reaches Stripe.
    let sent = stripe.requests().len();
    for body in [
        json!({"plan": "free"}),
        json!({"plan": "Indie"}),
        json!({}),
        json!({"plan": 2}),
    ] {
        let reply = app
            .post("/billing/checkout", Some(&owner.token), body.clone())
            .await;
        assert_eq!(reply.status, 400, "{body}: {}", reply.text);
        assert!(reply.text.contains("plan"), "{body}: {}", reply.text);
    }
    assert_eq!(stripe.requests().len(), sent);
    assert_eq!(
        app.post("/billing/checkout", None, json!({"plan": "indie"}))
            .await
            .status,
        401
    );

    // Stripe's refusal is a 502 saying why, never the key.
    stripe.fail_next("/v1/checkout/sessions", 1, Fail::CardDeclined);
    let refused = app
        .post(
            "/billing/checkout",
            Some(&owner.token),
            json!({"plan": "indie"}),
        )
        .await;
    assert_eq!(refused.status, 502, "{}", refused.text);
    assert!(refused.text.contains("card_declined"), "{}", refused.text);
    answers.push(refused.text.clone());

    // The portal: the customer's session, returning to the billing page.
    let portal = app
        .post("/billing/portal", Some(&owner.token), json!({}))
        .await;
    answers.push(portal.text.clone());
    let url = portal.expect(200)["url"].as_str().unwrap().to_owned();
    let sessions = stripe.portals();
    assert_eq!(sessions.len(), 1);
    assert_eq!(sessions[0].url, url);
    assert_eq!(sessions[0].customer, customers[0].id);
    assert_eq!(sessions[0].return_url, format!("{public}/#/billing"));
    // Before any checkout there is no customer: 409.
    let third = app.signup_verified("third@example.com").await;
    let early = app
        .post("/billing/portal", Some(&third.token), json!({}))
        .await;
    assert_eq!(early.status, 409, "{}", early.text);
    assert_eq!(stripe.portals().len(), 1);

    for answer in answers
        .iter()
        .chain([summary(app, &owner.token).await.to_string()].iter())
    {
        assert!(
            !answer.contains(KEY) && !answer.contains(WEBHOOK_SECRET),
            "{answer}"
        );
    }
    let logged = log.text();
    assert!(!logged.is_empty(), "the capture saw the app's log");
    assert!(!logged.contains(KEY), "the key in a log line");
}

per_backend!(checkout_asks_for_the_plans_price_and_the_billable_products);
