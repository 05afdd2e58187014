//! The fetch guard by default (`PAYBACK_ALLOW_PRIVATE_FETCH_HOSTS` unset): loopback, private,
//! link-local, unspecified and IPv4-mapped addresses, as literals or behind a name, are refused
//! before anything is sent; the analysis says so, naming `url` and the host.

use payback_testkit::{Backend, FakeGateway, TestApp, per_backend};
use serde_json::json;

use super::site::FakeSite;
use super::{add_page, founder_with_product, id_of};

async fn private_addresses_are_refused_by_default(backend: Backend) {
    let site = FakeSite::spawn().await;
    let gateway = FakeGateway::spawn().await;
    let url = gateway.base_url();
    let app = TestApp::spawn_with(backend, move |config| {
        assert!(!config.allow_private_fetch_hosts, "refused by default");
        config.model_gateway_url = url;
        config.model_gateway_key = Some(FakeGateway::KEY.to_owned().into());
    })
    .await;
    let founder = founder_with_product(&app, "shop", None).await;
    let token = founder.token.as_str();
    let port = site.url("").rsplit(':').next().expect("port").to_owned();
    let refused = [
        (format!("http://127.0.0.1:{port}/a"), "127.0.0.1"),
        (format!("http://localhost:{port}/b"), "localhost"),
        (format!("http://[::1]:{port}/c"), "[::1]"),
        (
            format!("http://[::ffff:127.0.0.1]:{port}/d"),
            "[::ffff:7f00:1]",
        ),
        (
            "http://169.254.169.254/latest/meta-data".to_owned(),
            "169.254.169.254",
        ),
        ("http://10.0.0.1/e".to_owned(), "10.0.0.1"),
        ("http://192.168.1.1/f".to_owned(), "192.168.1.1"),
        (format!("http://0.0.0.0:{port}/g"), "0.0.0.0"),
    ];
    for (url, host) in &refused {
        let page = add_page(&app, token, "shop", url).await;
        let analysis = app
            .post(
                &format!("/products/shop/landing-pages/{}/analyze", id_of(&page)),
                Some(token),
                json!({}),
            )
            .await
            .expect(200)
            .clone();
        assert_eq!(analysis["status"], "error", "{url}: {analysis}");
        let error = analysis["error"].as_str().expect("error");
        assert!(
            error.contains(&format!(
                "url: host `{host}` is a loopback, private or link-local address"
            )),
            "{url}: {error}"
        );
    }
    assert_eq!(site.hits(), 0, "nothing was sent to a refused address");
    assert!(gateway.requests().is_empty());
}

per_backend!(private_addresses_are_refused_by_default);
