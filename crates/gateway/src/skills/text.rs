//! Writing answers for people: local dates, durations, offsets into a meeting,
//! search snippets without HTML, and long texts cut at a line boundary.

use chrono::{DateTime, Local, NaiveDate, NaiveTime, TimeZone};

use super::args::Moment;
pub use recorder_domain::text::clock;

/// `Fri 20 Nov 2026, 14:05` in the machine's time zone.
pub fn date_time(ms: i64) -> String {
    match Local.timestamp_millis_opt(ms).single() {
        Some(moment) => moment.format("%a %-d %b %Y, %H:%M").to_string(),
        None => format!("{ms} ms"),
    }
}

/// `Thu 24 Dec 2026` for a day written `2026-12-24` (other text as it is).
pub fn day(iso: &str) -> String {
    match NaiveDate::parse_from_str(iso.trim(), "%Y-%m-%d") {
        Ok(date) => date.format("%a %-d %b %Y").to_string(),
        Err(_) => iso.to_string(),
    }
}

/// `45 s`, `32 min`, `1 h 05 min`.
pub fn duration(ms: i64) -> String {
    let seconds = ms.max(0) / 1000;
    match seconds {
        s if s < 60 => format!("{s} s"),
        s if s < 3600 => format!("{} min", (s + 30) / 60),
        s => format!("{} h {:02} min", s / 3600, (s % 3600) / 60),
    }
}

/// A search snippet as plain text: `<mark>` becomes `**`, entities are decoded.
pub fn snippet(html: &str) -> String {
    html.replace("<mark>", "**")
        .replace("</mark>", "**")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&amp;", "&")
}

/// Milliseconds for a moment: a number as is, a date at local midnight, a
/// date-time (RFC 3339) as given.
pub fn moment_ms(moment: &Moment) -> Result<i64, String> {
    let text = match moment {
        Moment::Millis(ms) => return Ok(*ms),
        Moment::Text(text) => text.trim(),
    };
    if let Ok(ms) = text.parse::<i64>() {
        return Ok(ms);
    }
    if let Ok(moment) = DateTime::parse_from_rfc3339(text) {
        return Ok(moment.timestamp_millis());
    }
    if let Ok(date) = NaiveDate::parse_from_str(text, "%Y-%m-%d") {
        return local_midnight(date).ok_or_else(|| format!("{text} is not a local date"));
    }
    Err(format!("`{text}` is not a date (2026-11-20), a date-time (RFC 3339) or milliseconds"))
}

pub fn local_midnight(date: NaiveDate) -> Option<i64> {
    let moment = date.and_time(NaiveTime::MIN);
    Local.from_local_datetime(&moment).earliest().map(|m| m.timestamp_millis())
}

/// A piece of a long text: at most `limit` bytes from `offset`, ending at a line
/// break when there is one; the next offset when the text goes on.
pub struct Window<'a> {
    pub text: &'a str,
    pub next_offset: Option<usize>,
}

pub fn window(text: &str, offset: usize, limit: usize) -> Window<'_> {
    let start = floor_boundary(text, offset.min(text.len()));
    let rest = &text[start..];
    if rest.len() <= limit {
        return Window { text: rest, next_offset: None };
    }
    let cut = floor_boundary(rest, limit);
    let end = match rest[..cut].rfind('\n') {
        Some(line_end) if line_end > 0 => line_end + 1,
        _ => cut,
    };
    Window { text: &rest[..end], next_offset: Some(start + end) }
}

fn floor_boundary(text: &str, mut index: usize) -> usize {
    while index > 0 && !text.is_char_boundary(index) {
        index -= 1;
    }
    index
}

/// `“title”` for running text.
pub fn quoted(title: &str) -> String {
    format!("“{title}”")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_naturally() {
        assert_eq!(duration(45_000), "45 s");
        assert_eq!(duration(32 * 60_000), "32 min");
        assert_eq!(duration(65 * 60_000), "1 h 05 min");
    }

    #[test]
    fn days_read_naturally() {
        assert_eq!(day("2026-12-24"), "Thu 24 Dec 2026");
        assert_eq!(day("soon"), "soon");
    }

    #[test]
    fn snippets_lose_their_html() {
        assert_eq!(
            snippet("the <mark>budget</mark> &amp; &lt;plan&gt;"),
            "the **budget** & <plan>"
        );
    }

    #[test]
    fn moments_accept_numbers_dates_and_date_times() {
        assert_eq!(moment_ms(&Moment::Millis(5)), Ok(5));
        assert_eq!(moment_ms(&Moment::Text("2026-11-20T09:00:00Z".into())), Ok(1_795_165_200_000));
        let midnight = moment_ms(&Moment::Text("2026-11-20".into())).expect("date");
        assert_eq!(
            Local
                .timestamp_millis_opt(midnight)
                .single()
                .expect("local")
                .format("%H:%M")
                .to_string(),
            "00:00"
        );
        assert!(moment_ms(&Moment::Text("next tuesday".into())).is_err());
    }

    #[test]
    fn windows_cut_at_line_breaks_and_resume() {
        let text = "line one\nline two\nline three\n";
        let first = window(text, 0, 12);
        assert_eq!(first.text, "line one\n");
        assert_eq!(first.next_offset, Some(9));
        let second = window(text, 9, 100);
        assert_eq!(second.text, "line two\nline three\n");
        assert_eq!(second.next_offset, None);
        let wide = window("ééééé", 0, 3);
        assert_eq!(wide.text, "é");
    }
}
