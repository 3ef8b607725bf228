//! The parallel driver with stand-in engines: results in order however the
//! workers finish, resume points that never pass an unsaved chunk, a stop
//! that ends every worker, and the width that keeps workers waiting.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use super::{transcribe, FileError, Report, Workers};
use crate::audio::{AudioError, AudioStream};
use crate::transcriber::{ChunkResult, RawSegment, SttError, Transcriber};
use crate::vad::Gate;

/// Samples from memory.
struct Memory {
    samples: Vec<f32>,
    at: usize,
}

impl AudioStream for Memory {
    fn read(&mut self, out: &mut Vec<f32>, max: usize) -> Result<usize, AudioError> {
        let end = (self.at + max).min(self.samples.len());
        out.extend_from_slice(&self.samples[self.at..end]);
        let count = end - self.at;
        self.at = end;
        Ok(count)
    }

    fn duration_ms(&self) -> Option<i64> {
        Some(self.samples.len() as i64 / 16)
    }
}

/// Twelve tones of 2.0, 2.3, 2.6 … s, each after 2 s of silence (the energy
/// gate cuts one chunk per tone).
fn tones() -> Memory {
    let mut samples = Vec::new();
    for k in 0..12 {
        samples.extend(std::iter::repeat_n(0.0, 32_000));
        let length = 16 * (2_000 + 300 * k);
        samples.extend((0..length).map(|i| 0.3 * (i as f32 * 0.07).sin()));
    }
    samples.extend(std::iter::repeat_n(0.0, 32_000));
    Memory { samples, at: 0 }
}

/// Names each chunk by its length and takes longest on the shortest, so
/// chunks finish out of order; counts its calls.
struct Slow<'a> {
    calls: &'a AtomicUsize,
}

impl Transcriber for Slow<'_> {
    fn transcribe(&mut self, samples: &[f32]) -> Result<ChunkResult, SttError> {
        self.calls.fetch_add(1, Ordering::Relaxed);
        let length_ms = samples.len() as i64 / 16;
        std::thread::sleep(Duration::from_millis(60u64.saturating_sub(length_ms as u64 / 100)));
        let segment = RawSegment {
            start_ms: 0,
            end_ms: length_ms,
            text: format!("a chunk of {length_ms} ms"),
            no_speech_probability: 0.0,
        };
        Ok(ChunkResult { segments: vec![segment], language: Some("en".into()) })
    }
}

fn run(engines: usize, width: usize) -> (Vec<Report>, Vec<usize>) {
    let calls: Vec<AtomicUsize> = (0..engines).map(|_| AtomicUsize::new(0)).collect();
    let mut slow: Vec<Slow> = calls.iter().map(|calls| Slow { calls }).collect();
    let engines = slow.iter_mut().map(|e| e as &mut dyn Transcriber).collect();
    let width = move || width;
    let mut reports = Vec::new();
    transcribe(&mut tones(), Workers::new(engines, &width), Gate::best(None), 0, |report| {
        reports.push(report);
        ControlFlow::Continue(())
    })
    .expect("transcribed");
    (reports, calls.iter().map(|c| c.load(Ordering::Relaxed)).collect())
}

fn texts(reports: &[Report]) -> Vec<(i64, String)> {
    reports.iter().flat_map(|r| r.segments.iter().map(|s| (s.start_ms, s.text.clone()))).collect()
}

#[test]
fn several_workers_report_what_one_does_in_the_same_order() {
    let (one, _) = run(1, 1);
    let (three, calls) = run(3, usize::MAX);
    assert_eq!(texts(&one).len(), 12, "a segment a tone: {:?}", texts(&one));
    assert_eq!(texts(&three), texts(&one), "same segments, same order");
    assert!(calls.iter().all(|&c| c > 0), "every worker worked: {calls:?}");
    assert_eq!(calls.iter().sum::<usize>(), 12, "each chunk once");
    let starts: Vec<i64> = texts(&three).iter().map(|(start, _)| *start).collect();
    assert!(starts.windows(2).all(|w| w[0] < w[1]), "in file order: {starts:?}");
}

#[test]
fn a_resume_point_never_passes_a_segment_reported_after_it() {
    let (reports, _) = run(3, usize::MAX);
    for (i, report) in reports.iter().enumerate() {
        let later = reports[i + 1..].iter().flat_map(|r| &r.segments);
        for segment in later {
            assert!(
                segment.start_ms >= report.settled_ms,
                "report {i} said resume from {} ms, but a segment at {} ms came later",
                report.settled_ms,
                segment.start_ms
            );
        }
    }
    let last = reports.last().expect("a last report");
    assert_eq!(last.settled_ms, last.position_ms, "the end is settled");
}

#[test]
fn workers_past_the_width_wait() {
    let (reports, calls) = run(3, 1);
    assert_eq!(texts(&reports).len(), 12);
    assert_eq!(calls, [12, 0, 0], "only the first worker worked");
}

#[test]
fn a_stop_ends_every_worker_and_says_so() {
    let calls: Vec<AtomicUsize> = (0..2).map(|_| AtomicUsize::new(0)).collect();
    let mut slow: Vec<Slow> = calls.iter().map(|calls| Slow { calls }).collect();
    let engines = slow.iter_mut().map(|e| e as &mut dyn Transcriber).collect();
    let width = || usize::MAX;
    let outcome =
        transcribe(&mut tones(), Workers::new(engines, &width), Gate::best(None), 0, |r| {
            if r.segments.is_empty() {
                ControlFlow::Continue(())
            } else {
                ControlFlow::Break(())
            }
        });
    assert!(matches!(outcome, Err(FileError::Stopped)), "{outcome:?}");
    let done: usize = calls.iter().map(|c| c.load(Ordering::Relaxed)).sum();
    assert!(done < 12, "the rest of the file was not transcribed ({done} chunks)");
}

/// Fails on its third call.
struct Fails(usize);

impl Transcriber for Fails {
    fn transcribe(&mut self, _samples: &[f32]) -> Result<ChunkResult, SttError> {
        self.0 += 1;
        if self.0 == 3 {
            return Err(SttError::Engine("out of memory".into()));
        }
        Ok(ChunkResult::default())
    }
}

#[test]
fn a_failed_chunk_fails_the_file() {
    let (mut first, mut second) = (Fails(0), Fails(0));
    let engines: Vec<&mut dyn Transcriber> = vec![&mut first, &mut second];
    let width = || usize::MAX;
    let outcome =
        transcribe(&mut tones(), Workers::new(engines, &width), Gate::best(None), 0, |_| {
            ControlFlow::Continue(())
        });
    match outcome {
        Err(FileError::Engine(error)) => assert!(error.to_string().contains("out of memory")),
        other => panic!("expected the engine's error, got {other:?}"),
    }
}
