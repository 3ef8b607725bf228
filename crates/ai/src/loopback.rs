//! Whether a server URL really points at this machine. IP literals are judged as
//! they are; names are resolved, and every address they resolve to must be
//! loopback. The addresses are returned so the request can be pinned to them
//! (the name cannot be re-pointed between this check and the request).

use std::net::{IpAddr, SocketAddr};

use url::{Host, Url};

/// The loopback socket addresses `url`'s host resolves to; Err says why the URL is
/// not (only) this machine.
pub async fn loopback_addrs(url: &Url) -> Result<Vec<SocketAddr>, String> {
    let port = url.port_or_known_default().ok_or("the URL has no port")?;
    let (name, addrs) = match url.host() {
        None => return Err("the URL has no host".to_string()),
        Some(Host::Ipv4(ip)) => (ip.to_string(), vec![SocketAddr::new(ip.into(), port)]),
        Some(Host::Ipv6(ip)) => (format!("[{ip}]"), vec![SocketAddr::new(ip.into(), port)]),
        Some(Host::Domain(name)) => (name.to_string(), resolve(name, port).await?),
    };
    judge(&name, addrs)
}

async fn resolve(name: &str, port: u16) -> Result<Vec<SocketAddr>, String> {
    let found = tokio::net::lookup_host((name, port)).await;
    let addrs: Vec<SocketAddr> = found.map(Iterator::collect).unwrap_or_default();
    if addrs.is_empty() {
        return Err(format!("{name} does not resolve"));
    }
    Ok(addrs)
}

/// Ok when every address is loopback; else Err naming the first that is not.
pub(crate) fn judge(name: &str, addrs: Vec<SocketAddr>) -> Result<Vec<SocketAddr>, String> {
    if addrs.is_empty() {
        return Err(format!("{name} does not resolve"));
    }
    match addrs.iter().find(|addr| !is_loopback(addr.ip())) {
        Some(addr) => Err(format!("{name} is {}, which is not this machine", addr.ip())),
        None => Ok(addrs),
    }
}

/// 127.0.0.0/8, ::1, and IPv4-mapped IPv6 judged by the IPv4 address inside.
pub(crate) fn is_loopback(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => v4.is_loopback(),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.is_loopback(),
            None => v6.is_loopback(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn addr(text: &str) -> SocketAddr {
        text.parse().expect("socket address")
    }

    #[test]
    fn loopback_addresses_are_judged_by_their_ip() {
        for ip in ["127.0.0.1", "127.255.0.9", "::1", "::ffff:127.0.0.1", "::ffff:127.3.2.1"] {
            assert!(is_loopback(ip.parse().expect("ip")), "{ip}");
        }
        for ip in [
            "10.0.0.1",
            "0.0.0.0",
            "::",
            "::ffff:10.0.0.1",
            "::2",
            "::127.0.0.1",
            "192.168.1.1",
            "fe80::1",
        ] {
            assert!(!is_loopback(ip.parse().expect("ip")), "{ip}");
        }
    }

    #[test]
    fn every_address_must_be_loopback() {
        let all = vec![addr("127.0.0.1:80"), addr("[::1]:80")];
        assert_eq!(judge("localhost", all.clone()), Ok(all));
        let mixed = vec![addr("127.0.0.1:80"), addr("93.184.216.34:80"), addr("10.0.0.1:80")];
        assert_eq!(
            judge("evil.example", mixed),
            Err("evil.example is 93.184.216.34, which is not this machine".into())
        );
        assert_eq!(judge("gone.example", vec![]), Err("gone.example does not resolve".into()));
    }

    fn url(text: &str) -> Url {
        Url::parse(text).expect("url")
    }

    #[tokio::test]
    async fn ip_literals_are_judged_directly() {
        assert_eq!(
            loopback_addrs(&url("http://127.0.0.1:11434")).await,
            Ok(vec![addr("127.0.0.1:11434")])
        );
        assert_eq!(loopback_addrs(&url("http://[::1]/v1")).await, Ok(vec![addr("[::1]:80")]));
        let mapped = loopback_addrs(&url("http://[::ffff:127.0.0.1]:8080/")).await;
        assert_eq!(mapped, Ok(vec![addr("[::ffff:127.0.0.1]:8080")]));
        assert!(loopback_addrs(&url("http://[::ffff:10.0.0.1]:8080/")).await.is_err());
        assert!(loopback_addrs(&url("http://10.0.0.1:11434")).await.is_err());
        assert!(loopback_addrs(&url("https://0.0.0.0")).await.is_err());
    }

    #[tokio::test]
    async fn numeric_hosts_are_normalised_by_the_url_parser() {
        for text in ["http://0x7f000001:11434", "http://2130706433:11434", "http://127.1:11434"] {
            let parsed = url(text);
            assert_eq!(parsed.host_str(), Some("127.0.0.1"), "{text}");
            assert_eq!(loopback_addrs(&parsed).await, Ok(vec![addr("127.0.0.1:11434")]), "{text}");
        }
        assert_eq!(url("http://0x0a000001/").host_str(), Some("10.0.0.1"));
        assert!(loopback_addrs(&url("http://0x0a000001/")).await.is_err());
    }

    #[tokio::test]
    async fn names_are_resolved_and_must_stay_on_this_machine() {
        let local = loopback_addrs(&url("http://localhost:11434/")).await.expect("localhost");
        assert!(
            !local.is_empty() && local.iter().all(|a| a.port() == 11434 && is_loopback(a.ip()))
        );
        let missing = loopback_addrs(&url("http://no-such-host.invalid:11434/")).await;
        assert_eq!(missing, Err("no-such-host.invalid does not resolve".into()));
    }
}
