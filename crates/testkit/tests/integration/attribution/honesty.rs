//! Hand-built edge cases: revenue with no identity or channel, channels with no spend, late
//! touches and links, ad-level buckets, and the primary goal.

use super::*;

async fn product_id(app: &TestApp, key: &str, slug: &str) -> String {
    get(app, key, &format!("/products/{slug}")).await["product_id"]
        .as_str()
        .unwrap()
        .to_owned()
}

async fn exec(app: &TestApp, sql: &str) {
    app.sql_execute(sql, &[]).await;
}

fn channel<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["channels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["channel"] == name)
        .unwrap_or_else(|| panic!("no {name} row in {report}"))
}

fn ad<'a>(ads: &'a Value, id: &str) -> &'a Value {
    ads["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == id)
        .unwrap_or_else(|| panic!("no {id} row in {ads}"))
}

fn sale_of<'a>(sales: &'a Value, identity: &str) -> &'a Value {
    sales["sales"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["identity"] == identity)
        .unwrap()
}

async fn honesty_rules_and_late_touches(app: TestApp) {
    let key = setup(&app, "founder@example.com").await;
    app.create_product(&key, "hand").await;
    let id = product_id(&app, &key, "hand").await;
    let email = json!({"utm_source": "newsletter", "utm_medium": "email"});
    app.send_events(&key, "hand", json!([
        // Revenue with no identity, and revenue of an identity that never had a channel.
        {"dedupe_id": "anon-pay", "stage": "payment", "value": 1000, "occurred_at": "2026-11-20T10:00:00Z"},
        {"dedupe_id": "plain", "stage": "converted", "user_id": "plain", "value": 2000, "occurred_at": "2026-11-20T11:00:00Z"},
        // A customer from a channel with no spend: CAC 0, ROAS null.
        {"dedupe_id": "m1", "stage": "visit", "user_id": "mail", "attribution": email, "occurred_at": "2026-11-19T09:00:00Z"},
        {"dedupe_id": "m2", "stage": "converted", "user_id": "mail", "value": 3000, "occurred_at": "2026-11-19T10:00:00Z"},
        // A paid click tagged with a campaign no spend row knows.
        {"dedupe_id": "x1", "stage": "visit", "user_id": "meta", "occurred_at": "2026-11-21T08:00:00Z",
         "attribution": {"fbclid": "f", "utm_source": "facebook", "utm_medium": "paid_social", "utm_campaign": "spring"}},
        {"dedupe_id": "x2", "stage": "converted", "name": "pro", "user_id": "meta", "value": 700, "occurred_at": "2026-11-21T09:00:00Z"},
        // u9 pays before any touch is known.
        {"dedupe_id": "pay9", "stage": "payment", "user_id": "u9", "value": 5000, "occurred_at": "2026-11-20T12:00:00Z"},
    ])).await;
    let spend = SpendRow {
        day: "2026-11-20".into(),
        network: "google".into(),
        channel: "paid_google".into(),
        campaign_id: "111".into(),
        campaign_name: Some("g-brand".into()),
        ad_group_id: "1110".into(),
        ad_group_name: Some("brand exact".into()),
        keyword_id: "11101".into(),
        keyword: Some("payback app".into()),
        spend_cents: 4000,
        impressions: 900,
        clicks: 30,
        ..SpendRow::default()
    };
    let mut tx = app.state.store.begin().await.unwrap();
    payback_store::spend::upsert(&mut tx, &id, "test", &[spend], app.clock.now())
        .await
        .unwrap();
    tx.commit().await.unwrap();

    let report = get(&app, &key, "/products/hand/attribution").await;
    assert_eq!(
        channel(&report, UN)["revenue_first_cents"],
        1000 + 2000 + 5000
    );
    assert_eq!(channel(&report, UN)["customers_first"], 2, "plain and u9");
    assert_eq!(channel(&report, UN)["cac_cents"], Value::Null);
    let mail = channel(&report, "email");
    assert_eq!(
        (
            mail["customers_first"].clone(),
            mail["cac_cents"].clone(),
            mail["roas"].clone()
        ),
        (json!(1), json!(0), Value::Null)
    );
    let sales = get(&app, &key, "/products/hand/attribution/sales").await;
    assert_eq!(sale_of(&sales, "u:u9")["first_channel"], UN);
    assert_eq!(sales["sales"][0]["identity"], "u:meta", "newest first");
    let no_identity = sales["sales"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["identity"].is_null())
        .unwrap();
    assert_eq!(
        (
            no_identity["first_channel"].as_str(),
            no_identity["last_channel"].as_str()
        ),
        (Some(UN), Some(UN))
    );

    // An earlier anonymous referral visit, then the link that says it was u9.
    app.send_events(&key, "hand", json!([{"dedupe_id": "r9", "stage": "visit", "anonymous_id": "a9",
        "occurred_at": "2026-11-20T09:00:00Z", "attribution": {"referrer": "https://someblog.dev/post"}}])).await;
    let sales = get(&app, &key, "/products/hand/attribution/sales").await;
    assert_eq!(
        sale_of(&sales, "u:u9")["first_channel"],
        UN,
        "not linked yet"
    );
    app.send_events(
        &key,
        "hand",
        json!([{"dedupe_id": "l9", "stage": "engaged", "anonymous_id": "a9", "user_id": "u9",
        "occurred_at": "2026-11-20T13:00:00Z"}]),
    )
    .await;
    let sales = get(
        &app,
        &key,
        "/products/hand/attribution/sales?channel=referral",
    )
    .await;
    assert_eq!(sales["total"], 1);
    assert_eq!(
        (
            sales["sales"][0]["first_channel"].as_str(),
            sales["sales"][0]["last_channel"].as_str()
        ),
        (Some("referral"), Some("referral"))
    );
    // A late-arriving, even earlier paid click: it becomes the first touch; the last touch
    // before the payment is still the referral.
    app.send_events(&key, "hand", json!([{"dedupe_id": "g9", "stage": "visit", "user_id": "u9", "occurred_at": "2026-11-18T09:00:00Z",
        "attribution": {"gclid": "g", "utm_campaign": "g-brand", "utm_id": "1110"}}])).await;
    let sales = get(
        &app,
        &key,
        "/products/hand/attribution/sales?channel=paid_google",
    )
    .await;
    assert_eq!(sales["total"], 1);
    let u9 = sale_of(&sales, "u:u9");
    assert_eq!(
        (u9["first_channel"].as_str(), u9["last_channel"].as_str()),
        (Some("paid_google"), Some("referral"))
    );

    let report = get(&app, &key, "/products/hand/attribution").await;
    let google = channel(&report, "paid_google");
    assert_eq!(
        google,
        &json!({"channel": "paid_google", "spend_cents": 4000, "revenue_first_cents": 5000,
        "revenue_last_cents": 0, "transactions_first": 1, "customers_first": 1, "cac_cents": 4000, "roas": 1.25})
    );
    assert_eq!(channel(&report, "referral")["revenue_last_cents"], 5000);
    assert_eq!(channel(&report, "referral")["revenue_first_cents"], 0);
    let meta = channel(&report, "paid_meta");
    assert_eq!(
        (meta["cac_cents"].clone(), meta["roas"].clone()),
        (json!(0), Value::Null)
    );
    assert_eq!(channel(&report, UN)["revenue_first_cents"], 3000);
    assert_eq!(
        report["totals"],
        json!({"revenue_cents": 11700, "spend_cents": 4000,
        "attributed_first_cents": 8700, "unattributed_cents": 3000})
    );
    assert_eq!(
        report["coverage"],
        json!({"identities_total": 4, "identities_with_channel": 3, "events_total": 10,
        "events_with_channel": 4, "transactions_total": 5, "transactions_with_identity": 4,
        "email_conflicts": 0})
    );
    let names: Vec<&str> = report["channels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["channel"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["paid_google", "email", UN, "paid_meta", "referral"],
        "by first-touch revenue, then name"
    );

    let ads = get(&app, &key, "/products/hand/attribution/ads").await;
    assert_eq!(
        ad(&ads, "111"),
        &json!({"id": "111", "name": "g-brand", "channel": "paid_google", "spend_cents": 4000,
        "impressions": 900, "clicks": 30, "revenue_cents": 5000, "transactions": 1, "customers": 1, "cac_cents": 4000, "roas": 1.25})
    );
    let spring = ad(&ads, "spring");
    assert_eq!(
        (
            spring["name"].as_str(),
            spring["channel"].as_str(),
            spring["revenue_cents"].as_i64(),
            spring["roas"].clone()
        ),
        (Some("spring"), Some("paid_meta"), Some(700), Value::Null)
    );
    assert_eq!(ad(&ads, UN)["revenue_cents"], 6000);
    assert_eq!(ad(&ads, UN)["customers"], 2);
    assert_eq!(
        ads["totals"],
        json!({"spend_cents": 4000, "revenue_cents": 11700, "attributed_cents": 5700, "unattributed_cents": 6000})
    );
    assert_eq!(
        ads["coverage"],
        json!({"transactions_total": 5, "transactions_with_paid_touch": 2})
    );
    let groups = get(&app, &key, "/products/hand/attribution/ads?level=ad_group").await;
    assert_eq!(
        ad(&groups, "1110")["revenue_cents"],
        5000,
        "utm_id names the ad group"
    );
    assert_eq!(
        ad(&groups, "no_dimension")["revenue_cents"],
        700,
        "the meta click has no utm_id"
    );
    let keywords = get(&app, &key, "/products/hand/attribution/ads?level=keyword").await;
    assert_eq!(
        ad(&keywords, "no_dimension")["revenue_cents"],
        5700,
        "no utm_term on either click"
    );
    assert_eq!(ad(&keywords, "11101")["revenue_cents"], 0);
    assert_eq!(
        ad(&keywords, "11101")["cac_cents"],
        Value::Null,
        "spend but no customers"
    );

    // The primary goal: the active primary conversion's events in the window.
    exec(&app, &format!("INSERT INTO conversions (product_id, key, label, tier, stage, value_mode, score_mode, is_active, \
        created_at, updated_at) VALUES ('{id}', 'purchase', 'Purchase', 'primary', 'converted', 'transaction', 'none', TRUE, 0, 0)")).await;
    let report = get(&app, &key, "/products/hand/attribution").await;
    assert_eq!(
        report["primary_goal"],
        json!({"key": "purchase", "label": "Purchase", "stage": "converted", "count": 3, "value_cents": 5700})
    );
    exec(&app, "UPDATE conversions SET event_name = 'pro'").await;
    let report = get(&app, &key, "/products/hand/attribution?days=1").await;
    assert_eq!(report["primary_goal"]["count"], 1);
    assert_eq!(report["primary_goal"]["value_cents"], 700);
    // The goal is counted exactly as the conversions report counts the same definition.
    let conversions = get(&app, &key, "/products/hand/conversions/report?days=1").await;
    assert_eq!(
        conversions["conversions"][0]["current"],
        json!({"count": 1, "value_cents": 700})
    );
    exec(&app, "UPDATE conversions SET value_mode = 'none'").await;
    let report = get(&app, &key, "/products/hand/attribution?days=1").await;
    assert_eq!(report["primary_goal"]["count"], 1);
    assert_eq!(
        report["primary_goal"]["value_cents"], 0,
        "value_mode none is worth nothing"
    );
    exec(
        &app,
        "UPDATE conversions SET value_mode = 'fixed', fixed_value_cents = 250",
    )
    .await;
    let report = get(&app, &key, "/products/hand/attribution?days=1").await;
    assert_eq!(report["primary_goal"]["value_cents"], 250);
    exec(&app, "UPDATE conversions SET source = 'sql_a'").await;
    let report = get(&app, &key, "/products/hand/attribution?days=1").await;
    assert_eq!(
        report["primary_goal"]["count"], 0,
        "the events came through the API, not the sql_a database"
    );
    exec(&app, "UPDATE conversions SET is_active = FALSE").await;
    assert_eq!(
        get(&app, &key, "/products/hand/attribution").await["primary_goal"],
        Value::Null
    );
}

backend_tests!(honesty_rules_and_late_touches);
