//! LinkedIn reports cost as a decimal string in the account's currency
//! (`"costInLocalCurrency": "539.700000000000192784"`, as many fractional digits as its own
//! arithmetic left); Payback counts hundredths of the unit ("cents"). The conversion is exact
//! decimal arithmetic, never floating point: ×100, rounded half away from zero.

use std::str::FromStr;

use rust_decimal::{Decimal, RoundingStrategy};

use crate::ConnectorError;

/// Fractional digits kept before parsing. Rounding to cents looks at the third fractional digit
/// only (≥ 5 rounds away from zero), so cutting the rest changes no result, and it keeps a long
/// tail within `Decimal`'s 28 significant digits.
const KEPT_FRACTION_DIGITS: usize = 10;

/// `text` as an exact decimal amount; fails on anything but a plain decimal number.
pub(crate) fn amount(text: &str) -> Result<Decimal, ConnectorError> {
    let trimmed = text.trim();
    let unreadable = || {
        ConnectorError::Vendor(format!(
            "LinkedIn answered a cost Payback cannot read as a decimal: {trimmed:?}"
        ))
    };
    // Checked before cutting, so the cut below falls on a character boundary.
    let plain = trimmed
        .bytes()
        .all(|b| b.is_ascii_digit() || b == b'.' || b == b'-')
        && trimmed.bytes().any(|b| b.is_ascii_digit());
    if !plain {
        return Err(unreadable());
    }
    let kept = match trimmed.split_once('.') {
        Some((whole, fraction)) if fraction.len() > KEPT_FRACTION_DIGITS => {
            format!("{whole}.{}", &fraction[..KEPT_FRACTION_DIGITS])
        }
        _ => trimmed.to_owned(),
    };
    Decimal::from_str(&kept).map_err(|_| unreadable())
}

/// `amount` in cents: ×100, rounded half away from zero; fails when it does not fit an `i64`.
pub(crate) fn to_cents(amount: Decimal) -> Result<i64, ConnectorError> {
    amount
        .checked_mul(Decimal::ONE_HUNDRED)
        .map(|hundredths| {
            hundredths.round_dp_with_strategy(0, RoundingStrategy::MidpointAwayFromZero)
        })
        .and_then(|rounded| i64::try_from(rounded).ok())
        .ok_or_else(|| {
            ConnectorError::Vendor(format!(
                "LinkedIn answered a cost too large to count in cents: {amount}"
            ))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cents(text: &str) -> Result<i64, ConnectorError> {
        to_cents(amount(text)?)
    }

    #[test]
    fn decimal_strings_round_half_away_from_zero_to_cents() {
        assert_eq!(cents("0").unwrap(), 0);
        assert_eq!(cents("0.0").unwrap(), 0);
        assert_eq!(cents("12.34").unwrap(), 1_234);
        assert_eq!(cents("12.345").unwrap(), 1_235);
        assert_eq!(cents("12.3449999").unwrap(), 1_234);
        assert_eq!(cents("0.005").unwrap(), 1);
        assert_eq!(cents("0.0049").unwrap(), 0);
        assert_eq!(cents("209.449").unwrap(), 20_945);
        assert_eq!(cents("509.980").unwrap(), 50_998);
        assert_eq!(cents("100").unwrap(), 10_000);
        assert_eq!(cents(" 7.5 ").unwrap(), 750);
        assert_eq!(cents("-0.005").unwrap(), -1);
        // A floating-point parse would make this 0.1 + 0.2 = 0.30000000000000004-ish; decimal
        // arithmetic keeps it exact.
        assert_eq!(cents("0.30000000000000004").unwrap(), 30);
    }

    #[test]
    fn long_fractions_as_linkedin_sends_them_stay_exact() {
        // Observed from the API: eighteen fractional digits.
        assert_eq!(cents("539.700000000000192784").unwrap(), 53_970);
        // Forty fractional digits would overflow Decimal's 28 significant digits uncut.
        assert_eq!(
            cents("1.0049999999999999999999999999999999999999").unwrap(),
            100
        );
        assert_eq!(
            cents("1.0050000000000000000000000000000000000001").unwrap(),
            101
        );
        assert_eq!(
            cents("123456789.125000000000000000000000001").unwrap(),
            12_345_678_913
        );
    }

    #[test]
    fn anything_but_a_decimal_is_refused() {
        for bad in ["", "abc", "1e3", "NaN", "1,5", "--1", ".", "1.é5"] {
            assert!(
                matches!(cents(bad), Err(ConnectorError::Vendor(_))),
                "{bad:?} was read"
            );
        }
        assert!(matches!(
            cents("999999999999999999999999"),
            Err(ConnectorError::Vendor(_))
        ));
    }
}
