//! Builds the dashboard (`npm run build` in `web/`) so that `cargo run` on a fresh machine serves
//! it: installs `web/node_modules` from the lock file when missing or stale, and rebuilds
//! `web/dist` whenever the app's sources change. `PAYBACK_WEB_PREBUILT=1` skips both steps for
//! packagers who build `web/dist` themselves.

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
    if std::env::var_os("PAYBACK_WEB_PREBUILT").is_some() {
        assert!(
            web.join("dist/index.html").exists(),
            "PAYBACK_WEB_PREBUILT is set but web/dist/index.html is missing"
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
