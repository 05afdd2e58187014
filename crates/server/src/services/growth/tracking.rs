//! Tracking actions: get events arriving (`tracking.events`), tie revenue to people
//! (`tracking.identity_stitching`: `svc.identify` on signup) and tie people to where they came
//! from (`tracking.unattributed`: UTM tags on every link). Each is raised by the health check
//! of the same situation failing or warning, whose evidence is the action's `why`. None has an
//! honest revenue estimate: they make revenue visible, they do not add it.

use crate::error::ApiResult;
use crate::services::tracking;

use super::situation::Situation;
use super::{ActionKind, ActionLink, Change, Draft, Subject};

const EVENTS: &str = "tracking.events";
const STITCHING: &str = "tracking.identity_stitching";
const UNATTRIBUTED: &str = "tracking.unattributed";

pub(super) fn drafts(situation: &Situation<'_>) -> Vec<Draft> {
    let mut drafts = Vec::new();
    if let Some(check) = situation.failing(EVENTS) {
        drafts.push(Draft {
            kind: ActionKind::InstallTracking,
            subject_id: "events".to_owned(),
            severity: check.status,
            headline: "Get events arriving: the snippet on every page and server-side events"
                .to_owned(),
            why: check.evidence.clone(),
            impact: None,
            check_id: Some(EVENTS),
            links: vec![
                ActionLink::get("Snippet and write key", situation.path("/tracking-key")),
                ActionLink::post("Send server-side events", situation.path("/events")),
            ],
            subject: Subject::None,
        });
    }
    if let Some(check) = situation.failing(STITCHING) {
        drafts.push(Draft {
            kind: ActionKind::StitchIdentities,
            subject_id: "signup".to_owned(),
            severity: check.status,
            headline: "Stitch identities: call svc.identify on signup and login".to_owned(),
            why: check.evidence.clone(),
            impact: None,
            check_id: Some(STITCHING),
            links: vec![ActionLink::get(
                "Coverage (transactions with identity)",
                situation.path(&format!("/attribution{}", situation.days_query())),
            )],
            subject: Subject::None,
        });
    }
    if let Some(check) = situation.failing(UNATTRIBUTED) {
        drafts.push(Draft {
            kind: ActionKind::TagLinks,
            subject_id: "utm".to_owned(),
            severity: check.status,
            headline: "Tag every link with UTM parameters so revenue finds its channel".to_owned(),
            why: check.evidence.clone(),
            impact: None,
            check_id: Some(UNATTRIBUTED),
            links: vec![ActionLink::get(
                "Sales without a channel",
                situation.path(&format!(
                    "/attribution/sales{}&channel=unattributed",
                    situation.days_query()
                )),
            )],
            subject: Subject::None,
        });
    }
    drafts
}

/// The snippet tag itself (the write key is minted on first read, as `GET .../tracking-key`
/// does) and a server-side event.
pub(super) async fn install_change(situation: &Situation<'_>) -> ApiResult<Change> {
    let info = tracking::info(situation.state, situation.caller, &situation.product).await?;
    let tag = info.snippet.unwrap_or_default();
    Ok(Change {
        summary: format!(
            "Load the Payback snippet on every page of {} and send server-side events for signups and payments.",
            situation.quoted_name()
        ),
        steps: vec![
            "Paste this tag before </head> in the layout every page shares (not in a single page)."
                .to_owned(),
            format!(
                "From the backend, send signups and payments to POST {} with an account API key (Authorization: Bearer svc_live_...), one event per occurrence with a stable dedupe_id, e.g.:\n{}",
                situation.path("/events"),
                info.curl_example
            ),
        ],
        code: Some(("html", tag)),
        verify: vec![
            (
                format!("GET {}", situation.path("/funnel?days=1")),
                "the visit stage has volume after loading a page".to_owned(),
            ),
            (
                format!("GET {}", situation.path("/health-report")),
                "the check tracking.events has status pass".to_owned(),
            ),
        ],
    })
}

pub(super) fn stitch_change(situation: &Situation<'_>) -> Change {
    Change {
        summary: format!(
            "Identify each person in {} right after signup and login, so their visits and payments join.",
            situation.quoted_name()
        ),
        steps: vec![
            "Find the code that runs in the browser after a successful signup (and after login).".to_owned(),
            "Call svc.identify with the user's own id (the id your database uses) and their email; the snippet must already be on the page.".to_owned(),
            format!(
                "Send user_id or email with every server-side payment event (POST {}), so revenue joins the same person.",
                situation.path("/events")
            ),
        ],
        code: Some((
            "js",
            "// after the signup (and login) request succeeds\nsvc.identify(user.id, { email: user.email });".to_owned(),
        )),
        verify: vec![
            (
                format!("GET {}", situation.path(&format!("/attribution{}", situation.days_query()))),
                "coverage.transactions_with_identity equals coverage.transactions_total for new payments".to_owned(),
            ),
            (
                format!("GET {}", situation.path("/health-report")),
                "the check tracking.identity_stitching has status pass".to_owned(),
            ),
        ],
    }
}

pub(super) fn tag_links_change(situation: &Situation<'_>) -> Change {
    let site = situation
        .product
        .domain
        .clone()
        .unwrap_or_else(|| "example.com".to_owned());
    Change {
        summary: format!(
            "Add UTM tags to every link {} shares or pays for, so visits carry their channel.",
            situation.quoted_name()
        ),
        steps: vec![
            "List every outbound link to the site: emails, newsletters, social profiles and posts, partner pages, ads without auto-tagging.".to_owned(),
            "Append utm_source (who sends), utm_medium (email, social, cpc, referral) and utm_campaign (what it is) to each; keep existing query parameters.".to_owned(),
            "Where links are generated in code (emails, share buttons), add the tags in that helper rather than by hand.".to_owned(),
        ],
        code: Some((
            "text",
            format!("https://{site}/?utm_source=newsletter&utm_medium=email&utm_campaign=launch"),
        )),
        verify: vec![
            (
                format!(
                    "GET {}",
                    situation.path(&format!("/attribution{}", situation.days_query()))
                ),
                "the unattributed row's revenue_first_cents shrinks as tagged visitors pay".to_owned(),
            ),
            (
                format!(
                    "GET {}",
                    situation.path("/attribution/sales?channel=unattributed")
                ),
                "new sales no longer appear here".to_owned(),
            ),
        ],
    }
}
