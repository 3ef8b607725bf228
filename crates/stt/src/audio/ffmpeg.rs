//! Other formats through an `ffmpeg` child process that writes 16 kHz mono
//! f32 to a pipe: nothing is copied to a temporary file, and memory stays at
//! one block whatever the file's length.

use std::io::Read;
use std::path::Path;
use std::process::{Child, ChildStdout, Command, Stdio};

use recorder_sandbox::Rules;

use super::{AudioError, AudioStream, SAMPLE_RATE};

/// The demuxers of the import's known audio extensions (CONTRACT §4).
pub const AUDIO_DEMUXERS: &str =
    "wav,mp3,mov,mp4,m4a,3gp,3g2,mj2,aac,flac,ogg,matroska,webm,aiff,caf,asf,amr,w64";

/// The most address space a decoding ffmpeg may map: its libraries, a
/// decoder's buffers per thread, and one block of output.
const MEMORY: u64 = 4 << 30;
/// The most CPU time it may take: decoding an hour takes seconds.
const CPU_SECONDS: u64 = 3600;

/// What ffmpeg may do while it decodes `input`: read that one file (and its
/// own program and libraries), write nothing but its pipes, no network, and
/// bounded memory and CPU time (`recorder_sandbox`).
pub fn rules(ffmpeg: &Path, input: &Path) -> Rules {
    Rules::new().read(input).execute(ffmpeg).memory(MEMORY).cpu_time(CPU_SECONDS)
}

pub struct FfmpegStream {
    child: Child,
    stdout: ChildStdout,
    bytes: Vec<u8>,
    finished: bool,
}

impl FfmpegStream {
    pub fn spawn(ffmpeg: &Path, input: &Path) -> Result<Self, AudioError> {
        let mut command = Command::new(ffmpeg);
        command
            .args(["-nostdin", "-hide_banner", "-loglevel", "error"])
            // The file is read as a local audio file and nothing else: no
            // network or other protocol, and no playlist or concat demuxer that
            // would make ffmpeg open other files or URLs named inside it.
            .args(["-protocol_whitelist", "file,pipe", "-format_whitelist", AUDIO_DEMUXERS, "-i"])
            .arg(input)
            .args(["-vn", "-ac", "1", "-ar", &SAMPLE_RATE.to_string(), "-f", "f32le", "pipe:1"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let confinement = recorder_sandbox::confine_command(&mut command, &rules(ffmpeg, input));
        if !confinement.is_whole() {
            tracing::warn!("ffmpeg decodes an import {confinement}");
        }
        let mut child = command
            .spawn()
            .map_err(|e| AudioError::Converter(format!("cannot start ffmpeg: {e}")))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| AudioError::Converter("ffmpeg has no output pipe".into()))?;
        Ok(FfmpegStream { child, stdout, bytes: Vec::new(), finished: false })
    }

    fn finish(&mut self) -> Result<(), AudioError> {
        self.finished = true;
        let mut errors = String::new();
        if let Some(mut stderr) = self.child.stderr.take() {
            let _ = stderr.read_to_string(&mut errors);
        }
        let status = self.child.wait()?;
        if status.success() {
            return Ok(());
        }
        let message = errors.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("no message");
        Err(AudioError::Converter(format!(
            "ffmpeg could not decode the file ({status}): {message}"
        )))
    }
}

impl AudioStream for FfmpegStream {
    fn read(&mut self, out: &mut Vec<f32>, max: usize) -> Result<usize, AudioError> {
        if self.finished {
            return Ok(0);
        }
        let wanted = max * 4;
        let mut buffer = [0u8; 16 * 1024];
        while self.bytes.len() < wanted {
            let count = self.stdout.read(&mut buffer)?;
            if count == 0 {
                self.finish()?;
                break;
            }
            self.bytes.extend_from_slice(&buffer[..count]);
        }
        let whole = (self.bytes.len().min(wanted) / 4) * 4;
        out.extend(
            self.bytes[..whole]
                .chunks_exact(4)
                .map(|b| super::full_scale(f32::from_le_bytes([b[0], b[1], b[2], b[3]]))),
        );
        self.bytes.drain(..whole);
        Ok(whole / 4)
    }

    fn duration_ms(&self) -> Option<i64> {
        None
    }
}

impl Drop for FfmpegStream {
    fn drop(&mut self) {
        if !self.finished {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
