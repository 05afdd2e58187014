//! Google Ads counts money in micros (millionths of the account currency's unit, whatever the
//! currency); Payback counts hundredths of the unit ("cents", which its formatter divides by
//! 100). One cent is 10,000 micros.

/// Micros in one cent.
pub(crate) const MICROS_PER_CENT: i64 = 10_000;

/// `micros` as cents, rounded half away from zero (half up for spend, which is never negative),
/// so a stored row is off by at most half a cent from what Google reports.
pub(crate) fn micros_to_cents(micros: i64) -> i64 {
    let half = MICROS_PER_CENT / 2;
    if micros >= 0 {
        micros.saturating_add(half) / MICROS_PER_CENT
    } else {
        -(micros.saturating_neg().saturating_add(half) / MICROS_PER_CENT)
    }
}

/// `cents` as micros, the unit a budget is written in; `None` when it does not fit.
pub(crate) fn cents_to_micros(cents: i64) -> Option<i64> {
    cents.checked_mul(MICROS_PER_CENT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn micros_round_half_up_to_cents() {
        assert_eq!(micros_to_cents(0), 0);
        assert_eq!(micros_to_cents(4_999), 0);
        assert_eq!(micros_to_cents(5_000), 1);
        assert_eq!(micros_to_cents(10_000), 1);
        assert_eq!(micros_to_cents(14_999), 1);
        assert_eq!(micros_to_cents(15_000), 2);
        assert_eq!(micros_to_cents(1_234_567), 123);
        assert_eq!(micros_to_cents(12_345_000_000), 1_234_500);
        assert_eq!(micros_to_cents(-5_000), -1);
        assert_eq!(micros_to_cents(-4_999), 0);
        // No overflow at the edges.
        assert_eq!(micros_to_cents(i64::MAX), i64::MAX / MICROS_PER_CENT);
        assert!(micros_to_cents(i64::MIN) < 0);
    }

    #[test]
    fn cents_scale_to_micros() {
        assert_eq!(cents_to_micros(2_500), Some(25_000_000));
        assert_eq!(cents_to_micros(0), Some(0));
        assert_eq!(cents_to_micros(i64::MAX), None);
    }
}
