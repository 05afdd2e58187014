//! `GET /products/{slug}/health-report`: a weekly audit of one product, in four categories
//! (`tracking`, `funnel`, `advertising`, `seo_social`), each a list of checks that read the
//! product's real state through the functions its reports use. Every check says pass, warn,
//! fail or skip, the one metric line behind it, and (unless it passes) what fixes it.
//!
//! Scoring: pass is worth 100 points, warn 50, fail 0; `skip` does not count. A score (the
//! report's, or a category's) is the rounded mean over its scoreable checks, null while the
//! product has no data at all (no event or revenue row ever, no spend in the window, no
//! connection that ever synced) or no check to score. The grade follows the score:
//! A 90-100, B 75-89, C 60-74, D 40-59, F under 40.
//!
//! The checks and their thresholds are listed in each category's module and in docs/health-and-growth.md
//! ("Health report").

mod advertising;
mod check;
mod context;
mod funnel;
mod seo_social;
mod sources;
mod text;
mod tracking;

pub use check::{HealthCategoryKey, HealthCheck, HealthStatus};

use payback_domain::metrics;
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};
use crate::input::Window;
use crate::services::acting::Caller;
use crate::services::products;
use crate::state::AppState;

use context::Context;

/// The window the report reads, in days: the range every other read takes (1-3650, default
/// 30). The CAC trend compares it with the one before, which the daily tables answer at any
/// depth.
pub const DEFAULT_DAYS: i64 = Window::DEFAULT_DAYS;
pub const MAX_DAYS: i64 = Window::MAX_DAYS;

/// The spec's Health report.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HealthReport {
    pub product_slug: String,
    pub generated_at: String,
    pub window_days: i64,
    /// 0-100, the mean over scoreable checks (pass 100, warn 50, fail 0; skip left out); null
    /// until the product has any data.
    pub score: Option<i64>,
    /// `A` (90-100), `B` (75-89), `C` (60-74), `D` (40-59) or `F` (under 40); null with the
    /// score.
    pub grade: Option<String>,
    /// `tracking`, `funnel`, `advertising`, `seo_social`, always all four, in that order.
    pub categories: Vec<HealthCategory>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HealthCategory {
    pub key: HealthCategoryKey,
    pub label: String,
    /// The category's own score, by the report's rule; null when it has nothing to score.
    pub score: Option<i64>,
    pub checks: Vec<HealthCheck>,
}

/// `days` checked: 1 to [`MAX_DAYS`], default [`DEFAULT_DAYS`]; 400 naming `days` otherwise.
pub fn window(days: Option<i64>) -> ApiResult<Window> {
    let days = days.unwrap_or(DEFAULT_DAYS);
    if !(1..=MAX_DAYS).contains(&days) {
        return Err(ApiError::bad_request(format!(
            "days: must be 1-{MAX_DAYS}, got {days}"
        )));
    }
    Window::new(Some(days), None)
}

pub async fn report(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    days: Option<i64>,
) -> ApiResult<HealthReport> {
    let window = window(days)?;
    let product = products::find_settled(state, caller.scope()?, slug).await?;
    let ctx = Context::load(state, caller, product, window).await?;
    let mut checks = tracking::checks(&ctx).await?;
    checks.extend(funnel::checks(&ctx).await?);
    checks.extend(advertising::checks(&ctx).await?);
    checks.extend(seo_social::checks(&ctx));
    Ok(assemble(&ctx, checks))
}

fn assemble(ctx: &Context<'_>, checks: Vec<HealthCheck>) -> HealthReport {
    let scored = ctx.has_data();
    let total = scored.then(|| score(&checks)).flatten();
    let categories = HealthCategoryKey::ALL
        .iter()
        .map(|key| {
            let checks: Vec<HealthCheck> = checks
                .iter()
                .filter(|check| check.category == *key)
                .cloned()
                .collect();
            HealthCategory {
                key: *key,
                label: key.label().to_owned(),
                score: scored.then(|| score(&checks)).flatten(),
                checks,
            }
        })
        .collect();
    HealthReport {
        product_slug: ctx.product.slug.clone(),
        generated_at: ctx.now.to_rfc3339(),
        window_days: ctx.window.days,
        score: total,
        grade: total.map(|total| grade(total).to_owned()),
        categories,
    }
}

/// The rounded mean of the scoreable checks' points; `None` when every check skipped.
pub fn score(checks: &[HealthCheck]) -> Option<i64> {
    let points: Vec<i64> = checks.iter().filter_map(|c| c.status.points()).collect();
    let count = i64::try_from(points.len())
        .ok()
        .filter(|count| *count > 0)?;
    Some(metrics::div_round(points.iter().sum(), count))
}

/// The letter of a score.
pub fn grade(score: i64) -> &'static str {
    match score {
        90.. => "A",
        75..=89 => "B",
        60..=74 => "C",
        40..=59 => "D",
        _ => "F",
    }
}

#[cfg(test)]
mod tests {
    use super::check::CheckId;
    use super::*;

    fn checks(statuses: &[HealthStatus]) -> Vec<HealthCheck> {
        const ID: CheckId = CheckId::new(HealthCategoryKey::Tracking, "t", "T");
        statuses
            .iter()
            .map(|status| ID.with(*status, "evidence", "action"))
            .collect()
    }

    #[test]
    fn the_score_is_the_mean_over_scoreable_checks() {
        use HealthStatus::{Fail, Pass, Skip, Warn};
        assert_eq!(score(&checks(&[Pass, Pass])), Some(100));
        assert_eq!(score(&checks(&[Pass, Fail])), Some(50));
        assert_eq!(score(&checks(&[Pass, Warn, Fail])), Some(50));
        assert_eq!(score(&checks(&[Pass, Pass, Warn])), Some(83), "83.3");
        assert_eq!(score(&checks(&[Pass, Warn, Warn])), Some(67), "66.7");
        assert_eq!(
            score(&checks(&[Pass, Skip, Skip])),
            Some(100),
            "skips do not count"
        );
        assert_eq!(score(&checks(&[Skip, Skip])), None);
        assert_eq!(score(&[]), None);
    }

    #[test]
    fn grades_have_five_bands() {
        let grades: Vec<&str> = [100, 90, 89, 75, 74, 60, 59, 40, 39, 0]
            .into_iter()
            .map(grade)
            .collect();
        assert_eq!(grades, ["A", "A", "B", "B", "C", "C", "D", "D", "F", "F"]);
    }

    #[test]
    fn days_take_the_range_of_every_read() {
        assert_eq!(window(None).map(|w| w.days).ok(), Some(30));
        for days in [1, 365, 366, 3650] {
            assert_eq!(window(Some(days)).map(|w| w.days).ok(), Some(days));
        }
        for days in [0, -1, 3651] {
            let error = window(Some(days)).map(|_| ()).unwrap_err();
            assert_eq!(
                error.to_string(),
                format!("days: must be 1-3650, got {days}")
            );
        }
    }
}
