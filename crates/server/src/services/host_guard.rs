//! Tenants' database hosts must be on the public internet: a tenant naming `127.0.0.1` or a
//! private address would otherwise read the databases next to the API host (Payback's own
//! among them). Names are resolved and every address checked, at connect time and before
//! every use (DNS can change). Operators' environment path is exempt, and
//! `PAYBACK_ALLOW_PRIVATE_DATABASE_HOSTS` lifts the rule for self-hosted setups and tests.

use std::net::IpAddr;

use crate::error::{ApiError, ApiResult};

/// Refuses when any address of any host is not public. `field` names the credential field
/// for the 400 (`credentials.host`, `credentials.uri`).
pub async fn ensure_public(hosts: &[(String, u16)], field: &str) -> ApiResult<()> {
    for (host, port) in hosts {
        let addresses: Vec<IpAddr> = match host.parse::<IpAddr>() {
            Ok(ip) => vec![ip],
            // A name that does not resolve cannot reach anything; the connector says so.
            Err(_) => match tokio::net::lookup_host((host.as_str(), *port)).await {
                Ok(found) => found.map(|address| address.ip()).collect(),
                Err(_) => continue,
            },
        };
        if let Some(ip) = addresses.into_iter().find(|ip| !is_public(*ip)) {
            return Err(ApiError::bad_request(format!(
                "{field}: `{host}` is a loopback or private address ({ip}); databases must be reachable on the internet"
            )));
        }
    }
    Ok(())
}

/// Loopback, private, link-local, shared (CGNAT), unspecified, multicast and documentation
/// ranges are not public; neither are IPv6 unique-local and link-local addresses, nor IPv4
/// addresses mapped into IPv6.
fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            let [a, b, ..] = v4.octets();
            !(v4.is_loopback()
                || v4.is_private()
                || v4.is_link_local()
                || v4.is_unspecified()
                || v4.is_broadcast()
                || v4.is_multicast()
                || v4.is_documentation()
                || a == 0
                || (a == 100 && (64..128).contains(&b)))
        }
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_public(IpAddr::V4(v4));
            }
            let first = v6.segments()[0];
            !(v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (first & 0xfe00) == 0xfc00
                || (first & 0xffc0) == 0xfe80)
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn private_ranges_are_not_public() {
        for private in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "0.0.0.0",
            "100.64.0.1",
            "::1",
            "fd00::1",
            "fe80::1",
            "::ffff:127.0.0.1",
        ] {
            assert!(!is_public(private.parse().unwrap()), "{private}");
        }
        for public in ["8.8.8.8", "2606:4700::1111", "100.128.0.1"] {
            assert!(is_public(public.parse().unwrap()), "{public}");
        }
    }

    #[tokio::test]
    async fn names_and_literals_are_checked() {
        let refused = ensure_public(&[("localhost".to_owned(), 5432)], "credentials.host").await;
        assert!(
            matches!(refused, Err(ApiError::BadRequest(ref m)) if m.starts_with("credentials.host:"))
        );
        let literal = ensure_public(&[("10.0.0.5".to_owned(), 5432)], "credentials.host").await;
        assert!(literal.is_err());
        assert!(
            ensure_public(&[("8.8.8.8".to_owned(), 5432)], "credentials.host")
                .await
                .is_ok()
        );
    }
}
