//! A GA4 session's `sessionSource`/`sessionMedium` as Payback's channel, through the domain's
//! own rules (`payback_domain::channel::classify`), so a session counts under the channel an
//! event with the same touch would: source and medium are read as `utm_source`/`utm_medium`;
//! medium `referral` means the source is the referring host, read as a referrer; GA4's
//! `(direct)`/`(none)` is `direct`. A session of no known source (`(not set)`) has no channel
//! (`''`).

use payback_domain::channel::{self, Attribution};

/// GA4's word for a value it does not know.
const NOT_SET: &str = "(not set)";

/// The channel of sessions from `source` / `medium`, or `''` when they name none.
pub(crate) fn classify(source: &str, medium: &str) -> String {
    let source = known(source);
    let medium = known(medium);
    if source.as_deref() == Some("(direct)") {
        return channel::DIRECT.to_owned();
    }
    let medium = medium.filter(|medium| medium != "(none)");
    let attribution = if medium
        .as_deref()
        .is_some_and(|medium| medium.eq_ignore_ascii_case("referral"))
    {
        Attribution {
            referrer: source.map(|host| format!("https://{host}/")),
            ..Attribution::default()
        }
    } else {
        Attribution {
            utm_source: source,
            utm_medium: medium,
            ..Attribution::default()
        }
    };
    // No own domain: GA4 already leaves a site's referrals to itself out of sessions' sources.
    channel::classify(&attribution, false, None).unwrap_or_default()
}

fn known(value: &str) -> Option<String> {
    let value = value.trim();
    (!value.is_empty() && value != NOT_SET).then(|| value.to_owned())
}

#[cfg(test)]
mod tests {
    use super::classify;

    #[test]
    fn sources_and_mediums_take_the_domains_channels() {
        for (source, medium, channel) in [
            ("(direct)", "(none)", "direct"),
            ("(direct)", "(not set)", "direct"),
            ("google", "organic", "organic_search"),
            ("bing", "organic", "organic_search"),
            ("google", "cpc", "paid_google"),
            ("facebook", "paid_social", "paid_meta"),
            ("newsletter", "email", "email"),
            ("someblog.dev", "referral", "referral"),
            ("news.ycombinator.com", "referral", "organic_social"),
            ("l.facebook.com", "referral", "organic_social"),
            ("chatgpt.com", "referral", "ai_search"),
            ("www.google.com", "referral", "organic_search"),
            ("partner", "affiliate", "referral"),
            ("(not set)", "(not set)", ""),
        ] {
            assert_eq!(classify(source, medium), channel, "{source} / {medium}");
        }
    }
}
