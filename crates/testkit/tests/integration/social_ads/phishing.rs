//! The social-network grant can't be phished either (issue 35): `auth_url` is Payback's
//! confirmation page, the callback takes a state only from the browser that confirmed it, and
//! the Login dialog carries a PKCE S256 challenge whose verifier the exchange sends (the fake
//! refuses a code exchanged without it).

use base64::Engine as _;
use payback_testkit::{Backend, Bind, FakeLinkedIn, FakeMeta, TestApp, per_backend};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::*;

/// Starts the grant for `shop` from the dashboard.
async fn start(app: &TestApp, token: &str) -> Value {
    let body = json!({ "product_slug": "shop", "client": "dashboard" });
    start_grant(app, token, body).await
}

/// The query pairs of a request the fake recorded.
fn query_of(request: &payback_testkit::fake_google::RecordedRequest) -> Vec<(String, String)> {
    let query = request.query.clone().unwrap_or_default();
    reqwest::Url::parse(&format!("http://fake/?{query}"))
        .unwrap()
        .query_pairs()
        .map(|(key, value)| (key.into_owned(), value.into_owned()))
        .collect()
}

/// The code exchanges (not the long-lived token trades) Meta's token endpoint received.
fn code_exchanges(meta: &FakeMeta) -> Vec<Vec<(String, String)>> {
    meta.requests_to("oauth/access_token")
        .iter()
        .map(query_of)
        .filter(|query| query.iter().any(|(key, _)| key == "code"))
        .collect()
}

fn param(url: &str, name: &str) -> Option<String> {
    reqwest::Url::parse(url)
        .unwrap()
        .query_pairs()
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.into_owned())
}

/// A person starts the grant in the dashboard: the page names them and the Meta access; the
/// form sends them to the Login dialog with the same state and a PKCE S256 challenge; the
/// exchange sends the verifier whose hash is that challenge; select connects both kinds.
async fn a_person_confirms_and_the_exchange_proves_the_challenge(backend: Backend) {
    let (meta, linkedin) = (FakeMeta::spawn().await, FakeLinkedIn::spawn().await);
    seed_meta(&meta);
    let app = spawn(backend, &meta, &linkedin).await;
    let (owner, _) = founder(&app).await;

    let started = start(&app, &owner.token).await;
    let state = started["state"].as_str().unwrap().to_owned();
    let auth_url = started["auth_url"].as_str().unwrap();
    assert_eq!(
        auth_url,
        app.url(&format!("/connect/socialco/confirm?state={state}"))
    );
    let page = app.grant_page(auth_url).await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.content_type.starts_with("text/html"));
    assert!(page.body.contains("<h1>Connect Meta to Payback?</h1>"));
    assert!(
        page.body
            .contains("<dd id=\"product\">Product shop (<code>shop</code>)</dd>")
    );
    assert!(
        page.body
            .contains("<dd id=\"starter\">founder@example.com in Payback's dashboard</dd>"),
        "{}",
        page.body
    );
    assert!(
        page.body
            .contains("<h3>Meta ads (Facebook and Instagram ads)</h3>")
    );
    assert!(
        page.body
            .contains("<h3>Facebook page and its Instagram account</h3>")
    );
    assert!(
        page.body
            .contains("<li>Never post, comment or change anything on the page.</li>")
    );
    let meta_origin = reqwest::Url::parse(&meta.dialog_url())
        .unwrap()
        .origin()
        .ascii_serialization();
    let csp = page.headers["content-security-policy"].to_str().unwrap();
    assert!(
        csp.contains(&format!("form-action {} {meta_origin};", app.base_url)),
        "{csp}"
    );

    let dialog_url = app.confirm_grant(auth_url).await;
    assert!(dialog_url.starts_with(&meta.dialog_url()), "{dialog_url}");
    assert_eq!(param(&dialog_url, "state").as_deref(), Some(state.as_str()));
    assert_eq!(
        param(&dialog_url, "code_challenge_method").as_deref(),
        Some("S256")
    );
    let challenge = param(&dialog_url, "code_challenge").unwrap();
    assert_eq!(challenge.len(), 43, "{challenge}");
    assert_eq!(
        param(&dialog_url, "redirect_uri"),
        Some(app.url("/connect/socialco/callback"))
    );

    let back = meta.authorize(&dialog_url).await;
    let answer = app.follow_callback(&back).await;
    assert_eq!(answer.status().as_u16(), 302);
    let exchanges = code_exchanges(&meta);
    assert_eq!(exchanges.len(), 1);
    let verifier = exchanges[0]
        .iter()
        .find(|(key, _)| key == "code_verifier")
        .map(|(_, value)| value.clone())
        .expect("the exchange sends code_verifier");
    assert!((43..=128).contains(&verifier.len()), "{verifier}");
    assert_eq!(
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(Sha256::digest(&verifier)),
        challenge
    );
    assert_eq!(
        grant_status(&app, &owner.token, &state).await["status"],
        "complete"
    );
    let selected = select_grant(
        &app,
        &owner.token,
        json!({ "state": state, "ad_account_id": ACCOUNT.to_string(), "page_id": PAGE.to_string() }),
    )
    .await;
    assert_eq!(
        selected,
        json!({ "ok": true, "activated": ["social_ads_a", "social_a"] })
    );
}

/// An attacker confirms their own Meta grant and sends the Login dialog's URL to a victim, who
/// logs in: the victim's browser comes back without the confirming browser's cookie, so the
/// callback refuses (400), nothing is exchanged or sealed, and the flow stays pending. A link
/// that never went through the page is refused the same way.
async fn a_dialog_link_sent_to_someone_else_seals_nothing(backend: Backend) {
    let (meta, linkedin) = (FakeMeta::spawn().await, FakeLinkedIn::spawn().await);
    seed_meta(&meta);
    let app = spawn(backend, &meta, &linkedin).await;
    let (_, attacker_key) = founder(&app).await;

    let started = start(&app, &attacker_key).await;
    let state = started["state"].as_str().unwrap().to_owned();
    let never_confirmed: String = app
        .sql_value(
            "SELECT provider_url FROM grant_states WHERE state = $1",
            &[Bind::Text(&state)],
        )
        .await;
    let back = meta.authorize(&never_confirmed).await;
    let refused = app.follow_callback(&back).await;
    assert_eq!(refused.status().as_u16(), 400);

    let dialog_url = app
        .confirm_grant(started["auth_url"].as_str().unwrap())
        .await;
    assert_eq!(dialog_url, never_confirmed);
    let back = meta.authorize(&dialog_url).await;
    let victim = app.client.get(&back).send().await.unwrap();
    assert_eq!(victim.status().as_u16(), 400);
    assert!(
        victim
            .text()
            .await
            .unwrap()
            .contains("This Meta grant was not confirmed on Payback")
    );
    assert_eq!(code_exchanges(&meta).len(), 0);
    let sealed: i64 = app.sql_value("SELECT COUNT(*) FROM credentials", &[]).await;
    assert_eq!(sealed, 0);
    let status = grant_status(&app, &attacker_key, &state).await;
    assert_eq!(status["status"], "pending", "{status}");
}

per_backend!(
    a_person_confirms_and_the_exchange_proves_the_challenge,
    a_dialog_link_sent_to_someone_else_seals_nothing,
);
