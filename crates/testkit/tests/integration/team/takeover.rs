//! What an invite link cannot do (issue 19): the inviter sees the link, so it grants membership in
//! the inviting account and nothing else. Each test performs an attack over HTTP and checks the
//! refusal, and that the person the email belongs to keeps their sign-up, claim and login.

use super::*;

const VICTIM: &str = "victim@example.com";
const ATTACKER: &str = "attacker@example.com";
const ATTACKER_PASSWORD: &str = "attacker-pass1";
const VICTIM_PASSWORD: &str = "the victim's own passphrase";

/// The raw token of the newest link to this app starting with `{base}{path_prefix}` mailed to
/// `email`.
fn mailed_token(app: &TestApp, email: &str, path_prefix: &str) -> String {
    let prefix = format!("{}{path_prefix}", app.base_url);
    let link = app
        .last_mail_to(email)
        .link_starting_with(&prefix)
        .unwrap_or_else(|| panic!("no {path_prefix} link mailed to {email}"));
    link[prefix.len()..].to_owned()
}

/// Every verification link mailed to `email`, as path-and-query for `app.get`.
fn verify_paths(app: &TestApp, email: &str) -> Vec<String> {
    let prefix = format!("{}/auth/verify?token=", app.base_url);
    app.mails()
        .into_iter()
        .filter(|m| m.to == email)
        .filter_map(|m| m.link_starting_with(&prefix))
        .map(|link| link[app.base_url.len()..].to_owned())
        .collect()
}

async fn signup(app: &TestApp, email: &str, password: &str) {
    app.post(
        "/auth/signup",
        None,
        json!({ "email": email, "password": password }),
    )
    .await
    .expect(200);
}

async fn login_reply(app: &TestApp, email: &str, password: &str) -> Reply {
    app.post(
        "/auth/login",
        None,
        json!({ "email": email, "password": password }),
    )
    .await
}

/// The four steps against an agent-created account whose owner has not claimed it yet:
/// step 3 is refused, so there is no session to take steps 4 with, and the victim's claim works.
async fn invite_link_cannot_take_over_an_unclaimed_account(app: TestApp) {
    // 1. An agent signs the victim up: the account exists, its owner has no password yet.
    let created = app
        .post("/auth/agent-signup", None, json!({ "email": VICTIM }))
        .await
        .expect(200)
        .clone();
    let victim_account = created["account_id"].as_str().unwrap().to_owned();
    let victim_key = created["api_key"].as_str().unwrap().to_owned();
    app.create_product(&victim_key, "crown-jewels").await;

    // 2. The attacker, signed in to an account of their own, invites the victim's email.
    let attacker = app.signup_verified(ATTACKER).await;
    let invitation = invite(&app, &attacker.token, VICTIM, None).await;
    let token = invite_token(&invitation);

    // 3. Accepting with a password of the attacker's choosing is refused, naming the way out.
    let refused = accept_reply(
        &app,
        json!({ "token": token, "password": ATTACKER_PASSWORD }),
    )
    .await;
    refused.expect_error(400, "not claimed yet");
    // Nor does leaving the password out get anywhere.
    accept_reply(&app, json!({ "token": token }))
        .await
        .expect_error(400, "not claimed yet");
    login_reply(&app, VICTIM, ATTACKER_PASSWORD)
        .await
        .expect(401);

    // 4. Nothing to switch with: the victim's account is still theirs, unclaimed and intact.
    let products = app.get("/portfolio", Some(&victim_key)).await;
    assert_eq!(products.expect(200).as_array().unwrap().len(), 1);
    let attacker_accounts = workspace_ids(&app, &attacker.token).await;
    assert_eq!(attacker_accounts, [attacker.account_id.as_str()]);
    app.post(
        "/auth/switch-account",
        Some(&attacker.token),
        json!({ "account_id": victim_account }),
    )
    .await
    .expect(404);

    // The victim's claim link still works, and afterwards they can accept the invite with
    // their own password.
    let claim = claim_token(&created);
    let claimed = app
        .post(
            "/auth/claim",
            None,
            json!({ "token": claim, "password": VICTIM_PASSWORD }),
        )
        .await;
    assert_eq!(
        claimed.expect(200)["account"]["id"],
        victim_account.as_str()
    );
    let accepted = accept_reply(&app, json!({ "token": token, "password": VICTIM_PASSWORD })).await;
    let body = accepted.expect(200);
    assert_eq!(body["account"]["id"], attacker.account_id.as_str());
}

fn claim_token(created: &Value) -> String {
    let url = created["claim_url"].as_str().unwrap();
    let (_, token) = url.rsplit_once("/#/claim/").unwrap();
    token.to_owned()
}

/// An invite to an existing login does not sign the inviter in as that person: it takes the
/// person's own password, as a login would.
async fn invite_link_cannot_sign_in_as_an_existing_login(app: TestApp) {
    let victim = app.signup_verified(VICTIM).await;
    app.create_product(&victim.token, "crown-jewels").await;
    let attacker = app.signup_verified(ATTACKER).await;
    let invitation = invite(&app, &attacker.token, VICTIM, None).await;
    assert_eq!(invitation["already_registered"], true);
    let token = invite_token(&invitation);

    accept_reply(&app, json!({ "token": token }))
        .await
        .expect_error(400, "enter its password");
    accept_reply(
        &app,
        json!({ "token": token, "password": ATTACKER_PASSWORD }),
    )
    .await
    .expect_error(400, "wrong password");
    // The refusals left the victim's password and the invitation as they were.
    login_reply(&app, VICTIM, ATTACKER_PASSWORD)
        .await
        .expect(401);
    assert_eq!(status_of(&app, &attacker, VICTIM).await, "invited");
    app.get("/portfolio", Some(&victim.token)).await.expect(200);

    // The victim, with their own password, joins.
    let accepted = accept_reply(&app, json!({ "token": token, "password": TEST_PASSWORD })).await;
    assert_eq!(
        accepted.expect(200)["account"]["id"],
        attacker.account_id.as_str()
    );
}

/// An invitation nobody accepted does not block the person's own sign-up: it mails a
/// verification link that sets their password and gives them a workspace of their own.
async fn pending_invite_does_not_block_the_invitees_signup(app: TestApp) {
    let attacker = app.signup_verified(ATTACKER).await;
    let invitation = invite(&app, &attacker.token, VICTIM, None).await;

    signup(&app, VICTIM, VICTIM_PASSWORD).await;
    let paths = verify_paths(&app, VICTIM);
    assert_eq!(paths.len(), 1, "the sign-up mails a verification link");
    assert_eq!(app.get(&paths[0], None).await.status, 302);

    let session = login_reply(&app, VICTIM, VICTIM_PASSWORD).await;
    let body = session.expect(200);
    assert_eq!(body["account"]["member_role"], "owner");
    assert_ne!(body["account"]["id"], attacker.account_id.as_str());
    // The invitation is still pending, and now takes the password they chose.
    let accepted = accept_reply(
        &app,
        json!({ "token": invite_token(&invitation), "password": VICTIM_PASSWORD }),
    )
    .await;
    assert_eq!(
        accepted.expect(200)["account"]["id"],
        attacker.account_id.as_str()
    );
}

/// An inviter who accepts their own invitation for a new email gets a session in their own
/// account and nothing else; the person the email belongs to signs up, sets their own password,
/// and the inviter's sessions and password stop working.
async fn inviter_accepting_for_a_new_email_does_not_keep_its_owner_out(app: TestApp) {
    let attacker = app.signup_verified(ATTACKER).await;
    let invitation = invite(&app, &attacker.token, VICTIM, None).await;
    let accepted = accept_reply(
        &app,
        json!({ "token": invite_token(&invitation), "password": ATTACKER_PASSWORD }),
    )
    .await;
    let body = accepted.expect(200).clone();
    let hijacked = body["token"].as_str().unwrap().to_owned();
    assert_eq!(
        body["accounts"],
        json!([{ "id": attacker.account_id, "name": "attacker", "role": "customer", "member_role": "member" }])
    );

    // The owner of the mailbox signs up: the answer is the usual one and a link is mailed.
    signup(&app, VICTIM, VICTIM_PASSWORD).await;
    let paths = verify_paths(&app, VICTIM);
    assert_eq!(paths.len(), 1);
    assert_eq!(app.get(&paths[0], None).await.status, 302);

    // Their password works; the inviter's password and session do not.
    let own = login_reply(&app, VICTIM, VICTIM_PASSWORD).await;
    assert_eq!(own.expect(200)["account"]["email"], VICTIM);
    login_reply(&app, VICTIM, ATTACKER_PASSWORD)
        .await
        .expect(401);
    app.get("/auth/me", Some(&hijacked)).await.expect(401);
}

/// Someone who signs up with another person's email first cannot choose their password: the
/// owner's own sign-up mails a link that sets the password they chose, and once one link is
/// opened, every other outstanding one stops working.
async fn earlier_signup_by_a_stranger_does_not_set_the_password(app: TestApp) {
    signup(&app, VICTIM, ATTACKER_PASSWORD).await;
    let strangers = verify_paths(&app, VICTIM);
    assert_eq!(strangers.len(), 1);
    signup(&app, VICTIM, VICTIM_PASSWORD).await;
    let own: Vec<_> = verify_paths(&app, VICTIM)
        .into_iter()
        .filter(|path| !strangers.contains(path))
        .collect();
    assert_eq!(own.len(), 1, "the second sign-up mails its own link");

    assert_eq!(app.get(&own[0], None).await.status, 302);
    login_reply(&app, VICTIM, VICTIM_PASSWORD).await.expect(200);
    login_reply(&app, VICTIM, ATTACKER_PASSWORD)
        .await
        .expect(401);
    app.get(&strangers[0], None)
        .await
        .expect_error(400, "invalid or expired");
    login_reply(&app, VICTIM, VICTIM_PASSWORD).await.expect(200);
}

/// The owner of an agent-created account who never got the claim mail signs up with the same
/// email: the verification link sets their password in the account the agent made.
async fn signup_claims_an_unclaimed_account_through_the_mailbox(app: TestApp) {
    let created = app
        .post("/auth/agent-signup", None, json!({ "email": VICTIM }))
        .await
        .expect(200)
        .clone();
    signup(&app, VICTIM, VICTIM_PASSWORD).await;
    let token = mailed_token(&app, VICTIM, "/auth/verify?token=");
    assert_eq!(
        app.get(&format!("/auth/verify?token={token}"), None)
            .await
            .status,
        302
    );
    let session = login_reply(&app, VICTIM, VICTIM_PASSWORD).await;
    assert_eq!(session.expect(200)["account"]["id"], created["account_id"]);
    // One workspace: the sign-up did not make a second one for an owner who had one.
    assert_eq!(
        session.body["accounts"].as_array().unwrap().len(),
        1,
        "{}",
        session.text
    );
    // Claimed now: the claim link answers 409.
    app.post(
        "/auth/claim",
        None,
        json!({ "token": claim_token(&created), "password": ATTACKER_PASSWORD }),
    )
    .await
    .expect(409);
}

backend_tests!(
    invite_link_cannot_take_over_an_unclaimed_account,
    invite_link_cannot_sign_in_as_an_existing_login,
    pending_invite_does_not_block_the_invitees_signup,
    inviter_accepting_for_a_new_email_does_not_keep_its_owner_out,
    earlier_signup_by_a_stranger_does_not_set_the_password,
    signup_claims_an_unclaimed_account_through_the_mailbox,
);
