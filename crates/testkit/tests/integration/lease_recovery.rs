//! After a crash, work is taken over once its holder's heartbeat is dead, not when its long lease
//! expires (issue 35): an approved budget change interrupted while the network was asked is
//! applied by the restarted service within 90 seconds, with one write; a job pass killed
//! mid-job does not hold the job; a sync run killed mid-way runs again; a retry that finds the
//! target already set says so and keeps the budget the change started from; and a holder that
//! is still alive (beating its heartbeat) is never robbed, however long it takes.
//!
//! A crash is `TestApp::restart_with` after the work in flight was dropped (the request's
//! connection cut, the job pass's task aborted): a new instance on the same database and the
//! same manual clock. Heartbeats follow that clock: a live holder beats as soon as the clock
//! has moved 15 seconds, a dead one never again.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use payback_connectors::{BudgetChange, BudgetOutcome, BudgetWriter, SourceFuture};
use payback_domain::connection::ConnectionKind;
use payback_domain::policy::Network as AdNetwork;
use payback_domain::{Clock, Timestamp};
use payback_server::AppState;
use payback_server::jobs::{self, Job};
use payback_server::services::sync;
use payback_store::budget_applications;
use payback_testkit::{Backend, FakeSource, Session, TestApp, per_backend};
use serde_json::{Value, json};
use tokio::sync::Notify;

const OWNER: &str = "owner@example.com";
/// The job loop's default interval: the tests move the clock by it between passes.
const PASS_MS: i64 = 30_000;
/// What the issue allows between a crash and the work done again.
const RECOVERY_MS: i64 = 90_000;

/// How the network answers one request.
#[derive(Clone)]
enum Step {
    /// Reads the budget, writes the target when it differs, and answers.
    Answer,
    /// Fails before writing; a later try may succeed.
    FailTransient,
    /// The process dies while asking: nothing written, no answer.
    HangBeforeWrite,
    /// The process dies after the write landed, before the answer came back.
    WriteThenHang,
    /// Waits until the test lets it go, then answers: a slow network under a live holder.
    Gated(Arc<Notify>),
}

#[derive(Default)]
struct Budget {
    /// The campaign's daily budget as the network holds it.
    cents: i64,
    /// Every write the network took (the budget it set).
    writes: Vec<i64>,
    calls: usize,
    /// Answers in order; once used up, every request is answered.
    steps: VecDeque<Step>,
}

/// One campaign's budget at an ad network, written the way the real writers do: the live
/// budget read first, nothing sent when it is already at the target.
#[derive(Clone, Default)]
struct FakeNetwork(Arc<Mutex<Budget>>);

impl FakeNetwork {
    fn at(cents: i64, steps: impl IntoIterator<Item = Step>) -> Self {
        Self(Arc::new(Mutex::new(Budget {
            cents,
            steps: steps.into_iter().collect(),
            ..Budget::default()
        })))
    }

    fn calls(&self) -> usize {
        self.0.lock().unwrap().calls
    }

    fn writes(&self) -> Vec<i64> {
        self.0.lock().unwrap().writes.clone()
    }

    fn cents(&self) -> i64 {
        self.0.lock().unwrap().cents
    }

    /// Reads, and writes `to` unless the budget holds it already: what was read and is now.
    fn read_and_write(&self, to: i64) -> (i64, i64) {
        let mut budget = self.0.lock().unwrap();
        let before = budget.cents;
        if before != to {
            budget.cents = to;
            budget.writes.push(to);
        }
        (before, to)
    }

    async fn wait_for_calls(&self, calls: usize) {
        for _ in 0..500 {
            if self.calls() >= calls {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("the network was not asked {calls} times");
    }
}

impl BudgetWriter for FakeNetwork {
    fn apply_budget<'a>(&'a self, change: &'a BudgetChange) -> SourceFuture<'a, BudgetOutcome> {
        let step = {
            let mut budget = self.0.lock().unwrap();
            budget.calls += 1;
            budget.steps.pop_front().unwrap_or(Step::Answer)
        };
        let to = change.to_cents;
        Box::pin(async move {
            let applied = |(before, after): (i64, i64)| BudgetOutcome::Applied {
                campaign_id: "cmp-1".to_owned(),
                before_cents: before,
                after_cents: after,
            };
            match step {
                Step::Answer => Ok(applied(self.read_and_write(to))),
                Step::FailTransient => Ok(BudgetOutcome::Failed {
                    error: "Google Ads answered 503".to_owned(),
                    transient: true,
                }),
                Step::HangBeforeWrite => std::future::pending().await,
                Step::WriteThenHang => {
                    self.read_and_write(to);
                    std::future::pending().await
                }
                Step::Gated(gate) => {
                    gate.notified().await;
                    Ok(applied(self.read_and_write(to)))
                }
            }
        })
    }
}

/// The Google Ads source of the tests: reads nothing, changes budgets at [`FakeNetwork`].
fn register(state: &mut AppState, network: &FakeNetwork) {
    let source = FakeSource::new(ConnectionKind::SearchAds).with_budget_writer(network.clone());
    state
        .sources
        .register(ConnectionKind::SearchAds, Arc::new(source));
}

async fn spawn(backend: Backend, network: &FakeNetwork) -> TestApp {
    let network = network.clone();
    TestApp::spawn_custom(backend, |_| {}, move |state| register(state, &network)).await
}

/// The owner, with a product `shop` connected to Google Ads, and an agent's key.
async fn founder(app: &TestApp) -> (Session, String) {
    let owner = app.signup_verified(OWNER).await;
    app.create_product(&owner.token, "shop").await;
    let key = app.api_key(&owner).await;
    app.connect_ad_network(&owner, "shop", AdNetwork::Google)
        .await;
    (owner, key)
}

/// The agent proposes 10.00 -> 33.00 USD a day on campaign `cmp-1`; answers the card id.
async fn propose(app: &TestApp, key: &str) -> String {
    let body = json!({
        "network": "google",
        "campaign_id": "cmp-1",
        "from_cents": 1_000,
        "to_cents": 3_300,
        "rationale": "CAC on search is well under target; room to grow.",
    });
    app.raise_proposal(key, "shop", body).await
}

/// The owner approves the card in a request that is then cut while the network is being asked
/// (the process dies): the approval has committed, the change's lease is held.
async fn approve_then_crash(app: &TestApp, owner: &Session, id: &str, network: &FakeNetwork) {
    let in_flight = app.approve_in_background(&owner.token, id);
    network.wait_for_calls(1).await;
    in_flight.abort();
}

async fn restart(app: TestApp, network: &FakeNetwork) -> TestApp {
    let network = network.clone();
    app.restart_with(move |state| register(state, &network))
        .await
}

/// One pass of the job loop on `state`; answers the jobs that ran.
async fn job_pass(state: &AppState, runner: &str) -> Vec<Job> {
    let reports = jobs::run_due(state, runner).await.unwrap();
    for report in &reports {
        assert!(report.outcome.is_ok(), "{report:?}");
    }
    reports.into_iter().map(|report| report.job).collect()
}

async fn change(app: &TestApp, id: &str) -> budget_applications::BudgetApplication {
    budget_applications::find(&app.state.store, id)
        .await
        .unwrap()
        .expect("the approved change")
}

async fn card_history(app: &TestApp, token: &str, id: &str) -> Vec<Value> {
    app.history_where(token, |event| event["subject_ref"] == id)
        .await
}

fn actions(events: &[Value]) -> Vec<&str> {
    events
        .iter()
        .map(|event| event["action"].as_str().unwrap())
        .collect()
}

/// Waits (real time) until the change's heartbeat reads `at`: its live holder beat.
async fn beaten_at(app: &TestApp, id: &str, at: Timestamp) {
    for _ in 0..200 {
        if change(app, id).await.heartbeat_at == Some(at.millis()) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("the live holder did not beat at {at:?}");
}

async fn a_change_whose_holder_crashed_is_applied_within_90_seconds(backend: Backend) {
    let network = FakeNetwork::at(1_000, [Step::HangBeforeWrite]);
    let app = spawn(backend, &network).await;
    let (owner, key) = founder(&app).await;
    let id = propose(&app, &key).await;
    approve_then_crash(&app, &owner, &id, &network).await;
    let crashed_at = app.clock.now();
    let app = restart(app, &network).await;

    // The new instance's first pass: the dead holder's heartbeat is fresh, so nobody asks the
    // network a second time yet.
    job_pass(&app.state, "instance-b").await;
    assert_eq!(network.calls(), 1);
    let held = change(&app, &id).await;
    assert_eq!(held.state.as_str(), "applying");
    assert_eq!(held.heartbeat_at, Some(crashed_at.millis()));
    // Half a minute on: a live holder would have beaten by now; the crashed one did not.
    app.clock.advance(PASS_MS);
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(
        change(&app, &id).await.heartbeat_at,
        Some(crashed_at.millis())
    );
    job_pass(&app.state, "instance-b").await;
    assert_eq!(network.calls(), 1, "taken before the heartbeat was dead");
    // The next pass, a minute after the crash: the heartbeat is dead and the change applied.
    app.clock.advance(PASS_MS);
    job_pass(&app.state, "instance-b").await;
    assert!(app.clock.now().millis() - crashed_at.millis() < RECOVERY_MS);
    assert_eq!(network.calls(), 2);
    assert_eq!(network.writes(), vec![3_300], "exactly one write");
    let shown = app.approved_execution(&owner.token, &id).await;
    assert_eq!(shown["state"], "applied");
    assert_eq!(shown["attempts"], 2);
    assert_eq!(shown["before_cents"], 1_000);
    assert_eq!(shown["after_cents"], 3_300);
    assert_eq!(
        shown["detail"],
        "daily budget of campaign cmp-1 changed from 10.00 USD to 33.00 USD"
    );
    let events = card_history(&app, &owner.token, &id).await;
    assert_eq!(
        actions(&events),
        vec!["proposal.create", "card.approve", "spend.applied"]
    );
    // Applied once: later passes ask nothing.
    app.clock.advance(10 * PASS_MS);
    job_pass(&app.state, "instance-b").await;
    assert_eq!(network.calls(), 2);
}

per_backend!(a_change_whose_holder_crashed_is_applied_within_90_seconds);

async fn a_job_pass_killed_mid_job_holds_the_job_under_a_minute(backend: Backend) {
    // The approval's own try fails; the job's retry is where the process dies.
    let network = FakeNetwork::at(1_000, [Step::FailTransient, Step::HangBeforeWrite]);
    let app = spawn(backend, &network).await;
    let (owner, key) = founder(&app).await;
    let id = propose(&app, &key).await;
    app.approve_card(&owner.token, &id).await;
    assert_eq!(network.calls(), 1);
    // The retry is due after 30 s; the job pass taking it dies while the network is asked.
    app.clock.advance(PASS_MS);
    let state = app.state.clone();
    let pass = tokio::spawn(async move { jobs::run_due(&state, "instance-a").await });
    network.wait_for_calls(2).await;
    pass.abort();
    let crashed_at = app.clock.now();
    let app = restart(app, &network).await;

    // The job is leased by the dead pass: the new instance's passes skip it while its
    // heartbeat lives, and run the other jobs.
    let ran = job_pass(&app.state, "instance-b").await;
    assert!(!ran.contains(&Job::ApplyBudgets), "{ran:?}");
    app.clock.advance(PASS_MS);
    let ran = job_pass(&app.state, "instance-b").await;
    assert!(!ran.contains(&Job::ApplyBudgets), "{ran:?}");
    assert_eq!(network.calls(), 2);
    // A minute after the crash the heartbeat is dead: the job runs and applies the change.
    app.clock.advance(PASS_MS);
    let ran = job_pass(&app.state, "instance-b").await;
    assert!(ran.contains(&Job::ApplyBudgets), "{ran:?}");
    // The other jobs were never held up.
    assert!(ran.contains(&Job::ExpireCards), "{ran:?}");
    assert!(app.clock.now().millis() - crashed_at.millis() < RECOVERY_MS);
    assert_eq!(network.calls(), 3);
    assert_eq!(network.writes(), vec![3_300]);
    assert_eq!(
        app.approved_execution(&owner.token, &id).await["state"],
        "applied"
    );
    // The dead pass's run was taken over and finished by the new instance.
    let runs = payback_store::jobs::runs(&app.state.store).await.unwrap();
    let applies: Vec<_> = runs
        .iter()
        .filter(|run| run.job == Job::ApplyBudgets.name())
        .collect();
    let taken_over = applies
        .iter()
        .find(|run| run.detail.as_deref() == Some("1 budget change(s) due, 1 tried"))
        .expect("the run that applied it");
    assert_eq!(taken_over.runner, "instance-b");
    assert_eq!(taken_over.ok, Some(true));
    let leases = payback_store::jobs::leases(&app.state.store).await.unwrap();
    let lease = leases
        .iter()
        .find(|lease| lease.job == Job::ApplyBudgets.name())
        .unwrap();
    assert_eq!(lease.lease_owner, None);
    assert_eq!(lease.heartbeat_at, None);
}

per_backend!(a_job_pass_killed_mid_job_holds_the_job_under_a_minute);

async fn a_sync_run_killed_midway_runs_again_within_90_seconds(backend: Backend) {
    let fake = FakeSource::new(ConnectionKind::SearchConsole);
    // The first read never ends before the process dies.
    fake.delay_reads(Duration::from_secs(3_600));
    let registered = fake.clone();
    let app = TestApp::spawn_custom(
        backend,
        |_| {},
        move |state| {
            state
                .sources
                .register(registered.kind(), Arc::new(registered))
        },
    )
    .await;
    let owner = app.signup_verified(OWNER).await;
    let product = app.create_product(&owner.token, "shop").await;
    let product_id = product["id"].as_str().unwrap();
    let config = json!({});
    app.insert_connection(
        &owner.account_id,
        product_id,
        ConnectionKind::SearchConsole,
        &config,
        false,
    )
    .await;
    let state = app.state.clone();
    let now = app.clock.now();
    let pass = tokio::spawn(async move { sync::run_due(&state, now).await });
    for _ in 0..500 {
        if !fake.windows().is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(fake.windows().len(), 1);
    pass.abort();
    let crashed_at = app.clock.now();
    fake.delay_reads(Duration::ZERO);
    let registered = fake.clone();
    let app = app
        .restart_with(move |state| {
            state
                .sources
                .register(registered.kind(), Arc::new(registered))
        })
        .await;

    let shown = connection(&app, &owner.token).await;
    assert_eq!(shown["syncing"], true);
    assert_eq!(shown["sync_phase"], "reading");
    assert_eq!(shown["backfill_days"], 0);
    assert_eq!(sync_pass(&app).await, "0 sync runs");
    app.clock.advance(PASS_MS);
    assert_eq!(connection(&app, &owner.token).await["syncing"], true);
    assert_eq!(sync_pass(&app).await, "0 sync runs");
    // 45 seconds without a beat: the run is dead, and says so.
    app.clock.advance(15_000);
    let shown = connection(&app, &owner.token).await;
    assert_eq!(shown["syncing"], false);
    assert_eq!(shown["sync_phase"], Value::Null);
    // The next pass runs it again.
    app.clock.advance(15_000);
    assert_eq!(sync_pass(&app).await, "1 sync runs");
    assert!(app.clock.now().millis() - crashed_at.millis() < RECOVERY_MS);
    assert_eq!(fake.windows().len(), 2);
    let shown = connection(&app, &owner.token).await;
    assert_eq!(shown["syncing"], false);
    assert_eq!(shown["status"], "active");
    assert_eq!(shown["backfill_days"], 30);
    let owners: Vec<(Option<String>, Option<i64>)> = app
        .sql_rows(
            "SELECT sync_owner, sync_heartbeat_at FROM connections WHERE product_id = $1",
            &[product_id.into()],
        )
        .await;
    assert_eq!(owners, vec![(None, None)]);
}

per_backend!(a_sync_run_killed_midway_runs_again_within_90_seconds);

async fn connection(app: &TestApp, token: &str) -> Value {
    let list = app.get("/connections", Some(token)).await;
    list.expect(200).as_array().unwrap()[0].clone()
}

async fn sync_pass(app: &TestApp) -> String {
    sync::run_due(&app.state, app.clock.now()).await.unwrap()
}

async fn a_retry_that_finds_the_target_set_keeps_the_true_before(backend: Backend) {
    // The write lands, then the process dies before the answer is recorded.
    let network = FakeNetwork::at(1_000, [Step::WriteThenHang]);
    let app = spawn(backend, &network).await;
    let (owner, key) = founder(&app).await;
    let id = propose(&app, &key).await;
    approve_then_crash(&app, &owner, &id, &network).await;
    assert_eq!(network.cents(), 3_300);
    let app = restart(app, &network).await;
    // The first attempt recorded where the change started.
    assert_eq!(change(&app, &id).await.before_cents, Some(1_000));

    app.clock.advance(2 * PASS_MS);
    job_pass(&app.state, "instance-b").await;
    // The retry read the target in place and sent nothing: one write in all.
    assert_eq!(network.calls(), 2);
    assert_eq!(network.writes(), vec![3_300]);
    let line = "daily budget of campaign cmp-1 already at 33.00 USD (changed from 10.00 USD; \
                the earlier attempt had landed)";
    let shown = app.approved_execution(&owner.token, &id).await;
    assert_eq!(shown["state"], "applied");
    assert_eq!(shown["already_at_target"], true);
    assert_eq!(shown["before_cents"], 1_000);
    assert_eq!(shown["after_cents"], 3_300);
    assert_eq!(shown["detail"], line);
    let events = card_history(&app, &owner.token, &id).await;
    assert_eq!(
        actions(&events),
        vec!["proposal.create", "card.approve", "spend.applied"]
    );
    let applied = &events[2]["payload"];
    assert_eq!(applied["detail"], line);
    assert_eq!(applied["before_cents"], 1_000);
    let policy = app.get("/policy", Some(&key)).await.expect(200).clone();
    assert_eq!(policy["budgets"][0]["daily_cents"], 3_300);
    assert_eq!(policy["budgets"][0]["applied"], true);
}

per_backend!(a_retry_that_finds_the_target_set_keeps_the_true_before);

async fn a_live_holder_is_never_robbed(backend: Backend) {
    let gate = Arc::new(Notify::new());
    let network = FakeNetwork::at(1_000, [Step::Gated(Arc::clone(&gate))]);
    let app = spawn(backend, &network).await;
    // A second instance on the same database and clock.
    let mut other =
        payback_server::build_state((*app.state.config).clone(), Arc::new(app.clock.clone()))
            .await
            .unwrap();
    register(&mut other, &network);
    assert_ne!(other.instance_id, app.state.instance_id);
    let (owner, key) = founder(&app).await;
    let id = propose(&app, &key).await;

    // The approving request holds the change while the network takes its time.
    let in_flight = app.approve_in_background(&owner.token, &id);
    network.wait_for_calls(1).await;
    let leased_at = app.clock.now();
    // Two minutes of passes on the other instance, the clock moving less than the staleness
    // between beats: the holder beats each time, and nobody else asks the network.
    for _ in 0..4 {
        app.clock.advance(PASS_MS);
        beaten_at(&app, &id, app.clock.now()).await;
        let ran = job_pass(&other, "instance-b").await;
        assert!(ran.contains(&Job::ApplyBudgets), "{ran:?}");
        assert_eq!(network.calls(), 1);
    }
    assert!(app.clock.now().millis() - leased_at.millis() > RECOVERY_MS);
    // The network answers: the holder books it, once.
    gate.notify_one();
    let reply = in_flight.await.unwrap().unwrap();
    assert_eq!(reply.status(), 200);
    job_pass(&other, "instance-b").await;
    assert_eq!(network.calls(), 1);
    assert_eq!(network.writes(), vec![3_300]);
    let shown = app.approved_execution(&owner.token, &id).await;
    assert_eq!(shown["state"], "applied");
    assert_eq!(shown["attempts"], 1);
    let held = change(&app, &id).await;
    assert_eq!(held.heartbeat_at, None);
    let events = card_history(&app, &owner.token, &id).await;
    assert_eq!(
        actions(&events),
        vec!["proposal.create", "card.approve", "spend.applied"]
    );
    other.store.close().await;
}

per_backend!(a_live_holder_is_never_robbed);
