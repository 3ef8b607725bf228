//! What telling a channel's speakers apart costs during a recording and
//! after it, on this machine: `speakers_after CAMPLUSPLUS SEGMENTATION SILERO
//! WAV` pushes the WAV through [`ChannelSpeakers`] in 1 s blocks as the
//! recorder hands them over (the live share, spent while the meeting goes
//! on), then finishes and concludes (all that is left once it ends), and
//! prints one Markdown table row: `| audio min | live s | after s |`.
//! `bench/speakers_after.sh` builds an hour of real voices and writes the
//! table (bench/results/).

use std::path::Path;
use std::time::Instant;

use recorder_stt::silero::SileroModel;
use recorder_stt::speaker::campplus::CamPlusPlus;
use recorder_stt::speaker::channel::ChannelSpeakers;
use recorder_stt::speaker::segmentation::Segmentation;
use recorder_stt::vad::Gate;

const USAGE: &str = "usage: speakers_after CAMPLUSPLUS SEGMENTATION SILERO WAV";

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let mut next = || args.next().ok_or(USAGE);
    let embedder = CamPlusPlus::load(Path::new(&next()?))?;
    let segmentation = Segmentation::load(Path::new(&next()?))?;
    let silero = SileroModel::load(Path::new(&next()?)).map_err(|e| e.to_string())?;
    let path = next()?;
    let mut stream =
        recorder_stt::audio::open(Path::new(&path), None).map_err(|e| e.to_string())?;
    let mut samples = Vec::new();
    while stream.read(&mut samples, 1 << 20).map_err(|e| e.to_string())? > 0 {}
    let mut speakers =
        ChannelSpeakers::new(&embedder, Some(&segmentation), Gate::best(Some(&silero)));
    let began = Instant::now();
    for block in samples.chunks(16_000) {
        speakers.push(block).map_err(|e| e.to_string())?;
    }
    let live = began.elapsed().as_secs_f64();
    let ended = Instant::now();
    speakers.finish().map_err(|e| e.to_string())?;
    let found = speakers.conclude(None);
    let after = ended.elapsed().as_secs_f64();
    let minutes = samples.len() as f64 / 16_000.0 / 60.0;
    eprintln!("{} speakers", found.voices.len());
    println!("| {minutes:.1} | {} | {live:.1} | {after:.2} |", found.voices.len());
    Ok(())
}
