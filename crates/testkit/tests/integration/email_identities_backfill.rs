//! Migration 0014 gives the emails users named before it to the first of those users (with the
//! latest conflicting claim), so a charge that names only such an email after the upgrade joins
//! that user; emails only visitors named are left to the next event naming them. Both backends.

use payback_domain::Timestamp;
use payback_testkit::{TEST_START, TestApp, backend_tests, event_record};

const NAMESPACE: &str = "api:shop";

/// Forgets migration 0014, so the next `migrate` applies it to what the test stores meanwhile.
async fn rewind_migration_0014(app: &TestApp) {
    for statement in [
        "DROP TABLE email_identities",
        "DELETE FROM _sqlx_migrations WHERE version = 14",
    ] {
        app.sql_execute(statement, &[]).await;
    }
}

/// An event as the store kept it before 0014 (a raw row, in arrival order): its user or
/// anonymous id, and the email it named.
async fn store_old_event(
    app: &TestApp,
    product_id: &str,
    dedupe_id: &str,
    (user, anonymous): (&str, &str),
    email: &str,
    occurred_at: i64,
) {
    app.sql_execute(
        "INSERT INTO events (product_id, namespace, dedupe_id, stage, occurred_at, day, identity, \
         user_id, anonymous_id, email, received_at) \
         VALUES ($1, $2, $3, 'signup', $4, '2026-01-01', \
         CASE WHEN $5 <> '' THEN 'u:' || $5 ELSE 'a:' || $6 END, NULLIF($5, ''), NULLIF($6, ''), $7, 0)",
        &[
            product_id.into(),
            NAMESPACE.into(),
            dedupe_id.into(),
            occurred_at.into(),
            user.into(),
            anonymous.into(),
            email.into(),
        ],
    )
    .await;
}

async fn migration_0014_gives_stored_emails_to_their_first_user(app: TestApp) {
    let product_id = app.founder_product_id("shop").await;
    rewind_migration_0014(&app).await;
    let start = TEST_START.millis();
    let product = product_id.as_str();
    // In arrival order (dedupe id, user, anonymous id, email, occurred): Ada names her email
    // first; Bob names it later, twice (a conflict: the latest counts). Cy names his twice (no
    // conflict). A visitor's email is not taken over.
    let old_events = [
        ("e1", "ada", "", "ada@example.com", start + 5),
        ("e2", "bob", "", "ada@example.com", start + 1),
        ("e3", "bob", "", "ada@example.com", start + 3),
        ("e4", "cy", "", "cy@example.com", start),
        ("e5", "cy", "", "cy@example.com", start + 2),
        ("e6", "", "visitor", "vee@example.com", start),
    ];
    for (dedupe_id, user, anonymous, email, at) in old_events {
        store_old_event(&app, product, dedupe_id, (user, anonymous), email, at).await;
    }

    app.state.store.migrate().await.unwrap();

    let holders: Vec<(String, String, Option<i64>)> = app
        .sql_rows(
            "SELECT email, identity, conflict_at FROM email_identities WHERE product_id = $1 ORDER BY email",
            &[product.into()],
        )
        .await;
    assert_eq!(
        holders,
        [
            (
                "ada@example.com".to_owned(),
                "u:ada".to_owned(),
                Some(start + 3)
            ),
            ("cy@example.com".to_owned(), "u:cy".to_owned(), None),
        ]
    );

    // Charges after the upgrade that name only an email: Ada's joins her; the visitor's email
    // is nobody's yet, so its charge is an identity of its own.
    let charge = |dedupe_id: &str, email: &str| {
        let mut charge = event_record(
            NAMESPACE,
            dedupe_id,
            "payment",
            Timestamp::from_millis(start + 10),
        );
        charge.email = Some(email.to_owned());
        charge.value_cents = Some(4_900);
        charge.currency = Some("USD".to_owned());
        charge.is_revenue = true;
        charge
    };
    app.write_batch(
        product,
        &[
            charge("pay-1", "ada@example.com"),
            charge("pay-2", "vee@example.com"),
        ],
        Timestamp::from_millis(start + 20),
    )
    .await;
    let revenue: Vec<(String,)> = app
        .sql_rows(
            "SELECT t.identity FROM transactions t JOIN events e ON e.id = t.event_id \
             WHERE t.product_id = $1 ORDER BY e.dedupe_id",
            &[product.into()],
        )
        .await;
    let identities: Vec<&str> = revenue.iter().map(|(id,)| id.as_str()).collect();
    assert_eq!(identities, ["u:ada", "e:vee@example.com"]);
}

backend_tests!(migration_0014_gives_stored_emails_to_their_first_user);
