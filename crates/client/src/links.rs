//! `recorder://` links: the app page each stands for (CONTRACT §11). The CLI's
//! `recorder open` and the desktop app read them alike.

/// The app page a `recorder://` link or a path of the app stands for; the
/// library (`/`) when there is none.
pub fn page_of(link: Option<&str>) -> Result<String, String> {
    let Some(link) = link else { return Ok("/".to_string()) };
    if link.starts_with('/') {
        return Ok(link.to_string());
    }
    let Some(rest) = link.strip_prefix("recorder://") else {
        return Err(format!(
            "cannot open {link}: give a recorder:// link or a path such as /settings/general"
        ));
    };
    let rest = rest.trim_end_matches('/');
    match rest.split('/').collect::<Vec<_>>().as_slice() {
        [""] | ["open"] => Ok("/".to_string()),
        ["pair"] => Ok("/settings/extension?pair".to_string()),
        ["recording"] | ["privacy"] => Ok(format!("/{rest}")),
        ["settings", section] | ["meetings", section] if is_plain(section) => Ok(format!("/{rest}")),
        _ => Err(format!(
            "unknown link {link}: recorder:// knows pair, open, recording, privacy, settings/<section> and meetings/<id>"
        )),
    }
}

fn is_plain(part: &str) -> bool {
    !part.is_empty() && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_map_to_app_pages() {
        let page = |link: &str| page_of(Some(link));
        assert_eq!(page_of(None), Ok("/".to_string()));
        assert_eq!(page("recorder://pair"), Ok("/settings/extension?pair".to_string()));
        assert_eq!(page("recorder://pair/"), Ok("/settings/extension?pair".to_string()));
        assert_eq!(page("recorder://settings/license"), Ok("/settings/license".to_string()));
        assert_eq!(page("recorder://meetings/m_1"), Ok("/meetings/m_1".to_string()));
        assert_eq!(page("/privacy"), Ok("/privacy".to_string()));
        assert!(page("recorder://meetings/../x").is_err());
        assert!(page("https://example.com/").is_err());
        assert!(page("recorder://format-disk").is_err());
    }
}
