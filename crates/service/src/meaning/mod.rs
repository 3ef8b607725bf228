//! Search by meaning and asking: the embedding model (loaded on first use),
//! the in-memory index of the kept passages, the background embedder, the
//! search by meaning with its int8 re-rank, and the answers to questions.

pub mod answer;
pub mod ask;
pub mod background;
pub mod gather;
pub mod intent;
pub mod pending;
pub mod retrieve;
pub mod search;
pub mod words;

use std::path::PathBuf;
use std::sync::{Arc, Mutex, RwLock};
use std::time::SystemTime;

use recorder_embed::index::{Entry, Index, Scope};
use recorder_embed::quantize::{Code, Quantized};
use recorder_embed::{Embedder, ModelFiles};
use recorder_store::{Store, StoreResult};

/// Vectors read from the store per query while the index catches up.
const LOAD_BATCH: usize = 50_000;

pub struct Meaning {
    models_dir: PathBuf,
    loaded: Mutex<Option<(Option<SystemTime>, Arc<Embedder>)>>,
    index: RwLock<Index>,
}

impl Meaning {
    pub fn new(models_dir: PathBuf) -> Meaning {
        Meaning { models_dir, loaded: Mutex::default(), index: RwLock::default() }
    }

    /// Whether the model's files are there (a few `stat`s).
    pub fn installed(&self) -> bool {
        ModelFiles::find(&self.models_dir).is_some()
    }

    /// The model, loaded once (about 90 MB; blocking), again when its files change.
    pub fn embedder(&self) -> Option<Arc<Embedder>> {
        let files = ModelFiles::find(&self.models_dir)?;
        let modified = std::fs::metadata(files.weights()).and_then(|m| m.modified()).ok();
        let mut loaded = self.loaded.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((when, embedder)) = loaded.as_ref() {
            if *when == modified {
                return Some(embedder.clone());
            }
        }
        match Embedder::load(&files) {
            Ok(embedder) => {
                tracing::info!(
                    model = recorder_embed::model::NAME,
                    "search by meaning: model loaded"
                );
                let embedder = Arc::new(embedder);
                *loaded = Some((modified, embedder.clone()));
                Some(embedder)
            }
            Err(error) => {
                tracing::warn!(%error, "search by meaning: the embedding model cannot be used");
                *loaded = None;
                None
            }
        }
    }

    /// Adds the passages kept since the last call to the index (blocking).
    pub fn catch_up(&self, store: &Store) -> StoreResult<()> {
        loop {
            let after = self.index.read().unwrap_or_else(|p| p.into_inner()).last_passage();
            let batch = store.passage_vectors_after(after, LOAD_BATCH)?;
            let done = batch.len() < LOAD_BATCH;
            let mut index = self.index.write().unwrap_or_else(|p| p.into_inner());
            if index.last_passage() == after {
                index.extend(batch.into_iter().map(|stored| Entry {
                    passage: stored.passage,
                    meeting: stored.meeting,
                    started_at: stored.started_at,
                    code: Quantized::from_bytes(stored.scale, &stored.vector).code(),
                }));
            }
            if done {
                return Ok(());
            }
        }
    }

    /// Forgets a meeting's passages older than `below`: they were just
    /// replaced (the new ones come with the next catch-up, or already did).
    pub fn forget_meeting(&self, meeting: i64, below: i64) {
        self.index.write().unwrap_or_else(|p| p.into_inner()).forget_meeting(meeting, below);
    }

    /// Reads the index again from the store when it holds many passages the
    /// store no longer has (deleted meetings), so they stop taking the
    /// candidates' places (blocking: one count).
    pub fn prune(&self, store: &Store) -> StoreResult<()> {
        let (kept, _) = store.passage_totals()?;
        let mut index = self.index.write().unwrap_or_else(|p| p.into_inner());
        if index.len() as i64 > kept + kept / 10 + 100 {
            tracing::info!(held = index.len(), kept, "search by meaning: index read again");
            index.clear();
        }
        Ok(())
    }

    /// Candidate passages by their sign codes (see `recorder_embed::index`).
    pub fn nearest(&self, code: &Code, scope: Scope, wanted: usize) -> Vec<i64> {
        self.index.read().unwrap_or_else(|p| p.into_inner()).nearest(code, scope, wanted)
    }
}
