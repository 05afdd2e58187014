//! What the fake's Tag Manager holds: accounts and who may do what in them, containers with
//! their open workspaces and versions, and which version is live.

use serde_json::Value;

/// What a user may do in a Tag Manager account.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum TagManagerPermission {
    /// Read containers and versions.
    Read,
    /// Edit workspaces, create versions and publish them.
    Publish,
}

/// A tag as a test reads it back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FakeTag {
    pub name: String,
    /// `html` for Custom HTML.
    pub kind: String,
    /// The `html` parameter's value.
    pub html: Option<String>,
    pub firing_trigger_ids: Vec<String>,
}

/// A published version as a test reads it back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublishedVersion {
    pub version_id: String,
    pub name: String,
    pub tags: Vec<FakeTag>,
}

#[derive(Debug, Clone)]
pub(super) struct Account {
    pub(super) id: String,
    pub(super) name: String,
    pub(super) users: Vec<(String, TagManagerPermission)>,
}

#[derive(Debug, Clone)]
pub(super) struct Workspace {
    pub(super) id: String,
    pub(super) name: String,
    pub(super) description: String,
    pub(super) tags: Vec<Value>,
}

#[derive(Debug, Clone)]
pub(super) struct Version {
    pub(super) id: String,
    pub(super) name: String,
    pub(super) tags: Vec<Value>,
}

#[derive(Debug, Clone)]
pub(super) struct Container {
    pub(super) account_id: String,
    pub(super) id: String,
    pub(super) name: String,
    pub(super) public_id: String,
    pub(super) workspaces: Vec<Workspace>,
    pub(super) versions: Vec<Version>,
    pub(super) live: Option<String>,
    /// Version ids in the order they were published.
    pub(super) published: Vec<String>,
}

impl Container {
    pub(super) fn path(&self) -> String {
        format!("accounts/{}/containers/{}", self.account_id, self.id)
    }
}

/// What the fake's Tag Manager holds.
#[derive(Debug)]
pub(crate) struct TagManager {
    pub(super) accounts: Vec<Account>,
    pub(super) containers: Vec<Container>,
    pub(super) next_id: u64,
    /// The next `create_version` answers `compilerError: true`.
    pub(super) compiler_error: bool,
    pub(super) page_size: usize,
}

impl Default for TagManager {
    fn default() -> Self {
        Self {
            accounts: Vec::new(),
            containers: Vec::new(),
            next_id: 100,
            compiler_error: false,
            page_size: 2,
        }
    }
}

impl TagManager {
    pub(super) fn fresh_id(&mut self) -> String {
        self.next_id += 1;
        self.next_id.to_string()
    }

    pub(super) fn permission(&self, user: &str, account_id: &str) -> Option<TagManagerPermission> {
        self.accounts
            .iter()
            .find(|account| account.id == account_id)?
            .users
            .iter()
            .find(|(who, _)| who == user)
            .map(|(_, permission)| *permission)
    }

    pub(super) fn container(&self, account_id: &str, id: &str) -> Option<&Container> {
        self.containers
            .iter()
            .find(|c| c.account_id == account_id && c.id == id)
    }

    pub(super) fn container_mut(&mut self, account_id: &str, id: &str) -> Option<&mut Container> {
        self.containers
            .iter_mut()
            .find(|c| c.account_id == account_id && c.id == id)
    }
}
