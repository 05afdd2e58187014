//! A member's API keys answer to them: keys they mint (through a session, or through a key of
//! theirs) list them as creator, stop the moment their membership is disabled, and are revoked
//! for good by the disable (issue 19).

use super::*;

/// Mints a key named `name` through `token`; answers the full key.
async fn mint(app: &TestApp, token: &str, name: &str) -> String {
    app.post("/auth/keys", Some(token), json!({ "name": name }))
        .await
        .expect(200)["key"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[track_caller]
fn assert_refused(reply: &Reply) {
    reply.expect_error(401, "invalid or revoked API key");
}

async fn disabling_a_member_stops_their_keys_at_once(app: TestApp) {
    let owner = app.signup_verified(OWNER).await;
    let owner_key = mint(&app, &owner.token, "owner's").await;
    let member = add_member(&app, &owner, "member@example.com", None).await;
    // K1 through the member's session; K2 through K1: a chain of keys the member is behind.
    let k1 = mint(&app, &member.token, "k1").await;
    let k2 = mint(&app, &k1, "k2").await;
    let by_member = json!({ "id": member.user_id, "email": "member@example.com" });
    let by_owner = json!({ "id": owner.user_id, "email": OWNER });
    let listed = vec![
        ("owner's".to_owned(), by_owner.clone()),
        ("k1".to_owned(), by_member.clone()),
        ("k2".to_owned(), by_member.clone()),
    ];
    assert_eq!(app.key_creators(&owner.token).await, listed);
    assert_eq!(app.key_creators(&k2).await, listed);

    team_post(&app, &owner.token, &member.user_id, "disable")
        .await
        .expect(200);

    // Both keys answer 401 at once, on every route.
    for key in [&k1, &k2] {
        assert_refused(&app.get("/auth/me", Some(key)).await);
        assert_refused(&app.get("/portfolio", Some(key)).await);
        assert_refused(
            &app.post("/auth/keys", Some(key), json!({ "name": "more" }))
                .await,
        );
    }
    // The owner and the owner's key are untouched.
    app.get("/auth/me", Some(&owner_key)).await.expect(200);
    app.get("/auth/keys", Some(&owner.token)).await.expect(200);
}

/// The refusal is about the membership in the key's account: the same person's keys in a
/// workspace of their own keep working.
async fn a_disabled_membership_stops_only_that_accounts_keys(app: TestApp) {
    let owner = app.signup_verified(OWNER).await;
    let person = app.signup_verified("person@example.com").await;
    let own_key = mint(&app, &person.token, "own workspace").await;
    app.clock.advance(MINUTE_MS);
    let invitation = invite(&app, &owner.token, "person@example.com", None).await;
    let accepted = accept_reply(
        &app,
        json!({ "token": invite_token(&invitation), "password": TEST_PASSWORD }),
    )
    .await;
    let in_owner = accepted.expect(200)["token"].as_str().unwrap().to_owned();
    let owner_account_key = mint(&app, &in_owner, "in owner's").await;

    team_post(&app, &owner.token, &person.user_id, "disable")
        .await
        .expect(200);

    assert_refused(&app.get("/auth/me", Some(&owner_account_key)).await);
    let me = app.get("/auth/me", Some(&own_key)).await;
    assert_eq!(me.expect(200)["id"], person.account_id.as_str());
}

/// Re-enabling the member: keys that were revoked stay revoked.
async fn revoked_keys_stay_revoked_after_enable(app: TestApp) {
    let owner = app.signup_verified(OWNER).await;
    let owner_key = mint(&app, &owner.token, "owner's").await;
    let member = add_member(&app, &owner, "member@example.com", None).await;
    let k1 = mint(&app, &member.token, "k1").await;
    let k2 = mint(&app, &k1, "k2").await;

    // Disabling revokes the keys the member created in this account, in the same transaction,
    // and says how many in history.
    team_post(&app, &owner.token, &member.user_id, "disable")
        .await
        .expect(200);
    let disabled = app
        .history_where(&owner.token, |e| e["action"] == "team.disable")
        .await;
    assert_eq!(disabled.len(), 1, "{disabled:?}");
    assert_eq!(disabled[0]["payload"]["keys_revoked"], 2, "K1 and K2 only");

    // Enabling the member again does not bring a revoked key back.
    team_post(&app, &owner.token, &member.user_id, "enable")
        .await
        .expect(200);
    for key in [&k1, &k2] {
        assert_refused(&app.get("/auth/me", Some(key)).await);
    }
    assert_eq!(
        app.key_creators(&owner.token).await,
        vec![(
            "owner's".to_owned(),
            json!({ "id": owner.user_id, "email": OWNER })
        )]
    );
    app.get("/auth/me", Some(&owner_key)).await.expect(200);
    // The member, signed in again, mints keys that work.
    let again = app.login("member@example.com").await;
    let k3 = mint(&app, &again.token, "k3").await;
    app.get("/auth/me", Some(&k3)).await.expect(200);
}

backend_tests!(
    disabling_a_member_stops_their_keys_at_once,
    a_disabled_membership_stops_only_that_accounts_keys,
    revoked_keys_stay_revoked_after_enable,
);
