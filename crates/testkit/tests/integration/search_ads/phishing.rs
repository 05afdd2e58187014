//! The grants can't be phished (issue 35): `auth_url` is Payback's confirmation page, which names
//! the workspace, the product, who started the flow and what it reads or changes; only its form
//! sends the person on to Google, and the callback takes the state only from the browser that
//! confirmed it. Each attack runs over HTTP and fails before the fix (`auth_url` was Google's
//! consent URL, and the callback took any state it knew).

use payback_testkit::grant_page::GrantPage;
use payback_testkit::{Backend, Bind, FakeGoogle, TestApp, per_backend};
use serde_json::{Value, json};

use super::*;

/// The token requests that exchanged an authorization code.
fn code_exchanges(google: &FakeGoogle) -> usize {
    google
        .requests_to("/token")
        .iter()
        .filter(|request| {
            request
                .form()
                .iter()
                .any(|(key, value)| key == "grant_type" && value == "authorization_code")
        })
        .count()
}

async fn grant_status(app: &TestApp, token: &str, state: &str) -> Value {
    app.get(
        &format!("/connect/searchco/status?state={state}"),
        Some(token),
    )
    .await
    .expect(200)
    .clone()
}

async fn credentials(app: &TestApp) -> i64 {
    app.sql_value("SELECT COUNT(*) FROM credentials", &[]).await
}

fn header<'a>(page: &'a GrantPage, name: &str) -> &'a str {
    page.headers
        .get(name)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default()
}

/// An attacker's workspace starts a grant and sends the victim the provider's link, either one
/// that never went through Payback's page or one the attacker confirmed in their own browser.
/// The victim consents at Google; the callback refuses both in their browser: 400, nothing
/// exchanged or sealed, the attacker's flow still pending.
async fn a_provider_link_sent_to_someone_else_seals_nothing(backend: Backend) {
    let google = FakeGoogle::spawn().await;
    seed(&google);
    let app = spawn(backend, &google).await;
    let (_attacker, attacker_key) = founder(&app).await;

    // 1. The provider link without Payback's page: Google's URL with the attacker's state.
    let started = start_grant(&app, &attacker_key, "api").await;
    let state = started["state"].as_str().unwrap().to_owned();
    let provider_url: String = app
        .sql_value(
            "SELECT provider_url FROM grant_states WHERE state = $1",
            &[Bind::Text(&state)],
        )
        .await;
    let back = google.authorize(&provider_url).await;
    let refused = app.follow_callback(&back).await;
    assert_eq!(refused.status().as_u16(), 400);
    let text = refused.text().await.unwrap();
    assert!(
        text.contains("This Google grant was not confirmed on Payback&#x27;s page in this browser")
            || text
                .contains("This Google grant was not confirmed on Payback's page in this browser"),
        "{text}"
    );
    assert_eq!(code_exchanges(&google), 0);
    assert_eq!(credentials(&app).await, 0);
    let status = grant_status(&app, &attacker_key, &state).await;
    assert_eq!(status["status"], "pending", "{status}");

    // 2. The attacker confirms on the page in their own browser and sends Google's URL on.
    let page = app.grant_page(started["auth_url"].as_str().unwrap()).await;
    assert_eq!(page.status, 200);
    let confirmed = app
        .submit_grant_page(&page.form_action().unwrap(), &state, &[])
        .await;
    assert_eq!(confirmed.status, 303, "{}", confirmed.body);
    let sent_on = confirmed.location.unwrap();
    assert_eq!(sent_on, provider_url);
    let back = google.authorize(&sent_on).await;
    // The victim's browser has no cookie of the attacker's confirmation.
    let refused = app.client.get(&back).send().await.unwrap();
    assert_eq!(refused.status().as_u16(), 400);
    assert!(
        refused
            .text()
            .await
            .unwrap()
            .contains("was not confirmed on Payback")
    );
    // Nor does a forged cookie of the right name help.
    let forged = app
        .client
        .get(&back)
        .header("cookie", format!("payback_grant_{state}=gb_forged"))
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status().as_u16(), 400);
    assert_eq!(code_exchanges(&google), 0);
    assert_eq!(credentials(&app).await, 0);
    let status = grant_status(&app, &attacker_key, &state).await;
    assert_eq!(status["status"], "pending", "{status}");
    assert!(status.get("options").is_none(), "{status}");
    let selected = app
        .post(
            "/connect/searchco/select",
            Some(&attacker_key),
            json!({ "state": state, "ads_customer_id": "1234567890" }),
        )
        .await;
    selected.expect_error(
        409,
        "the human has not completed consent yet; poll status until it is complete",
    );
}

/// A grant an agent started with an API key: the page names the workspace, the product, the
/// key and its creator, and what Google Ads access reads and changes, with the page's headers;
/// its form redirects (303) to Google with the same state, the PKCE challenge, the scopes and
/// the redirect URI; the callback in the confirming browser completes it and `select` connects.
async fn an_agent_started_grant_completes_once_the_person_confirms(backend: Backend) {
    let google = FakeGoogle::spawn().await;
    seed(&google);
    let app = spawn(backend, &google).await;
    let (owner, _) = founder(&app).await;
    let key = app
        .post(
            "/auth/keys",
            Some(&owner.token),
            json!({ "name": "Coding agent" }),
        )
        .await
        .expect(200)["key"]
        .as_str()
        .unwrap()
        .to_owned();
    let workspace = app.get("/auth/me", Some(&owner.token)).await.expect(200)["account_name"]
        .as_str()
        .unwrap()
        .to_owned();

    let started = start_grant(&app, &key, "mcp").await;
    let state = started["state"].as_str().unwrap().to_owned();
    let auth_url = started["auth_url"].as_str().unwrap();
    assert_eq!(
        auth_url,
        app.url(&format!("/connect/searchco/confirm?state={state}"))
    );

    let page = app.grant_page(auth_url).await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert_eq!(page.content_type, "text/html; charset=utf-8");
    let google_origin = {
        let url = reqwest::Url::parse(&google.auth_url()).unwrap();
        url.origin().ascii_serialization()
    };
    assert_eq!(
        header(&page, "content-security-policy"),
        format!(
            "default-src 'none'; style-src 'unsafe-inline'; form-action {} {google_origin}; \
             frame-ancestors 'none'; base-uri 'none'",
            app.base_url
        )
    );
    assert_eq!(header(&page, "x-frame-options"), "DENY");
    assert_eq!(header(&page, "cache-control"), "no-store");
    assert_eq!(header(&page, "referrer-policy"), "same-origin");
    assert!(!page.body.contains("<script"), "{}", page.body);
    assert!(page.body.contains("<h1>Connect Google to Payback?</h1>"));
    assert!(page.body.contains(&format!(
        "<dt>Workspace</dt><dd id=\"workspace\">{workspace}</dd>"
    )));
    assert!(
        page.body
            .contains("<dt>Product</dt><dd id=\"product\">Product shop (<code>shop</code>)</dd>")
    );
    assert!(
        page.body.contains(
            "<dd id=\"starter\">the API key <strong>Coding agent</strong> (created by \
             founder@example.com) through Payback's API</dd>"
        ),
        "{}",
        page.body
    );
    assert!(page.body.contains("<h3>Google Ads (search ads)</h3>"));
    assert!(page.body.contains(
        "<li>Change a campaign budget only after a person approves that change in \
         Payback&#x27;s approval queue.</li>"
    ));
    assert!(page.body.contains(
        "<li>Read the account&#x27;s final URL suffix; change it only when a person presses the \
         button in Payback&#x27;s dashboard.</li>"
    ));
    assert_eq!(page.hidden_state().as_deref(), Some(state.as_str()));
    assert_eq!(
        page.form_action(),
        Some(app.url("/connect/searchco/confirm"))
    );
    // Looking again before confirming is harmless, and so is after.
    assert_eq!(app.grant_page(auth_url).await.status, 200);

    // The form, as the page posts it from its own origin.
    let origin = app.base_url.clone();
    let confirmed = app
        .submit_grant_page(
            &page.form_action().unwrap(),
            &state,
            &[
                ("origin", origin.as_str()),
                ("sec-fetch-site", "same-origin"),
            ],
        )
        .await;
    assert_eq!(confirmed.status, 303, "{}", confirmed.body);
    let cookie = confirmed.set_cookie.clone().unwrap();
    assert!(
        cookie.starts_with(&format!("payback_grant_{state}=gb_"))
            && cookie.ends_with("; Path=/connect/searchco/; Max-Age=900; HttpOnly; SameSite=Lax"),
        "{cookie}"
    );
    let consent_url = reqwest::Url::parse(confirmed.location.as_deref().unwrap()).unwrap();
    assert!(
        consent_url.as_str().starts_with(&google.auth_url()),
        "{consent_url}"
    );
    let param = |name: &str| {
        consent_url
            .query_pairs()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.into_owned())
    };
    assert_eq!(param("state").as_deref(), Some(state.as_str()));
    assert_eq!(param("code_challenge_method").as_deref(), Some("S256"));
    assert!(param("code_challenge").is_some_and(|c| c.len() == 43));
    assert_eq!(
        param("redirect_uri"),
        Some(app.url("/connect/searchco/callback"))
    );
    assert!(
        param("scope")
            .unwrap()
            .contains("https://www.googleapis.com/auth/adwords")
    );
    assert_eq!(app.grant_page(auth_url).await.status, 200);
    let confirmations: Vec<Value> = app
        .history(&owner.token, "?limit=50")
        .await
        .into_iter()
        .filter(|event| event["action"] == "connect.confirm")
        .collect();
    assert_eq!(confirmations.len(), 1, "{confirmations:?}");
    assert_eq!(confirmations[0]["payload"]["provider"], "searchco");

    let back = google.authorize(consent_url.as_str()).await;
    let page = app.follow_callback(&back).await;
    assert_eq!(page.status().as_u16(), 200);
    assert!(page.text().await.unwrap().contains("Google is connected"));
    assert_eq!(code_exchanges(&google), 1);
    assert_eq!(grant_status(&app, &key, &state).await["status"], "complete");
    let selected = app
        .post(
            "/connect/searchco/select",
            Some(&key),
            json!({ "state": state, "ads_customer_id": "123-456-7890" }),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(selected, json!({ "ok": true, "activated": ["search_ads"] }));
    assert_eq!(
        search_ads_connection(&app, &key).await["config"]["customer_id"],
        "1234567890"
    );
}

/// Every tenant value on the page is text: a workspace, a product and a key named with markup
/// show escaped, and no tag of theirs reaches the page.
async fn the_page_shows_hostile_names_as_text(backend: Backend) {
    let google = FakeGoogle::spawn().await;
    seed(&google);
    let app = spawn(backend, &google).await;
    let (owner, _) = founder(&app).await;
    app.post(
        "/products/shop",
        Some(&owner.token),
        json!({ "name": "<script>alert(1)</script>" }),
    )
    .await
    .expect(200);
    app.sql_execute(
        "UPDATE accounts SET name = $1",
        &[Bind::Text("Acme \"&\" <b>bold</b>")],
    )
    .await;
    let key = app
        .post(
            "/auth/keys",
            Some(&owner.token),
            json!({ "name": "<img src=x onerror=alert(2)>" }),
        )
        .await
        .expect(200)["key"]
        .as_str()
        .unwrap()
        .to_owned();
    let started = start_grant(&app, &key, "api").await;
    let page = app.grant_page(started["auth_url"].as_str().unwrap()).await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(
        page.body.contains(
            "<dd id=\"product\">&lt;script&gt;alert(1)&lt;/script&gt; (<code>shop</code>)</dd>"
        ),
        "{}",
        page.body
    );
    assert!(
        page.body
            .contains("<dd id=\"workspace\">Acme &quot;&amp;&quot; &lt;b&gt;bold&lt;/b&gt;</dd>"),
        "{}",
        page.body
    );
    assert!(
        page.body
            .contains("<strong>&lt;img src=x onerror=alert(2)&gt;</strong>"),
        "{}",
        page.body
    );
    for raw in ["<script>", "<b>bold", "<img"] {
        assert!(!page.body.contains(raw), "{raw} in {}", page.body);
    }
    // A person's session names the person.
    let started = start_grant(&app, &owner.token, "dashboard").await;
    let page = app.grant_page(started["auth_url"].as_str().unwrap()).await;
    assert!(
        page.body
            .contains("<dd id=\"starter\">founder@example.com in Payback's dashboard</dd>"),
        "{}",
        page.body
    );
}

/// An unknown, expired or used state answers 400 on the page and on its form; a form posted
/// from another site is refused (403) and confirms nothing; another browser cannot confirm a
/// state one browser already did.
async fn unusable_states_and_foreign_posts_are_refused(backend: Backend) {
    let google = FakeGoogle::spawn().await;
    seed(&google);
    let app = spawn(backend, &google).await;
    let (owner, _) = founder(&app).await;
    let action = app.url("/connect/searchco/confirm");

    // Unknown (or missing, or another provider's).
    for url in [
        app.url("/connect/searchco/confirm?state=sc_unknown"),
        app.url("/connect/searchco/confirm"),
    ] {
        let page = app.grant_page(&url).await;
        assert_eq!(page.status, 400);
        assert!(page.body.contains(
            "<p id=\"reason\">This connect link is not valid. Start connecting again from Payback.</p>"
        ), "{}", page.body);
        assert_eq!(header(&page, "x-frame-options"), "DENY");
    }
    let posted = app.submit_grant_page(&action, "sc_unknown", &[]).await;
    assert_eq!((posted.status, posted.location), (400, None));
    let started = start_grant(&app, &owner.token, "api").await;
    let state = started["state"].as_str().unwrap().to_owned();
    let other_provider = app
        .grant_page(&app.url(&format!("/connect/socialco/confirm?state={state}")))
        .await;
    assert_eq!(other_provider.status, 400);

    // Posted from another site: refused, and the state stays unconfirmed.
    for headers in [
        [
            ("origin", "https://evil.example"),
            ("sec-fetch-site", "cross-site"),
        ],
        [("origin", "https://evil.example"), ("x-unrelated", "1")],
    ] {
        let posted = app.submit_grant_page(&action, &state, &headers).await;
        assert_eq!((posted.status, posted.location.clone()), (403, None));
        assert!(posted.body.contains("came from"), "{}", posted.body);
        assert!(posted.set_cookie.is_none());
    }
    let confirmed_at: Option<i64> = app
        .sql_value(
            "SELECT confirmed_at FROM grant_states WHERE state = $1",
            &[Bind::Text(&state)],
        )
        .await;
    assert_eq!(confirmed_at, None);

    // Confirmed in one browser: that browser may submit again, another may not.
    let first = app.submit_grant_page(&action, &state, &[]).await;
    assert_eq!(first.status, 303);
    let cookie = app.grant_cookie(&state).unwrap();
    let again = app
        .submit_grant_page(&action, &state, &[("cookie", cookie.as_str())])
        .await;
    assert_eq!(again.status, 303);
    assert_eq!(again.location, first.location);
    let elsewhere = app.submit_grant_page(&action, &state, &[]).await;
    assert_eq!(elsewhere.status, 400);
    assert!(
        elsewhere
            .body
            .contains("already confirmed in another browser"),
        "{}",
        elsewhere.body
    );

    // Used: after the callback, neither the page nor the form takes it.
    let back = google.authorize(first.location.as_deref().unwrap()).await;
    assert_eq!(app.follow_callback(&back).await.status().as_u16(), 200);
    let page = app.grant_page(started["auth_url"].as_str().unwrap()).await;
    assert_eq!(page.status, 400);
    assert!(page.body.contains("already used"), "{}", page.body);
    let posted = app
        .submit_grant_page(&action, &state, &[("cookie", cookie.as_str())])
        .await;
    assert_eq!((posted.status, posted.location), (400, None));

    // Expired: 15 minutes after start.
    let late = start_grant(&app, &owner.token, "api").await;
    let late_state = late["state"].as_str().unwrap();
    assert_eq!(
        app.grant_page(late["auth_url"].as_str().unwrap())
            .await
            .status,
        200
    );
    app.clock.advance(15 * 60_000);
    let page = app.grant_page(late["auth_url"].as_str().unwrap()).await;
    assert_eq!(page.status, 400);
    assert!(page.body.contains("expired"), "{}", page.body);
    let posted = app.submit_grant_page(&action, late_state, &[]).await;
    assert_eq!((posted.status, posted.location), (400, None));
    assert!(posted.body.contains("expired"), "{}", posted.body);
}

per_backend!(
    a_provider_link_sent_to_someone_else_seals_nothing,
    an_agent_started_grant_completes_once_the_person_confirms,
    the_page_shows_hostile_names_as_text,
    unusable_states_and_foreign_posts_are_refused,
);
