//! Tenants' database hosts must be on the public internet: a tenant naming `127.0.0.1` or a
//! private address would otherwise read the databases next to the API host (Payback's own
//! among them). Every name is resolved once per use (at connect time, and again before every
//! run, since DNS can change) and every address it has checked; the connectors then dial
//! exactly the addresses checked here (`SqlConfig::addresses`, `DocdbConfig::seeds`), never
//! the name, so a name cannot answer one address to the check and another to the connection
//! (DNS rebinding). A `mongodb+srv://` string's SRV targets are checked one by one like listed
//! hosts. A name that does not resolve is refused always, so a typo says so instead of
//! failing later; operators' environment path and `PAYBACK_ALLOW_PRIVATE_DATABASE_HOSTS`
//! (self-hosted setups, tests) lift only the public-address rule. Refusals name the host as it
//! was given, never an address it resolved to.

use std::future::Future;
use std::net::IpAddr;
use std::time::Duration;

/// How long a name may take to resolve before it counts as not resolving.
const LOOKUP_TIMEOUT: Duration = Duration::from_secs(10);

/// Why a host cannot be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The name has no address (or none arrived in time).
    Unresolved,
    /// An address of it is loopback, private or otherwise not public.
    Private,
}

impl Refusal {
    /// What follows the host's name in a refusal.
    pub fn reason(self) -> &'static str {
        match self {
            Self::Unresolved => "does not resolve",
            Self::Private => {
                "is a loopback or private address; databases must be reachable on the internet"
            }
        }
    }
}

/// The addresses `host` has now (an IP literal is its own), each checked: refused when there
/// is none, or when one is not public unless `allow_private`.
pub async fn resolve(host: &str, port: u16, allow_private: bool) -> Result<Vec<IpAddr>, Refusal> {
    resolve_with(host, port, allow_private, system_lookup).await
}

/// Each host of a list resolved and checked, in order (a `mongodb+srv://` string's SRV
/// targets among them); the first refusal names its host.
pub async fn resolve_all(
    hosts: &[(String, u16)],
    allow_private: bool,
) -> Result<Vec<Vec<IpAddr>>, (String, Refusal)> {
    resolve_all_with(hosts, allow_private, system_lookup).await
}

async fn resolve_all_with<F, Fut>(
    hosts: &[(String, u16)],
    allow_private: bool,
    lookup: F,
) -> Result<Vec<Vec<IpAddr>>, (String, Refusal)>
where
    F: Fn(String, u16) -> Fut,
    Fut: Future<Output = Vec<IpAddr>>,
{
    let mut checked = Vec::with_capacity(hosts.len());
    for (host, port) in hosts {
        let addresses = resolve_with(host, *port, allow_private, &lookup)
            .await
            .map_err(|refusal| (host.clone(), refusal))?;
        checked.push(addresses);
    }
    Ok(checked)
}

/// [`resolve`] with the name lookup given (tests answer it without DNS).
async fn resolve_with<F, Fut>(
    host: &str,
    port: u16,
    allow_private: bool,
    lookup: F,
) -> Result<Vec<IpAddr>, Refusal>
where
    F: FnOnce(String, u16) -> Fut,
    Fut: Future<Output = Vec<IpAddr>>,
{
    let literal = host
        .strip_prefix('[')
        .and_then(|rest| rest.strip_suffix(']'));
    let found = match literal.unwrap_or(host).parse::<IpAddr>() {
        Ok(ip) => vec![ip],
        Err(_) => lookup(host.to_owned(), port).await,
    };
    let mut addresses: Vec<IpAddr> = Vec::with_capacity(found.len());
    for ip in found {
        if !addresses.contains(&ip) {
            addresses.push(ip);
        }
    }
    if addresses.is_empty() {
        return Err(Refusal::Unresolved);
    }
    if !allow_private && addresses.iter().any(|ip| !is_public(*ip)) {
        return Err(Refusal::Private);
    }
    Ok(addresses)
}

/// The system resolver's answer; nothing when it fails or takes too long.
async fn system_lookup(host: String, port: u16) -> Vec<IpAddr> {
    match tokio::time::timeout(
        LOOKUP_TIMEOUT,
        tokio::net::lookup_host((host.as_str(), port)),
    )
    .await
    {
        Ok(Ok(found)) => found.map(|address| address.ip()).collect(),
        _ => Vec::new(),
    }
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
        assert_eq!(
            resolve("localhost", 5432, false).await,
            Err(Refusal::Private)
        );
        assert_eq!(
            resolve("10.0.0.5", 5432, false).await,
            Err(Refusal::Private)
        );
        let public: IpAddr = "8.8.8.8".parse().unwrap();
        assert_eq!(resolve("8.8.8.8", 5432, false).await, Ok(vec![public]));
        let loopback: IpAddr = "::1".parse().unwrap();
        assert_eq!(resolve("[::1]", 5432, true).await, Ok(vec![loopback]));
        // RFC 6761: `.invalid` never resolves, private hosts allowed or not.
        for allow_private in [false, true] {
            assert_eq!(
                resolve("db.example.invalid", 5432, allow_private).await,
                Err(Refusal::Unresolved)
            );
        }
    }

    /// The SRV targets of a `mongodb+srv://` string are checked like listed hosts: one private
    /// target refuses the string, one without an address too. The targets and their addresses
    /// are given here: this machine has no DNS server to publish an SRV record on (the lookup
    /// itself is `payback_connectors::docdb::seed_hosts`, tested there).
    #[tokio::test]
    async fn every_srv_target_is_checked() {
        let targets = vec![
            ("shard-00.cluster0.example.net".to_owned(), 27017),
            ("shard-01.cluster0.example.net".to_owned(), 27017),
            ("shard-02.cluster0.example.net".to_owned(), 27017),
        ];
        let dns = |answers: [&'static str; 3]| {
            move |host: String, _port: u16| async move {
                let index = usize::from(host.as_bytes()[7] - b'0');
                answers[index]
                    .split(',')
                    .filter(|ip| !ip.is_empty())
                    .map(|ip| ip.parse().unwrap())
                    .collect::<Vec<IpAddr>>()
            }
        };
        let all_public = resolve_all_with(
            &targets,
            false,
            dns(["203.0.113.10", "198.51.100.7,2606:4700::1111", "8.8.4.4"]),
        )
        .await;
        // Documentation ranges are not public: only the last two answers are.
        assert_eq!(
            all_public,
            Err(("shard-00.cluster0.example.net".to_owned(), Refusal::Private))
        );
        let public = ["8.8.8.8", "1.1.1.1,2606:4700::1111", "9.9.9.9"];
        let checked = resolve_all_with(&targets, false, dns(public))
            .await
            .unwrap();
        assert_eq!(checked[1].len(), 2);
        let one_private = resolve_all_with(
            &targets,
            false,
            dns(["8.8.8.8", "1.1.1.1", "8.8.4.4,10.0.0.9"]),
        )
        .await;
        assert_eq!(
            one_private,
            Err(("shard-02.cluster0.example.net".to_owned(), Refusal::Private))
        );
        assert!(
            resolve_all_with(
                &targets,
                true,
                dns(["8.8.8.8", "1.1.1.1", "8.8.4.4,10.0.0.9"])
            )
            .await
            .is_ok()
        );
        let unresolved = resolve_all_with(&targets, true, dns(["8.8.8.8", "", "8.8.4.4"])).await;
        assert_eq!(
            unresolved,
            Err((
                "shard-01.cluster0.example.net".to_owned(),
                Refusal::Unresolved
            ))
        );
    }
}
