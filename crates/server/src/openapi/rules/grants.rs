//! The grants: the search engine's (`routes/connect.rs`, `services/searchco.rs`) and the social
//! network's (`routes/connect.rs`, `services/socialco.rs`) with the social kinds' connects
//! (`kinds/`, `services/ad_accounts.rs`).

use payback_domain::connection::ConnectionKind;

use crate::kinds;
use crate::openapi::rule::*;
use crate::routes::connect;
use crate::services::{searchco, socialco};

pub fn rules() -> Vec<(At, Vec<Rule>)> {
    let mut rules = search_rules();
    rules.extend(social_rules());
    rules
}

/// The search-engine grant.
fn search_rules() -> Vec<(At, Vec<Rule>)> {
    use At::{Field, Param};
    let mut rules = vec![
        (
            Field("StartRequest", "product_slug"),
            vec![Rule::Chars(1, connect::SLUG_MAX_CHARS)],
        ),
        (
            Field("StartRequest", "kinds"),
            vec![
                Rule::Items(1, connect::KINDS_MAX),
                Rule::Each(vec![
                    Rule::Chars(0, connect::KIND_MAX_CHARS),
                    // The grant's kinds that have a connector in this build.
                    words(
                        searchco::GOOGLE
                            .kinds()
                            .filter(|kind| kinds::registry().reads(*kind))
                            .map(ConnectionKind::as_str),
                    ),
                ]),
            ],
        ),
        (
            Field("SelectRequest", "state"),
            vec![Rule::Chars(1, connect::STATE_MAX_CHARS)],
        ),
        (
            Param("/connect/searchco/status", "state"),
            at_most(connect::STATE_MAX_CHARS),
        ),
    ];
    for field in [
        "ads_customer_id",
        "analytics_a_property_id",
        "tagmgr_container_path",
        "search_console_site_url",
    ] {
        rules.push((
            Field("SelectRequest", field),
            vec![Rule::Chars(1, connect::CHOICE_MAX_CHARS)],
        ));
    }
    rules
}

/// The social-network grant.
fn social_rules() -> Vec<(At, Vec<Rule>)> {
    use At::{Field, Param};
    vec![
        (
            Field("SocialStartRequest", "product_slug"),
            vec![Rule::Chars(1, connect::SLUG_MAX_CHARS)],
        ),
        (
            Field("SocialStartRequest", "kinds"),
            vec![
                Rule::Items(1, connect::SOCIAL_KINDS_MAX),
                Rule::Each(vec![
                    Rule::Chars(0, connect::KIND_MAX_CHARS),
                    words(
                        socialco::META
                            .kinds()
                            .filter(|kind| kinds::registry().reads(*kind))
                            .map(ConnectionKind::as_str),
                    ),
                ]),
            ],
        ),
        (
            Field("SocialSelectRequest", "state"),
            vec![Rule::Chars(1, connect::STATE_MAX_CHARS)],
        ),
        (
            Field("SocialSelectRequest", "ad_account_id"),
            vec![Rule::Chars(1, connect::CHOICE_MAX_CHARS)],
        ),
        (
            Field("SocialSelectRequest", "page_id"),
            vec![Rule::Chars(1, connect::CHOICE_MAX_CHARS)],
        ),
        (
            Param("/connect/socialco/status", "state"),
            at_most(connect::STATE_MAX_CHARS),
        ),
    ]
}
