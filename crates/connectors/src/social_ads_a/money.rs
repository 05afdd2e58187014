//! Meta's money and Payback's cents, converted exactly with `rust_decimal`.
//!
//! - Insights `spend` is a decimal string in the account currency's unit (`"5339.5"`, `"12"`);
//!   Payback's cents are hundredths of that unit whatever the currency, so spend is multiplied
//!   by 100 and rounded half away from zero.
//! - Budgets (`daily_budget`) are integers in the currency's minor unit with an offset per
//!   currency (Marketing API "Currencies": 100 for most, 1 for CLP, COP, CRC, HUF, ISK, IDR, JPY,
//!   KRW, PYG, TWD, VND), so `daily_budget = units × offset`. A budget in cents is only
//!   representable when that product is whole (`¥1,234.50` is not a JPY budget).

use std::str::FromStr;

use payback_domain::money::format_cents;
use rust_decimal::prelude::ToPrimitive;
use rust_decimal::{Decimal, RoundingStrategy};

/// Currencies whose budgets are in whole units (offset 1), per Meta's "Currencies" table.
const OFFSET_1: &[&str] = &[
    "CLP", "COP", "CRC", "HUF", "ISK", "IDR", "JPY", "KRW", "PYG", "TWD", "VND",
];

/// Currencies whose budgets are in hundredths (offset 100), per the same table.
const OFFSET_100: &[&str] = &[
    "AED", "ARS", "AUD", "BDT", "BGN", "BHD", "BOB", "BRL", "CAD", "CHF", "CNY", "CZK", "DKK",
    "DZD", "EGP", "EUR", "FBZ", "GBP", "GTQ", "HKD", "HNL", "HRK", "ILS", "INR", "JOD", "KES",
    "LTL", "LVL", "MOP", "MXN", "MYR", "NGN", "NIO", "NOK", "NZD", "PEN", "PHP", "PKR", "PLN",
    "QAR", "RON", "RSD", "RUB", "SAR", "SEK", "SGD", "SKK", "THB", "TRY", "UAH", "USD", "UYU",
    "VEF", "VES", "ZAR",
];

/// Meta's budget offset of `currency` (ISO 4217, any case); `None` for a currency Meta's table
/// does not list.
pub(crate) fn budget_offset(currency: &str) -> Option<i64> {
    let code = currency.trim().to_ascii_uppercase();
    if OFFSET_1.contains(&code.as_str()) {
        Some(1)
    } else if OFFSET_100.contains(&code.as_str()) {
        Some(100)
    } else {
        None
    }
}

/// A Meta budget (minor units of `currency`) as cents; `None` for an unknown currency or an
/// amount that does not fit.
pub(crate) fn budget_to_cents(minor: i64, currency: &str) -> Option<i64> {
    let offset = budget_offset(currency)?;
    (Decimal::from(minor) * Decimal::ONE_HUNDRED / Decimal::from(offset)).to_i64()
}

/// `cents` as a Meta budget in `currency`'s minor units, or why it cannot be one.
pub(crate) fn cents_to_budget(cents: i64, currency: &str) -> Result<i64, String> {
    let offset = budget_offset(currency)
        .ok_or_else(|| format!("Meta's currency table has no budget offset for {currency}"))?;
    let minor = Decimal::from(cents) * Decimal::from(offset) / Decimal::ONE_HUNDRED;
    if !minor.fract().is_zero() {
        return Err(format!(
            "{} is not a budget Meta can hold: {currency} budgets are whole units",
            format_cents(cents, currency)
        ));
    }
    minor
        .to_i64()
        .ok_or_else(|| format!("{cents} cents is too large a budget"))
}

/// Meta's `spend` text as cents, exact: ×100, rounded half away from zero. Only the third
/// fractional digit decides the rounding, so the text is cut there before it is parsed; any
/// number of decimals is therefore exact, and no float is involved.
pub(crate) fn spend_to_cents(text: &str) -> Result<i64, String> {
    let trimmed = text.trim();
    let unsigned = trimmed
        .strip_prefix('-')
        .or_else(|| trimmed.strip_prefix('+'))
        .unwrap_or(trimmed);
    let (whole, fraction) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    let digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && fraction.is_empty()) || !digits(whole) || !digits(fraction) {
        return Err(format!("spend {text:?} is not a decimal number"));
    }
    let sign = &trimmed[..trimmed.len() - unsigned.len()];
    let kept = &fraction[..fraction.len().min(3)];
    let whole = if whole.is_empty() { "0" } else { whole };
    let cut = if kept.is_empty() {
        format!("{sign}{whole}")
    } else {
        format!("{sign}{whole}.{kept}")
    };
    let amount =
        Decimal::from_str(&cut).map_err(|_| format!("spend {text:?} is too large to read"))?;
    (amount * Decimal::ONE_HUNDRED)
        .round_dp_with_strategy(0, RoundingStrategy::MidpointAwayFromZero)
        .to_i64()
        .ok_or_else(|| format!("spend {text:?} is too large to store"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spend_becomes_cents_exactly() {
        let cases = [
            ("0", 0),
            ("0.00", 0),
            ("12", 1_200),
            ("12.3", 1_230),
            ("12.34", 1_234),
            ("5339.5", 533_950),
            ("0.004", 0),
            ("0.005", 1),
            ("0.0049999999999999999999999999999", 0),
            ("0.0050000000000000000000000000001", 1),
            ("1.234", 123),
            ("1.235", 124),
            ("1.2350", 124),
            ("1.2349999", 123),
            ("0.999", 100),
            ("0.995", 100),
            ("0.994", 99),
            (".5", 50),
            ("7.", 700),
            (" 42.10 ", 4_210),
            ("-1.235", -124),
            ("-0.004", 0),
            ("92233720368547758.07", i64::MAX),
            // Hundreds of decimals stay exact: only the third decides.
            (&format!("3.14{}", "9".repeat(300)), 315),
        ];
        for (text, cents) in cases {
            assert_eq!(spend_to_cents(text), Ok(cents), "{text}");
        }
    }

    #[test]
    fn spend_that_is_not_a_number_is_refused() {
        for text in [
            "",
            ".",
            "abc",
            "1,234.50",
            "1e3",
            "12.3.4",
            "--1",
            "NaN",
            "92233720368547758.08",
        ] {
            assert!(spend_to_cents(text).is_err(), "{text}");
        }
    }

    #[test]
    fn budgets_use_the_currency_offset() {
        assert_eq!(budget_offset("USD"), Some(100));
        assert_eq!(budget_offset("eur"), Some(100));
        assert_eq!(budget_offset("JPY"), Some(1));
        assert_eq!(budget_offset("KRW"), Some(1));
        assert_eq!(budget_offset("VND"), Some(1));
        assert_eq!(budget_offset("XYZ"), None);
        // USD: 5000 minor units are $50.00, 5000 cents.
        assert_eq!(budget_to_cents(5_000, "USD"), Some(5_000));
        assert_eq!(cents_to_budget(5_000, "USD"), Ok(5_000));
        assert_eq!(cents_to_budget(1, "EUR"), Ok(1));
        // JPY: a budget of 5000 is ¥5,000, 500,000 "cents".
        assert_eq!(budget_to_cents(5_000, "JPY"), Some(500_000));
        assert_eq!(cents_to_budget(500_000, "JPY"), Ok(5_000));
        assert_eq!(cents_to_budget(123_400, "KRW"), Ok(1_234));
        let refused = cents_to_budget(123_450, "JPY").unwrap_err();
        assert!(
            refused.starts_with("1234.50 JPY is not a budget"),
            "{refused}"
        );
        assert!(cents_to_budget(5_000, "XYZ").is_err());
        assert_eq!(budget_to_cents(1, "XYZ"), None);
        assert_eq!(budget_to_cents(i64::MAX, "JPY"), None);
        assert_eq!(cents_to_budget(i64::MAX, "USD"), Ok(i64::MAX));
    }

    #[test]
    fn the_offset_tables_do_not_overlap() {
        for code in OFFSET_1 {
            assert!(!OFFSET_100.contains(code), "{code}");
        }
    }
}
