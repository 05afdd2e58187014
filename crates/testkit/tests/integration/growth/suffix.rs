//! The search-ads URL suffix, read live from the loopback Google fake: missing parameters rank
//! the action and its prompt carries the suffix; once Payback writes it, the action is gone.

use payback_testkit::fake_google::CustomerSeed;
use payback_testkit::{Backend, FakeGoogle, per_backend};

use super::*;

const SUFFIX: &str = "/products/shop/connections/search-ads/url-suffix";

/// The service wired to the fake, and a founder whose `shop` has Google Ads connected through
/// the search-engine grant.
async fn connected(backend: Backend, google: &FakeGoogle) -> (TestApp, Founder) {
    let app = crate::search_ads::spawn(backend, google).await;
    let owner = founder(&app, "founder@example.com").await;
    product(&app, &owner, "shop").await;
    crate::search_ads::connect(&app, google, &owner.session.token).await;
    (app, owner)
}

async fn an_incomplete_suffix_is_an_action_until_payback_writes_it(backend: Backend) {
    let google = FakeGoogle::spawn().await;
    google.add_customer(
        CustomerSeed::new(1_234_567_890, "Shop Ads", "USD").final_url_suffix("ref=partner"),
    );
    let (app, owner) = connected(backend, &google).await;
    let read = app.get(SUFFIX, Some(&owner.key)).await.expect(200).clone();
    assert_eq!(read["complete"], false);
    let recommended = read["recommended_suffix"].as_str().unwrap().to_owned();

    // Nothing tracked yet and a suffix lacking parameters: four failures, ranked by kind. The
    // network is connected, so no action asks to connect it.
    let shop = list(&app, &owner.key, "shop", "").await;
    assert_eq!(
        ids(&shop),
        [
            "install_tracking:events",
            "connect_payments:payments",
            "send_converted_event:server",
            "add_url_suffix:search_ads",
        ]
    );
    let suffix = action(&shop, "add_url_suffix:search_ads");
    assert_eq!(suffix["severity"], "fail");
    assert_eq!(suffix["check_id"], "advertising.url_suffix");
    assert!(
        suffix["why"]
            .as_str()
            .unwrap()
            .starts_with("The final URL suffix lacks "),
        "{suffix:#}"
    );
    assert_eq!(suffix["links"][1]["method"], "POST");
    assert_eq!(suffix["links"][1]["path"], SUFFIX);
    assert_eq!(
        suffix["links"][1]["label"],
        "Append the missing parameters (a person, in the dashboard)"
    );
    for tool in TOOLS {
        let answer = prompt(
            &app,
            &owner.key,
            "shop",
            "add_url_suffix:search_ads",
            json!({ "tool": tool }),
        )
        .await
        .expect(200)
        .clone();
        let text = answer["prompt"].as_str().unwrap();
        for needle in [
            recommended.as_str(),
            "`shop`",
            "Google Ads",
            &format!("GET {SUFFIX}"),
        ] {
            assert!(text.contains(needle), "{tool}: {needle} in {text}");
        }
        // The agent is told to ask the person, never to make the write itself (issue 35): it
        // changes every ad's landing URL, and only a person's dashboard session may.
        assert!(
            text.contains(&format!(
                "Do not call POST {SUFFIX} yourself: it changes every ad's landing URL, so only a person signed in to the Payback dashboard may make it, and an API key, MCP or chat gets 403. Ask the founder to press the button in the dashboard instead: Connections > Google Ads > URL suffix > Write suffix"
            )),
            "{tool}: {text}"
        );
        assert!(
            !text.contains("Let Payback append"),
            "{tool}: no step tells the agent to write: {text}"
        );
    }

    // The founder presses the button (a dashboard session): the action leaves the list and its
    // prompt is not found.
    app.post(SUFFIX, Some(&owner.session.token), json!({}))
        .await
        .expect(200);
    let written = list(&app, &owner.key, "shop", "").await;
    assert!(!ids(&written).contains(&"add_url_suffix:search_ads"));
    prompt(
        &app,
        &owner.key,
        "shop",
        "add_url_suffix:search_ads",
        json!({ "tool": "agent_a" }),
    )
    .await
    .expect_error(404, "growth action not found");
}

per_backend!(an_incomplete_suffix_is_an_action_until_payback_writes_it);
