//! What a test does with Tag Manager: where it listens, accounts, access and containers it
//! seeds, a version published by hand, and what was published through the API.

use serde_json::{Value, json};

use super::state::{Account, Container, FakeTag, PublishedVersion, TagManagerPermission, Version};
use crate::fakes::google::FakeGoogle;

fn fake_tag(tag: &Value) -> FakeTag {
    let html = tag["parameter"].as_array().and_then(|params| {
        params
            .iter()
            .find(|p| p["key"] == json!("html"))
            .and_then(|p| p["value"].as_str())
            .map(str::to_owned)
    });
    FakeTag {
        name: tag["name"].as_str().unwrap_or_default().to_owned(),
        kind: tag["type"].as_str().unwrap_or_default().to_owned(),
        html,
        firing_trigger_ids: tag["firingTriggerId"]
            .as_array()
            .map(|ids| {
                ids.iter()
                    .filter_map(|id| id.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default(),
    }
}

/// `accounts/{a}/containers/{c}` split, or a panic naming the test's mistake.
fn split_path(path: &str) -> (String, String) {
    match path.split('/').collect::<Vec<_>>().as_slice() {
        ["accounts", a, "containers", c] => ((*a).to_owned(), (*c).to_owned()),
        _ => panic!("a container path is accounts/{{a}}/containers/{{c}}, not {path:?}"),
    }
}

impl FakeGoogle {
    /// The Tag Manager API origin (`https://tagmanager.googleapis.com`): calls go to
    /// `{tag_manager_base_url}/tagmanager/v2/...`.
    pub fn tag_manager_base_url(&self) -> String {
        self.base().to_owned()
    }

    /// A Tag Manager account (`account_id` digits) nobody has access to yet.
    pub fn add_tag_manager_account(&self, account_id: &str, name: &str) {
        self.state().tag_manager.accounts.push(Account {
            id: account_id.to_owned(),
            name: name.to_owned(),
            users: Vec::new(),
        });
    }

    /// Gives Google user `user` (or a service account's email) `permission` on the account.
    pub fn grant_tag_manager_access(
        &self,
        user: &str,
        account_id: &str,
        permission: TagManagerPermission,
    ) {
        let mut state = self.state();
        let account = state
            .tag_manager
            .accounts
            .iter_mut()
            .find(|account| account.id == account_id)
            .unwrap_or_else(|| panic!("no Tag Manager account {account_id}"));
        account.users.retain(|(who, _)| who != user);
        account.users.push((user.to_owned(), permission));
    }

    /// A web container in the account, never published.
    pub fn add_tag_manager_container(
        &self,
        account_id: &str,
        container_id: &str,
        name: &str,
        public_id: &str,
    ) {
        self.state().tag_manager.containers.push(Container {
            account_id: account_id.to_owned(),
            id: container_id.to_owned(),
            name: name.to_owned(),
            public_id: public_id.to_owned(),
            workspaces: Vec::new(),
            versions: Vec::new(),
            live: None,
            published: Vec::new(),
        });
    }

    /// Publishes a version of the container holding one Custom HTML tag `tag_name` with `html`
    /// (as if someone had published it in Tag Manager's interface).
    pub fn publish_tag_manager_html(&self, container_path: &str, tag_name: &str, html: &str) {
        let (a, c) = split_path(container_path);
        let mut state = self.state();
        let tm = &mut state.tag_manager;
        let id = tm.fresh_id();
        let tag_id = tm.fresh_id();
        let container = tm
            .container_mut(&a, &c)
            .unwrap_or_else(|| panic!("no container {container_path}"));
        let tag = json!({
            "path": format!("{container_path}/versions/{id}/tags/{tag_id}"),
            "accountId": a, "containerId": c, "tagId": tag_id,
            "name": tag_name, "type": "html",
            "parameter": [{ "type": "template", "key": "html", "value": html }],
            "firingTriggerId": ["2147479553"],
        });
        container.versions.push(Version {
            id: id.clone(),
            name: format!("Published by hand {id}"),
            tags: vec![tag],
        });
        container.live = Some(id.clone());
        container.published.push(id);
    }

    /// The next `create_version` answers `compilerError: true` (and creates nothing).
    pub fn set_tag_manager_compiler_error(&self, on: bool) {
        self.state().tag_manager.compiler_error = on;
    }

    /// Items per page of the Tag Manager lists (2 by default).
    pub fn set_tag_manager_page_size(&self, size: usize) {
        self.state().tag_manager.page_size = size.max(1);
    }

    /// The versions of the container published through the API or by hand, in order.
    pub fn tag_manager_published(&self, container_path: &str) -> Vec<PublishedVersion> {
        let (a, c) = split_path(container_path);
        let state = self.state();
        let Some(container) = state.tag_manager.container(&a, &c) else {
            return Vec::new();
        };
        container
            .published
            .iter()
            .filter_map(|id| container.versions.iter().find(|v| &v.id == id))
            .map(|version| PublishedVersion {
                version_id: version.id.clone(),
                name: version.name.clone(),
                tags: version.tags.iter().map(fake_tag).collect(),
            })
            .collect()
    }

    /// How many versions the container has (published or not).
    pub fn tag_manager_version_count(&self, container_path: &str) -> usize {
        let (a, c) = split_path(container_path);
        self.state()
            .tag_manager
            .container(&a, &c)
            .map_or(0, |k| k.versions.len())
    }

    /// The names of the container's open workspaces.
    pub fn tag_manager_workspaces(&self, container_path: &str) -> Vec<String> {
        let (a, c) = split_path(container_path);
        self.state()
            .tag_manager
            .container(&a, &c)
            .map(|k| k.workspaces.iter().map(|w| w.name.clone()).collect())
            .unwrap_or_default()
    }
}
