//! What detect-integrations recognises, as the vendors' own loaders write it: each integration's
//! evidence is a pattern of its loader code or script URL (never of prose: a page that says "we
//! use Google Analytics" loads nothing), and the patterns that capture its ids (tag, pixel,
//! project or key ids). A pattern's first capture group, when it has one, is an id.
//!
//! The texts matched are built by `scan`: each `<script>`, `<link>`, `<iframe>`, `<img>` and the
//! `<html>` element as its start tag with its attributes sorted by name (`script
//! data-key="..." src="..."`), each inline script's code, and the generator `<meta>` as
//! `generator=<content>`.

/// What an integration does.
pub const ANALYTICS: &str = "analytics";
pub const TAG_MANAGER: &str = "tag_manager";
pub const AD_PIXEL: &str = "ad_pixel";
pub const SESSION_RECORDING: &str = "session_recording";
pub const FIRST_PARTY: &str = "first_party";
pub const PAYMENTS: &str = "payments";
pub const CRM: &str = "crm";

/// When the product counts as having connected the vendor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Connected {
    /// A connection of the kind of this wire word (the kind table's; `catalog`'s tests check
    /// each parses).
    Kind(&'static str),
    /// The product has a write key (Payback's own snippet).
    WriteKey,
    /// Payback has no source for the vendor.
    Never,
}

/// One recognisable integration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Signature {
    pub key: &'static str,
    pub name: &'static str,
    pub category: &'static str,
    /// Any match means the integration is there; a capture group is an id.
    pub evidence: &'static [&'static str],
    /// Applied once the integration is there: capture group 1 is an id.
    pub ids: &'static [&'static str],
    pub connected: Connected,
}

/// A site platform, recognised the same way.
#[derive(Debug, Clone, Copy)]
pub struct Platform {
    pub key: &'static str,
    pub name: &'static str,
    pub evidence: &'static [&'static str],
}

/// `?id=` (or `&id=`) in a URL, the way the Google loaders carry it.
macro_rules! query_id {
    ($path:literal, $id:literal) => {
        concat!($path, r#"\?(?:[^\s'"<>]*&)?id="#, $id)
    };
}

pub const INTEGRATIONS: &[Signature] = &[
    Signature {
        key: "ga4",
        name: "Google Analytics 4",
        category: ANALYTICS,
        evidence: &[
            query_id!(r"googletagmanager\.com/gtag/js", r"(G-[A-Z0-9]{4,})"),
            r#"gtag\(\s*['"]config['"]\s*,\s*['"](G-[A-Z0-9]{4,})['"]"#,
        ],
        ids: &[],
        connected: Connected::Kind("analytics_a"),
    },
    Signature {
        key: "posthog",
        name: "PostHog",
        category: ANALYTICS,
        evidence: &[
            r"posthog\.init\(",
            r"assets\.i\.posthog\.com/static/array\.js",
        ],
        ids: &[r#"posthog\.init\(\s*['"](phc_[A-Za-z0-9]+)['"]"#],
        connected: Connected::Kind("product_analytics_a"),
    },
    Signature {
        key: "gtm",
        name: "Google Tag Manager",
        category: TAG_MANAGER,
        evidence: &[
            r"googletagmanager\.com/gtm\.js",
            query_id!(r"googletagmanager\.com/ns\.html", r"(GTM-[A-Z0-9]{4,})"),
        ],
        ids: &[
            query_id!(r"googletagmanager\.com/gtm\.js", r"(GTM-[A-Z0-9]{4,})"),
            r#"['"](GTM-[A-Z0-9]{4,})['"]"#,
        ],
        connected: Connected::Kind("tagmgr"),
    },
    Signature {
        key: "google_ads",
        name: "Google Ads",
        category: AD_PIXEL,
        evidence: &[
            query_id!(r"googletagmanager\.com/gtag/js", r"(AW-\d{4,})"),
            r#"gtag\(\s*['"]config['"]\s*,\s*['"](AW-\d{4,})"#,
            r"googleadservices\.com/pagead/conversion(?:_async)?\.js",
        ],
        ids: &[r"google_conversion_id\s*=\s*(\d{4,})"],
        connected: Connected::Kind("search_ads"),
    },
    Signature {
        key: "meta_pixel",
        name: "Meta Pixel",
        category: AD_PIXEL,
        evidence: &[
            r#"connect\.facebook\.net/[^\s'"<>]*/fbevents\.js"#,
            r#"facebook\.com/tr\?(?:[^\s'"<>]*&)?id=(\d+)"#,
        ],
        ids: &[r#"fbq\(\s*['"]init['"]\s*,\s*['"](\d+)['"]"#],
        connected: Connected::Kind("social_ads_a"),
    },
    Signature {
        key: "linkedin_insight",
        name: "LinkedIn Insight Tag",
        category: AD_PIXEL,
        evidence: &[
            r"snap\.licdn\.com/li\.lms-analytics/insight\.min\.js",
            r#"px\.ads\.linkedin\.com/collect/?\?(?:[^\s'"<>]*&)?pid=(\d+)"#,
        ],
        ids: &[r#"_linkedin_partner_id\s*=\s*['"]?(\d+)"#],
        connected: Connected::Kind("social_ads_b"),
    },
    Signature {
        key: "clarity",
        name: "Microsoft Clarity",
        category: SESSION_RECORDING,
        evidence: &[
            r"clarity\.ms/tag/([a-z0-9]{6,})",
            r#"['"]clarity['"]\s*,\s*['"]script['"]\s*,\s*['"]([a-z0-9]{6,})['"]"#,
        ],
        ids: &[],
        connected: Connected::Kind("replay_a"),
    },
    Signature {
        key: "hotjar",
        name: "Hotjar",
        category: SESSION_RECORDING,
        evidence: &[
            r"static\.hotjar\.com/c/hotjar-(\d+)\.js",
            r"static\.hotjar\.com/c/hotjar-",
        ],
        ids: &[r"hjid\s*:\s*(\d+)"],
        connected: Connected::Never,
    },
    Signature {
        key: "first_party",
        name: "Payback snippet",
        category: FIRST_PARTY,
        // Attributes are written sorted by name (`scan`), so the key comes before the source.
        evidence: &[r#"data-key="(svc_pub_[A-Za-z0-9]+)"[^<>]*src="[^"]*/svc\.js""#],
        ids: &[],
        connected: Connected::WriteKey,
    },
    Signature {
        key: "stripe",
        name: "Stripe",
        category: PAYMENTS,
        evidence: &[r"js\.stripe\.com/(?:v\d|basil|acacia|clover|dahlia)"],
        ids: &[r#"Stripe\(\s*['"](pk_(?:live|test)_[A-Za-z0-9]+)['"]"#],
        connected: Connected::Kind("payments"),
    },
    Signature {
        key: "hubspot",
        name: "HubSpot",
        category: CRM,
        evidence: &[
            r"js\.hs-scripts\.com/(\d+)\.js",
            r"js\.hs-analytics\.net/analytics/\d+/(\d+)\.js",
            r"js\.hsforms\.net/forms/",
        ],
        ids: &[r#"portalId\s*:\s*['"]?(\d+)"#],
        connected: Connected::Never,
    },
];

pub const PLATFORMS: &[Platform] = &[
    Platform {
        key: "wordpress",
        name: "WordPress",
        evidence: &[r"/wp-content/", r"/wp-includes/", r"^generator=WordPress"],
    },
    Platform {
        key: "shopify",
        name: "Shopify",
        evidence: &[
            r"cdn\.shopify\.com/",
            r"Shopify\.shop\s*=",
            r"^generator=Shopify",
        ],
    },
    Platform {
        key: "webflow",
        name: "Webflow",
        evidence: &[
            r#"data-wf-(?:site|page)=""#,
            r"/js/webflow\.[a-z0-9.]*js",
            r"^generator=Webflow",
        ],
    },
];

#[cfg(test)]
mod tests {
    use payback_domain::connection::ConnectionKind;

    use super::*;

    #[test]
    fn every_kind_named_is_a_kind_of_the_table() {
        for signature in INTEGRATIONS {
            if let Connected::Kind(word) = signature.connected {
                assert!(
                    ConnectionKind::parse(word).is_some(),
                    "{}: {word}",
                    signature.key
                );
            }
        }
    }
}
