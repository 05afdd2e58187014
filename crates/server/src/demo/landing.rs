//! The demo products' landing pages: a few pages tracked by hand on the paths the synthetic
//! visits land on (their traffic is those first-party visits), one exclude filter, a scored
//! analysis of the home page, the friction a session-replay tool (`replay_a`) counted on the
//! busiest paths, and a few recordings a product-analytics tool (`product_analytics_a`)
//! sampled there, so the Landing pages tab and a page's detail show something real on a first
//! run.
//!
//! Written through the store functions the product writes with (pages, filters, analyses, the
//! snapshot upsert under the kinds that write those words). Friction is derived from each day's
//! first-party visits on the path, so it never exceeds them and only lands where there is
//! traffic; recordings start on days the path had the friction they carry.

use payback_connectors::product_analytics_a::playback_url;
use payback_domain::snapshot_metric::{DEAD_CLICKS, JS_ERRORS, RAGE_CLICKS, RECORDING};
use payback_domain::{Actor, DAY_MS, HOUR_MS, Timestamp};
use payback_store::AccountScope;
use payback_store::landing_pages::analyses::{self, NewAnalysis};
use payback_store::landing_pages::pages::{self, NewPage, PageRow};
use payback_store::landing_pages::{filters, traffic};
use payback_store::products::ProductRow;
use payback_store::snapshots::{self, SnapshotRow};
use serde_json::json;

use crate::error::{ApiError, ApiResult};
use crate::services::audit;
use crate::services::landing_pages::{MANUAL, rubric};
use crate::state::AppState;

/// The pages tracked by hand: paths the synthetic visits land on (`data::LANDING_PATHS`).
pub const PAGES: [&str; 4] = ["/", "/pricing", "/features", "/blog/getting-started"];

/// The exclude filter: the blog is content, not a landing page (it marks the blog page
/// excluded).
pub const EXCLUDED: &str = "/blog";

/// Friction per path, in events per thousand first-party visits: (path, rage clicks, dead
/// clicks, script errors). The pricing page's plan toggle draws rage clicks; the home page has
/// a script error.
pub const FRICTION_PER_MILLE: [(&str, i64, i64, i64); 3] = [
    ("/", 5, 20, 25),
    ("/pricing", 60, 40, 10),
    ("/features", 10, 50, 5),
];

/// The days of friction written, ending today: the landing pages' default window.
pub const FRICTION_DAYS: i64 = 30;

/// The host the demo's recordings point at (a reserved name: nothing real plays there).
const RECORDINGS_HOST: &str = "https://posthog.example";

/// The analysis of the home page: each rubric criterion's score and note, and the summary.
const HOME_SCORES: [(&str, i64, &str); 6] = [
    (
        "headline_clarity",
        82,
        "Says what the product is in one line; name the audience too.",
    ),
    (
        "value_proposition",
        74,
        "The benefit is clear; say why it beats a spreadsheet.",
    ),
    (
        "call_to_action",
        68,
        "Two buttons compete above the fold; keep the free trial.",
    ),
    (
        "social_proof",
        45,
        "No customer names or numbers; add two logos and a quote.",
    ),
    ("readability", 80, "Short paragraphs and clear headings."),
    (
        "objection_handling",
        55,
        "Price and cancellation are only on the pricing page; add an FAQ.",
    ),
];
const HOME_SUMMARY: &str = "A clear headline on a readable page. The most valuable fix is \
    social proof: no customer names or numbers appear anywhere on the page.";
/// The analysis's model: none answered, the analysis is the demo's.
const DEMO_MODEL: &str = "demo";

/// Tracks the pages, adds the filter and the analysis, writes friction and recordings.
pub async fn seed(state: &AppState, product: &ProductRow) -> ApiResult<()> {
    let now = state.clock.now();
    let scope = AccountScope::trusted(product.account_id.clone());
    let tracked = track_pages(state, &scope, product).await?;
    // Only a page tracked now is analysed: a path tracked before keeps what it had.
    if let Some(home) = tracked.iter().find(|page| page.path == "/") {
        analyse_home(state, product, home).await?;
    }
    // The friction follows the visits: every accepted event folded first.
    state.ingest.settle(&product.id).await?;
    let friction = friction(state, product, now).await?;
    let recordings = recordings(&friction, now);
    let mut tx = state.store.begin().await?;
    // Written as the two replay kinds' runs write them (their wire words, like the demand
    // seed's), with no connection a job would sync.
    snapshots::upsert(&mut tx, &product.id, "replay_a", &friction, now).await?;
    snapshots::upsert(
        &mut tx,
        &product.id,
        "product_analytics_a",
        &recordings,
        now,
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Tracks [`PAGES`] and adds the [`EXCLUDED`] filter, each in the product's history as a
/// person's would be; answers the pages it tracked (a path tracked already is skipped).
async fn track_pages(
    state: &AppState,
    scope: &AccountScope,
    product: &ProductRow,
) -> ApiResult<Vec<PageRow>> {
    let now = state.clock.now();
    let actor = Actor::system();
    let domain = product
        .domain
        .clone()
        .unwrap_or_else(|| format!("{}.example", product.slug));
    let mut tracked = Vec::new();
    let mut tx = state.store.begin().await?;
    for path in PAGES {
        let url = format!("https://{domain}{path}");
        let page = NewPage { path, url: &url };
        let Some(row) = pages::insert(&mut tx, scope, &product.id, page, MANUAL, now).await? else {
            continue;
        };
        let payload = json!({ "page_id": row.id, "path": row.path, "url": row.url, "demo": true });
        audit::record_product(
            &mut tx,
            &actor,
            product,
            "landing_page.create",
            payload,
            now,
        )
        .await?;
        tracked.push(row);
    }
    let filter = filters::insert(&mut tx, scope, &product.id, EXCLUDED, true, now).await?;
    let payload = json!({
        "filter_id": filter.id, "pattern": filter.pattern, "enabled": filter.enabled, "demo": true,
    });
    audit::record_product(
        &mut tx,
        &actor,
        product,
        "landing_filter.create",
        payload,
        now,
    )
    .await?;
    tx.commit().await?;
    Ok(tracked)
}

/// The home page's analysis, scored by the rubric's own rule (its weighted mean).
async fn analyse_home(state: &AppState, product: &ProductRow, home: &PageRow) -> ApiResult<()> {
    let answer = json!({
        "scores": HOME_SCORES
            .iter()
            .map(|(key, score, note)| json!({ "key": key, "score": score, "note": note }))
            .collect::<Vec<_>>(),
        "summary": HOME_SUMMARY,
    });
    let scored = rubric::score(&answer)
        .map_err(|refused| ApiError::internal(format!("the demo analysis: {}", refused.0)))?;
    let scores = serde_json::to_string(&scored.scores).map_err(ApiError::internal)?;
    let analysis = NewAnalysis {
        model: DEMO_MODEL,
        status: "ok",
        overall_score: Some(scored.overall_score),
        scores: &scores,
        summary: scored.summary.as_deref(),
        error: None,
    };
    analyses::insert(
        &state.store,
        &product.id,
        &home.id,
        analysis,
        state.clock.now(),
    )
    .await?;
    Ok(())
}

/// Each friction path's rage clicks, dead clicks and script errors per day of the last
/// [`FRICTION_DAYS`], at its rates of the day's first-party visits. Counts are whole: each
/// day adds what the running total of visits reaches (so the window's total is the rate of its
/// visits, rounded down), and a day that adds none has no row, as a replay export has none.
async fn friction(
    state: &AppState,
    product: &ProductRow,
    now: Timestamp,
) -> ApiResult<Vec<SnapshotRow>> {
    let first = Timestamp::from_millis(now.millis() - (FRICTION_DAYS - 1) * DAY_MS).day();
    let paths: Vec<&str> = FRICTION_PER_MILLE.iter().map(|(path, ..)| *path).collect();
    let mut days =
        traffic::visit_days(&state.store, &product.id, &paths, &first, &now.day()).await?;
    days.sort_by(|a, b| (&a.path, &a.day).cmp(&(&b.path, &b.day)));
    let mut rows = Vec::new();
    for (path, rage, dead, errors) in FRICTION_PER_MILLE {
        let mut visits = 0;
        for day in days.iter().filter(|day| day.path == path) {
            let before = visits;
            visits += day.visits;
            for (metric, per_mille) in [
                (RAGE_CLICKS, rage),
                (DEAD_CLICKS, dead),
                (JS_ERRORS, errors),
            ] {
                let count = visits * per_mille / 1000 - before * per_mille / 1000;
                if count > 0 {
                    rows.push(SnapshotRow {
                        day: day.day.clone(),
                        metric: metric.to_owned(),
                        dimension: path.to_owned(),
                        value: count as f64,
                        detail: None,
                    });
                }
            }
        }
    }
    Ok(rows)
}

/// One recording per friction path: started on the latest day before today with the path's
/// most frequent friction, carrying that signal.
fn recordings(friction: &[SnapshotRow], now: Timestamp) -> Vec<SnapshotRow> {
    let today = now.day();
    let mut rows = Vec::new();
    for (n, (path, rage, dead, errors)) in FRICTION_PER_MILLE.iter().enumerate() {
        let (metric, signal) = [
            (RAGE_CLICKS, "rage_click", *rage),
            (DEAD_CLICKS, "dead_click", *dead),
            (JS_ERRORS, "js_error", *errors),
        ]
        .into_iter()
        .max_by_key(|(.., per_mille)| *per_mille)
        .map_or((RAGE_CLICKS, "rage_click"), |(metric, signal, _)| {
            (metric, signal)
        });
        let Some(day) = friction
            .iter()
            .filter(|row| row.dimension == *path && row.metric == metric && row.day < today)
            .map(|row| row.day.as_str())
            .max()
        else {
            continue;
        };
        let Some(midnight) = Timestamp::parse_day(day) else {
            continue;
        };
        let started = Timestamp::from_millis(midnight.millis() + (10 + 3 * n as i64) * HOUR_MS);
        let session_id = format!("demo-{n:02}-{}", started.millis());
        let detail = json!({
            "url": playback_url(RECORDINGS_HOST, "demo", &session_id),
            "path": path,
            "started_at": started.to_rfc3339(),
            "signals": [signal],
        });
        rows.push(SnapshotRow {
            day: day.to_owned(),
            metric: RECORDING.to_owned(),
            dimension: session_id,
            value: (95 + 70 * n) as f64,
            detail: Some(detail.to_string()),
        });
    }
    rows
}
