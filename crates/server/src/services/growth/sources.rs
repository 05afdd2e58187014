//! Source actions: connect payments (`tracking.payments` failing or warning while no payments
//! connection exists), connect the ad networks (`advertising.ad_spend` warning: spend recorded
//! by hand, no network connected) and complete the search-ads final URL suffix
//! (`advertising.url_suffix` failing: a live read found Payback's parameters missing). No
//! honest revenue estimate: each makes numbers arrive or join, none adds revenue by itself.

use payback_connectors::search_ads::suffix;
use payback_domain::source_kind::Family;

use super::situation::Situation;
use super::{ActionKind, ActionLink, Change, Draft, Subject};

const PAYMENTS: &str = "tracking.payments";
const AD_SPEND: &str = "advertising.ad_spend";
const URL_SUFFIX: &str = "advertising.url_suffix";

pub(super) fn drafts(situation: &Situation<'_>) -> Vec<Draft> {
    let mut drafts = Vec::new();
    if let Some(check) = situation
        .failing(PAYMENTS)
        .filter(|_| !situation.has_family(Family::Payments))
    {
        drafts.push(Draft {
            kind: ActionKind::ConnectPayments,
            subject_id: "payments".to_owned(),
            severity: check.status,
            headline: "Connect payments so charges, refunds and disputes arrive by themselves"
                .to_owned(),
            why: check.evidence.clone(),
            impact: None,
            check_id: Some(PAYMENTS),
            links: vec![ActionLink::post(
                "Connect payments",
                situation.path("/connections/payments"),
            )],
            subject: Subject::None,
        });
    }
    let networks_connected = situation
        .connected
        .iter()
        .any(|kind| kind.spend().is_some());
    if let Some(check) = situation.failing(AD_SPEND).filter(|_| !networks_connected) {
        drafts.push(Draft {
            kind: ActionKind::ConnectAdNetworks,
            subject_id: "spend".to_owned(),
            severity: check.status,
            headline: "Connect the ad networks so spend arrives by itself, per campaign".to_owned(),
            why: check.evidence.clone(),
            impact: None,
            check_id: Some(AD_SPEND),
            links: vec![
                ActionLink::post("Connect Google Ads", "/connect/searchco/start".to_owned()),
                ActionLink::post("Connect Meta ads", "/connect/socialco/start".to_owned()),
                ActionLink::post(
                    "Connect LinkedIn ads",
                    situation.path("/connections/social-ads-b"),
                ),
            ],
            subject: Subject::None,
        });
    }
    if let Some(check) = situation.failing(URL_SUFFIX) {
        let path = situation.path("/connections/search-ads/url-suffix");
        drafts.push(Draft {
            kind: ActionKind::AddUrlSuffix,
            subject_id: "search_ads".to_owned(),
            severity: check.status,
            headline:
                "Complete the Google Ads final URL suffix so every ad click carries its campaign"
                    .to_owned(),
            why: check.evidence.clone(),
            impact: None,
            check_id: Some(URL_SUFFIX),
            links: vec![
                ActionLink::get("Read the suffix", path.clone()),
                // Only a person's dashboard session writes it (`url_suffix::write`): the link
                // names the call the dashboard's button makes, for the person who presses it.
                ActionLink::post(
                    "Append the missing parameters (a person, in the dashboard)",
                    path,
                ),
            ],
            subject: Subject::None,
        });
    }
    drafts
}

pub(super) fn change(situation: &Situation<'_>, kind: ActionKind) -> Change {
    match kind {
        ActionKind::ConnectAdNetworks => ad_networks(situation),
        ActionKind::AddUrlSuffix => url_suffix(situation),
        _ => payments(situation),
    }
}

fn payments(situation: &Situation<'_>) -> Change {
    Change {
        summary: format!(
            "Connect {}'s Stripe account to Payback with a restricted read-only key.",
            situation.quoted_name()
        ),
        steps: vec![
            "In the Stripe dashboard, create a restricted key with read access to charges, customers, refunds, disputes and invoices (nothing writable).".to_owned(),
            format!(
                "Send it once from a terminal, never committing it: POST {} with {{\"api_key\": \"rk_live_...\"}} and an account API key (or use the dashboard's Connections page).",
                situation.path("/connections/payments")
            ),
            "Make sure checkout passes the customer's email (or your user id in metadata) so charges join the visitor who paid.".to_owned(),
        ],
        code: Some((
            "bash",
            format!(
                "curl -X POST {}{} \\\n  -H 'Authorization: Bearer <your svc_live_ API key>' \\\n  -H 'Content-Type: application/json' \\\n  -d '{{\"api_key\":\"rk_live_...\"}}'",
                situation.state.config.public_url(),
                situation.path("/connections/payments")
            ),
        )),
        verify: vec![
            (
                "GET /connections".to_owned(),
                "a payments connection for this product with a last_sync_at".to_owned(),
            ),
            (
                format!("GET {}", situation.path("/health-report")),
                "the check tracking.payments has status pass".to_owned(),
            ),
        ],
    }
}

fn ad_networks(situation: &Situation<'_>) -> Change {
    Change {
        summary: format!(
            "Connect the ad accounts {} spends on, so spend arrives per campaign instead of by hand.",
            situation.quoted_name()
        ),
        steps: vec![
            "Google Ads: POST /connect/searchco/start with the product's slug, follow the consent link, then choose the ad account.".to_owned(),
            "Meta: POST /connect/socialco/start the same way, then choose the ad account.".to_owned(),
            format!(
                "LinkedIn: POST {} with an access token and the ad account.",
                situation.path("/connections/social-ads-b")
            ),
            "Give Meta and LinkedIn ad URLs utm_source, utm_medium=paid_social and utm_campaign, so their clicks land on their channel.".to_owned(),
        ],
        code: Some((
            "text",
            format!(
                "https://{}/?utm_source=meta&utm_medium=paid_social&utm_campaign={{{{campaign.name}}}}",
                situation
                    .product
                    .domain
                    .as_deref()
                    .unwrap_or("example.com")
            ),
        )),
        verify: vec![
            (
                "GET /connections".to_owned(),
                "each network's connection is active with a last_sync_at".to_owned(),
            ),
            (
                format!(
                    "GET {}",
                    situation.path(&format!("/spend{}", situation.days_query()))
                ),
                "rows per campaign from the connected networks".to_owned(),
            ),
        ],
    }
}

fn url_suffix(situation: &Situation<'_>) -> Change {
    let path = situation.path("/connections/search-ads/url-suffix");
    Change {
        summary: format!(
            "Complete the Google Ads account-level final URL suffix of {} with Payback's tracking parameters.",
            situation.quoted_name()
        ),
        steps: vec![
            format!("Read what is missing: GET {path} (missing, proposed_suffix)."),
            // An agent never writes the suffix (it changes every ad's landing URL): it asks the
            // person, whose dashboard session is the only one the write accepts (issue 35).
            format!(
                "Do not call POST {path} yourself: it changes every ad's landing URL, so only a person signed in to the Payback dashboard may make it, and an API key, MCP or chat gets 403. Ask the founder to press the button in the dashboard instead: Connections > Google Ads > URL suffix > Write suffix (Payback appends the missing parameters and keeps the account's own). Or the founder pastes proposed_suffix in Google Ads under Admin > Account settings > Tracking > Final URL suffix."
            ),
            "Keep auto-tagging on, so gclid stays on every click.".to_owned(),
        ],
        code: Some(("text", suffix::recommended())),
        verify: vec![
            (
                format!("GET {path}"),
                "complete is true and missing is empty".to_owned(),
            ),
            (
                format!("GET {}", situation.path("/health-report")),
                "the check advertising.url_suffix has status pass".to_owned(),
            ),
        ],
    }
}
