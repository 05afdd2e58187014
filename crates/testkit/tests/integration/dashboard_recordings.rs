//! The Recordings page and the two replay connect forms in Chromium (`e2e/dashboard-recordings.mjs`):
//! PostHog's form refuses a private host and connects, its card's event-map editor shows a
//! refusal inside the map it names and then saves the maps typed (checked here through the
//! API), Clarity's connects, the Recordings tab lists the fake's recordings newest first with
//! play links, narrows them by signal and links to Clarity's dashboard; the Pages list shows
//! the pricing page's friction, both sources' counts added up, and its detail the recordings
//! that started on it, newest first, with the replay tool's link. The expected lists and counts
//! are computed here from the seed.

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
/// The landing page the recordings start on and the friction is counted on.
const PRICING_URL: &str = "https://shop.example/pricing";
const PRICING_PATH: &str = "/pricing";
/// The event maps the browser types into the PostHog card, `event:stage` each.
const EVENT_MAPS: [(&str, &str); 2] = [("signed_up", "signup"), ("order_paid", "payment")];
/// Clarity's friction on the pricing page: (metric, `subTotal`).
const CLARITY_FRICTION: [(&str, i64); 3] = [
    ("RageClickCount", 4),
    ("DeadClickCount", 1),
    ("ScriptErrorCount", 2),
];

/// A friction event PostHog recorded on the pricing page.
fn pricing_event(name: &str, at: payback_domain::Timestamp, session: Option<&str>) -> Event {
    Event {
        event: name.to_owned(),
        at,
        pathname: Some(PRICING_PATH.to_owned()),
        session_id: session.map(str::to_owned),
    }
}

/// How many of `events` are named `name`.
fn counted(events: &[Event], name: &str) -> i64 {
    events.iter().filter(|event| event.event == name).count() as i64
}

/// Clarity's `subTotal` of `metric`.
fn clarity_count(metric: &str) -> i64 {
    CLARITY_FRICTION
        .iter()
        .filter(|(name, _)| *name == metric)
        .map(|(_, total)| total)
        .sum()
}

async fn recordings_pages(backend: Backend) {
    let posthog = FakePostHog::spawn().await;
    posthog.add_key(POSTHOG_KEY);
    posthog.add_project(POSTHOG_PROJECT, "Shop");
    let start = SystemClock.now().start_of_day();
    let mut seeded = Vec::new();
    let mut friction_events = Vec::new();
    for n in 0..5_i64 {
        let started = start
            .minus_millis((1 + n) * DAY_MS)
            .plus_millis(n * HOUR_MS);
        let id = format!("rec-{n}");
        posthog.add_recording(Recording {
            id: id.clone(),
            start_time: started,
            recording_duration: 40 + n,
            start_url: PRICING_URL.to_owned(),
            console_error_count: 0,
        });
        let rage = n % 2 == 0;
        if rage {
            friction_events.push(pricing_event(
                "$rageclick",
                started.plus_millis(1000),
                Some(&id),
            ));
        }
        // A dead click in a recording without a rage click, and script errors without a
        // session: all count as the page's friction, and the rage-click filter keeps its list.
        if n == 1 {
            friction_events.push(pricing_event(
                "$dead_click",
                started.plus_millis(1500),
                Some(&id),
            ));
        }
        if n < 2 {
            friction_events.push(pricing_event("$exception", started.plus_millis(2000), None));
        }
        seeded.push((started, id, rage));
    }
    for event in &friction_events {
        posthog.add_event(event.clone());
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
    for (metric, sub_total) in CLARITY_FRICTION {
        clarity.add_insight(CLARITY_PROJECT, metric, PRICING_URL, sub_total);
    }
    // The page's friction: PostHog's events and Clarity's sub-totals, added up.
    let friction = [
        counted(&friction_events, "$rageclick") + clarity_count("RageClickCount"),
        counted(&friction_events, "$dead_click") + clarity_count("DeadClickCount"),
        counted(&friction_events, "$exception") + clarity_count("ScriptErrorCount"),
    ];
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
    // The page is tracked before any run, so the runs' counts land on a page the list shows.
    app.post(
        "/products/replay-shop/landing-pages",
        Some(&owner.token),
        json!({ "url": PRICING_URL }),
    )
    .await
    .expect(200);
    let typed_maps: Vec<String> = EVENT_MAPS
        .iter()
        .map(|(event, stage)| format!("{event}:{stage}"))
        .collect();
    let env = [
        ("PAYBACK_E2E_EMAIL", email.to_owned()),
        ("PAYBACK_E2E_SLUG", "replay-shop".to_owned()),
        ("PAYBACK_E2E_POSTHOG_KEY", POSTHOG_KEY.to_owned()),
        ("PAYBACK_E2E_POSTHOG_PROJECT", POSTHOG_PROJECT.to_owned()),
        ("PAYBACK_E2E_CLARITY_TOKEN", CLARITY_TOKEN.to_owned()),
        ("PAYBACK_E2E_CLARITY_PROJECT", CLARITY_PROJECT.to_owned()),
        ("PAYBACK_E2E_RECORDINGS", all.join(",")),
        ("PAYBACK_E2E_RAGE_RECORDINGS", rage.join(",")),
        ("PAYBACK_E2E_EVENT_MAPS", typed_maps.join(",")),
        ("PAYBACK_E2E_PAGE_PATH", PRICING_PATH.to_owned()),
        (
            "PAYBACK_E2E_FRICTION",
            friction.map(|n| n.to_string()).join("/"),
        ),
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
    // The maps the browser saved are the connection's maps, as typed.
    let listed = app.get("/connections", Some(&owner.token)).await;
    let posthog_row = listed
        .expect(200)
        .as_array()
        .and_then(|rows| {
            rows.iter()
                .find(|row| row["kind"] == ConnectionKind::ProductAnalyticsA.as_str())
        })
        .cloned()
        .expect("the PostHog connection");
    let expected_maps: Vec<_> = EVENT_MAPS
        .iter()
        .map(|(event, stage)| json!({ "event": event, "stage": stage }))
        .collect();
    assert_eq!(posthog_row["event_maps"], json!(expected_maps));
    // Clarity: the connect's request, then at most the runs; never past its day's ten.
    assert!(clarity.requests().len() <= 10, "{:?}", clarity.requests());
}

per_backend!(recordings_pages);
