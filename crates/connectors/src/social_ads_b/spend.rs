//! LinkedIn spend as Payback's spend rows, summing exactly to each campaign's spend.
//!
//! The account's campaigns (`structure`: names, and the ids analytics falls back to), two
//! analytics reads over the same days, the CREATIVE pivot (each creative's share) and the
//! CAMPAIGN pivot (each campaign's total), then the creatives of the campaigns with activity
//! (each creative's campaign and name). Stored rows are:
//! - one row per creative and day: `campaign_id`/`campaign_name` of its campaign,
//!   `ad_id`/`ad_name` of the creative;
//! - per campaign and day, a remainder row at campaign grain (empty `ad_id`) holding what the
//!   campaign spent beyond its creative rows, only when there is some: spend of creatives the
//!   finder no longer lists, of a day whose creative answer reached LinkedIn's cap, or cents
//!   lost to rounding. So a campaign's rows sum exactly to its spend in cents.
//!
//! Campaign groups are not stored: a group sits *above* campaigns (budgets and schedules for
//! several), so it is not an ad group (a level between campaign and ad), and putting it in
//! `ad_group_id` would invent a level Payback then reports on. `ad_group_id` stays empty.
//!
//! Cost becomes cents per row, exactly (see `money`). The campaign pivot is each campaign's
//! total; the creative pivot is read first, so near-real-time spend can only have grown by the
//! time the campaign pivot is read. Should the creative rows of a campaign still exceed its
//! total (rounding, or LinkedIn's own arithmetic), the excess is taken off its largest creative
//! rows, so the rows never sum past the campaign. A campaign with creative rows but no campaign
//! row of its own (which LinkedIn should not answer) totals its creative rows.

use std::collections::{BTreeMap, BTreeSet};

use payback_domain::connection::ConnectionKind;
use rust_decimal::Decimal;
use time::Date;

use super::analytics::{self, Pivot};
use super::client::LinkedInClient;
use super::days::{Span, text};
use super::money;
use super::structure::{self, Structure};
use super::urn::{self, CAMPAIGN, CREATIVE};
use super::wire::AnalyticsElement;
use crate::ConnectorError;
use crate::batch::SpendRow;

/// What one read came to.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct SpendRows {
    /// Creative rows, then campaign remainders, by day and campaign.
    pub rows: Vec<SpendRow>,
    pub creative_rows: usize,
    pub remainder_rows: usize,
    /// Creatives with activity that the creatives finder did not list (their spend is in their
    /// campaign's remainder).
    pub unlisted_creatives: usize,
    /// Days whose creative answer reached LinkedIn's cap.
    pub capped_days: usize,
    /// `adAnalytics` requests made.
    pub requests: usize,
}

/// Reads the account's spend over `span` and assembles the rows; `cap` is the most elements an
/// analytics answer holds.
pub(crate) async fn read(
    client: &LinkedInClient,
    account_id: &str,
    span: Span,
    currency: &str,
    cap: usize,
) -> Result<SpendRows, ConnectorError> {
    let campaigns = structure::campaigns(client, account_id).await?;
    let campaign_ids = structure::campaign_ids(&campaigns);
    // Creatives first: see the module doc.
    let creative_read = analytics::read(
        client,
        account_id,
        Pivot::Creative,
        span,
        cap,
        &campaign_ids,
    )
    .await?;
    let campaign_read = analytics::read(
        client,
        account_id,
        Pivot::Campaign,
        span,
        cap,
        &campaign_ids,
    )
    .await?;
    if let Some(day) = campaign_read.capped_days.first() {
        // Asked by campaign, fewer campaigns than the cap: only a broken answer gets here.
        return Err(ConnectorError::Vendor(format!(
            "LinkedIn answered {cap} or more campaign analytics elements for {} even campaign by \
             campaign; campaign totals may be incomplete",
            text(*day)
        )));
    }
    let active: BTreeSet<String> = campaign_read
        .elements
        .iter()
        .filter_map(|element| pivot_id(element, CAMPAIGN))
        .collect();
    let creatives = if active.is_empty() {
        Vec::new()
    } else {
        structure::creatives(client, account_id, &active).await?
    };
    let structure = structure::assemble(campaigns, creatives);
    let mut read = assemble(
        span,
        currency,
        &campaign_read.elements,
        &creative_read.elements,
        &structure,
    )?;
    read.capped_days = creative_read.capped_days.len();
    read.requests = creative_read.requests + campaign_read.requests;
    Ok(read)
}

/// Spend, impressions and clicks of one pivot value on one day.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Measure {
    cost: Decimal,
    impressions: i64,
    clicks: i64,
}

impl Measure {
    fn of(element: &AnalyticsElement) -> Result<Self, ConnectorError> {
        let cost = match &element.cost_in_local_currency {
            Some(amount) => money::amount(&amount.text())?,
            None => Decimal::ZERO,
        };
        if cost.is_sign_negative() && !cost.is_zero() {
            return Err(ConnectorError::Vendor(format!(
                "LinkedIn answered a negative costInLocalCurrency ({cost})"
            )));
        }
        Ok(Self {
            cost,
            impressions: element.impressions.unwrap_or(0).max(0),
            clicks: element.clicks.unwrap_or(0).max(0),
        })
    }

    fn add(&mut self, other: Measure) {
        self.cost += other.cost;
        self.impressions = self.impressions.saturating_add(other.impressions);
        self.clicks = self.clicks.saturating_add(other.clicks);
    }
}

/// One stored row's amounts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Stored {
    cents: i64,
    impressions: i64,
    clicks: i64,
}

impl Stored {
    fn is_zero(self) -> bool {
        self == Stored::default()
    }
}

/// Builds the rows of `span` from the two reads (pure, so it is tested without HTTP).
pub(crate) fn assemble(
    span: Span,
    currency: &str,
    campaign_elements: &[AnalyticsElement],
    creative_elements: &[AnalyticsElement],
    structure: &Structure,
) -> Result<SpendRows, ConnectorError> {
    let landing = ConnectionKind::SocialAdsB.spend().ok_or_else(|| {
        ConnectorError::Config("the kind table gives social_ads_b no spend landing".to_owned())
    })?;
    let campaign_totals = totals(span, campaign_elements, CAMPAIGN)?;
    let creative_totals = totals(span, creative_elements, CREATIVE)?;

    // Each campaign-day's creatives, in creative id order.
    let mut by_campaign: BTreeMap<(Date, String), Vec<(String, Measure)>> = BTreeMap::new();
    let mut unlisted: BTreeSet<String> = BTreeSet::new();
    for ((day, creative_id), measure) in creative_totals {
        match structure.creatives.get(&creative_id) {
            Some(info) => by_campaign
                .entry((day, info.campaign_id.clone()))
                .or_default()
                .push((creative_id, measure)),
            None => {
                unlisted.insert(creative_id);
            }
        }
    }
    if !unlisted.is_empty() {
        tracing::warn!(
            creatives = unlisted.len(),
            "linkedin creatives with activity were not listed by the creatives finder; their \
             spend is kept in campaign remainder rows"
        );
    }

    let keys: BTreeSet<(Date, String)> = campaign_totals
        .keys()
        .chain(by_campaign.keys())
        .cloned()
        .collect();
    let row = |day: Date, campaign_id: &str, stored: Stored| SpendRow {
        day: text(day),
        network: landing.network.to_owned(),
        channel: landing.channel.to_owned(),
        campaign_id: campaign_id.to_owned(),
        campaign_name: structure.campaign_names.get(campaign_id).cloned(),
        spend_cents: stored.cents,
        impressions: stored.impressions,
        clicks: stored.clicks,
        currency: currency.to_owned(),
        ..SpendRow::default()
    };

    let mut creative_rows = Vec::new();
    let mut remainder_rows = Vec::new();
    for (day, campaign_id) in keys {
        let creatives = by_campaign
            .remove(&(day, campaign_id.clone()))
            .unwrap_or_default();
        let mut stored: Vec<Stored> = creatives
            .iter()
            .map(|(_, measure)| {
                Ok(Stored {
                    cents: money::to_cents(measure.cost)?,
                    impressions: measure.impressions,
                    clicks: measure.clicks,
                })
            })
            .collect::<Result<_, ConnectorError>>()?;
        let creative_cents: i64 = stored.iter().map(|s| s.cents).sum();
        let campaign = campaign_totals.get(&(day, campaign_id.clone()));
        let total_cents = match campaign {
            Some(measure) => money::to_cents(measure.cost)?,
            None => {
                tracing::warn!(
                    day = %text(day),
                    campaign = %campaign_id,
                    "linkedin answered creative activity for a campaign without a campaign row"
                );
                creative_cents
            }
        };
        if creative_cents > total_cents {
            trim(&mut stored, creative_cents - total_cents);
        }
        for ((creative_id, _), amounts) in creatives.iter().zip(&stored) {
            if amounts.is_zero() {
                continue;
            }
            let info = structure.creatives.get(creative_id);
            let mut stored_row = row(day, &campaign_id, *amounts);
            stored_row.ad_id = creative_id.clone();
            stored_row.ad_name = info.and_then(|info| info.name.clone());
            creative_rows.push(stored_row);
        }
        if let Some(campaign) = campaign {
            let rest = Stored {
                cents: total_cents - stored.iter().map(|s| s.cents).sum::<i64>(),
                impressions: (campaign.impressions
                    - stored.iter().map(|s| s.impressions).sum::<i64>())
                .max(0),
                clicks: (campaign.clicks - stored.iter().map(|s| s.clicks).sum::<i64>()).max(0),
            };
            if !rest.is_zero() {
                remainder_rows.push(row(day, &campaign_id, rest));
            }
        }
    }

    let creative_count = creative_rows.len();
    let remainder_count = remainder_rows.len();
    let mut rows = creative_rows;
    rows.extend(remainder_rows);
    Ok(SpendRows {
        rows,
        creative_rows: creative_count,
        remainder_rows: remainder_count,
        unlisted_creatives: unlisted.len(),
        ..SpendRows::default()
    })
}

/// Takes `excess` cents off the largest rows first (ties: the earlier row), never below zero.
fn trim(stored: &mut [Stored], mut excess: i64) {
    let mut order: Vec<usize> = (0..stored.len()).collect();
    order.sort_by(|a, b| stored[*b].cents.cmp(&stored[*a].cents).then(a.cmp(b)));
    for index in order {
        if excess <= 0 {
            break;
        }
        let taken = stored[index].cents.min(excess);
        stored[index].cents -= taken;
        excess -= taken;
    }
}

/// The plain id of an element's pivot value of `kind`.
fn pivot_id(element: &AnalyticsElement, kind: &str) -> Option<String> {
    element
        .pivot_values
        .first()
        .and_then(|value| urn::plain_id(kind, value))
}

/// Each (day, pivot id)'s measure summed over the elements naming it, days outside `span` left
/// out.
fn totals(
    span: Span,
    elements: &[AnalyticsElement],
    kind: &str,
) -> Result<BTreeMap<(Date, String), Measure>, ConnectorError> {
    let mut totals: BTreeMap<(Date, String), Measure> = BTreeMap::new();
    for element in elements {
        let day = element
            .date_range
            .and_then(|range| range.start)
            .and_then(|start| {
                let month = time::Month::try_from(start.month).ok()?;
                Date::from_calendar_date(start.year, month, start.day).ok()
            })
            .ok_or_else(|| {
                ConnectorError::Vendor(format!(
                    "LinkedIn answered a {kind} analytics element without a valid dateRange.start"
                ))
            })?;
        if !span.contains(day) {
            tracing::warn!(day = %text(day), "linkedin answered a day outside the days asked; left out");
            continue;
        }
        let id = pivot_id(element, kind).ok_or_else(|| {
            ConnectorError::Vendor(format!(
                "LinkedIn answered an analytics element whose pivotValues name no {kind}: {:?}",
                element.pivot_values
            ))
        })?;
        totals
            .entry((day, id))
            .or_default()
            .add(Measure::of(element)?);
    }
    Ok(totals)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::super::days::parse;
    use super::super::structure::CreativeInfo;
    use super::*;

    fn span() -> Span {
        Span {
            first: parse("2026-11-01").unwrap(),
            last: parse("2026-11-02").unwrap(),
        }
    }

    fn element(kind: &str, id: &str, day: u8, cost: &str, impressions: i64, clicks: i64) -> String {
        format!(
            r#"{{"pivotValues": ["urn:li:{kind}:{id}"], "costInLocalCurrency": "{cost}",
                "impressions": {impressions}, "clicks": {clicks},
                "dateRange": {{"start": {{"year": 2026, "month": 11, "day": {day}}},
                               "end": {{"year": 2026, "month": 11, "day": {day}}}}}}}"#
        )
    }

    fn campaign(id: &str, day: u8, cost: &str, impressions: i64, clicks: i64) -> String {
        element(CAMPAIGN, id, day, cost, impressions, clicks)
    }

    fn creative(id: &str, day: u8, cost: &str, impressions: i64, clicks: i64) -> String {
        element(CREATIVE, id, day, cost, impressions, clicks)
    }

    fn parse_elements(items: &[String]) -> Vec<AnalyticsElement> {
        serde_json::from_str(&format!("[{}]", items.join(","))).unwrap()
    }

    fn structure(creatives: &[(&str, &str, Option<&str>)]) -> Structure {
        Structure {
            campaign_names: HashMap::from([
                ("10".to_owned(), "Spring launch".to_owned()),
                ("20".to_owned(), "Webinar".to_owned()),
            ]),
            creatives: creatives
                .iter()
                .map(|(id, campaign, name)| {
                    (
                        (*id).to_owned(),
                        CreativeInfo {
                            campaign_id: (*campaign).to_owned(),
                            name: name.map(str::to_owned),
                        },
                    )
                })
                .collect(),
        }
    }

    fn sum_of(rows: &[SpendRow], day: &str, campaign: &str) -> i64 {
        rows.iter()
            .filter(|r| r.day == day && r.campaign_id == campaign)
            .map(|r| r.spend_cents)
            .sum()
    }

    #[test]
    fn creative_rows_and_a_remainder_sum_to_each_campaign() {
        // Campaign 10 on the 1st: two creatives covering all of it.
        // Campaign 10 on the 2nd: one creative covering part of it.
        // Campaign 20 on the 1st: its creative is not listed by the finder.
        let campaigns = parse_elements(&[
            campaign("10", 1, "30.00", 300, 30),
            campaign("10", 2, "100.005", 1_000, 10),
            campaign("20", 1, "7.50", 90, 9),
        ]);
        let creatives = parse_elements(&[
            creative("1001", 1, "10.00", 100, 5),
            creative("1002", 1, "20.00", 200, 25),
            creative("1001", 2, "40.004", 400, 4),
            creative("2001", 1, "7.50", 90, 9),
        ]);
        let structure = structure(&[("1001", "10", Some("Hero video")), ("1002", "10", None)]);
        let read = assemble(span(), "USD", &campaigns, &creatives, &structure).unwrap();
        assert_eq!((read.creative_rows, read.remainder_rows), (3, 2));
        assert_eq!(read.unlisted_creatives, 1);

        assert_eq!(sum_of(&read.rows, "2026-11-01", "10"), 3_000);
        assert_eq!(sum_of(&read.rows, "2026-11-02", "10"), 10_001);
        assert_eq!(sum_of(&read.rows, "2026-11-01", "20"), 750);

        let hero = &read.rows[0];
        assert_eq!(
            (
                hero.day.as_str(),
                hero.network.as_str(),
                hero.channel.as_str(),
                hero.currency.as_str()
            ),
            ("2026-11-01", "linkedin", "paid_linkedin", "USD")
        );
        assert_eq!(
            (
                hero.campaign_id.as_str(),
                hero.campaign_name.as_deref(),
                hero.ad_id.as_str(),
                hero.ad_name.as_deref()
            ),
            ("10", Some("Spring launch"), "1001", Some("Hero video"))
        );
        assert_eq!(
            (hero.spend_cents, hero.impressions, hero.clicks),
            (1_000, 100, 5)
        );
        assert!(
            read.rows
                .iter()
                .all(|r| r.ad_group_id.is_empty() && r.keyword_id.is_empty())
        );
        // An unnamed creative keeps no name.
        assert_eq!(read.rows[1].ad_id, "1002");
        assert_eq!(read.rows[1].ad_name, None);

        // The 2nd: 100.005 -> 10,001 cents; the creative's 40.004 -> 4,000; the rest 6,001.
        let rest = read
            .rows
            .iter()
            .find(|r| r.day == "2026-11-02" && r.ad_id.is_empty())
            .unwrap();
        assert_eq!(
            (rest.spend_cents, rest.impressions, rest.clicks),
            (6_001, 600, 6)
        );
        assert_eq!(rest.campaign_name.as_deref(), Some("Spring launch"));
        // The unlisted creative's spend stays with its campaign, at campaign grain.
        let webinar: Vec<&SpendRow> = read.rows.iter().filter(|r| r.campaign_id == "20").collect();
        assert_eq!(webinar.len(), 1);
        assert_eq!(
            (
                webinar[0].ad_id.as_str(),
                webinar[0].campaign_name.as_deref(),
                webinar[0].spend_cents
            ),
            ("", Some("Webinar"), 750)
        );
    }

    #[test]
    fn rounding_never_pushes_creatives_past_their_campaign() {
        // Three creatives of half a cent each round to 1 cent apiece (3), while the campaign's
        // 1.5 cents round to 2: a cent comes off the first largest creative row.
        let campaigns = parse_elements(&[campaign("10", 1, "0.015", 3, 0)]);
        let creatives = parse_elements(&[
            creative("1", 1, "0.005", 1, 0),
            creative("2", 1, "0.005", 1, 0),
            creative("3", 1, "0.005", 1, 0),
        ]);
        let structure = structure(&[("1", "10", None), ("2", "10", None), ("3", "10", None)]);
        let read = assemble(span(), "EUR", &campaigns, &creatives, &structure).unwrap();
        assert_eq!(sum_of(&read.rows, "2026-11-01", "10"), 2);
        let cents: Vec<(&str, i64)> = read
            .rows
            .iter()
            .map(|r| (r.ad_id.as_str(), r.spend_cents))
            .collect();
        assert_eq!(cents, vec![("1", 0), ("2", 1), ("3", 1)]);
        assert_eq!(read.remainder_rows, 0);
    }

    #[test]
    fn trimming_takes_from_the_largest_rows_first() {
        let mut stored = vec![
            Stored {
                cents: 5,
                ..Stored::default()
            },
            Stored {
                cents: 9,
                ..Stored::default()
            },
            Stored {
                cents: 9,
                ..Stored::default()
            },
        ];
        trim(&mut stored, 12);
        assert_eq!(
            stored.iter().map(|s| s.cents).collect::<Vec<_>>(),
            vec![5, 0, 6]
        );
        trim(&mut stored, 100);
        assert!(stored.iter().all(|s| s.cents == 0));
    }

    #[test]
    fn a_creative_without_its_campaign_row_totals_its_creatives() {
        let creatives = parse_elements(&[creative("1", 2, "3.333", 10, 1)]);
        let structure = structure(&[("1", "10", None)]);
        let read = assemble(span(), "USD", &[], &creatives, &structure).unwrap();
        assert_eq!(read.rows.len(), 1);
        assert_eq!(
            (read.rows[0].ad_id.as_str(), read.rows[0].spend_cents),
            ("1", 333)
        );
        assert_eq!(read.remainder_rows, 0);
    }

    #[test]
    fn zero_rows_are_not_stored_and_days_outside_are_left_out() {
        let campaigns = parse_elements(&[
            campaign("10", 1, "0", 0, 0),
            campaign("10", 3, "5.00", 5, 5),
        ]);
        let creatives = parse_elements(&[creative("1", 1, "0.0", 0, 0)]);
        let structure = structure(&[("1", "10", None)]);
        let read = assemble(span(), "USD", &campaigns, &creatives, &structure).unwrap();
        assert!(read.rows.is_empty(), "{:?}", read.rows);
    }

    #[test]
    fn impressions_only_activity_is_kept() {
        let campaigns = parse_elements(&[campaign("10", 1, "0", 50, 0)]);
        let read = assemble(span(), "USD", &campaigns, &[], &structure(&[])).unwrap();
        assert_eq!(read.rows.len(), 1);
        assert_eq!(
            (read.rows[0].spend_cents, read.rows[0].impressions),
            (0, 50)
        );
    }

    #[test]
    fn malformed_elements_are_vendor_errors() {
        let no_date: Vec<AnalyticsElement> = serde_json::from_str(
            r#"[{"pivotValues": ["urn:li:sponsoredCampaign:10"], "costInLocalCurrency": "1"}]"#,
        )
        .unwrap();
        assert!(matches!(
            assemble(span(), "USD", &no_date, &[], &structure(&[])),
            Err(ConnectorError::Vendor(_))
        ));
        let wrong_pivot = parse_elements(&[creative("1", 1, "1", 1, 1)]);
        assert!(matches!(
            assemble(span(), "USD", &wrong_pivot, &[], &structure(&[])),
            Err(ConnectorError::Vendor(_))
        ));
        let negative = parse_elements(&[campaign("10", 1, "-1.00", 1, 1)]);
        assert!(matches!(
            assemble(span(), "USD", &negative, &[], &structure(&[])),
            Err(ConnectorError::Vendor(_))
        ));
        let garbage = parse_elements(&[campaign("10", 1, "ten", 1, 1)]);
        assert!(matches!(
            assemble(span(), "USD", &garbage, &[], &structure(&[])),
            Err(ConnectorError::Vendor(_))
        ));
    }

    #[test]
    fn repeated_elements_are_summed_before_rounding() {
        let campaigns = parse_elements(&[
            campaign("10", 1, "0.004", 1, 0),
            campaign("10", 1, "0.004", 1, 0),
        ]);
        let read = assemble(span(), "USD", &campaigns, &[], &structure(&[])).unwrap();
        assert_eq!(read.rows.len(), 1);
        assert_eq!((read.rows[0].spend_cents, read.rows[0].impressions), (1, 2));
    }
}
