//! A source whose reads the test writes, registered through the same registry as the real
//! kinds: the real sync run, batch writer, store and reports handle what it answers. For kinds
//! whose connector has not arrived yet (the ad networks), and for batch parts no real kind
//! produces today.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use payback_connectors::{
    BudgetWriter, ConnectorError, PageSink, Revocation, Source, SourceFuture, SyncOutput,
    SyncWindow,
};
use payback_domain::Clock;
use payback_domain::connection::ConnectionKind;
use payback_server::AppState;
use payback_server::state::{OpenFuture, OpenSource};
use payback_store::connections::ConnectionRow;
use payback_store::products::ProductRow;

use super::lock;

type Answer = Box<dyn FnMut(SyncWindow) -> SyncOutput + Send>;

#[derive(Default)]
struct Script {
    answer: Option<Answer>,
    windows: Vec<SyncWindow>,
    disconnects: usize,
    /// How long each read takes, and the error it ends with (`None`: it answers).
    delay: Duration,
    failure: Option<String>,
    /// Reads under way now, the most there ever were at once, and each finished read's start
    /// and end.
    in_flight: usize,
    most_in_flight: usize,
    spans: Vec<(Instant, Instant)>,
}

/// Answers every read with what the test's closure makes of the window, and remembers each
/// window and each disconnect. Clones share one script.
#[derive(Clone)]
pub struct FakeSource {
    kind: ConnectionKind,
    script: Arc<Mutex<Script>>,
    budgets: Option<Arc<dyn BudgetWriter>>,
}

impl FakeSource {
    /// A fake of `kind`, reading nothing until [`Self::answer`] says what.
    pub fn new(kind: ConnectionKind) -> Self {
        Self {
            kind,
            script: Arc::default(),
            budgets: None,
        }
    }

    /// The same source, changing budgets through `budgets` (an ad network's kind).
    pub fn with_budgets(self, budgets: crate::RecordingBudgets) -> Self {
        self.with_budget_writer(budgets)
    }

    /// The same source, changing budgets through `writer`: a test's own fake network, when
    /// [`crate::RecordingBudgets`] cannot play what the test needs (a write that never answers,
    /// a network the test holds back).
    pub fn with_budget_writer(mut self, writer: impl BudgetWriter + 'static) -> Self {
        self.budgets = Some(Arc::new(writer));
        self
    }

    pub fn kind(&self) -> ConnectionKind {
        self.kind
    }

    /// What every read answers from now on.
    pub fn answer(&self, answer: impl FnMut(SyncWindow) -> SyncOutput + Send + 'static) {
        lock(&self.script).answer = Some(Box::new(answer));
    }

    /// The windows read so far, in order.
    pub fn windows(&self) -> Vec<SyncWindow> {
        lock(&self.script).windows.clone()
    }

    /// Every read takes `delay` from now on (a slow vendor).
    pub fn delay_reads(&self, delay: Duration) {
        lock(&self.script).delay = delay;
    }

    /// Every read fails with `message` from now on (a vendor that cannot be reached).
    pub fn fail_reads(&self, message: &str) {
        lock(&self.script).failure = Some(message.to_owned());
    }

    /// The most reads that were under way at once.
    pub fn most_in_flight(&self) -> usize {
        lock(&self.script).most_in_flight
    }

    /// When each finished read started and ended, in the order they ended.
    pub fn spans(&self) -> Vec<(Instant, Instant)> {
        lock(&self.script).spans.clone()
    }

    /// How many times a disconnect asked it to revoke its grant.
    pub fn disconnects(&self) -> usize {
        lock(&self.script).disconnects
    }
}

impl Source for FakeSource {
    fn test(&self) -> SourceFuture<'_, String> {
        let line = format!("fake {} answers", self.kind);
        Box::pin(async move { Ok(line) })
    }

    fn sync<'a>(
        &'a self,
        window: SyncWindow,
        _pages: &'a mut dyn PageSink,
    ) -> SourceFuture<'a, SyncOutput> {
        let started = Instant::now();
        let mut script = lock(&self.script);
        script.windows.push(window);
        script.in_flight += 1;
        script.most_in_flight = script.most_in_flight.max(script.in_flight);
        let output = script
            .answer
            .as_mut()
            .map(|answer| answer(window))
            .unwrap_or_default();
        let (delay, failure) = (script.delay, script.failure.clone());
        drop(script);
        let shared = Arc::clone(&self.script);
        Box::pin(async move {
            if !delay.is_zero() {
                tokio::time::sleep(delay).await;
            }
            let mut script = lock(&shared);
            script.in_flight -= 1;
            script.spans.push((started, Instant::now()));
            match failure {
                Some(message) => Err(ConnectorError::Unreachable(message)),
                None => Ok(output),
            }
        })
    }

    fn disconnect(&self) -> SourceFuture<'_, Revocation> {
        lock(&self.script).disconnects += 1;
        Box::pin(async { Ok(Revocation::Revoked) })
    }

    fn budgets(&self) -> Option<&dyn BudgetWriter> {
        self.budgets.as_deref()
    }
}

impl OpenSource for FakeSource {
    fn open<'a>(
        &'a self,
        _state: &'a AppState,
        _product: &'a ProductRow,
        _row: &'a ConnectionRow,
    ) -> OpenFuture<'a> {
        let source = self.clone();
        Box::pin(async move { Ok(Box::new(source) as Box<dyn Source>) })
    }
}

impl crate::TestApp {
    /// Spawns the service with `budgets` changing budgets on `network`: a [`FakeSource`] of the
    /// kind whose row changes that network's budgets. A product reaches it once it has a
    /// connection of that kind ([`Self::connect_ad_network`]).
    pub async fn spawn_with_budgets(
        backend: crate::Backend,
        network: payback_domain::policy::Network,
        budgets: crate::RecordingBudgets,
    ) -> Self {
        let fake = FakeSource::new(budget_kind(network)).with_budgets(budgets);
        Self::spawn_with_source(backend, fake).await
    }

    /// Gives `slug` (owned by `owner`) an active connection of the kind that changes budgets
    /// on `network`; answers its id.
    pub async fn connect_ad_network(
        &self,
        owner: &crate::Session,
        slug: &str,
        network: payback_domain::policy::Network,
    ) -> String {
        let scope = payback_store::AccountScope::trusted(owner.account_id.clone());
        let product = payback_store::products::find_by_slug(&self.state.store, &scope, slug)
            .await
            .expect("product lookup")
            .expect("the owner's product");
        let product_id = product.id.as_str();
        let config = serde_json::json!({});
        self.insert_connection(
            &owner.account_id,
            product_id,
            budget_kind(network),
            &config,
            true,
        )
        .await
    }

    /// Spawns the service with `fake` reading its kind, registered like a real connector.
    pub async fn spawn_with_source(backend: crate::Backend, fake: FakeSource) -> Self {
        Self::spawn_custom(
            backend,
            |_| {},
            move |state| state.sources.register(fake.kind(), Arc::new(fake)),
        )
        .await
    }

    /// Spawns the service with each of `fakes` reading its kind (one fake per kind).
    pub async fn spawn_with_sources(backend: crate::Backend, fakes: Vec<FakeSource>) -> Self {
        Self::spawn_custom(
            backend,
            |_| {},
            move |state| {
                for fake in fakes {
                    state.sources.register(fake.kind(), Arc::new(fake));
                }
            },
        )
        .await
    }

    /// Stores an active connection of `kind` for the product, due at once (the connect routes
    /// of kinds whose connector has not arrived do not exist yet). With `credential`, it holds
    /// a sealed credential of its own (bytes no one opens: a fake reads without one), so a
    /// disconnect deletes it. Answers the connection id.
    pub async fn insert_connection(
        &self,
        account_id: &str,
        product_id: &str,
        kind: ConnectionKind,
        config: &serde_json::Value,
        credential: bool,
    ) -> String {
        use payback_store::connections::{self as store, NewConnection, SealedCredential};
        let scope = payback_store::AccountScope::trusted(account_id.to_owned());
        let now = self.clock.now();
        let mut tx = self.state.store.begin().await.expect("begin");
        let credential_id = if credential {
            let sealed = SealedCredential {
                nonce: vec![0; 24],
                ciphertext: vec![1; 16],
            };
            Some(
                store::insert_credential(&mut tx, &scope, &sealed, now)
                    .await
                    .expect("credential"),
            )
        } else {
            None
        };
        let config = config.to_string();
        let new = NewConnection {
            product_id,
            kind: kind.as_str(),
            status: "active",
            config: &config,
            credential_id: credential_id.as_deref(),
            event_maps: None,
        };
        let (id, _) = store::upsert(&mut tx, &scope, new, now)
            .await
            .expect("connection");
        tx.commit().await.expect("commit");
        id
    }
}

/// The kind whose row says it changes `network`'s budgets.
fn budget_kind(network: payback_domain::policy::Network) -> ConnectionKind {
    ConnectionKind::all()
        .find(|kind| {
            kind.spec().changes_budgets
                && kind.spend().map(|landing| landing.network) == Some(network.as_str())
        })
        .expect("the kind table has a budget-changing kind for every network")
}
