//! Identity stitching inside a batch: which anonymous ids are already linked to a user, and
//! the merge of an anonymous identity's rows into its user's when a batch links them.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use payback_domain::Timestamp;

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

#[derive(sqlx::FromRow)]
struct StoredProfile {
    identity: String,
    first_seen_at: i64,
    last_seen_at: Option<i64>,
    first_touch_at: Option<i64>,
    first_channel: Option<String>,
    acquired_at: Option<i64>,
    revenue_cents: i64,
}

/// Records `links` (anonymous id, user id) and moves everything the anonymous identities had
/// (events, revenue rows, daily rows, profiles) to their users, in a fixed number of
/// statements however many links the batch brings. Set-based statements find each row's user
/// through `identity_links` by primary key (`substr(identity, 3)` strips the `a:` prefix).
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
    // Each statement is `<head> product_id = ? AND <identity column> IN (...) <tail>`. The daily
    // rows go first and find their keys through the anonymous identities' events (the identity
    // index of `events`, before the third statement rewrites them): `stage_identity_days` has
    // no index leading with the identity, and filtering its rows by identity read every row of
    // the product on each merge, a cost growing with the product's history.
    let statements: [(&str, &str, &str); 4] = [
        (
            "INSERT INTO stage_identity_days (product_id, stage, day, identity, events) \
             SELECT s.product_id, s.stage, s.day, 'u:' || l.user_id, CAST(SUM(s.events) AS BIGINT) \
             FROM stage_identity_days s JOIN identity_links l \
             ON l.product_id = s.product_id AND l.anonymous_id = substr(s.identity, 3) \
             WHERE (s.product_id, s.stage, s.day, s.identity) IN \
             (SELECT product_id, stage, day, identity FROM events WHERE product_id = ",
            "identity",
            // Grouped, so two anonymous ids of one user sharing a stage and day do not hit the
            // same row twice in one upsert.
            ") GROUP BY s.product_id, s.stage, s.day, l.user_id \
             ON CONFLICT (product_id, stage, day, identity) DO UPDATE SET events = stage_identity_days.events + excluded.events",
        ),
        (
            "DELETE FROM stage_identity_days WHERE (product_id, stage, day, identity) IN \
             (SELECT product_id, stage, day, identity FROM events WHERE product_id = ",
            "identity",
            ")",
        ),
        (
            "UPDATE events SET identity = (SELECT 'u:' || l.user_id FROM identity_links l \
             WHERE l.product_id = events.product_id AND l.anonymous_id = substr(events.identity, 3)) WHERE product_id = ",
            "identity",
            "",
        ),
        (
            "UPDATE transactions SET identity = (SELECT 'u:' || l.user_id FROM identity_links l \
             WHERE l.product_id = transactions.product_id AND l.anonymous_id = substr(transactions.identity, 3)) \
             WHERE product_id = ",
            "identity",
            "",
        ),
    ];
    for (head, column, tail) in statements {
        on_tx!(tx, conn => {
            let mut query = sqlx::QueryBuilder::new(head);
            query.push_bind(product_id).push(" AND ").push(column).push(" IN (");
            let mut list = query.separated(", ");
            for identity in &anonymous {
                list.push_bind(identity);
            }
            query.push(")").push(tail);
            query.build().execute(conn).await.map(|done| done.rows_affected())
        })?;
    }
    let moved: Vec<StoredProfile> = on_tx!(tx, conn => {
        let mut query = sqlx::QueryBuilder::new("DELETE FROM identity_profiles WHERE product_id = ");
        query.push_bind(product_id).push(" AND identity IN (");
        let mut list = query.separated(", ");
        for identity in &anonymous {
            list.push_bind(identity);
        }
        query.push(") RETURNING identity, first_seen_at, last_seen_at, first_touch_at, first_channel, acquired_at, revenue_cents");
        query.build_query_as().fetch_all(conn).await
    })?;
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
