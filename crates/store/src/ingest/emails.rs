//! Emails as identity: which identity holds each email of a product (`email_identities`), what
//! a fold's events claim, and the identity an event known only by its email counts under.
//!
//! The rule (docs/numbers.md), applied to events in arrival order:
//! - the first identity to name an email holds it: a user (`u:`) for good; an anonymous id
//!   (`a:`, a visitor who left the email before signing in) until a user names it, when the
//!   visitor is linked to that user (a link like any other: first link wins);
//! - an anonymous id naming an email a user holds is linked to that user;
//! - a user naming an email another user holds changes nothing: the first user keeps it, and the
//!   email's `conflict_at` (the latest such event's time) lets the attribution report count it;
//! - an event with the email and neither id counts for the holder; while nobody holds it, for an
//!   identity of its own, `e:<email>`, whose rows move to the first identity that names it, as an
//!   anonymous identity's move to its user (`moves.rs`).
//!
//! A stored holder is the identity that claimed the email; a holding visitor later linked to a
//! user is read through `identity_links` (here, in `moves.rs` and in `identity_sql.rs`), so a
//! link never has to find the emails its anonymous id holds.

use std::collections::{BTreeSet, HashMap};

use super::{CHUNK, EventRecord, anonymous_identity, insert_verb, user_identity};
use crate::Tx;
use crate::error::StoreResult;

/// The identity of events known only by an email nobody holds yet.
pub(super) fn email_identity(email: &str) -> String {
    format!("e:{email}")
}

/// Who holds an email.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Holder {
    User(String),
    Anonymous(String),
    /// Only events with neither id named it: `e:<email>`.
    Nobody,
}

impl Holder {
    /// From a stored identity; `None` for a spelling the fold never writes.
    fn parse(identity: &str) -> Option<Holder> {
        match identity.split_at_checked(2)? {
            ("u:", user) => Some(Holder::User(user.to_owned())),
            ("a:", anonymous) => Some(Holder::Anonymous(anonymous.to_owned())),
            ("e:", _) => Some(Holder::Nobody),
            _ => None,
        }
    }

    fn identity(&self, email: &str) -> String {
        match self {
            Holder::User(user) => user_identity(user),
            Holder::Anonymous(anonymous) => anonymous_identity(anonymous),
            Holder::Nobody => email_identity(email),
        }
    }

    /// The holder now: a holding anonymous id that has been linked is its user.
    fn current(&self, links: &HashMap<String, String>) -> Holder {
        match self {
            Holder::Anonymous(anonymous) => links
                .get(anonymous)
                .map_or_else(|| self.clone(), |user| Holder::User(user.clone())),
            other => other.clone(),
        }
    }
}

/// The emails of a fold: their holders when the fold began, and as its events change them.
pub(super) struct Claims {
    /// The stored holders of the fold's emails (emails nobody named before are absent).
    stored: HashMap<String, Holder>,
    /// Every email of the fold, with its holder after the events so far.
    holders: HashMap<String, Holder>,
    /// Emails a user named while another user held them, with the latest such event's time.
    conflicts: HashMap<String, i64>,
}

impl Claims {
    /// The stored holders of `emails`, and the anonymous ids among them (whose links the fold
    /// must know to read them).
    pub(super) async fn load(
        tx: &mut Tx,
        product_id: &str,
        emails: &BTreeSet<&str>,
    ) -> StoreResult<(Claims, Vec<String>)> {
        let stored: HashMap<String, Holder> = stored_holders(tx, product_id, emails)
            .await?
            .into_iter()
            .filter_map(|(email, identity)| Some((email, Holder::parse(&identity)?)))
            .collect();
        let anonymous = stored
            .values()
            .filter_map(|holder| match holder {
                Holder::Anonymous(anonymous) => Some(anonymous.clone()),
                _ => None,
            })
            .collect();
        let claims = Claims {
            holders: stored.clone(),
            stored,
            conflicts: HashMap::new(),
        };
        Ok((claims, anonymous))
    }

    /// Applies one event naming `email` (the fold's events in arrival order, after the event's
    /// own anonymous-to-user link). Returns the link `(anonymous id, user id)` the email makes,
    /// if any: the caller records it as any other.
    pub(super) fn claim(
        &mut self,
        event: &EventRecord,
        email: &str,
        links: &HashMap<String, String>,
    ) -> Option<(String, String)> {
        let named_by = match (&event.user_id, &event.anonymous_id) {
            (Some(user), _) => Some(Holder::User(user.clone())),
            (None, Some(anonymous)) => Some(Holder::Anonymous(anonymous.clone()).current(links)),
            (None, None) => None,
        };
        let holder = self.holders.get(email).map(|holder| holder.current(links));
        match (named_by, holder) {
            (None, None) => {
                self.holders.insert(email.to_owned(), Holder::Nobody);
                None
            }
            (Some(named_by), None | Some(Holder::Nobody)) => {
                self.holders.insert(email.to_owned(), named_by);
                None
            }
            (Some(Holder::User(user)), Some(Holder::Anonymous(anonymous))) => {
                self.holders
                    .insert(email.to_owned(), Holder::User(user.clone()));
                Some((anonymous, user))
            }
            (Some(Holder::Anonymous(anonymous)), Some(Holder::User(user))) => {
                Some((anonymous, user))
            }
            (Some(Holder::User(user)), Some(Holder::User(holder))) if user != holder => {
                let at = event.occurred_at.millis();
                let latest = self.conflicts.entry(email.to_owned()).or_insert(at);
                *latest = (*latest).max(at);
                None
            }
            _ => None,
        }
    }

    /// Writes the emails whose holder changed or that gained a conflict.
    pub(super) async fn write(&self, tx: &mut Tx, product_id: &str) -> StoreResult<()> {
        let rows: Vec<(&str, String, Option<i64>)> = self
            .holders
            .iter()
            .filter(|(email, holder)| {
                self.stored.get(*email) != Some(holder) || self.conflicts.contains_key(*email)
            })
            .map(|(email, holder)| {
                let conflict = self.conflicts.get(email).copied();
                (email.as_str(), holder.identity(email), conflict)
            })
            .collect();
        let verb = insert_verb(tx);
        for chunk in rows.chunks(CHUNK) {
            on_tx!(tx, conn => {
                let mut query = sqlx::QueryBuilder::new(verb);
                query.push(" INTO email_identities (product_id, email, identity, conflict_at) ");
                query.push_values(chunk, |mut row, (email, identity, conflict_at)| {
                    row.push_bind(product_id)
                        .push_bind(*email)
                        .push_bind(identity)
                        .push_bind(*conflict_at);
                });
                query.push(
                    " ON CONFLICT (product_id, email) DO UPDATE SET identity = excluded.identity, \
                     conflict_at = CASE WHEN excluded.conflict_at IS NOT NULL AND (email_identities.conflict_at IS NULL \
                         OR excluded.conflict_at > email_identities.conflict_at) \
                         THEN excluded.conflict_at ELSE email_identities.conflict_at END",
                );
                query.build().execute(conn).await.map(|done| done.rows_affected())
            })?;
        }
        Ok(())
    }

    /// The `e:<email>` identities stored before this fold whose email someone now holds, each
    /// with the identity its rows move to.
    pub(super) fn claimed_from_nobody(
        &self,
        links: &HashMap<String, String>,
    ) -> Vec<(String, String)> {
        self.stored
            .iter()
            .filter(|(_, holder)| **holder == Holder::Nobody)
            .filter_map(|(email, _)| {
                let now = self.holders.get(email)?.current(links);
                (now != Holder::Nobody).then(|| (email_identity(email), now.identity(email)))
            })
            .collect()
    }

    /// Email -> the identity an event with that email and neither id counts under.
    pub(super) fn identities(&self, links: &HashMap<String, String>) -> HashMap<String, String> {
        self.holders
            .iter()
            .map(|(email, holder)| (email.clone(), holder.current(links).identity(email)))
            .collect()
    }
}

/// The stored holders of these emails: one probe of the primary key each, as `links.rs` reads
/// links (an array joined through `unnest` on PostgreSQL, `IN` lists on SQLite).
async fn stored_holders(
    tx: &mut Tx,
    product_id: &str,
    emails: &BTreeSet<&str>,
) -> StoreResult<Vec<(String, String)>> {
    let emails: Vec<&str> = emails.iter().copied().collect();
    let mut found = Vec::new();
    match tx {
        Tx::Postgres(conn) => {
            found = sqlx::query_as(
                "SELECT o.email, o.identity FROM unnest($2::text[]) AS wanted(email) \
                 JOIN email_identities o ON o.product_id = $1 AND o.email = wanted.email",
            )
            .bind(product_id)
            .bind(&emails)
            .fetch_all(&mut **conn)
            .await?;
        }
        Tx::Sqlite(conn) => {
            for chunk in emails.chunks(CHUNK) {
                let mut query = sqlx::QueryBuilder::new(
                    "SELECT email, identity FROM email_identities WHERE product_id = ",
                );
                query.push_bind(product_id).push(" AND email IN (");
                let mut list = query.separated(", ");
                for email in chunk {
                    list.push_bind(*email);
                }
                query.push(")");
                let rows: Vec<(String, String)> =
                    query.build_query_as().fetch_all(&mut **conn).await?;
                found.extend(rows);
            }
        }
    }
    Ok(found)
}
