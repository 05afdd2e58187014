//! Webhook deliveries as Stripe signs them: `Stripe-Signature: t=<unix seconds>,v1=<hex>`, the
//! `v1` being HMAC-SHA256 of `"{t}.{payload}"` keyed with the endpoint's secret (`whsec_...`,
//! taken as it is), written here from Stripe's "Verify webhook signatures manually".

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// The hex HMAC-SHA256 Stripe writes as `v1` for `payload` sent at `timestamp`.
pub fn signature(secret: &str, timestamp: i64, payload: &str) -> String {
    let Ok(mut mac) = <Hmac<Sha256> as Mac>::new_from_slice(secret.as_bytes()) else {
        panic!("HMAC takes a key of any length");
    };
    mac.update(format!("{timestamp}.{payload}").as_bytes());
    mac.finalize()
        .into_bytes()
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// The `Stripe-Signature` header Stripe sends with `payload` at `timestamp`.
pub fn signature_header(secret: &str, timestamp: i64, payload: &str) -> String {
    format!("t={timestamp},v1={}", signature(secret, timestamp, payload))
}
