//! Revenue joins people by email, hand-built: a charge that names only an email counts for
//! whoever holds the email, whether it arrives before or after they do; a visitor without an
//! account can hold one; conflicting claims keep the first user and are counted; an email nobody
//! holds is an identity of its own, with no channel. Each step is its own fold (every read settles
//! the inbox first), so merges of rows stored by earlier folds are what is checked; the events
//! export shows each raw event resolved to the identity it counts under now.

use std::collections::BTreeMap;

use super::*;

async fn send(app: &TestApp, key: &str, events: Value) {
    app.post(
        "/products/mail/events",
        Some(key),
        json!({ "events": events }),
    )
    .await
    .expect(200);
    // Read back at once: the batch is folded on its own, before the next one arrives. Each
    // fold (a merge, a claim, a charge joining its holder) keeps the daily report tables exact.
    app.assert_report_days_exact().await;
}

fn channel<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["channels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["channel"] == name)
        .unwrap_or_else(|| panic!("no {name} row in {report}"))
}

/// The sales list as dedupe id -> (identity, first channel, last channel), through the events
/// export (dedupe id -> event id is not in the sales list).
async fn sales_by_amount(app: &TestApp, key: &str) -> Vec<(i64, Value, Value, Value)> {
    let sales = get(app, key, "/products/mail/attribution/sales?limit=100").await;
    let mut rows: Vec<(i64, Value, Value, Value)> = sales["sales"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["amount_cents"].as_i64().unwrap(),
                s["identity"].clone(),
                s["first_channel"].clone(),
                s["last_channel"].clone(),
            )
        })
        .collect();
    rows.sort_by_key(|row| row.0);
    rows
}

/// Dedupe id -> the identity the events export says the event counts under now.
async fn exported_identities(app: &TestApp, key: &str) -> BTreeMap<String, String> {
    let reply = app.get("/products/mail/export/events.csv", Some(key)).await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    let mut reader = csv::Reader::from_reader(reply.text.as_bytes());
    let header = reader.headers().unwrap().clone();
    let at = |name: &str| header.iter().position(|h| h == name).unwrap();
    let (dedupe, identity) = (at("dedupe_id"), at("identity"));
    reader
        .records()
        .map(|record| {
            let record = record.unwrap();
            (record[dedupe].to_owned(), record[identity].to_owned())
        })
        .collect()
}

/// Profiles (identity -> revenue) and the identities holding rows in each maintained table.
async fn maintained(app: &TestApp, table: &str) -> Vec<String> {
    let rows: Vec<(String,)> = app
        .sql_rows(
            &format!(
                "SELECT DISTINCT identity FROM {table} WHERE identity IS NOT NULL ORDER BY identity"
            ),
            &[],
        )
        .await;
    rows.into_iter().map(|(identity,)| identity).collect()
}

async fn charges_join_whoever_holds_the_email(app: TestApp) {
    let key = setup(&app, "founder@example.com").await;
    app.create_product(&key, "mail").await;
    let paid_search = json!({"gclid": "g1", "utm_source": "google", "utm_medium": "cpc"});
    let meta = json!({"fbclid": "f1", "utm_source": "facebook", "utm_medium": "paid_social"});
    let referral = json!({"referrer": "https://someblog.dev/post"});

    // 1. Jane's first charge arrives before anyone knows her email: an identity of its own.
    send(
        &app,
        &key,
        json!([
            {"dedupe_id": "jane-c1", "stage": "payment", "email": "Jane@Example.com", "value": 5000,
             "occurred_at": "2026-11-18T12:00:00Z"},
        ]),
    )
    .await;
    assert_eq!(
        sales_by_amount(&app, &key).await,
        vec![(5000, json!("e:jane@example.com"), json!(UN), json!(UN))]
    );
    let report = get(&app, &key, "/products/mail/attribution").await;
    assert_eq!(channel(&report, UN)["customers_first"], 1);
    assert_eq!(report["coverage"]["transactions_with_identity"], 1);

    // 2. Her paid-search visit and `svc.identify("jane", {email})`, then a second charge.
    send(&app, &key, json!([
        {"dedupe_id": "jane-v", "stage": "visit", "anonymous_id": "a-jane", "attribution": paid_search,
         "occurred_at": "2026-11-18T09:00:00Z"},
        {"dedupe_id": "jane-id", "stage": "engaged", "name": "identify", "anonymous_id": "a-jane",
         "user_id": "jane", "email": "jane@example.com", "occurred_at": "2026-11-18T10:00:00Z"},
    ])).await;
    send(
        &app,
        &key,
        json!([
            {"dedupe_id": "jane-c2", "stage": "payment", "email": "jane@example.com", "value": 3000,
             "occurred_at": "2026-11-19T12:00:00Z"},
        ]),
    )
    .await;
    assert_eq!(
        sales_by_amount(&app, &key).await,
        vec![
            (
                3000,
                json!("u:jane"),
                json!("paid_google"),
                json!("paid_google")
            ),
            (
                5000,
                json!("u:jane"),
                json!("paid_google"),
                json!("paid_google")
            ),
        ]
    );
    let report = get(&app, &key, "/products/mail/attribution").await;
    let google = channel(&report, "paid_google");
    assert_eq!(
        (
            google["revenue_first_cents"].clone(),
            google["customers_first"].clone()
        ),
        (json!(8000), json!(1))
    );
    assert_eq!(channel(&report, UN)["customers_first"], 0);
    // Her lifetime value is one profile's: the email-only identity is gone from every table.
    let revenue: i64 = app
        .sql_value(
            "SELECT revenue_cents FROM identity_profiles WHERE identity = 'u:jane'",
            &[],
        )
        .await;
    assert_eq!(revenue, 8000);
    for table in [
        "identity_profiles",
        "transactions",
        "stage_identity_days",
        "identity_touches",
    ] {
        let identities = maintained(&app, table).await;
        assert!(
            !identities.iter().any(|id| id.starts_with("e:")),
            "{table}: {identities:?}"
        );
    }

    // 3. A visitor leaves an email on a lead form and pays by email without an account: the
    //    charge is theirs. A charge by an email nobody holds, twice: one customer, unattributed.
    send(&app, &key, json!([
        {"dedupe_id": "vic-v", "stage": "visit", "anonymous_id": "a-vic", "attribution": meta,
         "occurred_at": "2026-11-17T09:00:00Z"},
        {"dedupe_id": "vic-l", "stage": "lead", "anonymous_id": "a-vic", "email": "vic@example.com",
         "occurred_at": "2026-11-17T09:05:00Z"},
        {"dedupe_id": "nobody-1", "stage": "payment", "email": "nobody@example.com", "value": 700,
         "occurred_at": "2026-11-17T10:00:00Z"},
    ])).await;
    send(&app, &key, json!([
        {"dedupe_id": "vic-c", "stage": "payment", "email": "vic@example.com", "value": 1900,
         "occurred_at": "2026-11-17T11:00:00Z"},
        {"dedupe_id": "nobody-2", "stage": "payment", "email": "NOBODY@example.com", "value": 800,
         "occurred_at": "2026-11-18T10:00:00Z"},
    ])).await;
    let sales = sales_by_amount(&app, &key).await;
    assert_eq!(
        sales[..3],
        [
            (700, json!("e:nobody@example.com"), json!(UN), json!(UN)),
            (800, json!("e:nobody@example.com"), json!(UN), json!(UN)),
            (
                1900,
                json!("a:a-vic"),
                json!("paid_meta"),
                json!("paid_meta")
            ),
        ]
    );
    let report = get(&app, &key, "/products/mail/attribution").await;
    assert_eq!(channel(&report, UN)["customers_first"], 1, "nobody@, once");
    assert_eq!(channel(&report, UN)["revenue_first_cents"], 1500);
    assert_eq!(channel(&report, "paid_meta")["customers_first"], 1);

    // 4. A charge stored under an email nobody held, claimed by a visitor, whose device is then
    //    linked to a user: the raw event resolves through both (e: -> a: -> u:).
    send(
        &app,
        &key,
        json!([
            {"dedupe_id": "will-c", "stage": "payment", "email": "will@example.com", "value": 4900,
             "occurred_at": "2026-11-19T15:00:00Z"},
        ]),
    )
    .await;
    send(&app, &key, json!([
        {"dedupe_id": "will-v", "stage": "visit", "anonymous_id": "a-will", "attribution": referral,
         "occurred_at": "2026-11-19T09:00:00Z"},
        {"dedupe_id": "will-l", "stage": "lead", "anonymous_id": "a-will", "email": "will@example.com",
         "occurred_at": "2026-11-19T09:30:00Z"},
    ])).await;
    assert!(sales_by_amount(&app, &key).await.contains(&(
        4900,
        json!("a:a-will"),
        json!("referral"),
        json!("referral")
    )));
    send(
        &app,
        &key,
        json!([
            {"dedupe_id": "will-s", "stage": "signup", "anonymous_id": "a-will", "user_id": "will",
             "occurred_at": "2026-11-19T16:00:00Z"},
        ]),
    )
    .await;
    assert!(sales_by_amount(&app, &key).await.contains(&(
        4900,
        json!("u:will"),
        json!("referral"),
        json!("referral")
    )));

    // 5. Sam identifies on his laptop, then leaves his email on his phone after a Meta ad: the
    //    phone is linked to him, and his charge's last touch is the phone's.
    send(&app, &key, json!([
        {"dedupe_id": "sam-v1", "stage": "visit", "anonymous_id": "a-sam-1", "attribution": referral,
         "occurred_at": "2026-11-15T09:00:00Z"},
        {"dedupe_id": "sam-id", "stage": "signup", "anonymous_id": "a-sam-1", "user_id": "sam",
         "email": "sam@example.com", "occurred_at": "2026-11-15T09:10:00Z"},
    ])).await;
    send(&app, &key, json!([
        {"dedupe_id": "sam-v2", "stage": "visit", "anonymous_id": "a-sam-2",
         "attribution": {"fbclid": "f2", "utm_source": "facebook", "utm_medium": "paid_social"},
         "occurred_at": "2026-11-16T09:00:00Z"},
        {"dedupe_id": "sam-l", "stage": "lead", "anonymous_id": "a-sam-2", "email": "sam@example.com",
         "occurred_at": "2026-11-16T09:05:00Z"},
        {"dedupe_id": "sam-c", "stage": "payment", "email": "sam@example.com", "value": 9900,
         "occurred_at": "2026-11-16T10:00:00Z"},
    ])).await;
    assert!(sales_by_amount(&app, &key).await.contains(&(
        9900,
        json!("u:sam"),
        json!("referral"),
        json!("paid_meta")
    )));
    let linked: String = app
        .sql_value(
            "SELECT user_id FROM identity_links WHERE anonymous_id = 'a-sam-2'",
            &[],
        )
        .await;
    assert_eq!(linked, "sam");

    // 6. Conflicts: an email two users name (in two folds, and in one) stays with the first;
    //    the report counts both emails.
    send(&app, &key, json!([
        {"dedupe_id": "ann-1", "stage": "signup", "user_id": "ann", "email": "shared@example.com",
         "attribution": paid_search, "occurred_at": "2026-11-14T09:00:00Z"},
    ])).await;
    send(&app, &key, json!([
        {"dedupe_id": "bob-1", "stage": "signup", "user_id": "bob", "email": "shared@example.com",
         "attribution": referral, "occurred_at": "2026-11-14T10:00:00Z"},
        {"dedupe_id": "shared-c", "stage": "payment", "email": "shared@example.com", "value": 2500,
         "occurred_at": "2026-11-14T11:00:00Z"},
        {"dedupe_id": "cy-1", "stage": "signup", "user_id": "cy", "email": "family@example.com",
         "occurred_at": "2026-11-14T09:00:00Z"},
        {"dedupe_id": "di-1", "stage": "signup", "user_id": "di", "email": "family@example.com",
         "occurred_at": "2026-11-14T08:00:00Z"},
    ])).await;
    assert!(sales_by_amount(&app, &key).await.contains(&(
        2500,
        json!("u:ann"),
        json!("paid_google"),
        json!("paid_google")
    )));
    let report = get(&app, &key, "/products/mail/attribution").await;
    assert_eq!(report["coverage"]["email_conflicts"], 2);
    // Bob's own events stay his; a later conflicting claim moves nothing either.
    send(&app, &key, json!([
        {"dedupe_id": "bob-2", "stage": "engaged", "user_id": "bob", "email": "shared@example.com",
         "occurred_at": "2026-11-20T10:00:00Z"},
    ])).await;
    let report = get(&app, &key, "/products/mail/attribution").await;
    assert_eq!(report["coverage"]["email_conflicts"], 2);
    let conflicts: Vec<(String, i64)> = app
        .sql_rows(
            "SELECT email, conflict_at FROM email_identities WHERE conflict_at IS NOT NULL ORDER BY email",
            &[],
        )
        .await;
    let at = |text: &str| {
        payback_domain::Timestamp::parse_rfc3339(text)
            .unwrap()
            .millis()
    };
    assert_eq!(
        conflicts,
        vec![
            ("family@example.com".to_owned(), at("2026-11-14T08:00:00Z")),
            ("shared@example.com".to_owned(), at("2026-11-20T10:00:00Z")),
        ]
    );

    // Every raw event counts under the identity it resolves to now.
    let exported = exported_identities(&app, &key).await;
    let expect = [
        ("jane-c1", "u:jane"),
        ("jane-c2", "u:jane"),
        ("vic-c", "a:a-vic"),
        ("nobody-1", "e:nobody@example.com"),
        ("nobody-2", "e:nobody@example.com"),
        ("will-c", "u:will"),
        ("will-l", "u:will"),
        ("sam-l", "u:sam"),
        ("sam-c", "u:sam"),
        ("shared-c", "u:ann"),
        ("bob-1", "u:bob"),
        ("di-1", "u:di"),
    ];
    for (dedupe_id, identity) in expect {
        assert_eq!(exported[dedupe_id], identity, "{dedupe_id}");
    }
}

backend_tests!(charges_join_whoever_holds_the_email);
