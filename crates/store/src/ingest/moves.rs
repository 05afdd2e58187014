//! Moving what anonymous identities had (daily rows, touches, revenue rows, profiles) to the
//! users they were just linked to, in a fixed number of statements however many links a fold
//! brings. The links are already in `identity_links`; each row finds its user there by primary
//! key (`substr(identity, 3)` strips the `a:` prefix). Events are not moved: they keep the
//! identity they were stored under, and readers resolve it (`identity_sql.rs`).
//!
//! Email-only identities (`e:<email>`) whose email someone just claimed move the same way, each
//! row finding its email's holder in `email_identities` (written before), and a holding
//! anonymous identity's user in `identity_links`.
//!
//! Each table is reached through an index leading with product and identity (the daily rows'
//! `stage_identity_days_by_identity`, the touches' and revenue rows' own keys), so a merge costs
//! what the identity has, not the product's history.
//!
//! The two backends take the same steps in different words. SQLite turns an `IN (...)` list
//! into one probe per value. PostgreSQL plans such a list as a filter over a scan, and on a
//! table whose statistics lag its growth (any product's first large backfill) the plan was a
//! nested loop over every event of the product: one fold of 40,000 events spent two minutes
//! in these statements. There the identities go as arrays, and every row is found through a
//! `LATERAL` subquery kept apart from the join with `OFFSET 0`, which runs as an index probe per
//! identity whatever the statistics say. Those statements are not kept prepared
//! (`persistent(false)`): PostgreSQL plans an unnamed statement for the arrays it is given each
//! time, where a kept one turns, after five runs, into one generic plan made for the sizes of
//! that moment and kept for the connection's life (one made early in a backfill probed
//! `transactions` through its time index per identity: 1-3.5 s per fold, `auto_explain`).

use crate::Tx;
use crate::error::StoreResult;
use crate::identity_sql;

/// A profile taken off a moved identity, to be merged into the identity it moved to.
#[derive(sqlx::FromRow)]
pub(super) struct StoredProfile {
    pub identity: String,
    pub first_seen_at: i64,
    pub last_seen_at: Option<i64>,
    pub first_touch_at: Option<i64>,
    pub first_channel: Option<String>,
    pub acquired_at: Option<i64>,
    pub revenue_cents: i64,
}

const PROFILE_COLUMNS: &str = "identity, first_seen_at, last_seen_at, first_touch_at, first_channel, acquired_at, revenue_cents";

/// Where the moved identities' rows go.
#[derive(Debug, Clone, Copy)]
pub(super) enum MoveTo {
    /// Anonymous identities (`a:<id>`) to their linked users.
    LinkedUsers,
    /// Email-only identities (`e:<email>`) to their email's holder now.
    EmailHolders,
}

/// Moves the daily rows, touches and revenue rows of the `identities` to where `to` says, and
/// deletes and returns their profiles.
pub(super) async fn move_identities(
    tx: &mut Tx,
    product_id: &str,
    identities: &[String],
    to: MoveTo,
) -> StoreResult<Vec<StoredProfile>> {
    let (sqlite_moves, postgres_moves) = match to {
        MoveTo::LinkedUsers => (&SQLITE_MOVES, &POSTGRES_MOVES),
        MoveTo::EmailHolders => (&SQLITE_EMAIL_MOVES, &POSTGRES_EMAIL_MOVES),
    };
    match tx {
        Tx::Sqlite(conn) => {
            for (head, tail) in sqlite_moves {
                let mut query = sqlx::QueryBuilder::new(*head);
                query.push_bind(product_id).push(" AND identity IN (");
                let mut list = query.separated(", ");
                for identity in identities {
                    list.push_bind(identity);
                }
                query.push(")").push(tail);
                query.build().execute(&mut **conn).await?;
            }
            let mut query =
                sqlx::QueryBuilder::new("DELETE FROM identity_profiles WHERE product_id = ");
            query.push_bind(product_id).push(" AND identity IN (");
            let mut list = query.separated(", ");
            for identity in identities {
                list.push_bind(identity);
            }
            query.push(") RETURNING ").push(PROFILE_COLUMNS);
            Ok(query.build_query_as().fetch_all(&mut **conn).await?)
        }
        Tx::Postgres(conn) => {
            for statement in postgres_moves {
                sqlx::query(*statement)
                    .bind(product_id)
                    .bind(identities)
                    .persistent(false)
                    .execute(&mut **conn)
                    .await?;
            }
            let profiles = format!(
                "DELETE FROM identity_profiles WHERE ctid = ANY(ARRAY(\
                 SELECT p.ctid FROM unnest($2::text[]) AS m(identity) CROSS JOIN LATERAL (\
                 SELECT ctid FROM identity_profiles WHERE product_id = $1 AND identity = m.identity OFFSET 0) AS p)) \
                 RETURNING {PROFILE_COLUMNS}"
            );
            Ok(sqlx::query_as(sqlx::AssertSqlSafe(profiles))
                .bind(product_id)
                .bind(identities)
                .persistent(false)
                .fetch_all(&mut **conn)
                .await?)
        }
    }
}

/// `<head> product_id = ? AND identity IN (...) <tail>`, in order.
const SQLITE_MOVES: [(&str, &str); 4] = [
    (
        "INSERT INTO stage_identity_days (product_id, stage, day, identity, events, plain_events, plain_value) \
         SELECT s.product_id, s.stage, s.day, 'u:' || l.user_id, CAST(SUM(s.events) AS BIGINT), \
         CAST(SUM(s.plain_events) AS BIGINT), CAST(SUM(s.plain_value) AS BIGINT) \
         FROM stage_identity_days s INDEXED BY stage_identity_days_by_identity JOIN identity_links l \
         ON l.product_id = s.product_id AND l.anonymous_id = substr(s.identity, 3) \
         WHERE s.product_id = ",
        // Grouped, so two anonymous ids of one user sharing a stage and day do not hit the
        // same row twice in one upsert. `INDEXED BY`: left to itself, SQLite read the primary
        // key's range of the product (every daily row it has) because of the grouping; a merge
        // then cost the product's history (a fold's links 100 -> 460 ms over one benchmark run).
        " GROUP BY s.product_id, s.stage, s.day, l.user_id \
         ON CONFLICT (product_id, stage, day, identity) DO UPDATE SET events = stage_identity_days.events + excluded.events, \
         plain_events = stage_identity_days.plain_events + excluded.plain_events, \
         plain_value = stage_identity_days.plain_value + excluded.plain_value",
    ),
    ("DELETE FROM stage_identity_days WHERE product_id = ", ""),
    (
        concat!(
            "UPDATE identity_touches SET identity = ",
            identity_sql::linked_user!("identity_touches"),
            " WHERE product_id = "
        ),
        "",
    ),
    (
        concat!(
            "UPDATE transactions SET identity = ",
            identity_sql::linked_user!("transactions"),
            " WHERE product_id = "
        ),
        "",
    ),
];

/// `$1` the product, `$2` the anonymous identities; in order.
const POSTGRES_MOVES: [&str; 3] = [
    // The daily rows: deleted and added to the user's in one statement (the CTE's DELETE and the
    // INSERT touch different keys); grouped, so two anonymous ids of one user sharing a stage and
    // day do not hit the same row twice in one upsert.
    "WITH gone AS (\
       DELETE FROM stage_identity_days WHERE ctid = ANY(ARRAY(\
         SELECT s.ctid FROM unnest($2::text[]) AS m(identity) \
         CROSS JOIN LATERAL (SELECT ctid FROM stage_identity_days \
           WHERE product_id = $1 AND identity = m.identity OFFSET 0) AS s)) \
       RETURNING stage, day, identity, events, plain_events, plain_value) \
     INSERT INTO stage_identity_days (product_id, stage, day, identity, events, plain_events, plain_value) \
     SELECT $1, gone.stage, gone.day, 'u:' || l.user_id, CAST(SUM(gone.events) AS BIGINT), \
       CAST(SUM(gone.plain_events) AS BIGINT), CAST(SUM(gone.plain_value) AS BIGINT) \
     FROM gone JOIN identity_links l ON l.product_id = $1 AND l.anonymous_id = substr(gone.identity, 3) \
     GROUP BY gone.stage, gone.day, l.user_id \
     ON CONFLICT (product_id, stage, day, identity) DO UPDATE SET events = stage_identity_days.events + excluded.events, \
         plain_events = stage_identity_days.plain_events + excluded.plain_events, \
         plain_value = stage_identity_days.plain_value + excluded.plain_value",
    concat!(
        "UPDATE identity_touches SET identity = ",
        identity_sql::linked_user!("identity_touches"),
        " WHERE ctid = ANY(ARRAY(SELECT t.ctid FROM unnest($2::text[]) AS m(identity) CROSS JOIN LATERAL (\
           SELECT ctid FROM identity_touches WHERE product_id = $1 AND identity = m.identity OFFSET 0) AS t))"
    ),
    concat!(
        "UPDATE transactions SET identity = ",
        identity_sql::linked_user!("transactions"),
        " WHERE ctid = ANY(ARRAY(SELECT t.ctid FROM unnest($2::text[]) AS m(identity) CROSS JOIN LATERAL (\
           SELECT ctid FROM transactions WHERE product_id = $1 AND identity = m.identity OFFSET 0) AS t))"
    ),
];

/// As [`SQLITE_MOVES`], for email-only identities: `<head> product_id = ? AND identity IN (...)
/// <tail>`, in order. The daily rows are grouped by their holder: two emails one person claims
/// in a fold must not hit the same row twice in one upsert. (The holder is looked up in a
/// sub-select rather than joined: the `identity` the list filters on must name one column.)
const SQLITE_EMAIL_MOVES: [(&str, &str); 4] = [
    (
        concat!(
            "INSERT INTO stage_identity_days (product_id, stage, day, identity, events, plain_events, plain_value) \
             SELECT product_id, stage, day, holder, CAST(SUM(events) AS BIGINT), CAST(SUM(plain_events) AS BIGINT), \
             CAST(SUM(plain_value) AS BIGINT) FROM (\
             SELECT s.product_id, s.stage, s.day, ",
            identity_sql::email_holder!("s"),
            " AS holder, s.events, s.plain_events, s.plain_value FROM stage_identity_days s INDEXED BY stage_identity_days_by_identity \
             WHERE s.product_id = "
        ),
        ") AS moved GROUP BY product_id, stage, day, holder \
         ON CONFLICT (product_id, stage, day, identity) DO UPDATE SET events = stage_identity_days.events + excluded.events, \
         plain_events = stage_identity_days.plain_events + excluded.plain_events, \
         plain_value = stage_identity_days.plain_value + excluded.plain_value",
    ),
    ("DELETE FROM stage_identity_days WHERE product_id = ", ""),
    (
        concat!(
            "UPDATE identity_touches SET identity = ",
            identity_sql::email_holder!("identity_touches"),
            " WHERE product_id = "
        ),
        "",
    ),
    (
        concat!(
            "UPDATE transactions SET identity = ",
            identity_sql::email_holder!("transactions"),
            " WHERE product_id = "
        ),
        "",
    ),
];

/// As [`POSTGRES_MOVES`], for email-only identities. `$1` the product, `$2` the identities.
const POSTGRES_EMAIL_MOVES: [&str; 3] = [
    "WITH gone AS (\
       DELETE FROM stage_identity_days WHERE ctid = ANY(ARRAY(\
         SELECT s.ctid FROM unnest($2::text[]) AS m(identity) \
         CROSS JOIN LATERAL (SELECT ctid FROM stage_identity_days \
           WHERE product_id = $1 AND identity = m.identity OFFSET 0) AS s)) \
       RETURNING stage, day, identity, events, plain_events, plain_value), \
     moved AS (\
       SELECT gone.stage, gone.day, COALESCE('u:' || l.user_id, o.identity) AS identity, gone.events, \
         gone.plain_events, gone.plain_value FROM gone \
       JOIN email_identities o ON o.product_id = $1 AND o.email = substr(gone.identity, 3) \
       LEFT JOIN identity_links l ON l.product_id = $1 AND substr(o.identity, 1, 2) = 'a:' \
         AND l.anonymous_id = substr(o.identity, 3)) \
     INSERT INTO stage_identity_days (product_id, stage, day, identity, events, plain_events, plain_value) \
     SELECT $1, stage, day, identity, CAST(SUM(events) AS BIGINT), CAST(SUM(plain_events) AS BIGINT), \
       CAST(SUM(plain_value) AS BIGINT) FROM moved GROUP BY stage, day, identity \
     ON CONFLICT (product_id, stage, day, identity) DO UPDATE SET events = stage_identity_days.events + excluded.events, \
         plain_events = stage_identity_days.plain_events + excluded.plain_events, \
         plain_value = stage_identity_days.plain_value + excluded.plain_value",
    concat!(
        "UPDATE identity_touches SET identity = ",
        identity_sql::email_holder!("identity_touches"),
        " WHERE ctid = ANY(ARRAY(SELECT t.ctid FROM unnest($2::text[]) AS m(identity) CROSS JOIN LATERAL (\
           SELECT ctid FROM identity_touches WHERE product_id = $1 AND identity = m.identity OFFSET 0) AS t))"
    ),
    concat!(
        "UPDATE transactions SET identity = ",
        identity_sql::email_holder!("transactions"),
        " WHERE ctid = ANY(ARRAY(SELECT t.ctid FROM unnest($2::text[]) AS m(identity) CROSS JOIN LATERAL (\
           SELECT ctid FROM transactions WHERE product_id = $1 AND identity = m.identity OFFSET 0) AS t))"
    ),
];
