//! A page's `friction` over the window: the rage clicks, dead clicks and script errors the
//! product's replay sources counted on its path (Clarity's `subTotal`s per URL, PostHog's
//! `$rageclick`, `$dead_click` and `$exception` events per `$pathname`, both stored per landing
//! path by their runs), added up across the sources that counted the path, with the sources
//! named (`providers`). A path no source counted has no friction (null), not zeros: "nothing
//! measured" and "measured none" are different answers.

use std::collections::HashMap;

use payback_domain::snapshot_metric::{DEAD_CLICKS, JS_ERRORS, RAGE_CLICKS};
use payback_domain::span::Span;
use payback_store::landing_pages::friction as store;
use payback_store::products::ProductRow;
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::ApiResult;
use crate::kinds::replay::REPLAY_KINDS;
use crate::state::AppState;

/// The spec's `friction`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, ToSchema)]
pub struct PageFriction {
    pub rage_clicks: i64,
    pub dead_clicks: i64,
    pub js_errors: i64,
    /// The source kinds that counted the path, in the order recordings prefer them.
    pub providers: Vec<String>,
}

/// Each of `paths`' friction over `span`; paths no replay source counted are absent.
pub async fn totals(
    state: &AppState,
    product: &ProductRow,
    paths: &[&str],
    span: Span,
) -> ApiResult<HashMap<String, PageFriction>> {
    let kinds: Vec<&str> = REPLAY_KINDS.iter().map(|kind| kind.as_str()).collect();
    let rows = store::totals(
        &state.store,
        &product.id,
        &kinds,
        paths,
        &span.first_day(),
        &span.last_day(),
    )
    .await?;
    let mut sums: HashMap<String, Sums> = HashMap::new();
    for row in &rows {
        let sum = sums.entry(row.path.clone()).or_default();
        let counter = match row.metric.as_str() {
            RAGE_CLICKS => &mut sum.rage_clicks,
            DEAD_CLICKS => &mut sum.dead_clicks,
            JS_ERRORS => &mut sum.js_errors,
            _ => continue,
        };
        *counter += row.value;
        if !sum.kinds.contains(&row.kind) {
            sum.kinds.push(row.kind.clone());
        }
    }
    Ok(sums
        .into_iter()
        .map(|(path, sum)| {
            let providers = kinds
                .iter()
                .filter(|kind| sum.kinds.iter().any(|seen| seen == *kind))
                .map(|kind| (*kind).to_owned())
                .collect();
            let friction = PageFriction {
                rage_clicks: sum.rage_clicks.round() as i64,
                dead_clicks: sum.dead_clicks.round() as i64,
                js_errors: sum.js_errors.round() as i64,
                providers,
            };
            (path, friction)
        })
        .collect())
}

/// One path's counts while they are added up (snapshots may hold fractions; the answer rounds).
#[derive(Default)]
struct Sums {
    rage_clicks: f64,
    dead_clicks: f64,
    js_errors: f64,
    kinds: Vec<String>,
}
