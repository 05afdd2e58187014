//! Tracking: is the data arriving, and can revenue be tied to where it came from?
//!
//! - `tracking.events`: first-party events (API and snippet) fresh as `GET /health` rates them
//!   (`services::health::tracking_freshness`): pass when an event arrived within 48 hours, warn
//!   when older, fail when none ever arrived or accepted batches were set aside.
//! - `tracking.payments`: the payments connection's freshness; without one, warn while revenue
//!   still arrives through events in the window, fail when none does.
//! - `tracking.sources`: the other connections (databases, analytics, tag manager, replay),
//!   worst freshness decides; skip when none is connected.
//! - `tracking.identity_stitching`: revenue rows of the window carrying an identity (a user
//!   id, visitor id or email): 90% or more pass, 70-90% warn, under 70% fail; skip without
//!   revenue rows.
//! - `tracking.unattributed`: revenue whose first touch is unknown, with `GET /health`'s bands
//!   (`services::health::attribution_status`): under 10% pass, 10-25% warn, over 25% fail; skip
//!   without revenue.

use std::collections::BTreeSet;

use payback_domain::connection::ConnectionKind;
use payback_domain::source_kind::HealthArea;
use payback_store::reports::attribution as store;

use crate::error::ApiResult;
use crate::services::health::{attribution_status, tracking_freshness};

use super::check::{CheckId, HealthCategoryKey, HealthCheck};
use super::context::Context;
use super::{sources, text};

const CATEGORY: HealthCategoryKey = HealthCategoryKey::Tracking;
pub const EVENTS: CheckId = CheckId::new(CATEGORY, "tracking.events", "Events arriving");
pub const PAYMENTS: CheckId = CheckId::new(
    CATEGORY,
    "tracking.payments",
    "Payments connected and fresh",
);
pub const SOURCES: CheckId = CheckId::new(
    CATEGORY,
    "tracking.sources",
    "Databases and analytics sources fresh",
);
pub const STITCHING: CheckId = CheckId::new(
    CATEGORY,
    "tracking.identity_stitching",
    "Revenue tied to identities",
);
pub const UNATTRIBUTED: CheckId =
    CheckId::new(CATEGORY, "tracking.unattributed", "Unattributed revenue");

/// Revenue rows with an identity, in percent: at least this many pass, at least the next warn.
pub const STITCHED_PASS_PCT: i64 = 90;
pub const STITCHED_WARN_PCT: i64 = 70;

pub async fn checks(ctx: &Context<'_>) -> ApiResult<Vec<HealthCheck>> {
    Ok(vec![
        events(ctx),
        payments(ctx),
        other_sources(ctx),
        stitching(ctx),
        unattributed(ctx).await?,
    ])
}

fn events(ctx: &Context<'_>) -> HealthCheck {
    let (set_aside, newest_error) = &ctx.set_aside;
    let sources: BTreeSet<String> = ctx
        .stage_sources
        .iter()
        .map(|(_, source)| source.clone())
        .collect();
    let sources: Vec<String> = sources.into_iter().collect();
    let volume = format!(
        "{} events in {} from {}",
        ctx.coverage.events_total,
        ctx.window_text(),
        if sources.is_empty() {
            "no source".to_owned()
        } else {
            text::list(&sources)
        }
    );
    let install = format!(
        "Add the snippet to every page (GET {} gives the tag) and send server-side events to POST {}.",
        ctx.path("/tracking-key"),
        ctx.path("/events")
    );
    match tracking_freshness(ctx.last_event_at, *set_aside, ctx.now) {
        "failing" => EVENTS.fail(
            format!(
                "{set_aside} accepted batch(es) could not be stored and were set aside; newest error: {}",
                newest_error.as_deref().unwrap_or("unknown")
            ),
            "Fix the field the error names in what you send; an operator then retries the set-aside batches (payback operator ingest-failures list, retry).",
        ),
        "never" => EVENTS.fail("No event received yet", install),
        freshness => {
            let age = ctx
                .last_event_at
                .map_or_else(String::new, |at| text::ago(ctx.now.millis() - at));
            if freshness == "fresh" {
                EVENTS.pass(format!("Last event {age} ago; {volume}"))
            } else {
                EVENTS.warn(
                    format!("No event for {age} (stale after 48 h); {volume}"),
                    format!("Check that the snippet still loads and your server still sends events. {install}"),
                )
            }
        }
    }
}

fn payments(ctx: &Context<'_>) -> HealthCheck {
    let rows = ctx.connections_where(|kind| kind.health_area() == HealthArea::Payments);
    if !rows.is_empty() {
        return sources::freshness_check(ctx, PAYMENTS, &rows);
    }
    let connect = format!(
        "Connect Stripe with a restricted read-only key (POST {}) so charges, refunds and disputes arrive by themselves.",
        ctx.path("/connections/payments")
    );
    let revenue_rows = ctx.coverage.transactions_total;
    if revenue_rows > 0 {
        PAYMENTS.warn(
            format!(
                "Not connected; {revenue_rows} revenue rows in {} arrived through events only",
                ctx.window_text()
            ),
            connect,
        )
    } else {
        PAYMENTS.fail(
            format!(
                "Not connected, and no revenue recorded in {}",
                ctx.window_text()
            ),
            connect,
        )
    }
}

/// The connections no other check rates: customer databases, web and product analytics, the
/// tag manager, session replay.
fn is_other_source(kind: ConnectionKind) -> bool {
    kind.health_area() == HealthArea::OtherSources
}

fn other_sources(ctx: &Context<'_>) -> HealthCheck {
    let rows = ctx.connections_where(is_other_source);
    if rows.is_empty() {
        return SOURCES.skip(
            "No database or analytics source connected",
            format!(
                "Connect your database (POST {}, sql-b or docdb) with event maps, so signups and orders arrive without code.",
                ctx.path("/connections/sql-a")
            ),
        );
    }
    sources::freshness_check(ctx, SOURCES, &rows)
}

fn stitching(ctx: &Context<'_>) -> HealthCheck {
    let (with_identity, total) = (
        ctx.coverage.transactions_with_identity,
        ctx.coverage.transactions_total,
    );
    let action = "Call svc.identify(userId, { email }) on sign-up and login, and send user_id or email with every payment event (Stripe charges carry the customer's email), so revenue joins the visits that brought it.";
    if total <= 0 {
        return STITCHING.skip(format!("No revenue rows in {}", ctx.window_text()), action);
    }
    let evidence = format!(
        "{with_identity} of {total} revenue rows ({}) in {} carry a user id, visitor id or email",
        text::percent(with_identity, total),
        ctx.window_text()
    );
    if with_identity * 100 >= STITCHED_PASS_PCT * total {
        STITCHING.pass(evidence)
    } else if with_identity * 100 >= STITCHED_WARN_PCT * total {
        STITCHING.warn(evidence, action)
    } else {
        STITCHING.fail(evidence, action)
    }
}

async fn unattributed(ctx: &Context<'_>) -> ApiResult<HealthCheck> {
    let by_channel =
        store::revenue_by_first_channel(&ctx.state.store, &ctx.product.id, ctx.span).await?;
    let revenue: i64 = by_channel.iter().map(|row| row.cents).sum();
    let unattributed: i64 = by_channel
        .iter()
        .filter(|row| row.channel.is_none())
        .map(|row| row.cents)
        .sum();
    let action = format!(
        "Keep utm tags and click ids on every link you share or pay for (the snippet records them on landing), and identify visitors before they pay; GET {} lists the sales without a channel.",
        ctx.path("/attribution/sales?channel=unattributed")
    );
    let (_, status) = attribution_status(revenue, unattributed);
    let evidence = format!(
        "{} of {} revenue ({}) in {} has no first touch",
        ctx.money(unattributed),
        ctx.money(revenue),
        text::percent(unattributed, revenue),
        ctx.window_text()
    );
    Ok(match status {
        "healthy" => UNATTRIBUTED.pass(evidence),
        "warn" => UNATTRIBUTED.warn(evidence, action),
        "fail" => UNATTRIBUTED.fail(evidence, action),
        _ => UNATTRIBUTED.skip(format!("No net revenue in {}", ctx.window_text()), action),
    })
}
