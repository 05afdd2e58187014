//! Source kinds as plug-ins: each kind this build connects is one module here, holding what
//! the server does for it and for no other kind: its documented connect route (and any route
//! only it has), how a stored connection becomes its connector's [`Source`], and, for a kind a
//! grant serves, what the grant asks of it. [`all`] is the one list; the app's routes, the
//! source registry and the grant providers' kinds are built from it, so adding a kind is its
//! module and one line there (see ARCHITECTURE.md, "Adding a source kind").
//!
//! What varies by kind outside these modules comes from the kind table
//! (`payback_domain::source_kind`): labels, family, cadence, sync-now, spend landing.

pub mod analytics_a;
pub mod database;
pub mod docdb;
pub mod geo_a;
pub mod payments;
pub mod product_analytics_a;
pub mod replay;
pub mod replay_a;
pub mod search_ads;
pub mod search_b;
pub mod search_console;
pub mod seo_a;
pub mod seo_b;
pub mod social_a;
pub mod social_ads_a;
pub mod social_ads_b;
pub mod social_b;
pub mod sql_a;
pub mod sql_b;
pub mod tagmgr;

use std::sync::Arc;

use axum::http::Extensions;
use payback_connectors::Source;
use payback_domain::connection::ConnectionKind;
use payback_store::connections::ConnectionRow;
use payback_store::products::ProductRow;
use utoipa_axum::router::OpenApiRouter;

use crate::openapi::rule::{At, Rule};
use crate::routes::connect::CHOICE_MAX_CHARS;
use crate::services::grants::{AccessWords, GrantedKind, GrantedKinds, Revokers};
use crate::services::key_connect::ACCESS_TOKEN_MAX_CHARS;
use crate::services::searchco::Searchco;
use crate::services::socialco::Socialco;
use crate::state::{AppState, OpenFuture, OpenSource, SourceRegistry};

/// Every kind this build connects, in the kind table's order.
pub fn all() -> Vec<Plugin> {
    vec![
        analytics_a::plugin(),
        tagmgr::plugin(),
        search_ads::plugin(),
        search_console::plugin(),
        search_b::plugin(),
        seo_a::plugin(),
        seo_b::plugin(),
        geo_a::plugin(),
        replay_a::plugin(),
        product_analytics_a::plugin(),
        social_ads_a::plugin(),
        social_ads_b::plugin(),
        social_a::plugin(),
        social_b::plugin(),
        payments::plugin(),
        sql_a::plugin(),
        sql_b::plugin(),
        docdb::plugin(),
    ]
}

/// One kind's registration.
pub struct Plugin {
    pub kind: ConnectionKind,
    /// How a stored connection becomes its [`Source`].
    pub open: OpenFn,
    /// Its documented routes behind a bearer (its connect, and what only it has); none for a
    /// kind only a grant connects.
    pub routes: fn() -> OpenApiRouter<AppState>,
    /// The grant that serves it, with what the grant asks of it.
    pub grant: Option<Granted>,
    /// What the server checks of its routes' bodies, for the OpenAPI document (`openapi`).
    pub rules: fn() -> Vec<(At, Vec<Rule>)>,
}

/// The grant provider a kind is connected through, and the kind as that provider serves it.
pub enum Granted {
    Searchco(Arc<dyn GrantedKind<Searchco>>),
    Socialco(Arc<dyn GrantedKind<Socialco>>),
}

/// A kind's opener as a plain function: a stored connection, its product and the state are all
/// any kind needs.
pub type OpenFn = for<'a> fn(&'a AppState, &'a ProductRow, &'a ConnectionRow) -> OpenFuture<'a>;

struct FnOpener(OpenFn);

impl OpenSource for FnOpener {
    fn open<'a>(
        &'a self,
        state: &'a AppState,
        product: &'a ProductRow,
        row: &'a ConnectionRow,
    ) -> OpenFuture<'a> {
        (self.0)(state, product, row)
    }
}

/// A connector's source, boxed as the registry hands it out.
fn boxed(source: impl Source + 'static) -> Box<dyn Source> {
    Box::new(source)
}

/// The rules of a kind whose routes take no body.
pub fn no_rules() -> Vec<(At, Vec<Rule>)> {
    Vec::new()
}

/// The rules of a pasted access token and of an account or page id, as the key-based connects
/// take them.
pub fn token_rules(body: &'static str, id_field: &'static str) -> Vec<(At, Vec<Rule>)> {
    vec![
        (
            At::Field(body, "access_token"),
            vec![Rule::Chars(1, ACCESS_TOKEN_MAX_CHARS)],
        ),
        (
            At::Field(body, id_field),
            vec![Rule::Chars(1, CHOICE_MAX_CHARS)],
        ),
    ]
}

/// The openers of every kind.
pub fn registry() -> SourceRegistry {
    let mut registry = SourceRegistry::default();
    for plugin in all() {
        registry.register(plugin.kind, Arc::new(FnOpener(plugin.open)));
    }
    registry
}

/// What the kinds register for the services that serve them: each grant provider's kinds, the
/// confirmation page's words, and the providers' revocations.
pub fn plugins() -> Extensions {
    let mut searchco = Vec::new();
    let mut socialco = Vec::new();
    let mut words = AccessWords::default();
    for plugin in all() {
        match plugin.grant {
            Some(Granted::Searchco(kind)) => {
                words.insert(kind.kind(), kind.access());
                searchco.push(kind);
            }
            Some(Granted::Socialco(kind)) => {
                words.insert(kind.kind(), kind.access());
                socialco.push(kind);
            }
            None => {}
        }
    }
    let mut revokers = Revokers::default();
    revokers.insert::<Searchco>();
    revokers.insert::<Socialco>();
    let mut plugins = Extensions::new();
    plugins.insert(GrantedKinds::new(searchco));
    plugins.insert(GrantedKinds::new(socialco));
    plugins.insert(words);
    plugins.insert(revokers);
    plugins.insert(tagmgr::gtm_status());
    plugins
}

/// Every kind's own routes.
pub fn router() -> OpenApiRouter<AppState> {
    all()
        .into_iter()
        .fold(OpenApiRouter::new(), |router, plugin| {
            router.merge((plugin.routes)())
        })
}

#[cfg(test)]
mod tests {
    use payback_domain::connection::ConnectionKind;
    use payback_domain::source_kind::Family;

    use super::{Granted, all};

    /// A kind the kind table marks connectable (its connector is in this build, the dashboard
    /// offers its form) has its plug-in here, once; no other kind has one.
    #[test]
    fn every_connectable_kind_has_its_plugin_and_no_other_does() {
        let plugged: Vec<ConnectionKind> = all().iter().map(|plugin| plugin.kind).collect();
        for kind in ConnectionKind::all() {
            let count = plugged.iter().filter(|plugged| **plugged == kind).count();
            let expected = usize::from(kind.connectable());
            assert_eq!(count, expected, "{kind}: {count} plug-ins");
        }
    }

    /// Its module is `kinds/<kind>.rs` (or a folder of that name), so a newcomer finds it.
    #[test]
    fn every_plugin_lives_in_its_kinds_module() {
        let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/kinds");
        for plugin in all() {
            let word = plugin.kind.as_str();
            let file = folder.join(format!("{word}.rs"));
            let dir = folder.join(word).join("mod.rs");
            assert!(
                file.is_file() || dir.is_file(),
                "{word}: neither kinds/{word}.rs nor kinds/{word}/mod.rs"
            );
        }
    }

    /// A kind registers with the grant of its family, and a grant family's kind has a grant.
    #[test]
    fn grant_kinds_register_with_their_familys_grant() {
        for plugin in all() {
            let family = plugin.kind.family();
            match &plugin.grant {
                Some(Granted::Searchco(granted)) => {
                    assert_eq!(family, Family::SearchGrant, "{}", plugin.kind);
                    assert_eq!(granted.kind(), plugin.kind);
                }
                Some(Granted::Socialco(granted)) => {
                    assert_eq!(family, Family::SocialGrant, "{}", plugin.kind);
                    assert_eq!(granted.kind(), plugin.kind);
                }
                None => assert!(
                    !matches!(family, Family::SearchGrant | Family::SocialGrant),
                    "{}: its family is a grant's, but it registers none",
                    plugin.kind
                ),
            }
        }
    }

    /// Outside this folder the server asks the kind table or a plug-in, never names a kind:
    /// non-test code holds no `ConnectionKind::<Variant>` (a kind added later then needs no
    /// edit there).
    #[test]
    fn no_server_code_outside_the_kinds_modules_names_a_kind() {
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        rust_files(&src, &src.join("kinds"), &mut files);
        assert!(files.len() > 50, "found only {} files", files.len());
        let mut found = Vec::new();
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap_or_default();
            // Test modules come last in a file; they may name the kinds they test.
            let code = text.split("#[cfg(test)]").next().unwrap_or_default();
            for (number, line) in code.lines().enumerate() {
                let named = line.match_indices("ConnectionKind::").any(|(at, word)| {
                    line[at + word.len()..]
                        .chars()
                        .next()
                        .is_some_and(|first| first.is_ascii_uppercase())
                });
                if named && !line.trim_start().starts_with("//") {
                    found.push(format!(
                        "{}:{}: {}",
                        file.display(),
                        number + 1,
                        line.trim()
                    ));
                }
            }
        }
        assert!(
            found.is_empty(),
            "kind variants named outside crates/server/src/kinds/ (ask the kind table, or move the \
             code into the kind's plug-in):\n{}",
            found.join("\n")
        );
    }

    fn rust_files(
        dir: &std::path::Path,
        skip: &std::path::Path,
        out: &mut Vec<std::path::PathBuf>,
    ) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.starts_with(skip) {
                continue;
            }
            if path.is_dir() {
                rust_files(&path, skip, out);
            } else if path.extension().is_some_and(|ext| ext == "rs") {
                out.push(path);
            }
        }
    }
}
