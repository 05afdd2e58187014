//! One check of the health report: what it looked at, its verdict, the one metric line behind
//! the verdict, and what fixes it. The constructors keep the report's promise that every check
//! short of `pass` carries an action (a `skip` its setup action) and a passing one none.

use serde::Serialize;
use utoipa::ToSchema;

/// The report's four categories, in the order the report lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum HealthCategoryKey {
    Tracking,
    Funnel,
    Advertising,
    SeoSocial,
}

impl HealthCategoryKey {
    pub const ALL: [HealthCategoryKey; 4] = [
        HealthCategoryKey::Tracking,
        HealthCategoryKey::Funnel,
        HealthCategoryKey::Advertising,
        HealthCategoryKey::SeoSocial,
    ];

    /// What the dashboard titles the category.
    pub fn label(self) -> &'static str {
        match self {
            HealthCategoryKey::Tracking => "Tracking",
            HealthCategoryKey::Funnel => "Funnel",
            HealthCategoryKey::Advertising => "Advertising",
            HealthCategoryKey::SeoSocial => "SEO and social",
        }
    }
}

/// A check's verdict. `skip`: not applicable or no data yet; shown with its setup action and
/// left out of every score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum HealthStatus {
    Pass,
    Warn,
    Fail,
    Skip,
}

impl HealthStatus {
    /// What the status is worth towards a score out of 100; `None` for `skip`, which does not
    /// count.
    pub fn points(self) -> Option<i64> {
        match self {
            HealthStatus::Pass => Some(100),
            HealthStatus::Warn => Some(50),
            HealthStatus::Fail => Some(0),
            HealthStatus::Skip => None,
        }
    }
}

/// The spec's Check, with the category it belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct HealthCheck {
    /// Stable across reports (`tracking.unattributed`), for clients to key on.
    pub id: &'static str,
    pub category: HealthCategoryKey,
    /// What the check looks at, in a few words.
    pub label: &'static str,
    pub status: HealthStatus,
    /// The one metric line that justifies the status.
    pub evidence: String,
    /// What fixes it; null only when passing. A `skip` carries its setup action.
    pub action: Option<String>,
}

/// A check's identity: its id, category and label, each written once in its category's file.
#[derive(Debug, Clone, Copy)]
pub struct CheckId {
    pub id: &'static str,
    pub category: HealthCategoryKey,
    pub label: &'static str,
}

impl CheckId {
    pub const fn new(category: HealthCategoryKey, id: &'static str, label: &'static str) -> Self {
        Self {
            id,
            category,
            label,
        }
    }

    pub fn pass(self, evidence: impl Into<String>) -> HealthCheck {
        self.build(HealthStatus::Pass, evidence.into(), None)
    }

    pub fn warn(self, evidence: impl Into<String>, action: impl Into<String>) -> HealthCheck {
        self.build(HealthStatus::Warn, evidence.into(), Some(action.into()))
    }

    pub fn fail(self, evidence: impl Into<String>, action: impl Into<String>) -> HealthCheck {
        self.build(HealthStatus::Fail, evidence.into(), Some(action.into()))
    }

    pub fn skip(self, evidence: impl Into<String>, setup: impl Into<String>) -> HealthCheck {
        self.build(HealthStatus::Skip, evidence.into(), Some(setup.into()))
    }

    /// A verdict decided elsewhere (a band, a freshness word): the action is kept only when
    /// the status is not `pass`.
    pub fn with(
        self,
        status: HealthStatus,
        evidence: impl Into<String>,
        action: impl Into<String>,
    ) -> HealthCheck {
        let action = (status != HealthStatus::Pass).then(|| action.into());
        self.build(status, evidence.into(), action)
    }

    fn build(self, status: HealthStatus, evidence: String, action: Option<String>) -> HealthCheck {
        HealthCheck {
            id: self.id,
            category: self.category,
            label: self.label,
            status,
            evidence,
            action,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: CheckId = CheckId::new(HealthCategoryKey::Funnel, "funnel.test", "A test");

    #[test]
    fn only_a_passing_check_has_no_action() {
        assert_eq!(ID.pass("all good").action, None);
        assert_eq!(ID.warn("meh", "fix").action.as_deref(), Some("fix"));
        assert_eq!(ID.fail("bad", "fix").action.as_deref(), Some("fix"));
        assert_eq!(ID.skip("n/a", "set up").action.as_deref(), Some("set up"));
        assert_eq!(ID.with(HealthStatus::Pass, "ok", "fix").action, None);
        let warned = ID.with(HealthStatus::Warn, "meh", "fix");
        assert_eq!(
            (warned.status, warned.action.as_deref()),
            (HealthStatus::Warn, Some("fix"))
        );
    }

    #[test]
    fn statuses_and_categories_use_their_wire_spelling() {
        let check = ID.fail("bad", "fix");
        let json = serde_json::to_value(&check).unwrap_or_default();
        assert_eq!(json["status"], "fail");
        assert_eq!(json["category"], "funnel");
        assert_eq!(
            serde_json::to_value(HealthCategoryKey::SeoSocial).unwrap_or_default(),
            "seo_social"
        );
    }

    #[test]
    fn skip_is_worth_nothing_and_counts_for_nothing() {
        let points: Vec<Option<i64>> = [
            HealthStatus::Pass,
            HealthStatus::Warn,
            HealthStatus::Fail,
            HealthStatus::Skip,
        ]
        .iter()
        .map(|status| status.points())
        .collect();
        assert_eq!(points, vec![Some(100), Some(50), Some(0), None]);
    }
}
