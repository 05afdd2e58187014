//! The `social_a` connection as a [`Source`](crate::Source), through the API kinds' shared
//! [`ApiSource`]: `test` opens the page and reads its insights, `sync` reads the snapshots,
//! `disconnect` ends the social grant at Meta when the token is the grant's.

use std::collections::BTreeMap;

use crate::api_source::{ApiConfig, ApiSource};
use crate::batch::DayRange;
use crate::graph;
use crate::source::Revocation;
use crate::{ConnectorError, SyncOutput, SyncWindow};

use super::insights::{self, InsightsAnswer, PAGE_ENGAGEMENT};
use super::snapshots::{self, Figures};
use super::{SocialAConfig, page, posts, within_history};

/// One Facebook page (and its linked Instagram account), ready to read.
pub type SocialASource = ApiSource<SocialAConfig>;

impl SocialASource {
    /// Snapshots are counts, not money: no product currency.
    pub fn new(http: reqwest::Client, config: SocialAConfig) -> Self {
        Self::open(http, config, "")
    }
}

impl ApiConfig for SocialAConfig {
    /// Opens the page (exchanging for its token when needed), reads its recent daily engagement to
    /// prove Page Insights answer, and answers a line such as `Facebook page 101 "Shop" answers
    /// (1234 followers; Instagram @shop linked)`.
    async fn test(source: &SocialASource) -> Result<String, ConnectorError> {
        let (http, config) = (&source.http, &source.config);
        let (client, page) = page::open(http, config).await?;
        let _: InsightsAnswer = client
            .get(
                &format!("{}/insights", page.id),
                &[
                    ("metric", PAGE_ENGAGEMENT.to_owned()),
                    ("period", "day".to_owned()),
                ],
            )
            .await?;
        let followers = page
            .followers
            .map(|n| format!("{n} followers"))
            .unwrap_or_else(|| "followers not shown".to_owned());
        let instagram = match &page.instagram {
            Some(account) => format!("Instagram {} linked", account.label()),
            None => "no Instagram account linked".to_owned(),
        };
        Ok(format!(
            "Facebook page {} answers ({followers}; {instagram})",
            page.label()
        ))
    }

    /// Reads the page's (and its Instagram account's) daily figures over the days of `window`,
    /// the followers counts for its last day, and the recent posts published in it (stored as they
    /// are, and their engagement as snapshot details).
    ///
    /// Snapshots are a few values per day: they come back in the batch.
    async fn read(
        source: &SocialASource,
        window: SyncWindow,
    ) -> Result<SyncOutput, ConnectorError> {
        let (http, config) = (&source.http, &source.config);
        let asked = DayRange::of_window(window);
        let days = within_history(&asked);
        let (client, page) = page::open(http, config).await?;
        let facebook_days = insights::page_days(&client, &page.id, &days).await?;
        let mut recent = posts::facebook(&client, &page.id, &days).await?;
        let mut instagram_days = BTreeMap::new();
        if let Some(account) = &page.instagram {
            instagram_days = insights::instagram_days(&client, &account.id, &days).await?;
            recent.extend(posts::instagram(&client, &account.id, &days).await?);
        }
        let figures = Figures {
            facebook_days,
            instagram_days,
            followers_day: Some(days.last.clone()),
            facebook_followers: page.followers,
            instagram_followers: page
                .instagram
                .as_ref()
                .and_then(|account| account.followers),
            posts: recent.iter().map(posts::figure).collect(),
        };
        let snapshots = snapshots::snapshots(&figures);
        let mut detail = format!(
            "Facebook page {}: {}..{}, {} days of page insights",
            page.label(),
            days.first,
            days.last,
            figures.facebook_days.len()
        );
        if let Some(account) = &page.instagram {
            detail.push_str(&format!(
                ", {} days of Instagram {} insights",
                figures.instagram_days.len(),
                account.label()
            ));
        }
        detail.push_str(&format!(
            ", {} recent posts; {} snapshot values",
            figures.posts.len(),
            snapshots.len()
        ));
        if days.first != asked.first {
            detail.push_str(&format!(
                "; Page Insights keep two years, so days before {} were not read",
                days.first
            ));
        }
        tracing::info!(detail = %detail, "social page sync read");
        Ok(SyncOutput {
            snapshots,
            posts: recent,
            detail,
            ..SyncOutput::default()
        })
    }

    /// The grant's user token: `DELETE /me/permissions`, which ends the whole grant (every kind
    /// it served). A pasted token (`revoke_on_disconnect` false, e.g. a page token) is the
    /// customer's: nothing is revoked.
    async fn disconnect(source: &SocialASource) -> Result<Revocation, ConnectorError> {
        let config = &source.config;
        let grant = config.revoke_on_disconnect.then_some(&*config.access_token);
        graph::disconnect(&source.http, &config.graph_base_url, grant).await
    }
}
