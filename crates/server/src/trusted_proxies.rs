//! The reverse proxies whose `X-Forwarded-For` is believed (`PAYBACK_TRUSTED_PROXIES`), and
//! the client address they reveal. Behind a proxy every request arrives from the proxy; from
//! any other peer the header is ignored, since a client can send whatever it likes there. Both
//! the configuration (which reads the setting) and the rate limits (which key on the address)
//! use it, so it lives apart from either.

use std::net::{IpAddr, SocketAddr};

use axum::http::HeaderMap;
use ipnet::IpNet;
use serde::Deserialize;

const X_FORWARDED_FOR: &str = "x-forwarded-for";

/// The reverse proxies whose `X-Forwarded-For` is believed: IP addresses and CIDR blocks,
/// configured as one comma-separated string (`PAYBACK_TRUSTED_PROXIES=10.0.0.1,10.1.0.0/16`) or,
/// in `payback.toml`, a list of strings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrustedProxies(Vec<IpNet>);

impl TrustedProxies {
    /// Parses a comma-separated list; blanks are skipped, anything else that is neither an
    /// address nor a CIDR block is refused (a typo would silently trust no one, or the wrong
    /// network).
    pub fn parse(list: &str) -> Result<Self, String> {
        list.split(',')
            .map(str::trim)
            .filter(|entry| !entry.is_empty())
            .map(|entry| {
                entry
                    .parse::<IpNet>()
                    .or_else(|_| entry.parse::<IpAddr>().map(IpNet::from))
                    .map_err(|_| {
                        format!(
                            "trusted_proxies: {entry:?} is neither an IP address nor a CIDR block"
                        )
                    })
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Self)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn trusts(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|net| net.contains(&ip))
    }

    /// The address a request comes from. From an untrusted peer that is the peer, whatever
    /// `X-Forwarded-For` says. From a trusted proxy it is the right-most `X-Forwarded-For` hop
    /// that is not itself a trusted proxy: each proxy appends the address it received from, so
    /// hops left of that one were written by the client and prove nothing. A hop that is not an
    /// address stops the walk at the last trusted one (one shared bucket rather than a
    /// client-chosen one); when every hop is trusted, the left-most is the client.
    pub fn client_ip(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        let peer = peer.to_canonical();
        if !self.trusts(peer) {
            return peer;
        }
        let mut client = peer;
        // Several header lines are one list, in order (RFC 9110 section 5.3).
        for value in headers.get_all(X_FORWARDED_FOR).iter().rev() {
            let Ok(value) = value.to_str() else {
                return client;
            };
            for hop in value.rsplit(',') {
                let Some(ip) = parse_hop(hop) else {
                    return client;
                };
                client = ip;
                if !self.trusts(ip) {
                    return client;
                }
            }
        }
        client
    }
}

/// One `X-Forwarded-For` entry: an address, or an address with a port (some proxies add it).
fn parse_hop(hop: &str) -> Option<IpAddr> {
    let hop = hop.trim();
    hop.parse::<IpAddr>()
        .or_else(|_| hop.parse::<SocketAddr>().map(|addr| addr.ip()))
        .ok()
        .map(|ip| ip.to_canonical())
}

impl<'de> Deserialize<'de> for TrustedProxies {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            List(String),
            Entries(Vec<String>),
        }
        let list = match Raw::deserialize(deserializer)? {
            Raw::List(list) => list,
            Raw::Entries(entries) => entries.join(","),
        };
        Self::parse(&list).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a failing unwrap is the test's failure message
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    fn forwarded(values: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for value in values {
            headers.append(X_FORWARDED_FOR, HeaderValue::from_str(value).unwrap());
        }
        headers
    }

    #[test]
    fn parses_addresses_and_blocks_and_refuses_the_rest() {
        let trusted = TrustedProxies::parse(" 10.0.0.1, 192.168.0.0/16 ,,::1,fd00::/8").unwrap();
        assert!(trusted.trusts(ip("10.0.0.1")));
        assert!(!trusted.trusts(ip("10.0.0.2")));
        assert!(trusted.trusts(ip("192.168.44.3")));
        assert!(trusted.trusts(ip("::1")));
        assert!(trusted.trusts(ip("fd12::7")));
        assert!(TrustedProxies::parse("").unwrap().is_empty());
        let err = TrustedProxies::parse("10.0.0.1, proxy.internal").unwrap_err();
        assert!(err.contains("\"proxy.internal\""), "{err}");
        assert!(TrustedProxies::parse("10.0.0.0/33").is_err());
    }

    #[test]
    fn an_untrusted_peer_is_the_client_whatever_it_forwards() {
        let trusted = TrustedProxies::parse("10.0.0.1").unwrap();
        let headers = forwarded(&["203.0.113.9"]);
        assert_eq!(
            trusted.client_ip(ip("198.51.100.1"), &headers),
            ip("198.51.100.1")
        );
        let nobody = TrustedProxies::default();
        assert_eq!(nobody.client_ip(ip("10.0.0.1"), &headers), ip("10.0.0.1"));
    }

    #[test]
    fn a_trusted_proxy_forwards_the_right_most_untrusted_hop() {
        let trusted = TrustedProxies::parse("10.0.0.0/8").unwrap();
        let proxy = ip("10.0.0.1");
        // The client's own claim (left) is not believed; the hop the proxy appended is.
        let headers = forwarded(&["1.1.1.1, 203.0.113.9"]);
        assert_eq!(trusted.client_ip(proxy, &headers), ip("203.0.113.9"));
        // Trusted hops (a chain of proxies) are skipped, across header lines too.
        let headers = forwarded(&["1.1.1.1, 203.0.113.9", "10.2.3.4", "10.0.0.7"]);
        assert_eq!(trusted.client_ip(proxy, &headers), ip("203.0.113.9"));
        // Ports and IPv4-mapped IPv6 are read as the address.
        let headers = forwarded(&["203.0.113.9:4711"]);
        assert_eq!(trusted.client_ip(proxy, &headers), ip("203.0.113.9"));
        let headers = forwarded(&["[2001:db8::1]:443"]);
        assert_eq!(trusted.client_ip(proxy, &headers), ip("2001:db8::1"));
        assert_eq!(
            trusted.client_ip(ip("::ffff:10.0.0.1"), &forwarded(&["203.0.113.9"])),
            ip("203.0.113.9")
        );
        // No header: the proxy itself; only trusted hops: the left-most.
        assert_eq!(trusted.client_ip(proxy, &HeaderMap::new()), proxy);
        let headers = forwarded(&["10.9.9.9, 10.0.0.7"]);
        assert_eq!(trusted.client_ip(proxy, &headers), ip("10.9.9.9"));
        // Garbage stops the walk at the last trusted hop, not at a client-chosen address.
        let headers = forwarded(&["203.0.113.9, unknown, 10.0.0.7"]);
        assert_eq!(trusted.client_ip(proxy, &headers), ip("10.0.0.7"));
    }

    #[test]
    fn trusted_proxies_deserialize_from_a_string_or_a_list() {
        let from_string: TrustedProxies =
            serde_json::from_value(serde_json::json!("10.0.0.1, 10.1.0.0/16")).unwrap();
        let from_list: TrustedProxies =
            serde_json::from_value(serde_json::json!(["10.0.0.1", "10.1.0.0/16"])).unwrap();
        assert_eq!(from_string, from_list);
        assert!(serde_json::from_value::<TrustedProxies>(serde_json::json!("nope")).is_err());
    }

    /// `PAYBACK_TRUSTED_PROXIES` as figment's `Env` reads a variable's text.
    #[test]
    fn trusted_proxies_read_from_the_environment() {
        for (text, trusted) in [
            ("127.0.0.1", "127.0.0.1"),
            ("10.0.0.1, 10.1.0.0/16", "10.1.2.3"),
            ("::1", "::1"),
        ] {
            let value: figment::value::Value = text.parse().unwrap();
            let proxies: TrustedProxies = value.deserialize().unwrap();
            assert!(proxies.trusts(ip(trusted)), "{text}");
        }
        let value: figment::value::Value = "10.0.0.1, nope".parse().unwrap();
        assert!(value.deserialize::<TrustedProxies>().is_err());
    }
}
