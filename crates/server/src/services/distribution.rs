//! The distribution log: outreach recorded by hand or by an agent, joined back to the traffic,
//! leads and revenue its `utm_campaign` brought.

use payback_domain::Timestamp;
use payback_store::distribution::{self, CampaignResults, NewEntry};
use serde::Serialize;
use serde_json::json;
use utoipa::ToSchema;

use crate::error::ApiResult;
use crate::input::Window;
use crate::services::acting::Caller;
use crate::services::{audit, products};
use crate::state::AppState;

/// What the caller logged; lengths are checked by the route.
#[derive(Debug)]
pub struct EntryInput {
    pub product_slug: String,
    pub channel: String,
    pub kind: String,
    pub url: Option<String>,
    pub utm_campaign: Option<String>,
    pub note: Option<String>,
}

pub async fn record(state: &AppState, caller: &Caller, input: EntryInput) -> ApiResult<String> {
    let scope = caller.scope()?;
    let product = products::find(state, scope, &input.product_slug).await?;
    let actor = caller.actor();
    let now = state.clock.now();
    let mut tx = state.store.begin().await?;
    let entry = NewEntry {
        product_id: &product.id,
        channel: input.channel.trim(),
        kind: input.kind.trim(),
        url: input.url.as_deref(),
        utm_campaign: input
            .utm_campaign
            .as_deref()
            .map(str::trim)
            .filter(|c| !c.is_empty()),
        note: input.note.as_deref(),
        created_by: &actor.who,
    };
    let row = distribution::insert(&mut tx, scope, entry, now).await?;
    let payload = json!({
        "entry_id": row.id, "channel": row.channel, "kind": row.kind,
        "url": row.url, "utm_campaign": row.utm_campaign,
    });
    audit::record_product(
        &mut tx,
        &actor,
        &product,
        "distribution.create",
        payload,
        now,
    )
    .await?;
    tx.commit().await?;
    Ok(row.id)
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DistributionList {
    pub product_slug: String,
    pub window_days: i64,
    pub entries: Vec<EntryView>,
}

/// One entry with what its campaign brought (all time; zeros without a campaign).
#[derive(Debug, Serialize, ToSchema)]
pub struct EntryView {
    pub id: String,
    pub channel: String,
    pub kind: String,
    pub url: Option<String>,
    pub utm_campaign: Option<String>,
    pub note: Option<String>,
    pub created_by: String,
    pub created_at: String,
    /// Distinct visitors arriving with the campaign (plus anonymous visits without an id).
    pub visits: i64,
    /// Identities the campaign reached that became leads.
    pub leads: i64,
    /// Identities the campaign reached that became customers.
    pub customers: i64,
    /// Net revenue of the identities the campaign reached.
    pub revenue_cents: i64,
}

/// Entries recorded in the window, newest first, each joined to its campaign's results.
pub async fn list(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    window: Window,
) -> ApiResult<DistributionList> {
    let scope = caller.scope()?;
    let product = products::find_settled(state, scope, slug).await?;
    let now = state.clock.now();
    let rows = distribution::list(
        &state.store,
        scope,
        &product.id,
        window.since(now),
        window.limit,
    )
    .await?;
    let mut entries = Vec::with_capacity(rows.len());
    for row in rows {
        let results = match row.utm_campaign.as_deref() {
            Some(campaign) => {
                distribution::campaign_results(&state.store, &product.id, campaign).await?
            }
            None => CampaignResults::default(),
        };
        entries.push(EntryView {
            id: row.id,
            channel: row.channel,
            kind: row.kind,
            url: row.url,
            utm_campaign: row.utm_campaign,
            note: row.note,
            created_by: row.created_by,
            created_at: Timestamp::from_millis(row.created_at).to_rfc3339(),
            visits: results.visits,
            leads: results.leads,
            customers: results.customers,
            revenue_cents: results.revenue_cents,
        });
    }
    Ok(DistributionList {
        product_slug: product.slug,
        window_days: window.days,
        entries,
    })
}
