//! Builds the dashboard (`npm run build` in `web/`) so that `cargo run` on a fresh machine serves
//! it: installs `web/node_modules` from the lock file when missing or stale, and rebuilds
//! `web/dist` whenever the app's sources change. `PAYBACK_WEB_PREBUILT=1` (or `true`) skips both
//! steps for packagers who build `web/dist` themselves; `0`, `false` or empty (as when a script
//! clears it) build as if it were unset, and any other value fails the build rather than guess.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let web = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../web");
    for input in [
        "src",
        "index.html",
        "package.json",
        "package-lock.json",
        "vite.config.ts",
        "tsconfig.json",
    ] {
        println!("cargo:rerun-if-changed={}", web.join(input).display());
    }
    println!("cargo:rerun-if-env-changed=PAYBACK_WEB_PREBUILT");
    if prebuilt() {
        assert!(
            web.join("dist/index.html").exists(),
            "PAYBACK_WEB_PREBUILT skips the dashboard build, but web/dist/index.html is missing"
        );
        return;
    }
    let modules = web.join("node_modules");
    if is_older(&modules, &web.join("package-lock.json")) {
        npm(&web, &["ci", "--no-audit", "--no-fund"]);
        touch(&modules);
    }
    npm(&web, &["run", "build"]);
}

/// Whether `PAYBACK_WEB_PREBUILT` asks to skip the npm steps. Only its being set was read once,
/// so `PAYBACK_WEB_PREBUILT=0` skipped the build it meant to keep; a word neither yes nor no
/// stops the build, since either guess would ship or skip a dashboard nobody asked for.
fn prebuilt() -> bool {
    const NAME: &str = "PAYBACK_WEB_PREBUILT";
    let Some(value) = std::env::var_os(NAME) else {
        return false;
    };
    let word = value.to_string_lossy().trim().to_ascii_lowercase();
    match word.as_str() {
        "1" | "true" => true,
        "" | "0" | "false" => false,
        _ => panic!(
            "{NAME}={value:?} is not understood: set it to 1 or true to skip the dashboard build \
             (web/dist built beforehand), or to 0, false or nothing to build it"
        ),
    }
}

/// True when `path` is missing or was modified before `than`.
fn is_older(path: &Path, than: &Path) -> bool {
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    match (modified(path), modified(than)) {
        (Some(have), Some(want)) => have < want,
        (None, _) => true,
        (Some(_), None) => false,
    }
}

fn touch(path: &Path) {
    let now = std::time::SystemTime::now();
    if let Ok(dir) = std::fs::File::open(path) {
        let _ = dir.set_modified(now);
    }
}

fn npm(web: &Path, args: &[&str]) {
    let status = Command::new("npm")
        .args(args)
        .current_dir(web)
        .status()
        .unwrap_or_else(|err| {
            panic!("building the dashboard needs Node.js and npm on PATH ({err}); see README")
        });
    assert!(
        status.success(),
        "`npm {}` in web/ failed ({status})",
        args.join(" ")
    );
}
