//! `GET /ui/logs?lines=N`: the newest lines of `logs/recorder.log` (Settings →
//! Diagnostics), read backwards from the end so a large log costs no more than
//! the lines asked for.

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};

use crate::base::error::{ApiError, ApiResult};
use crate::http::extract::QueryMap;
use crate::state::AppState;

const DEFAULT_LINES: usize = 500;
const MAX_LINES: usize = 5000;
const BLOCK: u64 = 64 * 1024;

pub async fn logs(State(state): State<AppState>, query: QueryMap) -> ApiResult<Response> {
    let lines = match query.integer("lines")? {
        None => DEFAULT_LINES,
        Some(n) if n >= 1 => (n as usize).min(MAX_LINES),
        Some(_) => return Err(ApiError::invalid("query parameter `lines` must be at least 1")),
    };
    let path = state.core.data_dir.logs().join("recorder.log");
    let text = tokio::task::spawn_blocking(move || newest_lines(&path, lines))
        .await
        .map_err(|e| ApiError::internal("reading the log", e))?
        .map_err(|e| ApiError::internal("reading the log", e))?;
    let headers =
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8"), (header::CACHE_CONTROL, "no-store")];
    Ok((headers, text).into_response())
}

/// The last `count` lines of the file (all of it when shorter); no file, no lines.
fn newest_lines(path: &Path, count: usize) -> std::io::Result<String> {
    let mut file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(String::new()),
        Err(error) => return Err(error),
    };
    let size = file.metadata()?.len();
    let mut start = size;
    let mut tail: Vec<u8> = Vec::new();
    // One newline more than the lines wanted marks where the first of them begins.
    while start > 0 && bytecount(&tail, b'\n') <= count {
        let step = BLOCK.min(start);
        start -= step;
        let mut block = vec![0; step as usize];
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(&mut block)?;
        block.extend_from_slice(&tail);
        tail = block;
    }
    let text = String::from_utf8_lossy(&tail);
    let body = text.strip_suffix('\n').unwrap_or(&text);
    let kept: Vec<&str> = body.rsplit('\n').take(count).collect();
    let mut out = kept.into_iter().rev().collect::<Vec<_>>().join("\n");
    if !out.is_empty() {
        out.push('\n');
    }
    Ok(out)
}

fn bytecount(bytes: &[u8], byte: u8) -> usize {
    bytes.iter().filter(|b| **b == byte).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_newest_lines_come_back_in_order_across_blocks() {
        let folder = tempfile::tempdir().expect("temp dir");
        let path = folder.path().join("recorder.log");
        let lines: Vec<String> =
            (0..20_000).map(|n| format!("line {n} {}", "x".repeat(40))).collect();
        std::fs::write(&path, lines.join("\n") + "\n").expect("write log");
        let text = newest_lines(&path, 3000).expect("read");
        let got: Vec<&str> = text.lines().collect();
        assert_eq!(got.len(), 3000);
        assert_eq!(got[0], lines[17_000]);
        assert_eq!(got[2999], lines[19_999]);
        assert_eq!(newest_lines(&path, 1).expect("read"), format!("{}\n", lines[19_999]));
    }

    #[test]
    fn a_short_or_missing_log_gives_what_there_is() {
        let folder = tempfile::tempdir().expect("temp dir");
        let path = folder.path().join("recorder.log");
        assert_eq!(newest_lines(&path, 10).expect("missing"), "");
        std::fs::write(&path, "one\ntwo").expect("write log");
        assert_eq!(newest_lines(&path, 10).expect("read"), "one\ntwo\n");
    }
}
