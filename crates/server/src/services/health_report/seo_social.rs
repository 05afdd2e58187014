//! SEO and social: are the sources that see search and social demand connected and fresh?
//!
//! Three checks, one per health area of the kind table (its kinds, in the table's order):
//! - `seo_social.search_console`: `search_console`, `search_b` (search engines' webmaster data);
//! - `seo_social.social_pages`: `social_a`, `social_b` (the product's social accounts);
//! - `seo_social.seo_metrics`: `seo_a`, `seo_b`, `geo_a` (rankings, authority, AI visibility).
//!
//! Connected: the worst freshness decides (as `GET /health` rates it). Not connected: warn with
//! the connect action while this build has a connector for one of the group's kinds
//! (`SourceRegistry::reads`), skip with a setup note while it has none.

use payback_domain::connection::ConnectionKind;
use payback_domain::source_kind::HealthArea;

use super::check::{CheckId, HealthCategoryKey, HealthCheck};
use super::context::Context;
use super::{sources, text};

const CATEGORY: HealthCategoryKey = HealthCategoryKey::SeoSocial;

/// One group: its check and the health area whose kinds it covers.
struct Group {
    check: CheckId,
    /// The kind table's area of the group's kinds.
    area: HealthArea,
    /// What the group gives, for the setup action.
    gives: &'static str,
}

impl Group {
    /// The group's kinds, in the kind table's order.
    fn kinds(&self) -> Vec<ConnectionKind> {
        ConnectionKind::all()
            .filter(|kind| kind.health_area() == self.area)
            .collect()
    }
}

const GROUPS: [Group; 3] = [
    Group {
        check: CheckId::new(
            CATEGORY,
            "seo_social.search_console",
            "Search console connected",
        ),
        area: HealthArea::SearchConsole,
        gives: "search queries, clicks and impressions",
    },
    Group {
        check: CheckId::new(
            CATEGORY,
            "seo_social.social_pages",
            "Social accounts connected",
        ),
        area: HealthArea::SocialPages,
        gives: "followers, reach and post engagement",
    },
    Group {
        check: CheckId::new(
            CATEGORY,
            "seo_social.seo_metrics",
            "SEO and AI-visibility sources connected",
        ),
        area: HealthArea::SeoMetrics,
        gives: "rankings, domain authority and AI-search visibility",
    },
];

pub fn checks(ctx: &Context<'_>) -> Vec<HealthCheck> {
    GROUPS.iter().map(|group| check(ctx, group)).collect()
}

fn check(ctx: &Context<'_>, group: &Group) -> HealthCheck {
    let rows = ctx.connections_where(|kind| kind.health_area() == group.area);
    if !rows.is_empty() {
        return sources::freshness_check(ctx, group.check, &rows);
    }
    let kinds = group.kinds();
    let words: Vec<String> = kinds.iter().map(|kind| kind.as_str().to_owned()).collect();
    let connectable: Vec<ConnectionKind> = kinds
        .into_iter()
        .filter(|kind| ctx.state.sources.reads(*kind))
        .collect();
    if connectable.is_empty() {
        return group.check.skip(
            format!("No connector for {} in this version", text::either(&words)),
            format!(
                "Nothing to connect yet: once a connector for {} arrives, connect it to see {} next to revenue.",
                text::either(&words),
                group.gives
            ),
        );
    }
    let ways: Vec<String> = connectable
        .iter()
        .map(|kind| connect_way(ctx, *kind))
        .collect();
    group.check.warn(
        format!("Not connected ({})", words.join(", ")),
        format!(
            "Connect {} to see {} next to revenue.",
            text::either(&ways),
            group.gives
        ),
    )
}

/// How a kind is connected: through its grant or its own connect route.
fn connect_way(ctx: &Context<'_>, kind: ConnectionKind) -> String {
    use payback_domain::source_kind::Family;
    match kind.family() {
        Family::SearchGrant => format!("{kind} through POST /connect/searchco/start"),
        Family::SocialGrant => format!(
            "{kind} through POST /connect/socialco/start (or POST {})",
            ctx.path(&format!("/connections/{}", kind.path_word()))
        ),
        _ => format!(
            "{kind} with POST {}",
            ctx.path(&format!("/connections/{}", kind.path_word()))
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether one of this category's checks rates connections of `kind`.
    fn covers(kind: ConnectionKind) -> bool {
        GROUPS.iter().any(|group| group.area == kind.health_area())
    }

    #[test]
    fn groups_cover_the_seo_and_social_kinds_once() {
        let mut covered: Vec<ConnectionKind> = GROUPS.iter().flat_map(Group::kinds).collect();
        let count = covered.len();
        covered.sort();
        covered.dedup();
        assert_eq!(covered.len(), count, "a kind in two groups");
        assert!(covers(ConnectionKind::SearchConsole));
        assert!(covers(ConnectionKind::SocialA));
        assert!(covers(ConnectionKind::GeoA));
        assert!(!covers(ConnectionKind::Payments));
        assert!(!covers(ConnectionKind::SearchAds));
        assert!(!covers(ConnectionKind::SqlA));
    }
}
