//! A fetched page read for what it loads: the texts [`catalog`](super::catalog)'s patterns are
//! matched against (start tags of the loading elements and inline script code, never the
//! page's prose), and the integrations and platform they show.

use regex::Regex;
use scraper::{ElementRef, Html, Selector};

use super::catalog::{INTEGRATIONS, PLATFORMS, Platform, Signature};

/// The elements whose start tags say what the page loads (scripts, stylesheets, the noscript
/// iframes and images of pixels) and the root, which carries platform attributes.
const LOADING_ELEMENTS: &str = "script, link, iframe, img, html";

/// What the page loads, as texts to match.
#[derive(Debug, Default)]
pub struct Loaded {
    texts: Vec<String>,
}

/// One integration found, with its ids in the order the page has them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub signature: Signature,
    pub ids: Vec<String>,
}

/// The loading texts of `html`.
pub fn loaded(html: &str) -> Loaded {
    let document = Html::parse_document(html);
    let mut texts = Vec::new();
    if let Ok(elements) = Selector::parse(LOADING_ELEMENTS) {
        for element in document.select(&elements) {
            texts.push(start_tag(element));
            if element.value().name() == "script" && element.value().attr("src").is_none() {
                let code: String = element.text().collect();
                if !code.trim().is_empty() {
                    texts.push(code);
                }
            }
        }
    }
    if let Ok(generators) = Selector::parse(r#"meta[name="generator" i]"#) {
        for meta in document.select(&generators) {
            if let Some(content) = meta.value().attr("content") {
                texts.push(format!("generator={}", content.trim()));
            }
        }
    }
    Loaded { texts }
}

/// `name a="1" b="2"`, the attributes sorted by name (the parser keeps no order).
fn start_tag(element: ElementRef<'_>) -> String {
    let mut attributes: Vec<(&str, &str)> = element.value().attrs().collect();
    attributes.sort_unstable();
    let mut tag = element.value().name().to_owned();
    for (name, value) in attributes {
        tag.push_str(&format!(" {name}=\"{value}\""));
    }
    tag
}

/// The catalog's patterns, compiled; a pattern that does not compile is a bug the unit tests
/// catch, so it is skipped here rather than failing a request.
fn compiled(patterns: &[&str]) -> Vec<Regex> {
    patterns
        .iter()
        .filter_map(|pattern| Regex::new(pattern).ok())
        .collect()
}

impl Loaded {
    /// Every integration of the catalog the page loads, in the catalog's order.
    pub fn integrations(&self) -> Vec<Found> {
        INTEGRATIONS
            .iter()
            .filter_map(|signature| self.find(signature))
            .collect()
    }

    /// The first platform of the catalog the page is built on.
    pub fn platform(&self) -> Option<&'static Platform> {
        PLATFORMS.iter().find(|platform| {
            let evidence = compiled(platform.evidence);
            self.texts
                .iter()
                .any(|text| evidence.iter().any(|pattern| pattern.is_match(text)))
        })
    }

    fn find(&self, signature: &Signature) -> Option<Found> {
        let evidence = compiled(signature.evidence);
        let there = self
            .texts
            .iter()
            .any(|text| evidence.iter().any(|pattern| pattern.is_match(text)));
        if !there {
            return None;
        }
        let mut ids: Vec<String> = Vec::new();
        for pattern in evidence.iter().chain(compiled(signature.ids).iter()) {
            for text in &self.texts {
                for captures in pattern.captures_iter(text) {
                    if let Some(id) = captures.get(1).map(|id| id.as_str().to_owned())
                        && !ids.contains(&id)
                    {
                        ids.push(id);
                    }
                }
            }
        }
        Some(Found {
            signature: *signature,
            ids,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(html: &str) -> Vec<(&'static str, Vec<String>)> {
        loaded(html)
            .integrations()
            .into_iter()
            .map(|found| (found.signature.key, found.ids))
            .collect()
    }

    #[test]
    fn every_pattern_compiles() {
        for signature in INTEGRATIONS {
            for pattern in signature.evidence.iter().chain(signature.ids) {
                assert!(Regex::new(pattern).is_ok(), "{}: {pattern}", signature.key);
            }
        }
        for platform in PLATFORMS {
            for pattern in platform.evidence {
                assert!(Regex::new(pattern).is_ok(), "{}: {pattern}", platform.key);
            }
        }
    }

    #[test]
    fn loaders_are_recognised_with_their_ids() {
        let html = r#"<!doctype html><html><head>
<script async src="https://www.googletagmanager.com/gtag/js?id=G-ABC123XYZ"></script>
<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments);}
gtag('js', new Date()); gtag('config', 'G-ABC123XYZ'); gtag('config', 'AW-123456789');</script>
<script>(function(w,d,s,l,i){w[l]=w[l]||[];var f=d.getElementsByTagName(s)[0],j=d.createElement(s);
j.src='https://www.googletagmanager.com/gtm.js?id='+i;f.parentNode.insertBefore(j,f);
})(window,document,'script','dataLayer','GTM-K9X2LQ');</script>
<script>!function(f,b,e,v,n,t,s){t.src='https://connect.facebook.net/en_US/fbevents.js'}(window, document,'script');
fbq('init', '1234567890123'); fbq('track', 'PageView');</script>
<script>(function(c,l,a,r,i,t,y){t.src="https://www.clarity.ms/tag/"+i;})(window, document, "clarity", "script", "abcdef1234");</script>
<script src="https://js.stripe.com/v3/"></script>
<script src="https://shop.example/svc.js" data-key="svc_pub_AbC123" async></script>
</head><body><p>Hello</p></body></html>"#;
        assert_eq!(
            keys(html),
            vec![
                ("ga4", vec!["G-ABC123XYZ".to_owned()]),
                ("gtm", vec!["GTM-K9X2LQ".to_owned()]),
                ("google_ads", vec!["AW-123456789".to_owned()]),
                ("meta_pixel", vec!["1234567890123".to_owned()]),
                ("clarity", vec!["abcdef1234".to_owned()]),
                ("first_party", vec!["svc_pub_AbC123".to_owned()]),
                ("stripe", vec![]),
            ]
        );
    }

    #[test]
    fn prose_about_vendors_is_not_a_loader() {
        let html = r#"<html><head><title>Our stack</title></head><body>
<p>We use Google Analytics (gtag('config', 'G-NOTREAL1')), Google Tag Manager GTM-FAKE99,
the Meta Pixel fbq('init', '999'), Hotjar, HubSpot, PostHog posthog.init('phc_x') and Stripe
js.stripe.com/v3 on WordPress /wp-content/ and Shopify cdn.shopify.com/.</p>
<pre>&lt;script src="https://www.googletagmanager.com/gtm.js?id=GTM-ABCD"&gt;</pre>
</body></html>"#;
        let page = loaded(html);
        assert_eq!(page.integrations(), Vec::new());
        assert!(page.platform().is_none());
    }

    #[test]
    fn platforms_by_their_assets_or_generator() {
        let wordpress = r#"<html><head><meta name="generator" content="WordPress 6.6">
<link rel="stylesheet" href="/wp-content/themes/x/style.css"></head></html>"#;
        assert_eq!(
            loaded(wordpress).platform().map(|p| p.key),
            Some("wordpress")
        );
        let webflow = r#"<html data-wf-page="65a" data-wf-site="64b"><head></head></html>"#;
        assert_eq!(loaded(webflow).platform().map(|p| p.key), Some("webflow"));
        let shopify = r#"<html><head><script src="https://cdn.shopify.com/s/files/1/x.js"></script></head></html>"#;
        assert_eq!(loaded(shopify).platform().map(|p| p.key), Some("shopify"));
    }
}
