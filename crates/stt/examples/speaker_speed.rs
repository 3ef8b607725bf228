//! How fast the speaker models run on this machine, per 10 s of audio on one
//! thread: pyannote segmentation-3.0 on candle (batches of 1, 4 and 8
//! windows) beside the hand-written CAM++ and Silero VAD forward passes.
//! `speaker_speed CAMPLUSPLUS SEGMENTATION SILERO WAV` prints a Markdown
//! table (bench/results/). The WAV's first 10 s are used (16 kHz mono).

use std::path::Path;
use std::time::Instant;

use recorder_stt::silero::{SileroModel, SileroVad, FRAME};
use recorder_stt::speaker::campplus::CamPlusPlus;
use recorder_stt::speaker::fbank::features;
use recorder_stt::speaker::segmentation::{Segmentation, WINDOW};

const USAGE: &str = "usage: speaker_speed CAMPLUSPLUS SEGMENTATION SILERO WAV";
const ROUNDS: usize = 5;

/// The median seconds of `ROUNDS` runs of `work`.
fn median(mut work: impl FnMut()) -> f64 {
    let mut times: Vec<f64> = (0..ROUNDS)
        .map(|_| {
            let began = Instant::now();
            work();
            began.elapsed().as_secs_f64()
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[ROUNDS / 2]
}

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let mut next = || args.next().ok_or(USAGE);
    let campplus = CamPlusPlus::load(Path::new(&next()?))?;
    let segmentation = Segmentation::load(Path::new(&next()?))?;
    let silero = SileroModel::load(Path::new(&next()?)).map_err(|e| e.to_string())?;
    let mut stream =
        recorder_stt::audio::open(Path::new(&next()?), None).map_err(|e| e.to_string())?;
    let mut samples = Vec::new();
    while samples.len() < WINDOW
        && stream.read(&mut samples, WINDOW).map_err(|e| e.to_string())? > 0
    {}
    samples.resize(WINDOW, 0.0);
    println!("| model | how it runs | ms per 10 s of audio (1 thread, median of {ROUNDS}) |");
    println!("|---|---|---|");
    for batch in [1usize, 4, 8] {
        let windows: Vec<&[f32]> = (0..batch).map(|_| samples.as_slice()).collect();
        let took = median(|| {
            segmentation.run(&windows).expect("segmentation runs");
        });
        println!(
            "| pyannote segmentation-3.0 | candle, {batch} window(s) at once | {:.0} |",
            took * 1000.0 / batch as f64
        );
    }
    let took = median(|| {
        campplus.embed(&features(&samples));
    });
    println!("| CAM++ embedding | hand-written | {:.0} |", took * 1000.0);
    let took = median(|| {
        let mut vad = SileroVad::new(silero.clone());
        samples.chunks_exact(FRAME).for_each(|frame| {
            vad.probability(frame);
        });
    });
    println!("| Silero VAD | hand-written | {:.0} |", took * 1000.0);
    Ok(())
}
