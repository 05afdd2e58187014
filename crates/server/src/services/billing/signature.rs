//! Stripe's webhook signatures, as its documentation describes them: the `Stripe-Signature`
//! header holds `t=<unix seconds>` and one or more `v1=<hex>`, each a candidate HMAC-SHA256 of
//! `"{t}.{raw body}"` under the endpoint's signing secret (`whsec_...`, used as it is). One
//! matching `v1` suffices (Stripe signs with every live secret while one is rolled); the
//! comparison is constant-time, and `t` must be within [`TOLERANCE_SECS`] of now (replays).

use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::error::{ApiError, ApiResult};

/// How old (or, for clocks ahead, how far ahead) a signature may be: Stripe's libraries'
/// default.
pub const TOLERANCE_SECS: i64 = 300;

/// The header's name.
pub const HEADER: &str = "Stripe-Signature";

/// Checks `header` for `body` under `secret` at `now_secs`; 400 saying why otherwise.
pub fn verify(header: Option<&str>, body: &[u8], secret: &str, now_secs: i64) -> ApiResult<()> {
    let refused = |why: &str| ApiError::bad_request(format!("{HEADER}: {why}"));
    let header = header
        .filter(|value| !value.trim().is_empty())
        .ok_or_else(|| refused("missing"))?;
    let mut timestamp = None;
    let mut candidates = Vec::new();
    for part in header.split(',') {
        match part.trim().split_once('=') {
            Some(("t", value)) => timestamp = value.trim().parse::<i64>().ok(),
            Some(("v1", value)) => candidates.push(value.trim()),
            _ => {}
        }
    }
    let timestamp = timestamp.ok_or_else(|| refused("no timestamp (t=)"))?;
    if candidates.is_empty() {
        return Err(refused("no v1 signature"));
    }
    if (now_secs - timestamp).abs() > TOLERANCE_SECS {
        return Err(refused("the timestamp is outside the 300-second tolerance"));
    }
    let matches = candidates.into_iter().any(|candidate| {
        let Some(bytes) = decode_hex(candidate) else {
            return false;
        };
        signer(secret, timestamp, body).is_some_and(|mac| mac.verify_slice(&bytes).is_ok())
    });
    if matches {
        Ok(())
    } else {
        Err(refused("no signature matches the payload"))
    }
}

/// The MAC of `"{t}.{body}"` under `secret`, before it is finalized (`None` never happens:
/// HMAC takes a key of any length).
fn signer(secret: &str, timestamp: i64, body: &[u8]) -> Option<Hmac<Sha256>> {
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(secret.as_bytes()).ok()?;
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    Some(mac)
}

fn decode_hex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|at| u8::from_str_radix(text.get(at..at + 2)?, 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sign(secret: &str, timestamp: i64, body: &[u8]) -> String {
        let bytes = signer(secret, timestamp, body)
            .unwrap()
            .finalize()
            .into_bytes();
        bytes.iter().map(|byte| format!("{byte:02x}")).collect()
    }

    #[test]
    fn a_matching_v1_within_tolerance_passes() {
        let body = br#"{"id":"evt_1"}"#;
        let good = sign("whsec_test", 1_000, body);
        let header = format!("t=1000,v1=deadbeef,v1={good},v0=ignored");
        assert!(verify(Some(&header), body, "whsec_test", 1_200).is_ok());
        assert!(verify(Some(&header), body, "whsec_test", 1_300).is_ok());
        let stale = verify(Some(&header), body, "whsec_test", 1_301).unwrap_err();
        assert!(stale.to_string().contains("tolerance"), "{stale}");
    }

    #[test]
    fn wrong_secret_body_or_header_is_refused() {
        let body = br#"{"id":"evt_1"}"#;
        let good = sign("whsec_test", 1_000, body);
        let header = format!("t=1000,v1={good}");
        assert!(verify(Some(&header), body, "whsec_other", 1_000).is_err());
        assert!(verify(Some(&header), b"{\"id\":\"evt_2\"}", "whsec_test", 1_000).is_err());
        assert!(verify(None, body, "whsec_test", 1_000).is_err());
        assert!(verify(Some(&format!("v1={good}")), body, "whsec_test", 1_000).is_err());
        assert!(verify(Some("t=1000"), body, "whsec_test", 1_000).is_err());
        assert!(verify(Some("t=1000,v1=zz"), body, "whsec_test", 1_000).is_err());
    }
}
