//! The spend pipeline's rules: what a sync's spend rows must be before they replace an ad
//! account's days. Rows land on the network and channel the kind table gives their kind, on the
//! days the read covered, once each; rows in another currency than the product's are refused and
//! named in the run's detail, never converted or mixed in. A read's keyword rows (a network that
//! reports keywords apart from ads) follow the same rules, name a keyword and no ad, and come
//! with ad rows that carry no keyword id: they are a breakdown of those rows' spend, stored
//! apart (`spend_keyword_rows`) so that nothing counts twice.

use std::collections::{BTreeMap, BTreeSet};

use payback_connectors::{DayRange, SpendRead, SpendRow as ReadRow};
use payback_domain::Timestamp;
use payback_domain::connection::ConnectionKind;
use payback_domain::source_kind::SpendLanding;
use payback_domain::validation::normalize_currency;
use payback_store::Tx;
use payback_store::error::StoreResult;
use payback_store::spend::{self, AccountDays, KeywordRow, SpendRow};

/// One ad account's checked rows, ready to replace its days.
#[derive(Debug)]
pub struct AccountWrite {
    pub ad_account: String,
    pub days: DayRange,
    pub rows: Vec<SpendRow>,
    /// The keyword breakdown of `rows`' spend, replaced with them.
    pub keywords: Vec<KeywordRow>,
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
    for mut read in reads {
        let keywords = std::mem::take(&mut read.keywords);
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
        let keywords = check_keywords(
            &mut intake,
            kind,
            landing,
            (&read.ad_account, &read.days),
            keywords,
            &keys,
        )?;
        intake.accounts.push(AccountWrite {
            ad_account: read.ad_account,
            days: read.days,
            rows,
            keywords,
        });
    }
    Ok(intake)
}

/// The keyword rows of an ad account's read of `days` (whose ad rows were checked into
/// `ad_keys`), checked as its rows are; rows in another currency are counted among the refused.
fn check_keywords(
    intake: &mut SpendIntake,
    kind: ConnectionKind,
    landing: SpendLanding,
    (ad_account, days): (&str, &DayRange),
    keywords: Vec<ReadRow>,
    ad_keys: &BTreeSet<(String, String, String, String, String)>,
) -> Result<Vec<KeywordRow>, String> {
    if keywords.is_empty() {
        return Ok(Vec::new());
    }
    if let Some((day, campaign, ..)) = ad_keys.iter().find(|key| !key.3.is_empty()) {
        return Err(format!(
            "spend: ad account {}, {day} campaign `{campaign}`: an ad row carries a keyword id, \
             yet the read has keyword rows apart (the keywords would count twice)",
            ad_account
        ));
    }
    let mut keys = BTreeSet::new();
    let mut rows = Vec::with_capacity(keywords.len());
    for row in keywords {
        let at = || {
            format!(
                "spend: ad account {}, {} campaign `{}` keyword `{}`",
                ad_account, row.day, row.campaign_id, row.keyword_id
            )
        };
        if !days.contains(&row.day) {
            return Err(format!(
                "{}: the day is outside the days read ({}..{})",
                at(),
                days.first,
                days.last
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
        if row.keyword_id.trim().is_empty() {
            return Err(format!("{}: a keyword row names no keyword", at()));
        }
        if !row.ad_id.is_empty() {
            return Err(format!(
                "{}: a keyword row names an ad (keyword rows are an ad group's keywords; \
                 keyword-by-ad spend belongs in the rows)",
                at()
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
        );
        if !keys.insert(key) {
            return Err(format!(
                "{}: the same keyword appears twice (it would count twice)",
                at()
            ));
        }
        let currency = normalize_currency(row.currency.trim())
            .unwrap_or_else(|_| row.currency.trim().to_owned());
        if !currency.eq_ignore_ascii_case(&intake.product_currency) {
            *intake
                .refused
                .entry((ad_account.to_owned(), currency))
                .or_default() += 1;
            continue;
        }
        rows.push(KeywordRow {
            day: row.day,
            network: row.network,
            channel: row.channel,
            campaign_id: row.campaign_id,
            campaign_name: row.campaign_name,
            ad_group_id: row.ad_group_id,
            ad_group_name: row.ad_group_name,
            keyword_id: row.keyword_id,
            keyword: row.keyword,
            spend_cents: row.spend_cents,
            impressions: row.impressions,
            clicks: row.clicks,
        });
    }
    Ok(rows)
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
            spend::replace_account_days(
                tx,
                product_id,
                kind.as_str(),
                read,
                &account.rows,
                &account.keywords,
                now,
            )
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
                let keywords = match account.keywords.len() {
                    0 => String::new(),
                    n => format!(" (and {n} keyword rows breaking them down)"),
                };
                format!(
                    "spend of ad account {} {}..{}: {} rows, {cents} cents{keywords}",
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
            keywords: Vec::new(),
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

    fn keyword(day: &str, group: &str, keyword: &str, cents: i64, currency: &str) -> ReadRow {
        ReadRow {
            ad_group_id: group.to_owned(),
            keyword_id: keyword.to_owned(),
            keyword: Some(format!("word {keyword}")),
            ..row(day, "c1", cents, currency)
        }
    }

    fn with_keywords(account: &str, rows: Vec<ReadRow>, keywords: Vec<ReadRow>) -> SpendRead {
        SpendRead {
            keywords,
            ..read(account, rows)
        }
    }

    #[test]
    fn keyword_rows_pass_beside_ad_rows_and_are_refused_with_them_by_currency() {
        let ad = |cents, currency| ReadRow {
            ad_group_id: "g1".to_owned(),
            ad_id: "a1".to_owned(),
            ..row("2026-11-20", "c1", cents, currency)
        };
        let intake = check(
            ConnectionKind::SocialAdsA,
            "USD",
            vec![
                with_keywords(
                    "act_1",
                    vec![ad(1_000, "USD")],
                    vec![
                        keyword("2026-11-20", "g1", "k1", 600, "USD"),
                        keyword("2026-11-20", "g1", "k2", 300, "usd"),
                    ],
                ),
                with_keywords(
                    "act_2",
                    vec![ad(900, "EUR")],
                    vec![keyword("2026-11-20", "g1", "k1", 900, "EUR")],
                ),
            ],
        )
        .unwrap();
        let kept = &intake.accounts[0];
        assert_eq!((kept.rows.len(), kept.keywords.len()), (1, 2));
        assert_eq!(kept.keywords[1].keyword.as_deref(), Some("word k2"));
        assert!(intake.accounts[1].rows.is_empty() && intake.accounts[1].keywords.is_empty());
        let lines = intake.describe();
        assert_eq!(
            lines[0],
            "spend of ad account act_1 2026-11-15..2026-11-21: 1 rows, 1000 cents \
             (and 2 keyword rows breaking them down)"
        );
        assert!(
            lines[2].contains("refused 2 spend rows of ad account act_2 in EUR"),
            "{lines:?}"
        );
    }

    #[test]
    fn broken_keyword_rows_fail_the_run_naming_the_rule() {
        let ad = |keyword: &str| ReadRow {
            keyword_id: keyword.to_owned(),
            ..row("2026-11-20", "c1", 1_000, "USD")
        };
        let other_network = ReadRow {
            network: "google".to_owned(),
            ..keyword("2026-11-20", "g1", "k1", 1, "USD")
        };
        let of_an_ad = ReadRow {
            ad_id: "a1".to_owned(),
            ..keyword("2026-11-20", "g1", "k1", 1, "USD")
        };
        let cases = [
            (
                vec![ad("k9")],
                vec![keyword("2026-11-20", "g1", "k1", 1, "USD")],
                "an ad row carries a keyword id",
            ),
            (
                vec![ad("")],
                vec![keyword("2026-11-14", "g1", "k1", 1, "USD")],
                "outside the days read",
            ),
            (vec![ad("")], vec![other_network], "meta/paid_meta"),
            (
                vec![ad("")],
                vec![keyword("2026-11-20", "g1", " ", 1, "USD")],
                "names no keyword",
            ),
            (vec![ad("")], vec![of_an_ad], "names an ad"),
            (
                vec![ad("")],
                vec![keyword("2026-11-20", "g1", "k1", -1, "USD")],
                "negative",
            ),
            (
                vec![ad("")],
                vec![
                    keyword("2026-11-20", "g1", "k1", 1, "USD"),
                    keyword("2026-11-20", "g1", "k1", 2, "USD"),
                ],
                "the same keyword appears twice",
            ),
        ];
        for (rows, keywords, expected) in cases {
            let reads = vec![with_keywords("a", rows, keywords)];
            let err = check(ConnectionKind::SocialAdsA, "USD", reads).unwrap_err();
            assert!(err.contains(expected), "{err} lacks {expected}");
        }
    }
}
