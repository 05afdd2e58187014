//! Identity stitching inside a batch: which anonymous ids are already linked to a user, and
//! the merge of an anonymous identity's rows into its user's when a batch links them; with
//! `emails.rs`, who holds each email the batch names, and the merge of an email-only identity
//! into the identity that claims its email.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use payback_domain::Timestamp;

use super::emails::Claims;
use super::moves::{MoveTo, StoredProfile, move_identities};
use super::report_days::Contributions;
use super::rollups::{ProfileDelta, upsert_profiles};
use super::{CHUNK, EventRecord, anonymous_identity, user_identity};
use crate::Tx;
use crate::error::StoreResult;

/// The stored links of these anonymous ids. On PostgreSQL the ids go as one array joined
/// through `unnest`: a long `IN ($2, ..., $n)` list under a generic plan was evaluated row by
/// row against a sequential scan (a second per 500-id batch once the table held a few hundred
/// thousand links); the join probes the primary key once per id whatever the plan.
async fn known_links(
    tx: &mut Tx,
    product_id: &str,
    anonymous: &BTreeSet<&str>,
) -> StoreResult<HashMap<String, String>> {
    let ids: Vec<&str> = anonymous.iter().copied().collect();
    let mut links = HashMap::new();
    match tx {
        Tx::Postgres(conn) => {
            let rows: Vec<(String, String)> = sqlx::query_as(
                "SELECT l.anonymous_id, l.user_id FROM unnest($2::text[]) AS wanted(id) \
                 JOIN identity_links l ON l.product_id = $1 AND l.anonymous_id = wanted.id",
            )
            .bind(product_id)
            .bind(&ids)
            .fetch_all(&mut **conn)
            .await?;
            links.extend(rows);
        }
        Tx::Sqlite(conn) => {
            // SQLite turns an IN list into a probe of the primary key per id.
            for chunk in ids.chunks(CHUNK) {
                let mut query = sqlx::QueryBuilder::new(
                    "SELECT anonymous_id, user_id FROM identity_links WHERE product_id = ",
                );
                query.push_bind(product_id).push(" AND anonymous_id IN (");
                let mut list = query.separated(", ");
                for id in chunk {
                    list.push_bind(*id);
                }
                query.push(")");
                let rows: Vec<(String, String)> =
                    query.build_query_as().fetch_all(&mut **conn).await?;
                links.extend(rows);
            }
        }
    }
    Ok(links)
}

/// Who the batch's ids and emails are, once it is stitched.
#[derive(Debug, Default)]
pub(super) struct Stitched {
    /// Anonymous id -> user id, for every linked anonymous id of the batch.
    pub links: HashMap<String, String>,
    /// Email -> the identity an event with that email and neither id counts under, for every
    /// email of the batch.
    pub by_email: HashMap<String, String>,
}

/// Links anonymous ids the batch sees together with a user id, or with an email a user holds
/// (`emails.rs`), merging what the anonymous identity already had into the user's; records who
/// holds the batch's emails, merging an email-only identity into the identity that claims its
/// email. The events are taken in arrival order.
pub(super) async fn link_identities(
    tx: &mut Tx,
    product_id: &str,
    events: &[&EventRecord],
    now: Timestamp,
    recompute: &mut BTreeSet<String>,
    contributions: &mut Contributions,
) -> StoreResult<Stitched> {
    let mut anonymous: BTreeSet<&str> = events
        .iter()
        .filter_map(|e| e.anonymous_id.as_deref())
        .collect();
    let emails: BTreeSet<&str> = events.iter().filter_map(|e| e.email.as_deref()).collect();
    // Batches without emails (most browser traffic) pay nothing for them.
    let (mut claims, holding) = if emails.is_empty() {
        (None, Vec::new())
    } else {
        let (claims, holding) = Claims::load(tx, product_id, &emails).await?;
        (Some(claims), holding)
    };
    anonymous.extend(holding.iter().map(String::as_str));
    if anonymous.is_empty() && claims.is_none() {
        return Ok(Stitched::default());
    }
    let mut links: HashMap<String, String> = if anonymous.is_empty() {
        HashMap::new()
    } else {
        known_links(tx, product_id, &anonymous).await?
    };
    let mut new_links: Vec<(String, String)> = Vec::new();
    let mut link = |anonymous: &str, user: &str, links: &mut HashMap<String, String>| {
        if !links.contains_key(anonymous) {
            links.insert(anonymous.to_owned(), user.to_owned());
            new_links.push((anonymous.to_owned(), user.to_owned()));
            recompute.insert(user_identity(user));
        }
    };
    for event in events {
        if let (Some(anonymous), Some(user)) = (&event.anonymous_id, &event.user_id) {
            link(anonymous, user, &mut links);
        }
        if let (Some(claims), Some(email)) = (claims.as_mut(), &event.email)
            && let Some((anonymous, user)) = claims.claim(event, email, &links)
        {
            link(&anonymous, &user, &mut links);
        }
    }
    for chunk in new_links.chunks(CHUNK) {
        let merging: Vec<String> = chunk
            .iter()
            .flat_map(|(anonymous, user)| [anonymous_identity(anonymous), user_identity(user)])
            .collect();
        contributions
            .take_out(tx, product_id, merging.iter().map(String::as_str))
            .await?;
        merge_anonymous_into_users(tx, product_id, chunk, now).await?;
    }
    let Some(claims) = claims else {
        return Ok(Stitched {
            links,
            by_email: HashMap::new(),
        });
    };
    claims.write(tx, product_id).await?;
    let claimed = claims.claimed_from_nobody(&links);
    for chunk in claimed.chunks(CHUNK) {
        let merging = chunk
            .iter()
            .flat_map(|(email_only, holder)| [email_only.as_str(), holder.as_str()]);
        contributions.take_out(tx, product_id, merging).await?;
        merge_email_identities(tx, product_id, chunk).await?;
        recompute.extend(chunk.iter().map(|(_, holder)| holder.clone()));
    }
    Ok(Stitched {
        by_email: claims.identities(&links),
        links,
    })
}

/// Records `links` (anonymous id, user id) and moves what the anonymous identities had (touches,
/// revenue rows, daily rows, profiles; not events, see `identity_sql.rs`) to their users, in a
/// fixed number of statements however many links the batch brings (`moves.rs`).
async fn merge_anonymous_into_users(
    tx: &mut Tx,
    product_id: &str,
    links: &[(String, String)],
    now: Timestamp,
) -> StoreResult<()> {
    on_tx!(tx, conn => {
        let mut query = sqlx::QueryBuilder::new("INSERT INTO identity_links (product_id, anonymous_id, user_id, linked_at) ");
        query.push_values(links, |mut row, (anonymous, user)| {
            row.push_bind(product_id).push_bind(anonymous).push_bind(user).push_bind(now.millis());
        });
        query.push(" ON CONFLICT (product_id, anonymous_id) DO NOTHING");
        query.build().execute(conn).await.map(|done| done.rows_affected())
    })?;
    let anonymous: Vec<String> = links
        .iter()
        .map(|(anonymous, _)| anonymous_identity(anonymous))
        .collect();
    let moved = move_identities(tx, product_id, &anonymous, MoveTo::LinkedUsers).await?;
    let user_of: HashMap<String, String> = links
        .iter()
        .map(|(anonymous, user)| (anonymous_identity(anonymous), user_identity(user)))
        .collect();
    absorb_profiles(tx, product_id, moved, &user_of).await
}

/// Moves what the email-only identities of `moves` (`e:<email>`, the identity it moves to) had
/// to their email's holder, recorded before in `email_identities`.
async fn merge_email_identities(
    tx: &mut Tx,
    product_id: &str,
    moves: &[(String, String)],
) -> StoreResult<()> {
    let identities: Vec<String> = moves.iter().map(|(from, _)| from.clone()).collect();
    let moved = move_identities(tx, product_id, &identities, MoveTo::EmailHolders).await?;
    let holder_of: HashMap<String, String> = moves.iter().cloned().collect();
    absorb_profiles(tx, product_id, moved, &holder_of).await
}

/// Merges the profiles taken off moved identities into those of the identities they moved to
/// (`target_of`).
async fn absorb_profiles(
    tx: &mut Tx,
    product_id: &str,
    moved: Vec<StoredProfile>,
    target_of: &HashMap<String, String>,
) -> StoreResult<()> {
    let mut deltas: BTreeMap<String, ProfileDelta> = BTreeMap::new();
    for stored in moved {
        let Some(target) = target_of.get(&stored.identity) else {
            continue;
        };
        let delta = ProfileDelta {
            first_seen_at: stored.first_seen_at,
            last_seen_at: stored.last_seen_at.unwrap_or(stored.first_seen_at),
            first_touch: stored.first_touch_at.zip(stored.first_channel),
            acquired_at: stored.acquired_at,
            revenue_cents: stored.revenue_cents,
        };
        match deltas.get_mut(target) {
            Some(existing) => existing.absorb(delta),
            None => {
                deltas.insert(target.clone(), delta);
            }
        }
    }
    upsert_profiles(tx, product_id, &deltas).await
}
