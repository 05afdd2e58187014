//! The kinds of growth action: their wire words (the first half of an action's id), the
//! category each belongs to and the priority that breaks ties in the ranking (what the other
//! numbers rest on first).

use serde::Serialize;
use utoipa::ToSchema;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ActionKind {
    /// Events are missing or stale: install the snippet and server-side events.
    InstallTracking,
    /// Payments are not connected.
    ConnectPayments,
    /// Revenue rows without an identity: `svc.identify` on signup.
    StitchIdentities,
    /// No money conversion counted: a server-side `converted` event with its value.
    SendConvertedEvent,
    /// Revenue without a first touch: UTM tags on every link.
    TagLinks,
    /// A channel whose CAC exceeds LTV: move its budget to one paying back.
    MoveBudget,
    /// A funnel step with no volume.
    FixFunnelStep,
    /// The search-ads final URL suffix lacks parameters.
    AddUrlSuffix,
    /// Spend recorded by hand: connect the ad networks.
    ConnectAdNetworks,
}

impl ActionKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ActionKind::InstallTracking => "install_tracking",
            ActionKind::ConnectPayments => "connect_payments",
            ActionKind::StitchIdentities => "stitch_identities",
            ActionKind::SendConvertedEvent => "send_converted_event",
            ActionKind::TagLinks => "tag_links",
            ActionKind::MoveBudget => "move_budget",
            ActionKind::FixFunnelStep => "fix_funnel_step",
            ActionKind::AddUrlSuffix => "add_url_suffix",
            ActionKind::ConnectAdNetworks => "connect_ad_networks",
        }
    }

    /// The category the action's situation belongs to.
    pub fn category(self) -> &'static str {
        match self {
            ActionKind::InstallTracking | ActionKind::StitchIdentities | ActionKind::TagLinks => {
                "tracking"
            }
            ActionKind::SendConvertedEvent | ActionKind::FixFunnelStep => "funnel",
            ActionKind::MoveBudget | ActionKind::AddUrlSuffix => "advertising",
            ActionKind::ConnectPayments | ActionKind::ConnectAdNetworks => "sources",
        }
    }

    /// Ties in the ranking go to the lower number: data arriving at all, then money, then
    /// what ties money to its source, then spend, then the funnel's shape.
    pub fn priority(self) -> u8 {
        match self {
            ActionKind::InstallTracking => 0,
            ActionKind::ConnectPayments => 1,
            ActionKind::SendConvertedEvent => 2,
            ActionKind::StitchIdentities => 3,
            ActionKind::TagLinks => 4,
            ActionKind::MoveBudget => 5,
            ActionKind::AddUrlSuffix => 6,
            ActionKind::ConnectAdNetworks => 7,
            ActionKind::FixFunnelStep => 8,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_words_match_the_serialized_kind() {
        for kind in [
            ActionKind::InstallTracking,
            ActionKind::ConnectPayments,
            ActionKind::StitchIdentities,
            ActionKind::SendConvertedEvent,
            ActionKind::TagLinks,
            ActionKind::MoveBudget,
            ActionKind::FixFunnelStep,
            ActionKind::AddUrlSuffix,
            ActionKind::ConnectAdNetworks,
        ] {
            assert_eq!(
                serde_json::to_value(kind).unwrap_or_default(),
                kind.as_str()
            );
        }
    }
}
