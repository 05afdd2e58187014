//! The metric definitions, once: CAC, ROAS, LTV and LTV:CAC, with the honesty rules (null,
//! never a made-up zero).

/// Integer division rounded to the nearest cent, halves away from zero.
pub fn div_round(numerator: i64, denominator: i64) -> i64 {
    let (n, d) = (i128::from(numerator), i128::from(denominator));
    let rounded = if (n < 0) == (d < 0) {
        (2 * n + d) / (2 * d)
    } else {
        (2 * n - d) / (2 * d)
    };
    i64::try_from(rounded).unwrap_or(if rounded < 0 { i64::MIN } else { i64::MAX })
}

/// Spend per customer acquired, rounded to the cent; `None` when no customers were acquired
/// (0 is honest only when customers came at no spend).
pub fn cac(spend_cents: i64, customers: i64) -> Option<i64> {
    (customers > 0).then(|| div_round(spend_cents, customers))
}

/// First-touch revenue per unit of spend; `None` when there was no spend.
pub fn roas(revenue_cents: i64, spend_cents: i64) -> Option<f64> {
    (spend_cents != 0).then(|| revenue_cents as f64 / spend_cents as f64)
}

/// All-time net revenue of acquired customers per customer; `None` when there are none.
pub fn ltv(revenue_cents: i64, customers: i64) -> Option<i64> {
    (customers > 0).then(|| div_round(revenue_cents, customers))
}

/// LTV over CAC; `None` when either is `None` or CAC is 0.
pub fn ltv_cac(ltv_cents: Option<i64>, cac_cents: Option<i64>) -> Option<f64> {
    match (ltv_cents, cac_cents) {
        (Some(ltv), Some(cac)) if cac != 0 => Some(ltv as f64 / cac as f64),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_is_to_the_nearest_cent() {
        assert_eq!(div_round(10, 3), 3);
        assert_eq!(div_round(11, 2), 6);
        assert_eq!(div_round(-11, 2), -6);
        assert_eq!(div_round(5, 4), 1);
        assert_eq!(div_round(7, 4), 2);
    }

    #[test]
    fn honesty_rules() {
        assert_eq!(cac(10_000, 0), None);
        assert_eq!(cac(0, 3), Some(0));
        assert_eq!(cac(10_000, 3), Some(3333));
        assert_eq!(roas(500, 0), None);
        assert_eq!(roas(500, 250), Some(2.0));
        assert_eq!(ltv(9_000, 0), None);
        assert_eq!(ltv_cac(Some(9000), Some(0)), None);
        assert_eq!(ltv_cac(None, Some(10)), None);
        assert_eq!(ltv_cac(Some(9000), Some(3000)), Some(3.0));
    }
}
