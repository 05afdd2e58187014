//! An independent model of what the spend table should hold: a map from (network, ad account,
//! day, campaign, ad group, keyword, ad) to cents, where a read replaces its account's rows of
//! the days it covered. The sync tests compare the database and the reports with sums of it.

use std::collections::BTreeMap;

use payback_testkit::TestApp;

/// One ad's day of spend, as a test declares it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ad {
    pub day: &'static str,
    pub campaign: &'static str,
    pub group: &'static str,
    pub keyword: &'static str,
    pub ad: &'static str,
    pub cents: i64,
}

pub fn ad(day: &'static str, campaign: &'static str, ad: &'static str, cents: i64) -> Ad {
    Ad {
        day,
        campaign,
        group: "",
        keyword: "",
        ad,
        cents,
    }
}

/// `(network, ad account, day, campaign, ad group, keyword, ad)`.
pub type Key = (String, String, String, String, String, String, String);

/// A stored row: its key's seven columns and its cents.
type Stored = (String, String, String, String, String, String, String, i64);

#[derive(Debug, Default)]
pub struct Ledger {
    rows: BTreeMap<Key, i64>,
}

impl Ledger {
    /// What a read of `account`'s days `first..=last` leaves behind.
    pub fn replace(&mut self, network: &str, account: &str, first: &str, last: &str, ads: &[Ad]) {
        self.rows.retain(|(net, acc, day, ..), _| {
            !(net == network && acc == account && first <= day.as_str() && day.as_str() <= last)
        });
        for ad in ads {
            let key = (
                network.to_owned(),
                account.to_owned(),
                ad.day.to_owned(),
                ad.campaign.to_owned(),
                ad.group.to_owned(),
                ad.keyword.to_owned(),
                ad.ad.to_owned(),
            );
            assert!(self.rows.insert(key, ad.cents).is_none(), "{ad:?} twice");
        }
    }

    /// Spend of `network` (every network: `None`) on the days `first..=last`.
    pub fn sum(&self, network: Option<&str>, first: &str, last: &str) -> i64 {
        self.rows
            .iter()
            .filter(|((net, _, day, ..), _)| {
                network.is_none_or(|n| n == net) && first <= day.as_str() && day.as_str() <= last
            })
            .map(|(_, cents)| cents)
            .sum()
    }

    /// Asserts the product's spend rows are exactly the ledger's.
    pub async fn assert_stored(&self, app: &TestApp, product_id: &str) {
        let stored: Vec<Stored> = app
            .sql_rows(
                "SELECT network, ad_account, day, campaign_id, ad_group_id, keyword_id, ad_id, spend_cents \
                 FROM spend_rows WHERE product_id = $1",
                &[product_id.into()],
            )
            .await;
        let stored: BTreeMap<Key, i64> = stored
            .into_iter()
            .map(|(n, a, d, c, g, k, x, cents)| ((n, a, d, c, g, k, x), cents))
            .collect();
        assert_eq!(stored, self.rows);
    }
}
