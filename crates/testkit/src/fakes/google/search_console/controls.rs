//! What a test does with Search Console: where it listens, each user's sites, and the figures of
//! their queries.

use super::QueryFigures;
use crate::fakes::google::{FakeGoogle, seed_day};

impl FakeGoogle {
    /// The Search Console API origin (`https://www.googleapis.com`): calls go to
    /// `{search_console_base_url}/webmasters/v3/...`.
    pub fn search_console_base_url(&self) -> String {
        self.base().to_owned()
    }

    /// Gives Google user `user` access to `site_url` in Search Console at `permission_level`
    /// (`siteOwner`, `siteFullUser`, `siteRestrictedUser`, `siteUnverifiedUser`).
    pub fn add_search_console_site(&self, user: &str, site_url: &str, permission_level: &str) {
        self.state()
            .search_console
            .add_site(user, site_url, permission_level);
    }

    /// Google user `user` loses `site_url` (removed from their Search Console).
    pub fn remove_search_console_site(&self, user: &str, site_url: &str) {
        self.state()
            .search_console
            .sites
            .retain(|site| !(site.user == user && site.site_url == site_url));
    }

    /// One day's figures of `query` on `site_url` (`day` is `YYYY-MM-DD`); a later call for the
    /// same day and query replaces them, as Google restates recent days.
    pub fn add_search_console_row(
        &self,
        site_url: &str,
        day: &str,
        query: &str,
        figures: QueryFigures,
    ) {
        let day = seed_day(day, "add_search_console_row");
        self.state()
            .search_console
            .rows
            .insert((site_url.to_owned(), day, query.to_owned()), figures);
    }
}
