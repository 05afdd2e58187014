//! Which MongoDB servers a connection may dial, and how. The hosts a connection string names
//! (for `mongodb+srv://`, the targets of its SRV record, looked up with the driver's own
//! resolver) go to the caller, which resolves and checks each once (the server's `host_guard`)
//! and hands them back as [`Seed`]s with their addresses. The connector then dials one seed at a
//! time over a direct connection: the driver neither polls the SRV record again nor dials the
//! replica-set members a server announces, so nothing unchecked is ever dialed.

use std::net::IpAddr;

use mongodb::error::ErrorKind;
use mongodb::options::{ClientOptions, ConnectionString, HostInfo, ServerAddress, Tls};

use super::DocdbCredentials;
use crate::ConnectorError;
use crate::database::ReadLimits;

/// MongoDB's port when a host names none.
pub(super) const DEFAULT_PORT: u16 = 27017;

/// One server a run may dial: the host as the connection string or its SRV record names it, and
/// the addresses it resolved to when it was checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seed {
    pub host: String,
    pub port: u16,
    pub addresses: Vec<IpAddr>,
}

impl Seed {
    /// `host:port` (`[::1]:27017`), as messages name it.
    pub(super) fn label(&self) -> String {
        if self.host.contains(':') {
            format!("[{}]:{}", self.host, self.port)
        } else {
            format!("{}:{}", self.host, self.port)
        }
    }
}

/// The hosts the connection string names, with their ports: the listed ones, or for a
/// `mongodb+srv://` string the targets its SRV record names now. A name whose SRV record cannot
/// be read is [`ConnectorError::Config`] saying it does not resolve.
pub async fn seed_hosts(
    credentials: &DocdbCredentials,
    limits: ReadLimits,
) -> Result<Vec<(String, u16)>, ConnectorError> {
    let parsed = parse(credentials)?;
    match &parsed.host_info {
        HostInfo::DnsRecord(name) => {
            let options = srv_lookup(parsed.clone(), name, limits).await?;
            Ok(tcp_hosts(&options.hosts))
        }
        HostInfo::HostIdentifiers(hosts) => Ok(tcp_hosts(hosts)),
        // A form this driver version has and this module does not know: nothing to dial.
        _ => Ok(Vec::new()),
    }
}

/// The connection string as the driver reads it, with what a `mongodb+srv://` string's DNS
/// records add written in (TLS unless the string turns it off; `authSource`, `replicaSet` and
/// `loadBalanced` from its TXT record) so each seed can be dialed on its own.
pub(super) async fn base(
    credentials: &DocdbCredentials,
    limits: ReadLimits,
) -> Result<ConnectionString, ConnectorError> {
    let mut parsed = parse(credentials)?;
    if let HostInfo::DnsRecord(name) = &parsed.host_info {
        let name = name.clone();
        let resolved = srv_lookup(parsed.clone(), &name, limits).await?;
        parsed.tls = resolved.tls;
        if let Some(credential) = parsed.credential.as_mut() {
            credential.source = resolved.credential.and_then(|resolved| resolved.source);
        }
        parsed.replica_set = resolved.repl_set_name;
        parsed.load_balanced = resolved.load_balanced;
        parsed.srv_max_hosts = None;
        parsed.srv_service_name = None;
    }
    Ok(parsed)
}

/// The client options for one seed, dialed at `dial` (its name, or one of its checked
/// addresses) over a direct connection.
pub(super) async fn options_for(
    base: &ConnectionString,
    dial: &str,
    port: u16,
) -> Result<ClientOptions, ConnectorError> {
    let mut one = base.clone();
    one.host_info = HostInfo::HostIdentifiers(vec![ServerAddress::Tcp {
        host: dial.to_owned(),
        port: Some(port),
    }]);
    // A load balancer announces no members, and the driver refuses a direct connection to one.
    if one.load_balanced != Some(true) {
        one.direct_connection = Some(true);
    }
    // Hosts only: nothing is looked up here.
    ClientOptions::parse(one)
        .await
        .map_err(|_| ConnectorError::Config("the MongoDB connection string cannot work".to_owned()))
}

/// Whether the driver checks the server's certificate against the name it dials: TLS is on and
/// certificates are not waved through (`tlsInsecure`, `tlsAllowInvalidCertificates`).
pub(super) fn verifies_certificates(base: &ConnectionString) -> bool {
    matches!(&base.tls, Some(Tls::Enabled(options)) if options.allow_invalid_certificates != Some(true))
}

/// Whether the connection uses TLS at all.
pub(super) fn uses_tls(base: &ConnectionString) -> bool {
    matches!(&base.tls, Some(Tls::Enabled(_)))
}

fn parse(credentials: &DocdbCredentials) -> Result<ConnectionString, ConnectorError> {
    // `DocdbCredentials` parsed it once already; the driver's text is not passed on.
    ConnectionString::parse(credentials.uri())
        .map_err(|_| ConnectorError::Config("the MongoDB connection string cannot work".to_owned()))
}

/// The SRV and TXT lookups of a `mongodb+srv://` string, through the driver's resolver.
async fn srv_lookup(
    parsed: ConnectionString,
    name: &str,
    limits: ReadLimits,
) -> Result<ClientOptions, ConnectorError> {
    let lookup = ClientOptions::parse(parsed);
    match tokio::time::timeout(limits.statement_timeout, lookup).await {
        Ok(Ok(options)) => Ok(options),
        Ok(Err(err)) => Err(match *err.kind {
            // No record, or one naming hosts outside the name's domain (which the driver refuses).
            ErrorKind::DnsResolve { .. } => {
                ConnectorError::Config(format!("`{name}` does not resolve (no usable SRV record)"))
            }
            _ => ConnectorError::Config(format!(
                "the DNS records of `{name}` do not make a usable MongoDB connection string"
            )),
        }),
        Err(_) => Err(ConnectorError::Config(format!(
            "`{name}` does not resolve: its SRV record did not arrive within {}s",
            limits.statement_timeout.as_secs_f64()
        ))),
    }
}

fn tcp_hosts(hosts: &[ServerAddress]) -> Vec<(String, u16)> {
    hosts
        .iter()
        .filter_map(|address| match address {
            ServerAddress::Tcp { host, port } => Some((host.clone(), port.unwrap_or(DEFAULT_PORT))),
            // Refused when the credentials were parsed: a socket path is the API host's own.
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn credentials(uri: &str) -> DocdbCredentials {
        DocdbCredentials::from_json(&json!({ "uri": uri })).expect("valid")
    }

    #[tokio::test]
    async fn listed_hosts_come_with_their_ports() {
        let listed = credentials(
            "mongodb://u:p@A.example.com:27018,b.example.com,[::1]:27019/shop?replicaSet=rs",
        );
        let hosts = seed_hosts(&listed, ReadLimits::default())
            .await
            .expect("no lookup");
        assert_eq!(
            hosts,
            vec![
                ("a.example.com".to_owned(), 27018),
                ("b.example.com".to_owned(), 27017),
                ("::1".to_owned(), 27019),
            ]
        );
    }

    /// `.invalid` never resolves (RFC 6761; the resolver answers it without asking anyone).
    #[tokio::test]
    async fn an_srv_name_without_a_record_does_not_resolve() {
        let srv = credentials("mongodb+srv://u:p@cluster0.example.invalid/shop");
        let refused = seed_hosts(&srv, ReadLimits::default())
            .await
            .expect_err("no record");
        assert!(
            matches!(&refused, ConnectorError::Config(m) if m == "`cluster0.example.invalid` does not resolve (no usable SRV record)"),
            "{refused:?}"
        );
    }

    #[tokio::test]
    async fn each_seed_is_dialed_directly() {
        let base = base(
            &credentials("mongodb://u:p@a.example.com,b.example.com/shop?replicaSet=rs"),
            ReadLimits::default(),
        )
        .await
        .expect("no lookup");
        let options = options_for(&base, "203.0.113.9", 27017)
            .await
            .expect("options");
        assert_eq!(options.direct_connection, Some(true));
        assert_eq!(
            options.hosts,
            vec![ServerAddress::Tcp {
                host: "203.0.113.9".to_owned(),
                port: Some(27017)
            }]
        );
        assert!(!verifies_certificates(&base));
        let tls = base_of("mongodb://a.example.com/shop?tls=true").await;
        assert!(verifies_certificates(&tls));
        let insecure = base_of("mongodb://a.example.com/shop?tls=true&tlsInsecure=true").await;
        assert!(!verifies_certificates(&insecure) && uses_tls(&insecure));
    }

    async fn base_of(uri: &str) -> ConnectionString {
        base(&credentials(uri), ReadLimits::default())
            .await
            .expect("no lookup")
    }
}
