//! What goes wrong and `test`: a rate-limited answer retried with backoff, a permanent 429
//! reported after the retries, bad and malformed keys refused and never echoed, `test` proving
//! a key (and refusing a wrong or under-permitted one), an unreachable API.

use super::*;

use std::time::Instant;

use payback_connectors::ConnectorError;

use super::fixtures::disputes_seed;

#[tokio::test]
async fn a_rate_limited_answer_is_retried_with_backoff() {
    let seed = disputes_seed();
    let fake = StripeFake::start(KEY, seed.clone()).await;
    fake.throttle(2);
    let output = read_window(
        &config(&fake, KEY, PaymentStage::Payment),
        wide_window(),
        "USD",
    )
    .await
    .unwrap();
    let captured_total: i64 = seed
        .charges
        .iter()
        .filter(|c| c.captured)
        .map(|c| c.amount)
        .sum();
    let charges_total: i64 = output
        .events
        .iter()
        .filter(|e| e.dedupe_id.starts_with("ch_"))
        .filter_map(|e| e.value)
        .sum();
    assert_eq!(charges_total, captured_total);
    // Two throttled tries of the first page, then one page per list.
    let paths: Vec<String> = fake.requests().into_iter().map(|r| r.path).collect();
    assert_eq!(
        paths,
        [
            "/v1/charges",
            "/v1/charges",
            "/v1/charges",
            "/v1/refunds",
            "/v1/disputes"
        ]
    );
}

#[tokio::test]
async fn a_permanent_429_is_rate_limited_after_the_retries() {
    let fake = StripeFake::start(KEY, disputes_seed()).await;
    fake.throttle(u32::MAX);
    let mut config = config(&fake, KEY, PaymentStage::Payment);
    config.retry = RetryPolicy {
        retries: 3,
        base_delay: Duration::from_millis(20),
    };
    let started = Instant::now();
    let err = read_window(&config, wide_window(), "USD")
        .await
        .unwrap_err();
    assert!(matches!(err, ConnectorError::RateLimited(_)), "{err:?}");
    assert!(err.to_string().contains("rate limit"), "{err}");
    // One try and three retries, waiting 20 + 40 + 80 ms between them.
    assert_eq!(fake.requests().len(), 4);
    assert!(
        started.elapsed() >= Duration::from_millis(140),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn a_bad_key_is_unauthorized_and_never_echoed() {
    let fake = StripeFake::start(KEY, disputes_seed()).await;
    let wrong = "sk_live_51WrongKeyNobodyShouldSee42";
    let config = config(&fake, wrong, PaymentStage::Payment);
    let err = read_window(&config, wide_window(), "USD")
        .await
        .unwrap_err();
    assert!(matches!(err, ConnectorError::Unauthorized(_)), "{err:?}");
    let (display, debug) = (err.to_string(), format!("{err:?}"));
    assert!(display.contains("Invalid API Key provided"), "{display}");
    for text in [&display, &debug, &format!("{config:?}")] {
        assert!(!text.contains(wrong), "{text}");
        assert!(!text.contains("51WrongKey"), "{text}");
    }
    // A malformed key is refused before any request, again without repeating it.
    for malformed in [
        "pk_live_51Publishable99",
        "sk_prod_51Nonsense77",
        "whsec_51Webhook00",
    ] {
        let config = PaymentsConfig {
            secret_key: malformed.into(),
            ..config.clone()
        };
        let err = read_window(&config, wide_window(), "USD")
            .await
            .unwrap_err();
        assert!(matches!(err, ConnectorError::Config(_)), "{err:?}");
        assert!(!err.to_string().contains(malformed) && !format!("{err:?}").contains(malformed));
        let err = test_key(&config).await.unwrap_err();
        assert!(matches!(err, ConnectorError::Config(_)), "{err:?}");
    }
    assert_eq!(
        fake.requests().len(),
        1,
        "only the first sync reached Stripe"
    );
}

#[tokio::test]
async fn test_proves_the_key_and_refuses_a_bad_one() {
    let fake = StripeFake::start(KEY, Seed::default()).await;
    let good = test_key(&config(&fake, KEY, PaymentStage::Payment))
        .await
        .unwrap();
    assert_eq!(good, "secret key works (test mode)");
    // One cheap read of each list sync needs, with the same expansions.
    let requests = fake.requests();
    let paths: Vec<&str> = requests.iter().map(|r| r.path.as_str()).collect();
    assert_eq!(paths, ["/v1/charges", "/v1/refunds", "/v1/disputes"]);
    assert!(requests.iter().all(|r| r.param("limit") == Some("1")));

    let restricted = "rk_live_51RestrictedReadOnly";
    fake.add_key(restricted, &[]);
    let line = test_key(&config(&fake, restricted, PaymentStage::Payment))
        .await
        .unwrap();
    assert_eq!(line, "restricted key works (live mode)");

    let wrong = "sk_test_51NotTheRightKeyAtAll";
    let err = test_key(&config(&fake, wrong, PaymentStage::Payment))
        .await
        .unwrap_err();
    assert!(matches!(err, ConnectorError::Unauthorized(_)), "{err:?}");
    assert!(!err.to_string().contains(wrong) && !format!("{err:?}").contains(wrong));

    // A restricted key without the disputes permission fails at connect time, saying why.
    let partial = "rk_test_51NoDisputes";
    fake.add_key(partial, &["/v1/disputes"]);
    let err = test_key(&config(&fake, partial, PaymentStage::Payment))
        .await
        .unwrap_err();
    assert!(matches!(err, ConnectorError::Unauthorized(_)), "{err:?}");
    let text = err.to_string();
    assert!(
        text.contains("403") && text.contains("/v1/disputes") && text.contains("read access"),
        "{text}"
    );
    assert!(!text.contains(partial), "{text}");
}

#[tokio::test]
async fn an_unreachable_api_is_reported_as_such() {
    // Bind then drop a listener: nothing answers on that port.
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let config = PaymentsConfig {
        secret_key: KEY.into(),
        base_url: format!("http://127.0.0.1:{port}"),
        default_stage: PaymentStage::Payment,
        retry: RetryPolicy::default(),
    };
    let err = test_key(&config).await.unwrap_err();
    assert!(matches!(err, ConnectorError::Unreachable(_)), "{err:?}");
    assert!(!format!("{err:?}").contains(KEY));
}
