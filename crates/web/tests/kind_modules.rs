//! A source kind is one dashboard module: `web/src/pages/connections/kinds/<kind>.tsx`, listed
//! in that folder's `index.ts`, holds everything the connections pages show and do for the kind
//! (its connect form, its card's extras, its words), with the parts only it uses in an optional
//! `kinds/<kind>/` folder. These tests keep it that way: the rest of the dashboard names no kind,
//! by its wire word (`sql_a`) or its path word (`sql-a`) (it asks the registry, or the generated
//! kind table), and every kind the kind table marks connectable has its module, registered.

use std::path::{Path, PathBuf};

use payback_domain::connection::ConnectionKind;

fn web_src() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../web/src")
}

/// Where kind words belong: the kinds' modules and the generated kind table.
fn kind_folders() -> [PathBuf; 2] {
    let src = web_src();
    [src.join("pages/connections/kinds"), src.join("generated")]
}

/// The TypeScript files under `dir`, recursively, skipping `skip`.
fn sources(dir: &Path, skip: &[PathBuf], out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if skip.iter().any(|skipped| path.starts_with(skipped)) {
            continue;
        }
        if path.is_dir() {
            sources(&path, skip, out);
        } else if path
            .extension()
            .is_some_and(|ext| ext == "ts" || ext == "tsx")
        {
            out.push(path);
        }
    }
}

/// The text without its comments (`// ...` to the end of the line, `/* ... */`), which may name
/// kinds in backquotes to explain themselves. Approximate on purpose: a `//` inside a string
/// (a URL) only hides the rest of that line.
fn code_of(text: &str) -> String {
    let mut code = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("/*") {
        code.push_str(&rest[..start]);
        rest = match rest[start..].find("*/") {
            Some(end) => &rest[start + end + 2..],
            None => "",
        };
    }
    code.push_str(rest);
    code.lines()
        .map(|line| line.find("//").map_or(line, |at| &line[..at]))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Whether `c` may continue a kind word (`social-a` is not named by `social-ads-a`).
fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

/// Whether `line` names `word` as code names a kind: the whole of a string (`'sql-a'`,
/// `"sql_a"`, `` `docdb` ``), the start of a path in one (`` `sql-a/event-maps` ``), or the
/// segment after `connections/` (`` `/products/${slug}/connections/sql-a/event-maps` ``), where
/// all of the API's per-kind endpoints put it.
///
/// A bare `/payments` segment elsewhere does not count: `payments` is both a kind and an
/// ordinary word, and a route or report path of that name (there is none today, but
/// `#/payments` would be a fair one) is no kind. Nor does prose inside a string ("recorded as
/// payments"): only a string that is the word, or starts with it and a `/`, is one.
fn names_word(line: &str, word: &str) -> bool {
    line.match_indices(word).any(|(at, _)| {
        let before = &line[..at];
        let after = line[at + word.len()..].chars().next();
        let quote = before
            .chars()
            .next_back()
            .filter(|c| matches!(c, '\'' | '"' | '`'));
        let in_string = quote.is_some_and(|quote| after == Some(quote) || after == Some('/'));
        let in_connections_path =
            before.ends_with("connections/") && !after.is_some_and(is_word_char);
        in_string || in_connections_path
    })
}

/// The kinds `line` names, each by the first of its words found (wire word, then path word).
fn kind_words_in(line: &str) -> Vec<&'static str> {
    ConnectionKind::all()
        .filter_map(|kind| {
            [kind.as_str(), kind.path_word()]
                .into_iter()
                .find(|word| names_word(line, word))
        })
        .collect()
}

/// `file` as the messages name it.
fn shown(file: &Path) -> String {
    let src = web_src();
    format!(
        "web/src/{}",
        file.strip_prefix(&src).unwrap_or(file).display()
    )
}

#[test]
fn web_code_outside_the_kinds_modules_names_no_kind() {
    let mut files = Vec::new();
    sources(&web_src(), &kind_folders(), &mut files);
    assert!(
        files.len() > 20,
        "found only {} files under web/src",
        files.len()
    );
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        for (number, line) in code_of(&text).lines().enumerate() {
            for word in kind_words_in(line) {
                found.push(format!(
                    "{}:{}: {word}: {}",
                    shown(file),
                    number + 1,
                    line.trim()
                ));
            }
        }
    }
    assert!(
        found.is_empty(),
        "kind words outside web/src/pages/connections/kinds/ and web/src/generated/ (move them \
         into the kind's module, or ask the registry or the generated kind table):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_scan_sees_a_kind_word_in_code_and_not_in_comments() {
    let code = code_of("// `sql_a` explained\nconst a = 'sql_a'; /* 'docdb' */ const b = 1;");
    assert!(code.contains("'sql_a'"));
    assert!(!code.contains("`sql_a`"));
    assert!(!code.contains("'docdb'"));
    assert_eq!(kind_words_in(&code), ["sql_a"]);
}

#[test]
fn the_scan_sees_path_words_in_strings_and_endpoint_paths() {
    let named = [
        ("const a = 'sql-a';", "sql-a"),
        ("kind=\"search-ads\"", "search-ads"),
        ("const p = `social-ads-b/${rest}`;", "social-ads-b"),
        (
            "api.post(`/products/${slug}/connections/search-ads/url-suffix`)",
            "search-ads",
        ),
        (
            "api.post(`/products/${slug}/connections/payments`, body)",
            "payments",
        ),
        ("fetch('/connections/sql_b?x=1')", "sql_b"),
    ];
    for (line, word) in named {
        assert_eq!(kind_words_in(line), [word], "{line}");
    }
    let not_named = [
        // Ordinary words and routes that merely share a kind's spelling.
        "return 'recorded as payments';",
        "navigate(`#/payments`);",
        "const path = '/reports/payments/monthly';",
        // Computed from the kind table: no word in the code.
        "`/products/${slug}/connections/${kindPath(kind)}/event-maps`",
    ];
    for line in not_named {
        assert!(kind_words_in(line).is_empty(), "{line}");
    }
    // One kind's path word inside another's is that other kind only.
    assert_eq!(
        kind_words_in("`/connections/social-ads-a/campaign-filter`"),
        ["social-ads-a"]
    );
}

#[test]
fn every_connectable_kind_has_its_registered_dashboard_module() {
    let folder = web_src().join("pages/connections/kinds");
    let index = std::fs::read_to_string(folder.join("index.ts")).unwrap_or_default();
    assert!(
        !index.is_empty(),
        "{} is missing",
        folder.join("index.ts").display()
    );
    let mut missing = Vec::new();
    for kind in ConnectionKind::all().filter(|kind| kind.connectable()) {
        let word = kind.as_str();
        if !folder.join(format!("{word}.tsx")).is_file() {
            missing.push(format!("kinds/{word}.tsx is missing"));
        } else if !index.contains(&format!("from './{word}'")) {
            missing.push(format!("kinds/index.ts does not register ./{word}"));
        }
    }
    // And no module, nor folder of a module's parts, stands for a kind the table does not know
    // or cannot connect, and a folder of parts has its module beside it.
    for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let word = if entry.path().is_dir() {
            if !folder.join(format!("{name}.tsx")).is_file() {
                missing.push(format!(
                    "kinds/{name}/ holds parts of no module kinds/{name}.tsx"
                ));
            }
            name.as_str()
        } else if let Some(word) = name.strip_suffix(".tsx") {
            word
        } else {
            continue;
        };
        match ConnectionKind::parse(word) {
            Some(kind) if kind.connectable() => {}
            Some(_) => missing.push(format!(
                "kinds/{name}: the kind table does not mark {word} connectable"
            )),
            None => missing.push(format!("kinds/{name}: {word} is no kind of the table")),
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// A `kinds/<kind>/` folder holds that kind's parts only: they name no other kind.
#[test]
fn a_kinds_parts_name_no_other_kind() {
    let folder = web_src().join("pages/connections/kinds");
    let mut found = Vec::new();
    for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
        let owner = entry.file_name().to_string_lossy().into_owned();
        let mut files = Vec::new();
        if entry.path().is_dir() {
            sources(&entry.path(), &[], &mut files);
        }
        for file in &files {
            let text = std::fs::read_to_string(file).unwrap_or_default();
            for (number, line) in code_of(&text).lines().enumerate() {
                let others = kind_words_in(line).into_iter().filter(|word| {
                    ConnectionKind::from_path(word).map(ConnectionKind::as_str)
                        != Some(owner.as_str())
                });
                for word in others {
                    found.push(format!(
                        "{}:{}: {word}: {}",
                        shown(file),
                        number + 1,
                        line.trim()
                    ));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "a kind's parts name another kind (shared parts belong beside the kinds' modules, in \
         web/src/pages/connections/):\n{}",
        found.join("\n")
    );
}
