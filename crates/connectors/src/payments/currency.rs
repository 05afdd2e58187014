//! Stripe amounts are in the currency's minor unit; Payback's `value` is always hundredths of the
//! unit (its formatter divides by 100), so the two differ for currencies without two decimals.

/// Stripe's zero-decimal currencies (docs.stripe.com/currencies#zero-decimal): the amount is
/// whole units. ISK, HUF and TWD are "special cases" that Stripe still represents with two
/// decimals, so they are deliberately absent.
const ZERO_DECIMAL: [&str; 16] = [
    "BIF", "CLP", "DJF", "GNF", "JPY", "KMF", "KRW", "MGA", "PYG", "RWF", "UGX", "VND", "VUV",
    "XAF", "XOF", "XPF",
];

/// Stripe's three-decimal currencies: the amount is thousandths (Stripe requires the last digit
/// to be 0, so dividing by 10 is exact for amounts it accepted).
const THREE_DECIMAL: [&str; 5] = ["BHD", "JOD", "KWD", "OMR", "TND"];

/// `amount` in Stripe's minor unit of `currency` (upper-case) as hundredths of the unit; `None`
/// when it does not fit an `i64`.
pub(crate) fn to_hundredths(amount: i64, currency: &str) -> Option<i64> {
    if ZERO_DECIMAL.contains(&currency) {
        amount.checked_mul(100)
    } else if THREE_DECIMAL.contains(&currency) {
        // Rounds half away from zero should a legacy amount not end in 0.
        amount.checked_add(5 * amount.signum()).map(|a| a / 10)
    } else {
        Some(amount)
    }
}

#[cfg(test)]
mod tests {
    use super::to_hundredths;

    #[test]
    fn scales_to_hundredths() {
        assert_eq!(to_hundredths(4900, "USD"), Some(4900));
        assert_eq!(to_hundredths(500, "JPY"), Some(50_000));
        assert_eq!(to_hundredths(500, "ISK"), Some(500));
        assert_eq!(to_hundredths(5120, "KWD"), Some(512));
        assert_eq!(to_hundredths(i64::MAX, "KRW"), None);
    }
}
