//! The audio journal: one WAV file per channel (16 kHz, mono, 16-bit PCM),
//! written as audio arrives. Every second the buffered samples are flushed,
//! the header's sizes are brought up to date and the file is fsync'd, so after
//! a crash at any instant the file is a valid WAV of everything up to the last
//! sync at least; [`repair`] also keeps the samples written after it.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Journal format: what the transcription engine reads, at half the size of f32.
pub const RATE: u32 = 16_000;
const HEADER_LEN: u64 = 44;
/// How often written audio is made durable.
pub const SYNC_EVERY: Duration = Duration::from_secs(1);

#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    #[error("the disk is full ({path})")]
    DiskFull { path: PathBuf },
    #[error("cannot write {path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
}

impl JournalError {
    fn from_io(path: &Path, source: std::io::Error) -> Self {
        // ENOSPC (28) and EDQUOT (122) on Linux; StorageFull where std maps it.
        let full = source.kind() == std::io::ErrorKind::StorageFull
            || matches!(source.raw_os_error(), Some(28) | Some(122));
        if full {
            JournalError::DiskFull { path: path.to_path_buf() }
        } else {
            JournalError::Io { path: path.to_path_buf(), source }
        }
    }
}

/// An open channel file being appended to.
pub struct Journal {
    path: PathBuf,
    out: BufWriter<File>,
    samples: u64,
    last_sync: Instant,
    /// `samples` at the last sync.
    synced_samples: u64,
}

impl Journal {
    /// Creates the file with an empty WAV header, durable at once.
    pub fn create(path: &Path) -> Result<Journal, JournalError> {
        let io = |e| JournalError::from_io(path, e);
        let file = OpenOptions::new().write(true).create_new(true).open(path).map_err(io)?;
        let mut out = BufWriter::with_capacity(64 * 1024, file);
        out.write_all(&header(0)).map_err(io)?;
        out.flush().map_err(io)?;
        out.get_ref().sync_all().map_err(io)?;
        Ok(Journal {
            path: path.to_path_buf(),
            out,
            samples: 0,
            last_sync: Instant::now(),
            synced_samples: 0,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Samples written so far (the channel's length at 16 kHz).
    pub fn samples(&self) -> u64 {
        self.samples
    }

    /// Appends samples (clipped to 16 bits); syncs when a second has passed
    /// or a second of audio came in (audio played faster than real time, or
    /// a backlog caught up, is as durable as live audio).
    pub fn append(&mut self, samples: &[f32]) -> Result<(), JournalError> {
        for sample in samples {
            let value = (sample.clamp(-1.0, 1.0) * i16::MAX as f32).round() as i16;
            self.out
                .write_all(&value.to_le_bytes())
                .map_err(|e| JournalError::from_io(&self.path, e))?;
        }
        self.samples += samples.len() as u64;
        let unsynced = self.samples - self.synced_samples;
        if self.last_sync.elapsed() >= SYNC_EVERY || unsynced >= u64::from(RATE) {
            self.sync()?;
        }
        Ok(())
    }

    /// Flushes, writes the header's sizes and fsyncs.
    pub fn sync(&mut self) -> Result<(), JournalError> {
        let path = self.path.clone();
        let io = |e| JournalError::from_io(&path, e);
        self.out.flush().map_err(io)?;
        let file = self.out.get_mut();
        write_sizes(file, self.samples * 2).map_err(io)?;
        file.seek(SeekFrom::End(0)).map_err(io)?;
        file.sync_data().map_err(io)?;
        self.last_sync = Instant::now();
        self.synced_samples = self.samples;
        Ok(())
    }

    /// Syncs a last time and closes the file.
    pub fn finish(mut self) -> Result<u64, JournalError> {
        self.sync()?;
        Ok(self.samples)
    }
}

/// Makes a journal file left by a crash a valid WAV again: the header is
/// written anew with the sizes the file's length gives (every journal has the
/// same format; a half sample at the end is cut), the samples are kept as
/// they are.
/// Returns the number of samples it holds. A file too short for a header is
/// given an empty one.
pub fn repair(path: &Path) -> Result<u64, JournalError> {
    let io = |e| JournalError::from_io(path, e);
    let mut file = OpenOptions::new().read(true).write(true).open(path).map_err(io)?;
    let length = file.metadata().map_err(io)?.len();
    if length < HEADER_LEN {
        file.set_len(0).map_err(io)?;
        file.write_all(&header(0)).map_err(io)?;
        file.sync_all().map_err(io)?;
        return Ok(0);
    }
    let data = (length - HEADER_LEN) & !1;
    file.set_len(HEADER_LEN + data).map_err(io)?;
    file.seek(SeekFrom::Start(0)).map_err(io)?;
    let sized = u32::try_from(data).unwrap_or(u32::MAX - 36);
    file.write_all(&header(sized)).map_err(io)?;
    file.sync_all().map_err(io)?;
    Ok(data / 2)
}

/// Samples a journal holds on disk now (written out, if not yet synced):
/// what [`read_range`] can read. `None` when the file cannot be read.
pub fn samples_on_disk(path: &Path) -> Option<u64> {
    let length = std::fs::metadata(path).ok()?.len();
    Some(length.saturating_sub(HEADER_LEN) / 2)
}

/// Reads `len` samples from `start` (sample indices at 16 kHz) of a journal,
/// open or closed, back as f32: the audio a backlog waited for on disk
/// rather than in memory. Fails when the file does not hold them all yet.
pub fn read_range(path: &Path, start: u64, len: usize) -> Result<Vec<f32>, JournalError> {
    let io = |e| JournalError::from_io(path, e);
    let mut file = File::open(path).map_err(io)?;
    file.seek(SeekFrom::Start(HEADER_LEN + start * 2)).map_err(io)?;
    let mut bytes = vec![0u8; len * 2];
    file.read_exact(&mut bytes).map_err(io)?;
    let scale = f32::from(i16::MAX);
    Ok(bytes.chunks_exact(2).map(|b| f32::from(i16::from_le_bytes([b[0], b[1]])) / scale).collect())
}

fn write_sizes(file: &mut File, data_bytes: u64) -> std::io::Result<()> {
    let data = u32::try_from(data_bytes).unwrap_or(u32::MAX - 36);
    file.seek(SeekFrom::Start(4))?;
    file.write_all(&(data + 36).to_le_bytes())?;
    file.seek(SeekFrom::Start(40))?;
    file.write_all(&data.to_le_bytes())
}

fn header(data_bytes: u32) -> [u8; HEADER_LEN as usize] {
    let mut h = [0u8; HEADER_LEN as usize];
    h[0..4].copy_from_slice(b"RIFF");
    h[4..8].copy_from_slice(&(data_bytes + 36).to_le_bytes());
    h[8..16].copy_from_slice(b"WAVEfmt ");
    h[16..20].copy_from_slice(&16u32.to_le_bytes());
    h[20..22].copy_from_slice(&1u16.to_le_bytes()); // PCM
    h[22..24].copy_from_slice(&1u16.to_le_bytes()); // mono
    h[24..28].copy_from_slice(&RATE.to_le_bytes());
    h[28..32].copy_from_slice(&(RATE * 2).to_le_bytes());
    h[32..34].copy_from_slice(&2u16.to_le_bytes());
    h[34..36].copy_from_slice(&16u16.to_le_bytes());
    h[36..40].copy_from_slice(b"data");
    h[40..44].copy_from_slice(&data_bytes.to_le_bytes());
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tone(n: usize) -> Vec<f32> {
        (0..n).map(|i| 0.5 * (i as f32 * 0.05).sin()).collect()
    }

    #[test]
    fn a_synced_journal_is_a_valid_wav_at_any_time() {
        let folder = tempfile::tempdir().expect("temp");
        let path = folder.path().join("mic.wav");
        let mut journal = Journal::create(&path).expect("create");
        journal.append(&tone(16_000)).expect("append");
        journal.sync().expect("sync");
        // Not closed: read while still open, as after a crash right after a sync.
        let reader = hound::WavReader::open(&path).expect("valid wav");
        assert_eq!(reader.spec().sample_rate, 16_000);
        assert_eq!(reader.len(), 16_000);
        journal.append(&tone(8_000)).expect("append");
        assert_eq!(journal.finish().expect("finish"), 24_000);
        assert_eq!(hound::WavReader::open(&path).expect("wav").len(), 24_000);
    }

    #[test]
    fn a_range_reads_back_what_was_written_and_refuses_what_was_not() {
        let folder = tempfile::tempdir().expect("temp");
        let path = folder.path().join("mic.wav");
        let mut journal = Journal::create(&path).expect("create");
        let written = tone(32_000);
        journal.append(&written).expect("append");
        journal.sync().expect("sync");
        let read = read_range(&path, 16_000, 8_000).expect("in the file");
        assert_eq!(read.len(), 8_000);
        for (back, original) in read.iter().zip(&written[16_000..24_000]) {
            assert!((back - original).abs() <= 1.0 / f32::from(i16::MAX), "{back} vs {original}");
        }
        assert_eq!(samples_on_disk(&path), Some(32_000));
        let beyond = read_range(&path, 30_000, 4_000);
        assert!(beyond.is_err(), "a range past the end is refused, not padded");
        journal.finish().expect("finish");
    }

    #[test]
    fn repair_keeps_samples_written_after_the_last_sync() {
        let folder = tempfile::tempdir().expect("temp");
        let path = folder.path().join("sys.wav");
        let mut journal = Journal::create(&path).expect("create");
        journal.append(&tone(16_000)).expect("append");
        journal.sync().expect("sync");
        journal.append(&tone(4_000)).expect("append");
        journal.out.flush().expect("flush without a header update");
        std::mem::forget(journal); // the process "dies" here
                                   // A torn write leaves half a sample at the end.
        let mut file = OpenOptions::new().append(true).open(&path).expect("open");
        file.write_all(&[7]).expect("torn byte");
        drop(file);
        assert_eq!(repair(&path).expect("repair"), 20_000);
        let reader = hound::WavReader::open(&path).expect("valid wav");
        assert_eq!(reader.len(), 20_000);
        assert_eq!(std::fs::metadata(&path).expect("meta").len(), 44 + 40_000);
    }

    #[test]
    fn repair_gives_a_cut_header_an_empty_one() {
        let folder = tempfile::tempdir().expect("temp");
        let path = folder.path().join("mic.wav");
        std::fs::write(&path, b"RIFF\x00").expect("write");
        assert_eq!(repair(&path).expect("repair"), 0);
        assert_eq!(hound::WavReader::open(&path).expect("wav").len(), 0);
    }

    #[test]
    fn a_full_disk_is_reported_as_such() {
        // /dev/full accepts opening and refuses every write with ENOSPC.
        let mut journal = Journal {
            path: PathBuf::from("/dev/full"),
            out: BufWriter::with_capacity(
                16,
                OpenOptions::new().write(true).open("/dev/full").expect("open"),
            ),
            samples: 0,
            last_sync: Instant::now(),
            synced_samples: 0,
        };
        let error = journal.append(&tone(64)).and_then(|()| journal.sync()).expect_err("full");
        assert!(matches!(error, JournalError::DiskFull { .. }), "{error}");
    }

    #[test]
    fn a_second_of_audio_is_on_disk_however_fast_it_came() {
        let folder = tempfile::tempdir().expect("temp");
        let path = folder.path().join("mic.wav");
        let mut journal = Journal::create(&path).expect("create");
        // Four seconds of audio in a moment (audio played four times faster).
        for _ in 0..4 {
            journal.append(&tone(RATE as usize)).expect("append");
        }
        let on_disk = std::fs::metadata(&path).expect("metadata").len();
        assert_eq!(on_disk, 44 + 4 * u64::from(RATE) * 2, "synced each second of audio");
        let reader = hound::WavReader::open(&path).expect("a valid WAV without repair");
        assert_eq!(reader.duration(), 4 * RATE);
    }
}
