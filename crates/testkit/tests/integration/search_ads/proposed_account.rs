//! An approved budget change lands on the ad account it was proposed for (issue 35). A card
//! records the product's Google Ads connection and customer id when it is raised (shown in its
//! `action_spec`); once the connection points at another customer, or is another connection,
//! the approval applies nothing: no request reaches Google, the card stays approved with the
//! reason, and history says why. The honest flow applies exactly once, and a card raised before
//! anything was connected applies as it always did.

use payback_testkit::{Backend, Bind, FakeGoogle, per_backend};
use serde_json::{Value, json};

use super::*;

/// A second advertiser the same grant reaches, with a campaign of the same id and budget, so a
/// change that went to the wrong account would land there.
const SECOND: i64 = 4_440_003_333;

fn proposal(to_cents: i64) -> Value {
    json!({
        "network": "google",
        "campaign_id": SEARCH.to_string(),
        "from_cents": 2_000,
        "to_cents": to_cents,
        "rationale": "CAC on search is well under target; room to grow.",
    })
}

async fn propose(app: &TestApp, key: &str, to_cents: i64) -> String {
    app.raise_proposal(key, "shop", proposal(to_cents)).await
}

/// Connects `shop` to `customer` (dashes as Google writes them) through a fresh grant.
async fn connect_to(app: &TestApp, google: &FakeGoogle, token: &str, customer: &str) -> Value {
    let state = consent(app, google, token).await;
    app.post(
        "/connect/searchco/select",
        Some(token),
        json!({ "state": state, "ads_customer_id": customer }),
    )
    .await
    .expect(200);
    search_ads_connection(app, token).await
}

fn budget_writes(google: &FakeGoogle) -> usize {
    google.requests_to("campaignBudgets:mutate").len()
}

/// The `spend.*` history events of one card, oldest first.
async fn outcomes(app: &TestApp, token: &str, id: &str) -> Vec<Value> {
    app.history_where(token, |e| {
        e["subject_ref"] == id && e["action"].as_str().unwrap_or("").starts_with("spend.")
    })
    .await
}

async fn approvals_land_on_the_account_they_were_proposed_for(backend: Backend) {
    let google = FakeGoogle::spawn().await;
    seed(&google);
    google.add_customer(CustomerSeed::new(SECOND, "Second shop", "USD"));
    google.add_campaign(
        SECOND,
        CampaignSeed::new(SEARCH, "Search brand", 20_000_000),
    );
    let app = spawn(backend, &google).await;
    let (owner, key) = founder(&app).await;

    // Raised while nothing is connected: the card records no account.
    let unbound = propose(&app, &key, 2_500).await;
    let spec = app.queue_card(&owner.token, "pending", &unbound).await["action_spec"].clone();
    assert_eq!(spec["connection_id"], Value::Null);
    assert_eq!(spec["ad_account_id"], Value::Null);
    let stored: (Option<String>, Option<String>) = app
        .sql_rows(
            "SELECT connection_id, ad_account_id FROM cards WHERE id = $1",
            &[Bind::from(unbound.as_str())],
        )
        .await
        .pop()
        .unwrap();
    assert_eq!(stored, (None, None));

    // The honest flow: proposed for customer A, approved, applied exactly once on A.
    let first = connect(&app, &google, &owner.token).await;
    let connection_id = first["id"].as_str().unwrap().to_owned();
    let honest = propose(&app, &key, 4_250).await;
    let spec = app.queue_card(&owner.token, "pending", &honest).await["action_spec"].clone();
    assert_eq!(spec["connection_id"], connection_id.as_str());
    assert_eq!(spec["ad_account_id"], "1234567890");
    let stored: (Option<String>, Option<String>) = app
        .sql_rows(
            "SELECT connection_id, ad_account_id FROM cards WHERE id = $1",
            &[Bind::from(honest.as_str())],
        )
        .await
        .pop()
        .unwrap();
    assert_eq!(
        stored,
        (Some(connection_id.clone()), Some("1234567890".to_owned()))
    );
    let created = app
        .history_where(&owner.token, |e| {
            e["subject_ref"] == honest.as_str() && e["action"] == "proposal.create"
        })
        .await;
    assert_eq!(created[0]["payload"]["ad_account_id"], "1234567890");
    app.approve_card(&owner.token, &honest).await;
    assert_eq!(budget_writes(&google), 1);
    assert_eq!(google.budget_micros(CUSTOMER, SEARCH), Some(42_500_000));
    let execution = app.queue_card(&owner.token, "approved", &honest).await["execution"].clone();
    assert_eq!(execution["state"], "applied", "{execution}");

    // Proposed for A; the connection is then pointed at customer B (same connection row).
    let moved = propose(&app, &key, 5_000).await;
    let second = connect_to(&app, &google, &owner.token, "444-000-3333").await;
    assert_eq!(second["id"], connection_id.as_str(), "the same connection");
    app.approve_card(&owner.token, &moved).await;
    let reason = "the product's Google Ads connection now points at account 4440003333, not 1234567890, which this change was proposed for; propose the change again for the account now connected";
    // Nothing reached Google, on either account.
    assert_eq!(budget_writes(&google), 1);
    assert_eq!(google.budget_micros(CUSTOMER, SEARCH), Some(42_500_000));
    assert_eq!(google.budget_micros(SECOND, SEARCH), Some(20_000_000));
    let shown = app.queue_card(&owner.token, "approved", &moved).await;
    assert_eq!(shown["status"], "approved");
    assert_eq!(shown["execution"]["state"], "refused", "{shown}");
    assert_eq!(shown["execution"]["applied"], false);
    assert_eq!(shown["execution"]["reason"], reason);
    let events = outcomes(&app, &owner.token, &moved).await;
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0]["action"], "spend.not_applied");
    assert_eq!(events[0]["actor"], "system");
    assert_eq!(events[0]["payload"]["reason"], reason);
    assert_eq!(events[0]["payload"]["state"], "refused");
    // Finished, not retried: later job passes ask Google nothing and record nothing more.
    for _ in 0..3 {
        app.clock.advance(3_600_000);
        payback_server::jobs::run_due(&app.state, "test-runner")
            .await
            .unwrap();
    }
    assert_eq!(budget_writes(&google), 1);
    assert_eq!(outcomes(&app, &owner.token, &moved).await.len(), 1);
    assert_eq!(
        app.queue_card(&owner.token, "approved", &moved).await["execution"]["state"],
        "refused"
    );

    // The card raised before any connection recorded none: it applies as it always did,
    // through whichever connection there is now.
    app.approve_card(&owner.token, &unbound).await;
    assert_eq!(budget_writes(&google), 2);
    assert_eq!(google.budget_micros(SECOND, SEARCH), Some(25_000_000));

    // The same account through another connection (disconnected, then connected again): the
    // card names a connection that is gone, so it applies nothing either.
    let on_second = propose(&app, &key, 6_000).await;
    assert_eq!(
        app.queue_card(&owner.token, "pending", &on_second).await["action_spec"]["ad_account_id"],
        "4440003333"
    );
    app.post(
        "/products/shop/connections/search-ads/disconnect",
        Some(&owner.token),
        json!({}),
    )
    .await
    .expect(200);
    let again = connect_to(&app, &google, &owner.token, "444-000-3333").await;
    let new_id = again["id"].as_str().unwrap().to_owned();
    assert_ne!(new_id, connection_id);
    app.approve_card(&owner.token, &on_second).await;
    assert_eq!(budget_writes(&google), 2);
    assert_eq!(google.budget_micros(SECOND, SEARCH), Some(25_000_000));
    let shown = app.queue_card(&owner.token, "approved", &on_second).await;
    assert_eq!(shown["execution"]["state"], "refused", "{shown}");
    assert_eq!(
        shown["execution"]["reason"],
        format!(
            "the product's Google Ads connection is not the one this change was proposed for (connection {new_id}, not {connection_id}); propose the change again for the connection there is now"
        )
    );

    // Proposed on the connection there is now: applied, once.
    let fresh = propose(&app, &key, 3_000).await;
    app.approve_card(&owner.token, &fresh).await;
    assert_eq!(budget_writes(&google), 3);
    assert_eq!(google.budget_micros(SECOND, SEARCH), Some(30_000_000));
}

per_backend!(approvals_land_on_the_account_they_were_proposed_for);
