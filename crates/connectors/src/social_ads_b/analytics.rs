//! Ad analytics: `GET /rest/adAnalytics?q=analytics`, one pivot per request (the Analytics
//! finder; the Statistics finder is for two or three pivots at once), `timeGranularity=DAILY`,
//! the account as `accounts=List(urn%3Ali%3AsponsoredAccount%3AN)`, and an explicit `fields`
//! list (without one LinkedIn answers impressions and clicks only; at most 20 fields).
//!
//! The endpoint has no paging: an answer holds at most 15,000 elements
//! ([`super::ANALYTICS_ELEMENT_CAP`]), and a query matching more is cut without saying so. One
//! element is one pivot value on one day, so a request's size is about (active campaigns or
//! creatives) × days. Reads are therefore split:
//! - first into spans of at most [`MAX_DAYS_PER_REQUEST`] days (a month of daily rows for up to
//!   ~480 active creatives stays under the cap);
//! - whenever an answer reaches the cap (it may be cut), the span is halved and each half asked
//!   again, down to a single day;
//! - a single day that still reaches the cap is asked again by campaign instead of by account
//!   (`campaigns=List(...)`, fewer campaigns per request than the cap), which keeps a CAMPAIGN
//!   answer whole (one element per campaign). A CREATIVE answer of a batch can in principle
//!   still reach the cap; such days are reported, and the campaign read keeps the stored spend
//!   whole through the per-campaign remainder rows (see `spend`).
//!
//! With LinkedIn's cap the last two steps are theory (an account holds at most 5,000 campaigns
//! and 15,000 creatives); they are what keeps a read complete under any cap.

use std::future::Future;

use time::Date;

use super::client::LinkedInClient;
use super::days::Span;
use super::errors::Resource;
use super::restli::{self, Query};
use super::structure::CAMPAIGNS_PER_REQUEST;
use super::urn::{self, ACCOUNT, CAMPAIGN};
use super::wire::{AnalyticsElement, Page};
use crate::ConnectorError;

/// Days per request before any halving.
pub(crate) const MAX_DAYS_PER_REQUEST: i64 = 31;

/// The metrics read, plus the two fields that say what and when an element is.
pub(crate) const FIELDS: &str = "costInLocalCurrency,impressions,clicks,dateRange,pivotValues";

/// What one element is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pivot {
    Campaign,
    Creative,
}

impl Pivot {
    pub(crate) fn word(self) -> &'static str {
        match self {
            Pivot::Campaign => "CAMPAIGN",
            Pivot::Creative => "CREATIVE",
        }
    }
}

/// One request: its days, and whose activity (the whole account, or these campaigns).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Ask {
    pub span: Span,
    /// Campaign ids; `None` for the account.
    pub campaigns: Option<Vec<String>>,
}

/// What a read came to.
#[derive(Debug, Clone, Default)]
pub(crate) struct AnalyticsRead {
    pub elements: Vec<AnalyticsElement>,
    pub requests: usize,
    /// Single days of which some answer reached the cap even by campaign, so may be incomplete.
    pub capped_days: Vec<Date>,
}

/// The query of one request.
pub(crate) fn query(account_id: &str, pivot: Pivot, ask: &Ask) -> Query {
    let facet = match &ask.campaigns {
        None => (
            "accounts",
            restli::list([urn::urn(ACCOUNT, account_id).as_str()]),
        ),
        Some(ids) => {
            let urns: Vec<String> = ids.iter().map(|id| urn::urn(CAMPAIGN, id)).collect();
            ("campaigns", restli::list(urns.iter().map(String::as_str)))
        }
    };
    Query::new()
        .raw("q", "analytics")
        .raw("pivot", pivot.word())
        .raw("timeGranularity", "DAILY")
        .raw(
            "dateRange",
            restli::date_range(ask.span.first, ask.span.last),
        )
        .raw(facet.0, facet.1)
        .raw("fields", FIELDS)
}

/// Every element of `pivot` on the account over `span`; `campaign_ids` (the account's) are
/// the fallback for a day that reaches `cap` (see the module doc).
pub(crate) async fn read(
    client: &LinkedInClient,
    account_id: &str,
    pivot: Pivot,
    span: Span,
    cap: usize,
    campaign_ids: &[String],
) -> Result<AnalyticsRead, ConnectorError> {
    let read = read_split(span, cap, campaign_ids, |ask| async move {
        let page: Page<AnalyticsElement> = client
            .get(
                Resource::Analytics,
                "adAnalytics",
                &query(account_id, pivot, &ask),
            )
            .await?;
        Ok(page.elements)
    })
    .await?;
    tracing::debug!(
        pivot = pivot.word(),
        elements = read.elements.len(),
        requests = read.requests,
        "linkedin ad analytics read"
    );
    Ok(read)
}

/// Asks `fetch` for `span` in pieces small enough to come back whole (see the module doc).
pub(crate) async fn read_split<F, Fut>(
    span: Span,
    cap: usize,
    campaign_ids: &[String],
    mut fetch: F,
) -> Result<AnalyticsRead, ConnectorError>
where
    F: FnMut(Ask) -> Fut,
    Fut: Future<Output = Result<Vec<AnalyticsElement>, ConnectorError>>,
{
    let cap = cap.max(1);
    let mut read = AnalyticsRead::default();
    // A stack, popped from the end: the spans in date order.
    let mut pending = span.chunks(MAX_DAYS_PER_REQUEST);
    pending.reverse();
    while let Some(part) = pending.pop() {
        let elements = fetch(Ask {
            span: part,
            campaigns: None,
        })
        .await?;
        read.requests += 1;
        if elements.len() < cap {
            read.elements.extend(elements);
            continue;
        }
        if let Some((earlier, later)) = part.halves() {
            tracing::debug!(
                first = %part.first,
                last = %part.last,
                "linkedin ad analytics answer reached its cap; halving the days"
            );
            pending.push(later);
            pending.push(earlier);
            continue;
        }
        if campaign_ids.is_empty() {
            read.capped_days.push(part.first);
            read.elements.extend(elements);
            continue;
        }
        // One day, asked again campaign batch by campaign batch; the cut answer is dropped.
        tracing::debug!(
            day = %part.first,
            "linkedin ad analytics answer for one day reached its cap; asking by campaign"
        );
        let batch = (cap - 1).clamp(1, CAMPAIGNS_PER_REQUEST);
        let mut capped = false;
        for ids in campaign_ids.chunks(batch) {
            let elements = fetch(Ask {
                span: part,
                campaigns: Some(ids.to_vec()),
            })
            .await?;
            read.requests += 1;
            capped |= elements.len() >= cap;
            read.elements.extend(elements);
        }
        if capped {
            tracing::warn!(
                day = %part.first,
                "linkedin ad analytics answer reached its cap even by campaign; it may be incomplete"
            );
            read.capped_days.push(part.first);
        }
    }
    Ok(read)
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;

    use super::super::ANALYTICS_ELEMENT_CAP as CAP;
    use super::super::days::parse;
    use super::*;

    fn span(first: &str, last: &str) -> Span {
        Span {
            first: parse(first).unwrap(),
            last: parse(last).unwrap(),
        }
    }

    fn whole(span: Span) -> Ask {
        Ask {
            span,
            campaigns: None,
        }
    }

    #[test]
    fn the_query_is_the_documented_analytics_finder() {
        let creatives = query(
            "507404993",
            Pivot::Creative,
            &whole(span("2026-11-01", "2026-11-30")),
        );
        assert_eq!(
            creatives.render(),
            "q=analytics&pivot=CREATIVE&timeGranularity=DAILY\
             &dateRange=(start:(year:2026,month:11,day:1),end:(year:2026,month:11,day:30))\
             &accounts=List(urn%3Ali%3AsponsoredAccount%3A507404993)\
             &fields=costInLocalCurrency,impressions,clicks,dateRange,pivotValues"
        );
        let by_campaign = query(
            "1",
            Pivot::Campaign,
            &Ask {
                span: span("2026-11-01", "2026-11-01"),
                campaigns: Some(vec!["10".into(), "20".into()]),
            },
        );
        assert_eq!(
            by_campaign.render(),
            "q=analytics&pivot=CAMPAIGN&timeGranularity=DAILY\
             &dateRange=(start:(year:2026,month:11,day:1),end:(year:2026,month:11,day:1))\
             &campaigns=List(urn%3Ali%3AsponsoredCampaign%3A10,urn%3Ali%3AsponsoredCampaign%3A20)\
             &fields=costInLocalCurrency,impressions,clicks,dateRange,pivotValues"
        );
    }

    /// A fake `adAnalytics`: `per_day` elements per campaign asked (all campaigns: `campaigns`)
    /// for every day asked, cut at `cap` as LinkedIn cuts.
    fn answer(
        ask: &Ask,
        campaigns: usize,
        per_campaign: usize,
        cap: usize,
    ) -> Vec<AnalyticsElement> {
        let asked = ask.campaigns.as_ref().map_or(campaigns, Vec::len);
        (0..ask.span.len() as usize * asked * per_campaign)
            .map(|_| AnalyticsElement::default())
            .take(cap)
            .collect()
    }

    #[tokio::test]
    async fn long_windows_are_asked_a_month_at_a_time() {
        let asked = RefCell::new(Vec::new());
        let read = read_split(span("2026-01-01", "2026-03-05"), CAP, &[], |ask| {
            asked.borrow_mut().push(ask.clone());
            async move { Ok(answer(&ask, 10, 1, CAP)) }
        })
        .await
        .unwrap();
        assert_eq!(
            asked.into_inner(),
            vec![
                whole(span("2026-01-01", "2026-01-31")),
                whole(span("2026-02-01", "2026-03-03")),
                whole(span("2026-03-04", "2026-03-05")),
            ]
        );
        assert_eq!(read.requests, 3);
        assert_eq!(read.elements.len(), 64 * 10);
        assert!(read.capped_days.is_empty());
    }

    #[tokio::test]
    async fn an_answer_at_the_cap_is_asked_again_in_halves() {
        // 600 active creatives: 30 days would be 18,000 elements (cut at 15,000); 15 days are
        // 9,000, under the cap.
        let asked = RefCell::new(Vec::new());
        let read = read_split(span("2026-11-01", "2026-11-30"), CAP, &[], |ask| {
            asked.borrow_mut().push(ask.clone());
            async move { Ok(answer(&ask, 600, 1, CAP)) }
        })
        .await
        .unwrap();
        assert_eq!(
            asked.into_inner(),
            vec![
                whole(span("2026-11-01", "2026-11-30")),
                whole(span("2026-11-01", "2026-11-15")),
                whole(span("2026-11-16", "2026-11-30")),
            ]
        );
        // Only the halves' answers are kept: every day once.
        assert_eq!(read.elements.len(), 30 * 600);
        assert_eq!(read.requests, 3);
        assert!(read.capped_days.is_empty());
    }

    #[tokio::test]
    async fn a_day_at_the_cap_is_asked_again_by_campaign() {
        // A cap of 5 and 7 campaigns active on one day: the account answer is cut; batches of 4
        // campaigns come back whole.
        let ids: Vec<String> = (1..=7).map(|id| id.to_string()).collect();
        let asked = RefCell::new(Vec::new());
        let read = read_split(span("2026-11-01", "2026-11-01"), 5, &ids, |ask| {
            asked.borrow_mut().push(ask.clone());
            async move { Ok(answer(&ask, 7, 1, 5)) }
        })
        .await
        .unwrap();
        let day = span("2026-11-01", "2026-11-01");
        assert_eq!(
            asked.into_inner(),
            vec![
                whole(day),
                Ask {
                    span: day,
                    campaigns: Some(vec!["1".into(), "2".into(), "3".into(), "4".into()]),
                },
                Ask {
                    span: day,
                    campaigns: Some(vec!["5".into(), "6".into(), "7".into()]),
                },
            ]
        );
        assert_eq!(read.elements.len(), 7);
        assert_eq!(read.requests, 3);
        assert!(read.capped_days.is_empty());
    }

    #[tokio::test]
    async fn a_day_still_at_the_cap_is_kept_and_reported() {
        // Creatives: 4 campaigns of 2 creatives a day under a cap of 3. Without campaign ids the
        // cut answer is kept; with them, a batch of 2 campaigns (4 creatives) is still cut.
        let read = read_split(span("2026-11-01", "2026-11-02"), 3, &[], |ask| async move {
            Ok(answer(&ask, 4, 2, 3))
        })
        .await
        .unwrap();
        assert_eq!(read.requests, 3);
        assert_eq!(read.elements.len(), 6);
        assert_eq!(
            read.capped_days,
            vec![parse("2026-11-01").unwrap(), parse("2026-11-02").unwrap()]
        );
        let ids: Vec<String> = (1..=4).map(|id| id.to_string()).collect();
        let read = read_split(
            span("2026-11-01", "2026-11-01"),
            3,
            &ids,
            |ask| async move { Ok(answer(&ask, 4, 2, 3)) },
        )
        .await
        .unwrap();
        assert_eq!(read.requests, 3);
        assert_eq!(read.elements.len(), 6);
        assert_eq!(read.capped_days, vec![parse("2026-11-01").unwrap()]);
    }

    #[tokio::test]
    async fn a_failed_request_fails_the_read() {
        let result = read_split(span("2026-11-01", "2026-11-02"), CAP, &[], |_| async {
            Err(ConnectorError::RateLimited("throttled".to_owned()))
        })
        .await;
        assert!(matches!(result, Err(ConnectorError::RateLimited(_))));
    }
}
