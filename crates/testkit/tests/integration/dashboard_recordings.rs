//! The Recordings page and the two replay connect forms in Chromium (`e2e/dashboard-recordings.mjs`):
//! PostHog's form refuses a private host and connects, Clarity's connects, the Recordings tab
//! lists the fake's recordings newest first with play links, narrows them by signal and links
//! to Clarity's dashboard. The expected lists are computed here from the seed.

use base64::Engine as _;
use payback_domain::connection::ConnectionKind;
use payback_domain::{Clock as _, DAY_MS, HOUR_MS, SystemClock};
use payback_server::secret::Secret;
use payback_testkit::browser::{run_browser_script_with_env, spawn_on_wall_clock};
use payback_testkit::fakes::clarity::FakeClarity;
use payback_testkit::fakes::posthog::{Event, FakePostHog, Recording};
use payback_testkit::{Backend, per_backend};
use serde_json::json;

const POSTHOG_KEY: &str = "phx_e2e_recordings_key_0123456789abcdef";
const POSTHOG_PROJECT: &str = "777";
const CLARITY_TOKEN: &str = "clarity-e2e-token";
const CLARITY_PROJECT: &str = "e2eproj1";

async fn recordings_pages(backend: Backend) {
    let posthog = FakePostHog::spawn().await;
    posthog.add_key(POSTHOG_KEY);
    posthog.add_project(POSTHOG_PROJECT, "Shop");
    let start = SystemClock.now().start_of_day();
    let mut seeded = Vec::new();
    for n in 0..5_i64 {
        let started = start
            .minus_millis((1 + n) * DAY_MS)
            .plus_millis(n * HOUR_MS);
        let id = format!("rec-{n}");
        posthog.add_recording(Recording {
            id: id.clone(),
            start_time: started,
            recording_duration: 40 + n,
            start_url: "https://shop.example/pricing".to_owned(),
            console_error_count: 0,
        });
        let rage = n % 2 == 0;
        if rage {
            posthog.add_event(Event {
                event: "$rageclick".to_owned(),
                at: started.plus_millis(1000),
                pathname: Some("/pricing".to_owned()),
                session_id: Some(id.clone()),
            });
        }
        seeded.push((started, id, rage));
    }
    seeded.sort_by_key(|row| std::cmp::Reverse(row.0));
    let all: Vec<String> = seeded.iter().map(|row| row.1.clone()).collect();
    let rage: Vec<String> = seeded
        .iter()
        .filter(|row| row.2)
        .map(|row| row.1.clone())
        .collect();
    let clarity = FakeClarity::spawn().await;
    clarity.add_token(CLARITY_TOKEN, CLARITY_PROJECT);
    let (posthog_url, clarity_url) = (posthog.base_url(), clarity.base_url());
    let app = spawn_on_wall_clock(
        backend,
        move |config| {
            config.secret_key = Some(Secret::new(
                base64::engine::general_purpose::STANDARD.encode([7_u8; 32]),
            ));
            config
                .api_urls
                .insert(ConnectionKind::ProductAnalyticsA, posthog_url);
            config.api_urls.insert(ConnectionKind::ReplayA, clarity_url);
        },
        |_| {},
    )
    .await;
    let email = "recordings@example.com";
    let owner = app.signup_verified(email).await;
    app.post(
        "/products",
        Some(&owner.token),
        json!({ "name": "Replay Shop", "slug": "replay-shop", "currency": "USD" }),
    )
    .await
    .expect(200);
    let env = [
        ("PAYBACK_E2E_EMAIL", email.to_owned()),
        ("PAYBACK_E2E_SLUG", "replay-shop".to_owned()),
        ("PAYBACK_E2E_POSTHOG_KEY", POSTHOG_KEY.to_owned()),
        ("PAYBACK_E2E_POSTHOG_PROJECT", POSTHOG_PROJECT.to_owned()),
        ("PAYBACK_E2E_CLARITY_TOKEN", CLARITY_TOKEN.to_owned()),
        ("PAYBACK_E2E_CLARITY_PROJECT", CLARITY_PROJECT.to_owned()),
        ("PAYBACK_E2E_RECORDINGS", all.join(",")),
        ("PAYBACK_E2E_RAGE_RECORDINGS", rage.join(",")),
    ];
    let sync_job = async {
        loop {
            payback_server::services::sync::run_due(&app.state, app.clock.now())
                .await
                .expect("a sync pass");
            tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        }
    };
    tokio::select! {
        () = run_browser_script_with_env(&app, "dashboard-recordings", &env) => {}
        () = sync_job => unreachable!("the sync loop never ends"),
    }
    // Clarity: the connect's request, then at most the runs; never past its day's ten.
    assert!(clarity.requests().len() <= 10, "{:?}", clarity.requests());
}

per_backend!(recordings_pages);
