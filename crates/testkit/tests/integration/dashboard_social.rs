//! The dashboard's social-network connections in headless Chromium (`e2e/dashboard-social.mjs`):
//! Meta through the Facebook Login grant against the Meta fake (the account picker, the cards,
//! the campaign filter), LinkedIn ads with a token against the LinkedIn fake (the account
//! choice), their spend in the ads report, and an approved Meta budget applied on the fake.
//! The fakes are seeded here, so every number the script checks is computed from the seeds.

use base64::Engine as _;
use payback_domain::Clock;
use payback_domain::connection::ConnectionKind;
use payback_server::secret::Secret;
use payback_testkit::browser::{run_browser_script_with_env, spawn_on_wall_clock};
use payback_testkit::fake_google::Day;
use payback_testkit::{Backend, FakeLinkedIn, FakeMeta, per_backend};
use serde_json::json;

/// The fake Meta's ad account the person connects (USD), and the two it shows but does not
/// offer: one in EUR, one disabled (`account_status` 2).
const META_ACCOUNT: i64 = 1001;
const META_EURO_ACCOUNT: i64 = 1002;
const META_DISABLED_ACCOUNT: i64 = 1003;
/// The campaign the filter keeps (its name starts with "Shop") and whose daily budget the
/// approved proposal moves from $50 to $75; the partner's campaign the filter drops.
const META_KEPT_CAMPAIGN: i64 = 2001;
const META_DROPPED_CAMPAIGN: i64 = 2002;
const META_KEPT_BUDGET: i64 = 5_000;
const META_DROPPED_BUDGET: i64 = 3_000;
const META_APPROVED_BUDGET: i64 = 7_500;
const META_PAGE: i64 = 5001;

/// The LinkedIn token the script pastes, and the account it chooses among the three it reaches.
const LINKEDIN_TOKEN: &str = "li-e2e-dashboard-token";
const LINKEDIN_ACCOUNT: i64 = 507;

/// A day `days_ago` days before today (UTC), as the fakes take it.
fn day(days_ago: i32) -> String {
    Day::today().plus(-days_ago).to_string()
}

/// Whole cents as the decimal string the networks report (`1234` -> `12.34`).
fn decimal(cents: i64) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

/// What the Meta seed holds, in cents and rows, for the script to check against.
struct MetaSeeded {
    total_cents: i64,
    kept_cents: i64,
    /// Ad days of the dropped campaign: one stored spend row each.
    dropped_rows: usize,
}

/// The fake Meta: three ad accounts (one choosable), two campaigns of the USD account with one
/// ad set and one ad each and spend on a few recent days, and a page with its Instagram account.
fn meta_seed(meta: &FakeMeta) -> MetaSeeded {
    use payback_testkit::fake_meta::{
        AdAccountSeed, AdSeed, AdSetSeed, CampaignSeed, IgAccountSeed, Metrics, PageSeed,
    };
    meta.add_ad_account(AdAccountSeed::new(META_ACCOUNT, "Meta Shop", "USD"));
    meta.add_ad_account(AdAccountSeed::new(META_EURO_ACCOUNT, "Euro Shop", "EUR"));
    meta.add_ad_account(
        AdAccountSeed::new(META_DISABLED_ACCOUNT, "Old Shop", "USD").account_status(2),
    );
    meta.add_campaign(
        META_ACCOUNT,
        CampaignSeed::new(META_KEPT_CAMPAIGN, "Shop - Prospecting").daily_budget(META_KEPT_BUDGET),
    );
    meta.add_campaign(
        META_ACCOUNT,
        CampaignSeed::new(META_DROPPED_CAMPAIGN, "Partner - Retargeting")
            .daily_budget(META_DROPPED_BUDGET),
    );
    meta.add_adset(AdSetSeed::new(3001, META_KEPT_CAMPAIGN, "Lookalikes"));
    meta.add_adset(AdSetSeed::new(3002, META_DROPPED_CAMPAIGN, "Visitors"));
    meta.add_ad(AdSeed::new(4001, 3001, "Carousel"));
    meta.add_ad(AdSeed::new(4002, 3002, "Reminder"));
    // (ad, days ago, cents, impressions, clicks): whole cents, so nothing is rounded.
    let kept = [(4001, 2, 1_234, 1_000, 25), (4001, 3, 2_000, 1_500, 30)];
    let dropped = [
        (4002, 2, 750, 400, 8),
        (4002, 3, 125, 90, 1),
        (4002, 4, 300, 200, 3),
    ];
    for (ad, days_ago, cents, impressions, clicks) in kept.iter().chain(&dropped) {
        meta.set_day(
            *ad,
            &day(*days_ago),
            Metrics::new(&decimal(*cents), *impressions, *clicks),
        );
    }
    meta.add_page(
        PageSeed::new(META_PAGE, "Shop page").instagram(IgAccountSeed::new(6001, "shop")),
    );
    let kept_cents: i64 = kept.iter().map(|row| row.2).sum();
    let dropped_cents: i64 = dropped.iter().map(|row| row.2).sum();
    MetaSeeded {
        total_cents: kept_cents + dropped_cents,
        kept_cents,
        dropped_rows: dropped.len(),
    }
}

/// The fake LinkedIn: the token, two USD accounts (so connecting without an id needs a choice)
/// and one in EUR; one campaign of the chosen account with one creative and spend on two days.
/// Answers its spend in cents.
fn linkedin_seed(linkedin: &FakeLinkedIn) -> i64 {
    use payback_testkit::fake_linkedin::{
        AccountSeed, CampaignSeed, CreativeSeed, Metrics, R_ADS, R_ADS_REPORTING,
    };
    linkedin.add_token(LINKEDIN_TOKEN, &[R_ADS, R_ADS_REPORTING]);
    linkedin.add_ad_account(AccountSeed::new(LINKEDIN_ACCOUNT, "LinkedIn Shop", "USD"));
    linkedin.add_ad_account(AccountSeed::new(508, "LinkedIn Agency", "USD"));
    linkedin.add_ad_account(AccountSeed::new(509, "LinkedIn Europe", "EUR"));
    linkedin.add_campaign(LINKEDIN_ACCOUNT, CampaignSeed::new(11, "Hiring - Brand"));
    linkedin.add_creative(11, CreativeSeed::new(71, Some("Hero")));
    let days = [(2, 1_500, 900, 12), (3, 450, 300, 4)];
    for (days_ago, cents, impressions, clicks) in days {
        linkedin.set_day(
            71,
            &day(days_ago),
            Metrics::new(&decimal(cents), impressions, clicks),
        );
    }
    days.iter().map(|row| row.1).sum()
}

async fn social_pages(backend: Backend) {
    let meta = FakeMeta::spawn().await;
    let linkedin = FakeLinkedIn::spawn().await;
    let seeded = meta_seed(&meta);
    let linkedin_cents = linkedin_seed(&linkedin);
    let (app_id, app_secret) = (meta.app_id().to_owned(), meta.app_secret().to_owned());
    let (dialog, token, graph) = (meta.dialog_url(), meta.token_url(), meta.base_url());
    let linkedin_base = linkedin.base_url();
    let app = spawn_on_wall_clock(
        backend,
        move |config| {
            let key = base64::engine::general_purpose::STANDARD.encode([9_u8; 32]);
            config.secret_key = Some(Secret::new(key));
            config.socialco_client_id = Some(app_id);
            config.socialco_client_secret = Some(Secret::new(app_secret));
            config.socialco_auth_url = Some(dialog);
            config.socialco_token_url = Some(token);
            config
                .api_urls
                .insert(ConnectionKind::SocialAdsA, graph.clone());
            config.api_urls.insert(ConnectionKind::SocialA, graph);
            config
                .api_urls
                .insert(ConnectionKind::SocialAdsB, linkedin_base);
        },
        |_| {},
    )
    .await;
    meta.register_redirect_uri(&app.url("/connect/socialco/callback"));

    let email = "social-ads@example.com";
    let owner = app.signup_verified(email).await;
    for (name, slug) in [("Social Shop", "social-shop"), ("Night Shop", "night-shop")] {
        app.post(
            "/products",
            Some(&owner.token),
            json!({ "name": name, "slug": slug, "currency": "USD" }),
        )
        .await
        .expect(200);
    }
    let key = app.api_key(&owner).await;
    let proposal = app
        .post(
            "/products/social-shop/proposals",
            Some(&key),
            json!({
                "network": "meta",
                "campaign_id": META_KEPT_CAMPAIGN.to_string(),
                "from_cents": META_KEPT_BUDGET,
                "to_cents": META_APPROVED_BUDGET,
                "rationale": "Prospecting pays back in nine days and is capped by its budget by noon.",
            }),
        )
        .await
        .expect(202)["proposal_id"]
        .as_str()
        .expect("proposal_id")
        .to_owned();
    assert!(
        meta.budget_changes().is_empty(),
        "nothing reaches the network before a person approves"
    );

    let env = [
        ("PAYBACK_E2E_EMAIL", email.to_owned()),
        ("PAYBACK_E2E_SLUG", "social-shop".to_owned()),
        ("PAYBACK_E2E_ADULT_SLUG", "night-shop".to_owned()),
        ("PAYBACK_E2E_PROPOSAL", proposal),
        ("PAYBACK_E2E_META_CENTS", seeded.total_cents.to_string()),
        ("PAYBACK_E2E_META_KEPT_CENTS", seeded.kept_cents.to_string()),
        (
            "PAYBACK_E2E_META_DROPPED_ROWS",
            seeded.dropped_rows.to_string(),
        ),
        ("PAYBACK_E2E_LINKEDIN_TOKEN", LINKEDIN_TOKEN.to_owned()),
        ("PAYBACK_E2E_LINKEDIN_CENTS", linkedin_cents.to_string()),
    ];
    // The job loop's sync pass, while the script runs (test apps run no jobs of their own).
    let sync_job = async {
        loop {
            payback_server::services::sync::run_due(&app.state, app.clock.now())
                .await
                .expect("a sync pass");
            tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        }
    };
    tokio::select! {
        () = run_browser_script_with_env(&app, "dashboard-social", &env) => {}
        () = sync_job => unreachable!("the sync loop never ends"),
    }

    assert_eq!(
        meta.campaign_daily_budget(META_KEPT_CAMPAIGN),
        Some(META_APPROVED_BUDGET),
        "the approved daily budget, in minor units, on the campaign"
    );
    assert_eq!(
        meta.campaign_daily_budget(META_DROPPED_CAMPAIGN),
        Some(META_DROPPED_BUDGET),
        "the other campaign's budget is untouched"
    );
    assert_eq!(
        meta.budget_changes().len(),
        1,
        "one budget write: {:?}",
        meta.budget_changes()
    );
    let writes: Vec<_> = linkedin
        .requests()
        .into_iter()
        .filter(|request| request.method != "GET")
        .collect();
    assert!(writes.is_empty(), "LinkedIn is only ever read: {writes:?}");
}

per_backend!(social_pages);
