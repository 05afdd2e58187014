//! Gate reviews: when a product's gate date comes, a `gate_result` card asks for the verdict,
//! with a suggestion read from LTV:CAC (pass at 3 or more, pivot from 1, fail below 1 or with
//! no customers). Approving records the suggested verdict; owners may set another on the product.

use payback_domain::card::{ActionSpec, CardType, headline};
use payback_domain::money::format_cents;
use payback_domain::{GateResult, Timestamp};
use payback_store::products;

use crate::error::{ApiError, ApiResult};
use crate::services::product_metrics::{self, ProductMetrics};
use crate::services::queue::{self, SystemCard};
use crate::state::AppState;

/// The verdict the numbers suggest.
pub fn suggested_verdict(ltv_cac: Option<f64>) -> GateResult {
    match ltv_cac {
        Some(ratio) if ratio >= 3.0 => GateResult::Pass,
        Some(ratio) if ratio >= 1.0 => GateResult::Pivot,
        _ => GateResult::Fail,
    }
}

fn metric_line(metrics: &ProductMetrics, currency: &str) -> String {
    let money =
        |cents: Option<i64>| cents.map_or_else(|| "n/a".to_owned(), |c| format_cents(c, currency));
    let ratio = metrics
        .ltv_cac
        .map_or_else(|| "n/a".to_owned(), |r| format!("{r:.2}"));
    format!(
        "LTV:CAC {ratio} · CAC {} · LTV {} · customers 30d {} · revenue 30d {}",
        money(metrics.cac_cents),
        money(metrics.ltv_cents),
        metrics.customers_30d,
        format_cents(metrics.revenue_30d_cents, currency)
    )
}

pub async fn review(state: &AppState, now: Timestamp) -> ApiResult<String> {
    let due = products::gates_due(&state.store, &now.day()).await?;
    let ids: Vec<&str> = due.iter().map(|p| p.id.as_str()).collect();
    let metrics = product_metrics::for_products(state, &ids).await?;
    let mut raised = 0;
    let mut tx = state.store.begin().await?;
    for product in &due {
        let Some(due_date) = product.gate_due_date.clone() else {
            continue;
        };
        let numbers = metrics.get(&product.id).cloned().unwrap_or_default();
        let verdict = suggested_verdict(numbers.ltv_cac);
        let spec = ActionSpec::SetGateResult {
            gate_result: verdict,
            gate_due_date: due_date.clone(),
        };
        let spec = serde_json::to_value(&spec).map_err(ApiError::internal)?;
        let title = headline(&format!(
            "Gate review for {}: suggest {verdict}",
            product.name
        ));
        let line = metric_line(&numbers, &product.currency);
        let detail = format!(
            "The gate set for {due_date} has come. Approve to record `{verdict}`, or set another verdict on the product."
        );
        let key = format!("gate:{}:{due_date}", product.id);
        let card = SystemCard {
            card_type: CardType::GateResult,
            headline: &title,
            metric_line: &line,
            detail: &detail,
            action_spec: Some(&spec),
            dedupe_key: &key,
        };
        if queue::raise_system_card(&mut tx, product, card, now)
            .await?
            .is_some()
        {
            raised += 1;
        }
    }
    tx.commit().await?;
    Ok(format!("{raised} gate reviews raised"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_follow_ltv_cac() {
        assert_eq!(suggested_verdict(Some(3.0)), GateResult::Pass);
        assert_eq!(suggested_verdict(Some(2.99)), GateResult::Pivot);
        assert_eq!(suggested_verdict(Some(1.0)), GateResult::Pivot);
        assert_eq!(suggested_verdict(Some(0.5)), GateResult::Fail);
        assert_eq!(suggested_verdict(None), GateResult::Fail);
    }
}
