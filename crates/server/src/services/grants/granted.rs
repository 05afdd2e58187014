//! What a grant provider asks of each kind it serves, supplied by the kind's plug-in
//! (`crate::kinds`): its scopes, the page's words for what it reads or changes, its policy
//! checks, what it discovers once the grant came through, and which choice of `select` makes
//! its connection. The provider keeps only what is the vendor's (client, exchange, revocation),
//! so a kind joins a grant by registering here, and the flow never names a kind.
//!
//! The registrations travel in the state's typed plug-in map ([`AppState::plugins`]), so the
//! state names no service.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use payback_domain::connection::ConnectionKind;
use payback_store::products::ProductRow;
use serde_json::Value;

use super::{Activation, GrantProvider, Selectable};
use crate::error::ApiResult;
use crate::services::acting::Caller;
use crate::services::searchco_account::ServiceAccountKind;
use crate::state::AppState;

/// A boxed future, as trait objects need.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// What the confirmation page says of a kind: what it is, and each thing Payback will read or
/// change with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Access {
    pub title: &'static str,
    pub lines: &'static [&'static str],
}

/// One kind as provider `P` serves it.
pub trait GrantedKind<P: GrantProvider>: Send + Sync + 'static {
    fn kind(&self) -> ConnectionKind;
    /// The scopes it needs at the provider.
    fn scopes(&self) -> &'static [&'static str];
    /// The confirmation page's words for it.
    fn access(&self) -> Access;
    /// The field of `select`'s body that chooses its entity (`ads_customer_id`).
    fn choice_field(&self) -> &'static str;
    /// Whether this instance offers it now (a kind the operator switches on); a start naming
    /// it otherwise is refused as not available, and a start naming no kind leaves it out.
    /// Offered by default.
    fn available(&self, _state: &AppState) -> bool {
        true
    }
    /// Its checks on the product before a flow starts and again at `select` (a policy wall);
    /// none by default.
    fn admit<'a>(
        &'a self,
        _state: &'a AppState,
        _caller: &'a Caller,
        _product: &'a ProductRow,
    ) -> BoxFuture<'a, ApiResult<()>> {
        Box::pin(async { Ok(()) })
    }
    /// What the grant reaches for it: an object merged into the status's `options`; `Err` is
    /// the reason shown to the person.
    fn discover<'a>(
        &'a self,
        state: &'a AppState,
        client: &'a P::Client,
        tokens: &'a P::Tokens,
    ) -> BoxFuture<'a, Result<Value, String>>;
    /// The kind on the search-engine grant's service-account path (`services::searchco_account`),
    /// when it may be connected that way; none by default.
    fn service_account(&self) -> Option<&dyn ServiceAccountKind> {
        None
    }
    /// The connection the person's choice makes (`None`: the only option, when there is one);
    /// 400 a choice the grant does not offer.
    fn activate<'a>(
        &'a self,
        state: &'a AppState,
        caller: &'a Caller,
        chosen: &'a Selectable,
        choice: Option<&'a str>,
    ) -> BoxFuture<'a, ApiResult<Activation>>;
}

/// The kinds provider `P` serves in this build, in the order they were registered (the order
/// discovery lists them in).
pub struct GrantedKinds<P: GrantProvider>(Vec<Arc<dyn GrantedKind<P>>>);

impl<P: GrantProvider> GrantedKinds<P> {
    pub fn new(kinds: Vec<Arc<dyn GrantedKind<P>>>) -> Self {
        Self(kinds)
    }

    /// The registered kinds of `P` in this state (none when nothing registered).
    pub fn of(state: &AppState) -> &[Arc<dyn GrantedKind<P>>] {
        state
            .plugins
            .get::<GrantedKinds<P>>()
            .map_or(&[], |kinds| kinds.0.as_slice())
    }

    /// The registration serving `kind`.
    pub fn find(state: &AppState, kind: ConnectionKind) -> Option<&Arc<dyn GrantedKind<P>>> {
        Self::of(state)
            .iter()
            .find(|granted| granted.kind() == kind)
    }
}

impl<P: GrantProvider> Clone for GrantedKinds<P> {
    fn clone(&self) -> Self {
        Self(self.0.clone())
    }
}

/// The confirmation page's words of every granted kind, whichever provider serves it (the page
/// is shown by provider word, not by type).
#[derive(Debug, Clone, Default)]
pub struct AccessWords(HashMap<ConnectionKind, Access>);

impl AccessWords {
    pub fn insert(&mut self, kind: ConnectionKind, access: Access) {
        self.0.insert(kind, access);
    }

    /// What the page says of `kind`; a kind nobody registered (never started) reads as a read.
    pub fn of(state: &AppState, kind: ConnectionKind) -> Access {
        state
            .plugins
            .get::<AccessWords>()
            .and_then(|words| words.0.get(&kind).copied())
            .unwrap_or(Access {
                title: kind.spec().label,
                lines: &["Read only."],
            })
    }
}

/// How each provider ends a grant it issued (the sweep of abandoned grants), by provider word.
pub type RevokeFn = for<'a> fn(&'a AppState, &'a Value) -> BoxFuture<'a, ApiResult<bool>>;

/// The providers' revocations, by provider word.
#[derive(Debug, Clone, Default)]
pub struct Revokers(HashMap<&'static str, RevokeFn>);

impl Revokers {
    /// Registers provider `P`'s revocation.
    pub fn insert<P: GrantProvider>(&mut self) {
        self.0.insert(P::PROVIDER.word, |state, secret| {
            Box::pin(P::revoke(state, secret))
        });
    }

    /// Ends a grant at the provider named `word`; `Ok(false)` for a provider nobody
    /// registered or a secret without a token.
    pub async fn revoke(state: &AppState, word: &str, secret: &Value) -> ApiResult<bool> {
        let revoke = state
            .plugins
            .get::<Revokers>()
            .and_then(|revokers| revokers.0.get(word).copied());
        match revoke {
            Some(revoke) => revoke(state, secret).await,
            None => Ok(false),
        }
    }
}
