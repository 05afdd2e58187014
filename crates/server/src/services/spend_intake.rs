//! The spend pipeline's rules: what a sync's spend rows must be before they replace an ad
//! account's days. Rows land on the network and channel the kind table gives their kind, on the
//! days the read covered, once each; rows in another currency than the product's are refused and
//! named in the run's detail, never converted or mixed in.

use std::collections::{BTreeMap, BTreeSet};

use payback_connectors::{DayRange, SpendRead};
use payback_domain::Timestamp;
use payback_domain::connection::ConnectionKind;
use payback_domain::validation::normalize_currency;
use payback_store::Tx;
use payback_store::error::StoreResult;
use payback_store::spend::{self, AccountDays, SpendRow};

/// One ad account's checked rows, ready to replace its days.
#[derive(Debug)]
pub struct AccountWrite {
    pub ad_account: String,
    pub days: DayRange,
    pub rows: Vec<SpendRow>,
}

/// What a batch's spend comes to once checked.
#[derive(Debug, Default)]
pub struct SpendIntake {
    network: &'static str,
    accounts: Vec<AccountWrite>,
    /// (ad account, currency) -> rows refused for not being in the product's currency.
    refused: BTreeMap<(String, String), usize>,
    product_currency: String,
}

/// Checks `reads` of a `kind` run for a product in `product_currency`. A read that breaks a
/// rule fails the whole run (naming the rule), before anything is written.
pub fn check(
    kind: ConnectionKind,
    product_currency: &str,
    reads: Vec<SpendRead>,
) -> Result<SpendIntake, String> {
    if reads.is_empty() {
        return Ok(SpendIntake::default());
    }
    let landing = kind
        .spend()
        .ok_or_else(|| format!("spend: {kind} is not an ad network, yet its read has spend"))?;
    let mut intake = SpendIntake {
        network: landing.network,
        product_currency: product_currency.to_owned(),
        ..SpendIntake::default()
    };
    let mut accounts = BTreeSet::new();
    for read in reads {
        if read.ad_account.trim().is_empty() {
            return Err("spend: a read names no ad account".to_owned());
        }
        if !accounts.insert(read.ad_account.clone()) {
            return Err(format!(
                "spend: ad account {} was read twice in one run",
                read.ad_account
            ));
        }
        check_days(&read.days)
            .map_err(|err| format!("spend: ad account {}: {err}", read.ad_account))?;
        let mut keys = BTreeSet::new();
        let mut rows = Vec::with_capacity(read.rows.len());
        for row in read.rows {
            let at = || {
                format!(
                    "spend: ad account {}, {} campaign `{}`",
                    read.ad_account, row.day, row.campaign_id
                )
            };
            if !read.days.contains(&row.day) {
                return Err(format!(
                    "{}: the day is outside the days read ({}..{})",
                    at(),
                    read.days.first,
                    read.days.last
                ));
            }
            if row.network != landing.network || row.channel != landing.channel {
                return Err(format!(
                    "{}: lands on {}/{}, but {kind} spend lands on {}/{}",
                    at(),
                    row.network,
                    row.channel,
                    landing.network,
                    landing.channel
                ));
            }
            if row.spend_cents < 0 || row.impressions < 0 || row.clicks < 0 {
                return Err(format!("{}: negative spend, impressions or clicks", at()));
            }
            let key = (
                row.day.clone(),
                row.campaign_id.clone(),
                row.ad_group_id.clone(),
                row.keyword_id.clone(),
                row.ad_id.clone(),
            );
            if !keys.insert(key) {
                return Err(format!(
                    "{}: the same ad grain appears twice (it would count twice)",
                    at()
                ));
            }
            let currency = normalize_currency(row.currency.trim())
                .unwrap_or_else(|_| row.currency.trim().to_owned());
            if !currency.eq_ignore_ascii_case(product_currency) {
                *intake
                    .refused
                    .entry((read.ad_account.clone(), currency))
                    .or_default() += 1;
                continue;
            }
            rows.push(SpendRow {
                day: row.day,
                network: row.network,
                channel: row.channel,
                campaign_id: row.campaign_id,
                campaign_name: row.campaign_name,
                ad_group_id: row.ad_group_id,
                ad_group_name: row.ad_group_name,
                keyword_id: row.keyword_id,
                keyword: row.keyword,
                ad_id: row.ad_id,
                ad_name: row.ad_name,
                spend_cents: row.spend_cents,
                impressions: row.impressions,
                clicks: row.clicks,
            });
        }
        intake.accounts.push(AccountWrite {
            ad_account: read.ad_account,
            days: read.days,
            rows,
        });
    }
    Ok(intake)
}

/// `first..last` must be real days in order.
pub fn check_days(days: &DayRange) -> Result<(), String> {
    let first = Timestamp::parse_day(&days.first);
    let last = Timestamp::parse_day(&days.last);
    match (first, last) {
        (Some(first), Some(last)) if first.millis() <= last.millis() => Ok(()),
        _ => Err(format!(
            "the days read ({}..{}) are not two days in order",
            days.first, days.last
        )),
    }
}

impl SpendIntake {
    /// True when the batch had no spend: there is nothing to replace.
    pub fn is_empty(&self) -> bool {
        self.accounts.is_empty()
    }

    /// Replaces each account's days with its rows, inside `tx` (the caller commits once).
    pub async fn write(
        &self,
        tx: &mut Tx,
        product_id: &str,
        kind: ConnectionKind,
        now: Timestamp,
    ) -> StoreResult<()> {
        for account in &self.accounts {
            let read = AccountDays {
                network: self.network,
                ad_account: &account.ad_account,
                first_day: &account.days.first,
                last_day: &account.days.last,
            };
            spend::replace_account_days(tx, product_id, kind.as_str(), read, &account.rows, now)
                .await?;
        }
        Ok(())
    }

    /// The run's detail about spend: what each account's days now hold, and every refusal by
    /// currency. Empty when the batch had no spend.
    pub fn describe(&self) -> Vec<String> {
        let mut lines: Vec<String> = self
            .accounts
            .iter()
            .map(|account| {
                let cents: i64 = account.rows.iter().map(|row| row.spend_cents).sum();
                format!(
                    "spend of ad account {} {}..{}: {} rows, {cents} cents",
                    account.ad_account,
                    account.days.first,
                    account.days.last,
                    account.rows.len()
                )
            })
            .collect();
        for ((account, currency), rows) in &self.refused {
            lines.push(format!(
                "refused {rows} spend rows of ad account {account} in {currency}: the product's currency is {}, and spend is never converted",
                self.product_currency
            ));
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use payback_connectors::SpendRow as ReadRow;

    use super::*;

    fn days() -> DayRange {
        DayRange {
            first: "2026-11-15".to_owned(),
            last: "2026-11-21".to_owned(),
        }
    }

    fn row(day: &str, campaign: &str, cents: i64, currency: &str) -> ReadRow {
        ReadRow {
            day: day.to_owned(),
            network: "meta".to_owned(),
            channel: "paid_meta".to_owned(),
            campaign_id: campaign.to_owned(),
            spend_cents: cents,
            currency: currency.to_owned(),
            ..ReadRow::default()
        }
    }

    fn read(account: &str, rows: Vec<ReadRow>) -> SpendRead {
        SpendRead {
            ad_account: account.to_owned(),
            days: days(),
            rows,
        }
    }

    #[test]
    fn rows_in_the_products_currency_pass_and_others_are_refused_by_name() {
        let intake = check(
            ConnectionKind::SocialAdsA,
            "USD",
            vec![
                read(
                    "act_1",
                    vec![
                        row("2026-11-20", "c1", 1_000, "usd"),
                        row("2026-11-21", "c1", 500, "USD"),
                    ],
                ),
                read("act_2", vec![row("2026-11-20", "c9", 700, "EUR")]),
            ],
        )
        .unwrap();
        assert_eq!(intake.accounts.len(), 2);
        assert_eq!(intake.accounts[0].rows.len(), 2);
        // An account whose every row was refused still replaces its days with nothing.
        assert!(intake.accounts[1].rows.is_empty());
        let lines = intake.describe();
        assert_eq!(
            lines[0],
            "spend of ad account act_1 2026-11-15..2026-11-21: 2 rows, 1500 cents"
        );
        assert!(
            lines[2].contains("refused 1 spend rows of ad account act_2 in EUR")
                && lines[2].contains("currency is USD"),
            "{lines:?}"
        );
    }

    #[test]
    fn broken_reads_fail_the_run_naming_the_rule() {
        let cases = [
            (
                ConnectionKind::Payments,
                vec![read("a", vec![row("2026-11-20", "c", 1, "USD")])],
                "not an ad network",
            ),
            (
                ConnectionKind::SocialAdsA,
                vec![read(" ", vec![])],
                "no ad account",
            ),
            (
                ConnectionKind::SocialAdsA,
                vec![read("a", vec![]), read("a", vec![])],
                "read twice",
            ),
            (
                ConnectionKind::SocialAdsA,
                vec![read("a", vec![row("2026-11-14", "c", 1, "USD")])],
                "outside the days read",
            ),
            (
                ConnectionKind::SearchAds,
                vec![read("a", vec![row("2026-11-20", "c", 1, "USD")])],
                "google/paid_google",
            ),
            (
                ConnectionKind::SocialAdsA,
                vec![read("a", vec![row("2026-11-20", "c", -1, "USD")])],
                "negative",
            ),
            (
                ConnectionKind::SocialAdsA,
                vec![read(
                    "a",
                    vec![
                        row("2026-11-20", "c", 1, "USD"),
                        row("2026-11-20", "c", 2, "USD"),
                    ],
                )],
                "appears twice",
            ),
        ];
        for (kind, reads, expected) in cases {
            let err = check(kind, "USD", reads).unwrap_err();
            assert!(err.contains(expected), "{err} lacks {expected}");
        }
        let mut backwards = read("a", vec![]);
        backwards.days = DayRange {
            first: "2026-11-21".to_owned(),
            last: "2026-11-15".to_owned(),
        };
        let err = check(ConnectionKind::SocialAdsA, "USD", vec![backwards]).unwrap_err();
        assert!(err.contains("not two days in order"), "{err}");
    }
}
