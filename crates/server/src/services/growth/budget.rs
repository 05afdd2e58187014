//! Budget actions: move budget from a channel whose CAC exceeds LTV (or whose spend acquired
//! nobody) to the channel paying back best (the lowest CAC under LTV). CAC per channel is the
//! attribution report's (spend over customers first touched there in the window); LTV is the
//! product row's (all-time net revenue per customer ever acquired), as `advertising.ltv_cac`
//! reads it. One action per losing channel, towards the one best channel.
//!
//! Estimate: the losing channel's window spend `S`, spent at the best channel's CAC, would
//! acquire `S / CAC_best` customers instead of the `customers_lost` it did; each is worth LTV:
//! `round(S x LTV / CAC_best) - customers_lost x LTV`. It assumes the best channel's CAC holds
//! at the higher budget (an upper bound); null when that CAC is 0.
//!
//! Nothing is executed: the action links to raising a spend proposal, which a human approves.

use payback_domain::channel::UNATTRIBUTED;
use payback_domain::policy::Network;

use crate::services::attribution::ChannelRow;
use crate::services::health_report::HealthStatus;

use super::situation::Situation;
use super::{ActionKind, ActionLink, Change, Draft, Subject};

pub(super) fn drafts(situation: &Situation<'_>) -> Vec<Draft> {
    let Some(ltv) = situation.ltv_cents.filter(|ltv| *ltv > 0) else {
        return Vec::new();
    };
    let spending: Vec<&ChannelRow> = situation
        .attribution
        .channels
        .iter()
        .filter(|row| row.channel != UNATTRIBUTED && row.spend_cents > 0)
        .collect();
    // The best channel paying back: the lowest CAC under LTV (ties: the channel's name).
    let Some((best, best_cac)) = spending
        .iter()
        .filter_map(|row| row.cac_cents.map(|cac| (*row, cac)))
        .filter(|(_, cac)| *cac < ltv)
        .min_by(|a, b| a.1.cmp(&b.1).then_with(|| a.0.channel.cmp(&b.0.channel)))
    else {
        return Vec::new();
    };
    spending
        .iter()
        .filter(|row| row.cac_cents.is_none_or(|cac| cac > ltv))
        .map(|lost| draft(situation, lost, best, best_cac, ltv))
        .collect()
}

/// Revenue the losing channel's spend would bring at the best channel's CAC, over what it
/// brought; `None` when the best CAC is 0 (no honest rate to scale).
pub(super) fn impact(spend: i64, customers: i64, ltv: i64, best_cac: i64) -> Option<i64> {
    if best_cac <= 0 {
        return None;
    }
    let (spend, ltv, best_cac) = (i128::from(spend), i128::from(ltv), i128::from(best_cac));
    // Rounded to the nearest cent, halves up (all terms are positive).
    let gained = (2 * spend * ltv + best_cac) / (2 * best_cac);
    i64::try_from(gained - i128::from(customers) * ltv).ok()
}

fn draft(
    situation: &Situation<'_>,
    lost: &ChannelRow,
    best: &ChannelRow,
    best_cac: i64,
    ltv: i64,
) -> Draft {
    let days = situation.window.days;
    let lost_cac = match lost.cac_cents {
        Some(cac) => format!("CAC {}", situation.money(cac)),
        None => "no customer".to_owned(),
    };
    let network = Network::ALL
        .iter()
        .find(|network| network.channel() == lost.channel)
        .map(|network| network.as_str());
    let mut links = vec![ActionLink::get(
        "CAC per channel",
        situation.path(&format!("/attribution{}", situation.days_query())),
    )];
    if network.is_some() {
        links.push(ActionLink::post(
            "Raise a spend proposal (a human approves it)",
            situation.path("/proposals"),
        ));
    }
    Draft {
        kind: ActionKind::MoveBudget,
        subject_id: format!("{}->{}", lost.channel, best.channel),
        severity: HealthStatus::Fail,
        headline: format!("Move budget from {} to {}", lost.channel, best.channel),
        why: format!(
            "{}: {} spend, {} customers, {lost_cac} against an LTV of {}; {}: {} spend, {} customers, CAC {} (last {days} days)",
            lost.channel,
            situation.money(lost.spend_cents),
            lost.customers_first,
            situation.money(ltv),
            best.channel,
            situation.money(best.spend_cents),
            best.customers_first,
            situation.money(best_cac),
        ),
        impact: impact(lost.spend_cents, lost.customers_first, ltv, best_cac),
        check_id: None,
        links,
        subject: Subject::Budget {
            from: lost.channel.clone(),
            to: best.channel.clone(),
            network,
            from_spend_cents: lost.spend_cents,
        },
    }
}

pub(super) fn change(situation: &Situation<'_>, subject: &Subject) -> Change {
    let Subject::Budget {
        from,
        to,
        network,
        from_spend_cents,
    } = subject
    else {
        return Change::default();
    };
    let days = situation.window.days;
    let proposals = situation.path("/proposals");
    let mut steps = vec![format!(
        "Read CAC per channel: GET {} and confirm {from} still costs more per customer than a customer is worth, and {to} less.",
        situation.path(&format!("/attribution{}", situation.days_query()))
    )];
    let code = match network {
        Some(network) => {
            steps.push(format!(
                "Draft (do not send without the founder's go-ahead) a spend proposal lowering the {network} campaign's daily budget: POST {proposals} with network, campaign_id, to_cents and a rationale quoting the numbers. It only queues a card; a human approves it in Payback, nothing changes before."
            ));
            Some((
                "bash",
                format!(
                    "curl -X POST {}{proposals} \\\n  -H 'Authorization: Bearer <your svc_live_ API key>' \\\n  -H 'Content-Type: application/json' \\\n  -d '{{\"network\":\"{network}\",\"campaign_id\":\"<campaign id from GET {}>\",\"to_cents\":<new daily budget>,\"rationale\":\"{from} CAC above LTV over {days} days; moving budget to {to}\"}}'",
                    situation.state.config.public_url(),
                    situation.path("/attribution/ads?level=campaign"),
                ),
            ))
        }
        None => {
            steps.push(format!(
                "Payback cannot propose changes on {from}'s network: lower its budget in the network's own console, by hand."
            ));
            None
        }
    };
    steps.push(format!(
        "Put the {} a window it frees on {to}'s best campaigns, with UTM tags (utm_source, utm_medium=cpc or paid_social, utm_campaign) on every new ad URL so the result is measured.",
        situation.money(*from_spend_cents)
    ));
    Change {
        summary: format!(
            "Move {}'s budget from {from} (CAC above LTV) to {to} (paying back) through a spend proposal a human approves.",
            situation.quoted_name()
        ),
        steps,
        code,
        verify: vec![
            (
                "GET /queue".to_owned(),
                "the pending spend proposal card for this product".to_owned(),
            ),
            (
                format!(
                    "GET {}",
                    situation.path(&format!("/attribution{}", situation.days_query()))
                ),
                format!(
                    "after approval, {to}'s customers_first grows while its CAC stays under LTV"
                ),
            ),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_estimate_is_the_spend_at_the_best_cac_minus_what_it_brought() {
        // 100.00 spent for 1 customer; at a CAC of 20.00 it would have bought 5; LTV 50.00.
        assert_eq!(impact(10_000, 1, 5_000, 2_000), Some(5 * 5_000 - 5_000));
        // Spend that acquired nobody: every customer it would buy is gained.
        assert_eq!(impact(9_000, 0, 4_000, 3_000), Some(12_000));
        // Rounded to the cent: 1000 x 333 / 700 = 475.71...
        assert_eq!(impact(1_000, 0, 333, 700), Some(476));
        assert_eq!(impact(10_000, 1, 5_000, 0), None);
    }
}
