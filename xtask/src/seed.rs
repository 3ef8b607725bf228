//! `xtask seed`: fills a data folder with synthetic meetings through the store.
//!
//! Text is generated on a second thread while the main thread writes, so
//! generation and SQLite work overlap. All randomness comes from one `StdRng`
//! seeded with `--seed`, so the text is the same on every run (meeting ids are
//! UUIDv7 from `recorder_domain::new_id` and do differ).

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::mpsc::{sync_channel, SyncSender};
use std::thread;
use std::time::Instant;

use anyhow::{bail, Context};
use rand::rngs::StdRng;
use rand::seq::index;
use rand::{Rng, SeedableRng};
use recorder_domain::{ActionItemId, Channel, MeetingId, MeetingStatus, NoteId};
use recorder_store::{ActionItemRecord, ListQuery, MeetingRecord, NewSegment, NoteRecord, Store};

use crate::corpus::Corpus;

/// 2026-11-01T10:00:00Z in milliseconds: the start of the newest meeting.
const NEWEST_START_MS: i64 = 1_793_527_200_000;
/// The meetings are spread evenly over the ten years before it (20 000
/// meetings: one every 4.4 hours; 2 000: one every 44 hours).
const SPAN_MS: i64 = 10 * 365 * 86_400_000;
const MINUTE_MS: i64 = 60_000;
const MEETING_MS: i64 = 3_600_000;
/// Segments that contain "zeppelin", across the whole corpus.
const ZEPPELIN_SEGMENTS: usize = 5;
/// One segment in this many contains "quarterly roadmap review" (300 at 2000×900).
const PHRASE_EVERY: usize = 6_000;

pub struct Options {
    pub data_dir: PathBuf,
    pub meetings: usize,
    pub segments: usize,
    pub seed: u64,
    pub append: bool,
}

/// Everything written for one meeting.
struct Generated {
    meeting: MeetingRecord,
    segments: Vec<NewSegment>,
    note: NoteRecord,
    items: Vec<ActionItemRecord>,
}

/// Where the probe texts go: global segment numbers (meeting × segments + index).
struct Probes {
    zeppelin: HashSet<usize>,
    phrase: HashSet<usize>,
}

pub fn run(options: &Options) -> anyhow::Result<()> {
    std::fs::create_dir_all(&options.data_dir)
        .with_context(|| format!("cannot create {}", options.data_dir.display()))?;
    let path = options.data_dir.join("recorder.db");
    let store = Store::open(&path)
        .with_context(|| format!("cannot open the database {}", path.display()))?;
    let existing = store
        .list_meetings(&ListQuery { limit: 1, ..ListQuery::default() })
        .context("cannot count existing meetings")?
        .total;
    if existing > 0 && !options.append {
        bail!(
            "{} already holds {existing} meetings; pass --append to add more, or use an empty folder",
            path.display()
        );
    }

    let total = options.meetings * options.segments;
    let mut rng = StdRng::seed_from_u64(options.seed);
    let probes = Probes {
        zeppelin: sample(&mut rng, total, ZEPPELIN_SEGMENTS.min(total)),
        phrase: sample(&mut rng, total, (total / PHRASE_EVERY).max(3).min(total)),
    };
    let (zeppelin_count, phrase_count) = (probes.zeppelin.len(), probes.phrase.len());
    println!(
        "seeding {} meetings × {} segments into {} (seed {})",
        options.meetings,
        options.segments,
        path.display(),
        options.seed
    );

    let started = Instant::now();
    let (sender, receiver) = sync_channel::<Generated>(16);
    let (meetings, per_meeting) = (options.meetings, options.segments);
    let generator = thread::spawn(move || generate(rng, meetings, per_meeting, &probes, &sender));

    let mut written_meetings = 0usize;
    let mut written_segments = 0usize;
    let mut next_report = 100usize;
    for generated in receiver {
        let id = generated.meeting.id.clone();
        let now = generated.meeting.ended_at.unwrap_or(generated.meeting.started_at);
        store
            .insert_whole_meeting(
                &generated.meeting,
                &generated.segments,
                std::slice::from_ref(&generated.note),
                &generated.items,
                now,
            )
            .with_context(|| format!("cannot insert meeting {id}"))?;
        written_meetings += 1;
        written_segments += generated.segments.len();
        if written_meetings == next_report {
            next_report += 100;
            println!(
                "  {written_meetings}/{meetings} meetings, {written_segments} segments, {:.1} s",
                started.elapsed().as_secs_f64()
            );
        }
    }
    if generator.join().is_err() {
        bail!("the text generator panicked");
    }
    drop(store);
    checkpoint(&path)?;
    println!(
        "seeded {written_meetings} meetings and {written_segments} segments \
         (\"zeppelin\" in {zeppelin_count} segments, \"quarterly roadmap review\" in \
         {phrase_count}) in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Moves the WAL into the database file and removes it. The store closes its
/// read-only readers last, and a read-only connection cannot checkpoint, so
/// without this the seeded data would stay in `recorder.db-wal`.
fn checkpoint(path: &std::path::Path) -> anyhow::Result<()> {
    let connection = rusqlite::Connection::open(path)
        .with_context(|| format!("cannot reopen {} to checkpoint it", path.display()))?;
    connection
        .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
        .with_context(|| format!("cannot checkpoint {}", path.display()))?;
    connection
        .close()
        .map_err(|(_, error)| error)
        .with_context(|| format!("cannot close {}", path.display()))
}

fn sample(rng: &mut StdRng, length: usize, amount: usize) -> HashSet<usize> {
    index::sample(rng, length, amount).into_iter().collect()
}

/// Generates the meetings in order and sends them; stops early if the writer
/// has gone away (it failed).
fn generate(
    mut rng: StdRng,
    meetings: usize,
    per_meeting: usize,
    probes: &Probes,
    sender: &SyncSender<Generated>,
) {
    let corpus = Corpus::new();
    for number in 0..meetings {
        let generated = meeting(&corpus, &mut rng, meetings, number, per_meeting, probes);
        if sender.send(generated).is_err() {
            return;
        }
    }
}

/// Time between two meetings' starts: ten years shared out, whole minutes,
/// at least the meeting's hour.
fn spacing(meetings: usize) -> i64 {
    (SPAN_MS / meetings.max(1) as i64 / MINUTE_MS * MINUTE_MS).max(MEETING_MS)
}

fn meeting(
    corpus: &Corpus,
    rng: &mut StdRng,
    meetings: usize,
    number: usize,
    per_meeting: usize,
    probes: &Probes,
) -> Generated {
    let started_at = NEWEST_START_MS - number as i64 * spacing(meetings);
    let attendees = corpus.attendees(rng);
    let meeting = MeetingRecord {
        id: MeetingId::generate(),
        title: corpus.title(rng),
        source_app: corpus.source_app(rng),
        started_at,
        ended_at: Some(started_at + MEETING_MS),
        duration_ms: MEETING_MS,
        status: MeetingStatus::Ready,
        language: Some("en".to_string()),
        attendees: attendees.clone(),
        tags: corpus.tags(rng),
        starred: false,
        processing_error: None,
        vocabulary: Vec::new(),
    };

    let mut segments = Vec::with_capacity(per_meeting);
    let mut channel = Channel::Sys;
    let slot = MEETING_MS / per_meeting.max(1) as i64;
    for index in 0..per_meeting {
        if rng.gen_bool(0.3) {
            channel = match channel {
                Channel::Mic => Channel::Sys,
                Channel::Sys => Channel::Mic,
            };
        }
        let global = number * per_meeting + index;
        let start_ms = index as i64 * MEETING_MS / per_meeting as i64;
        let end_ms = start_ms + (slot * rng.gen_range(80..=98) / 100).max(1);
        let text =
            corpus.segment(rng, probes.zeppelin.contains(&global), probes.phrase.contains(&global));
        segments.push(NewSegment { channel, start_ms, end_ms, text, speaker: None });
    }

    let note = NoteRecord {
        id: NoteId::generate(),
        kind: "summary".to_string(),
        template_id: None,
        content_md: corpus.summary(rng),
        written_by: Some("builtin".to_string()),
        fallback: None,
        line_moments: Vec::new(),
    };
    let items = (0..rng.gen_range(1..=4))
        .map(|_| {
            let (text, owner) = corpus.action_item(rng, &attendees);
            let done = rng.gen_bool(0.3);
            ActionItemRecord { id: ActionItemId::generate(), text, owner, done, due: None }
        })
        .collect();
    Generated { meeting, segments, note, items }
}
