//! Funnel actions: count the money conversion (`funnel.primary_conversion`: a server-side
//! `converted` event with its value, and the primary conversion that counts it) and fill each
//! empty step of the funnel in effect (`funnel.empty_steps`: one action per empty stage, read
//! from the funnel report's volumes). Raised by the health checks of the same situations; no
//! honest revenue estimate (they measure revenue, they do not add it).

use payback_domain::Stage;

use super::quoting::quoted;
use super::situation::Situation;
use super::{ActionKind, ActionLink, Change, Draft, Subject};

const PRIMARY: &str = "funnel.primary_conversion";
const EMPTY_STEPS: &str = "funnel.empty_steps";

pub(super) fn drafts(situation: &Situation<'_>) -> Vec<Draft> {
    let mut drafts = Vec::new();
    if let Some(check) = situation.failing(PRIMARY) {
        drafts.push(Draft {
            kind: ActionKind::SendConvertedEvent,
            subject_id: "server".to_owned(),
            severity: check.status,
            headline: "Send a server-side converted event with its value".to_owned(),
            why: check.evidence.clone(),
            impact: None,
            check_id: Some(PRIMARY),
            links: vec![
                ActionLink::post("Send the event", situation.path("/events")),
                ActionLink::post(
                    "Define the primary conversion",
                    situation.path("/conversions"),
                ),
                ActionLink::get(
                    "Conversions report",
                    situation.path(&format!("/conversions/report{}", situation.days_query())),
                ),
            ],
            subject: Subject::None,
        });
    }
    if let Some(check) = situation.failing(EMPTY_STEPS) {
        for step in &situation.steps {
            let stage = step.stage.as_str();
            if situation.volumes.get(stage).copied().unwrap_or(0) > 0 {
                continue;
            }
            drafts.push(Draft {
                kind: ActionKind::FixFunnelStep,
                subject_id: stage.to_owned(),
                severity: check.status,
                headline: format!(
                    "Fill the empty funnel step {} ({stage})",
                    quoted(&step.label)
                ),
                why: format!(
                    "No {stage} volume in {} days; {}",
                    situation.window.days, check.evidence
                ),
                impact: None,
                check_id: Some(EMPTY_STEPS),
                links: vec![
                    ActionLink::get(
                        "Funnel",
                        situation.path(&format!("/funnel{}", situation.days_query())),
                    ),
                    ActionLink::post("Send events", situation.path("/events")),
                    ActionLink::post("Edit the steps", situation.path("/funnel/definition")),
                ],
                subject: Subject::Stage {
                    stage: stage.to_owned(),
                    label: step.label.clone(),
                },
            });
        }
    }
    drafts
}

/// A curl of the event, as the tracking setup's example writes one.
fn event_curl(situation: &Situation<'_>, event: &str) -> String {
    format!(
        "curl -X POST {base}{path} \\\n  -H 'Authorization: Bearer <your svc_live_ API key>' \\\n  -H 'Content-Type: application/json' \\\n  -d '{{\"events\":[{event}]}}'",
        base = situation.state.config.public_url(),
        path = situation.path("/events"),
    )
}

pub(super) fn converted_change(situation: &Situation<'_>) -> Change {
    let currency = &situation.product.currency;
    let event = format!(
        "{{\"dedupe_id\":\"order-1001\",\"stage\":\"converted\",\"user_id\":\"user-42\",\"value\":4900,\"currency\":\"{currency}\"}}"
    );
    Change {
        summary: format!(
            "Send a server-side converted event with its value from {}'s backend when a customer pays, and count it as the primary conversion.",
            situation.quoted_name()
        ),
        steps: vec![
            "Find where the backend records a successful payment (checkout webhook or order completion).".to_owned(),
            format!(
                "There, POST one event per payment to {}: stage converted, value in cents (integer), currency {currency}, the customer's user_id or email, and the order id as dedupe_id so retries count once.",
                situation.path("/events")
            ),
            format!(
                "Once, define the primary conversion: POST {} with {{\"key\":\"converted\",\"label\":\"Converted\",\"tier\":\"primary\",\"stage\":\"converted\",\"value_mode\":\"transaction\"}}.",
                situation.path("/conversions")
            ),
            "Keep the API key in the server's environment, never in browser code.".to_owned(),
        ],
        code: Some(("bash", event_curl(situation, &event))),
        verify: vec![
            (
                format!("GET {}", situation.path("/conversions/report?days=1")),
                "the converted conversion shows a count of at least 1 and its value".to_owned(),
            ),
            (
                format!("GET {}", situation.path("/health-report")),
                "the check funnel.primary_conversion has status pass".to_owned(),
            ),
        ],
    }
}

pub(super) fn step_change(situation: &Situation<'_>, subject: &Subject) -> Change {
    let (stage, label) = match subject {
        Subject::Stage { stage, label } => (stage.as_str(), label.as_str()),
        _ => ("", ""),
    };
    let browser = Stage::parse(stage).is_some_and(|stage| {
        matches!(
            stage,
            Stage::Visit | Stage::Engaged | Stage::Lead | Stage::Signup
        )
    });
    let code = if browser {
        (
            "js",
            format!("svc.track('{stage}', {{ name: '{stage}' }});"),
        )
    } else {
        (
            "bash",
            event_curl(
                situation,
                &format!(
                    "{{\"dedupe_id\":\"{stage}-1001\",\"stage\":\"{stage}\",\"user_id\":\"user-42\"}}"
                ),
            ),
        )
    };
    Change {
        summary: format!(
            "Record the funnel step {} (stage {stage}) of {}, which counted nothing in {} days.",
            quoted(label),
            situation.quoted_name(),
            situation.window.days
        ),
        steps: vec![
            format!(
                "Find where a person reaches {} in the code (the request or screen that completes it).",
                quoted(label)
            ),
            format!(
                "Record it there as stage {stage}: in the browser with the snippet's svc.track, or from the backend with POST {} (user_id or email on each event).",
                situation.path("/events")
            ),
            format!(
                "If the business has no such step, take it out of the funnel instead (POST {}).",
                situation.path("/funnel/definition")
            ),
        ],
        code: Some(code),
        verify: vec![(
            format!("GET {}", situation.path("/funnel?days=1")),
            format!("the stage {stage} has a volume above 0"),
        )],
    }
}
