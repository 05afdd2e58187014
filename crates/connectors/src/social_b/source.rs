//! The `social_b` connection as a [`Source`](crate::Source), through the API kinds' shared
//! [`ApiSource`]: `test` looks the account up (one live read), `read` looks it up again for
//! today's followers and pages through its posts since the window began; nothing is ever
//! written to X.

use payback_domain::Timestamp;

use super::wire::TweetsAnswer;
use super::{SocialBConfig, account, mapping};
use crate::api_source::{ApiConfig, ApiSource};
use crate::batch::DayRange;
use crate::{ConnectorError, SyncOutput, SyncWindow};

/// One X account, ready to read.
///
/// Disconnecting revokes nothing: the bearer token belongs to the customer's developer app and
/// stays theirs to regenerate; Payback forgets it when the connection is deleted.
pub type SocialBSource = ApiSource<SocialBConfig>;

/// Posts asked per page: the timeline's documented maximum.
const PAGE_SIZE: u32 = 100;

/// The timeline reaches the most recent 3,200 posts: 32 full pages; a few more in case X
/// answers short pages, and never an endless loop on a token X repeats.
const MAX_PAGES: usize = 40;

/// The earliest `start_time` X accepts.
const EARLIEST_START: i64 = 1_289_001_601_000; // 2010-11-06T00:00:01Z

impl SocialBSource {
    /// Snapshots are counts, not money: no product currency.
    pub fn new(http: reqwest::Client, config: SocialBConfig) -> Self {
        Self::open(http, config, "")
    }
}

impl ApiConfig for SocialBConfig {
    /// One users lookup; answers a line such as `X account @shop (id 2244994945) answers:
    /// 1234 followers`.
    async fn test(source: &SocialBSource) -> Result<String, ConnectorError> {
        let client = source.config.client(&source.http)?;
        let found = account(&client, &source.config.username).await?;
        let followers = found.followers.map_or_else(
            || "followers not shown".to_owned(),
            |n| format!("{n} followers"),
        );
        Ok(format!(
            "X account @{} (id {}) answers: {followers}",
            found.username, found.id
        ))
    }

    /// The followers count (on the window's last day, the run's) and the window's posts, with
    /// their sums per publish day.
    async fn read(
        source: &SocialBSource,
        window: SyncWindow,
    ) -> Result<SyncOutput, ConnectorError> {
        let config = &source.config;
        let client = config.client(&source.http)?;
        let found = account(&client, &config.username).await?;
        let start = Timestamp::from_millis(window.from.millis().max(EARLIEST_START));
        let mut tweets = Vec::new();
        let mut token: Option<String> = None;
        let mut pages = 0;
        loop {
            let mut query = vec![
                ("tweet.fields", "public_metrics,created_at".to_owned()),
                ("max_results", PAGE_SIZE.to_string()),
                ("start_time", seconds(start)),
            ];
            if let Some(token) = &token {
                query.push(("pagination_token", token.clone()));
            }
            let page: TweetsAnswer = client
                .get(
                    "the posts timeline",
                    &format!("/2/users/{}/tweets", found.id),
                    &query,
                )
                .await?;
            pages += 1;
            tweets.extend(page.data);
            match page.meta.next_token.filter(|next| !next.is_empty()) {
                Some(next) if pages < MAX_PAGES && token.as_deref() != Some(next.as_str()) => {
                    token = Some(next);
                }
                _ => break,
            }
        }
        let days = DayRange::of_window(window);
        let (posts, left_out) = mapping::posts_within(tweets, window.from, window.to);
        let sums = mapping::per_day(&posts, &days);
        let snapshots = mapping::snapshots(&sums, &days.last, found.followers);
        let (impressions, engagement) = sums
            .values()
            .fold((0, 0), |(i, e), (di, de)| (i + di, e + de));
        let detail = format!(
            "X account @{}: {}..{}, {} posts over {pages} pages ({impressions} impressions, \
             {engagement} engagements){}, {}",
            found.username,
            days.first,
            days.last,
            posts.len(),
            if left_out > 0 {
                format!(" and {left_out} outside the window left out")
            } else {
                String::new()
            },
            found.followers.map_or_else(
                || "followers not shown".to_owned(),
                |n| format!("{n} followers")
            ),
        );
        tracing::info!(detail = %detail, "x account sync read");
        Ok(SyncOutput {
            snapshots,
            posts: mapping::social_posts(&posts, &found.username),
            detail,
            ..SyncOutput::default()
        })
    }
}

/// `YYYY-MM-DDTHH:mm:ssZ`, the form X documents for `start_time` (second granularity).
fn seconds(at: Timestamp) -> String {
    let text = at.to_rfc3339();
    format!("{}Z", text.get(..19).unwrap_or(&text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_time_is_written_to_the_second() {
        assert_eq!(
            seconds(Timestamp::from_millis(1_795_000_000_123)),
            "2026-11-18T11:06:40Z"
        );
        assert_eq!(
            seconds(Timestamp::from_millis(EARLIEST_START)),
            "2010-11-06T00:00:01Z"
        );
    }
}
