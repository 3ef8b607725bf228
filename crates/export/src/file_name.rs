//! File names that work on Windows, macOS and Linux.

use crate::local_time;

/// Longest name, in bytes, before the `.md` extension.
const MAX_STEM_BYTES: usize = 120;
/// The title when nothing usable is left of it.
const FALLBACK: &str = "Meeting";

/// `<local YYYY-MM-DD> <title>.md`, e.g. `2026-11-22 Weekly sync.md`.
///
/// Characters no system accepts (`/ \ : * ? " < > |`, control and invisible
/// direction characters) are replaced, whitespace is collapsed, the name never
/// starts with a dot, never ends with a dot or space, is never a Windows device name
/// and is at most 120 bytes before `.md`, cut on a character boundary.
pub fn file_name(title: &str, started_at: i64) -> String {
    let date = local_time(started_at).format("%Y-%m-%d").to_string();
    let room = MAX_STEM_BYTES - date.len() - 1;
    format!("{date} {}.md", safe_stem(title, room))
}

/// A title made safe to stand alone as a file name stem of at most `max_bytes`.
pub(crate) fn safe_stem(title: &str, max_bytes: usize) -> String {
    let mut replaced = String::with_capacity(title.len());
    for c in title.chars() {
        match c {
            ':' | '|' => replaced.push_str(" - "),
            '/' | '\\' => replaced.push('-'),
            '*' | '?' | '"' | '<' | '>' => replaced.push(' '),
            c if c.is_control() || invisible(c) => replaced.push(' '),
            c => replaced.push(c),
        }
    }
    let collapsed = replaced.split_whitespace().collect::<Vec<_>>().join(" ");
    let stem = tidy_ends(truncate(tidy_ends(&collapsed), max_bytes));
    if stem.is_empty() {
        FALLBACK.to_owned()
    } else if is_reserved(stem) {
        format!("_{}", tidy_ends(truncate(stem, max_bytes.saturating_sub(1))))
    } else {
        stem.to_owned()
    }
}

/// No leading dots (hidden files, `.`/`..`), no trailing dots or spaces (Windows
/// drops them), no leading spaces.
fn tidy_ends(text: &str) -> &str {
    text.trim_start_matches(['.', ' ']).trim_end_matches(['.', ' '])
}

/// The longest prefix of at most `max_bytes` that ends on a character boundary.
fn truncate(text: &str, max_bytes: usize) -> &str {
    if text.len() <= max_bytes {
        return text;
    }
    let mut end = max_bytes;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// Zero-width and bidirectional formatting characters, which can make a name look
/// like something else (`U+202E` can show `txt.exe` as `exe.txt`).
fn invisible(c: char) -> bool {
    matches!(c,
        '\u{ad}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{206f}'
        | '\u{feff}' | '\u{fff9}'..='\u{fffb}')
}

/// Windows device names, which stay reserved with any extension and with trailing
/// spaces before it (`CON.txt`, `nul .md`).
fn is_reserved(stem: &str) -> bool {
    let base = stem.split('.').next().unwrap_or(stem).trim_end_matches(' ').to_ascii_uppercase();
    if matches!(base.as_str(), "CON" | "PRN" | "AUX" | "NUL" | "CONIN$" | "CONOUT$") {
        return true;
    }
    let Some(rest) = base.strip_prefix("COM").or_else(|| base.strip_prefix("LPT")) else {
        return false;
    };
    matches!(rest, "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9" | "¹" | "²" | "³")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserved_device_names_are_prefixed() {
        for name in ["CON", "con", "Prn", "aux", "NUL", "COM1", "com9", "LPT1", "lpt9", "COM¹"] {
            assert_eq!(safe_stem(name, 100), format!("_{name}"), "{name}");
        }
        for name in ["con.txt", "Nul.tar.gz", "AUX .md"] {
            assert_eq!(safe_stem(name, 100), format!("_{name}"), "{name}");
        }
        for name in ["CONS", "COM10", "LPT", "console", "icon", "COMA", "NULL"] {
            assert_eq!(safe_stem(name, 100), name, "{name}");
        }
    }

    #[test]
    fn dots_and_spaces_at_the_ends_go() {
        assert_eq!(safe_stem("..", 100), "Meeting");
        assert_eq!(safe_stem(". . .", 100), "Meeting");
        assert_eq!(safe_stem(".hidden", 100), "hidden");
        assert_eq!(safe_stem("Notes. . .", 100), "Notes");
        assert_eq!(safe_stem("  a  ", 100), "a");
        assert_eq!(safe_stem("", 100), "Meeting");
        assert_eq!(safe_stem("\u{202e}\u{200b}", 100), "Meeting");
    }

    #[test]
    fn truncation_then_tidies_the_end_again() {
        // The cut lands right after a space and a dot, which then go too.
        assert_eq!(safe_stem("abc .def", 5), "abc");
        assert_eq!(truncate("aé", 2), "a");
        assert_eq!(truncate("aé", 3), "aé");
    }
}
