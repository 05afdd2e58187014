//! Currencies: charges and refunds in another currency than the product's are skipped and
//! reported; zero-decimal yen is scaled to hundredths of the unit.

use super::*;

#[tokio::test]
async fn a_foreign_currency_is_skipped_and_reported() {
    let mut seed = Seed::default();
    for i in 0..3 {
        seed.charges.push(FakeCharge::succeeded(
            &format!("ch_eur{i}"),
            2500,
            "eur",
            T0 + i,
        ));
    }
    seed.charges
        .push(FakeCharge::succeeded("ch_usd0", 1999, "usd", T0 + 10));
    seed.charges
        .push(FakeCharge::succeeded("ch_usd1", 4900, "usd", T0 + 11));
    seed.refunds.push(FakeRefund::succeeded(
        "re_eur",
        2500,
        "ch_eur0",
        "eur",
        T0 + 20,
    ));
    let fake = StripeFake::start(KEY, seed.clone()).await;
    let output = read_window(
        &config(&fake, KEY, PaymentStage::Payment),
        wide_window(),
        "USD",
    )
    .await
    .unwrap();
    let usd: BTreeMap<String, i64> = seed
        .charges
        .iter()
        .filter(|c| c.currency == "usd")
        .map(|c| (c.id.clone(), c.amount))
        .collect();
    let got: BTreeMap<String, i64> = output
        .events
        .iter()
        .map(|e| (e.dedupe_id.clone(), e.value.unwrap()))
        .collect();
    assert_eq!(got, usd);
    assert_eq!(
        output.detail,
        "5 charges, 1 refund, 0 disputes read; 3 charges in EUR, 1 refund in EUR skipped: product currency is USD"
    );
    assert_ingestible(&output, "USD");
}

#[tokio::test]
async fn zero_decimal_yen_is_scaled_to_hundredths() {
    let mut seed = Seed::default();
    seed.charges
        .push(FakeCharge::succeeded("ch_yen", 500, "jpy", T0));
    seed.charges
        .push(FakeCharge::succeeded("ch_yen2", 12_800, "jpy", T0 + 1));
    seed.refunds.push(FakeRefund::succeeded(
        "re_yen",
        200,
        "ch_yen",
        "jpy",
        T0 + 2,
    ));
    let fake = StripeFake::start(KEY, seed.clone()).await;
    let output = read_window(
        &config(&fake, KEY, PaymentStage::Payment),
        wide_window(),
        "jpy",
    )
    .await
    .unwrap();
    let events = by_id(&output);
    // ¥500 is 500 whole yen on Stripe; Payback's value is hundredths of the unit.
    for charge in &seed.charges {
        assert_eq!(events[&charge.id].value, Some(charge.amount * 100));
        assert_eq!(events[&charge.id].currency.as_deref(), Some("JPY"));
    }
    assert_eq!(events["re_yen"].value, Some(-seed.refunds[0].amount * 100));
    assert_ingestible(&output, "JPY");
}
