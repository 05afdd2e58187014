//! Queries run against a seeded customer: errors, selection, filters and how daily metrics add
//! up per resource.

use serde_json::{Value, json};

use super::run;
use crate::fakes::day::Day;
use crate::fakes::google::ads::{
    AdGroupSeed, AdSeed, Breakdown, CampaignSeed, CustomerSeed, KeywordSeed, Metrics,
};
use crate::fakes::google::state::State;

fn day(text: &str) -> Day {
    Day::parse(text).expect("day")
}

fn seeded() -> State {
    let mut state = State::new("c".into(), "s".into(), "d".into());
    state.today = Some(day("2024-05-10"));
    state.add_customer(CustomerSeed::manager_account(100, "Manager", "USD"));
    state.add_customer(
        CustomerSeed::new(1, "Shop", "USD")
            .under(100)
            .final_url_suffix("utm_source=google"),
    );
    state.add_campaign(1, CampaignSeed::new(11, "Brand", 50_000_000));
    state.add_campaign(
        1,
        CampaignSeed::new(12, "Generic", 20_000_000)
            .paused()
            .shared_budget(900),
    );
    state.add_campaign(
        1,
        CampaignSeed::new(13, "PMax", 30_000_000)
            .performance_max()
            .shared_budget(900),
    );
    state.add_ad_group(1, AdGroupSeed::new(111, 11, "Brand exact"));
    state.add_ad(1, AdSeed::new(5001, 111, "Brand ad"));
    state.add_ad(1, AdSeed::unnamed(5002, 111));
    state.add_keyword(1, KeywordSeed::new(7001, 111, "shop"));
    let ad = |ad| Breakdown::Ad { ad_group: 111, ad };
    state.add_daily(
        1,
        day("2024-05-01"),
        ad(5001),
        Metrics::new(1_000_000, 100, 10),
    );
    state.add_daily(1, day("2024-05-01"), ad(5002), Metrics::new(500_000, 50, 5));
    state.add_daily(
        1,
        day("2024-05-02"),
        ad(5001),
        Metrics::new(2_000_000, 200, 20),
    );
    state.add_daily(1, day("2024-05-03"), ad(5001), Metrics::new(0, 0, 0));
    state.add_daily(
        1,
        day("2024-05-01"),
        Breakdown::Keyword {
            ad_group: 111,
            criterion: 7001,
        },
        Metrics::new(1_500_000, 150, 15),
    );
    state.add_daily(
        1,
        day("2024-05-02"),
        Breakdown::CampaignOnly { campaign: 13 },
        Metrics::new(4_000_000, 400, 4),
    );
    state
}

#[test]
fn unknown_fields_and_resources_are_query_errors() {
    let state = seeded();
    let code = |q: &str| run(&state, 1, q).err().map(|e| e.code);
    assert_eq!(
        code("SELECT campaign.idd FROM campaign"),
        Some("UNRECOGNIZED_FIELD")
    );
    assert_eq!(
        code("SELECT campaign.id FROM campaigns"),
        Some("BAD_RESOURCE_TYPE_IN_FROM_CLAUSE")
    );
    assert_eq!(
        code("SELECT ad_group.id FROM campaign"),
        Some("PROHIBITED_RESOURCE_TYPE_IN_SELECT_CLAUSE")
    );
    assert_eq!(
        code("SELECT campaign_budget.id, metrics.clicks FROM campaign_budget"),
        Some("PROHIBITED_METRIC_IN_SELECT_OR_WHERE_CLAUSE")
    );
    assert_eq!(
        code("SELECT campaign.id FROM campaign WHERE campaign.status = 'LIVE'"),
        Some("BAD_ENUM_CONSTANT")
    );
    assert_eq!(
        code("SELECT campaign.id FROM campaign WHERE campaign.id = '11'"),
        Some("BAD_VALUE")
    );
    assert_eq!(
        code("SELECT campaign.id, segments.date FROM campaign"),
        Some("EXPECTED_FILTERS_ON_DATE_RANGE")
    );
    assert_eq!(
        code("SELECT campaign.id, segments.date FROM campaign WHERE segments.date >= '2024-05-01'"),
        Some("EXPECTED_FILTERS_ON_DATE_RANGE")
    );
    assert_eq!(
        code(
            "SELECT campaign.id FROM campaign WHERE segments.date BETWEEN '2024-05-02' AND '2024-05-01'"
        ),
        Some("DATE_RANGE_TOO_NARROW")
    );
    assert_eq!(
        code("SELECT campaign.id FROM campaign WHERE segments.date = '2024-5-1'"),
        Some("INVALID_DATE_FORMAT")
    );
    assert_eq!(
        code("SELECT campaign.id FROM campaign WHERE segments.date DURING LAST_YEAR"),
        Some("INVALID_VALUE_WITH_DURING_OPERATOR")
    );
    assert_eq!(
        run(
            &state,
            100,
            "SELECT customer.id, metrics.clicks FROM customer"
        )
        .err()
        .map(|e| e.code),
        Some("REQUESTED_METRICS_FOR_MANAGER")
    );
}

#[test]
fn filters_and_selects_only_the_named_fields() {
    let state = seeded();
    let answer = run(
        &state,
        1,
        "SELECT campaign.id, campaign.name, campaign_budget.amount_micros, campaign_budget.explicitly_shared, \
         campaign_budget.reference_count FROM campaign WHERE campaign.status != 'REMOVED' AND campaign.id IN (12, 13) ORDER BY campaign.id DESC",
    )
    .expect("runs");
    assert_eq!(
        answer.field_mask,
        "campaign.id,campaign.name,campaignBudget.amountMicros,campaignBudget.explicitlyShared,campaignBudget.referenceCount"
    );
    assert_eq!(
        answer.rows,
        [
            json!({
                "campaign": {"resourceName": "customers/1/campaigns/13", "id": "13", "name": "PMax"},
                "campaignBudget": {"resourceName": "customers/1/campaignBudgets/900", "amountMicros": "20000000", "explicitlyShared": true, "referenceCount": "2"},
            }),
            json!({
                "campaign": {"resourceName": "customers/1/campaigns/12", "id": "12", "name": "Generic"},
                "campaignBudget": {"resourceName": "customers/1/campaignBudgets/900", "amountMicros": "20000000", "explicitlyShared": true, "referenceCount": "2"},
            }),
        ]
    );
    let paused = run(
        &state,
        1,
        "SELECT campaign.id FROM campaign WHERE campaign.status = PAUSED",
    )
    .expect("runs");
    assert_eq!(
        paused.rows,
        [json!({"campaign": {"resourceName": "customers/1/campaigns/12", "id": "12"}})]
    );
    let named = run(
        &state,
        1,
        "SELECT campaign.name FROM campaign WHERE campaign.name LIKE '%an%'",
    )
    .expect("runs");
    assert_eq!(named.rows.len(), 1, "Brand only: {:?}", named.rows);
    let omitted = run(&state, 1, "SELECT campaign.id, customer.id FROM campaign WHERE campaign.id = 11 PARAMETERS omit_unselected_resource_names = true").expect("runs");
    assert_eq!(
        omitted.rows,
        [json!({"campaign": {"id": "11"}, "customer": {"id": "1"}})]
    );
}

#[test]
fn daily_metrics_add_up_per_resource() {
    let state = seeded();
    let by_day = run(
        &state,
        1,
        "SELECT campaign.id, segments.date, metrics.cost_micros, metrics.impressions, metrics.clicks FROM campaign \
         WHERE segments.date BETWEEN '2024-05-01' AND '2024-05-03'",
    )
    .expect("runs");
    // Campaign 11: two ads on 05-01 summed, 05-02, and 05-03's zero row left out; campaign 13's
    // campaign-only spend; keyword rows never count.
    assert_eq!(
        by_day.rows,
        [
            json!({"campaign": {"resourceName": "customers/1/campaigns/11", "id": "11"}, "segments": {"date": "2024-05-01"}, "metrics": {"costMicros": "1500000", "impressions": "150", "clicks": "15"}}),
            json!({"campaign": {"resourceName": "customers/1/campaigns/11", "id": "11"}, "segments": {"date": "2024-05-02"}, "metrics": {"costMicros": "2000000", "impressions": "200", "clicks": "20"}}),
            json!({"campaign": {"resourceName": "customers/1/campaigns/13", "id": "13"}, "segments": {"date": "2024-05-02"}, "metrics": {"costMicros": "4000000", "impressions": "400", "clicks": "4"}}),
        ]
    );
    let totals = run(&state, 1, "SELECT campaign.id, metrics.cost_micros FROM campaign WHERE segments.date DURING LAST_30_DAYS").expect("runs");
    let costs: Vec<&Value> = totals
        .rows
        .iter()
        .map(|r| &r["metrics"]["costMicros"])
        .collect();
    assert_eq!(
        costs,
        ["3500000", "0", "4000000"],
        "unsegmented rows keep zero metrics"
    );
    let ads = run(&state, 1, "SELECT ad_group_ad.ad.id, ad_group_ad.ad.name, metrics.clicks FROM ad_group_ad WHERE segments.date = '2024-05-01'").expect("runs");
    assert_eq!(
        ads.rows,
        [
            json!({"adGroupAd": {"resourceName": "customers/1/adGroupAds/111~5001", "ad": {"id": "5001", "name": "Brand ad"}}, "metrics": {"clicks": "10"}}),
            json!({"adGroupAd": {"resourceName": "customers/1/adGroupAds/111~5002", "ad": {"id": "5002"}}, "metrics": {"clicks": "5"}}),
        ]
    );
    let keywords = run(
        &state,
        1,
        "SELECT ad_group_criterion.criterion_id, ad_group_criterion.keyword.text, segments.date, metrics.cost_micros FROM keyword_view \
         WHERE segments.date >= '2024-05-01' AND segments.date <= '2024-05-31'",
    )
    .expect("runs");
    assert_eq!(
        keywords.rows,
        [json!({
            "keywordView": {"resourceName": "customers/1/keywordViews/111~7001"},
            "adGroupCriterion": {"resourceName": "customers/1/adGroupCriteria/111~7001", "criterionId": "7001", "keyword": {"text": "shop"}},
            "segments": {"date": "2024-05-01"},
            "metrics": {"costMicros": "1500000"},
        })]
    );
    let busy = run(
        &state,
        1,
        "SELECT ad_group.id, metrics.clicks FROM ad_group WHERE metrics.clicks > 30",
    )
    .expect("runs");
    assert_eq!(
        busy.rows,
        [
            json!({"adGroup": {"resourceName": "customers/1/adGroups/111", "id": "111"}, "metrics": {"clicks": "35"}})
        ]
    );
}

#[test]
fn the_account_hierarchy_and_customer_read_as_documented() {
    let state = seeded();
    let tree = run(
        &state,
        100,
        "SELECT customer_client.client_customer, customer_client.level, customer_client.manager, customer_client.descriptive_name, \
         customer_client.currency_code, customer_client.id FROM customer_client WHERE customer_client.level <= 1",
    )
    .expect("runs");
    assert_eq!(tree.rows.len(), 2);
    assert_eq!(tree.rows[0]["customerClient"]["level"], "0");
    assert_eq!(tree.rows[0]["customerClient"]["manager"], true);
    assert_eq!(
        tree.rows[1]["customerClient"]["clientCustomer"],
        "customers/1"
    );
    assert_eq!(
        tree.rows[1]["customerClient"]["resourceName"],
        "customers/100/customerClients/1"
    );
    let me = run(&state, 1, "SELECT customer.id, customer.currency_code, customer.descriptive_name, customer.final_url_suffix, customer.auto_tagging_enabled FROM customer").expect("runs");
    assert_eq!(
        me.rows,
        [
            json!({"customer": {"resourceName": "customers/1", "id": "1", "currencyCode": "USD", "descriptiveName": "Shop", "finalUrlSuffix": "utm_source=google", "autoTaggingEnabled": true}})
        ]
    );
}

#[test]
fn limit_and_total_count() {
    let state = seeded();
    let answer = run(
        &state,
        1,
        "SELECT campaign.id FROM campaign ORDER BY campaign.name LIMIT 2",
    )
    .expect("runs");
    assert_eq!(answer.total, 3);
    let names: Vec<&Value> = answer.rows.iter().map(|r| &r["campaign"]["id"]).collect();
    assert_eq!(names, ["11", "12"]);
}
