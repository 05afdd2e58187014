//! Reads behind a backlog: with the fold held (a real pause of the writer's folder, as a long
//! burst or a backfill would keep it busy), reports answer after their bounded wait from what is
//! folded and say how many events are pending (`X-Payback-Pending-Events`); once the fold goes
//! on, the next read counts everything and says 0. Exports wait for the whole fold.

use payback_testkit::{Backend, Reply, TestApp, backend_tests, per_backend};
use serde_json::{Value, json};

use super::setup;

const PENDING: &str = "x-payback-pending-events";

/// The report and product reads a dashboard makes, each settling the product `shop`.
const READS: &[&str] = &[
    "/products/shop/attribution?days=30",
    "/products/shop/attribution/sales?days=30",
    "/products/shop/attribution/ads?days=30",
    "/products/shop/timeseries?days=30",
    "/products/shop/funnel?days=30",
    "/products/shop/funnel/series?days=30",
    "/products/shop/funnel/definition",
    "/products/shop/conversions",
    "/products/shop/conversions/report?days=30",
    "/products/shop/payback",
    "/products/shop",
    "/portfolio",
    "/health",
];

fn pending(reply: &Reply) -> u64 {
    let header = reply.header(PENDING).unwrap_or_else(|| {
        panic!(
            "no {PENDING} header (status {}): {}",
            reply.status, reply.text
        )
    });
    header.parse().unwrap()
}

fn revenue(attribution: &Value) -> i64 {
    attribution["totals"]["revenue_cents"].as_i64().unwrap()
}

/// Every read in [`READS`], sent at once so the bounded waits overlap instead of adding up
/// (while the fold is held each takes the whole wait): each answers 200; returned in order.
async fn read_all(app: &TestApp, key: &str) -> Vec<Reply> {
    let sent: Vec<_> = READS
        .iter()
        .map(|path| {
            let request = app.client.get(app.url(path)).bearer_auth(key);
            tokio::spawn(async move { Reply::read(request.send().await.unwrap()).await })
        })
        .collect();
    let mut replies = Vec::with_capacity(sent.len());
    for (path, reply) in READS.iter().zip(sent) {
        let reply = reply.await.unwrap();
        assert_eq!(reply.status, 200, "{path}: {}", reply.text);
        replies.push(reply);
    }
    replies
}

/// The scenario, scaled down: a founder reads the reports while the fold is behind.
async fn reads_answer_from_what_is_folded_while_the_fold_is_held(backend: Backend) {
    // The production default: a read waits for the fold at most a second.
    let app = TestApp::spawn_with(backend, |config| config.read_wait_ms = 1_000).await;
    let (_, key) = setup(&app).await;
    app.create_product(&key, "quiet").await;
    app.send_events(
        &key,
        "shop",
        json!([
            {"dedupe_id": "v1", "stage": "visit", "anonymous_id": "anon-1", "occurred_at": "2026-11-20T10:00:00Z",
             "attribution": {"utm_source": "google", "utm_medium": "cpc", "utm_campaign": "spring"}},
            {"dedupe_id": "s1", "stage": "signup", "anonymous_id": "anon-1", "user_id": "u1", "occurred_at": "2026-11-20T10:05:00Z"},
            {"dedupe_id": "p1", "stage": "payment", "user_id": "u1", "value": 4900, "occurred_at": "2026-11-20T11:00:00Z"},
        ]),
    )
    .await;
    // Exact from here: nothing is pending, so every read says 0.
    app.settle().await;
    for (path, reply) in READS.iter().zip(read_all(&app, &key).await) {
        assert_eq!(pending(&reply), 0, "{path}");
    }
    let before = app
        .get("/products/shop/attribution?days=30", Some(&key))
        .await;
    assert_eq!(revenue(before.expect(200)), 4900);

    app.state.ingest.pause_folding().await;
    let backlog = json!([
        {"dedupe_id": "v2", "stage": "visit", "anonymous_id": "anon-2", "occurred_at": "2026-11-20T12:00:00Z",
         "attribution": {"referrer": "https://www.google.com/search?q=shop"}},
        {"dedupe_id": "s2", "stage": "signup", "anonymous_id": "anon-2", "user_id": "u2", "occurred_at": "2026-11-20T12:05:00Z"},
        {"dedupe_id": "p2", "stage": "payment", "user_id": "u2", "value": 2500, "occurred_at": "2026-11-20T13:00:00Z"},
        {"dedupe_id": "p3", "stage": "payment", "user_id": "u1", "value": 1000, "occurred_at": "2026-11-20T14:00:00Z"},
    ]);
    // Accepted while the fold is held: the request path never waits for the fold.
    app.send_events(&key, "shop", backlog).await;

    // An export must be complete: it waits for the fold, however long.
    let export = {
        let request = app
            .client
            .get(app.url("/products/shop/export/transactions.csv"))
            .bearer_auth(&key);
        tokio::spawn(async move {
            let response = request.send().await.unwrap();
            let header = response
                .headers()
                .get(PENDING)
                .and_then(|value| value.to_str().ok())
                .map(str::to_owned);
            (
                response.status().as_u16(),
                header,
                response.text().await.unwrap(),
            )
        })
    };

    let replies = read_all(&app, &key).await;
    for (path, reply) in READS.iter().zip(&replies) {
        assert_eq!(pending(reply), 4, "{path}: the held batch's events");
    }
    // The answers count what is folded, and only that.
    assert_eq!(revenue(&replies[0].body), 4900);
    assert_eq!(replies[10].body["revenue_30d_cents"], 4900);
    assert_eq!(replies[10].body["visits_30d"], 1);
    let series_revenue: i64 = replies[3]
        .body
        .as_array()
        .unwrap()
        .iter()
        .map(|day| day["revenue_cents"].as_i64().unwrap())
        .sum();
    assert_eq!(series_revenue, 4900);
    let shop_row = replies[11]
        .body
        .as_array()
        .unwrap()
        .iter()
        .find(|row| row["slug"] == "shop")
        .unwrap();
    assert_eq!(shop_row["revenue_30d_cents"], 4900);

    // A founder's edit that does not depend on ingested data answers at once, fold held or
    // not; a currency change does (whether revenue exists), and waits for the whole fold.
    let renamed = tokio::time::timeout(
        std::time::Duration::from_secs(10),
        app.post(
            "/products/shop",
            Some(&key),
            json!({ "name": "Shop renamed" }),
        ),
    )
    .await
    .expect("a rename waited for the held fold");
    assert_eq!(renamed.expect(200)["name"], "Shop renamed");
    let recurrency = {
        let request = app
            .client
            .post(app.url("/products/shop"))
            .bearer_auth(&key)
            .json(&json!({ "currency": "EUR" }));
        tokio::spawn(async move { Reply::read(request.send().await.unwrap()).await })
    };

    // Another product's backlog is not this one's: with nothing of its own pending, a read
    // answers at once, exactly, even while the fold is held.
    let quiet = app
        .get("/products/quiet/attribution?days=30", Some(&key))
        .await;
    assert_eq!(revenue(quiet.expect(200)), 0);
    assert_eq!(pending(&quiet), 0);

    // The export and the currency change cannot have answered while nothing is folded.
    assert!(!export.is_finished(), "the export answered before the fold");
    assert!(
        !recurrency.is_finished(),
        "the currency change was decided before the fold"
    );
    app.state.ingest.resume_folding().await;
    let recurrency = recurrency.await.unwrap();
    assert_ne!(
        recurrency.status, 200,
        "revenue exists: {}",
        recurrency.text
    );
    let (status, header, csv) = export.await.unwrap();
    assert_eq!(status, 200, "{csv}");
    assert_eq!(header.as_deref(), Some("0"));
    let sales: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(sales.len(), 3, "every sale, the held ones too: {csv}");

    // Folded: the next reads count everything and say 0.
    for (path, reply) in READS.iter().zip(read_all(&app, &key).await) {
        assert_eq!(pending(&reply), 0, "{path}");
    }
    let after = app
        .get("/products/shop/attribution?days=30", Some(&key))
        .await;
    assert_eq!(revenue(after.expect(200)), 8400);
    assert_eq!(pending(&after), 0);
    let product = app.get("/products/shop", Some(&key)).await;
    assert_eq!(product.expect(200)["revenue_30d_cents"], 8400);
    assert_eq!(product.body["visits_30d"], 2);
}

per_backend!(reads_answer_from_what_is_folded_while_the_fold_is_held);

/// Refusals settle nothing and carry no count; writes that settle send it but it documents
/// only reads, in the OpenAPI document of every report and product read.
async fn the_header_is_documented_on_every_read_that_settles(app: TestApp) {
    let (_, key) = setup(&app).await;
    let missing = app.get("/products/nope/attribution", Some(&key)).await;
    assert_eq!(missing.status, 404);
    assert_eq!(missing.header(PENDING), None);

    let document = app.get("/openapi.json", None).await.expect(200).clone();
    let reads = [
        "/products/{slug}/attribution",
        "/products/{slug}/attribution/sales",
        "/products/{slug}/attribution/ads",
        "/products/{slug}/timeseries",
        "/products/{slug}/funnel",
        "/products/{slug}/funnel/series",
        "/products/{slug}/funnel/definition",
        "/products/{slug}/conversions",
        "/products/{slug}/conversions/report",
        "/products/{slug}/payback",
        "/products/{slug}/export/events.csv",
        "/products/{slug}/export/transactions.csv",
        "/products/{slug}",
        "/portfolio",
        "/health",
    ];
    for path in reads {
        let header = &document["paths"][path]["get"]["responses"]["200"]["headers"]["X-Payback-Pending-Events"];
        assert_eq!(header["schema"]["type"], "integer", "{path}: {header}");
        assert!(
            header["description"]
                .as_str()
                .is_some_and(|text| text.contains("PAYBACK_READ_WAIT_MS")),
            "{path}: {header}"
        );
    }
    // Writes are not documented with it, even those that settle.
    let create = &document["paths"]["/products"]["post"]["responses"]["200"];
    assert!(create.get("headers").is_none(), "{create}");
}

backend_tests!(the_header_is_documented_on_every_read_that_settles);
