//! States and tickets: single use, expiry, `complete`'s 400s and its per-address rate limit.

use super::*;

use payback_domain::MINUTE_MS;

/// The first callback naming a state consumes it whatever the outcome: a replay is 400 and
/// exchanges no code; an unknown, missing or expired state is 400 and exchanges none either.
async fn states_are_single_use_and_expire(backend: Backend) {
    let sso = sso_app(backend).await;
    let authorization_url = start(&sso.app).await;
    let back = sso.provider.authorize(&authorization_url).await;
    let first = get_absolute(&sso.app, &back).await;
    ticket_of(&sso.app, &first);
    let replay = get_absolute(&sso.app, &back).await;
    replay.expect_error(400, "state");
    assert_eq!(sso.provider.requests_to("/token").len(), 1, "one exchange");

    // No code with a valid state: refused, and the state is used up.
    let authorization_url = start(&sso.app).await;
    let back = sso.provider.authorize(&authorization_url).await;
    let pairs = query_of(&back);
    let state = param(&pairs, "state").unwrap();
    let code = param(&pairs, "code").unwrap();
    sso.app
        .get(&format!("/auth/sso/callback?state={state}"), None)
        .await
        .expect_error(400, "code");
    sso.app
        .get(
            &format!("/auth/sso/callback?state={state}&code={code}"),
            None,
        )
        .await
        .expect_error(400, "state");

    // Unknown and missing states.
    sso.app
        .get(
            &format!("/auth/sso/callback?state=nobody-made-this-one&code={code}"),
            None,
        )
        .await
        .expect_error(400, "state");
    sso.app
        .get(&format!("/auth/sso/callback?code={code}"), None)
        .await
        .expect_error(400, "state");

    // A state is good for 10 minutes.
    let authorization_url = start(&sso.app).await;
    let back = sso.provider.authorize(&authorization_url).await;
    sso.app.clock.advance(10 * MINUTE_MS + 1_000);
    get_absolute(&sso.app, &back)
        .await
        .expect_error(400, "state");
    assert_eq!(
        sso.provider.requests_to("/token").len(),
        1,
        "no code is exchanged without a valid state"
    );
    assert_eq!(count(&sso.app, "users").await, 1);
}

/// A ticket signs in once, within 2 minutes; `complete` names `token` in its 400s.
async fn tickets_are_single_use_and_expire(backend: Backend) {
    let sso = sso_app(backend).await;
    let ticket = ticket_of(&sso.app, &through_callback(&sso).await);
    complete(&sso.app, &ticket).await.expect(200);
    complete(&sso.app, &ticket).await.expect_error(400, "token");
    assert_eq!(count(&sso.app, "sessions").await, 1);

    let late = ticket_of(&sso.app, &through_callback(&sso).await);
    sso.app.clock.advance(2 * MINUTE_MS + 1_000);
    complete(&sso.app, &late).await.expect_error(400, "token");

    let in_time = ticket_of(&sso.app, &through_callback(&sso).await);
    sso.app.clock.advance(2 * MINUTE_MS - 1_000);
    assert_eq!(
        complete(&sso.app, &in_time).await.expect(200)["is_new"],
        false
    );

    complete(&sso.app, "svc_sess_not-a-ticket")
        .await
        .expect_error(400, "token");
    for body in [json!({}), json!({ "token": 42 }), json!({ "token": null })] {
        sso.app
            .post("/auth/sso/complete", None, body.clone())
            .await
            .expect_error(400, "token");
    }
    assert_eq!(count(&sso.app, "sessions").await, 2);
}

/// `complete` shares the per-address budget of sign-up and login: the fourth call of a minute
/// at 3 per minute is 429 with `Retry-After`.
async fn complete_is_rate_limited_per_address(backend: Backend) {
    let sso = sso_app_with(backend, |config| config.rate_limit_per_minute = 3).await;
    let ticket = ticket_of(&sso.app, &through_callback(&sso).await);
    for _ in 0..3 {
        complete(&sso.app, "not-a-ticket")
            .await
            .expect_error(400, "token");
    }
    let limited = complete(&sso.app, &ticket).await;
    limited.expect_retry_after(20);
    assert_eq!(count(&sso.app, "sessions").await, 0);
    // Start and the callback are not limited.
    start(&sso.app).await;
}

payback_testkit::per_backend!(
    states_are_single_use_and_expire,
    tickets_are_single_use_and_expire,
    complete_is_rate_limited_per_address,
);
