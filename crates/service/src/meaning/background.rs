//! The background embedder: one thread, under SCHED_IDLE on Linux, that embeds
//! ready meetings whose passages are missing or out of date, newest first, and
//! waits while a recording runs, so live transcription never shares the CPU
//! with it. A restart resumes where it stopped (`meaning_dirty` is in the
//! database); a meeting changed while it was embedded is embedded again.

use std::time::{Duration, Instant};

use recorder_embed::passages;
use recorder_embed::quantize::Quantized;
use recorder_embed::Embedder;
use recorder_store::{EmbeddingSource, NewPassage, PassageSource};

use crate::meaning::retrieve::lines_of;
use crate::state::AppState;

/// Texts embedded at a time (a shutdown or a recording is noticed between).
const BATCH: usize = 16;
/// How often an idle embedder looks for work.
const IDLE: Duration = Duration::from_secs(2);
/// How often an idle embedder checks the index for deleted passages.
const PRUNE_EVERY: Duration = Duration::from_secs(60);

/// Runs until the service shuts down.
pub async fn run(state: AppState) {
    let (done, finished) = tokio::sync::oneshot::channel();
    let spawned = std::thread::Builder::new().name("embeddings".into()).spawn(move || {
        work(&state);
        let _ = done.send(());
    });
    match spawned {
        Ok(_) => {
            let _ = finished.await;
        }
        Err(error) => tracing::error!(%error, "search by meaning: cannot start the embedder"),
    }
}

fn work(state: &AppState) {
    lower_priority();
    let shutdown = &state.core.shutdown;
    let mut pruned = Instant::now();
    while !shutdown.is_cancelled() {
        if recording(state) || !state.models.meaning.installed() {
            pause(state, IDLE);
            continue;
        }
        let Some(embedder) = state.models.meaning.embedder() else {
            pause(state, Duration::from_secs(30));
            continue;
        };
        match state.core.store.next_to_embed() {
            Ok(Some(source)) => embed_meeting(state, &embedder, source),
            Ok(None) => {
                if pruned.elapsed() > PRUNE_EVERY {
                    pruned = Instant::now();
                    if let Err(error) = state.models.meaning.prune(&state.core.store) {
                        tracing::warn!(%error, "search by meaning: cannot check the index");
                    }
                }
                pause(state, IDLE)
            }
            Err(error) => {
                tracing::error!(%error, "search by meaning: cannot read what to embed");
                pause(state, Duration::from_secs(5));
            }
        }
    }
}

fn embed_meeting(state: &AppState, embedder: &Embedder, source: EmbeddingSource) {
    let stop = || state.core.shutdown.is_cancelled() || recording(state);
    if !embed_now(state, embedder, source, stop) {
        pause(state, Duration::from_secs(5));
    }
}

/// Embeds a meeting's passages and keeps them (blocking); stops between
/// batches when `stop` says so. False when they could not be saved.
pub fn embed_now(
    state: &AppState,
    embedder: &Embedder,
    source: EmbeddingSource,
    stop: impl Fn() -> bool,
) -> bool {
    let started = Instant::now();
    let (texts, mut kept) = cut(&source);
    let mut vectors = Vec::with_capacity(texts.len());
    for batch in texts.chunks(BATCH) {
        if stop() {
            return true;
        }
        let batch: Vec<&str> = batch.iter().map(String::as_str).collect();
        vectors.extend(embedder.embed(&batch));
    }
    for (passage, vector) in kept.iter_mut().zip(vectors) {
        let quantized = Quantized::of(&vector);
        passage.scale = quantized.scale;
        passage.vector = quantized.bytes();
    }
    match state.core.store.save_passages(source.meeting, source.version, &kept) {
        Ok(saved) => {
            if let Some(first) = saved {
                state.models.meaning.forget_meeting(source.meeting, first);
            }
            tracing::debug!(
            meeting = %source.meeting_id,
            passages = kept.len(),
            saved = saved.is_some(),
            ms = started.elapsed().as_millis() as u64,
            "search by meaning: meeting embedded"
            );
            true
        }
        Err(error) => {
            tracing::error!(%error, "search by meaning: cannot save passages");
            false
        }
    }
}

/// The texts to embed and their passages (vectors still empty).
fn cut(source: &EmbeddingSource) -> (Vec<String>, Vec<NewPassage>) {
    let mut texts = Vec::new();
    let mut kept = Vec::new();
    for passage in passages::transcript(&lines_of(&source.lines)) {
        kept.push(empty(PassageSource::Transcript, passage.start_ms, passage.end_ms));
        texts.push(passage.text);
    }
    for (note, markdown) in &source.notes {
        for (item, text) in passages::note(markdown).into_iter().enumerate() {
            kept.push(empty(PassageSource::Note { note: *note, item: item as i64 }, 0, 0));
            texts.push(text);
        }
    }
    (texts, kept)
}

fn empty(source: PassageSource, start_ms: i64, end_ms: i64) -> NewPassage {
    NewPassage { source, start_ms, end_ms, scale: 1.0, vector: Vec::new() }
}

/// Whether a recording runs (not paused): embedding then waits, so live
/// transcription keeps the CPU.
pub fn recording(state: &AppState) -> bool {
    state.work.recorder.current().is_some_and(|current| !current.control.paused())
}

/// Sleeps `length`, waking early for a shutdown.
fn pause(state: &AppState, length: Duration) {
    let until = Instant::now() + length;
    while Instant::now() < until && !state.core.shutdown.is_cancelled() {
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[cfg(target_os = "linux")]
fn lower_priority() {
    use thread_priority::{NormalThreadSchedulePolicy, ThreadPriority, ThreadSchedulePolicy};
    let idle = ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Idle);
    let id = thread_priority::thread_native_id();
    if let Err(error) =
        thread_priority::set_thread_priority_and_policy(id, ThreadPriority::Min, idle)
    {
        tracing::warn!(?error, "search by meaning: the embedder runs at normal priority");
    }
}

#[cfg(not(target_os = "linux"))]
fn lower_priority() {}
