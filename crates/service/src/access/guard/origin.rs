//! Which requests come from the app's own pages. Browsers send the session
//! cookie along with requests that pages on any port of 127.0.0.1 make (cookies
//! and `SameSite=Strict` do not look at ports), so the cookie alone proves
//! nothing: the request must also say it comes from this origin. `Origin`, when
//! present, must be the service's own (the Host the request was sent to, over
//! http); without it, `Sec-Fetch-Site` must be `same-origin` (the app's own
//! fetches, media and event stream) or `none` (the person typed the address or
//! opened a bookmark). Browsers set both headers themselves; pages cannot.

use axum::http::header::{HOST, ORIGIN};
use axum::http::HeaderMap;

const SEC_FETCH_SITE: &str = "sec-fetch-site";

/// Whether a request authenticated by the session cookie comes from the app.
pub fn is_own_page(headers: &HeaderMap) -> bool {
    let header = |name| headers.get(name).and_then(|value| value.to_str().ok());
    match header(ORIGIN.as_str()) {
        Some(origin) => header(HOST.as_str())
            .is_some_and(|host| origin.eq_ignore_ascii_case(&format!("http://{host}"))),
        None => matches!(header(SEC_FETCH_SITE), Some("same-origin" | "none")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, value.parse().expect("header value"));
        }
        map
    }

    #[test]
    fn the_apps_own_origin_passes() {
        let host = ("host", "127.0.0.1:47321");
        assert!(is_own_page(&headers(&[host, ("origin", "http://127.0.0.1:47321")])));
        assert!(is_own_page(&headers(&[
            ("host", "localhost:9"),
            ("origin", "http://localhost:9")
        ])));
        assert!(is_own_page(&headers(&[host, ("sec-fetch-site", "same-origin")])));
        assert!(is_own_page(&headers(&[host, ("sec-fetch-site", "none")])));
    }

    #[test]
    fn other_ports_pages_and_unknown_requests_are_refused() {
        let host = ("host", "127.0.0.1:47321");
        for origin in
            ["http://127.0.0.1:8888", "http://localhost:47321", "null", "https://127.0.0.1:47321"]
        {
            assert!(!is_own_page(&headers(&[host, ("origin", origin)])), "{origin}");
        }
        // An Origin decides even when Sec-Fetch-Site claims more.
        let spoof = [host, ("origin", "http://127.0.0.1:8888"), ("sec-fetch-site", "same-origin")];
        assert!(!is_own_page(&headers(&spoof)));
        for site in ["same-site", "cross-site", "bogus"] {
            assert!(!is_own_page(&headers(&[host, ("sec-fetch-site", site)])), "{site}");
        }
        assert!(!is_own_page(&headers(&[host])), "neither header: an old client or a program");
    }
}
