//! The demo products' scorecard: the default template's rows the demo can fill (its first-party
//! funnel and revenue; it has no ad or search connection, whose rows would read null) and a
//! section the founder types into, a manual row with the last weeks' values, so the Scorecard
//! tab opens on a layout of the founder's with every kind of row.
//!
//! Written as a save would write it (the layout replaced in one transaction with its history
//! entry, the typed cells through the manual cells' upsert).

use payback_domain::Actor;
use payback_store::AccountScope;
use payback_store::products::ProductRow;
use payback_store::scorecard::layouts;
use payback_store::scorecard::manual_cells::{self, ManualCell};
use serde_json::json;

use crate::error::{ApiError, ApiResult};
use crate::services::audit;
use crate::services::scorecard::catalog::{Connected, Unit};
use crate::services::scorecard::layout::{self, Row, Section};
use crate::services::scorecard::templates;
use crate::services::scorecard::weeks::{self, WeeksAsked};
use crate::state::AppState;

/// The manual row: its key and label.
pub const MANUAL_ROW: (&str, &str) = ("customer_interviews", "Customer interviews");

/// The section holding it.
const MANUAL_SECTION: (&str, &str) = ("founder", "Founder's week");

/// What the founder typed for the last completed weeks, oldest first (the last is last week).
pub const TYPED: [f64; 8] = [3.0, 4.0, 2.0, 5.0, 3.0, 4.0, 6.0, 4.0];

/// Stores the layout (with its history entry) and the typed cells.
pub async fn seed(state: &AppState, product: &ProductRow) -> ApiResult<()> {
    let now = state.clock.now();
    let scope = AccountScope::trusted(product.account_id.clone());
    let connected = Connected::of(state, product).await?;
    let mut sections = layout::from_template(templates::DEFAULT, Some(&connected));
    sections.push(Section {
        key: MANUAL_SECTION.0.to_owned(),
        label: MANUAL_SECTION.1.to_owned(),
        rows: vec![Row {
            metric: MANUAL_ROW.0.to_owned(),
            label: MANUAL_ROW.1.to_owned(),
            manual: true,
            unit: Unit::Count,
        }],
    });
    let text = serde_json::to_string(&sections).map_err(ApiError::internal)?;
    let asked = WeeksAsked {
        weeks: TYPED.len(),
        clamped: false,
        current: false,
    };
    let cells: Vec<ManualCell> = weeks::weeks_to(now, asked)
        .into_iter()
        .zip(TYPED)
        .map(|(week, value)| ManualCell {
            metric: MANUAL_ROW.0.to_owned(),
            week: week.key,
            value: Some(value),
        })
        .collect();
    let mut tx = state.store.begin().await?;
    let previous = layouts::replace(&mut tx, &scope, &product.id, &text, None, now).await?;
    let payload = json!({
        "before": previous.map(|row| {
            json!({
                "sections": serde_json::from_str::<serde_json::Value>(&row.sections)
                    .unwrap_or_default(),
                "template": row.template,
            })
        }),
        "after": { "sections": sections, "template": null },
        "demo": true,
    });
    audit::record_product(
        &mut tx,
        &Actor::system(),
        product,
        "scorecard.save",
        payload,
        now,
    )
    .await?;
    manual_cells::upsert(&mut tx, &product.id, &cells, now).await?;
    tx.commit().await?;
    Ok(())
}
