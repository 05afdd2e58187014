//! The disputes data set: eight charges (one an uncaptured authorization) with refunds and
//! disputes in every status, read by the refund, dispute, rate-limit and bad-key tests.

use super::*;

pub(super) fn disputes_seed() -> Seed {
    let mut seed = Seed::default();
    let charge = |id: &str, amount: i64, created: i64, user: &str| {
        let mut c = FakeCharge::succeeded(id, amount, "usd", created);
        c.metadata = meta(&[("user_id", user)]);
        c
    };
    seed.charges = vec![
        charge("ch_a", 5000, T0, "u_a"),
        charge("ch_b", 3000, T0 + 10, "u_b"),
        charge("ch_c", 8000, T0 + 20, "u_c"),
        charge("ch_d", 2000, T0 + 30, "u_d"),
        charge("ch_e", 4000, T0 + 40, "u_e"),
        charge("ch_g", 1000, T0 + 50, "u_g"),
        charge("ch_h", 700, T0 + 60, "u_h"),
    ];
    // An authorization released without capture: Stripe records a refund for it.
    let mut uncaptured = charge("ch_f", 6000, T0 + 70, "u_f");
    uncaptured.captured = false;
    seed.charges.push(uncaptured);
    let refund = |id: &str, amount: i64, charge: &str, created: i64, status: &str| FakeRefund {
        id: id.into(),
        amount,
        charge: charge.into(),
        currency: "usd".into(),
        created,
        status: status.into(),
    };
    seed.refunds = vec![
        refund("re_a1", 1500, "ch_a", T0 + DAY, "succeeded"),
        refund("re_a2", 500, "ch_a", T0 + DAY + 5, "pending"),
        refund("re_b", 3000, "ch_b", T0 + DAY + 10, "succeeded"),
        refund("re_f", 6000, "ch_f", T0 + DAY + 20, "succeeded"),
        refund("re_x", 700, "ch_h", T0 + DAY + 30, "failed"),
    ];
    let dispute =
        |id: &str, amount: i64, charge: &str, created: i64, status: &str, back: Option<i64>| {
            FakeDispute {
                id: id.into(),
                amount,
                charge: charge.into(),
                currency: "usd".into(),
                created,
                status: status.into(),
                reinstated_at: back,
            }
        };
    seed.disputes = vec![
        dispute("dp_c", 8000, "ch_c", T0 + 2 * DAY, "needs_response", None),
        dispute("dp_d", 2000, "ch_d", T0 + 2 * DAY + 10, "lost", None),
        dispute(
            "dp_e",
            4000,
            "ch_e",
            T0 + 2 * DAY + 20,
            "won",
            Some(T0 + 20 * DAY),
        ),
        dispute(
            "dp_g",
            1000,
            "ch_g",
            T0 + 2 * DAY + 30,
            "warning_closed",
            None,
        ),
        dispute(
            "dp_h",
            700,
            "ch_h",
            T0 + 2 * DAY + 40,
            "mystery_status",
            None,
        ),
    ];
    seed
}
