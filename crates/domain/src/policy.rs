//! The policy engine: what a spend change may be, checked when a proposal is raised (a refusal
//! is a 422 with a `policy_code`, and no card) and again when a human approves it (a refusal is a
//! 403 and the card stays pending). Pure: the caller reads the policy and commitments.

use crate::money::format_cents;
use crate::roles::wire_enum;

/// The largest daily amount (cents) a cap, ceiling or proposal may name: a billion units, far
/// above any real daily budget and far below where sums of them could overflow.
pub const MAX_DAILY_CENTS: i64 = 100_000_000_000;

wire_enum! {
    /// The ad networks a spend proposal may change.
    Network { Meta => "meta", Google => "google" }
}

impl Network {
    /// The channel this network's spend lands in.
    pub fn channel(self) -> &'static str {
        match self {
            Network::Meta => "paid_meta",
            Network::Google => "paid_google",
        }
    }

    /// The name people know the network by, for card text.
    pub fn label(self) -> &'static str {
        match self {
            Network::Meta => "Meta",
            Network::Google => "Google Ads",
        }
    }
}

wire_enum! {
    /// Where an approved budget change stands: `applying` until a runner settles it.
    ApplicationState {
        Applying => "applying",
        Applied => "applied",
        NotApplied => "not_applied",
        Refused => "refused",
        Failed => "failed",
    }
}

wire_enum! {
    /// Why the policy engine refused a spend change.
    PolicyCode {
        NetworkWall => "network_wall",
        DailyCapExceeded => "daily_cap_exceeded",
        PortfolioCeilingExceeded => "portfolio_ceiling_exceeded",
        PortfolioCurrencyMismatch => "portfolio_currency_mismatch",
    }
}

/// One product's policy, as its owners set it. No cap on a network means the engine does not
/// limit that network's daily budget (a human still approves every change).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProductPolicy {
    pub google_cap_cents: Option<i64>,
    pub meta_cap_cents: Option<i64>,
    /// Adult-adjacent products may not run on `meta` (its advertising policies refuse them).
    pub adult_adjacent: bool,
    /// Networks the owners walled off for this product.
    pub blocked_networks: Vec<Network>,
}

impl ProductPolicy {
    pub fn cap(&self, network: Network) -> Option<i64> {
        match network {
            Network::Google => self.google_cap_cents,
            Network::Meta => self.meta_cap_cents,
        }
    }

    /// Why `network` is walled off for this product, if it is.
    pub fn wall(&self, network: Network) -> Option<&'static str> {
        if self.adult_adjacent && network == Network::Meta {
            Some(
                "the product is marked adult-adjacent, and adult-adjacent products may not run on meta",
            )
        } else if self.blocked_networks.contains(&network) {
            Some("the owners walled this product off that network")
        } else {
            None
        }
    }
}

/// The account-wide ceiling on the sum of daily budgets. Budgets in other currencies cannot be
/// added to it without exchange rates, so while a ceiling is set, products in another currency
/// cannot raise budgets at all (refused, never waved through).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PortfolioPolicy {
    pub ceiling_cents: Option<i64>,
    pub currency: String,
}

/// A proposed daily budget for one network of one product.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpendChange<'a> {
    pub network: Network,
    pub to_cents: i64,
    /// The product's currency.
    pub currency: &'a str,
}

/// A refusal: the code clients branch on and the sentence people read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct PolicyRefusal {
    pub code: PolicyCode,
    pub message: String,
}

/// Checks `change` against the product's walls and cap, then the portfolio ceiling given the
/// account's other committed daily budgets (every product and network except this one).
pub fn check_spend_change(
    product: &ProductPolicy,
    portfolio: &PortfolioPolicy,
    committed_elsewhere_cents: i64,
    change: &SpendChange<'_>,
) -> Result<(), PolicyRefusal> {
    let network = change.network;
    if let Some(reason) = product.wall(network) {
        return Err(PolicyRefusal {
            code: PolicyCode::NetworkWall,
            message: format!("network wall: {reason}"),
        });
    }
    if let Some(cap) = product.cap(network).filter(|cap| change.to_cents > *cap) {
        return Err(PolicyRefusal {
            code: PolicyCode::DailyCapExceeded,
            message: format!(
                "daily cap: {} a day on {network} is over this product's cap of {}",
                format_cents(change.to_cents, change.currency),
                format_cents(cap, change.currency)
            ),
        });
    }
    if let Some(ceiling) = portfolio.ceiling_cents {
        if !portfolio.currency.eq_ignore_ascii_case(change.currency) {
            return Err(PolicyRefusal {
                code: PolicyCode::PortfolioCurrencyMismatch,
                message: format!(
                    "portfolio ceiling: the ceiling is in {} and this product bills in {}; budgets in different currencies cannot be summed",
                    portfolio.currency, change.currency
                ),
            });
        }
        let total = committed_elsewhere_cents.saturating_add(change.to_cents);
        if total > ceiling {
            return Err(PolicyRefusal {
                code: PolicyCode::PortfolioCeilingExceeded,
                message: format!(
                    "portfolio ceiling: daily budgets would total {}, over the account's ceiling of {}",
                    format_cents(total, &portfolio.currency),
                    format_cents(ceiling, &portfolio.currency)
                ),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn usd(network: Network, to_cents: i64) -> SpendChange<'static> {
        SpendChange {
            network,
            to_cents,
            currency: "USD",
        }
    }

    fn ceiling(cents: i64) -> PortfolioPolicy {
        PortfolioPolicy {
            ceiling_cents: Some(cents),
            currency: "USD".to_owned(),
        }
    }

    #[test]
    fn no_policy_allows_any_change() {
        let open = ProductPolicy::default();
        let none = PortfolioPolicy::default();
        assert_eq!(
            check_spend_change(&open, &none, 0, &usd(Network::Meta, MAX_DAILY_CENTS)),
            Ok(())
        );
    }

    #[test]
    fn daily_cap_is_inclusive() {
        let capped = ProductPolicy {
            google_cap_cents: Some(5_000),
            ..ProductPolicy::default()
        };
        let none = PortfolioPolicy::default();
        assert_eq!(
            check_spend_change(&capped, &none, 0, &usd(Network::Google, 5_000)),
            Ok(())
        );
        let refused =
            check_spend_change(&capped, &none, 0, &usd(Network::Google, 5_001)).unwrap_err();
        assert_eq!(refused.code, PolicyCode::DailyCapExceeded);
        assert!(refused.message.contains("50.01 USD"), "{}", refused.message);
        // The cap is per network: meta is not limited by google's cap.
        assert_eq!(
            check_spend_change(&capped, &none, 0, &usd(Network::Meta, 9_999)),
            Ok(())
        );
    }

    #[test]
    fn walls_come_first() {
        let adult = ProductPolicy {
            adult_adjacent: true,
            meta_cap_cents: Some(1),
            ..ProductPolicy::default()
        };
        let refused =
            check_spend_change(&adult, &ceiling(1), 0, &usd(Network::Meta, 100)).unwrap_err();
        assert_eq!(refused.code, PolicyCode::NetworkWall);
        let blocked = ProductPolicy {
            blocked_networks: vec![Network::Google],
            ..ProductPolicy::default()
        };
        let refused = check_spend_change(
            &blocked,
            &PortfolioPolicy::default(),
            0,
            &usd(Network::Google, 1),
        )
        .unwrap_err();
        assert_eq!(refused.code, PolicyCode::NetworkWall);
        assert_eq!(
            check_spend_change(
                &blocked,
                &PortfolioPolicy::default(),
                0,
                &usd(Network::Meta, 1)
            ),
            Ok(())
        );
    }

    #[test]
    fn ceiling_counts_the_other_commitments() {
        let open = ProductPolicy::default();
        assert_eq!(
            check_spend_change(&open, &ceiling(10_000), 6_000, &usd(Network::Google, 4_000)),
            Ok(())
        );
        let refused =
            check_spend_change(&open, &ceiling(10_000), 6_000, &usd(Network::Google, 4_001))
                .unwrap_err();
        assert_eq!(refused.code, PolicyCode::PortfolioCeilingExceeded);
    }

    #[test]
    fn ceiling_refuses_budgets_it_cannot_sum() {
        let open = ProductPolicy::default();
        let eur = SpendChange {
            network: Network::Google,
            to_cents: 1,
            currency: "EUR",
        };
        let refused = check_spend_change(&open, &ceiling(10_000), 0, &eur).unwrap_err();
        assert_eq!(refused.code, PolicyCode::PortfolioCurrencyMismatch);
    }
}
