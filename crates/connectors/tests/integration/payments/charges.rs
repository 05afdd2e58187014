//! Charges: 250 of them over three pages, every successful one read once with the payer its
//! metadata, billing, receipt or customer email names; failed, pending and uncaptured skipped.

use super::*;

use super::stripe_fake::FakeCustomer;

/// 250 charges over three pages: failed, pending and uncaptured ones among them, identities from
/// each source.
fn many_charges() -> Seed {
    let mut seed = Seed::default();
    for i in 0..250_i64 {
        let mut charge = FakeCharge::succeeded(&format!("ch_{i:04}"), 1000 + i, "usd", T0 + i * 60);
        match i % 10 {
            3 => {
                charge.status = "failed".into();
                charge.paid = false;
            }
            7 => {
                charge.status = "pending".into();
                charge.paid = false;
            }
            _ => {}
        }
        if i % 25 == 11 {
            charge.captured = false;
        }
        match i % 8 {
            0 => charge.metadata = meta(&[("user_id", &format!("user_{i}")), ("plan", "pro")]),
            4 => charge.metadata = meta(&[("client_reference_id", &format!("ref_{i}"))]),
            1 | 5 => charge.billing_email = Some(format!("Buyer{i}@Example.COM")),
            2 | 6 => {
                let customer = format!("cus_{i}");
                seed.customers.push(FakeCustomer {
                    id: customer.clone(),
                    email: Some(format!("cust{i}@example.com")),
                });
                charge.customer = Some(customer);
            }
            3 => charge.receipt_email = Some(format!("r{i}@example.com")),
            _ => {} // 7: no identity at all, still recorded
        }
        charge.description = Some(format!("order {i}"));
        seed.charges.push(charge);
    }
    seed
}

/// (user_id, email) the seed says a charge belongs to.
fn expected_identity(seed: &Seed, charge: &FakeCharge) -> (Option<String>, Option<String>) {
    let user = charge
        .metadata
        .get("user_id")
        .or(charge.metadata.get("client_reference_id"))
        .cloned();
    let customer_email = charge.customer.as_ref().and_then(|id| {
        seed.customers
            .iter()
            .find(|c| &c.id == id)
            .and_then(|c| c.email.clone())
    });
    let email = charge
        .billing_email
        .clone()
        .or(charge.receipt_email.clone())
        .or(customer_email)
        .map(|e| e.to_lowercase());
    (user, email)
}

#[tokio::test]
async fn pagination_reads_every_successful_charge_once() {
    let seed = many_charges();
    let fake = StripeFake::start(KEY, seed.clone()).await;
    let output = read_window(
        &config(&fake, KEY, PaymentStage::Converted),
        wide_window(),
        "USD",
    )
    .await
    .unwrap();

    let expected: Vec<&FakeCharge> = seed
        .charges
        .iter()
        .filter(|c| c.status == "succeeded" && c.paid && c.captured)
        .collect();
    assert!(expected.len() > 150, "successes alone span two pages");
    let events = by_id(&output);
    assert_eq!(events.len(), expected.len());
    for charge in expected {
        let event = &events[&charge.id];
        let (user, email) = expected_identity(&seed, charge);
        assert_eq!(event.stage, "converted");
        assert_eq!(event.value, Some(charge.amount), "{}", charge.id);
        assert_eq!(event.currency.as_deref(), Some("USD"));
        assert_eq!(
            event.occurred_at.as_deref(),
            Some(at(charge.created).as_str())
        );
        assert_eq!(event.user_id, user, "{}", charge.id);
        assert_eq!(event.email, email, "{}", charge.id);
        assert_eq!(
            event.properties.as_ref().unwrap()["stripe_id"],
            charge.id.as_str()
        );
    }
    // Uncaptured, failed and pending charges are not revenue.
    assert!(!events.contains_key("ch_0011"));
    assert!(!events.contains_key("ch_0003"));
    assert!(!events.contains_key("ch_0007"));
    assert_eq!(output.detail, "250 charges, 0 refunds, 0 disputes read");
    assert_ingestible(&output, "USD");

    // Three pages of 100, each continuing after the previous page's last object.
    let pages: Vec<_> = fake
        .requests()
        .into_iter()
        .filter(|r| r.path == "/v1/charges")
        .collect();
    assert_eq!(pages.len(), 3);
    assert!(pages.iter().all(|p| p.param("limit") == Some("100")));
    assert!(
        pages
            .iter()
            .all(|p| p.params("expand[]") == ["data.customer"])
    );
    let mut newest_first: Vec<&FakeCharge> = seed.charges.iter().collect();
    newest_first.sort_by_key(|c| std::cmp::Reverse(c.created));
    assert_eq!(pages[0].param("starting_after"), None);
    assert_eq!(
        pages[1].param("starting_after"),
        Some(newest_first[99].id.as_str())
    );
    assert_eq!(
        pages[2].param("starting_after"),
        Some(newest_first[199].id.as_str())
    );
}
