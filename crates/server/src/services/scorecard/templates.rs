//! The four scorecard templates: named layouts of catalog metrics. Applying one keeps every row,
//! available or not (a row of a source not connected reads null until it is); the first read
//! provisions `default` with only its available rows.

/// A template's section: its key, label and metrics in order.
#[derive(Debug, Clone, Copy)]
pub struct TemplateSection {
    pub key: &'static str,
    pub label: &'static str,
    pub metrics: &'static [&'static str],
}

const fn section(
    key: &'static str,
    label: &'static str,
    metrics: &'static [&'static str],
) -> TemplateSection {
    TemplateSection {
        key,
        label,
        metrics,
    }
}

/// The template the first read provisions.
pub const DEFAULT: &str = "default";

/// Every template by name, in the order the API lists them.
pub const TEMPLATES: &[(&str, &[TemplateSection])] = &[
    (
        DEFAULT,
        &[
            section(
                "funnel",
                "Funnel",
                &["visits", "leads", "signups", "visit_to_signup"],
            ),
            section(
                "revenue",
                "Revenue",
                &["customers", "revenue", "signup_to_customer"],
            ),
            section(
                "paid",
                "Paid acquisition",
                &["spend", "cac", "roas", "ltv_cac"],
            ),
            section(
                "reach",
                "Search and social",
                &["search_clicks", "search_impressions", "social_followers"],
            ),
        ],
    ),
    (
        "saas_waitlist",
        &[
            section(
                "waitlist",
                "Waitlist",
                &["visits", "leads", "signups", "visit_to_signup"],
            ),
            section("reach", "Reach", &["search_clicks", "social_followers"]),
        ],
    ),
    (
        "paid_acquisition",
        &[
            section(
                "paid",
                "Paid acquisition",
                &["spend", "cac", "roas", "ltv_cac"],
            ),
            section(
                "outcome",
                "Outcome",
                &["signups", "customers", "revenue", "signup_to_customer"],
            ),
        ],
    ),
    (
        "content_led",
        &[
            section(
                "content",
                "Content",
                &[
                    "search_impressions",
                    "search_clicks",
                    "visits",
                    "social_followers",
                ],
            ),
            section("conversion", "Conversion", &["signups", "visit_to_signup"]),
        ],
    ),
];

/// The sections of the template called `name`.
pub fn find(name: &str) -> Option<&'static [TemplateSection]> {
    TEMPLATES
        .iter()
        .find(|(template, _)| *template == name)
        .map(|(_, sections)| *sections)
}

/// The template names, for error messages and the document.
pub fn names() -> String {
    TEMPLATES
        .iter()
        .map(|(name, _)| *name)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::services::scorecard::catalog;

    fn metrics(name: &str) -> Vec<&'static str> {
        find(name)
            .unwrap()
            .iter()
            .flat_map(|s| s.metrics.iter().copied())
            .collect()
    }

    #[test]
    fn templates_hold_what_the_issue_names() {
        assert_eq!(
            metrics(DEFAULT).len(),
            14,
            "default holds every catalog metric"
        );
        for (template, required) in [
            (
                "saas_waitlist",
                &["visits", "signups", "visit_to_signup"][..],
            ),
            (
                "paid_acquisition",
                &["spend", "customers", "cac", "roas", "revenue"][..],
            ),
            ("content_led", &["visits", "search_clicks", "signups"][..]),
        ] {
            let held = metrics(template);
            for metric in required {
                assert!(held.contains(metric), "{template} lacks {metric}");
            }
        }
        for (name, _) in TEMPLATES {
            let held = metrics(name);
            for metric in &held {
                assert!(catalog::find(metric).is_some(), "{name}: {metric}");
            }
            let mut unique = held.clone();
            unique.sort_unstable();
            unique.dedup();
            assert_eq!(unique.len(), held.len(), "{name} names a metric twice");
        }
    }
}
