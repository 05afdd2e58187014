//! Refunds and disputes take money back from the right payer (nets per payer), and a dispute won
//! after an earlier sync nets to zero even once its creation is outside the re-sync window.

use super::*;

use super::fixtures::disputes_seed;

#[tokio::test]
async fn refunds_and_disputes_take_money_back_from_the_right_payer() {
    let seed = disputes_seed();
    let fake = StripeFake::start(KEY, seed.clone()).await;
    let output = read_window(
        &config(&fake, KEY, PaymentStage::Payment),
        wide_window(),
        "USD",
    )
    .await
    .unwrap();
    let events = by_id(&output);
    let user_of = |charge: &str| {
        seed.charges
            .iter()
            .find(|c| c.id == charge)
            .and_then(|c| c.metadata.get("user_id").cloned())
    };

    // Expected rows, from the seed: (dedupe id, value, user, occurred_at).
    let mut expected: Vec<(String, i64, Option<String>, i64)> = seed
        .charges
        .iter()
        .filter(|c| c.captured)
        .map(|c| (c.id.clone(), c.amount, user_of(&c.id), c.created))
        .collect();
    for r in &seed.refunds {
        let captured = seed.charges.iter().any(|c| c.id == r.charge && c.captured);
        if r.status == "succeeded" && captured {
            expected.push((r.id.clone(), -r.amount, user_of(&r.charge), r.created));
        }
    }
    for d in &seed.disputes {
        match d.status.as_str() {
            "needs_response" | "lost" => {
                expected.push((d.id.clone(), -d.amount, user_of(&d.charge), d.created));
            }
            "won" | "warning_closed" => {
                expected.push((d.id.clone(), -d.amount, user_of(&d.charge), d.created));
                let back = d.reinstated_at.unwrap_or(d.created);
                expected.push((
                    format!("{}:reversed", d.id),
                    d.amount,
                    user_of(&d.charge),
                    back,
                ));
            }
            _ => {}
        }
    }
    assert_eq!(
        events.len(),
        expected.len(),
        "{:?}",
        events.keys().collect::<Vec<_>>()
    );
    for (id, value, user, created) in &expected {
        let event = events.get(id).unwrap_or_else(|| panic!("missing {id}"));
        assert_eq!(event.value, Some(*value), "{id}");
        assert_eq!(&event.user_id, user, "{id}");
        assert_eq!(
            event.occurred_at.as_deref(),
            Some(at(*created).as_str()),
            "{id}"
        );
        if !id.starts_with("ch_") {
            assert_eq!(event.stage, "payment", "{id}");
        }
    }
    // Net per payer: a refunded charge nets to what was kept, a won dispute to the full charge,
    // lost and open disputes to zero.
    let net = |user: &str| -> i64 {
        output
            .events
            .iter()
            .filter(|e| e.user_id.as_deref() == Some(user))
            .filter_map(|e| e.value)
            .sum()
    };
    assert_eq!(net("u_a"), 5000 - 1500);
    assert_eq!(net("u_b"), 0);
    assert_eq!(net("u_c"), 0);
    assert_eq!(net("u_d"), 0);
    assert_eq!(net("u_e"), 4000);
    assert_eq!(net("u_g"), 1000);
    assert_eq!(net("u_f"), 0);
    assert_eq!(
        events["re_a1"].properties.as_ref().unwrap()["charge"],
        "ch_a"
    );
    assert_eq!(
        output.detail,
        "8 charges, 5 refunds, 5 disputes read; 1 dispute with an unknown status skipped"
    );
    assert_ingestible(&output, "USD");
}

#[tokio::test]
async fn a_dispute_won_after_an_earlier_sync_nets_to_zero() {
    let mut seed = disputes_seed();
    seed.disputes.retain(|d| d.id == "dp_e");
    seed.disputes[0].status = "under_review".into();
    seed.disputes[0].reinstated_at = None;
    let fake = StripeFake::start(KEY, seed).await;
    let config = config(&fake, KEY, PaymentStage::Payment);

    // What the store keeps: the first row per dedupe id, as ingestion drops duplicates.
    let mut stored: BTreeMap<String, i64> = BTreeMap::new();
    fn store(stored: &mut BTreeMap<String, i64>, output: SyncOutput) {
        for e in output.events {
            stored.entry(e.dedupe_id).or_insert(e.value.unwrap());
        }
    }
    store(
        &mut stored,
        read_window(&config, wide_window(), "USD").await.unwrap(),
    );
    let open: i64 = stored
        .iter()
        .filter(|(k, _)| k.starts_with("dp_e"))
        .map(|(_, v)| v)
        .sum();
    assert_eq!(open, -4000);

    // Weeks later the routine 7-day re-sync no longer covers the dispute's creation, yet it
    // must still see the win.
    let last_week = window_secs(T0 + 23 * DAY, T0 + 30 * DAY);
    fake.update(|seed| {
        seed.disputes[0].status = "won".into();
        seed.disputes[0].reinstated_at = Some(T0 + 29 * DAY);
    });
    store(
        &mut stored,
        read_window(&config, last_week, "USD").await.unwrap(),
    );
    let closed: i64 = stored
        .iter()
        .filter(|(k, _)| k.starts_with("dp_e"))
        .map(|(_, v)| v)
        .sum();
    assert_eq!(closed, 0);
    assert_eq!(stored.get("dp_e:reversed"), Some(&4000));
}
