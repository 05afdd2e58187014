//! The one rule for an origin a tenant gave that the server will call (a page to fetch and each
//! of its redirects, a self-hosted PostHog): the host is resolved once and every address
//! checked by `host_guard` (loopback, private, link-local, IPv4-mapped and the other non-public
//! ranges refused unless `PAYBACK_ALLOW_PRIVATE_FETCH_HOSTS=true`; a name that does not resolve
//! always), and the client returned dials exactly those addresses (`resolve_to_addrs`), never a
//! second lookup of the name, so DNS cannot answer the check one address and the connection
//! another (rebinding). A refusal is a 400 naming the caller's field and the host as it was
//! given, before anything is sent. The operator's own origin for a vendor (an environment
//! setting, not the tenant's word) is exempt and gets the shared client.

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use reqwest::redirect::Policy;
use reqwest::{Client, Url};

use crate::error::{ApiError, ApiResult};
use crate::services::host_guard::{self, Refusal};
use crate::state::AppState;

/// How long opening a connection may take; how long a whole answer may take is the caller's
/// (the page fetch's own limit, a connector's per-request one).
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// How the host came to be called, for a refusal's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hop {
    /// The caller's field named it.
    Given,
    /// A redirect from a checked host led to it.
    Redirected,
}

impl Hop {
    /// What stands before the host's name in a refusal.
    pub fn words(self) -> &'static str {
        match self {
            Self::Given => "host",
            Self::Redirected => "redirects to host",
        }
    }
}

/// The rule as this server applies it, with the shared client the operator's origin gets.
#[derive(Clone, Copy)]
pub struct OriginGuard<'a> {
    shared: &'a Client,
    rule: Rule<'a>,
}

/// Whether private addresses are allowed, and the operator's origin exempt from the rule (none
/// for page fetches).
#[derive(Debug, Clone, Copy)]
struct Rule<'a> {
    allow_private: bool,
    operator_origin: Option<&'a str>,
}

/// How an origin is dialed once the rule has passed it.
#[derive(Debug, PartialEq, Eq)]
enum Dial {
    /// The operator's own origin: the shared client, unchecked.
    Shared,
    /// A tenant's: the name's checked addresses, and no others.
    Pinned {
        name: String,
        sockets: Vec<SocketAddr>,
    },
}

impl<'a> OriginGuard<'a> {
    /// The rule as the operator configured it; nothing exempt.
    pub fn new(state: &'a AppState) -> Self {
        Self {
            shared: &state.http,
            rule: Rule {
                allow_private: state.config.allow_private_fetch_hosts,
                operator_origin: None,
            },
        }
    }

    /// The same rule, with `operator_origin` (scheme, host and port compared) called through
    /// the shared client unchecked.
    pub fn exempting(self, operator_origin: &'a str) -> Self {
        Self {
            rule: Rule {
                operator_origin: Some(operator_origin),
                ..self.rule
            },
            ..self
        }
    }

    /// A client for `url`'s origin that dials only the addresses checked now, without
    /// following redirects (each hop is the caller's to check); 400 naming `field` when the
    /// host is refused.
    pub async fn client(&self, url: &Url, field: &str, hop: Hop) -> ApiResult<Client> {
        match self.rule.check(url, field, hop).await? {
            Dial::Shared => Ok(self.shared.clone()),
            Dial::Pinned { name, sockets } => {
                let mut client = Client::builder()
                    .redirect(Policy::none())
                    .connect_timeout(CONNECT_TIMEOUT)
                    .user_agent(concat!("payback/", env!("CARGO_PKG_VERSION")));
                // An IP literal is dialed as it is; a name only at the addresses checked.
                if name.parse::<IpAddr>().is_err() {
                    client = client.resolve_to_addrs(&name, &sockets);
                }
                client.build().map_err(ApiError::internal)
            }
        }
    }
}

impl Rule<'_> {
    /// How `url`'s origin may be dialed, or the 400 naming `field`.
    async fn check(&self, url: &Url, field: &str, hop: Hop) -> ApiResult<Dial> {
        if self.is_operator_origin(url) {
            return Ok(Dial::Shared);
        }
        let given = url.host_str().unwrap_or_default();
        // IPv6 literals come bracketed.
        let name = given.trim_start_matches('[').trim_end_matches(']');
        let port = url.port_or_known_default().unwrap_or(443);
        let addresses = host_guard::resolve(name, port, self.allow_private)
            .await
            .map_err(|refusal| {
                let reason = match refusal {
                    Refusal::Unresolved => "does not resolve",
                    Refusal::Private => {
                        "is a loopback, private or link-local address; only public addresses are called"
                    }
                };
                ApiError::bad_request(format!("{field}: {} `{given}` {reason}", hop.words()))
            })?;
        Ok(Dial::Pinned {
            name: name.to_owned(),
            sockets: addresses
                .iter()
                .map(|ip| SocketAddr::new(*ip, port))
                .collect(),
        })
    }

    fn is_operator_origin(&self, url: &Url) -> bool {
        self.operator_origin
            .and_then(|origin| Url::parse(origin).ok())
            .is_some_and(|operator| operator.origin() == url.origin())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    // `check` is the rule; `client` only builds what it answers (building a client needs the
    // TLS provider the binary installs, which this crate's tests do not).
    fn rule(allow_private: bool, operator_origin: Option<&str>) -> Rule<'_> {
        Rule {
            allow_private,
            operator_origin,
        }
    }

    async fn dial(rule: Rule<'_>, text: &str, hop: Hop) -> Result<Dial, String> {
        let url = Url::parse(text).unwrap();
        rule.check(&url, "host", hop)
            .await
            .map_err(|err| err.to_string())
    }

    fn pinned(name: &str, sockets: &[&str]) -> Dial {
        Dial::Pinned {
            name: name.to_owned(),
            sockets: sockets
                .iter()
                .map(|socket| socket.parse().unwrap())
                .collect(),
        }
    }

    #[tokio::test]
    async fn a_loopback_origin_needs_the_allow_flag() {
        assert_eq!(
            dial(rule(false, None), "http://127.0.0.1:9/", Hop::Given).await,
            Err(
                "host: host `127.0.0.1` is a loopback, private or link-local address; only \
                 public addresses are called"
                    .to_owned()
            )
        );
        let redirected = dial(rule(false, None), "http://[::1]:9/", Hop::Redirected)
            .await
            .unwrap_err();
        assert!(
            redirected.starts_with("host: redirects to host `[::1]` is a loopback"),
            "{redirected}"
        );
        assert!(
            dial(rule(false, None), "http://localhost:9/", Hop::Given)
                .await
                .is_err()
        );
        assert_eq!(
            dial(rule(true, None), "http://127.0.0.1:9/", Hop::Given).await,
            Ok(pinned("127.0.0.1", &["127.0.0.1:9"]))
        );
        assert_eq!(
            dial(rule(true, None), "http://[::1]/", Hop::Given).await,
            Ok(pinned("::1", &["[::1]:80"]))
        );
        // RFC 6761: `.invalid` never resolves, allowed or not.
        assert_eq!(
            dial(rule(true, None), "https://ph.example.invalid", Hop::Given).await,
            Err("host: host `ph.example.invalid` does not resolve".to_owned())
        );
    }

    #[tokio::test]
    async fn the_operator_origin_is_exempt() {
        let operator = rule(false, Some("http://127.0.0.1:9/base/"));
        for exempt in ["http://127.0.0.1:9", "http://127.0.0.1:9/other?a=1"] {
            assert_eq!(
                dial(operator, exempt, Hop::Given).await,
                Ok(Dial::Shared),
                "{exempt}"
            );
        }
        // Another port, scheme or name of the same machine is the tenant's, and checked.
        for tenant in [
            "http://127.0.0.1:10",
            "https://127.0.0.1:9",
            "http://localhost:9",
        ] {
            let refused = dial(operator, tenant, Hop::Given).await.unwrap_err();
            assert!(refused.starts_with("host: host `"), "{tenant}: {refused}");
        }
        // Exempt means not even resolved: the operator's name is the operator's business.
        let named = rule(false, Some("https://ph.example.invalid"));
        assert_eq!(
            dial(named, "https://ph.example.invalid/", Hop::Given).await,
            Ok(Dial::Shared)
        );
    }
}
