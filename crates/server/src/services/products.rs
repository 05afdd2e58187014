//! Products and the portfolio.

use payback_domain::validation::{
    DOMAIN_MAX_CHARS, PRODUCT_NAME_MAX_CHARS, check_one_line_field, normalize_currency,
};
use payback_domain::{GateResult, MemberRole, ProductStage, Timestamp};
use payback_store::products::{self, NewProduct, ProductPatch, ProductRow};
use payback_store::{AccountScope, accounts};
use serde::Serialize;
use serde_json::json;
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};
use crate::mail::messages;
use crate::pending_events;
use crate::services::acting::Caller;
use crate::services::audit;
use crate::services::product_metrics::{self, ProductMetrics};
use crate::state::AppState;

/// The spec's Product row (portfolio row). Spend, volume and revenue columns are computed from
/// ingested data (see `services::product_metrics`); with nothing ingested they are 0, and CAC,
/// LTV and LTV:CAC are null.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProductView {
    pub product_id: String,
    pub slug: String,
    pub name: String,
    pub stage: ProductStage,
    pub currency: String,
    pub domain: Option<String>,
    pub gate_result: Option<GateResult>,
    pub gate_due_date: Option<String>,
    pub spend_7d_cents: i64,
    pub spend_30d_cents: i64,
    pub spend_prev_30d_cents: i64,
    pub visits_30d: i64,
    pub leads_30d: i64,
    pub customers_30d: i64,
    pub revenue_30d_cents: i64,
    pub revenue_prev_30d_cents: i64,
    pub cac_cents: Option<i64>,
    pub ltv_cents: Option<i64>,
    pub ltv_cac: Option<f64>,
    pub pending_cards: i64,
}

impl ProductView {
    fn new(row: ProductRow, metrics: ProductMetrics) -> Self {
        Self {
            product_id: row.id,
            slug: row.slug,
            name: row.name,
            stage: row.stage,
            currency: row.currency,
            domain: row.domain,
            gate_result: row.gate_result,
            gate_due_date: row.gate_due_date,
            spend_7d_cents: metrics.spend_7d_cents,
            spend_30d_cents: metrics.spend_30d_cents,
            spend_prev_30d_cents: metrics.spend_prev_30d_cents,
            visits_30d: metrics.visits_30d,
            leads_30d: metrics.leads_30d,
            customers_30d: metrics.customers_30d,
            revenue_30d_cents: metrics.revenue_30d_cents,
            revenue_prev_30d_cents: metrics.revenue_prev_30d_cents,
            cac_cents: metrics.cac_cents,
            ltv_cents: metrics.ltv_cents,
            ltv_cac: metrics.ltv_cac,
            pending_cards: metrics.pending_cards,
        }
    }

    /// Rows for `products`, with their metrics read in one grouped query per metric.
    async fn many(state: &AppState, products: Vec<ProductRow>) -> ApiResult<Vec<Self>> {
        let ids: Vec<&str> = products.iter().map(|p| p.id.as_str()).collect();
        let mut metrics = product_metrics::for_products(state, &ids).await?;
        Ok(products
            .into_iter()
            .map(|row| {
                let row_metrics = metrics.remove(&row.id).unwrap_or_default();
                Self::new(row, row_metrics)
            })
            .collect())
    }
}

/// `{id, slug, name, currency, stage}` after creation.
#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedProduct {
    pub id: String,
    pub slug: String,
    pub name: String,
    pub currency: String,
    pub stage: ProductStage,
}

/// `{id, slug, name, currency, domain}` after an edit, plus the stage and gate.
#[derive(Debug, Serialize, ToSchema)]
pub struct EditedProduct {
    pub id: String,
    pub slug: String,
    pub name: String,
    pub currency: String,
    pub domain: Option<String>,
    pub stage: ProductStage,
    pub gate_due_date: Option<String>,
    pub gate_result: Option<GateResult>,
}

/// Loads a product of the caller's account by slug, or 404.
pub async fn find(state: &AppState, scope: &AccountScope, slug: &str) -> ApiResult<ProductRow> {
    products::find_by_slug(&state.store, scope, slug)
        .await?
        .ok_or_else(|| ApiError::not_found("product"))
}

/// [`find`], once the events accepted for the product so far are folded into the tables
/// reports read, waiting for that at most `read_wait_ms` (`IngestWriter::settle_within`):
/// every report starts here. When the fold keeps up (the usual case) a report answered after
/// an ingest request was answered counts that request's events; behind a burst or a backfill
/// it answers from what is folded instead of waiting minutes, and the count still pending goes
/// out as `X-Payback-Pending-Events` (`pending_events`).
pub async fn find_settled(
    state: &AppState,
    scope: &AccountScope,
    slug: &str,
) -> ApiResult<ProductRow> {
    let product = find(state, scope, slug).await?;
    let pending = state
        .ingest
        .settle_within(&product.id, state.config.read_wait())
        .await?;
    pending_events::record(pending);
    Ok(product)
}

/// [`find`], once every event accepted for the product so far is folded, however long that
/// takes (`IngestWriter::settle`): for readers whose answer must be complete (exports) and
/// for writes that decide on ingested data (whether revenue exists).
pub async fn find_exact(
    state: &AppState,
    scope: &AccountScope,
    slug: &str,
) -> ApiResult<ProductRow> {
    let product = find(state, scope, slug).await?;
    state.ingest.settle(&product.id).await?;
    pending_events::record(0);
    Ok(product)
}

/// `https://www.Example.com/path` -> `www.example.com`; empty means none.
pub fn normalize_domain(domain: &str) -> Option<String> {
    let trimmed = domain.trim();
    let without_scheme = trimmed.split_once("://").map_or(trimmed, |(_, rest)| rest);
    let host = without_scheme
        .split(['/', '?', '#'])
        .next()
        .unwrap_or_default();
    (!host.is_empty()).then(|| host.to_ascii_lowercase())
}

pub struct NewProductInput {
    pub name: String,
    pub slug: String,
    pub domain: Option<String>,
    pub currency: Option<String>,
}

pub async fn create(
    state: &AppState,
    caller: &Caller,
    input: NewProductInput,
) -> ApiResult<CreatedProduct> {
    let scope = caller.scope()?;
    let currency = match &input.currency {
        Some(code) => normalize_currency(code)
            .map_err(|msg| ApiError::bad_request(format!("currency: {msg}")))?,
        None => "USD".to_owned(),
    };
    if let Some(domain) = &input.domain {
        check_one_line_field("domain", domain).map_err(ApiError::bad_request)?;
    }
    let domain = input.domain.as_deref().and_then(normalize_domain);
    let name = input.name.trim();
    // The length rule is checked before trimming (by the request's validation), so a name of
    // only spaces would otherwise be stored empty, breaking the 1-120 rule; edits check the same.
    if name.is_empty() {
        return Err(ApiError::bad_request(format!(
            "name: must be 1-{PRODUCT_NAME_MAX_CHARS} characters"
        )));
    }
    check_one_line_field("name", name).map_err(ApiError::bad_request)?;
    let now = state.clock.now();
    let mut tx = state.store.begin().await?;
    let new = NewProduct {
        slug: &input.slug,
        name,
        currency: &currency,
        domain: domain.as_deref(),
    };
    let row = products::insert(&mut tx, scope, new, now).await?;
    let payload = json!({ "name": row.name, "currency": row.currency, "domain": row.domain });
    audit::record_product(
        &mut tx,
        &caller.actor(),
        &row,
        "product.create",
        payload,
        now,
    )
    .await?;
    tx.commit().await?;
    Ok(CreatedProduct {
        id: row.id,
        slug: row.slug,
        name: row.name,
        currency: row.currency,
        stage: ProductStage::Validation,
    })
}

pub struct ProductEdit {
    pub name: Option<String>,
    pub currency: Option<String>,
    pub domain: Option<Option<String>>,
    /// Owners only, with the two gate fields.
    pub stage: Option<ProductStage>,
    pub gate_due_date: Option<Option<String>>,
    pub gate_result: Option<Option<GateResult>>,
}

impl ProductEdit {
    fn is_empty(&self) -> bool {
        self.name.is_none()
            && self.currency.is_none()
            && self.domain.is_none()
            && !self.touches_gate()
    }

    fn touches_gate(&self) -> bool {
        self.stage.is_some() || self.gate_due_date.is_some() || self.gate_result.is_some()
    }
}

pub async fn update(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    edit: ProductEdit,
) -> ApiResult<EditedProduct> {
    let scope = caller.scope()?;
    // A currency change is decided on ingested data (the rule below asks whether revenue
    // exists, and revenue still in the inbox exists too), so it waits for the whole fold;
    // every other edit is not, and must not wait behind a backlog (a burst, a backfill) that
    // can take minutes to fold.
    let product = if edit.currency.is_some() {
        find_exact(state, scope, slug).await?
    } else {
        find(state, scope, slug).await?
    };
    if edit.is_empty() {
        return Err(ApiError::bad_request(
            "nothing to update: send name, currency, domain, stage, gate_due_date or gate_result",
        ));
    }
    let is_owner = caller
        .person()
        .is_some_and(|person| person.member_role == MemberRole::Owner);
    if edit.touches_gate() && !is_owner {
        return Err(ApiError::Forbidden(
            "Not an owner: only an owner's session sets stage, gate_due_date and gate_result"
                .to_owned(),
        ));
    }
    let gate_due_date = edit
        .gate_due_date
        .as_ref()
        .map(|due| {
            due.as_deref()
                .map(|day| {
                    Timestamp::parse_day(day).map(|_| day).ok_or_else(|| {
                        ApiError::bad_request("gate_due_date: must be a day, YYYY-MM-DD")
                    })
                })
                .transpose()
        })
        .transpose()?;
    let name = edit.name.as_deref().map(str::trim);
    if name.is_some_and(|n| n.is_empty() || n.chars().count() > PRODUCT_NAME_MAX_CHARS) {
        return Err(ApiError::bad_request(format!(
            "name: must be 1-{PRODUCT_NAME_MAX_CHARS} characters"
        )));
    }
    if let Some(name) = name {
        check_one_line_field("name", name).map_err(ApiError::bad_request)?;
    }
    let currency = edit
        .currency
        .as_deref()
        .map(normalize_currency)
        .transpose()
        .map_err(|msg| ApiError::bad_request(format!("currency: {msg}")))?;
    if edit
        .domain
        .as_ref()
        .and_then(Option::as_ref)
        .is_some_and(|d| d.chars().count() > DOMAIN_MAX_CHARS)
    {
        return Err(ApiError::bad_request(format!(
            "domain: must be at most {DOMAIN_MAX_CHARS} characters"
        )));
    }
    if let Some(Some(domain)) = &edit.domain {
        check_one_line_field("domain", domain).map_err(ApiError::bad_request)?;
    }
    let domain = edit.domain.map(|d| d.as_deref().and_then(normalize_domain));
    let patch = ProductPatch {
        name,
        currency: currency.as_deref(),
        domain: domain.as_ref().map(Option::as_deref),
        stage: edit.stage.map(ProductStage::as_str),
        gate_due_date,
        gate_result: edit.gate_result.map(|r| r.map(GateResult::as_str)),
    };
    let now = state.clock.now();
    let mut tx = state.store.begin().await?;
    let changes_currency = currency.as_deref().is_some_and(|c| c != product.currency);
    if changes_currency && products::has_revenue(&mut tx, &product.id).await? {
        return Err(ApiError::Conflict(format!(
            "currency: revenue is already recorded in {}; its amounts would be relabelled, \
             so the currency cannot change (create a product for the other currency)",
            product.currency
        )));
    }
    let row = products::update(&mut tx, scope, &product.id, &patch).await?;
    let payload = json!({
        "before": { "name": product.name, "currency": product.currency, "domain": product.domain,
            "stage": product.stage, "gate_due_date": product.gate_due_date, "gate_result": product.gate_result },
        "after": { "name": row.name, "currency": row.currency, "domain": row.domain,
            "stage": row.stage, "gate_due_date": row.gate_due_date, "gate_result": row.gate_result },
    });
    audit::record_product(
        &mut tx,
        &caller.actor(),
        &row,
        "product.update",
        payload,
        now,
    )
    .await?;
    tx.commit().await?;
    Ok(EditedProduct {
        stage: row.stage,
        gate_result: row.gate_result,
        gate_due_date: row.gate_due_date,
        id: row.id,
        slug: row.slug,
        name: row.name,
        currency: row.currency,
        domain: row.domain,
    })
}

pub async fn row(state: &AppState, caller: &Caller, slug: &str) -> ApiResult<ProductView> {
    let product = find_settled(state, caller.scope()?, slug).await?;
    let mut rows = ProductView::many(state, vec![product]).await?;
    rows.pop()
        .ok_or_else(|| ApiError::internal("a product row went missing"))
}

/// One row per product, the first `limit` in order of creation; operators see every account's
/// products. Like a report, it waits for the fold at most `read_wait_ms`; the pending count it
/// reports is that of the products listed (another account's backlog is none of the caller's
/// business, though it may be what the fold was busy with).
pub async fn portfolio(
    state: &AppState,
    caller: &Caller,
    limit: i64,
) -> ApiResult<Vec<ProductView>> {
    let visibility = caller.visibility()?;
    let caught_up = state
        .ingest
        .settle_all_within(state.config.read_wait())
        .await?;
    let rows = products::list_first(&state.store, &visibility, limit).await?;
    record_pending_of(state, caught_up, &rows).await?;
    ProductView::many(state, rows).await
}

/// For a read spanning products that waited for the fold with `settle_all_within`: notes the
/// events of the products it lists that it does not count (none when the fold `caught_up`).
/// Another account's backlog is none of the caller's business, though it may be what the fold
/// was busy with.
pub async fn record_pending_of(
    state: &AppState,
    caught_up: bool,
    listed: &[ProductRow],
) -> ApiResult<()> {
    let pending = if caught_up {
        0
    } else {
        let ids: Vec<&str> = listed.iter().map(|row| row.id.as_str()).collect();
        state.ingest.pending_events(&ids).await?
    };
    pending_events::record(pending);
    Ok(())
}

/// Stamps onboarding complete. The first call per product is audited and notifies the
/// operator; replays answer `false` and notify nobody.
pub async fn onboarding_complete(state: &AppState, caller: &Caller, slug: &str) -> ApiResult<bool> {
    let scope = caller.scope()?;
    let product = find(state, scope, slug).await?;
    let now: Timestamp = state.clock.now();
    let mut tx = state.store.begin().await?;
    let first_time = products::mark_onboarded(&mut tx, scope, &product.id, now).await?;
    if first_time {
        audit::record_product(
            &mut tx,
            &caller.actor(),
            &product,
            "product.onboarding_complete",
            json!({}),
            now,
        )
        .await?;
    }
    tx.commit().await?;
    let operator = state
        .config
        .operator_email
        .as_deref()
        .filter(|_| first_time);
    if let Some(operator) = operator {
        let account = accounts::find(&state.store, scope.account_id()).await?;
        let account_name = account.map(|a| a.name).unwrap_or_default();
        let mail =
            messages::onboarding_complete(operator, &product.name, &product.slug, &account_name);
        state.mailer.send(mail).await;
    }
    Ok(first_time)
}
