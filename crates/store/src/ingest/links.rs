//! Identity stitching inside a batch: which anonymous ids are already linked to a user, and
//! the merge of an anonymous identity's rows into its user's when a batch links them.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use payback_domain::Timestamp;

use super::moves::move_to_users;
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

/// Links anonymous ids the batch sees together with a user id, merging what the anonymous
/// identity already had into the user's. Returns every link relevant to the batch.
pub(super) async fn link_identities(
    tx: &mut Tx,
    product_id: &str,
    events: &[&EventRecord],
    now: Timestamp,
    recompute: &mut BTreeSet<String>,
) -> StoreResult<HashMap<String, String>> {
    let anonymous: BTreeSet<&str> = events
        .iter()
        .filter_map(|e| e.anonymous_id.as_deref())
        .collect();
    if anonymous.is_empty() {
        return Ok(HashMap::new());
    }
    let mut links: HashMap<String, String> = known_links(tx, product_id, &anonymous).await?;
    let mut new_links: Vec<(String, String)> = Vec::new();
    for event in events {
        let (Some(anonymous), Some(user)) = (&event.anonymous_id, &event.user_id) else {
            continue;
        };
        if links.contains_key(anonymous) {
            continue;
        }
        links.insert(anonymous.clone(), user.clone());
        new_links.push((anonymous.clone(), user.clone()));
        recompute.insert(user_identity(user));
    }
    for chunk in new_links.chunks(CHUNK) {
        merge_anonymous_into_users(tx, product_id, chunk, now).await?;
    }
    Ok(links)
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
    let moved = move_to_users(tx, product_id, &anonymous).await?;
    let user_of: HashMap<String, String> = links
        .iter()
        .map(|(anonymous, user)| (anonymous_identity(anonymous), user_identity(user)))
        .collect();
    let mut deltas: BTreeMap<String, ProfileDelta> = BTreeMap::new();
    for stored in moved {
        let Some(user) = user_of.get(&stored.identity) else {
            continue;
        };
        let delta = ProfileDelta {
            first_seen_at: stored.first_seen_at,
            last_seen_at: stored.last_seen_at.unwrap_or(stored.first_seen_at),
            first_touch: stored.first_touch_at.zip(stored.first_channel),
            acquired_at: stored.acquired_at,
            revenue_cents: stored.revenue_cents,
        };
        match deltas.get_mut(user) {
            Some(existing) => existing.absorb(delta),
            None => {
                deltas.insert(user.clone(), delta);
            }
        }
    }
    upsert_profiles(tx, product_id, &deltas).await
}
