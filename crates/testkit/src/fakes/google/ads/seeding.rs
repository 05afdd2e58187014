//! Seeding the Ads accounts (test helpers: an inconsistent seed panics, naming the mistake).

use super::accounts::{
    Ad, AdGroup, Budget, BudgetStatus, Campaign, Customer, Keyword, implicit_budget_id,
};
use super::seeds::{
    AdGroupSeed, AdSeed, Breakdown, CampaignSeed, CustomerSeed, KeywordSeed, Metrics,
};
use crate::fakes::day::Day;
use crate::fakes::google::state::State;

impl State {
    pub fn add_customer(&mut self, seed: CustomerSeed) {
        assert!(
            self.customer(seed.id).is_none(),
            "customer {} seeded twice",
            seed.id
        );
        assert!(seed.id > 0, "customer ids are positive");
        self.customers.push(Customer {
            id: seed.id,
            name: seed.name,
            currency: seed.currency,
            time_zone: seed.time_zone,
            manager: seed.manager,
            is_manager: seed.is_manager,
            final_url_suffix: seed.final_url_suffix,
            auto_tagging: seed.auto_tagging,
        });
    }

    fn require_customer(&self, customer: i64) {
        assert!(
            self.customer(customer).is_some(),
            "customer {customer} is not seeded"
        );
    }

    pub fn add_campaign(&mut self, customer: i64, seed: CampaignSeed) {
        self.require_customer(customer);
        assert!(
            self.campaign(customer, seed.id).is_none(),
            "campaign {} seeded twice",
            seed.id
        );
        let budget = match seed.shared_budget {
            Some(id) => {
                if self.budget(customer, id).is_none() {
                    self.budgets.push(Budget {
                        id,
                        customer,
                        name: format!("Shared budget {id}"),
                        amount_micros: seed.budget_micros,
                        explicitly_shared: true,
                        status: BudgetStatus::Enabled,
                    });
                }
                id
            }
            None => {
                let id = implicit_budget_id(seed.id);
                assert!(
                    self.budget(customer, id).is_none(),
                    "budget id {id} (campaign {}'s own) is already taken",
                    seed.id
                );
                self.budgets.push(Budget {
                    id,
                    customer,
                    name: format!("{} budget", seed.name),
                    amount_micros: seed.budget_micros,
                    explicitly_shared: false,
                    status: BudgetStatus::Enabled,
                });
                id
            }
        };
        self.campaigns.push(Campaign {
            id: seed.id,
            customer,
            name: seed.name,
            status: seed.status,
            channel: seed.channel,
            budget,
        });
    }

    pub fn add_ad_group(&mut self, customer: i64, seed: AdGroupSeed) {
        assert!(
            self.campaign(customer, seed.campaign).is_some(),
            "campaign {} of customer {customer} is not seeded",
            seed.campaign
        );
        assert!(
            self.ad_group(customer, seed.id).is_none(),
            "ad group {} seeded twice",
            seed.id
        );
        self.ad_groups.push(AdGroup {
            id: seed.id,
            customer,
            campaign: seed.campaign,
            name: seed.name,
            status: seed.status,
        });
    }

    pub fn add_ad(&mut self, customer: i64, seed: AdSeed) {
        assert!(
            self.ad_group(customer, seed.ad_group).is_some(),
            "ad group {} of customer {customer} is not seeded",
            seed.ad_group
        );
        self.ads.push(Ad {
            id: seed.id,
            customer,
            ad_group: seed.ad_group,
            name: seed.name,
            status: seed.status,
        });
    }

    pub fn add_keyword(&mut self, customer: i64, seed: KeywordSeed) {
        assert!(
            self.ad_group(customer, seed.ad_group).is_some(),
            "ad group {} of customer {customer} is not seeded",
            seed.ad_group
        );
        self.keywords.push(Keyword {
            criterion_id: seed.criterion_id,
            customer,
            ad_group: seed.ad_group,
            text: seed.text,
            match_type: seed.match_type,
            status: seed.status,
        });
    }

    pub fn add_daily(&mut self, customer: i64, day: Day, at: Breakdown, metrics: Metrics) {
        match at {
            Breakdown::Ad { ad_group, ad } => assert!(
                self.ads
                    .iter()
                    .any(|a| a.customer == customer && a.ad_group == ad_group && a.id == ad),
                "ad {ad_group}~{ad} of customer {customer} is not seeded"
            ),
            Breakdown::Keyword {
                ad_group,
                criterion,
            } => assert!(
                self.keywords.iter().any(|k| k.customer == customer
                    && k.ad_group == ad_group
                    && k.criterion_id == criterion),
                "keyword {ad_group}~{criterion} of customer {customer} is not seeded"
            ),
            Breakdown::CampaignOnly { campaign } => assert!(
                self.campaign(customer, campaign).is_some(),
                "campaign {campaign} of customer {customer} is not seeded"
            ),
        }
        self.daily.insert((customer, day, at.into()), metrics);
    }
}
