//! Tenancy lives in the types: tenant reads and writes take an [`AccountScope`].

/// Proof that the caller acts for one account. Built by the HTTP auth extractor after checking
/// a credential, or by a trusted internal path (signup, CLI, jobs) that names the account itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountScope {
    account_id: String,
}

impl AccountScope {
    /// Only call with an account id the caller has just authenticated or created.
    pub fn trusted(account_id: impl Into<String>) -> Self {
        Self {
            account_id: account_id.into(),
        }
    }

    pub fn account_id(&self) -> &str {
        &self.account_id
    }
}

/// What a portfolio-wide read may see: one account, or every account (operators).
#[derive(Debug, Clone)]
pub enum Visibility {
    Account(AccountScope),
    AllAccounts,
}

impl Visibility {
    /// The account filter for SQL written as `($1 IS NULL OR account_id = $1)`.
    pub fn account_filter(&self) -> Option<&str> {
        match self {
            Visibility::Account(scope) => Some(scope.account_id()),
            Visibility::AllAccounts => None,
        }
    }
}
