//! GET /products/{slug}/distribution: entries joined to what their campaign brought (checked
//! against the oracle), the history events, and the `days` window and `limit`.

use super::oracle::{Brought, Ev, brought, ev, first_batch, ingest, oracle, second_batch};
use super::*;

async fn entries_join_what_their_campaign_brought(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let first = first_batch();
    let second = second_batch();
    ingest(&app, &key, "shop", &first).await;
    ingest(&app, &owner.token, "shop", &second).await;
    // Another product of the account runs the same campaign: none of it is `shop`'s.
    let side = vec![
        ev("s1", "visit").anon("a1").campaign(LAUNCH),
        ev("s2", "visit").anon("z1").campaign(LAUNCH),
        ev("s3", "lead").anon("z1"),
        ev("s4", "payment").anon("z1").value(1_234),
    ];
    ingest(&app, &key, "side", &side).await;
    let all: Vec<Ev> = first.iter().chain(&second).cloned().collect();

    // The oracle, spelled out once so a wrong oracle cannot agree with a wrong server: u1 (a1,
    // a6), a2, u5 (a5) and u10 (a10) visited with the launch plus a7 long ago, and two visits
    // had no identity; a3 was reached by a signup. Leads u1 and a2; customers u1, a3 (no
    // value), u5 and u10; revenue 4900 - 900 + 2000 + 800 + 200.
    let launch = oracle(&all, LAUNCH);
    assert_eq!(
        launch,
        Brought {
            visits: 5 + 2,
            leads: 2,
            customers: 4,
            revenue_cents: 4_900 - 900 + 2_000 + 800 + 200,
        }
    );
    let other = oracle(&all, OTHER);
    assert_eq!(
        other,
        Brought {
            visits: 1,
            leads: 1,
            customers: 2,
            revenue_cents: 9_900 + 100 + 700,
        }
    );

    let hn = json!({
        "productSlug": "shop", "channel": "hacker_news", "kind": "post",
        "url": "https://news.ycombinator.com/item?id=1", "utmCampaign": LAUNCH, "note": "Show HN",
    });
    let created_hn = app.clock.now();
    let hn_id = record(&app, &owner.token, hn).await;
    app.clock.advance(1_000);
    let bare = json!({ "productSlug": "shop", "channel": "newsletter", "kind": "email" });
    let bare_id = record(&app, &key, bare).await;
    app.clock.advance(1_000);
    // Campaign text is trimmed, as event attribution is.
    let sale = json!({ "productSlug": "shop", "channel": "reddit", "kind": "comment", "utmCampaign": format!("  {OTHER} ") });
    let sale_id = record(&app, &key, sale).await;
    app.clock.advance(1_000);
    let unknown = json!({ "productSlug": "shop", "channel": "x", "kind": "post", "utmCampaign": "never-seen" });
    let unknown_id = record(&app, &key, unknown).await;
    // An entry of the other product is not listed for `shop`.
    let side_entry =
        json!({ "productSlug": "side", "channel": "x", "kind": "post", "utmCampaign": LAUNCH });
    let side_id = record(&app, &key, side_entry).await;

    let listed = list(&app, &key, "").await;
    assert_eq!(listed["product_slug"], "shop");
    assert_eq!(listed["window_days"], 30);
    assert_eq!(
        ids(&listed),
        vec![unknown_id, sale_id.clone(), bare_id.clone(), hn_id.clone()]
    );
    let entries = listed["entries"].as_array().unwrap();

    let hn = &entries[3];
    assert_eq!(
        hn,
        &json!({
            "id": hn_id, "channel": "hacker_news", "kind": "post",
            "url": "https://news.ycombinator.com/item?id=1", "utm_campaign": LAUNCH, "note": "Show HN",
            "created_by": OWNER, "created_at": created_hn.to_rfc3339(),
            "visits": launch.visits, "leads": launch.leads, "customers": launch.customers,
            "revenue_cents": launch.revenue_cents,
        })
    );
    let bare = &entries[2];
    assert_eq!(bare["created_by"], "keeper");
    assert_eq!(bare["utm_campaign"], Value::Null);
    assert_eq!(bare["url"], Value::Null);
    assert_eq!(bare["note"], Value::Null);
    assert_eq!(brought(bare), Brought::default());
    let sale = &entries[1];
    assert_eq!(sale["utm_campaign"], OTHER);
    assert_eq!(brought(sale), other);
    assert_eq!(brought(&entries[0]), oracle(&all, "never-seen"));
    assert_eq!(brought(&entries[0]), Brought::default());

    // The other product's entry shows that product's numbers only.
    let side_list = app
        .get("/products/side/distribution", Some(&key))
        .await
        .expect(200)
        .clone();
    assert_eq!(ids(&side_list), vec![side_id]);
    assert_eq!(brought(&side_list["entries"][0]), oracle(&side, LAUNCH));
    assert_eq!(
        brought(&side_list["entries"][0]),
        Brought {
            visits: 2,
            leads: 1,
            customers: 1,
            revenue_cents: 1_234,
        }
    );

    // Events arriving later change the numbers of an existing entry (they are read, not kept):
    // a2 pays, and a visitor with the launch arrives.
    let third = vec![
        ev("40", "payment").anon("a2").value(1_500),
        ev("41", "visit").anon("a9").campaign(LAUNCH),
    ];
    ingest(&app, &key, "shop", &third).await;
    let all: Vec<Ev> = all.into_iter().chain(third).collect();
    let again = list(&app, &owner.token, "").await;
    let hn = again["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == hn_id.as_str())
        .unwrap()
        .clone();
    assert_eq!(brought(&hn), oracle(&all, LAUNCH));
    assert_eq!(brought(&hn).visits, 8);
    assert_eq!(brought(&hn).customers, 5);
    assert_eq!(brought(&hn).revenue_cents, 4_000 + 2_000 + 1_000 + 1_500);

    // History: one `distribution.create` per entry, by the person or by `keeper`.
    let created: Vec<Value> = app
        .history(&owner.token, "?product=shop")
        .await
        .into_iter()
        .filter(|e| e["action"] == "distribution.create")
        .collect();
    assert_eq!(created.len(), 4);
    let by_owner = created
        .iter()
        .find(|e| e["payload"]["entry_id"] == hn_id.as_str())
        .unwrap();
    assert_eq!(by_owner["actor"], OWNER);
    assert_eq!(by_owner["via"], "dashboard");
    assert_eq!(by_owner["product_slug"], "shop");
    assert_eq!(by_owner["payload"]["channel"], "hacker_news");
    assert_eq!(by_owner["payload"]["kind"], "post");
    assert_eq!(by_owner["payload"]["utm_campaign"], LAUNCH);
    assert_eq!(
        by_owner["payload"]["url"],
        "https://news.ycombinator.com/item?id=1"
    );
    let by_key = created
        .iter()
        .find(|e| e["payload"]["entry_id"] == bare_id.as_str())
        .unwrap();
    assert_eq!(by_key["actor"], "keeper");
    assert_eq!(by_key["via"], "api");
}

async fn window_and_limit(app: TestApp) {
    let (owner, key) = founder(&app).await;
    // Created on 2026-11-21 at noon; then the clock moves ten days on.
    let old = record(
        &app,
        &owner.token,
        json!({ "productSlug": "shop", "channel": "forum", "kind": "post" }),
    )
    .await;
    app.clock.advance(10 * DAY_MS);
    let mut newer = Vec::new();
    for n in 0..3 {
        app.clock.advance(MINUTE_MS);
        let body = json!({ "productSlug": "shop", "channel": format!("c{n}"), "kind": "post" });
        newer.push(record(&app, &key, body).await);
    }
    newer.reverse();

    let everything: Vec<String> = newer.iter().cloned().chain([old.clone()]).collect();
    assert_eq!(ids(&list(&app, &key, "").await), everything);
    // 11 days ending 2026-12-01 start on 2026-11-21 at midnight: the old entry is in.
    let eleven = list(&app, &key, "?days=11").await;
    assert_eq!(eleven["window_days"], 11);
    assert_eq!(ids(&eleven), everything);
    // 10 days start on 2026-11-22: it is not.
    let ten = list(&app, &key, "?days=10").await;
    assert_eq!(ten["window_days"], 10);
    assert_eq!(ids(&ten), newer);
    // One day is today: the three newer entries.
    assert_eq!(ids(&list(&app, &key, "?days=1").await), newer);
    // `limit` keeps the newest.
    assert_eq!(
        ids(&list(&app, &key, "?limit=2").await),
        newer[..2].to_vec()
    );
    assert_eq!(
        ids(&list(&app, &key, "?limit=1&days=11").await),
        newer[..1].to_vec()
    );
    assert_eq!(ids(&list(&app, &key, "?limit=1000").await), everything);
    // Ten idle days ended the owner's session; a fresh one reads the same list.
    let owner = app.login(&owner.email).await;
    assert_eq!(ids(&list(&app, &owner.token, "?days=11").await), everything);
}

backend_tests!(entries_join_what_their_campaign_brought, window_and_limit);
