//! The matrix's numbers: each row's value per week, from the week's figures
//! (`payback_store::reports::weekly`), the product's LTV and its connected sources, or from
//! the cells typed into a manual row.
//!
//! Null means there is no number to show: a ratio without a denominator, a row whose source is
//! not connected, a manual cell nobody typed. Anything else is a number, 0 included. Percents
//! (0-100) and ratios are rounded to 2 decimals, CAC to the nearest cent (halves away from
//! zero), as `payback_domain::metrics` defines them.

use std::collections::HashMap;

use payback_domain::metrics;
use payback_store::reports::weekly::WeekFigures;
use serde::Serialize;
use utoipa::ToSchema;

use crate::services::scorecard::catalog::{self, Connected};

/// A number of the matrix: a whole number (counts, cents) or a real one (percents, ratios,
/// typed cells).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, ToSchema)]
#[serde(untagged)]
pub enum Figure {
    Whole(i64),
    Real(f64),
}

impl Figure {
    pub fn as_f64(self) -> f64 {
        match self {
            Figure::Whole(n) => n as f64,
            Figure::Real(x) => x,
        }
    }

    /// A typed value: whole when it has no fraction (so `12` reads `12`, not `12.0`).
    pub fn typed(value: f64) -> Self {
        if value.fract() == 0.0 && value.abs() < 9.0e15 {
            Figure::Whole(value as i64)
        } else {
            Figure::Real(value)
        }
    }
}

/// Rounded to 2 decimals.
pub fn round2(value: f64) -> f64 {
    (value * 100.0).round() / 100.0
}

/// `part` of `whole` in percent, 2 decimals; null without a whole.
fn percent(part: i64, whole: i64) -> Option<Figure> {
    (whole != 0).then(|| Figure::Real(round2(part as f64 * 100.0 / whole as f64)))
}

/// What a week's values are computed from.
#[derive(Debug)]
pub struct Inputs<'a> {
    pub figures: &'a [WeekFigures],
    /// All-time LTV in cents (`metrics::ltv` over every customer ever acquired).
    pub ltv_cents: Option<i64>,
    pub connected: &'a Connected,
    /// Typed cells by (row key, week key).
    pub manual: &'a HashMap<(String, String), Option<f64>>,
}

/// The value of catalog metric `metric` in a week.
pub fn catalog_value(
    metric: &str,
    week: &WeekFigures,
    ltv_cents: Option<i64>,
    connected: &Connected,
) -> Option<Figure> {
    let def = catalog::find(metric)?;
    if !connected.has(def.source) {
        return None;
    }
    let cac = metrics::cac(week.spend_cents, week.customers);
    match metric {
        "visits" => Some(Figure::Whole(week.visits)),
        "leads" => Some(Figure::Whole(week.leads)),
        "signups" => Some(Figure::Whole(week.signups)),
        "customers" => Some(Figure::Whole(week.customers)),
        "revenue" => Some(Figure::Whole(week.revenue_cents)),
        "visit_to_signup" => percent(week.signups, week.visits),
        "signup_to_customer" => percent(week.customers, week.signups),
        "spend" => Some(Figure::Whole(week.spend_cents)),
        "cac" => cac.map(Figure::Whole),
        "roas" => metrics::roas(week.revenue_cents, week.spend_cents)
            .map(|roas| Figure::Real(round2(roas))),
        "ltv_cac" => metrics::ltv_cac(ltv_cents, cac).map(|ratio| Figure::Real(round2(ratio))),
        "search_clicks" => Some(Figure::Whole(week.search_clicks.round() as i64)),
        "search_impressions" => Some(Figure::Whole(week.search_impressions.round() as i64)),
        "social_followers" => Some(Figure::Whole(
            week.social_followers.map_or(0, |f| f.round() as i64),
        )),
        _ => None,
    }
}

/// A row's values, one per week of `week_keys`, from `inputs`.
pub fn row_values(
    metric: &str,
    manual: bool,
    week_keys: &[String],
    inputs: &Inputs<'_>,
) -> Vec<Option<Figure>> {
    week_keys
        .iter()
        .enumerate()
        .map(|(index, key)| {
            if manual {
                inputs
                    .manual
                    .get(&(metric.to_owned(), key.clone()))
                    .copied()
                    .flatten()
                    .map(Figure::typed)
            } else {
                inputs.figures.get(index).and_then(|week| {
                    catalog_value(metric, week, inputs.ltv_cents, inputs.connected)
                })
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_are_null_without_a_denominator() {
        let connected = Connected::default();
        let week = WeekFigures {
            visits: 0,
            signups: 3,
            customers: 0,
            ..WeekFigures::default()
        };
        assert_eq!(
            catalog_value("visit_to_signup", &week, None, &connected),
            None
        );
        assert_eq!(
            catalog_value("signup_to_customer", &week, None, &connected),
            Some(Figure::Real(0.0))
        );
        assert_eq!(
            catalog_value("spend", &week, None, &connected),
            None,
            "no ad network"
        );
        let week = WeekFigures {
            visits: 3,
            signups: 1,
            ..WeekFigures::default()
        };
        assert_eq!(
            catalog_value("visit_to_signup", &week, None, &connected),
            Some(Figure::Real(33.33))
        );
    }

    #[test]
    fn typed_values_read_whole_when_whole() {
        assert_eq!(serde_json::to_string(&Figure::typed(12.0)).unwrap(), "12");
        assert_eq!(serde_json::to_string(&Figure::typed(1.5)).unwrap(), "1.5");
    }
}
