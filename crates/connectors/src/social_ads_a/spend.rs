//! Insights rows as Payback's spend rows: one per ad and day (Meta attributes all of a
//! campaign's spend to its ads, so ad rows sum to the campaign and nothing is left at campaign
//! grain), on network `meta`, channel `paid_meta` (the kind table's landing), spend converted
//! exactly to cents. Rows of campaigns outside the name filter are left out; a row in another
//! currency than the product's fails the run, as does a row on a day that was not asked for.

use std::collections::BTreeSet;

use payback_domain::connection::ConnectionKind;

use super::campaign_matches;
use super::insights::InsightRow;
use super::money::spend_to_cents;
use crate::ConnectorError;
use crate::batch::{DayRange, SpendRow};

/// What the rows came to.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Assembled {
    pub rows: Vec<SpendRow>,
    /// Rows of campaigns the name filter leaves out.
    pub left_out: usize,
    /// Distinct campaigns among the kept rows.
    pub campaigns: usize,
}

/// Builds the spend rows of `days` (pure, so it is tested without HTTP). `account_currency` is
/// the account's, used for rows that do not name theirs; `product_currency` is what every row
/// must be in.
pub(crate) fn assemble(
    read: Vec<InsightRow>,
    days: &DayRange,
    account_currency: &str,
    product_currency: &str,
    prefixes: &[String],
) -> Result<Assembled, ConnectorError> {
    let landing = ConnectionKind::SocialAdsA.spend().ok_or_else(|| {
        ConnectorError::Config("the kind table gives social_ads_a no spend landing".to_owned())
    })?;
    let mut assembled = Assembled::default();
    let mut keys = BTreeSet::new();
    let mut campaigns = BTreeSet::new();
    for row in read {
        let day = row.date_start.clone().unwrap_or_default();
        let campaign_id = row
            .campaign_id
            .clone()
            .filter(|id| !id.is_empty())
            .ok_or_else(|| {
                ConnectorError::Vendor(format!(
                    "Meta answered an insights row on {day} without a campaign_id"
                ))
            })?;
        if !days.contains(&day) {
            return Err(ConnectorError::Vendor(format!(
                "Meta answered a row of campaign {campaign_id} on {day:?}, outside the days asked \
                 for ({}..{})",
                days.first, days.last
            )));
        }
        let currency = row
            .account_currency
            .as_deref()
            .filter(|code| !code.trim().is_empty())
            .unwrap_or(account_currency)
            .trim()
            .to_ascii_uppercase();
        if !currency.eq_ignore_ascii_case(product_currency.trim()) {
            return Err(ConnectorError::Config(format!(
                "Meta reports campaign {campaign_id}'s spend in {currency}, the product counts in \
                 {}; connect an ad account in the product's currency",
                product_currency.trim().to_ascii_uppercase()
            )));
        }
        let name = row.campaign_name.as_deref().unwrap_or_default();
        if !campaign_matches(name, prefixes) {
            assembled.left_out += 1;
            continue;
        }
        let spend_cents = match row.spend.as_deref() {
            None => 0,
            Some(text) => spend_to_cents(text).map_err(|err| {
                ConnectorError::Vendor(format!("campaign {campaign_id} on {day}: {err}"))
            })?,
        };
        let ad_group_id = row.adset_id.clone().unwrap_or_default();
        let ad_id = row.ad_id.clone().unwrap_or_default();
        if !keys.insert((
            day.clone(),
            campaign_id.clone(),
            ad_group_id.clone(),
            ad_id.clone(),
        )) {
            return Err(ConnectorError::Vendor(format!(
                "Meta answered ad {ad_id} of campaign {campaign_id} on {day} twice"
            )));
        }
        campaigns.insert(campaign_id.clone());
        assembled.rows.push(SpendRow {
            day,
            network: landing.network.to_owned(),
            channel: landing.channel.to_owned(),
            campaign_id,
            campaign_name: non_empty(row.campaign_name),
            ad_group_id,
            ad_group_name: non_empty(row.adset_name),
            keyword_id: String::new(),
            keyword: None,
            ad_id,
            ad_name: non_empty(row.ad_name),
            spend_cents,
            impressions: row.impressions.unwrap_or(0).max(0),
            clicks: row.clicks.unwrap_or(0).max(0),
            currency,
        });
    }
    assembled.campaigns = campaigns.len();
    Ok(assembled)
}

fn non_empty(text: Option<String>) -> Option<String> {
    text.filter(|text| !text.trim().is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn days() -> DayRange {
        DayRange {
            first: "2026-11-14".into(),
            last: "2026-11-21".into(),
        }
    }

    fn row(campaign: &str, name: &str, ad: &str, day: &str, spend: &str) -> InsightRow {
        InsightRow {
            campaign_id: Some(campaign.into()),
            campaign_name: Some(name.into()),
            adset_id: Some(format!("{campaign}0")),
            adset_name: Some("Set".into()),
            ad_id: Some(ad.into()),
            ad_name: Some(format!("Ad {ad}")),
            spend: Some(spend.into()),
            impressions: Some(1_000),
            clicks: Some(12),
            date_start: Some(day.into()),
            account_currency: Some("USD".into()),
        }
    }

    #[test]
    fn rows_land_as_paid_meta_with_exact_cents() {
        let assembled = assemble(
            vec![
                row("11", "Shop - Brand", "111", "2026-11-20", "12.345"),
                row("11", "Shop - Brand", "112", "2026-11-20", "0.004"),
                row("22", "Other", "221", "2026-11-21", "3"),
            ],
            &days(),
            "USD",
            "usd",
            &[],
        )
        .unwrap();
        assert_eq!(assembled.left_out, 0);
        assert_eq!(assembled.campaigns, 2);
        let first = &assembled.rows[0];
        assert_eq!(
            *first,
            SpendRow {
                day: "2026-11-20".into(),
                network: "meta".into(),
                channel: "paid_meta".into(),
                campaign_id: "11".into(),
                campaign_name: Some("Shop - Brand".into()),
                ad_group_id: "110".into(),
                ad_group_name: Some("Set".into()),
                keyword_id: String::new(),
                keyword: None,
                ad_id: "111".into(),
                ad_name: Some("Ad 111".into()),
                spend_cents: 1_235,
                impressions: 1_000,
                clicks: 12,
                currency: "USD".into(),
            }
        );
        let cents: Vec<i64> = assembled.rows.iter().map(|r| r.spend_cents).collect();
        assert_eq!(cents, [1_235, 0, 300]);
    }

    #[test]
    fn the_name_filter_leaves_campaigns_out() {
        let assembled = assemble(
            vec![
                row("11", "  shop - Brand", "111", "2026-11-20", "1"),
                row("22", "Other", "221", "2026-11-20", "2"),
                row("33", "SHOP retargeting", "331", "2026-11-20", "3"),
            ],
            &days(),
            "USD",
            "USD",
            &[" Shop ".to_owned()],
        )
        .unwrap();
        let kept: Vec<&str> = assembled
            .rows
            .iter()
            .map(|r| r.campaign_id.as_str())
            .collect();
        assert_eq!(kept, ["11", "33"]);
        assert_eq!(assembled.left_out, 1);
    }

    #[test]
    fn another_currency_fails_the_run() {
        let mut euro = row("11", "Brand", "111", "2026-11-20", "1");
        euro.account_currency = Some("EUR".into());
        match assemble(vec![euro], &days(), "EUR", "USD", &[]) {
            Err(ConnectorError::Config(line)) => {
                assert!(line.contains("in EUR, the product counts in USD"), "{line}")
            }
            other => panic!("{other:?}"),
        }
        // A row without its own currency is the account's.
        let mut bare = row("11", "Brand", "111", "2026-11-20", "1");
        bare.account_currency = None;
        assert!(matches!(
            assemble(vec![bare], &days(), "GBP", "USD", &[]),
            Err(ConnectorError::Config(_))
        ));
    }

    #[test]
    fn rows_outside_the_days_twice_or_garbled_are_refused() {
        let outside = row("11", "Brand", "111", "2026-11-22", "1");
        assert!(matches!(
            assemble(vec![outside], &days(), "USD", "USD", &[]),
            Err(ConnectorError::Vendor(_))
        ));
        let twice = vec![
            row("11", "Brand", "111", "2026-11-20", "1"),
            row("11", "Brand", "111", "2026-11-20", "2"),
        ];
        assert!(matches!(
            assemble(twice, &days(), "USD", "USD", &[]),
            Err(ConnectorError::Vendor(line)) if line.contains("twice")
        ));
        let garbled = row("11", "Brand", "111", "2026-11-20", "1,50");
        assert!(matches!(
            assemble(vec![garbled], &days(), "USD", "USD", &[]),
            Err(ConnectorError::Vendor(_))
        ));
        let mut nameless = row("", "Brand", "111", "2026-11-20", "1");
        nameless.campaign_id = None;
        assert!(assemble(vec![nameless], &days(), "USD", "USD", &[]).is_err());
    }
}
