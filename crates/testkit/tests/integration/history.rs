//! GET /history: shape, order, the product filter, the days/limit window, and who sees what:
//! tenants their products' events (the spec's history), owners their account's own events too
//! with `include=account`, never sign-ins; operators everything.

use std::collections::BTreeSet;

use payback_domain::DAY_MS;
use payback_testkit::{TestApp, backend_tests};
use serde_json::{Value, json};

const EVENT_FIELDS: &[&str] = &[
    "id",
    "occurred_at",
    "actor",
    "via",
    "action",
    "product_slug",
    "subject_ref",
    "card_headline",
    "card_type",
    "payload",
];

fn actions(events: &[Value]) -> Vec<&str> {
    events
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect()
}

fn product_events(events: &[Value]) -> Vec<Value> {
    events
        .iter()
        .filter(|e| !e["product_slug"].is_null())
        .cloned()
        .collect()
}

/// Newest first: ids and timestamps never increase down the list.
fn assert_newest_first(events: &[Value]) {
    for pair in events.windows(2) {
        let (newer, older) = (&pair[0], &pair[1]);
        assert!(
            newer["occurred_at"].as_str().unwrap() >= older["occurred_at"].as_str().unwrap(),
            "{newer} before {older}"
        );
        assert!(
            newer["id"].as_i64().unwrap() > older["id"].as_i64().unwrap(),
            "{newer} before {older}"
        );
    }
}

async fn events_have_every_field_newest_first(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    let alpha = app.create_product(&ann.token, "alpha").await;
    app.clock.advance(1_000);
    app.create_product(&ann.token, "beta").await;
    app.clock.advance(1_000);
    app.post(
        "/products/alpha",
        Some(&ann.token),
        json!({ "name": "Alpha 2" }),
    )
    .await
    .expect(200);

    // Account events (the sign-up's) have every field too.
    let events = app.history(&ann.token, "?include=account").await;
    assert!(events.iter().any(|e| e["product_slug"].is_null()));
    assert_newest_first(&events);
    for event in &events {
        let fields: BTreeSet<&str> = event
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            fields,
            EVENT_FIELDS.iter().copied().collect(),
            "fields of {event}"
        );
        assert!(event["id"].is_i64(), "{event}");
        assert!(event["occurred_at"].is_string(), "{event}");
        assert!(event["payload"].is_object(), "{event}");
        let via = event["via"].as_str().unwrap();
        assert!(
            ["dashboard", "mcp", "api", "job", "chat"].contains(&via),
            "{event}"
        );
    }

    let products = product_events(&events);
    assert_eq!(
        actions(&products),
        ["product.update", "product.create", "product.create"]
    );
    assert_eq!(app.history(&ann.token, "").await, products);
    let update = &products[0];
    assert_eq!(update["product_slug"], "alpha");
    assert_eq!(update["subject_ref"], alpha["id"]);
    assert_eq!(update["actor"], "ann@example.com");
    assert_eq!(update["via"], "dashboard");
    assert_eq!(update["card_headline"], Value::Null);
    assert_eq!(update["card_type"], Value::Null);
    assert_eq!(update["payload"]["after"]["name"], "Alpha 2");
    assert!(
        update["occurred_at"]
            .as_str()
            .unwrap()
            .starts_with("2026-11-21T12:00:02"),
        "the injected clock stamps events: {update}"
    );
    assert_eq!(products[1]["product_slug"], "beta");
    assert_eq!(products[2]["product_slug"], "alpha");
    assert_eq!(products[2]["payload"]["name"], "Product alpha");
    assert_eq!(products[2]["payload"]["currency"], "USD");
    assert!(
        products[2]["occurred_at"]
            .as_str()
            .unwrap()
            .starts_with("2026-11-21T12:00:00"),
        "{}",
        products[2]
    );

    // Events in the same instant still come newest first (by id).
    for slug in ["same-1", "same-2", "same-3"] {
        app.create_product(&ann.token, slug).await;
    }
    let events = app.history(&ann.token, "").await;
    assert_newest_first(&events);
    let slugs: Vec<&str> = events
        .iter()
        .take(3)
        .map(|e| e["product_slug"].as_str().unwrap())
        .collect();
    assert_eq!(slugs, ["same-3", "same-2", "same-1"]);

    let reply = app.get("/history", None).await;
    reply.expect_error(401, "bearer");
}

async fn product_filter_shows_that_product_only(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    let bob = app.signup_verified("bob@example.com").await;
    app.create_product(&ann.token, "alpha").await;
    app.create_product(&ann.token, "beta").await;
    app.create_product(&bob.token, "bobs").await;
    app.post(
        "/products/beta",
        Some(&ann.token),
        json!({ "currency": "eur" }),
    )
    .await
    .expect(200);

    let alpha = app.history(&ann.token, "?product=alpha").await;
    assert_eq!(actions(&alpha), ["product.create"]);
    assert!(alpha.iter().all(|e| e["product_slug"] == "alpha"));
    let beta = app.history(&ann.token, "?product=beta").await;
    assert_eq!(actions(&beta), ["product.update", "product.create"]);
    assert!(beta.iter().all(|e| e["product_slug"] == "beta"));

    let reply = app.get("/history?product=nope", Some(&ann.token)).await;
    reply.expect_error(404, "not found");
    let reply = app.get("/history?product=bobs", Some(&ann.token)).await;
    reply.expect_error(404, "not found");

    // An API key of the account reads the same filtered history.
    let key = app.api_key(&ann).await;
    let through_key = app.history(&key, "?product=beta").await;
    assert_eq!(through_key, beta);
}

async fn days_and_limit_are_validated(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    for query in ["days=0", "days=3651", "days=abc", "days=-1", "days=1.5"] {
        let reply = app
            .get(&format!("/history?{query}"), Some(&ann.token))
            .await;
        assert_eq!(reply.status, 400, "{query}: {}", reply.text);
        reply.expect_error(400, "days");
    }
    for query in ["limit=0", "limit=1001", "limit=abc", "limit=-5"] {
        let reply = app
            .get(&format!("/history?{query}"), Some(&ann.token))
            .await;
        assert_eq!(reply.status, 400, "{query}: {}", reply.text);
        reply.expect_error(400, "limit");
    }
    // The bounds themselves are accepted.
    for query in ["days=1", "days=3650", "limit=1", "limit=1000"] {
        let reply = app
            .get(&format!("/history?{query}"), Some(&ann.token))
            .await;
        assert!(reply.expect(200).is_array(), "{query}");
    }

    for slug in ["one", "two", "three"] {
        app.create_product(&ann.token, slug).await;
    }
    let one = app.history(&ann.token, "?limit=1").await;
    assert_eq!(one.len(), 1);
    assert_eq!(one[0]["product_slug"], "three");
    let two = app.history(&ann.token, "?limit=2&product=two").await;
    assert_eq!(two.len(), 1, "only one event exists for that product");
    let all = app.history(&ann.token, "").await;
    assert!(all.len() >= 3, "{all:?}");
    assert_eq!(all[0], one[0]);
}

async fn limit_defaults_to_100(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    app.create_product(&ann.token, "busy").await;
    for i in 0..105 {
        app.post(
            "/products/busy",
            Some(&ann.token),
            json!({ "name": format!("Busy {i}") }),
        )
        .await
        .expect(200);
    }
    let default = app.history(&ann.token, "?product=busy").await;
    assert_eq!(default.len(), 100);
    assert_eq!(default[0]["payload"]["after"]["name"], "Busy 104");
    let more = app.history(&ann.token, "?product=busy&limit=1000").await;
    assert_eq!(more.len(), 106);
    assert_eq!(more[105]["action"], "product.create");
    assert_newest_first(&more);
}

async fn days_window_hides_older_events(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    app.create_product(&ann.token, "old").await;
    // Forty days later (2026-12-31T12:00Z); the session has long expired, so sign in again.
    app.clock.advance(40 * DAY_MS);
    let ann = app.login("ann@example.com").await;
    app.create_product(&ann.token, "new").await;

    let recent = app.history(&ann.token, "?include=account").await;
    let slugs: BTreeSet<&str> = recent
        .iter()
        .filter_map(|e| e["product_slug"].as_str())
        .collect();
    assert_eq!(slugs, BTreeSet::from(["new"]), "{recent:?}");
    assert!(
        recent
            .iter()
            .all(|e| e["action"] != "account.signup" && e["action"] != "account.verify_email"),
        "account events of day 0 are outside 30 days: {recent:?}"
    );
    assert_eq!(
        app.history(&ann.token, "?product=old").await,
        Vec::<Value>::new()
    );

    let wide_account = app.history(&ann.token, "?days=60&include=account").await;
    assert!(
        wide_account.iter().any(|e| e["action"] == "account.signup"),
        "{wide_account:?}"
    );
    let wide = app.history(&ann.token, "?days=60").await;
    let slugs: Vec<&str> = wide
        .iter()
        .filter_map(|e| e["product_slug"].as_str())
        .collect();
    assert_eq!(slugs, ["new", "old"]);
    assert_eq!(
        app.history(&ann.token, "?product=old&days=60").await.len(),
        1
    );

    // `days=N` covers the N UTC days ending today: day 0 is the 41st day back.
    let forty = app.history(&ann.token, "?product=old&days=40").await;
    assert!(forty.is_empty(), "{forty:?}");
    let forty_one = app.history(&ann.token, "?product=old&days=41").await;
    assert_eq!(actions(&forty_one), ["product.create"]);
    // A one-day window is today only.
    let today = app.history(&ann.token, "?days=1").await;
    assert_eq!(
        today
            .iter()
            .filter_map(|e| e["product_slug"].as_str())
            .collect::<Vec<_>>(),
        ["new"]
    );
}

async fn tenants_see_only_their_own_account_and_no_logins(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    let bob = app.signup_verified("bob@example.com").await;
    let bobs = app.create_product(&bob.token, "bobs").await;
    app.create_product(&ann.token, "anns").await;
    // More sign-ins, each an auth.login event.
    app.login("ann@example.com").await;
    app.login("bob@example.com").await;

    let events = app
        .history(&ann.token, "?days=3650&limit=1000&include=account")
        .await;
    assert!(events.iter().any(|e| e["action"] == "account.signup"));
    for event in &events {
        assert_ne!(event["action"], "auth.login", "{event}");
        assert_ne!(event["actor"], "bob@example.com", "{event}");
        assert_ne!(event["product_slug"], "bobs", "{event}");
        assert_ne!(event["subject_ref"], bobs["id"], "{event}");
        assert_ne!(event["subject_ref"], bob.user_id.as_str(), "{event}");
        assert_ne!(event["subject_ref"], bob.account_id.as_str(), "{event}");
    }
    assert!(
        events.iter().any(|e| e["product_slug"] == "anns"),
        "{events:?}"
    );
    let bob_events = app
        .history(&bob.token, "?days=3650&limit=1000&include=account")
        .await;
    assert!(bob_events.iter().all(|e| e["action"] != "auth.login"));
    assert!(bob_events.iter().all(|e| e["actor"] != "ann@example.com"));
    assert_eq!(
        bob_events
            .iter()
            .filter_map(|e| e["product_slug"].as_str())
            .collect::<Vec<_>>(),
        ["bobs"]
    );
    // An API key is a tenant too.
    let key = app.api_key(&ann).await;
    let through_key = app.history(&key, "?limit=1000").await;
    assert!(through_key.iter().all(|e| e["action"] != "auth.login"));
    assert!(through_key.iter().all(|e| e["actor"] != "bob@example.com"));
}

async fn operators_see_logins_and_every_account(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    let bob = app.signup_verified("bob@example.com").await;
    app.create_product(&ann.token, "anns").await;
    app.create_product(&bob.token, "bobs").await;

    let events = app.history(&app.operator_token, "?limit=1000").await;
    assert_newest_first(&events);
    let logins: BTreeSet<&str> = events
        .iter()
        .filter(|e| e["action"] == "auth.login")
        .map(|e| e["actor"].as_str().unwrap())
        .collect();
    assert_eq!(
        logins,
        BTreeSet::from(["ann@example.com", "bob@example.com"])
    );
    let slugs: BTreeSet<&str> = events
        .iter()
        .filter_map(|e| e["product_slug"].as_str())
        .collect();
    assert_eq!(slugs, BTreeSet::from(["anns", "bobs"]));

    // A member of an operator account is an operator too.
    let carol = app.signup_verified("carol@example.com").await;
    payback_server::operator::grant(&app.state, "carol@example.com")
        .await
        .unwrap();
    let seen = app.history(&carol.token, "?limit=1000").await;
    assert!(
        seen.iter()
            .any(|e| e["action"] == "auth.login" && e["actor"] == "ann@example.com"),
        "{seen:?}"
    );
    assert!(seen.iter().any(|e| e["product_slug"] == "bobs"));
    assert!(
        seen.iter()
            .any(|e| e["action"] == "account.operator_grant" && e["actor"] == "system"),
        "{seen:?}"
    );
}

/// Ann's account with a product, account-level changes of every kind (profile, key, invite,
/// a member disabled with the key they had minted) and Bob's account beside it.
struct Accounts {
    ann: payback_testkit::Session,
    member: payback_testkit::Session,
    key: String,
    bob: payback_testkit::Session,
}

async fn accounts_with_account_events(app: &TestApp) -> Accounts {
    let ann = app.signup_verified("ann@example.com").await;
    app.create_product(&ann.token, "alpha").await;
    app.post("/auth/me", Some(&ann.token), json!({ "name": "Ann" }))
        .await
        .expect(200);
    let key = app.api_key(&ann).await;
    let member = app.add_member(&ann, "mia@example.com", "member").await;
    app.post(
        "/products/alpha",
        Some(&member.token),
        json!({ "name": "Alpha by Mia" }),
    )
    .await
    .expect(200);
    // A key of the member's own, which disabling her revokes (a security event).
    app.api_key(&member).await;
    let bob = app.signup_verified("bob@example.com").await;
    app.create_product(&bob.token, "bobs").await;
    app.api_key(&bob).await;
    app.post(
        &format!("/team/{}/disable", member.user_id),
        Some(&ann.token),
        json!({}),
    )
    .await
    .expect(200);
    app.post(
        &format!("/team/{}/enable", member.user_id),
        Some(&ann.token),
        json!({}),
    )
    .await
    .expect(200);
    let member = app.login("mia@example.com").await;
    // More sign-ins, each an `auth.login` event.
    app.login("ann@example.com").await;
    app.login("bob@example.com").await;
    Accounts {
        ann,
        member,
        key,
        bob,
    }
}

/// The spec's tenant history is product-scoped: the default holds the account's products'
/// events only, for owners, members and API keys alike; account-level events (profile, keys,
/// team, sign-up) stay out, and so do sign-ins.
async fn tenant_history_is_product_scoped_by_default(app: TestApp) {
    let Accounts {
        ann,
        member,
        key,
        bob,
    } = accounts_with_account_events(&app).await;
    let by_owner = app.history(&ann.token, "?limit=1000").await;
    assert_eq!(actions(&by_owner), ["product.update", "product.create"]);
    assert!(
        by_owner.iter().all(|e| e["product_slug"] == "alpha"),
        "{by_owner:?}"
    );
    assert_eq!(by_owner[0]["actor"], "mia@example.com");
    assert_eq!(by_owner[1]["actor"], "ann@example.com");
    assert_eq!(app.history(&member.token, "?limit=1000").await, by_owner);
    assert_eq!(app.history(&key, "?limit=1000").await, by_owner);
    assert_eq!(app.history(&ann.token, "?product=alpha").await, by_owner);

    let bobs = app.history(&bob.token, "?limit=1000").await;
    assert_eq!(actions(&bobs), ["product.create"]);
    assert_eq!(bobs[0]["product_slug"], "bobs");
}

/// `include=account` brings the account's own events, merged newest first with the products',
/// to owners: the security events among them (`team.disable` with `keys_revoked`). Never
/// sign-ins, never another account's events. Members and API keys are refused (403); a bad
/// value, or `include=account` with `product`, answers 400.
async fn owners_read_account_events_with_include_account(app: TestApp) {
    let Accounts {
        ann,
        member,
        key,
        bob,
    } = accounts_with_account_events(&app).await;
    let events = app.history(&ann.token, "?include=account&limit=1000").await;
    assert_newest_first(&events);
    assert_eq!(
        actions(&events),
        [
            "team.enable",
            "team.disable",
            "api_key.create",
            "product.update",
            "team.accept_invite",
            "team.invite",
            "api_key.create",
            "profile.update",
            "product.create",
            "account.verify_email",
            "account.signup",
        ]
    );
    let account_events: Vec<&Value> = events
        .iter()
        .filter(|e| e["product_slug"].is_null())
        .collect();
    assert_eq!(account_events.len(), 9, "{events:?}");
    let disable = &events[1];
    assert_eq!(disable["actor"], "ann@example.com");
    assert_eq!(disable["subject_ref"], member.user_id.as_str());
    assert_eq!(disable["payload"]["email"], "mia@example.com");
    assert_eq!(disable["payload"]["keys_revoked"], 1);
    assert_eq!(events[2]["actor"], "mia@example.com");
    assert_eq!(events[6]["payload"]["name"], "test");
    assert_eq!(events[7]["payload"]["name_changed"], true);
    assert_eq!(events[7]["payload"]["password_changed"], false);
    for event in &events {
        assert_ne!(event["action"], "auth.login", "{event}");
        assert_ne!(event["actor"], "bob@example.com", "{event}");
        assert_ne!(event["product_slug"], "bobs", "{event}");
        assert_ne!(event["subject_ref"], bob.user_id.as_str(), "{event}");
        assert_ne!(event["subject_ref"], bob.account_id.as_str(), "{event}");
    }
    // The products' events are the default history's, in the same order.
    let products: Vec<Value> = events
        .iter()
        .filter(|e| !e["product_slug"].is_null())
        .cloned()
        .collect();
    assert_eq!(products, app.history(&ann.token, "?limit=1000").await);
    // The window and the limit hold as usual.
    let newest = app.history(&ann.token, "?include=account&limit=2").await;
    assert_eq!(newest, events[..2]);

    // Bob's account events are his own.
    let bobs = app.history(&bob.token, "?include=account&limit=1000").await;
    assert_eq!(
        actions(&bobs),
        [
            "api_key.create",
            "product.create",
            "account.verify_email",
            "account.signup"
        ]
    );
    assert!(
        bobs.iter()
            .all(|e| e["actor"] == "bob@example.com" || e["actor"] == "system"),
        "{bobs:?}"
    );

    app.get("/history?include=account", Some(&member.token))
        .await
        .expect_error(403, "Not an owner");
    app.get("/history?include=account", Some(&key))
        .await
        .expect_error(403, "Not an owner");
    for query in ["include=accounts", "include=", "include=product"] {
        app.get(&format!("/history?{query}"), Some(&ann.token))
            .await
            .expect_error(400, "include: must be account");
    }
    app.get("/history?include=account&product=alpha", Some(&ann.token))
        .await
        .expect_error(400, "leave out product");
}

/// Operators see every account's events, account-level ones and sign-ins included, with or
/// without `include=account`.
async fn operators_see_account_events_either_way(app: TestApp) {
    accounts_with_account_events(&app).await;
    let everything = app.history(&app.operator_token, "?limit=1000").await;
    let with_include = app
        .history(&app.operator_token, "?include=account&limit=1000")
        .await;
    assert_eq!(everything, with_include);
    for (action, actor) in [
        ("auth.login", "bob@example.com"),
        ("api_key.create", "bob@example.com"),
        ("team.disable", "ann@example.com"),
        ("profile.update", "ann@example.com"),
    ] {
        assert!(
            everything
                .iter()
                .any(|e| e["action"] == action && e["actor"] == actor),
            "{action} by {actor}: {everything:?}"
        );
    }
}

backend_tests!(
    tenant_history_is_product_scoped_by_default,
    owners_read_account_events_with_include_account,
    operators_see_account_events_either_way,
);

backend_tests!(
    events_have_every_field_newest_first,
    product_filter_shows_that_product_only,
    days_and_limit_are_validated,
    limit_defaults_to_100,
    days_window_hides_older_events,
    tenants_see_only_their_own_account_and_no_logins,
    operators_see_logins_and_every_account,
);
