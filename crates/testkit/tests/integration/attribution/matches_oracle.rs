//! The attribution, sales and ads reports against the oracle, for several seeds and windows, on
//! the synthetic product with email identities (charges known only by their email).

use payback_testkit::synthetic::{SynthConfig, generate_with_emails};

use super::oracle::{Win, World, expected_ads, expected_report, expected_sales};
use super::*;

/// JSON equality with floats compared to 1e-9 (relative).
fn assert_close(actual: &Value, expected: &Value, path: &str) {
    match (actual, expected) {
        (Value::Object(a), Value::Object(e)) => {
            let (mut ak, mut ek): (Vec<_>, Vec<_>) = (a.keys().collect(), e.keys().collect());
            ak.sort();
            ek.sort();
            assert_eq!(ak, ek, "{path}: fields differ");
            for (key, value) in e {
                assert_close(&a[key], value, &format!("{path}.{key}"));
            }
        }
        (Value::Array(a), Value::Array(e)) => {
            assert_eq!(
                a.len(),
                e.len(),
                "{path}: lengths differ\nactual {actual}\nexpected {expected}"
            );
            for (i, (x, y)) in a.iter().zip(e).enumerate() {
                assert_close(x, y, &format!("{path}[{i}]"));
            }
        }
        (Value::Number(a), Value::Number(e)) if a.is_f64() || e.is_f64() => {
            let (a, e) = (a.as_f64().unwrap(), e.as_f64().unwrap());
            assert!(
                (a - e).abs() <= 1e-9 * e.abs().max(1.0),
                "{path}: {a} != {e}"
            );
        }
        _ => assert_eq!(actual, expected, "{path}"),
    }
}

async fn reports_match_the_oracle(app: TestApp) {
    let key = setup(&app, "founder@example.com").await;
    for seed in [3_u64, 11, 29] {
        let slug = format!("shop-{seed}");
        app.create_product(&key, &slug).await;
        let config = SynthConfig {
            seed,
            identities: 120,
            days: 90,
        };
        let data = generate_with_emails(config, app.clock.now());
        // Many folds, so charges stored under an email nobody held are merged by later ones.
        data.load_in_folds(&app, &key, &slug, 97).await;
        app.assert_report_days_exact().await;
        let world = World::new(&data);
        // Every seed covers what the email rule decides: charges that join a user, a visitor
        // without an account, or nobody; charges that arrived before their email was claimed;
        // emails two users claimed.
        let (to_users, to_visitors, to_nobody) = world.email_charges();
        assert!(
            to_users > 0 && to_visitors > 0 && to_nobody > 0,
            "seed {seed}: {:?}",
            world.email_charges()
        );
        assert!(world.claimed_late() > 0, "seed {seed}");
        assert!(world.conflicted_emails() > 0, "seed {seed}");
        for days in [7_i64, 30, 60] {
            let w = Win::new(data.now, days);
            let base = format!("/products/{slug}/attribution");
            let report = get(&app, &key, &format!("{base}?days={days}")).await;
            let at = format!("seed {seed}, {days} days");
            assert_close(
                &report,
                &expected_report(&world, &w, days),
                &format!("report ({at})"),
            );
            let channels = report["channels"].as_array().unwrap();
            let sum_last: i64 = channels
                .iter()
                .map(|c| c["revenue_last_cents"].as_i64().unwrap())
                .sum();
            assert_eq!(
                sum_last,
                report["totals"]["revenue_cents"].as_i64().unwrap(),
                "{at}"
            );

            // The sales list: everything, a page, and a first-touch filter.
            let all = expected_sales(&world, &w);
            let sales = get(&app, &key, &format!("{base}/sales?days={days}&limit=1000")).await;
            assert_eq!(sales["total"], all.len(), "{at}");
            assert_eq!(sales["window_days"], days);
            let mut got = sales["sales"].as_array().unwrap().clone();
            for row in &mut got {
                assert!(row["id"].as_str().unwrap().parse::<i64>().is_ok());
                row.as_object_mut().unwrap().remove("id");
            }
            assert_eq!(Value::from(got), Value::from(all.clone()), "sales ({at})");
            let page = get(&app, &key, &format!("{base}/sales?days={days}&limit=5")).await;
            assert_eq!(page["total"], all.len());
            assert_eq!(page["sales"].as_array().unwrap().len(), all.len().min(5));
            for channel in ["paid_google", "email", UN] {
                let want: Vec<&Value> = all
                    .iter()
                    .filter(|s| s["first_channel"] == channel)
                    .collect();
                let url = format!("{base}/sales?days={days}&channel={channel}&limit=3");
                let filtered = get(&app, &key, &url).await;
                assert_eq!(filtered["total"], want.len(), "{channel} ({at})");
                let rows = filtered["sales"].as_array().unwrap();
                assert_eq!(rows.len(), want.len().min(3));
                for (row, expected) in rows.iter().zip(&want) {
                    assert_eq!(row["occurred_at"], expected["occurred_at"]);
                    assert_eq!(row["first_channel"], channel);
                }
            }

            for level in ["campaign", "ad_group", "keyword", "ad"] {
                let url = format!("{base}/ads?days={days}&level={level}");
                let ads = get(&app, &key, &url).await;
                let expected = expected_ads(&world, &w, days, level);
                assert_close(&ads, &expected, &format!("ads {level} ({at})"));
                // The ads report and the attribution report agree on revenue and spend.
                assert_eq!(
                    ads["totals"]["revenue_cents"],
                    report["totals"]["revenue_cents"]
                );
                assert_eq!(
                    ads["totals"]["spend_cents"],
                    report["totals"]["spend_cents"]
                );
            }
            let limited = get(&app, &key, &format!("{base}/ads?days={days}&limit=1")).await;
            let rows = limited["rows"].as_array().unwrap();
            let expected = expected_ads(&world, &w, days, "campaign");
            assert_eq!(rows.len(), 3, "one dimension row, then both sentinels");
            assert_close(&rows[0], &expected["rows"][0], "limited first row");
            assert_eq!(rows[1]["id"], "no_dimension");
            assert_eq!(rows[2]["id"], UN);
        }
        // LinkedIn spends and brings nobody: CAC null, never 0; ROAS 0 (spend, no revenue).
        let report = get(&app, &key, &format!("/products/{slug}/attribution")).await;
        let linkedin = report["channels"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["channel"] == "paid_linkedin")
            .unwrap();
        assert!(linkedin["spend_cents"].as_i64().unwrap() > 0);
        assert_eq!(linkedin["customers_first"], 0);
        assert_eq!(linkedin["cac_cents"], Value::Null);
        assert_eq!(linkedin["roas"], json!(0.0));
    }
}

backend_tests!(reports_match_the_oracle);
