//! The X API v2 shapes read, as X documents them (docs.x.com, "Users lookup", "User Posts
//! timeline", "Response codes and errors", "Rate limits"): data under `data`, paging under
//! `meta`, partial errors in `errors[]` (a user that is not found answers 200 with only
//! `errors`), and failures as problem bodies (`title`, `detail`, `type`, `status`).

use serde::Deserialize;

/// `GET /2/users/by/username/:username?user.fields=public_metrics`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct UserAnswer {
    pub data: Option<User>,
    pub errors: Vec<Problem>,
}

/// A user object with the `public_metrics` field asked for.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct User {
    pub id: String,
    pub username: String,
    #[serde(default)]
    pub public_metrics: Option<UserMetrics>,
}

/// `public_metrics` of a user (`following_count`, `tweet_count`, `listed_count` are not read).
#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(default)]
pub(crate) struct UserMetrics {
    pub followers_count: Option<i64>,
}

/// `GET /2/users/:id/tweets?tweet.fields=public_metrics,created_at&max_results&start_time`:
/// one page of posts, newest first; `meta.next_token` names the next page.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct TweetsAnswer {
    pub data: Vec<Tweet>,
    pub meta: Meta,
    pub errors: Vec<Problem>,
}

#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Tweet {
    pub id: String,
    #[serde(default)]
    pub text: Option<String>,
    /// RFC 3339, e.g. `2026-11-20T14:03:00.000Z`.
    #[serde(default)]
    pub created_at: Option<String>,
    #[serde(default)]
    pub public_metrics: TweetMetrics,
}

/// A post's `public_metrics` (`bookmark_count` is not engagement here).
#[derive(Debug, Clone, Copy, Default, Deserialize, PartialEq, Eq)]
#[serde(default)]
pub(crate) struct TweetMetrics {
    pub retweet_count: i64,
    pub reply_count: i64,
    pub like_count: i64,
    pub quote_count: i64,
    pub impression_count: i64,
}

impl TweetMetrics {
    /// Likes, replies, reposts and quotes: what the social report counts as engagement.
    pub(crate) fn engagement(&self) -> i64 {
        [
            self.like_count,
            self.reply_count,
            self.retweet_count,
            self.quote_count,
        ]
        .into_iter()
        .map(|n| n.max(0))
        .sum()
    }
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub(crate) struct Meta {
    pub next_token: Option<String>,
}

/// One entry of `errors[]`, or a whole problem body: X writes `detail` (v2 problems) or
/// `message` (older shapes, e.g. the rate-limit body `{"errors":[{"code":88,"message":...}]}`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub(crate) struct Problem {
    pub title: Option<String>,
    pub detail: Option<String>,
    pub message: Option<String>,
    #[serde(rename = "type")]
    pub kind: Option<String>,
}

/// The body of a failed request: a problem, possibly with `errors[]` under it.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub(crate) struct ErrorBody {
    pub title: Option<String>,
    pub detail: Option<String>,
    #[serde(rename = "type")]
    pub kind: Option<String>,
    pub errors: Vec<Problem>,
}

/// The problem type X gives a user (or post) it cannot find.
pub(crate) const RESOURCE_NOT_FOUND: &str = "https://api.twitter.com/2/problems/resource-not-found";

impl Problem {
    /// The human reason X gave: `detail`, else `message`, else `title`.
    pub(crate) fn reason(&self) -> Option<&str> {
        [&self.detail, &self.message, &self.title]
            .into_iter()
            .filter_map(|text| text.as_deref().map(str::trim))
            .find(|text| !text.is_empty())
    }
}

impl ErrorBody {
    /// The human reason of the body: its own `detail` when it says more than its title, else
    /// the first entry's of `errors[]`, else the title.
    pub(crate) fn reason(&self) -> Option<String> {
        let own = self
            .detail
            .as_deref()
            .map(str::trim)
            .filter(|text| !text.is_empty());
        let first = self.errors.iter().find_map(Problem::reason);
        // X's invalid-request body says only "One or more parameters to your request was
        // invalid." at the top; the entry says which and why.
        match (own, first) {
            (Some(own), Some(first)) if own.starts_with("One or more parameters") => {
                Some(format!("{own} {first}"))
            }
            (Some(own), _) => Some(own.to_owned()),
            (None, Some(first)) => Some(first.to_owned()),
            (None, None) => self
                .title
                .as_deref()
                .map(str::trim)
                .filter(|text| !text.is_empty())
                .map(str::to_owned),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_user_and_timeline_shapes_parse() {
        let user: UserAnswer = serde_json::from_str(
            r#"{"data":{"id":"2244994945","name":"Developers","username":"XDevelopers",
            "public_metrics":{"followers_count":583423,"following_count":2048,"tweet_count":14052,
            "listed_count":1672,"like_count":0}}}"#,
        )
        .unwrap();
        let data = user.data.unwrap();
        assert_eq!(
            (data.id.as_str(), data.username.as_str()),
            ("2244994945", "XDevelopers")
        );
        assert_eq!(data.public_metrics.unwrap().followers_count, Some(583_423));

        let page: TweetsAnswer = serde_json::from_str(
            r#"{"data":[{"id":"1460323737035677698","edit_history_tweet_ids":["1460323737035677698"],
            "text":"Introducing a new era","created_at":"2021-11-15T19:08:05.000Z",
            "public_metrics":{"retweet_count":5,"reply_count":2,"like_count":30,"quote_count":1,
            "bookmark_count":4,"impression_count":1200}}],
            "meta":{"result_count":1,"newest_id":"1460323737035677698","oldest_id":"1460323737035677698",
            "next_token":"7140dibdnow9c7btw3w29grvxfcgvpb9n9coehpk7xz5i"}}"#,
        )
        .unwrap();
        assert_eq!(page.data[0].public_metrics.engagement(), 38);
        assert_eq!(page.data[0].public_metrics.impression_count, 1_200);
        assert!(page.meta.next_token.is_some());
        let empty: TweetsAnswer = serde_json::from_str(r#"{"meta":{"result_count":0}}"#).unwrap();
        assert!(empty.data.is_empty() && empty.meta.next_token.is_none());
    }

    #[test]
    fn a_missing_user_is_an_error_entry_with_its_detail() {
        let missing: UserAnswer = serde_json::from_str(
            r#"{"errors":[{"value":"nobody_here","detail":"Could not find user with username: [nobody_here].",
            "title":"Not Found Error","resource_type":"user","parameter":"username",
            "resource_id":"nobody_here","type":"https://api.twitter.com/2/problems/resource-not-found"}]}"#,
        )
        .unwrap();
        assert!(missing.data.is_none());
        assert_eq!(missing.errors[0].kind.as_deref(), Some(RESOURCE_NOT_FOUND));
        assert_eq!(
            missing.errors[0].reason(),
            Some("Could not find user with username: [nobody_here].")
        );
    }

    #[test]
    fn problem_bodies_give_their_reason() {
        let unauthorized: ErrorBody = serde_json::from_str(
            r#"{"title":"Unauthorized","type":"about:blank","status":401,"detail":"Unauthorized"}"#,
        )
        .unwrap();
        assert_eq!(unauthorized.reason().as_deref(), Some("Unauthorized"));
        let invalid: ErrorBody = serde_json::from_str(
            r#"{"errors":[{"parameters":{"max_results":["1000"]},
            "message":"The `max_results` query parameter value [1000] is not between 5 and 100"}],
            "title":"Invalid Request","detail":"One or more parameters to your request was invalid.",
            "type":"https://api.twitter.com/2/problems/invalid-request"}"#,
        )
        .unwrap();
        assert_eq!(
            invalid.reason().as_deref(),
            Some(
                "One or more parameters to your request was invalid. The `max_results` query \
                 parameter value [1000] is not between 5 and 100"
            )
        );
        let limited: ErrorBody =
            serde_json::from_str(r#"{"errors":[{"code":88,"message":"Rate limit exceeded"}]}"#)
                .unwrap();
        assert_eq!(limited.reason().as_deref(), Some("Rate limit exceeded"));
        assert_eq!(ErrorBody::default().reason(), None);
    }
}
