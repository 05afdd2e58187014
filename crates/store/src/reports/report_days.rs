//! The daily report tables checked against a recomputation from the rows they sum.
//!
//! The fold keeps `stage_channel_days`, `identity_days`, `customer_totals`, `revenue_days`,
//! `paid_touch_days` and `cohort_revenue_days` by taking each touched identity's contribution
//! out and putting it back (`ingest/report_days.rs`); a path it missed would drift silently,
//! since reports read only the sums. Tests run every ingest path and compare here; the report benchmark does at 1M events.

use crate::db::Db;
use crate::error::StoreResult;
use crate::reports::payback::{LAST_POINT_DAY, cohort_age_sql, cohort_point_sql};

/// Per daily table, how many rows differ between the table and a recomputation from the rows it
/// sums (rows in one and not the other): 0 everywhere when the fold kept them exactly.
pub async fn differences(db: &Db, product_id: &str) -> StoreResult<Vec<(&'static str, i64)>> {
    const PLAIN: &str = "SELECT product_id, stage, day, identity, COUNT(*) AS plain_events, \
         CAST(COALESCE(SUM(value_cents), 0) AS BIGINT) AS plain_value FROM (SELECT e.product_id, e.stage, e.day, e.value_cents, \
         CASE substr(e.identity, 1, 2) \
           WHEN 'a:' THEN COALESCE((SELECT 'u:' || l.user_id FROM identity_links l \
               WHERE l.product_id = e.product_id AND l.anonymous_id = substr(e.identity, 3)), e.identity) \
           WHEN 'e:' THEN COALESCE((SELECT COALESCE((SELECT 'u:' || l.user_id FROM identity_links l \
               WHERE l.product_id = o.product_id AND substr(o.identity, 1, 2) = 'a:' \
               AND l.anonymous_id = substr(o.identity, 3)), o.identity) FROM email_identities o \
               WHERE o.product_id = e.product_id AND o.email = substr(e.identity, 3)), e.identity) \
           ELSE e.identity END AS identity \
         FROM events e WHERE e.product_id = $1 AND e.identity IS NOT NULL AND e.channel IS NULL) AS plain \
         GROUP BY product_id, stage, day, identity";
    let at = "COALESCE(last_seen_at, first_seen_at)";
    let seen_day = match db {
        Db::Sqlite(_) => {
            format!("date(({at} - (({at} % 86400000) + 86400000) % 86400000) / 1000, 'unixepoch')")
        }
        Db::Postgres(_) => format!("payback_day({at})"),
    };
    let age = cohort_age_sql("t.occurred_at", "p.acquired_at");
    let point = cohort_point_sql("age");
    let checks: [(&str, String, String); 7] = [
        (
            "stage_identity_days.plain_*",
            PLAIN.to_owned(),
            "SELECT product_id, stage, day, identity, plain_events, plain_value FROM stage_identity_days \
             WHERE product_id = $1 AND (plain_events <> 0 OR plain_value <> 0)"
                .to_owned(),
        ),
        (
            "stage_channel_days",
            "SELECT s.day, s.stage, COALESCE(p.first_channel, ''), SUM(s.events), COUNT(*), \
             SUM(CASE WHEN s.day = s.latest THEN 1 ELSE 0 END), SUM(s.plain_events), SUM(s.plain_value) \
             FROM (SELECT product_id, day, stage, identity, events, plain_events, plain_value, \
                   MAX(day) OVER (PARTITION BY identity, stage) AS latest \
                   FROM stage_identity_days WHERE product_id = $1) AS s \
             LEFT JOIN identity_profiles p ON p.product_id = s.product_id AND p.identity = s.identity \
             GROUP BY s.day, s.stage, COALESCE(p.first_channel, '')"
                .to_owned(),
            "SELECT day, stage, channel, events, identities, lasts, plain_events, plain_value \
             FROM stage_channel_days WHERE product_id = $1 AND (events <> 0 OR identities <> 0 \
             OR lasts <> 0 OR plain_events <> 0 OR plain_value <> 0)"
                .to_owned(),
        ),
        (
            "identity_days",
            format!(
                "SELECT day, channel, SUM(seen), SUM(acquired), SUM(acquired_revenue) FROM ( \
                 SELECT {seen_day} AS day, COALESCE(first_channel, '') AS channel, 1 AS seen, \
                        0 AS acquired, 0 AS acquired_revenue FROM identity_profiles WHERE product_id = $1 \
                 UNION ALL SELECT acquired_day, COALESCE(first_channel, ''), 0, 1, revenue_cents \
                 FROM identity_profiles WHERE product_id = $1 AND acquired_at IS NOT NULL) AS c \
                 GROUP BY day, channel"
            ),
            "SELECT day, channel, seen, acquired, acquired_revenue FROM identity_days \
             WHERE product_id = $1 AND (seen <> 0 OR acquired <> 0 OR acquired_revenue <> 0)"
                .to_owned(),
        ),
        (
            "customer_totals",
            "SELECT COUNT(*), COALESCE(SUM(revenue_cents), 0) FROM identity_profiles \
             WHERE product_id = $1 AND acquired_at IS NOT NULL HAVING COUNT(*) > 0"
                .to_owned(),
            "SELECT customers, revenue FROM customer_totals WHERE product_id = $1 \
             AND (customers <> 0 OR revenue <> 0)"
                .to_owned(),
        ),
        (
            "revenue_days",
            "SELECT t.day, COALESCE(p.first_channel, ''), COALESCE(t.last_channel, p.first_channel, ''), \
             CASE WHEN t.identity IS NULL THEN 0 ELSE 1 END, COUNT(*), SUM(t.amount_cents) \
             FROM transactions t LEFT JOIN identity_profiles p ON p.product_id = t.product_id AND p.identity = t.identity \
             WHERE t.product_id = $1 GROUP BY 1, 2, 3, 4"
                .to_owned(),
            "SELECT day, first_channel, last_channel, CASE WHEN identified THEN 1 ELSE 0 END, rows, cents \
             FROM revenue_days WHERE product_id = $1 AND (rows <> 0 OR cents <> 0)"
                .to_owned(),
        ),
        (
            "paid_touch_days",
            "SELECT day, channel, tags, SUM(revenue_rows), SUM(revenue_cents), SUM(customers) FROM ( \
             SELECT day, COALESCE(paid_channel, '') AS channel, COALESCE(paid_tags, '') AS tags, 1 AS revenue_rows, \
                    amount_cents AS revenue_cents, 0 AS customers FROM transactions WHERE product_id = $1 \
             UNION ALL SELECT acquired_day, COALESCE(acquired_paid_channel, ''), COALESCE(acquired_paid_tags, ''), 0, 0, 1 \
             FROM identity_profiles WHERE product_id = $1 AND acquired_at IS NOT NULL) AS c \
             GROUP BY day, channel, tags"
                .to_owned(),
            "SELECT day, channel, tags, revenue_rows, revenue_cents, customers FROM paid_touch_days \
             WHERE product_id = $1 AND (revenue_rows <> 0 OR revenue_cents <> 0 OR customers <> 0)"
                .to_owned(),
        ),
        (
            "cohort_revenue_days",
            format!(
                "SELECT acquired_day, {point}, COUNT(*), SUM(amount_cents) FROM ( \
                 SELECT p.acquired_day, t.amount_cents, {age} AS age FROM identity_profiles p \
                 JOIN transactions t ON t.product_id = p.product_id AND t.identity = p.identity \
                 WHERE p.product_id = $1 AND p.acquired_at IS NOT NULL) AS aged \
                 WHERE age >= 0 AND age <= {LAST_POINT_DAY} GROUP BY 1, 2"
            ),
            "SELECT acquired_day, point_day, rows, cents FROM cohort_revenue_days \
             WHERE product_id = $1 AND (rows <> 0 OR cents <> 0)"
                .to_owned(),
        ),
    ];
    let mut differences = Vec::with_capacity(checks.len());
    for (name, recomputed, stored) in checks {
        let mut differ = 0;
        for (a, b) in [(&recomputed, &stored), (&stored, &recomputed)] {
            let sql = format!(
                "SELECT COUNT(*) FROM (SELECT * FROM ({a}) AS x EXCEPT SELECT * FROM ({b}) AS y) AS d"
            );
            let count: i64 = on_db!(db, pool => {
                sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
                    .bind(product_id)
                    .fetch_one(pool)
                    .await
            })?;
            differ += count;
        }
        differences.push((name, differ));
    }
    Ok(differences)
}
