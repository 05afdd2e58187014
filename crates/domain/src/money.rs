//! Money is integer cents in the product's own currency; this is the one place that turns it
//! into text for people (card headlines, policy refusals).

/// `12345, "USD"` -> `123.45 USD`; negative amounts keep their sign.
pub fn format_cents(cents: i64, currency: &str) -> String {
    let sign = if cents < 0 { "-" } else { "" };
    let abs = cents.unsigned_abs();
    format!("{sign}{}.{:02} {currency}", abs / 100, abs % 100)
}

#[cfg(test)]
mod tests {
    use super::format_cents;

    #[test]
    fn formats_whole_units_and_cents() {
        assert_eq!(format_cents(12_345, "USD"), "123.45 USD");
        assert_eq!(format_cents(5, "EUR"), "0.05 EUR");
        assert_eq!(format_cents(-250, "GBP"), "-2.50 GBP");
        assert_eq!(format_cents(i64::MIN, "USD"), "-92233720368547758.08 USD");
    }
}
