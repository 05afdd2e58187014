//! Reads (`input/window.rs`: `Window`, `limits`; `services/attribution.rs`, `routes/history.rs`)
//! and the kinds a connection path names (`domain/src/source_kind.rs`).

use payback_domain::connection::ConnectionKind;

use crate::input::limits;
use crate::openapi::rule::*;
use crate::routes::history;
use crate::services::attribution;

pub fn rules() -> Vec<(At, Vec<Rule>)> {
    use At::Param;
    let mut rules = vec![
        (Param("/history", "days"), days()),
        (Param("/history", "limit"), limit(limits::WINDOW)),
        (
            Param("/history", "include"),
            vec![words([history::INCLUDE_ACCOUNT])],
        ),
        (Param("/queue", "limit"), limit(limits::QUEUE)),
        (Param("/portfolio", "limit"), limit(limits::PORTFOLIO)),
        (Param("/team", "limit"), limit(limits::TEAM)),
        (Param("/auth/keys", "limit"), limit(limits::KEYS)),
        (Param("/connections", "limit"), limit(limits::CONNECTIONS)),
        (
            Param("/products/{slug}/conversions", "limit"),
            limit(limits::CONVERSIONS),
        ),
        (
            Param("/products/{slug}/attribution/sales", "limit"),
            limit(limits::WINDOW),
        ),
        (
            Param("/products/{slug}/attribution/ads", "limit"),
            limit(limits::WINDOW),
        ),
        (
            Param("/products/{slug}/distribution", "limit"),
            limit(limits::WINDOW),
        ),
        (
            Param("/products/{slug}/attribution/ads", "level"),
            vec![words(attribution::LEVELS.iter().map(|(word, _)| *word))],
        ),
        (
            Param("/products/{slug}/connections/{kind}/test", "kind"),
            kinds(|_| true),
        ),
        (
            Param("/products/{slug}/connections/{kind}/disconnect", "kind"),
            kinds(|_| true),
        ),
        (
            Param("/products/{slug}/connections/{kind}/sync", "kind"),
            kinds(ConnectionKind::syncs_on_demand),
        ),
        (
            Param("/products/{slug}/connections/{kind}/event-maps", "kind"),
            kinds(ConnectionKind::is_database),
        ),
        (
            Param(
                "/products/{slug}/connections/{kind}/suggest-mappings",
                "kind",
            ),
            kinds(ConnectionKind::is_database),
        ),
    ];
    for path in [
        "/products/{slug}/attribution",
        "/products/{slug}/attribution/sales",
        "/products/{slug}/attribution/ads",
        "/products/{slug}/timeseries",
        "/products/{slug}/funnel",
        "/products/{slug}/funnel/series",
        "/products/{slug}/conversions/report",
        "/products/{slug}/spend",
        "/products/{slug}/distribution",
        "/products/{slug}/social",
        "/products/{slug}/demand",
    ] {
        rules.push((Param(path, "days"), days()));
    }
    rules
}
