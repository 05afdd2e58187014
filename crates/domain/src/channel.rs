//! Channel classification: which marketing channel an event's attribution points to.
//!
//! The rules are ordered (first that applies wins) and the host and source lists live in one
//! table here, so ingestion, reports and tests agree:
//! 1. an explicit `attribution.channel`;
//! 2. click ids (`gclid`/`gbraid`/`wbraid`, `li_fat_id`, `msclkid`, `fbclid` with a paid medium);
//! 3. a paid `utm_medium`, split by `utm_source`;
//! 4. other utm tags (email, social, search, AI assistants, else referral);
//! 5. the referrer host (AI assistants, search engines, social networks, the product's own
//!    domain = no touch, else referral);
//! 6. a browser `visit` with none of the above is `direct`; any other event has no channel.

use serde::{Deserialize, Serialize};

/// Spend channels written by the ad connectors.
pub const PAID_GOOGLE: &str = "paid_google";
pub const PAID_META: &str = "paid_meta";
pub const PAID_LINKEDIN: &str = "paid_linkedin";
pub const PAID_MICROSOFT: &str = "paid_microsoft";
pub const PAID_OTHER: &str = "paid_other";
pub const EMAIL: &str = "email";
pub const ORGANIC_SOCIAL: &str = "organic_social";
pub const ORGANIC_SEARCH: &str = "organic_search";
pub const AI_SEARCH: &str = "ai_search";
pub const REFERRAL: &str = "referral";
pub const DIRECT: &str = "direct";
/// The report row for revenue whose identity has no channel, or that has no identity.
pub const UNATTRIBUTED: &str = "unattributed";

/// The attribution an event carries, as ingested.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Attribution {
    pub channel: Option<String>,
    pub utm_source: Option<String>,
    pub utm_medium: Option<String>,
    pub utm_campaign: Option<String>,
    pub utm_content: Option<String>,
    pub utm_term: Option<String>,
    pub utm_id: Option<String>,
    pub gclid: Option<String>,
    pub gbraid: Option<String>,
    pub wbraid: Option<String>,
    pub fbclid: Option<String>,
    pub li_fat_id: Option<String>,
    pub msclkid: Option<String>,
    pub referrer: Option<String>,
    pub landing_url: Option<String>,
}

/// What a host or a `utm_source` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    AiAssistant,
    SearchEngine,
    SocialNetwork,
    /// A web mail client: the visitor clicked a link in an email.
    Webmail,
    /// A site under a search engine's name that is not its search (documents, drives, groups):
    /// listed so the broader search entry below it does not claim it.
    OtherSite,
}

/// Referrer hosts by kind, first match wins. An entry matches the host itself, `www.` and any
/// subdomain; an entry ending in `.*` matches that name under any top-level domain
/// (`google.co.uk`). DESIGN.md lists `google.*` as a search engine with subdomains matched; web
/// mail and Google's document, drive and group sites come first here, or a click in a Gmail
/// message or a shared document would count as organic search.
const HOSTS: &[(&str, Kind)] = &[
    ("mail.google.com", Kind::Webmail),
    ("mail.yahoo.com", Kind::Webmail),
    ("outlook.live.com", Kind::Webmail),
    ("outlook.office.com", Kind::Webmail),
    ("outlook.office365.com", Kind::Webmail),
    ("docs.google.com", Kind::OtherSite),
    ("drive.google.com", Kind::OtherSite),
    ("sites.google.com", Kind::OtherSite),
    ("groups.google.com", Kind::OtherSite),
    ("calendar.google.com", Kind::OtherSite),
    ("chatgpt.com", Kind::AiAssistant),
    ("chat.openai.com", Kind::AiAssistant),
    ("perplexity.ai", Kind::AiAssistant),
    ("gemini.google.com", Kind::AiAssistant),
    ("claude.ai", Kind::AiAssistant),
    ("copilot.microsoft.com", Kind::AiAssistant),
    ("google.*", Kind::SearchEngine),
    ("bing.com", Kind::SearchEngine),
    ("duckduckgo.com", Kind::SearchEngine),
    ("yahoo.com", Kind::SearchEngine),
    ("yandex.*", Kind::SearchEngine),
    ("baidu.com", Kind::SearchEngine),
    ("ecosia.org", Kind::SearchEngine),
    ("search.brave.com", Kind::SearchEngine),
    ("facebook.com", Kind::SocialNetwork),
    ("instagram.com", Kind::SocialNetwork),
    ("t.co", Kind::SocialNetwork),
    ("x.com", Kind::SocialNetwork),
    ("twitter.com", Kind::SocialNetwork),
    ("linkedin.com", Kind::SocialNetwork),
    ("lnkd.in", Kind::SocialNetwork),
    ("reddit.com", Kind::SocialNetwork),
    ("youtube.com", Kind::SocialNetwork),
    ("tiktok.com", Kind::SocialNetwork),
    ("pinterest.com", Kind::SocialNetwork),
    ("news.ycombinator.com", Kind::SocialNetwork),
];

/// `utm_source` values by kind (compared lower-case; a source that is one of the hosts above
/// counts too).
const SOURCES: &[(&str, Kind)] = &[
    ("chatgpt", Kind::AiAssistant),
    ("openai", Kind::AiAssistant),
    ("perplexity", Kind::AiAssistant),
    ("gemini", Kind::AiAssistant),
    ("claude", Kind::AiAssistant),
    ("copilot", Kind::AiAssistant),
    ("google", Kind::SearchEngine),
    ("bing", Kind::SearchEngine),
    ("duckduckgo", Kind::SearchEngine),
    ("yahoo", Kind::SearchEngine),
    ("yandex", Kind::SearchEngine),
    ("baidu", Kind::SearchEngine),
    ("ecosia", Kind::SearchEngine),
    ("brave", Kind::SearchEngine),
    ("facebook", Kind::SocialNetwork),
    ("fb", Kind::SocialNetwork),
    ("instagram", Kind::SocialNetwork),
    ("ig", Kind::SocialNetwork),
    ("twitter", Kind::SocialNetwork),
    ("x", Kind::SocialNetwork),
    ("linkedin", Kind::SocialNetwork),
    ("reddit", Kind::SocialNetwork),
    ("youtube", Kind::SocialNetwork),
    ("tiktok", Kind::SocialNetwork),
    ("pinterest", Kind::SocialNetwork),
    ("hackernews", Kind::SocialNetwork),
    ("hn", Kind::SocialNetwork),
];

const PAID_MEDIUMS: &[&str] = &[
    "cpc",
    "ppc",
    "paid",
    "paidsearch",
    "paid_search",
    "paidsocial",
    "paid_social",
    "display",
    "cpm",
];

fn present(value: &Option<String>) -> bool {
    value.as_deref().is_some_and(|v| !v.trim().is_empty())
}

fn lower(value: &Option<String>) -> String {
    value
        .as_deref()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase()
}

fn host_matches(host: &str, entry: &str) -> bool {
    if let Some(name) = entry.strip_suffix(".*") {
        // `name` as a label followed by one or two more labels (`google.com`, `google.co.uk`),
        // anywhere after optional subdomains.
        let labels: Vec<&str> = host.split('.').collect();
        labels
            .iter()
            .enumerate()
            .any(|(at, label)| *label == name && (1..=2).contains(&(labels.len() - at - 1)))
    } else {
        host == entry || host.ends_with(&format!(".{entry}"))
    }
}

fn host_kind(host: &str) -> Option<Kind> {
    HOSTS
        .iter()
        .find(|(entry, _)| host_matches(host, entry))
        .map(|(_, kind)| *kind)
}

fn source_kind(source: &str) -> Option<Kind> {
    SOURCES
        .iter()
        .find(|(name, _)| *name == source)
        .map(|(_, kind)| *kind)
        .or_else(|| host_kind(source))
}

/// The host of a URL (lower-case, without port or `www.`-agnostic handling left to matching).
pub fn url_host(url: &str) -> Option<String> {
    let rest = url
        .trim()
        .split_once("://")
        .map_or(url.trim(), |(_, rest)| rest);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = host
        .split(':')
        .next()
        .unwrap_or_default()
        .trim_end_matches('.')
        .to_ascii_lowercase();
    (!host.is_empty()).then_some(host)
}

fn paid_channel_for_source(source: &str) -> &'static str {
    match source {
        "google" | "adwords" => PAID_GOOGLE,
        "facebook" | "fb" | "instagram" | "ig" | "meta" => PAID_META,
        "linkedin" => PAID_LINKEDIN,
        _ => PAID_OTHER,
    }
}

/// The channel of an event, or `None` when it carries no touch.
///
/// `is_browser_visit`: a `visit` recorded by the browser snippet (only those default to
/// `direct`). `own_domain`: the product's domain, whose referrals are internal navigation.
pub fn classify(
    attribution: &Attribution,
    is_browser_visit: bool,
    own_domain: Option<&str>,
) -> Option<String> {
    if let Some(channel) = attribution
        .channel
        .as_deref()
        .map(str::trim)
        .filter(|c| !c.is_empty())
    {
        return Some(channel.to_owned());
    }
    let medium = lower(&attribution.utm_medium);
    let source = lower(&attribution.utm_source);
    let paid_medium = PAID_MEDIUMS.contains(&medium.as_str());

    if present(&attribution.gclid) || present(&attribution.gbraid) || present(&attribution.wbraid) {
        return Some(PAID_GOOGLE.to_owned());
    }
    if present(&attribution.li_fat_id) {
        return Some(PAID_LINKEDIN.to_owned());
    }
    if present(&attribution.msclkid) {
        return Some(PAID_MICROSOFT.to_owned());
    }
    if present(&attribution.fbclid) && paid_medium {
        return Some(PAID_META.to_owned());
    }
    if paid_medium {
        return Some(paid_channel_for_source(&source).to_owned());
    }
    let any_utm = [
        &attribution.utm_source,
        &attribution.utm_medium,
        &attribution.utm_campaign,
        &attribution.utm_content,
        &attribution.utm_term,
        &attribution.utm_id,
    ]
    .into_iter()
    .any(present);
    if any_utm {
        let channel = if medium == "email"
            || medium == "newsletter"
            || source_kind(&source) == Some(Kind::Webmail)
        {
            EMAIL
        } else if medium == "social" || source_kind(&source) == Some(Kind::SocialNetwork) {
            ORGANIC_SOCIAL
        } else {
            match source_kind(&source) {
                Some(Kind::SearchEngine) => ORGANIC_SEARCH,
                Some(Kind::AiAssistant) => AI_SEARCH,
                _ => REFERRAL,
            }
        };
        return Some(channel.to_owned());
    }
    if let Some(host) = attribution.referrer.as_deref().and_then(url_host) {
        let own = own_domain.map(|d| d.trim_start_matches("www.").to_ascii_lowercase());
        if own.as_deref().is_some_and(|own| host_matches(&host, own)) {
            // Internal navigation is no touch, not even `direct`: it must not overwrite the
            // identity's real last touch.
            return None;
        }
        let channel = match host_kind(&host) {
            Some(Kind::AiAssistant) => AI_SEARCH,
            Some(Kind::SearchEngine) => ORGANIC_SEARCH,
            Some(Kind::SocialNetwork) => ORGANIC_SOCIAL,
            Some(Kind::Webmail) => EMAIL,
            Some(Kind::OtherSite) | None => REFERRAL,
        };
        return Some(channel.to_owned());
    }
    is_browser_visit.then(|| DIRECT.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(edit: impl FnOnce(&mut Attribution)) -> Attribution {
        let mut attribution = Attribution::default();
        edit(&mut attribution);
        attribution
    }

    fn channel(attribution: &Attribution) -> Option<String> {
        classify(attribution, true, Some("myapp.com"))
    }

    #[test]
    fn explicit_channel_wins() {
        let a = with(|a| {
            a.channel = Some("podcast".into());
            a.gclid = Some("x".into());
        });
        assert_eq!(channel(&a).as_deref(), Some("podcast"));
    }

    #[test]
    fn click_ids() {
        assert_eq!(
            channel(&with(|a| a.gclid = Some("g".into()))).as_deref(),
            Some(PAID_GOOGLE)
        );
        assert_eq!(
            channel(&with(|a| a.wbraid = Some("g".into()))).as_deref(),
            Some(PAID_GOOGLE)
        );
        assert_eq!(
            channel(&with(|a| a.li_fat_id = Some("l".into()))).as_deref(),
            Some(PAID_LINKEDIN)
        );
        assert_eq!(
            channel(&with(|a| a.msclkid = Some("m".into()))).as_deref(),
            Some(PAID_MICROSOFT)
        );
        // fbclid alone is attached to organic Facebook links too: it only means paid with a paid medium.
        let organic_fb = with(|a| {
            a.fbclid = Some("f".into());
            a.referrer = Some("https://m.facebook.com/".into());
        });
        assert_eq!(channel(&organic_fb).as_deref(), Some(ORGANIC_SOCIAL));
        let paid_fb = with(|a| {
            a.fbclid = Some("f".into());
            a.utm_medium = Some("paid_social".into());
            a.utm_source = Some("newsletter-partner".into());
        });
        assert_eq!(channel(&paid_fb).as_deref(), Some(PAID_META));
    }

    #[test]
    fn paid_mediums_split_by_source() {
        let paid = |source: &str| {
            channel(&with(|a| {
                a.utm_medium = Some("CPC".into());
                a.utm_source = Some(source.into());
            }))
        };
        assert_eq!(paid("google").as_deref(), Some(PAID_GOOGLE));
        assert_eq!(paid("AdWords").as_deref(), Some(PAID_GOOGLE));
        assert_eq!(paid("ig").as_deref(), Some(PAID_META));
        assert_eq!(paid("linkedin").as_deref(), Some(PAID_LINKEDIN));
        assert_eq!(paid("reddit").as_deref(), Some(PAID_OTHER));
    }

    #[test]
    fn other_utm_tags() {
        let tagged = |medium: &str, source: &str| {
            channel(&with(|a| {
                a.utm_medium = Some(medium.into());
                a.utm_source = Some(source.into());
            }))
        };
        assert_eq!(tagged("newsletter", "weekly").as_deref(), Some(EMAIL));
        assert_eq!(
            tagged("social", "mastodon").as_deref(),
            Some(ORGANIC_SOCIAL)
        );
        assert_eq!(tagged("post", "reddit").as_deref(), Some(ORGANIC_SOCIAL));
        assert_eq!(tagged("organic", "bing").as_deref(), Some(ORGANIC_SEARCH));
        assert_eq!(tagged("", "chatgpt").as_deref(), Some(AI_SEARCH));
        assert_eq!(tagged("partner", "someblog").as_deref(), Some(REFERRAL));
        let campaign_only = with(|a| a.utm_campaign = Some("launch".into()));
        assert_eq!(channel(&campaign_only).as_deref(), Some(REFERRAL));
    }

    #[test]
    fn web_mail_is_email_and_search_engines_other_sites_are_referrals() {
        let from = |referrer: &str| channel(&with(|a| a.referrer = Some(referrer.into())));
        assert_eq!(
            from("https://mail.google.com/mail/u/0/").as_deref(),
            Some(EMAIL)
        );
        assert_eq!(
            from("https://mail.yahoo.com/d/folders/1").as_deref(),
            Some(EMAIL)
        );
        assert_eq!(
            from("https://outlook.live.com/mail/0/").as_deref(),
            Some(EMAIL)
        );
        assert_eq!(
            from("https://docs.google.com/document/d/1").as_deref(),
            Some(REFERRAL)
        );
        assert_eq!(
            from("https://drive.google.com/file/d/1").as_deref(),
            Some(REFERRAL)
        );
        assert_eq!(
            from("https://groups.google.com/g/rust").as_deref(),
            Some(REFERRAL)
        );
        assert_eq!(
            from("https://www.google.com/").as_deref(),
            Some(ORGANIC_SEARCH)
        );
        assert_eq!(
            from("https://search.yahoo.com/search").as_deref(),
            Some(ORGANIC_SEARCH)
        );
        let tagged = |source: &str| channel(&with(|a| a.utm_source = Some(source.into())));
        assert_eq!(tagged("mail.google.com").as_deref(), Some(EMAIL));
        assert_eq!(tagged("docs.google.com").as_deref(), Some(REFERRAL));
    }

    #[test]
    fn referrer_hosts() {
        let from = |referrer: &str| channel(&with(|a| a.referrer = Some(referrer.into())));
        assert_eq!(from("https://chatgpt.com/c/1").as_deref(), Some(AI_SEARCH));
        assert_eq!(
            from("https://gemini.google.com/app").as_deref(),
            Some(AI_SEARCH)
        );
        assert_eq!(
            from("https://www.google.co.uk/search?q=x").as_deref(),
            Some(ORGANIC_SEARCH)
        );
        assert_eq!(from("https://google.de/").as_deref(), Some(ORGANIC_SEARCH));
        assert_eq!(from("https://yandex.ru/").as_deref(), Some(ORGANIC_SEARCH));
        assert_eq!(
            from("https://search.brave.com/search").as_deref(),
            Some(ORGANIC_SEARCH)
        );
        assert_eq!(
            from("https://old.reddit.com/r/rust").as_deref(),
            Some(ORGANIC_SOCIAL)
        );
        assert_eq!(from("https://t.co/abc").as_deref(), Some(ORGANIC_SOCIAL));
        assert_eq!(
            from("https://news.ycombinator.com/item?id=1").as_deref(),
            Some(ORGANIC_SOCIAL)
        );
        assert_eq!(from("https://someblog.dev/post").as_deref(), Some(REFERRAL));
        assert_eq!(from("https://notgoogle.com/").as_deref(), Some(REFERRAL));
        assert_eq!(
            from("https://www.myapp.com/pricing").as_deref(),
            None,
            "own domain is no touch"
        );
        assert_eq!(
            from("https://app.myapp.com/").as_deref(),
            None,
            "own subdomains too"
        );
    }

    #[test]
    fn direct_only_for_browser_visits() {
        let bare = Attribution::default();
        assert_eq!(classify(&bare, true, None).as_deref(), Some(DIRECT));
        assert_eq!(classify(&bare, false, None), None);
    }

    #[test]
    fn hosts_are_extracted_from_urls() {
        assert_eq!(
            url_host("https://User@Sub.Example.com:8443/x?y#z").as_deref(),
            Some("sub.example.com")
        );
        assert_eq!(url_host("example.com/path").as_deref(), Some("example.com"));
        assert_eq!(url_host(""), None);
    }
}
