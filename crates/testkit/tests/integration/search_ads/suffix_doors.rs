//! Who may write the account's final URL suffix (issue 35): it changes every ad's landing URL
//! and waits for no approval card, so only a person signed in to the dashboard writes it. An API
//! key, the operator token, and a person's own session through MCP or chat are refused with 403
//! naming the rule, and Google sees no `customers/{id}:mutate`; MCP offers no tool that writes
//! it; reading stays open to every credential; the person's session still writes it, once.

use payback_domain::Via;
use payback_server::error::ApiError;
use payback_server::services::acting::caller_for_token;
use payback_server::services::url_suffix;
use payback_testkit::{Backend, FakeGoogle, per_backend};
use rmcp::model::ClientConfig;
use rmcp::service::ServiceExt;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::json;

use super::*;

const RULE: &str = "only a person signed in to the dashboard may change the ad account's URL suffix; ask the founder to press the button in the dashboard";

/// The customer's own mutate: the only request that writes the suffix.
fn suffix_writes(google: &FakeGoogle) -> usize {
    google
        .requests_to(&format!("customers/{CUSTOMER}:mutate"))
        .len()
}

async fn only_a_persons_dashboard_session_writes_the_suffix(backend: Backend) {
    let (google, app, owner, key) = suffixed_founder(backend).await;
    connect(&app, &google, &owner.token).await;

    // Reading is open to an agent's key as to a person's session.
    for token in [&key, &owner.token] {
        let report = app.get(SUFFIX_PATH, Some(token)).await.expect(200).clone();
        assert_eq!(report["complete"], false, "{report}");
        assert_eq!(report["final_url_suffix"], "ref=partner");
    }

    // The agent's key and the operator token: 403 naming the rule, before anything is read.
    let reads_before = google.requests_to("googleAds:search").len();
    for token in [key.as_str(), app.operator_token.as_str()] {
        let refused = app.post(SUFFIX_PATH, Some(token), json!({})).await;
        refused.expect_error(403, RULE);
        assert_eq!(refused.body, json!({ "error": RULE }));
    }
    assert_eq!(
        google.requests_to("googleAds:search").len(),
        reads_before,
        "a refused write reads nothing at Google either"
    );

    // The person's own session through an agent's door (MCP, chat) is the agent acting: the
    // service refuses it the same way, whatever door calls it.
    for via in [Via::Mcp, Via::Chat, Via::Api] {
        let caller = caller_for_token(&app.state, &owner.token, via)
            .await
            .unwrap();
        match url_suffix::write(&app.state, &caller, "shop").await {
            Err(ApiError::Forbidden(message)) => assert_eq!(message, RULE, "{via:?}"),
            other => panic!("{via:?}: expected 403, got {other:?}"),
        }
    }
    // The agent's key through MCP too.
    let caller = caller_for_token(&app.state, &key, Via::Mcp).await.unwrap();
    assert!(matches!(
        url_suffix::write(&app.state, &caller, "shop").await,
        Err(ApiError::Forbidden(_))
    ));

    // MCP (and chat, which serves the same tool set) offers no tool that touches the suffix,
    // and its writes are the two that add a record: nothing there reaches an ad network.
    let mut config = StreamableHttpClientTransportConfig::with_uri(app.url("/mcp"));
    config = config.auth_header(owner.token.clone());
    let agent = ClientConfig::default()
        .serve(StreamableHttpClientTransport::from_config(config))
        .await
        .expect("the MCP client initializes");
    let tools = agent.list_all_tools().await.expect("tools/list");
    assert!(!tools.is_empty());
    assert!(
        tools.iter().all(|tool| !tool.name.contains("suffix")),
        "{tools:?}"
    );
    let writes: Vec<&str> = tools
        .iter()
        .filter(|tool| {
            tool.annotations
                .as_ref()
                .and_then(|hints| hints.read_only_hint)
                != Some(true)
        })
        .map(|tool| tool.name.as_ref())
        .collect();
    assert_eq!(writes, ["propose_spend_change", "record_distribution"]);
    agent.cancel().await.expect("the MCP client closes");

    // Nothing reached Google, nothing was recorded as deployed or audited.
    assert_eq!(suffix_writes(&google), 0);
    assert_eq!(
        google.final_url_suffix(CUSTOMER).as_deref(),
        Some("ref=partner")
    );
    assert!(
        app.get(SUFFIX_PATH, Some(&key)).await.expect(200)["deployed_at"].is_null(),
        "not deployed"
    );
    let audited = app
        .history_where(&owner.token, |e| e["action"] == "search_ads.url_suffix")
        .await;
    assert!(audited.is_empty(), "{audited:?}");

    // The founder presses the button: the session writes it at once, one mutate.
    let written = write_suffix(&app, &owner.token).await;
    assert_eq!(written["ok"], true);
    assert_eq!(written["already_complete"], false);
    assert_eq!(suffix_writes(&google), 1);
    assert_eq!(
        google.final_url_suffix(CUSTOMER),
        written["suffix"].as_str().map(str::to_owned)
    );
    assert!(
        written["suffix"]
            .as_str()
            .unwrap()
            .starts_with("ref=partner&utm_source=google"),
        "{written}"
    );
    let audited = app
        .history_where(&owner.token, |e| e["action"] == "search_ads.url_suffix")
        .await;
    assert_eq!(audited.len(), 1);
    assert_eq!(audited[0]["actor"], "founder@example.com");
    assert_eq!(audited[0]["via"], "dashboard");

    // Complete now: the key is still refused (403 before the "already complete" answer).
    app.post(SUFFIX_PATH, Some(&key), json!({}))
        .await
        .expect_error(403, RULE);
    assert_eq!(suffix_writes(&google), 1);
}

per_backend!(only_a_persons_dashboard_session_writes_the_suffix);
