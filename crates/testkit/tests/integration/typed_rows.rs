//! Closed vocabularies are read typed at the store boundary (issue 21): a stored word outside
//! its vocabulary fails the read with a decode error of its column, on both backends, instead
//! of standing in for some default further in.

use std::fmt::Debug;

use payback_domain::card::{CardStatus, CardType, Proposer};
use payback_domain::connection::{ConnectionKind, ConnectionStatus, GrantFlowStatus};
use payback_domain::policy::{ApplicationState, Network};
use payback_domain::span::Span;
use payback_domain::{
    Actor, Clock, GateResult, HOUR_MS, MINUTE_MS, ProductStage, Stage, Timestamp, Via,
};
use payback_store::StoreError;
use payback_store::budget_applications::{self, NewApplication};
use payback_store::cards::{self, NewCard, TransitionFields};
use payback_store::connections::{self, NewConnection};
use payback_store::error::StoreResult;
use payback_store::grant_states::{self, NewGrantState};
use payback_store::history::{self, HistoryQuery, NewEvent};
use payback_store::reports::funnel;
use payback_store::{AccountScope, Visibility, products};
use payback_testkit::{TestApp, backend_tests};

const BOGUS: &str = "bogus";
const GRANT_STATE: &str = "grant-state-1";
const LEASE_MS: i64 = MINUTE_MS;

/// One typed column of one row: the row is the one whose `key_column` is `key`.
struct Column<'a> {
    table: &'a str,
    column: &'a str,
    key_column: &'a str,
    key: &'a str,
}

impl Column<'_> {
    /// Stores `word` in the column, as a row written by another version (or by hand) would.
    async fn store(&self, app: &TestApp, word: &str) {
        let sql = format!(
            "UPDATE {} SET {} = $1 WHERE {} = $2",
            self.table, self.column, self.key_column
        );
        assert_eq!(
            app.sql_execute(&sql, &[word.into(), self.key.into()]).await,
            1
        );
    }

    /// Spoils the column, runs `read` and puts the word it held back: the read must have
    /// failed decoding this column. (sqlx 0.9.0 drops the conversion's own message, the
    /// vocabulary's `UnknownWord`, on the way: its `try_from` derive boxes every conversion
    /// error as "unprintable", so the column is what the error can be checked for.)
    async fn refuses<T: Debug>(&self, app: &TestApp, read: impl AsyncFnOnce() -> StoreResult<T>) {
        let sql = format!(
            "SELECT {} FROM {} WHERE {} = $1",
            self.column, self.table, self.key_column
        );
        let good: String = app.sql_value(&sql, &[self.key.into()]).await;
        self.store(app, BOGUS).await;
        let outcome = read().await;
        self.store(app, &good).await;
        match outcome {
            Err(StoreError::Database(sqlx::Error::ColumnDecode { index, .. })) => {
                assert_eq!(index, self.column, "{}", self.table);
            }
            other => panic!(
                "{}.{} holding `{BOGUS}` read as {other:?}",
                self.table, self.column
            ),
        }
    }
}

/// The rows every typed table gets: a product with its gate verdict, its connection and grant,
/// a day's stage volume, and a proposal approved through the dashboard with its change to
/// apply and its history event.
async fn stored_words_outside_their_vocabulary_fail_the_read(app: TestApp) {
    let product_id = app.founder_product_id("shop").await;
    let account_id: String = app
        .sql_value(
            "SELECT account_id FROM products WHERE id = $1",
            &[product_id.as_str().into()],
        )
        .await;
    let scope = AccountScope::trusted(account_id.clone());
    let db = &app.state.store;
    let all = Visibility::AllAccounts;
    let now = app.clock.now();
    let actor = Actor::human("founder@example.com", Via::Dashboard);

    let mut tx = db.begin().await.unwrap();
    let proposal = NewCard {
        account_id: &account_id,
        product: Some((&product_id, "shop")),
        card_type: CardType::Proposal,
        headline: "Raise the Google budget",
        metric_line: "CAC $40",
        detail: None,
        proposed_by: Proposer::Keeper,
        action_spec: None,
        dedupe_key: None,
        expires_at: Some(now.plus_millis(HOUR_MS)),
    };
    let card = cards::insert(&mut tx, proposal, now)
        .await
        .unwrap()
        .unwrap();
    let approval = TransitionFields {
        resolved: Some((actor.who.as_str(), actor.via)),
        ..TransitionFields::default()
    };
    let card = cards::transition(&mut tx, &card, CardStatus::Approved, approval, now)
        .await
        .unwrap()
        .unwrap();
    let change = NewApplication {
        card_id: &card.id,
        account_id: &account_id,
        product_id: &product_id,
        network: Network::Google,
        campaign_id: None,
        from_cents: None,
        to_cents: 2_000,
        currency: "USD",
        approved_by: &actor.who,
        approved_via: actor.via,
    };
    budget_applications::insert(&mut tx, change, now)
        .await
        .unwrap();
    let event = NewEvent {
        product: Some((&product_id, "shop")),
        subject_ref: Some(&card.id),
        card_type: Some(card.card_type),
        ..NewEvent::new(&account_id, &actor, "card.approve")
    };
    history::record(&mut tx, event, now).await.unwrap();
    let grant = NewGrantState {
        state: GRANT_STATE,
        provider: "searchco",
        product_id: &product_id,
        kinds: "[]",
        client: "dashboard",
        started_by: &actor.who,
        started_via: actor.via,
        pkce_verifier: "verifier",
        expires_at: now.plus_millis(HOUR_MS),
        started_as: grant_states::StartedAs::Person,
        provider_url: "https://accounts.google.com/o/oauth2/v2/auth",
    };
    grant_states::insert(&mut tx, &scope, grant, now)
        .await
        .unwrap();
    let connection = NewConnection {
        product_id: &product_id,
        kind: ConnectionKind::Payments.as_str(),
        status: ConnectionStatus::Active.as_str(),
        config: "{}",
        credential_id: None,
        event_maps: None,
    };
    let (connection_id, _) = connections::upsert(&mut tx, &scope, connection, now)
        .await
        .unwrap();
    products::set_gate_result(
        &mut tx,
        &scope,
        &product_id,
        Some(GateResult::Pass.as_str()),
    )
    .await
    .unwrap();
    tx.commit().await.unwrap();
    let span = Span::days_ending(now, 1);
    let volume = "INSERT INTO aggregate_stage_days (product_id, day, stage, source, volume) \
         VALUES ($1, $2, 'lead', 'typed-rows', 3)";
    let day = span.last_day();
    assert_eq!(
        app.sql_execute(volume, &[product_id.as_str().into(), day.as_str().into()])
            .await,
        1
    );

    // The words the store wrote read back as the values written.
    let read = cards::find(db, &all, &card.id).await.unwrap().unwrap();
    assert_eq!(read.card_type, CardType::Proposal);
    assert_eq!(read.proposed_by, Proposer::Keeper);
    assert_eq!(read.status, CardStatus::Approved);
    assert_eq!(read.resolved_via, Some(Via::Dashboard));
    let history_query = HistoryQuery {
        visibility: &all,
        product_id: Some(&product_id),
        since: Timestamp::from_millis(0),
        limit: 10,
        include_account: false,
        include_logins: false,
    };
    let events = history::list(db, &history_query).await.unwrap();
    let approved = events
        .iter()
        .find(|event| event.action == "card.approve")
        .unwrap();
    assert_eq!(
        (approved.via, approved.card_type),
        (Via::Dashboard, Some(CardType::Proposal))
    );
    let started = grant_states::find(db, "searchco", GRANT_STATE)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (started.started_via, started.status),
        (Via::Dashboard, GrantFlowStatus::Pending)
    );
    let listed = connections::list(db, &all).await.unwrap();
    assert_eq!(
        (listed[0].kind, listed[0].status),
        (ConnectionKind::Payments, ConnectionStatus::Active)
    );
    let product = products::find_by_id(db, &scope, &product_id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (product.stage, product.gate_result),
        (ProductStage::Validation, Some(GateResult::Pass))
    );
    let volumes = funnel::daily_stage_volumes(db, &product_id, span)
        .await
        .unwrap();
    assert_eq!(
        volumes
            .iter()
            .map(|row| (row.stage, row.volume))
            .collect::<Vec<_>>(),
        [(Stage::Lead, 3)]
    );
    let applying = budget_applications::find(db, &card.id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (applying.network, applying.state),
        (Network::Google, ApplicationState::Applying)
    );

    let card_column = |column: &'static str| Column {
        table: "cards",
        column,
        key_column: "id",
        key: &card.id,
    };
    for column in ["card_type", "proposed_by", "status", "resolved_via"] {
        card_column(column)
            .refuses(&app, async || cards::find(db, &all, &card.id).await)
            .await;
    }
    let history_column = |column: &'static str| Column {
        table: "history",
        column,
        key_column: "subject_ref",
        key: &card.id,
    };
    for column in ["via", "card_type"] {
        history_column(column)
            .refuses(&app, async || history::list(db, &history_query).await)
            .await;
    }
    let grant_column = |column: &'static str| Column {
        table: "grant_states",
        column,
        key_column: "state",
        key: GRANT_STATE,
    };
    for column in ["started_via", "status"] {
        grant_column(column)
            .refuses(&app, async || {
                grant_states::find(db, "searchco", GRANT_STATE).await
            })
            .await;
    }
    let connection_column = |column: &'static str| Column {
        table: "connections",
        column,
        key_column: "id",
        key: &connection_id,
    };
    for column in ["kind", "status"] {
        connection_column(column)
            .refuses(&app, async || connections::list(db, &all).await)
            .await;
    }
    let product_column = |column: &'static str| Column {
        table: "products",
        column,
        key_column: "id",
        key: &product_id,
    };
    for column in ["stage", "gate_result"] {
        product_column(column)
            .refuses(&app, async || {
                products::find_by_id(db, &scope, &product_id).await
            })
            .await;
    }
    // The product has the one stored volume, so the key picks that row.
    let day_stage = Column {
        table: "aggregate_stage_days",
        column: "stage",
        key_column: "product_id",
        key: &product_id,
    };
    day_stage
        .refuses(&app, async || {
            funnel::daily_stage_volumes(db, &product_id, span).await
        })
        .await;

    // The change is read by finding it and by leasing it. A refused lease may have taken the
    // row all the same (the decode fails after the update), so each lease comes after the one
    // before it ends. A spoilt `state` is never `applying`, so only `find` reads it.
    let change_column = |column: &'static str| Column {
        table: "budget_applications",
        column,
        key_column: "card_id",
        key: &card.id,
    };
    for column in ["approved_via", "network", "state"] {
        change_column(column)
            .refuses(&app, async || budget_applications::find(db, &card.id).await)
            .await;
    }
    let mut later = now;
    for (runner, column) in [("runner-1", "approved_via"), ("runner-2", "network")] {
        change_column(column)
            .refuses(&app, async || {
                budget_applications::lease(db, &card.id, runner, later, LEASE_MS).await
            })
            .await;
        later = later.plus_millis(LEASE_MS);
    }
    let leased = budget_applications::lease(db, &card.id, "runner-3", later, LEASE_MS)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(leased.approved_via, Via::Dashboard);
}

backend_tests!(stored_words_outside_their_vocabulary_fail_the_read);
