//! The playback copy of imported audio: before an import is transcribed, its
//! file is decoded once to `meetings/<id>/sys.wav` (16 kHz mono 16-bit PCM,
//! the format of recorded channels), and the transcription reads that copy.
//!
//! Why a copy rather than streaming the original: every format plays in the
//! app (the browser cannot play WMA, AMR, CAF or AIFF), HTTP Range works on a
//! plain WAV, the transcript's times match the audio played sample for sample,
//! the meeting keeps its audio if the person moves or deletes the original,
//! and retention and delete treat it like recorded audio. It costs 115 MB of
//! disk per hour, and the file is decoded once (not once to copy and once to
//! transcribe). The original is never modified.

use std::path::{Path, PathBuf};

use recorder_capture::journal::Journal;
use recorder_domain::{Channel, MeetingId};
use recorder_stt::audio::{self, BLOCK};

use crate::state::{AppState, Core};

/// The file a transcription job should read: the playback copy (made now if
/// needed) for an import, the channel's own file for a recording. Should the
/// copy fail (disk full, say), the original is transcribed and playback is
/// left without audio: the words matter more.
pub fn source_for(state: &AppState, meeting_id: &MeetingId, source: &Path) -> PathBuf {
    let recorded =
        [Channel::Mic, Channel::Sys].map(|c| state.core.data_dir.audio_file(meeting_id, c));
    if recorded.iter().any(|path| path == source) {
        return source.to_path_buf();
    }
    let copy = state.core.data_dir.audio_file(meeting_id, Channel::Sys);
    if copy.is_file() {
        return copy; // made before a restart: it was renamed into place whole
    }
    match make_copy(&state.core, source, &state.core.data_dir.meeting(meeting_id), &copy) {
        Ok(()) => copy,
        Err(error) => {
            tracing::warn!(%meeting_id, %error, "no playback copy of the imported audio");
            source.to_path_buf()
        }
    }
}

fn make_copy(core: &Core, source: &Path, folder: &Path, copy: &Path) -> Result<(), String> {
    std::fs::create_dir_all(folder).map_err(|e| e.to_string())?;
    let partial = copy.with_extension("wav.part");
    if let Err(error) = std::fs::remove_file(&partial) {
        if error.kind() != std::io::ErrorKind::NotFound {
            return Err(error.to_string());
        }
    }
    let ffmpeg = core.environment.find_program("ffmpeg");
    let mut stream = audio::open(source, ffmpeg.as_deref()).map_err(|e| e.to_string())?;
    let mut journal = Journal::create(&partial).map_err(|e| e.to_string())?;
    let mut block = Vec::with_capacity(BLOCK);
    let result = loop {
        if core.shutdown.is_cancelled() {
            break Err("the service is stopping".to_owned());
        }
        block.clear();
        match stream.read(&mut block, BLOCK) {
            Ok(0) => break journal.finish().map(|_| ()).map_err(|e| e.to_string()),
            Ok(_) => {
                if let Err(error) = journal.append(&block) {
                    break Err(error.to_string());
                }
            }
            Err(error) => break Err(error.to_string()),
        }
    };
    match result.and_then(|()| std::fs::rename(&partial, copy).map_err(|e| e.to_string())) {
        Ok(()) => Ok(()),
        Err(error) => {
            let _ = std::fs::remove_file(&partial);
            Err(error)
        }
    }
}
