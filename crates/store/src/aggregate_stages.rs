//! Daily stage volumes that sources count rather than list (`aggregate_stage_days`): web
//! analytics sessions per channel, a tool's signups per day. The funnel and product rows add them
//! to the volumes of events.
//!
//! Some stages a source owns outright ([`OWNED_STAGES`]): web analytics counts every visit and
//! engaged session of the site, the product's own snippet only some of them, so adding both
//! would count a visit twice. While a product has rows of the owning source for those stages,
//! the reports take their volumes from it alone; [`counts_first_party!`] is that rule, written
//! once, and every report that adds first-party volumes of a stage filters its daily tables by
//! it. Rows decide rather than the connection's status: the days the source read stay its
//! counts after a disconnect, and a product whose web analytics never wrote a day is still
//! counted by its snippet.

use payback_domain::Stage;

use crate::Tx;
use crate::error::StoreResult;

/// `(source kind, the stages it owns)`: what [`counts_first_party!`] spells out in SQL.
pub const OWNED_STAGES: &[(&str, &[&str])] = &[("analytics_a", &["visit", "engaged"])];

/// The SQL condition that a row of a first-party daily table (`event_days`,
/// `stage_channel_days`, `stage_identity_days`), under the alias given, counts: false for a
/// stage the product's web analytics owns ([`OWNED_STAGES`]: `visit` and `engaged` of
/// `analytics_a`) once the product has any row of it. One index probe
/// (`aggregate_stage_days_by_source`) per row group; a test below keeps it equal to
/// [`OWNED_STAGES`].
macro_rules! counts_first_party {
    ($table:literal) => {
        concat!(
            "NOT (",
            $table,
            ".stage IN ('visit', 'engaged') AND EXISTS (SELECT 1 FROM aggregate_stage_days owner \
             WHERE owner.product_id = ",
            $table,
            ".product_id AND owner.source = 'analytics_a' AND owner.stage IN ('visit', 'engaged')))"
        )
    };
}
pub(crate) use counts_first_party;

/// One stage's volume on one day, in one channel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StageVolume {
    pub day: String,
    pub stage: Stage,
    /// A word of `payback_domain::channel` (`organic_search`, `direct`, ...), or `''` for a
    /// volume of no channel.
    pub channel: String,
    pub volume: i64,
}

/// Replaces what `source` counted for the days `first_day..=last_day` with `rows` (at most one
/// per day, stage and channel, every one on those days): a re-read of a day the vendor recounted
/// stores its new count, and a stage or channel that dropped to nothing is gone.
pub async fn replace_days(
    tx: &mut Tx,
    product_id: &str,
    source: &str,
    first_day: &str,
    last_day: &str,
    rows: &[StageVolume],
) -> StoreResult<()> {
    on_tx!(tx, conn => sqlx::query(
        "DELETE FROM aggregate_stage_days WHERE product_id = $1 AND day >= $2 AND day <= $3 AND source = $4")
        .bind(product_id)
        .bind(first_day)
        .bind(last_day)
        .bind(source)
        .execute(conn)
        .await.map(|done| done.rows_affected()))?;
    // 6 parameters a row.
    for chunk in rows.chunks(1000) {
        on_tx!(tx, conn => {
            let mut query = sqlx::QueryBuilder::new(
                "INSERT INTO aggregate_stage_days (product_id, day, stage, source, channel, volume) ",
            );
            query.push_values(chunk, |mut row, volume| {
                row.push_bind(product_id)
                    .push_bind(&volume.day)
                    .push_bind(volume.stage.as_str())
                    .push_bind(source)
                    .push_bind(&volume.channel)
                    .push_bind(volume.volume);
            });
            query.build().execute(conn).await.map(|done| done.rows_affected())
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::OWNED_STAGES;

    #[test]
    fn the_sql_rule_names_exactly_the_owned_stages() {
        let sql = counts_first_party!("t");
        for (source, stages) in OWNED_STAGES {
            let list = stages
                .iter()
                .map(|stage| format!("'{stage}'"))
                .collect::<Vec<_>>()
                .join(", ");
            assert!(sql.contains(&format!("t.stage IN ({list})")), "{sql}");
            assert!(sql.contains(&format!("owner.stage IN ({list})")), "{sql}");
            assert!(sql.contains(&format!("owner.source = '{source}'")), "{sql}");
        }
        assert_eq!(OWNED_STAGES.len(), 1, "the macro spells out one owner");
    }
}
