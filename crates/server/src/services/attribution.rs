//! The attribution report, the sales list behind it, and the ads report.
//!
//! First touch is the identity's first channel; last touch is the latest channel-bearing event
//! at or before the revenue row, else the first touch. Revenue with no identity, or whose
//! identity never had a channel, is the row `unattributed` and is never spread over channels,
//! so revenue = attributed_first + unattributed and the last-touch column sums to the same.

use std::collections::BTreeMap;

use payback_domain::channel::UNATTRIBUTED;
use payback_domain::span::Span;
use payback_domain::{Timestamp, metrics};
use payback_store::reports::attribution::{self as store, AdLevel, ChannelSum, SalesFilter};
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};
use crate::input::Window;
use crate::services::acting::Caller;
use crate::services::{conversions, products};
use crate::state::AppState;

/// The spec's Attribution report.
#[derive(Debug, Serialize, ToSchema)]
pub struct AttributionReport {
    pub window_days: i64,
    /// One row per channel with spend, revenue or customers in the window, plus always
    /// `unattributed`; by first-touch revenue (highest first), then channel.
    pub channels: Vec<ChannelRow>,
    pub totals: AttributionTotals,
    /// The active primary conversion's volume in the window; null when none is defined.
    pub primary_goal: Option<PrimaryGoal>,
    pub coverage: AttributionCoverage,
}

#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct ChannelRow {
    pub channel: String,
    pub spend_cents: i64,
    /// Net revenue of the window whose identity's first touch was this channel.
    pub revenue_first_cents: i64,
    /// Net revenue of the window whose last touch was this channel.
    pub revenue_last_cents: i64,
    /// Revenue rows counted in `revenue_first_cents`.
    pub transactions_first: i64,
    /// Customers acquired in the window whose first touch was this channel.
    pub customers_first: i64,
    /// Spend / customers_first; null when no customers (and always for `unattributed`).
    pub cac_cents: Option<i64>,
    /// revenue_first / spend; null when no spend.
    pub roas: Option<f64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AttributionTotals {
    /// attributed_first_cents + unattributed_cents.
    pub revenue_cents: i64,
    pub spend_cents: i64,
    pub attributed_first_cents: i64,
    pub unattributed_cents: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PrimaryGoal {
    pub key: String,
    pub label: String,
    pub stage: String,
    /// The goal's conversions in the window, counted exactly as the conversions report counts
    /// them: events of its stage, narrowed by its event name and source when set.
    pub count: i64,
    /// Their value by the goal's `value_mode`: `none` 0, `fixed` count x `fixed_value_cents`,
    /// `transaction` the events' own amounts.
    pub value_cents: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AttributionCoverage {
    /// Distinct identities with any event in the window.
    pub identities_total: i64,
    /// Of those, identities with a first touch.
    pub identities_with_channel: i64,
    pub events_total: i64,
    pub events_with_channel: i64,
    /// Revenue rows in the window.
    pub transactions_total: i64,
    pub transactions_with_identity: i64,
    /// Emails that a second user id named in the window while the first held them; their
    /// events count for the first.
    pub email_conflicts: i64,
}

fn channel_name(channel: Option<String>) -> String {
    channel.unwrap_or_else(|| UNATTRIBUTED.to_owned())
}

fn channel_row(
    rows: &mut BTreeMap<String, ChannelRow>,
    channel: Option<String>,
) -> &mut ChannelRow {
    let name = channel_name(channel);
    rows.entry(name.clone()).or_insert_with(|| ChannelRow {
        channel: name,
        ..ChannelRow::default()
    })
}

pub async fn report(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    window: Window,
) -> ApiResult<AttributionReport> {
    let product = products::find_settled(state, caller.scope()?, slug).await?;
    let span = window.span(state.clock.now());
    let db = &state.store;
    let id = product.id.as_str();

    let mut rows: BTreeMap<String, ChannelRow> = BTreeMap::new();
    channel_row(&mut rows, None);
    for ChannelSum { channel, cents, .. } in store::spend_by_channel(db, id, span).await? {
        channel_row(&mut rows, channel).spend_cents += cents;
    }
    for sum in store::revenue_by_first_channel(db, id, span).await? {
        let entry = channel_row(&mut rows, sum.channel);
        entry.revenue_first_cents += sum.cents;
        entry.transactions_first += sum.count;
    }
    for sum in store::revenue_by_last_channel(db, id, span).await? {
        channel_row(&mut rows, sum.channel).revenue_last_cents += sum.cents;
    }
    for sum in store::customers_by_first_channel(db, id, span).await? {
        channel_row(&mut rows, sum.channel).customers_first += sum.count;
    }

    let mut channels: Vec<ChannelRow> = rows.into_values().collect();
    for entry in &mut channels {
        // `unattributed` has no spend of its own; a CAC of 0 there would read as free customers.
        if entry.channel != UNATTRIBUTED {
            entry.cac_cents = metrics::cac(entry.spend_cents, entry.customers_first);
            entry.roas = metrics::roas(entry.revenue_first_cents, entry.spend_cents);
        }
    }
    channels.sort_by(|a, b| {
        b.revenue_first_cents
            .cmp(&a.revenue_first_cents)
            .then_with(|| a.channel.cmp(&b.channel))
    });
    let revenue_cents: i64 = channels.iter().map(|c| c.revenue_first_cents).sum();
    let unattributed_cents = channels
        .iter()
        .find(|c| c.channel == UNATTRIBUTED)
        .map_or(0, |c| c.revenue_first_cents);
    let totals = AttributionTotals {
        revenue_cents,
        spend_cents: channels.iter().map(|c| c.spend_cents).sum(),
        attributed_first_cents: revenue_cents - unattributed_cents,
        unattributed_cents,
    };

    let coverage = store::coverage(db, id, span).await?;
    Ok(AttributionReport {
        window_days: window.days,
        channels,
        totals,
        primary_goal: primary_goal(state, id, span).await?,
        coverage: AttributionCoverage {
            identities_total: coverage.identities_total,
            identities_with_channel: coverage.identities_with_channel,
            events_total: coverage.events_total,
            events_with_channel: coverage.events_with_channel,
            transactions_total: coverage.transactions_total,
            transactions_with_identity: coverage.transactions_with_identity,
            email_conflicts: coverage.email_conflicts,
        },
    })
}

async fn primary_goal(
    state: &AppState,
    product_id: &str,
    span: Span,
) -> ApiResult<Option<PrimaryGoal>> {
    let Some(goal) = conversions::primary(state, product_id).await? else {
        return Ok(None);
    };
    let tally = conversions::tally_in(state, product_id, &goal, span).await?;
    Ok(Some(PrimaryGoal {
        key: goal.key,
        label: goal.label,
        stage: goal.stage,
        count: tally.count,
        value_cents: tally.value_cents,
    }))
}

/// `{window_days, total, sales}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct SalesList {
    pub window_days: i64,
    /// Matching revenue rows before the limit.
    pub total: i64,
    /// Newest first.
    pub sales: Vec<SaleView>,
}

/// One revenue row with its first- and last-touch channels.
#[derive(Debug, Serialize, ToSchema)]
pub struct SaleView {
    pub id: String,
    pub occurred_at: String,
    pub day: String,
    /// Net amount; refunds and disputes are negative.
    pub amount_cents: i64,
    pub currency: String,
    /// `sale`, `refund` or `dispute`.
    pub kind: String,
    pub stage: Option<String>,
    /// The canonical identity (`u:<user_id>` or `a:<anonymous_id>`); null when none.
    pub identity: Option<String>,
    /// `unattributed` when the identity has no channel or there is no identity.
    pub first_channel: String,
    pub last_channel: String,
}

/// Revenue rows of the window, newest first; `channel` keeps those whose *first* touch is that
/// channel (`unattributed`: no first touch), as the report's first-touch rows count them.
pub async fn sales(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    window: Window,
    channel: Option<&str>,
) -> ApiResult<SalesList> {
    let product = products::find_settled(state, caller.scope()?, slug).await?;
    let span = window.span(state.clock.now());
    let filter = match channel {
        None => SalesFilter::All,
        Some(UNATTRIBUTED) => SalesFilter::FirstTouch(None),
        Some(channel) => SalesFilter::FirstTouch(Some(channel)),
    };
    let (total, rows) = store::sales(&state.store, &product.id, span, filter, window.limit).await?;
    let sales = rows
        .into_iter()
        .map(|row| SaleView {
            id: row.id.to_string(),
            occurred_at: Timestamp::from_millis(row.occurred_at).to_rfc3339(),
            day: row.day,
            amount_cents: row.amount_cents,
            currency: row.currency,
            kind: row.kind,
            stage: row.stage,
            identity: row.identity,
            first_channel: channel_name(row.first_channel),
            last_channel: channel_name(row.last_channel),
        })
        .collect();
    Ok(SalesList {
        window_days: window.days,
        total,
        sales,
    })
}

/// The ad grains, as the `level` query spells them.
pub const LEVELS: [(&str, AdLevel); 4] = [
    ("campaign", AdLevel::Campaign),
    ("ad_group", AdLevel::AdGroup),
    ("keyword", AdLevel::Keyword),
    ("ad", AdLevel::Ad),
];

/// Reads `level` (default `campaign`); anything else is a 400 naming the field.
pub fn parse_level(level: Option<&str>) -> ApiResult<(&'static str, AdLevel)> {
    let wanted = level.unwrap_or("campaign");
    LEVELS
        .iter()
        .find(|(name, _)| *name == wanted)
        .copied()
        .ok_or_else(|| {
            ApiError::bad_request(format!(
                "level: must be one of campaign, ad_group, keyword, ad; got {wanted:?}"
            ))
        })
}

/// The sentinel row of revenue with no paid touch.
pub const SENTINEL_UNATTRIBUTED: &str = UNATTRIBUTED;
/// The sentinel row of spend and paid-touch revenue with nothing at the report's grain. Its
/// spend is the channels' spend minus the dimension rows', so every level's rows sum to the
/// same total: at `keyword`, spend of networks that report keywords apart from ads is their
/// keyword breakdown (`spend_keyword_rows`), and `no_dimension` keeps what no keyword covers
/// (`payback_store::reports::attribution::ad_spend`).
pub const SENTINEL_NO_DIMENSION: &str = "no_dimension";

/// `{window_days, level, rows, totals, coverage}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct AdsReport {
    pub window_days: i64,
    pub level: String,
    /// Dimension rows (revenue, then spend, highest first; at most `limit`), then always the
    /// sentinels `no_dimension` and `unattributed`.
    pub rows: Vec<AdRow>,
    pub totals: AdsTotals,
    pub coverage: AdsCoverage,
}

#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct AdRow {
    /// The network's id at this grain; a sentinel name for the sentinel rows; the tag value
    /// itself when a paid touch names something no spend row knows.
    pub id: String,
    pub name: Option<String>,
    /// Null for the sentinel rows.
    pub channel: Option<String>,
    pub spend_cents: i64,
    pub impressions: i64,
    pub clicks: i64,
    /// Net revenue of the window whose identity's last paid touch points here.
    pub revenue_cents: i64,
    pub transactions: i64,
    /// Customers acquired in the window whose last paid touch before acquisition points here.
    pub customers: i64,
    pub cac_cents: Option<i64>,
    pub roas: Option<f64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AdsTotals {
    pub spend_cents: i64,
    pub revenue_cents: i64,
    /// Revenue with a paid touch (including `no_dimension`).
    pub attributed_cents: i64,
    /// Revenue with no paid touch.
    pub unattributed_cents: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AdsCoverage {
    pub transactions_total: i64,
    pub transactions_with_paid_touch: i64,
}

/// Where a paid touch lands in the report.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Bucket {
    /// `(channel, id)`.
    Dimension(String, String),
    NoDimension,
    Unattributed,
}

/// Dimension values ever seen in spend at this grain, to resolve a touch's tag (an id or a
/// name) to an id, and to name rows that have revenue but no spend in the window.
#[derive(Default)]
struct Dimensions {
    names: BTreeMap<(String, String), Option<String>>,
    by_name: BTreeMap<(String, String), String>,
}

impl Dimensions {
    fn new(known: Vec<store::AdDimension>) -> Self {
        let mut dimensions = Self::default();
        // Oldest first, so the latest name of an id (and the latest id of a name) wins.
        for dim in known {
            if let Some(name) = &dim.name {
                dimensions
                    .by_name
                    .insert((dim.channel.clone(), name.clone()), dim.id.clone());
            }
            dimensions.names.insert((dim.channel, dim.id), dim.name);
        }
        dimensions
    }

    /// The bucket of a touch: its tag at this grain matched first as an id, then as a name,
    /// within the touch's channel. A tag nothing knows keeps its own row rather than vanish.
    fn bucket(&self, level: AdLevel, touch: &store::PaidTouch) -> Bucket {
        let Some(channel) = &touch.channel else {
            return Bucket::Unattributed;
        };
        let tag = touch
            .tags
            .as_deref()
            .and_then(|text| serde_json::from_str::<serde_json::Value>(text).ok())
            .and_then(|tags| {
                tags.get(level.tag_key())?
                    .as_str()
                    .map(str::trim)
                    .map(str::to_owned)
            })
            .filter(|tag| !tag.is_empty());
        let Some(tag) = tag else {
            return Bucket::NoDimension;
        };
        let key = (channel.clone(), tag);
        if self.names.contains_key(&key) {
            return Bucket::Dimension(key.0, key.1);
        }
        match self.by_name.get(&key) {
            Some(id) => Bucket::Dimension(key.0, id.clone()),
            None => Bucket::Dimension(key.0, key.1),
        }
    }
}

/// Spend per ad at one grain, joined to revenue through each revenue row's last paid touch.
pub async fn ads(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    window: Window,
    level: Option<&str>,
) -> ApiResult<AdsReport> {
    let (level_name, level) = parse_level(level)?;
    let product = products::find_settled(state, caller.scope()?, slug).await?;
    let span = window.span(state.clock.now());
    let (db, id) = (&state.store, product.id.as_str());
    let dimensions = Dimensions::new(store::ad_dimensions(db, id, level).await?);

    let mut rows: BTreeMap<Bucket, AdRow> = BTreeMap::new();
    for spend in store::ad_spend(db, id, span, level).await? {
        let (bucket, name) = if spend.id.is_empty() {
            (Bucket::NoDimension, None)
        } else {
            (Bucket::Dimension(spend.channel, spend.id), spend.name)
        };
        let row = ad_row(&mut rows, &dimensions, bucket);
        row.spend_cents += spend.spend_cents;
        row.impressions += spend.impressions;
        row.clicks += spend.clicks;
        if row.name.is_none() {
            row.name = name;
        }
    }
    let touches = store::paid_touches(db, id, span).await?;
    let coverage = AdsCoverage {
        transactions_total: touches.iter().map(|t| t.revenue_rows).sum(),
        transactions_with_paid_touch: touches
            .iter()
            .filter(|t| t.channel.is_some())
            .map(|t| t.revenue_rows)
            .sum(),
    };
    for touch in &touches {
        let row = ad_row(&mut rows, &dimensions, dimensions.bucket(level, touch));
        row.revenue_cents += touch.revenue_cents;
        row.transactions += touch.revenue_rows;
        row.customers += touch.customers;
    }
    ad_row(&mut rows, &dimensions, Bucket::NoDimension);
    ad_row(&mut rows, &dimensions, Bucket::Unattributed);

    let revenue_cents: i64 = rows.values().map(|r| r.revenue_cents).sum();
    let unattributed_cents = rows
        .get(&Bucket::Unattributed)
        .map_or(0, |r| r.revenue_cents);
    let totals = AdsTotals {
        spend_cents: rows.values().map(|r| r.spend_cents).sum(),
        revenue_cents,
        attributed_cents: revenue_cents - unattributed_cents,
        unattributed_cents,
    };
    let mut sentinels = Vec::new();
    let mut dimension_rows = Vec::new();
    for (bucket, mut row) in rows {
        // Revenue with no paid touch has no spend of its own: its CAC stays null, never 0.
        if bucket != Bucket::Unattributed {
            row.cac_cents = metrics::cac(row.spend_cents, row.customers);
            row.roas = metrics::roas(row.revenue_cents, row.spend_cents);
        }
        match bucket {
            Bucket::Dimension(..) => dimension_rows.push(row),
            _ => sentinels.push(row),
        }
    }
    dimension_rows.sort_by(|a, b| {
        (b.revenue_cents, b.spend_cents)
            .cmp(&(a.revenue_cents, a.spend_cents))
            .then_with(|| (&a.channel, &a.id).cmp(&(&b.channel, &b.id)))
    });
    dimension_rows.truncate(usize::try_from(window.limit).unwrap_or(usize::MAX));
    dimension_rows.extend(sentinels);
    Ok(AdsReport {
        window_days: window.days,
        level: level_name.to_owned(),
        rows: dimension_rows,
        totals,
        coverage,
    })
}

fn ad_row<'a>(
    rows: &'a mut BTreeMap<Bucket, AdRow>,
    dimensions: &Dimensions,
    bucket: Bucket,
) -> &'a mut AdRow {
    rows.entry(bucket.clone()).or_insert_with(|| match bucket {
        Bucket::Dimension(channel, id) => AdRow {
            name: dimensions
                .names
                .get(&(channel.clone(), id.clone()))
                .cloned()
                .unwrap_or_else(|| Some(id.clone())),
            channel: Some(channel),
            id,
            ..AdRow::default()
        },
        Bucket::NoDimension => AdRow {
            id: SENTINEL_NO_DIMENSION.to_owned(),
            ..AdRow::default()
        },
        Bucket::Unattributed => AdRow {
            id: SENTINEL_UNATTRIBUTED.to_owned(),
            ..AdRow::default()
        },
    })
}
