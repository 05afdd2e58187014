//! Runs the dashboard's browser tests (`e2e/dashboard-*.mjs`, on Debian's Chromium through
//! playwright-core) against a [`TestApp`]. `scripts/e2e-setup` installs the browser and harness.

use std::path::PathBuf;
use std::process::Command;

use payback_domain::{Clock, HOUR_MS, SystemClock};
use payback_server::{AppState, Config};

use crate::{Backend, TestApp};

/// How far the app's clock may trail the wall clock when a script starts: a test may take a
/// while to seed, but a clock that started days back would make every session it signed look
/// idle to the browser's requests, and every time the browser stamps look days ahead.
const WALL_CLOCK_SLACK_MS: i64 = HOUR_MS;

/// Spawns a [`TestApp`] whose clock starts on the wall clock, as a browser test needs: the
/// browser stamps times with its own clock, so the app's must agree with it from the first
/// session the test signs, whatever day the suite runs on.
pub async fn spawn_on_wall_clock(
    backend: Backend,
    configure: impl FnOnce(&mut Config),
    adjust: impl FnOnce(&mut AppState),
) -> TestApp {
    TestApp::spawn_at(backend, SystemClock.now(), configure, adjust).await
}

/// The repository root, where `e2e/` and `web/` live.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Where a script's screenshots go: `target/e2e-artifacts/<script>-<backend>/`.
pub fn artifacts_dir(script: &str, app: &TestApp) -> PathBuf {
    repo_root()
        .join("target/e2e-artifacts")
        .join(format!("{script}-{:?}", app.backend).to_lowercase())
}

/// Runs `e2e/<script>.mjs` against `app` and panics with its log unless every check held.
/// The app must have been spawned on the wall clock ([`spawn_on_wall_clock`]).
pub async fn run_browser_script(app: &TestApp, script: &str) {
    run_browser_script_with_env(app, script, &[]).await;
}

/// [`run_browser_script`] with extra environment variables for the script: what the test
/// prepared outside the app (a customer database's credentials) and the figures it expects.
pub async fn run_browser_script_with_env(app: &TestApp, script: &str, env: &[(&str, String)]) {
    let behind = SystemClock.now().millis() - app.clock.now().millis();
    assert!(
        behind <= WALL_CLOCK_SLACK_MS,
        "{script}: the app's clock is {behind} ms behind the wall clock; spawn browser tests' \
         apps with browser::spawn_on_wall_clock"
    );
    let artifacts = artifacts_dir(script, app);
    // Screenshots of an earlier run (a failure's, say) must not pass for this run's.
    let _ = std::fs::remove_dir_all(&artifacts);
    let mut command = Command::new("node");
    command
        .arg(format!("e2e/{script}.mjs"))
        .current_dir(repo_root())
        .env("PAYBACK_URL", &app.base_url)
        .env("PAYBACK_MAIL_DIR", app.mail_dir())
        .env("PAYBACK_ARTIFACTS", &artifacts);
    for (name, value) in env {
        command.env(name, value);
    }
    let run = tokio::task::spawn_blocking(move || command.output())
        .await
        .expect("the browser script's thread")
        .expect("node runs (scripts/e2e-setup installs the browser harness)");
    let log = String::from_utf8_lossy(&run.stderr);
    assert!(
        run.status.success(),
        "{script} failed (screenshots in {}):\n{log}",
        artifacts.display()
    );
}
