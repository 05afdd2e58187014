//! The sync window: charges and refunds by creation time, half-open and to the millisecond;
//! disputes re-read 120 days back; the `created[...]` bounds each request sends.

use super::*;

#[tokio::test]
async fn the_window_filters_by_creation_time() {
    let from = T0 + 100;
    let to = T0 + 200;
    let mut seed = Seed::default();
    for (i, created) in [T0, from - 1, from, from + 1, from + 50, to - 1, to, to + 1]
        .iter()
        .enumerate()
    {
        seed.charges.push(FakeCharge::succeeded(
            &format!("ch_{i}"),
            100 * (i as i64 + 1),
            "usd",
            *created,
        ));
    }
    let refund = |id: &str, created: i64| FakeRefund {
        id: id.into(),
        amount: 50,
        charge: "ch_3".into(),
        currency: "usd".into(),
        created,
        status: "succeeded".into(),
    };
    seed.refunds = vec![refund("re_in", to - 1), refund("re_out", to)];
    // Disputes are re-read 120 days back (they are decided long after they open): one opened
    // 10 days before the window and since won is seen again; one from 200 days ago is not.
    let dispute = |id: &str, created: i64, status: &str| FakeDispute {
        id: id.into(),
        amount: 400,
        charge: "ch_3".into(),
        currency: "usd".into(),
        created,
        status: status.into(),
        reinstated_at: None,
    };
    seed.disputes = vec![
        dispute("dp_recent", from - 10 * DAY, "won"),
        dispute("dp_old", from - 200 * DAY, "lost"),
        dispute("dp_late", to, "lost"),
    ];
    let fake = StripeFake::start(KEY, seed.clone()).await;
    // Half a second past `from`: the object created at `from` (at .000) is before the window.
    let window = SyncWindow {
        from: Timestamp::from_millis(from * 1000 + 500),
        to: Timestamp::from_millis(to * 1000),
    };
    let output = read_window(&config(&fake, KEY, PaymentStage::Payment), window, "USD")
        .await
        .unwrap();

    let inside = |created: i64| {
        created * 1000 >= window.from.millis() && created * 1000 < window.to.millis()
    };
    let mut expected: Vec<String> = seed
        .charges
        .iter()
        .filter(|c| inside(c.created))
        .map(|c| c.id.clone())
        .collect();
    expected.extend(
        seed.refunds
            .iter()
            .filter(|r| inside(r.created))
            .map(|r| r.id.clone()),
    );
    let lookback = 120 * DAY * 1000;
    for d in &seed.disputes {
        let millis = d.created * 1000;
        if millis >= window.from.millis() - lookback && millis < window.to.millis() {
            expected.push(d.id.clone());
            expected.push(format!("{}:reversed", d.id));
        }
    }
    expected.sort();
    let mut got: Vec<String> = output.events.iter().map(|e| e.dedupe_id.clone()).collect();
    got.sort();
    assert_eq!(got, expected);
    assert_eq!(
        got,
        [
            "ch_3",
            "ch_4",
            "ch_5",
            "dp_recent",
            "dp_recent:reversed",
            "re_in"
        ]
    );
    for request in fake.requests() {
        let gte = if request.path == "/v1/disputes" {
            from + 1 - 120 * DAY
        } else {
            from + 1
        };
        assert_eq!(
            request.param("created[gte]"),
            Some(gte.to_string().as_str()),
            "{}",
            request.path
        );
        assert_eq!(request.param("created[lt]"), Some(to.to_string().as_str()));
    }
}
