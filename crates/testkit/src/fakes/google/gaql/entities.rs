//! The FROM resource's entities of a customer with what each joins to, and an entity's daily
//! metrics (how the breakdowns add up is in `ads/seeds.rs`).

use std::collections::BTreeMap;

use super::catalog::Family;
use super::predicates::Pred;
use super::values::{Ctx, Val};
use crate::fakes::day::Day;
use crate::fakes::google::ads::{BreakdownKey, Customer, Metrics};
use crate::fakes::google::state::State;

/// The FROM resource's entities of the customer, each with the entities it joins to.
pub(super) fn entities<'a>(state: &'a State, customer: &'a Customer, main: Family) -> Vec<Ctx<'a>> {
    let base = Ctx {
        customer,
        client: None,
        campaign: None,
        budget: None,
        ad_group: None,
        ad: None,
        keyword: None,
    };
    let cid = customer.id;
    let with_campaign = |ctx: Ctx<'a>, campaign: i64| -> Ctx<'a> {
        let campaign = state.campaign(cid, campaign);
        Ctx {
            campaign,
            budget: campaign.and_then(|c| state.budget(cid, c.budget)),
            ..ctx
        }
    };
    let with_group = |ctx: Ctx<'a>, group: i64| -> Ctx<'a> {
        let ad_group = state.ad_group(cid, group);
        let ctx = Ctx { ad_group, ..ctx };
        match ad_group {
            Some(group) => with_campaign(ctx, group.campaign),
            None => ctx,
        }
    };
    match main {
        Family::Customer => vec![base],
        Family::CustomerClient => {
            // The manager itself (level 0), then its clients level by level.
            let mut out = vec![Ctx {
                client: Some((customer, 0)),
                ..base
            }];
            let mut frontier = vec![cid];
            let mut level = 0;
            while !frontier.is_empty() {
                level += 1;
                let mut next = Vec::new();
                for parent in frontier {
                    for child in state.customers.iter().filter(|c| c.manager == Some(parent)) {
                        if out
                            .iter()
                            .all(|ctx| ctx.client.is_none_or(|(c, _)| c.id != child.id))
                        {
                            out.push(Ctx {
                                client: Some((child, level)),
                                ..base
                            });
                            next.push(child.id);
                        }
                    }
                }
                frontier = next;
            }
            out
        }
        Family::Campaign => state
            .campaigns
            .iter()
            .filter(|c| c.customer == cid)
            .map(|c| with_campaign(base, c.id))
            .collect(),
        Family::CampaignBudget => state
            .budgets
            .iter()
            .filter(|b| b.customer == cid)
            .map(|b| Ctx {
                budget: Some(b),
                ..base
            })
            .collect(),
        Family::AdGroup => state
            .ad_groups
            .iter()
            .filter(|g| g.customer == cid)
            .map(|g| with_group(base, g.id))
            .collect(),
        Family::AdGroupAd => state
            .ads
            .iter()
            .filter(|a| a.customer == cid)
            .map(|a| {
                with_group(
                    Ctx {
                        ad: Some(a),
                        ..base
                    },
                    a.ad_group,
                )
            })
            .collect(),
        Family::AdGroupCriterion | Family::KeywordView => state
            .keywords
            .iter()
            .filter(|k| k.customer == cid)
            .map(|k| {
                with_group(
                    Ctx {
                        keyword: Some(k),
                        ..base
                    },
                    k.ad_group,
                )
            })
            .collect(),
        Family::Metrics | Family::Segments => Vec::new(),
    }
}

/// The entity's metrics per day, on the days the date conditions keep.
pub(super) fn daily(
    state: &State,
    ctx: &Ctx<'_>,
    main: Family,
    date_preds: &[Pred],
) -> BTreeMap<Day, Metrics> {
    let cid = ctx.customer.id;
    let campaign_of_group = |group: i64| state.ad_group(cid, group).map(|g| g.campaign);
    let counts = |key: &BreakdownKey| -> bool {
        match (main, key) {
            (Family::Customer, BreakdownKey::Ad(..) | BreakdownKey::CampaignOnly(_)) => true,
            (Family::Campaign, BreakdownKey::Ad(group, _)) => ctx
                .campaign
                .is_some_and(|c| campaign_of_group(*group) == Some(c.id)),
            (Family::Campaign, BreakdownKey::CampaignOnly(campaign)) => {
                ctx.campaign.is_some_and(|c| c.id == *campaign)
            }
            (Family::AdGroup, BreakdownKey::Ad(group, _)) => {
                ctx.ad_group.is_some_and(|g| g.id == *group)
            }
            (Family::AdGroupAd, BreakdownKey::Ad(group, ad)) => {
                ctx.ad.is_some_and(|a| a.ad_group == *group && a.id == *ad)
            }
            (Family::KeywordView, BreakdownKey::Keyword(group, criterion)) => ctx
                .keyword
                .is_some_and(|k| k.ad_group == *group && k.criterion_id == *criterion),
            _ => false,
        }
    };
    let mut days: BTreeMap<Day, Metrics> = BTreeMap::new();
    for (day, key, metrics) in state.daily_of(cid) {
        if counts(&key) && date_preds.iter().all(|p| p.holds(Some(&Val::Date(day)))) {
            days.entry(day).or_default().add(metrics);
        }
    }
    days
}
