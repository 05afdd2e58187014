//! SEO and social: are the sources that see search and social demand connected and fresh?
//!
//! Three checks, one per group of kinds of the kind table:
//! - `seo_social.search_console`: `search_console`, `search_b` (search engines' webmaster data);
//! - `seo_social.social_pages`: `social_a`, `social_b` (the product's social accounts);
//! - `seo_social.seo_metrics`: `seo_a`, `seo_b`, `geo_a` (rankings, authority, AI visibility).
//!
//! Connected: the worst freshness decides (as `GET /health` rates it). Not connected: warn with
//! the connect action while this build has a connector for one of the group's kinds
//! (`SourceRegistry::reads`), skip with a setup note while it has none.

use payback_domain::connection::ConnectionKind;

use super::check::{CheckId, HealthCategoryKey, HealthCheck};
use super::context::Context;
use super::{sources, text};

const CATEGORY: HealthCategoryKey = HealthCategoryKey::SeoSocial;

/// One group: its check and the kinds it covers.
struct Group {
    check: CheckId,
    kinds: &'static [ConnectionKind],
    /// What the group gives, for the setup action.
    gives: &'static str,
}

const GROUPS: [Group; 3] = [
    Group {
        check: CheckId::new(
            CATEGORY,
            "seo_social.search_console",
            "Search console connected",
        ),
        kinds: &[ConnectionKind::SearchConsole, ConnectionKind::SearchB],
        gives: "search queries, clicks and impressions",
    },
    Group {
        check: CheckId::new(
            CATEGORY,
            "seo_social.social_pages",
            "Social accounts connected",
        ),
        kinds: &[ConnectionKind::SocialA, ConnectionKind::SocialB],
        gives: "followers, reach and post engagement",
    },
    Group {
        check: CheckId::new(
            CATEGORY,
            "seo_social.seo_metrics",
            "SEO and AI-visibility sources connected",
        ),
        kinds: &[
            ConnectionKind::SeoA,
            ConnectionKind::SeoB,
            ConnectionKind::GeoA,
        ],
        gives: "rankings, domain authority and AI-search visibility",
    },
];

/// Whether one of this category's checks rates connections of `kind`.
pub fn covers(kind: ConnectionKind) -> bool {
    GROUPS.iter().any(|group| group.kinds.contains(&kind))
}

pub fn checks(ctx: &Context<'_>) -> Vec<HealthCheck> {
    GROUPS.iter().map(|group| check(ctx, group)).collect()
}

fn check(ctx: &Context<'_>, group: &Group) -> HealthCheck {
    let rows = ctx.connections_where(|kind| group.kinds.contains(&kind));
    if !rows.is_empty() {
        return sources::freshness_check(ctx, group.check, &rows);
    }
    let words: Vec<String> = group
        .kinds
        .iter()
        .map(|kind| kind.as_str().to_owned())
        .collect();
    let connectable: Vec<ConnectionKind> = group
        .kinds
        .iter()
        .copied()
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

    #[test]
    fn groups_cover_the_seo_and_social_kinds_once() {
        let mut covered: Vec<ConnectionKind> = GROUPS
            .iter()
            .flat_map(|group| group.kinds.iter().copied())
            .collect();
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
