//! A source kind is one dashboard module: `web/src/pages/connections/kinds/<kind>.tsx`, listed
//! in that folder's `index.ts`, holds everything the connections pages show and do for the kind
//! (its connect form, its card's extras, its words). These tests keep it that way: the rest of
//! the dashboard names no kind (it asks the registry, or the generated kind table), and every
//! kind the kind table marks connectable has its module, registered.

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
        let code = code_of(&text);
        for (number, line) in code.lines().enumerate() {
            for kind in ConnectionKind::all() {
                let word = kind.as_str();
                let literals = [
                    format!("'{word}'"),
                    format!("\"{word}\""),
                    format!("`{word}`"),
                ];
                if literals.iter().any(|literal| line.contains(literal)) {
                    let shown = file.strip_prefix(web_src()).unwrap_or(file);
                    found.push(format!(
                        "web/src/{}:{}: {word}: {}",
                        shown.display(),
                        number + 1,
                        line.trim()
                    ));
                }
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
    // And no module stands for a kind the table does not know or cannot connect.
    for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if let Some(word) = name.strip_suffix(".tsx") {
            match ConnectionKind::parse(word) {
                Some(kind) if kind.connectable() => {}
                Some(_) => missing.push(format!(
                    "kinds/{name}: the kind table does not mark {word} connectable"
                )),
                None => missing.push(format!("kinds/{name}: {word} is no kind of the table")),
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}
