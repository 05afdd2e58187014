//! What a test does with Google Analytics: where it listens, who reaches which property, the
//! figures it holds, and how small its pages are.

use super::state::PropertyAccess;
use crate::fakes::google::{FakeGoogle, seed_day};

impl FakeGoogle {
    /// The GA4 origin (`https://analyticsadmin.googleapis.com` and
    /// `https://analyticsdata.googleapis.com`; here one server): calls go to
    /// `{analytics_base_url}/v1beta/...`.
    pub fn analytics_base_url(&self) -> String {
        self.base().to_owned()
    }

    /// Gives Google user `user` (Viewer) access to property `property_id` of account
    /// `account_id`.
    pub fn add_analytics_property(
        &self,
        user: &str,
        account_id: &str,
        account_name: &str,
        property_id: &str,
        display_name: &str,
    ) {
        let mut state = self.state();
        let analytics = &mut state.analytics;
        analytics
            .access
            .retain(|a| !(a.user == user && a.property_id == property_id));
        analytics.access.push(PropertyAccess {
            user: user.to_owned(),
            account_id: account_id.to_owned(),
            account_name: account_name.to_owned(),
            property_id: property_id.to_owned(),
            display_name: display_name.to_owned(),
        });
    }

    /// Google user `user` loses access to `property_id`.
    pub fn remove_analytics_property(&self, user: &str, property_id: &str) {
        self.state()
            .analytics
            .access
            .retain(|a| !(a.user == user && a.property_id == property_id));
    }

    /// One day's sessions and engaged sessions of `property_id` from `source` / `medium`; a
    /// later call for the same key replaces them, as GA4 restates recent days.
    pub fn add_analytics_sessions(
        &self,
        property_id: &str,
        on: &str,
        source: &str,
        medium: &str,
        sessions: u64,
        engaged: u64,
    ) {
        let key = (
            property_id.to_owned(),
            seed_day(on, "add_analytics_sessions"),
            source.to_owned(),
            medium.to_owned(),
        );
        self.state()
            .analytics
            .sessions
            .insert(key, (sessions, engaged));
    }

    /// One day's sessions of `property_id` that began on `landing_page` (as GA4 spells it:
    /// a path, possibly with a query, or `(not set)`).
    pub fn add_analytics_landing(
        &self,
        property_id: &str,
        on: &str,
        landing_page: &str,
        sessions: u64,
    ) {
        let key = (
            property_id.to_owned(),
            seed_day(on, "add_analytics_landing"),
            landing_page.to_owned(),
        );
        self.state().analytics.landing.insert(key, sessions);
    }

    /// One day's count of event `name` on `property_id`.
    pub fn add_analytics_events(&self, property_id: &str, on: &str, name: &str, count: u64) {
        let key = (
            property_id.to_owned(),
            seed_day(on, "add_analytics_events"),
            name.to_owned(),
        );
        self.state().analytics.events.insert(key, count);
    }

    /// At most `accounts` accounts per `accountSummaries.list` page, whatever its `pageSize`.
    pub fn set_analytics_summaries_page_cap(&self, accounts: usize) {
        self.state().analytics.summaries_page_cap = accounts.max(1);
    }

    /// At most `rows` rows per `runReport` answer, whatever the request's `limit`.
    pub fn set_analytics_report_page_cap(&self, rows: usize) {
        self.state().analytics.report_page_cap = rows.max(1);
    }
}
