//! Which Host headers and Origins count as loopback. The service and the gateway
//! (MCP over HTTP, A2A) refuse every other, which defeats DNS rebinding.

/// `127.0.0.1`, `localhost` or `[::1]`, with any port (or none).
pub fn is_loopback_host(host: &str) -> bool {
    let name = if let Some(rest) = host.strip_prefix('[') {
        match rest.split_once(']') {
            Some((inside, after)) if after.is_empty() || valid_port(after) => {
                return inside == "::1"
            }
            _ => return false,
        }
    } else {
        match host.split_once(':') {
            Some((name, port)) if valid_port(&format!(":{port}")) => name,
            Some(_) => return false,
            None => host,
        }
    };
    name.eq_ignore_ascii_case("localhost") || name == "127.0.0.1"
}

fn valid_port(text: &str) -> bool {
    text.strip_prefix(':').is_some_and(|port| {
        !port.is_empty() && port.len() <= 5 && port.chars().all(|c| c.is_ascii_digit())
    })
}

pub fn is_web_origin(origin: &str) -> bool {
    origin.starts_with("http://") || origin.starts_with("https://")
}

pub fn is_loopback_origin(origin: &str) -> bool {
    origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
        .is_some_and(is_loopback_host)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_hosts() {
        for good in
            ["127.0.0.1", "127.0.0.1:47321", "localhost", "LOCALHOST:1", "[::1]", "[::1]:8080"]
        {
            assert!(is_loopback_host(good), "{good}");
        }
        for bad in [
            "evil.com",
            "127.0.0.1.evil.com",
            "localhost.evil.com",
            "127.0.0.2",
            "[::2]",
            "[::1]x",
            "127.0.0.1:abc",
            "127.0.0.1:",
            "",
            "localhost:80:80",
            "0.0.0.0",
        ] {
            assert!(!is_loopback_host(bad), "{bad}");
        }
    }

    #[test]
    fn origins() {
        assert!(is_loopback_origin("http://127.0.0.1:47321"));
        assert!(!is_loopback_origin("https://evil.com"));
        assert!(!is_web_origin("chrome-extension://abcdef"));
    }
}
