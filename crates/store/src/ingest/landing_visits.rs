//! First-party visits per landing path and day, kept by the fold: each newly stored `visit`
//! event with an `attribution.landing_url` adds one to its path's day in `landing_path_days`
//! (the path spelled by `payback_domain::landing_path`). Events are counted, not identities, so
//! identity merges change nothing here; a page's traffic then reads a row per path and day.

use std::collections::BTreeMap;

use payback_domain::landing_path::landing_path;
use serde::Deserialize;

use super::{CHUNK, EventRecord, insert_verb};
use crate::Tx;
use crate::error::StoreResult;

/// The only attribution field read here (serde skips the others without building them).
#[derive(Deserialize)]
struct Landing {
    landing_url: Option<String>,
}

/// What a fold's new events add, merged in memory: `(path, day)` -> visits.
#[derive(Debug, Default)]
pub(crate) struct LandingVisits {
    days: BTreeMap<(String, String), i64>,
}

impl LandingVisits {
    /// Counts `event` when it is a visit naming its landing URL.
    pub(crate) fn add(&mut self, event: &EventRecord) {
        if event.stage != "visit" {
            return;
        }
        let Some(attribution) = event.attribution.as_deref() else {
            return;
        };
        let Ok(Landing {
            landing_url: Some(url),
        }) = serde_json::from_str::<Landing>(attribution)
        else {
            return;
        };
        *self
            .days
            .entry((landing_path(&url), event.occurred_at.day()))
            .or_default() += 1;
    }

    /// Adds the counts to `landing_path_days`, one upsert per chunk, in the fold's transaction.
    pub(crate) async fn write(&self, tx: &mut Tx, product_id: &str) -> StoreResult<()> {
        let rows: Vec<_> = self.days.iter().collect();
        let verb = insert_verb(tx);
        for chunk in rows.chunks(CHUNK) {
            on_tx!(tx, conn => {
                let mut query = sqlx::QueryBuilder::new(verb);
                query.push(" INTO landing_path_days (product_id, path, day, visits) ");
                query.push_values(chunk, |mut row, ((path, day), visits)| {
                    row.push_bind(product_id)
                        .push_bind(path.as_str())
                        .push_bind(day.as_str())
                        .push_bind(**visits);
                });
                query.push(
                    " ON CONFLICT (product_id, path, day) DO UPDATE SET \
                     visits = landing_path_days.visits + excluded.visits",
                );
                query.build().execute(conn).await.map(|done| done.rows_affected())
            })?;
        }
        Ok(())
    }
}
