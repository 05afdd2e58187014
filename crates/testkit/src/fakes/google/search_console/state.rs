//! What the fake's Search Console holds: each user's sites and each site's daily query figures.

use std::collections::BTreeMap;

use crate::fakes::day::Day;

/// One site in one user's Search Console.
#[derive(Debug, Clone)]
pub(crate) struct SiteAccess {
    pub user: String,
    pub site_url: String,
    pub permission_level: String,
}

/// One day's figures of one query on a site.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct QueryFigures {
    pub clicks: f64,
    pub impressions: f64,
    /// Average position (1 is the top).
    pub position: f64,
}

impl QueryFigures {
    pub fn new(clicks: f64, impressions: f64, position: f64) -> Self {
        Self {
            clicks,
            impressions,
            position,
        }
    }
}

/// What the fake's Search Console holds.
#[derive(Debug, Default)]
pub(crate) struct Console {
    pub sites: Vec<SiteAccess>,
    /// (site, day, query) to its figures.
    pub rows: BTreeMap<(String, Day, String), QueryFigures>,
}

impl Console {
    /// `user`'s access to `site_url` (a second call replaces the level).
    pub(crate) fn add_site(&mut self, user: &str, site_url: &str, permission_level: &str) {
        self.sites
            .retain(|site| !(site.user == user && site.site_url == site_url));
        self.sites.push(SiteAccess {
            user: user.to_owned(),
            site_url: site_url.to_owned(),
            permission_level: permission_level.to_owned(),
        });
    }

    pub(super) fn access(&self, user: &str, site_url: &str) -> Option<&SiteAccess> {
        self.sites
            .iter()
            .find(|site| site.user == user && site.site_url == site_url)
    }
}
