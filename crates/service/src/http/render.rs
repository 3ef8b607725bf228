//! Text renderings of a transcript: Markdown, SRT, WebVTT and plain text.

use std::fmt::Write;

use recorder_api_types::Segment;

/// The transcript formats and their content types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Json,
    Markdown,
    Srt,
    Vtt,
    Text,
}

impl Format {
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "json" => Some(Format::Json),
            "md" => Some(Format::Markdown),
            "srt" => Some(Format::Srt),
            "vtt" => Some(Format::Vtt),
            "txt" => Some(Format::Text),
            _ => None,
        }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            Format::Json => "application/json",
            Format::Markdown => "text/markdown; charset=utf-8",
            Format::Srt => "application/x-subrip; charset=utf-8",
            Format::Vtt => "text/vtt; charset=utf-8",
            Format::Text => "text/plain; charset=utf-8",
        }
    }
}

/// Renders segments in a text format (not JSON).
pub fn render(format: Format, segments: &[Segment]) -> String {
    match format {
        Format::Markdown => markdown(segments),
        Format::Srt => srt(segments),
        Format::Vtt => vtt(segments),
        Format::Text | Format::Json => text(segments),
    }
}

/// `**Speaker** [mm:ss] text`, one paragraph per segment. Minutes keep counting
/// past an hour (`[75:02]`).
fn markdown(segments: &[Segment]) -> String {
    let mut out = String::new();
    for segment in segments {
        let seconds = segment.start_ms.max(0) / 1000;
        let _ = write!(
            out,
            "**{}** [{:02}:{:02}] {}\n\n",
            escape_markdown(&segment.speaker),
            seconds / 60,
            seconds % 60,
            one_line(&segment.text)
        );
    }
    out
}

fn srt(segments: &[Segment]) -> String {
    let mut out = String::new();
    for (index, segment) in segments.iter().enumerate() {
        let _ = write!(
            out,
            "{}\n{} --> {}\n{}: {}\n\n",
            index + 1,
            clock(segment.start_ms, ','),
            clock(cue_end(segment), ','),
            segment.speaker,
            one_line(&segment.text)
        );
    }
    out
}

fn vtt(segments: &[Segment]) -> String {
    let mut out = String::from("WEBVTT\n\n");
    for segment in segments {
        let _ = write!(
            out,
            "{} --> {}\n<v {}>{}\n\n",
            clock(segment.start_ms, '.'),
            clock(cue_end(segment), '.'),
            escape_vtt(&segment.speaker),
            escape_vtt(&one_line(&segment.text))
        );
    }
    out
}

/// `[hh:mm:ss] Speaker: text`
fn text(segments: &[Segment]) -> String {
    let mut out = String::new();
    for segment in segments {
        let seconds = segment.start_ms.max(0) / 1000;
        let _ = writeln!(
            out,
            "[{:02}:{:02}:{:02}] {}: {}",
            seconds / 3600,
            seconds / 60 % 60,
            seconds % 60,
            segment.speaker,
            one_line(&segment.text)
        );
    }
    out
}

/// Cue ends never precede their starts, even for malformed segments.
fn cue_end(segment: &Segment) -> i64 {
    segment.end_ms.max(segment.start_ms)
}

/// `hh:mm:ss,mmm` (SRT) or `hh:mm:ss.mmm` (WebVTT).
fn clock(ms: i64, separator: char) -> String {
    let ms = ms.max(0);
    format!(
        "{:02}:{:02}:{:02}{separator}{:03}",
        ms / 3_600_000,
        ms / 60_000 % 60,
        ms / 1000 % 60,
        ms % 1000
    )
}

/// Line breaks inside a segment would end a cue or a paragraph early.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn escape_vtt(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

fn escape_markdown(text: &str) -> String {
    text.replace('*', "\\*")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn segments() -> Vec<Segment> {
        vec![
            Segment {
                id: "1".into(),
                edited: false,
                speaker: "Me".into(),
                channel: recorder_domain::Channel::Mic,
                start_ms: 1_500,
                end_ms: 4_250,
                text: "Hello  there".into(),
            },
            Segment {
                id: "2".into(),
                edited: true,
                speaker: "Them".into(),
                channel: recorder_domain::Channel::Sys,
                start_ms: 3_723_004,
                end_ms: 3_725_000,
                text: "a <b> & c\nd".into(),
            },
        ]
    }

    #[test]
    fn markdown_paragraphs() {
        assert_eq!(
            render(Format::Markdown, &segments()),
            "**Me** [00:01] Hello there\n\n**Them** [62:03] a <b> & c d\n\n"
        );
    }

    #[test]
    fn srt_cues() {
        assert_eq!(
            render(Format::Srt, &segments()),
            "1\n00:00:01,500 --> 00:00:04,250\nMe: Hello there\n\n2\n01:02:03,004 --> 01:02:05,000\nThem: a <b> & c d\n\n"
        );
    }

    #[test]
    fn vtt_cues_with_voices() {
        assert_eq!(
            render(Format::Vtt, &segments()),
            "WEBVTT\n\n00:00:01.500 --> 00:00:04.250\n<v Me>Hello there\n\n01:02:03.004 --> 01:02:05.000\n<v Them>a &lt;b&gt; &amp; c d\n\n"
        );
    }

    #[test]
    fn plain_text_lines() {
        assert_eq!(
            render(Format::Text, &segments()),
            "[00:00:01] Me: Hello there\n[01:02:03] Them: a <b> & c d\n"
        );
    }
}
