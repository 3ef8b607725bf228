//! Text rules shared by the store, the API, export and the gateway.

/// Private-use characters the search index uses to mark matches inside snippets.
/// They are removed from every indexed text so no user text can forge a mark.
pub const MATCH_START: char = '\u{E000}';
pub const MATCH_END: char = '\u{E001}';

/// Removes the snippet sentinels from text that is about to be indexed.
pub fn strip_match_sentinels(text: &str) -> String {
    text.chars().filter(|c| *c != MATCH_START && *c != MATCH_END).collect()
}

/// Escapes text for HTML element content and attribute values.
pub fn escape_html(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&#39;"),
            _ => escaped.push(c),
        }
    }
    escaped
}

/// Turns a snippet whose matches are wrapped in the sentinels into HTML-escaped
/// text with `<mark>…</mark>` around the matches.
pub fn snippet_to_html(snippet: &str) -> String {
    escape_html(snippet).replace(MATCH_START, "<mark>").replace(MATCH_END, "</mark>")
}

/// A time within a meeting (an offset or a length): `mm:ss` under an hour,
/// `hh:mm:ss` from an hour on; negative times count as zero.
pub fn clock(ms: i64) -> String {
    let seconds = ms.max(0) / 1000;
    let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    if h > 0 {
        format!("{h:02}:{m:02}:{s:02}")
    } else {
        format!("{m:02}:{s:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_switch_to_hours_at_one_hour() {
        assert_eq!(clock(0), "00:00");
        assert_eq!(clock(65_900), "01:05");
        assert_eq!(clock(3_599_999), "59:59");
        assert_eq!(clock(3_600_000), "01:00:00");
        assert_eq!(clock(3_723_000), "01:02:03");
        assert_eq!(clock(-1), "00:00");
    }

    #[test]
    fn snippet_marks_survive_and_markup_is_escaped() {
        let raw = format!("a <b> {MATCH_START}word{MATCH_END} & \"q\"");
        assert_eq!(snippet_to_html(&raw), "a &lt;b&gt; <mark>word</mark> &amp; &quot;q&quot;");
    }

    #[test]
    fn sentinels_are_stripped_from_indexed_text() {
        let forged = format!("x{MATCH_START}y{MATCH_END}z");
        assert_eq!(strip_match_sentinels(&forged), "xyz");
    }
}
