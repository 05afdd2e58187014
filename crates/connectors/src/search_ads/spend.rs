//! Google Ads spend as Payback's spend rows, counted once.
//!
//! Three reads over the same days: `campaign` (each campaign's total per day), `ad_group_ad`
//! (each ad's share) and `keyword_view` (each keyword's share). Stored rows are:
//! - one row per ad and day (campaign, ad group and ad ids and names; no keyword);
//! - per campaign and day, a remainder row at campaign grain holding what the campaign spent
//!   beyond its ads' rows (Performance Max and other campaigns without ad-group ads), only when
//!   there is some; so a campaign's rows sum exactly to its spend in cents.
//!
//! Keyword rows break the same spend down by keyword (a search click is bought by a keyword *and*
//! shown as an ad), so they go to `SpendRead::keywords`, never summed with the rows.
//!
//! Micros become cents per stored row, rounded half up. The remainder is the campaign's rounded
//! total minus its ad rows' rounded cents, never below zero: rounding many small ad rows up can
//! pass the campaign's own rounded total by a cent or so, and a negative row would be refused.

use std::collections::BTreeMap;

use payback_domain::connection::ConnectionKind;

use super::client::{Account, AdsClient};
use super::gaql;
use super::money::micros_to_cents;
use super::wire::GoogleAdsRow;
use crate::ConnectorError;
use crate::batch::{DayRange, SpendRow};

/// What one read came to.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct SpendRows {
    /// Ad rows, then campaign remainders: these sum to every campaign's spend.
    pub rows: Vec<SpendRow>,
    /// The keyword breakdown of the same spend.
    pub keywords: Vec<SpendRow>,
    pub ad_rows: usize,
    pub remainder_rows: usize,
}

/// Reads the three grains of `days` and assembles them.
pub(crate) async fn read(
    client: &AdsClient,
    account: Account<'_>,
    days: &DayRange,
    currency: &str,
) -> Result<SpendRows, ConnectorError> {
    let campaigns = client.search(account, &gaql::campaign_spend(days)?).await?;
    let ads = client.search(account, &gaql::ad_spend(days)?).await?;
    let keywords = client.search(account, &gaql::keyword_spend(days)?).await?;
    assemble(days, currency, &campaigns, &ads, &keywords)
}

/// Spend, impressions and clicks of one grain.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Measure {
    micros: i64,
    impressions: i64,
    clicks: i64,
}

impl Measure {
    fn of(row: &GoogleAdsRow) -> Self {
        let metrics = row.metrics.clone().unwrap_or_default();
        Self {
            micros: metrics.cost_micros.unwrap_or(0),
            impressions: metrics.impressions.unwrap_or(0),
            clicks: metrics.clicks.unwrap_or(0),
        }
    }

    fn add(&mut self, other: Measure) {
        self.micros = self.micros.saturating_add(other.micros);
        self.impressions = self.impressions.saturating_add(other.impressions);
        self.clicks = self.clicks.saturating_add(other.clicks);
    }

    fn is_zero(self) -> bool {
        self == Measure::default()
    }
}

/// One grain's key and names: `(day, campaign, ad group, leaf)` where the leaf is the ad or the
/// keyword (`""` at campaign grain).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Key {
    day: String,
    campaign_id: String,
    ad_group_id: String,
    leaf_id: String,
}

#[derive(Debug, Clone, Default)]
struct Names {
    campaign: Option<String>,
    ad_group: Option<String>,
    leaf: Option<String>,
}

/// Which resource a row's leaf comes from.
#[derive(Debug, Clone, Copy)]
enum Grain {
    Campaign,
    Ad,
    Keyword,
}

/// Builds the rows of `days` from the three reads (pure, so it is tested without HTTP).
pub(crate) fn assemble(
    days: &DayRange,
    currency: &str,
    campaigns: &[GoogleAdsRow],
    ads: &[GoogleAdsRow],
    keywords: &[GoogleAdsRow],
) -> Result<SpendRows, ConnectorError> {
    let landing = ConnectionKind::SearchAds.spend().ok_or_else(|| {
        ConnectorError::Config("the kind table gives search_ads no spend landing".to_owned())
    })?;
    let campaign_totals = totals(days, campaigns, Grain::Campaign)?;
    let ad_totals = totals(days, ads, Grain::Ad)?;
    let keyword_totals = totals(days, keywords, Grain::Keyword)?;

    let row = |key: &Key, names: &Names, measure: Measure, grain: Grain| {
        let mut row = SpendRow {
            day: key.day.clone(),
            network: landing.network.to_owned(),
            channel: landing.channel.to_owned(),
            campaign_id: key.campaign_id.clone(),
            campaign_name: names.campaign.clone(),
            ad_group_id: key.ad_group_id.clone(),
            ad_group_name: names.ad_group.clone(),
            spend_cents: micros_to_cents(measure.micros),
            impressions: measure.impressions,
            clicks: measure.clicks,
            currency: currency.to_owned(),
            ..SpendRow::default()
        };
        match grain {
            Grain::Ad => {
                row.ad_id = key.leaf_id.clone();
                row.ad_name = names.leaf.clone();
            }
            Grain::Keyword => {
                row.keyword_id = key.leaf_id.clone();
                row.keyword = names.leaf.clone();
            }
            Grain::Campaign => {}
        }
        row
    };

    let mut rows = Vec::new();
    // What each campaign's ad rows already hold, in stored units: (cents, impressions, clicks).
    let mut covered: BTreeMap<(String, String), (i64, i64, i64)> = BTreeMap::new();
    for (key, (names, measure)) in &ad_totals {
        if measure.is_zero() {
            continue;
        }
        let stored = row(key, names, *measure, Grain::Ad);
        let sum = covered
            .entry((key.day.clone(), key.campaign_id.clone()))
            .or_default();
        sum.0 += stored.spend_cents;
        sum.1 += stored.impressions;
        sum.2 += stored.clicks;
        rows.push(stored);
    }
    let ad_rows = rows.len();

    for (key, (names, measure)) in &campaign_totals {
        let (cents, impressions, clicks) = covered
            .get(&(key.day.clone(), key.campaign_id.clone()))
            .copied()
            .unwrap_or_default();
        let rest_cents = (micros_to_cents(measure.micros) - cents).max(0);
        let rest = Measure {
            micros: 0,
            impressions: (measure.impressions - impressions).max(0),
            clicks: (measure.clicks - clicks).max(0),
        };
        if rest_cents == 0 && rest.is_zero() {
            continue;
        }
        let mut stored = row(key, names, rest, Grain::Campaign);
        stored.spend_cents = rest_cents;
        rows.push(stored);
    }
    let remainder_rows = rows.len() - ad_rows;

    let keywords = keyword_totals
        .iter()
        .filter(|(_, (_, measure))| !measure.is_zero())
        .map(|(key, (names, measure))| row(key, names, *measure, Grain::Keyword))
        .collect();

    Ok(SpendRows {
        rows,
        keywords,
        ad_rows,
        remainder_rows,
    })
}

/// Each grain's measure summed over the rows that name it (Google answers one row per grain and
/// day, but summing keeps a repeated row from becoming a duplicate key), days outside `days`
/// left out.
fn totals(
    days: &DayRange,
    rows: &[GoogleAdsRow],
    grain: Grain,
) -> Result<BTreeMap<Key, (Names, Measure)>, ConnectorError> {
    let mut totals: BTreeMap<Key, (Names, Measure)> = BTreeMap::new();
    for row in rows {
        let Some(day) = row.segments.as_ref().and_then(|s| s.date.clone()) else {
            return Err(missing(grain, "segments.date"));
        };
        if !days.contains(&day) {
            tracing::warn!(
                day,
                "google ads answered a day outside the days asked; left out"
            );
            continue;
        }
        let campaign = row.campaign.clone().unwrap_or_default();
        let campaign_id = campaign.id.ok_or_else(|| missing(grain, "campaign.id"))?;
        let ad_group = row.ad_group.clone().unwrap_or_default();
        let (ad_group_id, leaf_id, leaf_name) = match grain {
            Grain::Campaign => (String::new(), String::new(), None),
            Grain::Ad => {
                let ad = row
                    .ad_group_ad
                    .as_ref()
                    .and_then(|a| a.ad.clone())
                    .unwrap_or_default();
                (
                    ad_group.id.ok_or_else(|| missing(grain, "ad_group.id"))?,
                    ad.id.ok_or_else(|| missing(grain, "ad_group_ad.ad.id"))?,
                    ad.name,
                )
            }
            Grain::Keyword => {
                let criterion = row.ad_group_criterion.clone().unwrap_or_default();
                (
                    ad_group.id.ok_or_else(|| missing(grain, "ad_group.id"))?,
                    criterion
                        .criterion_id
                        .ok_or_else(|| missing(grain, "ad_group_criterion.criterion_id"))?,
                    criterion.keyword.and_then(|keyword| keyword.text),
                )
            }
        };
        let key = Key {
            day,
            campaign_id,
            ad_group_id,
            leaf_id,
        };
        let entry = totals.entry(key).or_default();
        entry.0 = Names {
            campaign: named(campaign.name).or(entry.0.campaign.take()),
            ad_group: named(ad_group.name).or(entry.0.ad_group.take()),
            leaf: named(leaf_name).or(entry.0.leaf.take()),
        };
        entry.1.add(Measure::of(row));
    }
    Ok(totals)
}

fn named(name: Option<String>) -> Option<String> {
    name.filter(|text| !text.trim().is_empty())
}

fn missing(grain: Grain, field: &str) -> ConnectorError {
    let resource = match grain {
        Grain::Campaign => "campaign",
        Grain::Ad => "ad_group_ad",
        Grain::Keyword => "keyword_view",
    };
    ConnectorError::Vendor(format!(
        "Google Ads answered a {resource} row without {field}"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn days() -> DayRange {
        DayRange {
            first: "2026-11-01".into(),
            last: "2026-11-02".into(),
        }
    }

    fn parse(json: &str) -> Vec<GoogleAdsRow> {
        serde_json::from_str(json).unwrap()
    }

    fn campaign(day: &str, id: &str, micros: i64, impressions: i64, clicks: i64) -> String {
        format!(
            r#"{{"campaign": {{"id": "{id}", "name": "Campaign {id}"}},
                "metrics": {{"costMicros": "{micros}", "impressions": "{impressions}", "clicks": "{clicks}"}},
                "segments": {{"date": "{day}"}}}}"#
        )
    }

    fn ad(day: &str, campaign: &str, group: &str, id: &str, micros: i64, clicks: i64) -> String {
        format!(
            r#"{{"campaign": {{"id": "{campaign}", "name": "Campaign {campaign}"}},
                "adGroup": {{"id": "{group}", "name": "Group {group}"}},
                "adGroupAd": {{"ad": {{"id": "{id}"}}}},
                "metrics": {{"costMicros": "{micros}", "impressions": "{}", "clicks": "{clicks}"}},
                "segments": {{"date": "{day}"}}}}"#,
            clicks * 10
        )
    }

    fn keyword(
        day: &str,
        campaign: &str,
        group: &str,
        id: &str,
        text: &str,
        micros: i64,
    ) -> String {
        format!(
            r#"{{"campaign": {{"id": "{campaign}"}}, "adGroup": {{"id": "{group}"}},
                "adGroupCriterion": {{"criterionId": "{id}", "keyword": {{"text": "{text}", "matchType": "EXACT"}}}},
                "metrics": {{"costMicros": "{micros}", "impressions": "5", "clicks": "1"}},
                "segments": {{"date": "{day}"}}}}"#
        )
    }

    fn rows(items: &[String]) -> Vec<GoogleAdsRow> {
        parse(&format!("[{}]", items.join(",")))
    }

    #[test]
    fn ad_rows_and_a_remainder_sum_to_each_campaign() {
        // Campaign 1 (search): two ads covering all of its spend.
        // Campaign 2 (Performance Max): no ads at all.
        // Campaign 3: ads covering part of its spend.
        let campaigns = rows(&[
            campaign("2026-11-01", "1", 3_000_000, 200, 20),
            campaign("2026-11-01", "2", 7_500_000, 900, 9),
            campaign("2026-11-02", "3", 10_000_000, 100, 10),
        ]);
        let ads = rows(&[
            ad("2026-11-01", "1", "10", "100", 1_000_000, 5),
            ad("2026-11-01", "1", "10", "101", 2_000_000, 15),
            ad("2026-11-02", "3", "30", "300", 4_000_000, 4),
        ]);
        let keywords = rows(&[keyword(
            "2026-11-01",
            "1",
            "10",
            "555",
            "running shoes",
            2_500_000,
        )]);
        let read = assemble(&days(), "USD", &campaigns, &ads, &keywords).unwrap();
        assert_eq!((read.ad_rows, read.remainder_rows), (3, 2));

        for (day, id, total) in [
            ("2026-11-01", "1", 300),
            ("2026-11-01", "2", 750),
            ("2026-11-02", "3", 1_000),
        ] {
            let sum: i64 = read
                .rows
                .iter()
                .filter(|r| r.day == day && r.campaign_id == id)
                .map(|r| r.spend_cents)
                .sum();
            assert_eq!(sum, total, "campaign {id} on {day}");
        }
        let pmax = read.rows.iter().find(|r| r.campaign_id == "2").unwrap();
        assert_eq!((pmax.ad_group_id.as_str(), pmax.ad_id.as_str()), ("", ""));
        assert_eq!(
            (pmax.spend_cents, pmax.impressions, pmax.clicks),
            (750, 900, 9)
        );
        assert_eq!(pmax.campaign_name.as_deref(), Some("Campaign 2"));
        let rest = read
            .rows
            .iter()
            .find(|r| r.campaign_id == "3" && r.ad_id.is_empty())
            .unwrap();
        assert_eq!(
            (rest.spend_cents, rest.impressions, rest.clicks),
            (600, 60, 6)
        );

        let first = &read.rows[0];
        assert_eq!(
            (
                first.network.as_str(),
                first.channel.as_str(),
                first.currency.as_str()
            ),
            ("google", "paid_google", "USD")
        );
        assert_eq!(
            (
                first.ad_group_id.as_str(),
                first.ad_group_name.as_deref(),
                first.ad_id.as_str()
            ),
            ("10", Some("Group 10"), "100")
        );
        assert!(read.rows.iter().all(|r| r.keyword_id.is_empty()));

        // Keywords are a breakdown, apart from the rows.
        assert_eq!(read.keywords.len(), 1);
        let kw = &read.keywords[0];
        assert_eq!(
            (kw.keyword_id.as_str(), kw.keyword.as_deref()),
            ("555", Some("running shoes"))
        );
        assert_eq!(
            (kw.ad_group_id.as_str(), kw.ad_id.as_str(), kw.spend_cents),
            ("10", "", 250)
        );
    }

    #[test]
    fn rounding_never_makes_a_negative_remainder() {
        // Three ads of 0.5 cent each round up to 3 cents; the campaign's 1.5 cents round to 2.
        let campaigns = rows(&[campaign("2026-11-01", "1", 15_000, 3, 3)]);
        let ads = rows(&[
            ad("2026-11-01", "1", "10", "100", 5_000, 1),
            ad("2026-11-01", "1", "10", "101", 5_000, 1),
            ad("2026-11-01", "1", "10", "102", 5_000, 1),
        ]);
        let read = assemble(&days(), "USD", &campaigns, &ads, &[]).unwrap();
        assert_eq!(read.remainder_rows, 0);
        assert!(
            read.rows
                .iter()
                .all(|r| r.spend_cents >= 0 && r.impressions >= 0)
        );
        // Rounding down, by contrast, leaves a cent that the remainder carries: two ads of
        // 1.4 cents store 1 cent each, the campaign's 2.8 cents round to 3.
        let campaigns = rows(&[campaign("2026-11-01", "1", 28_000, 0, 0)]);
        let ads = rows(&[
            ad("2026-11-01", "1", "10", "100", 14_000, 0),
            ad("2026-11-01", "1", "10", "101", 14_000, 0),
        ]);
        let read = assemble(&days(), "USD", &campaigns, &ads, &[]).unwrap();
        let cents: Vec<(&str, i64)> = read
            .rows
            .iter()
            .map(|r| (r.ad_id.as_str(), r.spend_cents))
            .collect();
        assert_eq!(cents, vec![("100", 1), ("101", 1), ("", 1)]);
    }

    #[test]
    fn repeated_rows_are_summed_and_empty_ones_dropped() {
        let campaigns = rows(&[
            campaign("2026-11-01", "1", 1_000_000, 1, 1),
            campaign("2026-11-01", "1", 1_000_000, 1, 1),
            campaign("2026-11-02", "9", 0, 0, 0),
        ]);
        let read = assemble(&days(), "USD", &campaigns, &[], &[]).unwrap();
        assert_eq!(read.rows.len(), 1);
        assert_eq!((read.rows[0].spend_cents, read.rows[0].clicks), (200, 2));
    }

    #[test]
    fn days_outside_the_read_are_left_out() {
        let campaigns = rows(&[campaign("2026-10-31", "1", 1_000_000, 1, 1)]);
        let read = assemble(&days(), "USD", &campaigns, &[], &[]).unwrap();
        assert!(read.rows.is_empty());
    }

    #[test]
    fn a_row_without_its_ids_is_a_vendor_error() {
        let ads = parse(
            r#"[{"campaign": {"id": "1"}, "segments": {"date": "2026-11-01"},
            "metrics": {"costMicros": "10000"}, "adGroupAd": {"ad": {"id": "3"}}}]"#,
        );
        let err = assemble(&days(), "USD", &[], &ads, &[]).unwrap_err();
        assert!(
            matches!(&err, ConnectorError::Vendor(line) if line.contains("ad_group.id")),
            "{err}"
        );
    }
}
