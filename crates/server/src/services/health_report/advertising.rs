//! Advertising: is the spend known, does it pay back, and is it fenced?
//!
//! - `advertising.ad_spend`: the ad networks' connections (the kinds whose spend lands on a
//!   channel: `search_ads`, `social_ads_a`, `social_ads_b`), worst freshness decides; without
//!   one, warn when spend was recorded by hand in the window, skip when there is none.
//! - `advertising.click_ids`: per channel with spend in the window, visits arriving on that
//!   channel (click ids and paid utm tags are what put a visit there) against the clicks the
//!   network reports: pass at 50% or more on every channel, warn below, fail when a channel
//!   with spend brought no tagged visit at all; skip without spend.
//! - `advertising.ltv_cac`: all-time LTV (the product row's) over the window's CAC (spend /
//!   customers acquired in the window): 3 or more pass, 1-3 warn, under 1 fail, fail when the
//!   spend acquired nobody; skip without spend.
//! - `advertising.cac_trend`: the window's CAC against the previous window of equal length: up
//!   to 10% higher pass, 10-50% higher warn, more than 50% higher (or no customer now) fail;
//!   skip without spend now or without a CAC before.
//! - `advertising.policy_caps`: every network proposals may change (`google`, `meta`) that
//!   spent in the window has a daily cap: pass, else warn; skip when neither spent.
//! - `advertising.url_suffix`: the Google Ads account's final URL suffix carries every
//!   parameter Payback needs: pass when Payback wrote it (stored on the connection) or a live
//!   read finds it complete, fail when a live read finds parameters missing, skip without a
//!   `search_ads` connection or when the live read fails or takes over 10 seconds.

use std::collections::BTreeMap;
use std::time::Duration;

use payback_domain::metrics;
use payback_domain::policy::Network;
use payback_domain::source_kind::HealthArea;
use payback_domain::span::Span;
use payback_store::reports::activity;
use payback_store::reports::attribution::{self as store, AdLevel};
use payback_store::{Reader, policies};
use serde_json::Value;

use crate::error::ApiResult;
use crate::services::{conversions, product_metrics, url_suffix};

use super::check::{CheckId, HealthCategoryKey, HealthCheck};
use super::context::Context;
use super::{sources, text};

const CATEGORY: HealthCategoryKey = HealthCategoryKey::Advertising;
pub const AD_SPEND: CheckId = CheckId::new(
    CATEGORY,
    "advertising.ad_spend",
    "Ad spend connected and fresh",
);
pub const CLICK_IDS: CheckId = CheckId::new(
    CATEGORY,
    "advertising.click_ids",
    "Click ids on paid traffic",
);
pub const LTV_CAC: CheckId = CheckId::new(CATEGORY, "advertising.ltv_cac", "LTV:CAC");
pub const CAC_TREND: CheckId = CheckId::new(CATEGORY, "advertising.cac_trend", "CAC trend");
pub const POLICY_CAPS: CheckId = CheckId::new(
    CATEGORY,
    "advertising.policy_caps",
    "Daily caps on networks with spend",
);
pub const URL_SUFFIX: CheckId = CheckId::new(
    CATEGORY,
    "advertising.url_suffix",
    "Search-ads URL suffix complete",
);

/// Tagged visits per reported ad click, in percent, at or above which a channel passes.
pub const TAGGED_PASS_PCT: i64 = 50;
/// LTV:CAC at or above `PASS` passes, at or above `WARN` warns.
pub const LTV_CAC_PASS: f64 = 3.0;
pub const LTV_CAC_WARN: f64 = 1.0;
/// CAC growth against the previous window, in percent: up to `PASS` passes, up to `WARN` warns.
pub const CAC_TREND_PASS_PCT: f64 = 10.0;
pub const CAC_TREND_WARN_PCT: f64 = 50.0;
/// How long the report waits for Google Ads to answer the URL suffix read.
const LIVE_READ: Duration = Duration::from_secs(10);

pub async fn checks(ctx: &Context<'_>) -> ApiResult<Vec<HealthCheck>> {
    Ok(vec![
        ad_spend(ctx),
        click_ids(ctx).await?,
        ltv_cac(ctx).await?,
        cac_trend(ctx).await?,
        policy_caps(ctx).await?,
        url_suffix(ctx).await,
    ])
}

fn connect_ads(ctx: &Context<'_>) -> String {
    format!(
        "Connect your ad accounts: Google Ads through POST /connect/searchco/start, Meta through POST /connect/socialco/start, LinkedIn with POST {}.",
        ctx.path("/connections/social-ads-b")
    )
}

fn no_spend(ctx: &Context<'_>) -> String {
    format!("No ad spend in {}", ctx.window_text())
}

fn ad_spend(ctx: &Context<'_>) -> HealthCheck {
    let rows = ctx.connections_where(|kind| kind.health_area() == HealthArea::AdSpend);
    if !rows.is_empty() {
        return sources::freshness_check(ctx, AD_SPEND, &rows);
    }
    let spend = ctx.spend_cents();
    if spend > 0 {
        AD_SPEND.warn(
            format!(
                "No ad network connected; {} of spend in {} was recorded by hand",
                ctx.money(spend),
                ctx.window_text()
            ),
            connect_ads(ctx),
        )
    } else {
        AD_SPEND.skip("No ad network connected", connect_ads(ctx))
    }
}

async fn click_ids(ctx: &Context<'_>) -> ApiResult<HealthCheck> {
    let action = "Keep Google Ads auto-tagging on (gclid) and its URL suffix complete; give Meta and LinkedIn ad URLs utm_source, utm_medium=paid_social (or cpc) and utm_campaign, since fbclid alone does not mark a visit paid; and make sure every landing page loads the snippet.";
    let mut clicks: BTreeMap<String, i64> = ctx
        .spend
        .iter()
        .filter(|row| row.cents > 0)
        .filter_map(|row| row.channel.clone().map(|channel| (channel, 0)))
        .collect();
    if clicks.is_empty() {
        return Ok(CLICK_IDS.skip(no_spend(ctx), action));
    }
    for ad in store::ad_spend(
        &ctx.state.store,
        &ctx.product.id,
        ctx.span,
        AdLevel::Campaign,
    )
    .await?
    {
        if let Some(sum) = clicks.get_mut(&ad.channel) {
            *sum += ad.clicks;
        }
    }
    let mut lines = Vec::new();
    let (mut untagged, mut thin) = (false, false);
    for (channel, clicks) in &clicks {
        let visits: i64 = ctx
            .funnel
            .iter()
            .filter(|row| row.stage == payback_domain::Stage::Visit)
            .filter(|row| row.channel.as_deref() == Some(channel.as_str()))
            .map(|row| row.events)
            .sum();
        if visits <= 0 {
            untagged = true;
        } else if visits * 100 < TAGGED_PASS_PCT * clicks {
            thin = true;
        }
        lines.push(if *clicks > 0 {
            format!(
                "{channel}: {visits} tagged visits for {clicks} ad clicks ({})",
                text::percent(visits, *clicks)
            )
        } else {
            format!("{channel}: {visits} tagged visits, no clicks reported")
        });
    }
    let evidence = format!("{} in {}", lines.join("; "), ctx.window_text());
    Ok(if untagged {
        CLICK_IDS.fail(evidence, action)
    } else if thin {
        CLICK_IDS.warn(evidence, action)
    } else {
        CLICK_IDS.pass(evidence)
    })
}

/// Customers acquired in `span`, whatever their channel.
async fn customers_in(ctx: &Context<'_>, span: Span) -> ApiResult<i64> {
    Ok(
        store::customers_by_first_channel(&ctx.state.store, &ctx.product.id, span)
            .await?
            .iter()
            .map(|row| row.count)
            .sum(),
    )
}

async fn ltv_cac(ctx: &Context<'_>) -> ApiResult<HealthCheck> {
    let move_budget = format!(
        "Move budget from channels whose CAC exceeds LTV to those that pay back (GET {} shows CAC per channel) by raising a spend proposal, and raise LTV (pricing, retention).",
        ctx.path("/attribution")
    );
    let spend = ctx.spend_cents();
    if spend <= 0 {
        return Ok(LTV_CAC.skip(no_spend(ctx), connect_ads(ctx)));
    }
    let customers = customers_in(ctx, ctx.span).await?;
    let Some(cac) = metrics::cac(spend, customers) else {
        return Ok(LTV_CAC.fail(
            format!(
                "{} of spend in {} acquired no customer",
                ctx.money(spend),
                ctx.window_text()
            ),
            move_budget,
        ));
    };
    let id = ctx.product.id.as_str();
    let ltv = product_metrics::for_products(ctx.state, &[id])
        .await?
        .remove(id)
        .and_then(|row| row.ltv_cents);
    let basis = format!(
        "{} spend, {customers} customers in {}",
        ctx.money(spend),
        ctx.window_text()
    );
    let (Some(ltv), Some(ratio)) = (ltv, metrics::ltv_cac(ltv, Some(cac))) else {
        // A CAC of 0 (spend rounding to nothing per customer) cannot be outgrown.
        return Ok(LTV_CAC.pass(format!("CAC {} ({basis})", ctx.money(cac))));
    };
    let evidence = format!(
        "LTV {} / CAC {} = {ratio:.2} ({basis})",
        ctx.money(ltv),
        ctx.money(cac)
    );
    Ok(if ratio >= LTV_CAC_PASS {
        LTV_CAC.pass(evidence)
    } else if ratio >= LTV_CAC_WARN {
        LTV_CAC.warn(evidence, move_budget)
    } else {
        LTV_CAC.fail(evidence, move_budget)
    })
}

async fn cac_trend(ctx: &Context<'_>) -> ApiResult<HealthCheck> {
    let action = format!(
        "Find the channel whose CAC rose (GET {} against the previous window) and cut or retarget its spend with a spend proposal.",
        ctx.path("/attribution")
    );
    let spend = ctx.spend_cents();
    if spend <= 0 {
        return Ok(CAC_TREND.skip(no_spend(ctx), connect_ads(ctx)));
    }
    let previous = ctx.span.previous();
    let previous_spend = activity::spend_in(&ctx.state.store, &ctx.product.id, previous).await?;
    let previous_customers = customers_in(ctx, previous).await?;
    let before = format!("the {} before", ctx.window_text());
    let Some(previous_cac) =
        metrics::cac(previous_spend, previous_customers).filter(|cac| *cac > 0)
    else {
        return Ok(CAC_TREND.skip(
            format!(
                "No CAC in {before} to compare with ({} spend, {previous_customers} customers)",
                ctx.money(previous_spend)
            ),
            "Nothing to do: the trend shows once two windows both have spend and customers.",
        ));
    };
    let customers = customers_in(ctx, ctx.span).await?;
    let Some(cac) = metrics::cac(spend, customers) else {
        return Ok(CAC_TREND.fail(
            format!(
                "No customer for {} of spend in the last {}, against a CAC of {} in {before}",
                ctx.money(spend),
                ctx.window_text(),
                ctx.money(previous_cac)
            ),
            action,
        ));
    };
    let change = conversions::change_pct(cac, previous_cac).unwrap_or_default();
    let evidence = format!(
        "CAC {} in the last {} vs {} in {before} ({change:+.1}%)",
        ctx.money(cac),
        ctx.window_text(),
        ctx.money(previous_cac)
    );
    Ok(if change <= CAC_TREND_PASS_PCT {
        CAC_TREND.pass(evidence)
    } else if change <= CAC_TREND_WARN_PCT {
        CAC_TREND.warn(evidence, action)
    } else {
        CAC_TREND.fail(evidence, action)
    })
}

async fn policy_caps(ctx: &Context<'_>) -> ApiResult<HealthCheck> {
    let action = format!(
        "Set a daily cap for each network you spend on (POST {} with daily_caps), so no proposal can exceed it.",
        ctx.path("/policy")
    );
    let spending: Vec<(Network, i64)> = Network::ALL
        .iter()
        .map(|network| (*network, ctx.channel_spend_cents(network.channel())))
        .filter(|(_, cents)| *cents > 0)
        .collect();
    if spending.is_empty() {
        return Ok(POLICY_CAPS.skip(
            format!("No spend on Google Ads or Meta in {}", ctx.window_text()),
            action,
        ));
    }
    let policy = policies::product_policy(Reader::from(&ctx.state.store), &ctx.product.id).await?;
    let uncapped: Vec<String> = spending
        .iter()
        .filter(|(network, _)| policy.cap(*network).is_none())
        .map(|(network, cents)| format!("{} spent {}", network.label(), ctx.money(*cents)))
        .collect();
    if uncapped.is_empty() {
        let caps: Vec<String> = spending
            .iter()
            .filter_map(|(network, _)| {
                policy
                    .cap(*network)
                    .map(|cap| format!("{} {} a day", network.label(), ctx.money(cap)))
            })
            .collect();
        Ok(POLICY_CAPS.pass(format!("Capped: {}", text::list(&caps))))
    } else {
        Ok(POLICY_CAPS.warn(
            format!(
                "No daily cap: {} in {}",
                text::list(&uncapped),
                ctx.window_text()
            ),
            action,
        ))
    }
}

async fn url_suffix(ctx: &Context<'_>) -> HealthCheck {
    let base = ctx.path("/connections/search-ads/url-suffix");
    let rows = ctx.connections_where(|kind| kind.spec().final_url_suffix);
    let Some((_, row)) = rows.first() else {
        return URL_SUFFIX.skip(
            "Google Ads not connected",
            "Connect Google Ads (POST /connect/searchco/start); Payback then checks the account's final URL suffix.",
        );
    };
    let config: Value = serde_json::from_str(&row.config).unwrap_or_default();
    if let Some(at) = config["url_suffix_deployed_at"].as_str() {
        return URL_SUFFIX.pass(format!("Payback wrote the complete suffix on {at}"));
    }
    if row.status == payback_domain::connection::ConnectionStatus::Pending
        || row.credential_id.is_none()
    {
        return URL_SUFFIX.skip(
            format!(
                "The Google Ads connection is not usable yet (status {})",
                row.status
            ),
            "Finish connecting Google Ads (choose the ad account); the suffix is checked next.",
        );
    }
    let retry = format!("Check the connection, then read the suffix again with GET {base}.");
    match tokio::time::timeout(
        LIVE_READ,
        url_suffix::read(ctx.state, ctx.caller, &ctx.product.slug),
    )
    .await
    {
        Err(_) => URL_SUFFIX.skip(
            format!("Google Ads did not answer within {} s", LIVE_READ.as_secs()),
            retry,
        ),
        Ok(Err(error)) => URL_SUFFIX.skip(format!("The suffix could not be read: {error}"), retry),
        Ok(Ok(report)) => match report.read_error {
            Some(error) => URL_SUFFIX.skip(format!("The suffix could not be read: {error}"), retry),
            None if report.complete => URL_SUFFIX
                .pass("The account's final URL suffix carries every parameter Payback needs"),
            None => URL_SUFFIX.fail(
                format!("The final URL suffix lacks {}", report.missing.join(", ")),
                format!(
                    "A person signed in to the dashboard appends them (POST {base}, the account's own parameters kept); agents ask the founder to press the button in the dashboard."
                ),
            ),
        },
    }
}
