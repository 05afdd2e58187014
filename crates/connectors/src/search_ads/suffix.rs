//! The tracking parameters Payback needs on every Google Ads click, and how they join an
//! account's existing final URL suffix. Pure text; the reads and writes are in `customer`.
//!
//! Google expands ValueTrack parameters (`{campaignid}`, ...) in the account-level final URL
//! suffix on every click; the snippet records the landing page's `utm_*` tags as the visit's
//! attribution, and the ads report (`server/src/services/attribution.rs`) buckets a paid touch at
//! each level by one tag, matched against the spend rows' ids first, then their names:
//!
//! | parameter | value | what it gives |
//! |---|---|---|
//! | `utm_source` | `google` | with a paid medium, the `paid_google` channel |
//! | `utm_medium` | `cpc` | a paid medium (`domain/src/channel.rs`) |
//! | `utm_campaign` | `{campaignid}` | campaign level: the spend rows' `campaign_id` |
//! | `utm_id` | `{adgroupid}` | ad-group level: the rows' `ad_group_id` |
//! | `utm_term` | `{keyword}` | keyword level: the keyword's text, the keyword rows' name |
//! | `utm_content` | `{creative}` | ad level: the ad id, the rows' `ad_id` |
//!
//! `{keyword}` rather than `{targetid}`: `{targetid}` reads `kwd-<id>` and joins audience
//! targets into it (`aud-1:kwd-2`), which matches no stored keyword id, while the keyword's text
//! matches the keyword rows' names. The snippet keeps no parameter outside the `utm_*` and
//! click-id set, so ids of Payback's own (`pb_cid=...`) would be dropped on the way.
//!
//! A parameter the advertiser already sets keeps its value: Payback appends what is absent and
//! never rewrites the account's own tagging. [`differing`] names those whose value is not
//! Payback's, so a person can see why a level may not join.

/// Payback's parameters, in the order they are appended.
pub const PARAMETERS: [(&str, &str); 6] = [
    ("utm_source", "google"),
    ("utm_medium", "cpc"),
    ("utm_campaign", "{campaignid}"),
    ("utm_id", "{adgroupid}"),
    ("utm_term", "{keyword}"),
    ("utm_content", "{creative}"),
];

/// The suffix for an account that has none.
pub fn recommended() -> String {
    PARAMETERS
        .iter()
        .map(|(name, value)| format!("{name}={value}"))
        .collect::<Vec<_>>()
        .join("&")
}

/// Payback's parameter names absent from `existing`, in [`PARAMETERS`]' order.
pub fn missing(existing: &str) -> Vec<String> {
    let present = names(existing);
    PARAMETERS
        .iter()
        .filter(|(name, _)| !present.iter().any(|p| p == name))
        .map(|(name, _)| (*name).to_owned())
        .collect()
}

/// Payback's parameter names that `existing` sets to another value than Payback's.
pub fn differing(existing: &str) -> Vec<String> {
    pairs(existing)
        .filter_map(|(name, value)| {
            PARAMETERS
                .iter()
                .find(|(ours, _)| *ours == name)
                .filter(|(_, wanted)| *wanted != value)
                .map(|(ours, _)| (*ours).to_owned())
        })
        .collect()
}

/// Whether `existing` has every parameter Payback needs.
pub fn complete(existing: &str) -> bool {
    missing(existing).is_empty()
}

/// `existing`'s parameters in their order, then Payback's absent ones appended.
pub fn proposed(existing: &str) -> String {
    let mut parts: Vec<String> = segments(existing).map(str::to_owned).collect();
    let present = names(existing);
    parts.extend(
        PARAMETERS
            .iter()
            .filter(|(name, _)| !present.iter().any(|p| p == name))
            .map(|(name, value)| format!("{name}={value}")),
    );
    parts.join("&")
}

/// The `name=value` pieces of a suffix, without a leading `?` or empty pieces.
fn segments(suffix: &str) -> impl Iterator<Item = &str> {
    suffix
        .trim()
        .trim_start_matches(['?', '&'])
        .split('&')
        .map(str::trim)
        .filter(|part| !part.is_empty())
}

fn pairs(suffix: &str) -> impl Iterator<Item = (&str, &str)> {
    segments(suffix).map(|part| part.split_once('=').unwrap_or((part, "")))
}

fn names(suffix: &str) -> Vec<&str> {
    pairs(suffix).map(|(name, _)| name).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const FULL: &str = "utm_source=google&utm_medium=cpc&utm_campaign={campaignid}&\
                        utm_id={adgroupid}&utm_term={keyword}&utm_content={creative}";

    #[test]
    fn the_recommended_suffix_tags_every_level() {
        assert_eq!(recommended(), FULL);
        assert!(complete(FULL));
        assert!(missing(FULL).is_empty());
        assert_eq!(proposed(FULL), FULL);
    }

    #[test]
    fn an_empty_suffix_gets_all_of_them() {
        assert_eq!(missing("").len(), PARAMETERS.len());
        assert!(!complete(""));
        assert_eq!(proposed(""), FULL);
        assert_eq!(proposed("  "), FULL);
    }

    #[test]
    fn existing_parameters_stay_first_and_in_order() {
        let existing = "?brand=acme&utm_source=adwords&utm_campaign={campaignid}";
        assert_eq!(
            missing(existing),
            vec!["utm_medium", "utm_id", "utm_term", "utm_content"]
        );
        assert_eq!(
            proposed(existing),
            "brand=acme&utm_source=adwords&utm_campaign={campaignid}&utm_medium=cpc&\
             utm_id={adgroupid}&utm_term={keyword}&utm_content={creative}"
        );
        // The advertiser's own value is kept, and named.
        assert_eq!(differing(existing), vec!["utm_source"]);
        assert!(complete(&proposed(existing)));
    }

    #[test]
    fn a_bare_name_counts_as_present() {
        assert!(!missing("utm_term").contains(&"utm_term".to_owned()));
        assert_eq!(differing("utm_term"), vec!["utm_term"]);
        assert!(differing(FULL).is_empty());
    }
}
