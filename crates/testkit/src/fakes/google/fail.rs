//! The failures a test schedules ([`super::FakeGoogle::fail_next`]), and the shape each answers
//! in: that of the API whose path it hits.

use axum::response::Response;

use super::state::State;
use super::{RecordedRequest, ads, analytics, oauth, recorder, search_console, tagmgr};

/// A failure a test schedules with `FakeGoogle::fail_next`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fail {
    /// 429 `RESOURCE_EXHAUSTED`, `quotaError: RESOURCE_EXHAUSTED` (the daily developer quota,
    /// retry delay a day).
    Quota,
    /// 429 `RESOURCE_EXHAUSTED`, `quotaError: RESOURCE_TEMPORARILY_EXHAUSTED` with this retry
    /// delay in seconds.
    QuotaRetryAfter(u32),
    /// 500 `INTERNAL`, `internalError: INTERNAL_ERROR`.
    Internal,
    /// 503 `UNAVAILABLE`, `internalError: TRANSIENT_ERROR`.
    Transient,
    /// 401 `UNAUTHENTICATED`, as for an expired access token (`invalid_grant` on `/token`).
    Unauthenticated,
}

impl recorder::Recorded for State {
    const BODY_LIMIT: usize = 16 * 1024 * 1024;

    fn log(&mut self) -> &mut recorder::RequestLog {
        &mut self.log
    }

    /// In Google's shape for the path: a `GoogleAdsFailure` on Ads API paths, an OAuth error
    /// elsewhere.
    fn scheduled_answer(&mut self, request: &RecordedRequest) -> Option<Response> {
        let fail = self.scheduled.take(&request.path)?;
        let first = request
            .path
            .trim_start_matches('/')
            .split('/')
            .next()
            .unwrap_or("");
        Some(if first == "v1beta" {
            analytics::scheduled(fail)
        } else if ads::is_version(first) {
            ads::scheduled_ads(fail, first, &self.mint("fakeReq"))
        } else if first == "webmasters" {
            search_console::scheduled(fail)
        } else if first == "tagmanager" {
            tagmgr::scheduled(fail)
        } else {
            oauth::scheduled_oauth(fail)
        })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::Fail;
    use crate::fakes::google::test_support::{ads_error, search, seeded, token};

    #[tokio::test]
    async fn scheduled_failures_answer_in_google_shapes_then_clear() {
        let google = seeded().await;
        let access = google.issue_tokens().access_token;
        google.fail_next("googleAds:search", 1, Fail::Quota);
        let (status, body) = search(&google, &access, "SELECT customer.id FROM customer").await;
        assert_eq!(status, 429);
        assert_eq!(
            ads_error(&body),
            (
                "RESOURCE_EXHAUSTED".to_owned(),
                json!({"quotaError": "RESOURCE_EXHAUSTED"})
            )
        );
        assert_eq!(
            body["error"]["details"][0]["errors"][0]["details"]["quotaErrorDetails"]["retryDelay"],
            "86400s"
        );
        assert_eq!(
            search(&google, &access, "SELECT customer.id FROM customer")
                .await
                .0,
            200
        );

        google.fail_next("/token", 1, Fail::Internal);
        let (status, body) = token(&google, &[("grant_type", "refresh_token")]).await;
        assert_eq!(
            (status, body["error"].as_str()),
            (500, Some("internal_failure"))
        );

        google.expire_access_tokens();
        let (status, body) = search(&google, &access, "SELECT customer.id FROM customer").await;
        assert_eq!(status, 401);
        assert_eq!(
            ads_error(&body).1,
            json!({"authenticationError": "OAUTH_TOKEN_EXPIRED"})
        );

        let (status, body) = search(
            &google,
            &google.issue_tokens().access_token,
            "SELECT campaign.nope FROM campaign",
        )
        .await;
        assert_eq!(status, 400);
        assert_eq!(
            ads_error(&body),
            (
                "INVALID_ARGUMENT".to_owned(),
                json!({"queryError": "UNRECOGNIZED_FIELD"})
            )
        );
        assert_eq!(
            google.requests_to("googleAds:search").len(),
            4,
            "every request is recorded, refused ones too"
        );
        let last = google
            .requests_to("googleAds:search")
            .pop()
            .expect("recorded");
        assert_eq!(last.json()["query"], "SELECT campaign.nope FROM campaign");
        assert_eq!(
            last.header("Developer-Token"),
            Some(google.developer_token())
        );
    }
}
