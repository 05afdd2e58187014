//! Services any door can call (issue 21, part 6): the MCP server, the chat assistant and jobs
//! call the same `services::` functions as the routes, with a `Caller` built without HTTP and
//! their own `via`. An agent's key reads attribution and proposes through `mcp` and through
//! `chat`, a human's session approves through the dashboard, and history (read over HTTP) names
//! each door; a key still cannot approve, and tokens resolve with the HTTP door's checks.

use payback_domain::card::Resolution;
use payback_domain::policy::Network;
use payback_domain::{Actor, Via};
use payback_server::input::Window;
use payback_server::services::acting::{Caller, SESSION_IDLE_MS, caller_for_token};
use payback_server::services::attribution;
use payback_server::services::proposals::{self, ProposalInput};
use payback_server::services::queue::{self, ResolveOptions};
use payback_testkit::{TestApp, backend_tests};
use serde_json::{Value, json};

const OWNER: &str = "owner@example.com";

backend_tests!(
    agents_and_humans_through_every_door,
    tokens_resolve_with_the_http_checks
);

fn raise(to_cents: i64) -> ProposalInput {
    ProposalInput {
        network: Network::Google,
        campaign_id: Some("cmp-1".to_owned()),
        from_cents: Some(2_000),
        to_cents,
        rationale: "CAC on search is well under target; room to grow.".to_owned(),
        rollback_if: Some(json!({ "cac_ceiling_cents": 4_000, "window_days": 7 })),
        headline: None,
    }
}

/// The agent reads the attribution report and proposes through `caller`; answers the card id.
async fn read_and_propose(app: &TestApp, caller: &Caller, to_cents: i64) -> String {
    let window = Window::new(Some(30), None).unwrap();
    let report = attribution::report(&app.state, caller, "shop", window)
        .await
        .unwrap();
    assert_eq!(report.window_days, 30);
    assert!(
        report
            .channels
            .iter()
            .any(|row| row.channel == "unattributed")
    );
    let accepted = proposals::propose(&app.state, caller, "shop", raise(to_cents))
        .await
        .unwrap();
    assert_eq!(accepted.status, "pending_human");
    accepted.proposal_id
}

/// `(action, actor, via)` of the card's history, oldest first, as the owner reads it over HTTP.
async fn card_doors(app: &TestApp, owner: &str, card_id: &str) -> Vec<(String, String, String)> {
    let word = |event: &Value, field: &str| event[field].as_str().unwrap().to_owned();
    app.history_where(owner, |event| event["subject_ref"] == card_id)
        .await
        .iter()
        .map(|event| {
            (
                word(event, "action"),
                word(event, "actor"),
                word(event, "via"),
            )
        })
        .collect()
}

async fn agents_and_humans_through_every_door(app: TestApp) {
    let owner = app.signup_verified(OWNER).await;
    app.create_product(&owner.token, "shop").await;
    let key = app.api_key(&owner).await;

    // The MCP server resolves the agent's key with its own door; so does the chat assistant.
    let mcp = caller_for_token(&app.state, &key, Via::Mcp).await.unwrap();
    assert_eq!(mcp.actor(), Actor::keeper(Via::Mcp));
    let through_mcp = read_and_propose(&app, &mcp, 5_000).await;
    let chat = caller_for_token(&app.state, &key, Via::Chat).await.unwrap();
    assert_eq!(chat.actor(), Actor::keeper(Via::Chat));
    let through_chat = read_and_propose(&app, &chat, 6_000).await;

    // A key never resolves a card, through a service as over HTTP: the same 403.
    let refused = queue::resolve(
        &app.state,
        &mcp,
        &through_mcp,
        Resolution::Approve,
        ResolveOptions::default(),
    )
    .await
    .unwrap_err();
    assert_eq!(refused.status().as_u16(), 403);
    app.post(
        &format!("/queue/{through_mcp}/approve"),
        Some(&key),
        json!({}),
    )
    .await
    .expect_error(403, &refused.to_string());

    // The owner's session approves through the dashboard door.
    let dashboard = caller_for_token(&app.state, &owner.token, Via::Dashboard)
        .await
        .unwrap();
    assert_eq!(dashboard.actor(), Actor::human(OWNER, Via::Dashboard));
    queue::resolve(
        &app.state,
        &dashboard,
        &through_mcp,
        Resolution::Approve,
        ResolveOptions::default(),
    )
    .await
    .unwrap();

    let row = |action: &str, actor: &str, via: &str| {
        (action.to_owned(), actor.to_owned(), via.to_owned())
    };
    let mcp_rows = card_doors(&app, &owner.token, &through_mcp).await;
    assert_eq!(mcp_rows[0], row("proposal.create", "keeper", "mcp"));
    assert_eq!(mcp_rows[1], row("card.approve", OWNER, "dashboard"));
    assert_eq!(
        card_doors(&app, &owner.token, &through_chat).await,
        vec![row("proposal.create", "keeper", "chat")]
    );
    // The chat card still waits for a human; the approved one left the queue.
    let queued: Vec<Value> = app.queue(&owner.token).await;
    let ids: Vec<&str> = queued
        .iter()
        .map(|card| card["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, vec![through_chat.as_str()]);

    // A job acts as the system for one account, and may not resolve cards either.
    let job = Caller::system(dashboard.scope().unwrap().clone());
    assert_eq!(job.actor(), Actor::system());
    let refused = queue::resolve(
        &app.state,
        &job,
        &through_chat,
        Resolution::Approve,
        ResolveOptions::default(),
    )
    .await
    .unwrap_err();
    assert_eq!(refused.status().as_u16(), 403);
}

/// `caller_for_token` is the extractor's own resolution: bad bearers, revoked keys and idle
/// sessions answer 401 to every door.
async fn tokens_resolve_with_the_http_checks(app: TestApp) {
    let owner = app.signup_verified(OWNER).await;
    let key = app.api_key(&owner).await;
    let status = |result: Result<Caller, payback_server::ApiError>| {
        result
            .map(|_| 200)
            .unwrap_or_else(|err| err.status().as_u16())
    };

    assert_eq!(
        status(caller_for_token(&app.state, "nonsense", Via::Mcp).await),
        401
    );
    assert_eq!(
        status(caller_for_token(&app.state, &key, Via::Mcp).await),
        200
    );
    let operator = caller_for_token(&app.state, &app.operator_token, Via::Mcp)
        .await
        .unwrap();
    assert!(operator.is_operator);
    assert_eq!(operator.actor().via, Via::Mcp);

    let keys = app.get("/auth/keys", Some(&owner.token)).await;
    let id = keys.expect(200)[0]["id"].as_str().unwrap().to_owned();
    app.post(
        &format!("/auth/keys/{id}/revoke"),
        Some(&owner.token),
        json!({}),
    )
    .await
    .expect(200);
    assert_eq!(
        status(caller_for_token(&app.state, &key, Via::Mcp).await),
        401
    );

    app.clock.advance(SESSION_IDLE_MS);
    assert_eq!(
        status(caller_for_token(&app.state, &owner.token, Via::Chat).await),
        401
    );
    // The HTTP door agrees: the idle session was deleted on sight.
    app.get("/auth/me", Some(&owner.token))
        .await
        .expect_error(401, "invalid or expired session");
}
