//! LinkedIn names its ads entities by URN (`urn:li:sponsoredAccount:123`,
//! `urn:li:sponsoredCampaign:456`, `urn:li:sponsoredCreative:789`); Payback stores the plain
//! numbers, and builds the URNs back when a query filters by them.

/// The ad account URN type.
pub(crate) const ACCOUNT: &str = "sponsoredAccount";
/// The campaign URN type.
pub(crate) const CAMPAIGN: &str = "sponsoredCampaign";
/// The creative URN type.
pub(crate) const CREATIVE: &str = "sponsoredCreative";

/// `urn:li:{kind}:{id}`.
pub(crate) fn urn(kind: &str, id: &str) -> String {
    format!("urn:li:{kind}:{id}")
}

/// Whether `text` is a non-empty run of ASCII digits.
pub(crate) fn is_digits(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

/// The number out of `urn:li:{kind}:N`, or `text` itself when it is already a number; `None`
/// for a URN of another kind or anything else.
pub(crate) fn plain_id(kind: &str, text: &str) -> Option<String> {
    let text = text.trim();
    let id = match text.strip_prefix("urn:li:") {
        Some(rest) => rest.strip_prefix(kind)?.strip_prefix(':')?,
        None => text,
    };
    is_digits(id).then(|| id.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urns_and_numbers_read_as_plain_ids() {
        assert_eq!(
            plain_id(CREATIVE, "urn:li:sponsoredCreative:915033233").as_deref(),
            Some("915033233")
        );
        assert_eq!(
            plain_id(CAMPAIGN, " 145282384 ").as_deref(),
            Some("145282384")
        );
        // Another kind's URN is not this kind's id.
        assert_eq!(plain_id(CAMPAIGN, "urn:li:sponsoredCreative:1"), None);
        assert_eq!(plain_id(CAMPAIGN, "urn:li:sponsoredCampaignGroup:1"), None);
        assert_eq!(plain_id(ACCOUNT, "urn:li:sponsoredAccount:"), None);
        assert_eq!(plain_id(ACCOUNT, "urn:li:sponsoredAccount:12a"), None);
        assert_eq!(plain_id(ACCOUNT, ""), None);
        assert_eq!(urn(ACCOUNT, "123"), "urn:li:sponsoredAccount:123");
    }
}
