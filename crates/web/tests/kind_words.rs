//! The dashboard's words for source kinds are generated from the kind table
//! (`crates/domain/src/source_kind.rs`) into `web/src/generated/kinds.ts`, so a kind added to the
//! table is named, routed and scheduled in the dashboard at once. This test regenerates the file
//! and fails when the committed one differs; `PAYBACK_WRITE_GENERATED=1 cargo test -p
//! payback-web` rewrites it.

use std::fmt::Write as _;
use std::path::PathBuf;

use payback_domain::connection::ConnectionKind;
use payback_domain::source_kind::{Cadence, Family};

fn generated_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../web/src/generated/kinds.ts")
}

/// A TypeScript string literal (the table's words are plain text; quotes and backslashes
/// escaped all the same).
fn quoted(text: &str) -> String {
    let mut out = String::from("'");
    for c in text.chars() {
        match c {
            '\'' => out.push_str("\\'"),
            '\\' => out.push_str("\\\\"),
            _ => out.push(c),
        }
    }
    out.push('\'');
    out
}

fn cadence_word(cadence: Cadence) -> &'static str {
    match cadence {
        Cadence::Hourly => "hourly",
        Cadence::Daily => "daily",
        Cadence::Weekly => "weekly",
    }
}

/// The family's word in the dashboard: how the kind is connected.
fn family_word(family: Family) -> &'static str {
    match family {
        Family::SearchGrant => "search_grant",
        Family::SocialGrant => "social_grant",
        Family::Key => "key",
        Family::Database => "database",
        Family::Payments => "payments",
    }
}

/// The file's text, from the table.
fn typescript() -> String {
    let mut out = String::new();
    out.push_str(
        "// Generated from the kind table (crates/domain/src/source_kind.rs) by\n\
         // crates/web/tests/kind_words.rs: do not edit. `cargo test -p payback-web` fails when it is\n\
         // stale; `PAYBACK_WRITE_GENERATED=1 cargo test -p payback-web` rewrites it.\n\n",
    );
    out.push_str("/** One source kind as the dashboard shows it. */\n");
    out.push_str("export interface KindWords {\n");
    out.push_str("  /** What people call it. */\n  readonly label: string;\n");
    out.push_str(
        "  /** The word its dedicated paths take (`sql-a`). */\n  readonly path: string;\n",
    );
    out.push_str("  /** How it is connected (the kind table's family). */\n");
    out.push_str(
        "  readonly family: 'search_grant' | 'social_grant' | 'key' | 'database' | 'payments';\n",
    );
    out.push_str(
        "  /** Whether the dashboard can connect it today (its module is in `pages/connections/kinds/`). */\n",
    );
    out.push_str("  readonly connectable: boolean;\n");
    out.push_str("  /** How often it is read on its own schedule. */\n");
    out.push_str("  readonly cadence: 'hourly' | 'daily' | 'weekly';\n");
    out.push_str("  /** Days every run re-reads once its history is read. */\n");
    out.push_str("  readonly recentDays: number;\n");
    out.push_str("  /** Whether a person may start a run now. */\n  readonly syncNow: boolean;\n");
    out.push_str("}\n\n");
    out.push_str("/** Every kind of the spec's vocabulary, by its wire word. */\n");
    out.push_str("export const KINDS: Readonly<Record<string, KindWords>> = {\n");
    for kind in ConnectionKind::all() {
        let spec = kind.spec();
        let _ = writeln!(
            out,
            "  {}: {{ label: {}, path: {}, family: '{}', connectable: {}, cadence: '{}', recentDays: {}, syncNow: {} }},",
            spec.wire,
            quoted(spec.label),
            quoted(spec.path),
            family_word(spec.family),
            spec.connectable,
            cadence_word(spec.cadence),
            spec.recent_days,
            spec.sync_now,
        );
    }
    out.push_str("};\n");
    out
}

#[test]
fn the_dashboards_kind_words_are_the_kind_tables() {
    let path = generated_path();
    let wanted = typescript();
    if std::env::var_os("PAYBACK_WRITE_GENERATED").is_some() {
        std::fs::write(&path, &wanted).expect("writing the generated file");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == wanted,
        "{} is stale: run `PAYBACK_WRITE_GENERATED=1 cargo test -p payback-web`",
        path.display()
    );
    // Every kind of the table is in it, by wire word.
    for kind in ConnectionKind::all() {
        assert!(committed.contains(&format!("  {}: {{ label:", kind.as_str())));
    }
}
