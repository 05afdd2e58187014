//! The connection end to end against a small LinkedIn stand-in on loopback: the requests as
//! they go over the wire (headers, Rest.li query strings, cursors), retries, and what `test`,
//! `sync` and discovery make of the documented answers.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use payback_domain::Timestamp;

use super::errors::RECONNECT;
use super::*;
use crate::{Source, SyncWindow};

const TOKEN: &str = "AQV-loopback-token-secret";
const ACCOUNT_ID: &str = "507404993";

/// What the stand-in saw and how it answers.
#[derive(Debug, Default)]
struct Seen {
    /// `path?query` of every request, in order.
    requests: Vec<String>,
    /// (Authorization, Linkedin-Version, X-Restli-Protocol-Version) of every request.
    headers: Vec<(String, String, String)>,
    /// Answer the first adAnalytics call with 429.
    throttle_once: bool,
    /// Answer every call with this status and LinkedIn error body.
    fail_with: Option<(u16, String)>,
    currency: String,
}

type Shared = Arc<Mutex<Seen>>;

fn header(headers: &HeaderMap, name: &str) -> String {
    headers
        .get(name)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default()
        .to_owned()
}

/// Records the request; answers the configured failure, if any.
fn record(
    state: &Shared,
    path: &str,
    query: &Option<String>,
    headers: &HeaderMap,
) -> Option<Response> {
    let mut seen = state.lock().unwrap();
    seen.requests.push(match query {
        Some(query) => format!("{path}?{query}"),
        None => path.to_owned(),
    });
    seen.headers.push((
        header(headers, "authorization"),
        header(headers, "linkedin-version"),
        header(headers, "x-restli-protocol-version"),
    ));
    let (status, body) = seen.fail_with.clone()?;
    Some((StatusCode::from_u16(status).unwrap(), body).into_response())
}

async fn ad_account(
    State(state): State<Shared>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    if let Some(failure) = record(&state, &format!("/rest/adAccounts/{id}"), &query, &headers) {
        return failure;
    }
    let currency = state.lock().unwrap().currency.clone();
    format!(
        r#"{{"id": {id}, "name": "Acme", "currency": "{currency}", "status": "ACTIVE",
            "type": "BUSINESS", "test": false, "servingStatuses": ["RUNNABLE"]}}"#
    )
    .into_response()
}

async fn ad_accounts(
    State(state): State<Shared>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    if let Some(failure) = record(&state, "/rest/adAccounts", &query, &headers) {
        return failure;
    }
    if query.as_deref().is_some_and(|q| q.contains("pageToken=")) {
        r#"{"elements": [{"id": 507404994, "name": "Acme EU", "currency": "EUR",
             "status": "CANCELED", "type": "BUSINESS"}], "metadata": {}}"#
            .into_response()
    } else {
        r#"{"elements": [{"id": 507404993, "name": "Acme", "currency": "USD",
             "status": "ACTIVE", "type": "BUSINESS"}],
            "metadata": {"nextPageToken": "CAES+page/2="}}"#
            .into_response()
    }
}

async fn campaigns(
    State(state): State<Shared>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    if let Some(failure) = record(
        &state,
        &format!("/rest/adAccounts/{id}/adCampaigns"),
        &query,
        &headers,
    ) {
        return failure;
    }
    if query.as_deref().is_some_and(|q| q.contains("pageToken=")) {
        r#"{"elements": [{"id": 20, "name": "Webinar", "status": "ARCHIVED"}]}"#.into_response()
    } else {
        r#"{"elements": [{"id": 10, "name": "Spring launch", "status": "ACTIVE",
             "campaignGroup": "urn:li:sponsoredCampaignGroup:1"}],
            "metadata": {"nextPageToken": "c2"}}"#
            .into_response()
    }
}

async fn creatives(
    State(state): State<Shared>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    if let Some(failure) = record(
        &state,
        &format!("/rest/adAccounts/{id}/creatives"),
        &query,
        &headers,
    ) {
        return failure;
    }
    r#"{"elements": [
         {"id": "urn:li:sponsoredCreative:1001", "name": "Hero video",
          "campaign": "urn:li:sponsoredCampaign:10", "intendedStatus": "ACTIVE"},
         {"id": "urn:li:sponsoredCreative:2001",
          "campaign": "urn:li:sponsoredCampaign:20", "intendedStatus": "ARCHIVED"}],
        "paging": {"start": 0, "count": 100, "links": []}, "metadata": {}}"#
        .into_response()
}

async fn analytics(
    State(state): State<Shared>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    if let Some(failure) = record(&state, "/rest/adAnalytics", &query, &headers) {
        return failure;
    }
    {
        let mut seen = state.lock().unwrap();
        if seen.throttle_once {
            seen.throttle_once = false;
            return (
                StatusCode::TOO_MANY_REQUESTS,
                r#"{"status": 429, "serviceErrorCode": 101, "code": "TOO_MANY_REQUESTS",
                    "message": "Resource level throttle limit for calls to this resource is reached."}"#,
            )
                .into_response();
        }
    }
    let day = |d: u8| {
        format!(
            r#""dateRange": {{"start": {{"year": 2026, "month": 11, "day": {d}}},
                              "end": {{"year": 2026, "month": 11, "day": {d}}}}}"#
        )
    };
    let query = query.unwrap_or_default();
    if query.contains("pivot=CREATIVE") {
        format!(
            r#"{{"paging": {{"start": 0, "count": 10, "links": []}}, "elements": [
                {{"pivotValues": ["urn:li:sponsoredCreative:1001"], "costInLocalCurrency": "12.345",
                  "impressions": 1000, "clicks": 10, {}}},
                {{"pivotValues": ["urn:li:sponsoredCreative:2001"], "costInLocalCurrency": "5.004",
                  "impressions": 400, "clicks": 4, {}}}]}}"#,
            day(20),
            day(21)
        )
        .into_response()
    } else {
        format!(
            r#"{{"paging": {{"start": 0, "count": 10, "links": []}}, "elements": [
                {{"pivotValues": ["urn:li:sponsoredCampaign:10"], "costInLocalCurrency": "20.00",
                  "impressions": 1500, "clicks": 12, {}}},
                {{"pivotValues": ["urn:li:sponsoredCampaign:20"], "costInLocalCurrency": "5.004",
                  "impressions": 400, "clicks": 4, {}}}]}}"#,
            day(20),
            day(21)
        )
        .into_response()
    }
}

async fn serve(state: Shared) -> String {
    let router = Router::new()
        .route("/rest/adAccounts", get(ad_accounts))
        .route("/rest/adAccounts/{id}", get(ad_account))
        .route("/rest/adAccounts/{id}/adCampaigns", get(campaigns))
        .route("/rest/adAccounts/{id}/creatives", get(creatives))
        .route("/rest/adAnalytics", get(analytics))
        .with_state(state);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let _ = axum::serve(listener, router).await;
    });
    format!("http://{addr}")
}

fn http() -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::new()
}

fn state(currency: &str) -> Shared {
    Arc::new(Mutex::new(Seen {
        currency: currency.to_owned(),
        ..Seen::default()
    }))
}

async fn config(state: &Shared) -> SocialAdsBConfig {
    let mut config = SocialAdsBConfig::new(TOKEN.to_owned(), ACCOUNT_ID.to_owned());
    config.api_base_url = format!("{}/", serve(state.clone()).await);
    config.retry = RetryPolicy {
        retries: 2,
        base_delay: Duration::from_millis(5),
    };
    config
}

/// 2026-11-21T12:00:00Z.
fn now() -> Timestamp {
    Timestamp::from_millis(1_795_262_400_000)
}

#[tokio::test]
async fn test_reads_the_account_with_every_documented_header() {
    let state = state("USD");
    let config = config(&state).await;
    let source = SocialAdsBSource::new(http(), config, "usd");
    let line = source.test().await.unwrap();
    assert_eq!(line, "LinkedIn ad account 507404993 \"Acme\" answers (USD)");
    let seen = state.lock().unwrap();
    assert_eq!(seen.requests, ["/rest/adAccounts/507404993"]);
    assert_eq!(
        seen.headers[0],
        (
            format!("Bearer {TOKEN}"),
            LINKEDIN_VERSION.to_owned(),
            "2.0.0".to_owned()
        )
    );
}

#[tokio::test]
async fn an_account_in_another_currency_is_refused() {
    let state = state("EUR");
    let source = SocialAdsBSource::new(http(), config(&state).await, "USD");
    match source.test().await {
        Err(ConnectorError::Config(line)) => {
            assert!(line.contains("EUR") && line.contains("USD"), "{line}");
        }
        other => panic!("{other:?}"),
    }
    let window = SyncWindow {
        from: now().minus_millis(payback_domain::DAY_MS),
        to: now(),
    };
    let mut pages = NoPages;
    assert!(matches!(
        source.sync(window, &mut pages).await,
        Err(ConnectorError::Config(_))
    ));
}

#[tokio::test]
async fn a_revoked_token_asks_for_a_reconnect_and_is_never_quoted() {
    let state = state("USD");
    state.lock().unwrap().fail_with = Some((
        401,
        format!(
            r#"{{"status": 401, "serviceErrorCode": 65601, "code": "REVOKED_ACCESS_TOKEN",
                "message": "The token used in the request has been revoked by the user ({TOKEN})"}}"#
        ),
    ));
    let source = SocialAdsBSource::new(http(), config(&state).await, "USD");
    match source.test().await {
        Err(ConnectorError::Unauthorized(line)) => assert_eq!(line, RECONNECT),
        other => panic!("{other:?}"),
    }
    // Not retried: one request.
    assert_eq!(state.lock().unwrap().requests.len(), 1);

    state.lock().unwrap().fail_with = Some((
        403,
        format!(
            r#"{{"status": 403, "serviceErrorCode": 100, "code": "ACCESS_DENIED",
                "message": "Not enough permissions to access: adAccounts.GET.20260701 {TOKEN}"}}"#
        ),
    ));
    match source.test().await {
        Err(ConnectorError::Unauthorized(line)) => {
            assert!(line.contains("r_ads"), "{line}");
            assert!(!line.contains(TOKEN), "{line}");
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn server_errors_are_retried_then_reported_unreachable() {
    let state = state("USD");
    state.lock().unwrap().fail_with = Some((503, "<html>unavailable</html>".to_owned()));
    let config = config(&state).await;
    assert!(matches!(
        SocialAdsBSource::new(http(), config, "USD").test().await,
        Err(ConnectorError::Unreachable(_))
    ));
    // The call and its two retries.
    assert_eq!(state.lock().unwrap().requests.len(), 3);
}

/// A spend row as (day, campaign, campaign name, ad, ad name, cents, impressions, clicks).
type RowView<'a> = (
    &'a str,
    &'a str,
    Option<&'a str>,
    &'a str,
    Option<&'a str>,
    i64,
    i64,
    i64,
);

struct NoPages;

impl crate::PageSink for NoPages {
    fn write(
        &mut self,
        _events: Vec<payback_domain::event::IncomingEvent>,
    ) -> crate::SourceFuture<'_, ()> {
        Box::pin(async { Ok(()) })
    }
}

#[tokio::test]
async fn sync_reads_creatives_and_campaigns_into_one_spend_read() {
    let state = state("USD");
    state.lock().unwrap().throttle_once = true;
    let config = config(&state).await;
    // 2026-11-20 00:00 to 2026-11-22 00:00: the 20th and the 21st.
    let window = SyncWindow {
        from: now().start_of_day().minus_millis(payback_domain::DAY_MS),
        to: now().start_of_day().plus_millis(payback_domain::DAY_MS),
    };
    let output = sync_as_of(&http(), &config, window, "USD", now())
        .await
        .unwrap();
    assert_eq!(output.spend.len(), 1);
    let read = &output.spend[0];
    assert_eq!(read.ad_account, ACCOUNT_ID);
    assert_eq!(
        (read.days.first.as_str(), read.days.last.as_str()),
        ("2026-11-20", "2026-11-21")
    );
    assert!(read.keywords.is_empty());
    let rows: Vec<RowView<'_>> = read
        .rows
        .iter()
        .map(|r| {
            (
                r.day.as_str(),
                r.campaign_id.as_str(),
                r.campaign_name.as_deref(),
                r.ad_id.as_str(),
                r.ad_name.as_deref(),
                r.spend_cents,
                r.impressions,
                r.clicks,
            )
        })
        .collect();
    assert_eq!(
        rows,
        vec![
            (
                "2026-11-20",
                "10",
                Some("Spring launch"),
                "1001",
                Some("Hero video"),
                1_235,
                1_000,
                10
            ),
            (
                "2026-11-21",
                "20",
                Some("Webinar"),
                "2001",
                None,
                500,
                400,
                4
            ),
            // 20.00 - 12.35 = 7.65 of campaign 10 beyond its creative.
            (
                "2026-11-20",
                "10",
                Some("Spring launch"),
                "",
                None,
                765,
                500,
                2
            ),
        ]
    );
    assert!(read.rows.iter().all(|r| r.network == "linkedin"
        && r.channel == "paid_linkedin"
        && r.currency == "USD"
        && r.ad_group_id.is_empty()));
    assert!(
        output.detail.starts_with(
            "LinkedIn ad account 507404993 \"Acme\": 2026-11-20..2026-11-21, 25.00 USD in 2 \
             creative rows and 1 campaign rows beyond creatives"
        ),
        "{}",
        output.detail
    );

    let seen = state.lock().unwrap();
    let range = "dateRange=(start:(year:2026,month:11,day:20),end:(year:2026,month:11,day:21))";
    let accounts = "accounts=List(urn%3Ali%3AsponsoredAccount%3A507404993)";
    let fields = "fields=costInLocalCurrency,impressions,clicks,dateRange,pivotValues";
    let creative_query = format!(
        "/rest/adAnalytics?q=analytics&pivot=CREATIVE&timeGranularity=DAILY&{range}&{accounts}&{fields}"
    );
    let campaigns_query = "/rest/adAccounts/507404993/adCampaigns?q=search&search=(status:(\
                           values:List(ACTIVE,PAUSED,ARCHIVED,COMPLETED,CANCELED,DRAFT,\
                           PENDING_DELETION,REMOVED)))&pageSize=100";
    assert_eq!(
        seen.requests,
        vec![
            "/rest/adAccounts/507404993".to_owned(),
            campaigns_query.to_owned(),
            format!("{campaigns_query}&pageToken=c2"),
            // Throttled once, then retried.
            creative_query.clone(),
            creative_query,
            format!(
                "/rest/adAnalytics?q=analytics&pivot=CAMPAIGN&timeGranularity=DAILY&{range}&{accounts}&{fields}"
            ),
            "/rest/adAccounts/507404993/creatives?q=criteria&campaigns=List(\
             urn%3Ali%3AsponsoredCampaign%3A10,urn%3Ali%3AsponsoredCampaign%3A20)&pageSize=100"
                .to_owned(),
        ]
    );
    assert!(seen.headers.iter().all(|(auth, version, protocol)| auth
        == &format!("Bearer {TOKEN}")
        && version == LINKEDIN_VERSION
        && protocol == "2.0.0"));
}

#[tokio::test]
async fn a_window_past_the_retention_reads_nothing() {
    let state = state("USD");
    let config = config(&state).await;
    let window = SyncWindow {
        from: Timestamp::parse_day("2010-01-01").unwrap(),
        to: Timestamp::parse_day("2011-01-01").unwrap(),
    };
    let output = sync_as_of(&http(), &config, window, "USD", now())
        .await
        .unwrap();
    assert!(output.spend.is_empty());
    assert!(
        output.detail.contains("older than the 10 years"),
        "{}",
        output.detail
    );
    // Only the account was read.
    assert_eq!(state.lock().unwrap().requests.len(), 1);
}

#[tokio::test]
async fn discovery_follows_the_cursor_through_every_page() {
    let state = state("USD");
    let base = serve(state.clone()).await;
    let options = discover_ad_accounts(&http(), &base, TOKEN).await.unwrap();
    let ids: Vec<(&str, &str, &str)> = options
        .iter()
        .map(|o| (o.id.as_str(), o.currency.as_str(), o.status.as_str()))
        .collect();
    assert_eq!(
        ids,
        [
            ("507404993", "USD", "active"),
            ("507404994", "EUR", "canceled")
        ]
    );
    let seen = state.lock().unwrap();
    assert_eq!(
        seen.requests,
        [
            "/rest/adAccounts?q=search&pageSize=100",
            // The opaque token, encoded as one value.
            "/rest/adAccounts?q=search&pageSize=100&pageToken=CAES%2Bpage%2F2%3D",
        ]
    );
}

#[tokio::test]
async fn disconnect_revokes_nothing() {
    let state = state("USD");
    let config = config(&state).await;
    let source = SocialAdsBSource::new(http(), config, "USD");
    assert_eq!(
        source.disconnect().await.unwrap(),
        crate::Revocation::NothingToRevoke
    );
    assert!(state.lock().unwrap().requests.is_empty());
}
