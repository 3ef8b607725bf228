//! Speakers of the other side end to end: conversations of espeak-ng people
//! imported into a real service with the tiny.en model and the CAM++ weights
//! (scripts/speaker-model.sh); labels in the transcript that agree with who
//! really spoke, names given through the API followed by transcripts, search,
//! exports and action items, a named voice recognised in the next meeting,
//! and remembered voices listed and forgotten.

use std::collections::HashMap;

use recorder_test_support::speech::{self, conversation, SpokenTurn, PEOPLE};
use recorder_test_support::{Options, TestService};
use reqwest::Method;
use serde_json::{json, Value};

use crate::import::wait_ready;
use crate::{call, get, pair_extension, person_call, post, set_settings, BIN};

const LINES: [&str; 6] = [
    "Let us look at the budget for the next quarter before Friday.",
    "The customer asked for a demo of the new reports.",
    "We still have two open bugs in the import flow.",
    "Marketing wants the launch moved to the second week of March.",
    "The servers were slow again last night around midnight.",
    "Our hiring plan needs one more engineer for the mobile team.",
];

/// Both speaker models, as `recorder models add-speakers` installs them.
fn speaker_env() -> [(String, String); 2] {
    [
        ("RECORDER_SPEAKER_MODEL_PATH".into(), speech::speaker_model().display().to_string()),
        (
            "RECORDER_SEGMENTATION_MODEL_PATH".into(),
            speech::segmentation_model().display().to_string(),
        ),
    ]
}

fn start(speaker_model: bool) -> TestService {
    let mut env = vec![("RECORDER_MODEL_PATH".into(), speech::test_model().display().to_string())];
    if speaker_model {
        env.extend(speaker_env());
    }
    let options = Options {
        settings: Some(json!({"general": {"allow_remote_start": true}})),
        env,
        ..Options::default()
    };
    TestService::start(BIN, options)
}

/// Imports a conversation of `people` taking the turns `order`, names the
/// meeting's attendees, and waits until it is ready.
async fn import_call(
    service: &TestService,
    name: &str,
    people: &[usize],
    order: &[usize],
) -> (String, Vec<SpokenTurn>) {
    let path = service.folder.path().join(name);
    let voices: Vec<_> = people.iter().map(|p| PEOPLE[*p]).collect();
    let turns: Vec<(usize, &str)> = order.iter().zip(LINES).map(|(p, l)| (*p, l)).collect();
    let truth = conversation(&voices, &turns, 0.7, &path);
    let answer = post(service, "/v1/import", &json!({ "path": path })).await;
    assert_eq!(answer.status, 202, "{}", answer.text);
    let id = answer.body["id"].as_str().expect("id").to_owned();
    let attendees = json!({"attendees": [{"name": "Dana"}, {"name": "Eli"}, {"name": "Fay"}]});
    let patched = call(
        Method::PATCH,
        &service.url(&format!("/v1/meetings/{id}")),
        Some(&service.api_token),
        Some(&attendees),
    )
    .await;
    assert_eq!(patched.status, 200, "{}", patched.text);
    wait_ready(service, &id).await;
    (id, truth)
}

async fn segments(service: &TestService, id: &str) -> Vec<Value> {
    let answer = get(service, &format!("/v1/meetings/{id}/transcript")).await;
    assert_eq!(answer.status, 200, "{}", answer.text);
    answer.body["segments"].as_array().expect("segments").clone()
}

/// The speaker shown for each true turn (by the segment that overlaps it most).
fn speaker_per_turn(segments: &[Value], truth: &[SpokenTurn]) -> Vec<String> {
    truth
        .iter()
        .map(|turn| {
            let overlap = |s: &Value| {
                let start = s["start_ms"].as_i64().expect("start");
                let end = s["end_ms"].as_i64().expect("end");
                end.min(turn.end_ms) - start.max(turn.start_ms)
            };
            let best = segments.iter().max_by_key(|s| overlap(s)).expect("a segment");
            assert!(overlap(best) > 0, "no segment for {turn:?} in {segments:?}");
            best["speaker"].as_str().expect("speaker").to_owned()
        })
        .collect()
}

/// Each person got one label of their own; returns person → label.
fn one_label_per_person(labels: &[String], truth: &[SpokenTurn]) -> HashMap<usize, String> {
    let mut given: HashMap<usize, String> = HashMap::new();
    for (turn, label) in truth.iter().zip(labels) {
        let first = given.entry(turn.person).or_insert_with(|| label.clone());
        assert_eq!(first, label, "labels {labels:?} for {truth:?}");
    }
    let mut distinct: Vec<&String> = given.values().collect();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), given.len(), "two people share a label: {given:?}");
    given
}

async fn speakers(service: &TestService, id: &str) -> Value {
    let answer = get(service, &format!("/v1/meetings/{id}/speakers")).await;
    assert_eq!(answer.status, 200, "{}", answer.text);
    answer.body
}

async fn rename(service: &TestService, id: &str, body: &Value) -> crate::Answer {
    let url = service.url(&format!("/v1/meetings/{id}/speakers"));
    call(Method::PATCH, &url, Some(&service.api_token), Some(body)).await
}

#[tokio::test]
async fn speakers_are_told_apart_named_and_the_name_follows_everywhere() {
    let service = start(true);
    let (id, truth) = import_call(&service, "call.wav", &[0, 1, 3], &[0, 1, 2, 0, 2, 1]).await;
    let all = segments(&service, &id).await;
    assert!(all.iter().all(|s| s["channel"] == "sys"), "{all:?}");
    let labels = speaker_per_turn(&all, &truth);
    let by_person = one_label_per_person(&labels, &truth);
    assert_eq!(by_person[&0], "Speaker 1", "numbered as they first speak: {labels:?}");
    assert_eq!(by_person[&1], "Speaker 2");
    assert_eq!(by_person[&2], "Speaker 3");

    let listed = speakers(&service, &id).await;
    assert_eq!(listed["model_installed"], true);
    assert_eq!(listed["speakers"].as_array().expect("speakers").len(), 3, "{listed}");
    assert_eq!(listed["suggestions"], json!(["Dana", "Eli", "Fay"]));

    let renamed = rename(&service, &id, &json!({"Speaker 1": "Dana"})).await;
    assert_eq!(renamed.status, 200, "{}", renamed.text);
    assert_eq!(
        renamed.body["speakers"][0],
        json!({"key": "Speaker 1", "channel": "sys", "label": "Dana", "name": "Dana"})
    );
    assert_eq!(renamed.body["suggestions"], json!(["Eli", "Fay"]));

    let after = speaker_per_turn(&segments(&service, &id).await, &truth);
    assert_eq!(after[0], "Dana");
    assert_eq!(after[1], "Speaker 2");
    let markdown = get(&service, &format!("/v1/meetings/{id}/transcript?format=md")).await;
    assert!(markdown.text.contains("**Dana**"), "{}", markdown.text);
    let vtt = get(&service, &format!("/v1/meetings/{id}/transcript?format=vtt")).await;
    assert!(vtt.text.contains("<v Dana>") && vtt.text.contains("<v Speaker 3>"), "{}", vtt.text);
    let found = get(&service, "/v1/search?q=budget").await;
    let results = found.body["results"].as_array().expect("results");
    let hit = results.iter().find(|r| r["source"] == "transcript").expect("a transcript hit");
    assert_eq!(hit["speaker"], "Dana", "{}", found.text);
    let notes = get(&service, &format!("/v1/meetings/{id}")).await.body["notes"].to_string();
    assert!(notes.contains("Dana") && !notes.contains("Speaker 1"), "notes follow: {notes}");

    let folder = service.folder.path().join("exports");
    std::fs::create_dir_all(&folder).expect("exports");
    let export_path = format!("/ui/meetings/{id}/export");
    let exported =
        person_call(&service, Method::POST, &export_path, Some(&json!({"folder": folder}))).await;
    assert_eq!(exported.status, 201, "{}", exported.text);
    let file = std::fs::read_to_string(exported.body["path"].as_str().expect("path")).expect("md");
    assert!(file.contains("Dana") && file.contains("Speaker 2"), "{file}");

    // A name can be changed by its label, and taken away again.
    let again = rename(&service, &id, &json!({"Dana": "Dana Scully", "Speaker 3": "Fay"})).await;
    assert_eq!(again.status, 200, "{}", again.text);
    assert_eq!(again.body["speakers"][0]["label"], "Dana Scully");
    let cleared = rename(&service, &id, &json!({"Speaker 3": null})).await;
    assert_eq!(cleared.body["speakers"][2]["label"], "Speaker 3", "{}", cleared.text);

    // Every rename is in the meeting's history (the API token: `agent:api`),
    // newest first, and undoing the last gives Speaker 3 its name back.
    let history = get(&service, &format!("/v1/meetings/{id}/history")).await;
    let renames: Vec<(&str, &str)> = history.body["changes"]
        .as_array()
        .expect("changes")
        .iter()
        .filter(|c| c["target"].as_str().is_some_and(|t| t.starts_with("speaker_name:")))
        .map(|c| (c["target"].as_str().unwrap_or(""), c["by"].as_str().unwrap_or("")))
        .collect();
    assert_eq!(renames.first(), Some(&("speaker_name:3", "agent:api")), "{}", history.text);
    assert_eq!(renames.len(), 4, "{}", history.text);
    let last = history.body["changes"][0]["id"].as_str().expect("change id").to_owned();
    let undo_url = service.url(&format!("/v1/meetings/{id}/history/{last}/undo"));
    let undone = call(Method::POST, &undo_url, Some(&service.api_token), None).await;
    assert_eq!(undone.status, 200, "{}", undone.text);
    assert_eq!(speakers(&service, &id).await["speakers"][2]["label"], "Fay");
}

#[tokio::test]
async fn bad_names_and_unknown_speakers_are_refused_and_change_nothing() {
    let service = start(true);
    let (id, _) = import_call(&service, "pair.wav", &[1, 2], &[0, 1, 0, 1]).await;
    for body in [
        json!({"Speaker 9": "Dana"}),
        json!({"Speaker 1": ""}),
        json!({"Speaker 1": "x".repeat(81)}),
        json!({"Speaker 1": "Dana", "Nobody": "Eli"}),
        json!({"Speaker 1": 7}),
        json!(["Speaker 1"]),
    ] {
        rename(&service, &id, &body).await.expect_error(400, "invalid_request");
    }
    let listed = speakers(&service, &id).await;
    assert!(
        listed["speakers"].as_array().expect("speakers").iter().all(|s| s["name"].is_null()),
        "{listed}"
    );
    // A meeting still being transcribed gets its speakers later.
    let path = service.folder.path().join("pair.wav");
    let busy = post(&service, "/v1/import", &json!({ "path": path })).await;
    assert_eq!(busy.status, 202, "{}", busy.text);
    let busy_id = busy.body["id"].as_str().expect("id");
    rename(&service, busy_id, &json!({"Speaker 1": "Dana"}))
        .await
        .expect_error(409, "meeting_busy");
    wait_ready(&service, busy_id).await;
    let unknown = "/v1/meetings/0190a0a0-0000-7000-8000-000000000000/speakers";
    get(&service, unknown).await.expect_error(404, "not_found");
    let token = pair_extension(&service).await;
    let url = service.url(&format!("/v1/meetings/{id}/speakers"));
    call(Method::GET, &url, Some(&token), None).await.expect_error(403, "insufficient_scope");
}

#[tokio::test]
async fn a_named_voice_is_recognised_in_the_next_meeting_until_it_is_forgotten() {
    let service = start(true);
    let (first, _) = import_call(&service, "first.wav", &[3, 0], &[0, 1, 0, 1]).await;
    let renamed = rename(&service, &first, &json!({"Speaker 1": "Fay"})).await;
    assert_eq!(renamed.status, 200, "{}", renamed.text);
    let voices = person_call(&service, Method::GET, "/ui/voices", None).await;
    assert_eq!(voices.body["remember"], true);
    assert_eq!(voices.body["voices"][0]["name"], "Fay", "{}", voices.text);
    assert_eq!(voices.body["voices"][0]["meetings"], 1);

    // Fay speaks second in the next meeting, with someone new.
    let (second, truth) = import_call(&service, "second.wav", &[2, 3], &[0, 1, 0, 1]).await;
    let labels = speaker_per_turn(&segments(&service, &second).await, &truth);
    let by_person = one_label_per_person(&labels, &truth);
    assert_eq!(by_person[&1], "Fay", "{labels:?}");
    assert_eq!(by_person[&0], "Speaker 1", "{labels:?}");

    let voice_id = voices.body["voices"][0]["id"].as_str().expect("id").to_owned();
    let forgotten =
        person_call(&service, Method::DELETE, &format!("/ui/voices/{voice_id}"), None).await;
    assert_eq!(forgotten.status, 204, "{}", forgotten.text);
    let gone = person_call(&service, Method::GET, "/ui/voices", None).await;
    assert_eq!(gone.body["voices"], json!([]), "{}", gone.text);
    // The meeting keeps the name it was given.
    assert_eq!(speaker_per_turn(&segments(&service, &second).await, &truth)[1], "Fay");

    // With remembering off, naming keeps no voice.
    let off = set_settings(&service, json!({"transcription": {"remember_voices": false}})).await;
    assert_eq!(off.status, 200, "{}", off.text);
    let named = rename(&service, &second, &json!({"Speaker 1": "Eli"})).await;
    assert_eq!(named.status, 200, "{}", named.text);
    let none = person_call(&service, Method::GET, "/ui/voices", None).await;
    assert_eq!(
        (none.body["remember"].clone(), none.body["voices"].clone()),
        (json!(false), json!([]))
    );
}

#[tokio::test]
async fn without_the_speaker_model_the_other_side_stays_them() {
    let service = start(false);
    let (id, _) = import_call(&service, "them.wav", &[0, 1], &[0, 1, 0]).await;
    let all = segments(&service, &id).await;
    assert!(!all.is_empty() && all.iter().all(|s| s["speaker"] == "Them"), "{all:?}");
    let listed = speakers(&service, &id).await;
    assert_eq!(
        (listed["speakers"].clone(), listed["model_installed"].clone()),
        (json!([]), json!(false))
    );
    rename(&service, &id, &json!({"Speaker 1": "Dana"})).await.expect_error(400, "invalid_request");
}

#[tokio::test]
async fn a_live_call_keeps_its_live_lines_and_gets_its_speakers_when_it_is_finished() {
    let folder = tempfile::tempdir().expect("temp");
    let sys = folder.path().join("sys.wav");
    let order = [0, 1, 0, 1];
    let turns: Vec<(usize, &str)> = order.iter().zip(LINES).map(|(p, l)| (*p, l)).collect();
    let truth = conversation(&[PEOPLE[0], PEOPLE[3]], &turns, 0.8, &sys);
    let mic = folder.path().join("mic.wav");
    let length_s = truth.last().expect("turns").end_ms as f32 / 1000.0;
    speech::speak_padded("I will send the budget report by Friday.", &mic, 1.0, length_s - 3.0);
    let mut options = crate::recording::recording_options(&mic, &sys, 2.0);
    options.env.extend(speaker_env());
    let service = TestService::start(BIN, options);
    let mut stream = crate::events::open(&service, None).await;
    let started = crate::recording::person(&service, "/ui/recording/start", None).await;
    assert_eq!(started.status, 201, "{}", started.text);
    let id = started.body["id"].as_str().expect("id").to_owned();

    let sys_lines = std::cell::Cell::new(0);
    let live = crate::recording::events_until(
        &mut stream,
        |kind, data| {
            if kind == "segment.new" && data["channel"] == "sys" {
                assert_eq!(data["speaker"], "Them", "live lines are the other side's: {data}");
                sys_lines.set(sys_lines.get() + 1);
            }
            sys_lines.get() >= order.len()
        },
        std::time::Duration::from_secs(90),
    )
    .await;
    assert!(!live.is_empty());
    let stopped = crate::recording::person(&service, "/ui/recording/stop", None).await;
    assert_eq!(stopped.status, 200, "{}", stopped.text);
    let rest = crate::recording::events_until(
        &mut stream,
        |kind, _| kind == "meeting.ready",
        std::time::Duration::from_secs(120),
    )
    .await;
    let at = |wanted: &dyn Fn(&str, &Value) -> bool| {
        rest.iter().position(|(k, d)| wanted(k, d)).unwrap_or_else(|| panic!("{rest:#?}"))
    };
    let summarising = at(&|k, d| k == "meeting.updated" && d["status"] == "summarising");
    let told_apart = at(&|k, d| k == "meeting.updated" && d["status"].is_null());
    let ready = at(&|k, d| k == "meeting.updated" && d["status"] == "ready");
    assert!(summarising < told_apart && told_apart < ready, "{rest:#?}");

    let all = segments(&service, &id).await;
    let theirs: Vec<Value> = all.iter().filter(|s| s["channel"] == "sys").cloned().collect();
    let labels = speaker_per_turn(&theirs, &truth);
    let by_person = one_label_per_person(&labels, &truth);
    assert_eq!((by_person[&0].as_str(), by_person[&1].as_str()), ("Speaker 1", "Speaker 2"));
    assert!(all.iter().filter(|s| s["channel"] == "mic").all(|s| s["speaker"] == "Ada"), "{all:?}");
}

#[tokio::test]
async fn a_meeting_transcribed_again_keeps_the_names_given_to_its_speakers() {
    let service = start(true);
    let models = service.data_dir().join("models");
    std::fs::create_dir_all(&models).expect("models");
    std::fs::copy(
        speech::test_models_dir().join("ggml-tiny.en.bin"),
        models.join("ggml-tiny.en.bin"),
    )
    .expect("a second model");
    let (id, truth) = import_call(&service, "again.wav", &[0, 1], &[0, 1, 0, 1]).await;
    let renamed = rename(&service, &id, &json!({"Speaker 1": "Dana", "Speaker 2": "Eli"})).await;
    assert_eq!(renamed.status, 200, "{}", renamed.text);
    let before = speaker_per_turn(&segments(&service, &id).await, &truth);

    let url = format!("/ui/meetings/{id}/transcribe");
    let started =
        person_call(&service, Method::POST, &url, Some(&json!({"model": "tiny.en"}))).await;
    assert_eq!(started.status, 202, "{}", started.text);
    wait_ready(&service, &id).await;
    let after = speaker_per_turn(&segments(&service, &id).await, &truth);
    assert_eq!(before, ["Dana", "Eli", "Dana", "Eli"], "named before");
    assert_eq!(after, before, "the new lines keep the names, by time");
    let listed = speakers(&service, &id).await;
    assert_eq!(listed["speakers"][0]["label"], "Dana", "{listed}");
}

/// The service's log files.
fn logs(service: &TestService) -> String {
    let folder = service.data_dir().join("logs");
    let files = std::fs::read_dir(folder).into_iter().flatten().flatten();
    files.filter_map(|file| std::fs::read_to_string(file.path()).ok()).collect()
}

/// What a recording showed before it stopped: its lines, and the speakers
/// its live lines were given (`segment.speakers`).
struct Live {
    segments: Vec<Value>,
    relabelled: Vec<Value>,
}

/// Records a meeting until its microphone's lines reach `until_ms`, gives
/// its live lines up to `look_for_s` to show `settled`, and waits until it is ready;
/// returns its id and what it showed live.
async fn record_room(
    service: &TestService,
    until_ms: i64,
    settled: impl Fn(&[Value]) -> bool,
    look_for_s: u64,
) -> (String, Live) {
    let mut stream = crate::events::open(service, None).await;
    let started = crate::recording::person(service, "/ui/recording/start", None).await;
    assert_eq!(started.status, 201, "{}", started.text);
    let id = started.body["id"].as_str().expect("id").to_owned();
    let seen = crate::recording::events_until(
        &mut stream,
        |kind, data| {
            kind == "segment.new"
                && data["channel"] == "mic"
                && data["end_ms"].as_i64() >= Some(until_ms)
        },
        std::time::Duration::from_secs(180),
    )
    .await;
    // The live lines are given their speakers within a few seconds.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(look_for_s);
    let mut shown = segments(service, &id).await;
    while !settled(&shown) && std::time::Instant::now() < deadline {
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        shown = segments(service, &id).await;
    }
    let live = Live {
        segments: shown,
        relabelled: seen
            .iter()
            .filter(|(kind, _)| kind == "segment.speakers")
            .flat_map(|(_, data)| data["segments"].as_array().cloned().unwrap_or_default())
            .collect(),
    };
    let stopped = crate::recording::person(service, "/ui/recording/stop", None).await;
    assert_eq!(stopped.status, 200, "{}", stopped.text);
    crate::recording::events_until(
        &mut stream,
        |kind, data| kind == "meeting.updated" && data["status"] == "ready",
        std::time::Duration::from_secs(120),
    )
    .await;
    (id, live)
}

/// A room of real people (Debian's Asterisk prompts, `scripts/real-voices.sh`):
/// the owner, Allison, takes `turns` turns of two recordings each, and between
/// them Carlo (when `with_carlo`) one of two; into `path`.
fn room(path: &std::path::Path, turns: usize, with_carlo: bool) -> Vec<SpokenTurn> {
    let (mut allison, mut carlo) = (speech::real_voice("allison"), speech::real_voice("carlo"));
    let mut script = Vec::new();
    for turn in 0..turns {
        script.push((0, allison.drain(..2).collect()));
        if with_carlo && turn + 1 < turns {
            script.push((1, carlo.drain(..2).collect()));
        }
    }
    speech::real_conversation(&script, 0.7, path)
}

fn room_service(mic: &std::path::Path, folder: &std::path::Path) -> TestService {
    let sys = folder.join("sys.wav");
    speech::speak_padded("Sounds good, talk to you all next week.", &sys, 2.0, 20.0);
    let mut options = crate::recording::recording_options(mic, &sys, 2.0);
    options.env.extend(speaker_env());
    TestService::start(BIN, options)
}

#[tokio::test]
async fn the_people_in_the_room_are_told_apart_from_me_named_and_recognised_next_time() {
    let _cpu = crate::live_cpu().await;
    let folder = tempfile::tempdir().expect("temp");
    // Beside the laptop's owner (who talks most), a colleague, real voices
    // both; the other side is one voice.
    let mic = folder.path().join("mic.wav");
    let truth = room(&mic, 4, true);
    let service = room_service(&mic, folder.path());
    let until_ms = truth.last().expect("turns").end_ms - 1_000;

    // While it was recorded, the colleague's live lines already showed them.
    let mic_of = |all: &[Value]| -> Vec<Value> {
        all.iter().filter(|s| s["channel"] == "mic").cloned().collect()
    };
    let wanted = ["Ada", "In the room 1"];
    let live_split = |all: &[Value]| {
        let labels = speaker_per_turn(&mic_of(all), &truth);
        labels.len() == truth.len() && truth.iter().zip(&labels).all(|(t, l)| wanted[t.person] == l)
    };
    let (first, live) = record_room(&service, until_ms, live_split, 45).await;
    let mic = mic_of(&live.segments);
    let live_labels = speaker_per_turn(&mic, &truth);
    assert_eq!(one_label_per_person(&live_labels, &truth)[&1], "In the room 1", "{mic:?}");
    assert!(
        live.relabelled.iter().any(|l| l["speaker"] == "In the room 1"),
        "{:?}",
        live.relabelled
    );
    // Both channels were heard while recording: the job after it only groups.
    let log = logs(&service);
    assert_eq!(log.matches("speakers: heard live, only grouped now").count(), 2, "{log}");
    let all = segments(&service, &first).await;
    let ours: Vec<Value> = all.iter().filter(|s| s["channel"] == "mic").cloned().collect();
    let labels = speaker_per_turn(&ours, &truth);
    let by_person = one_label_per_person(&labels, &truth);
    assert_eq!((by_person[&0].as_str(), by_person[&1].as_str()), ("Ada", "In the room 1"));
    let theirs = all.iter().filter(|s| s["channel"] == "sys");
    assert!(theirs.clone().all(|s| s["speaker"] == "Them"), "{all:?}");
    let listed = speakers(&service, &first).await;
    let keys: Vec<(String, String)> = listed["speakers"]
        .as_array()
        .expect("speakers")
        .iter()
        .map(|s| {
            (s["key"].as_str().unwrap_or("").into(), s["channel"].as_str().unwrap_or("").into())
        })
        .collect();
    assert_eq!(keys, [("Them".into(), "sys".into()), ("In the room 1".into(), "mic".into())]);

    let named = rename(&service, &first, &json!({"In the room 1": "Gus", "Them": "Hana"})).await;
    assert_eq!(named.status, 200, "{}", named.text);
    let labels = speaker_per_turn(&segments(&service, &first).await, &truth);
    assert_eq!(one_label_per_person(&labels, &truth)[&1], "Gus", "{labels:?}");

    // The next meeting in the same room: Gus and Hana are known by their voices.
    let (second, _) = record_room(&service, until_ms, |_| true, 0).await;
    let all = segments(&service, &second).await;
    let ours: Vec<Value> = all.iter().filter(|s| s["channel"] == "mic").cloned().collect();
    let labels = speaker_per_turn(&ours, &truth);
    let by_person = one_label_per_person(&labels, &truth);
    assert_eq!((by_person[&0].as_str(), by_person[&1].as_str()), ("Ada", "Gus"));
    let theirs = all.iter().filter(|s| s["channel"] == "sys");
    assert!(theirs.clone().all(|s| s["speaker"] == "Hana"), "{all:?}");
}

#[tokio::test]
async fn one_real_voice_on_the_microphone_is_only_me_and_teaches_the_app_my_voice() {
    let _cpu = crate::live_cpu().await;
    let folder = tempfile::tempdir().expect("temp");
    let mic = folder.path().join("mic.wav");
    let truth = room(&mic, 6, false);
    let service = room_service(&mic, folder.path());
    // Never split, not even live (it is looked at for 20 s).
    let room = |s: &Value| s["speaker"].as_str().is_some_and(|l| l.starts_with("In the room"));
    let until_ms = truth.last().expect("turns").end_ms - 1_000;
    let (id, live) = record_room(&service, until_ms, |all| all.iter().any(room), 20).await;
    assert!(!live.segments.iter().any(room), "{:?}", live.segments);
    let all = segments(&service, &id).await;
    let ours: Vec<&Value> = all.iter().filter(|s| s["channel"] == "mic").collect();
    assert!(ours.len() >= 4 && ours.iter().all(|s| s["speaker"] == "Ada"), "{all:?}");
    let listed = speakers(&service, &id).await;
    let room: Vec<&Value> = listed["speakers"]
        .as_array()
        .expect("speakers")
        .iter()
        .filter(|s| s["channel"] == "mic")
        .collect();
    assert!(room.is_empty(), "{listed}");
    let voices = person_call(&service, Method::GET, "/ui/voices", None).await;
    assert_eq!(voices.body["owner"]["meetings"], 1, "{}", voices.text);
    let forgotten = person_call(&service, Method::DELETE, "/ui/owner-voice", None).await;
    assert_eq!(forgotten.status, 204, "{}", forgotten.text);
    let gone = person_call(&service, Method::GET, "/ui/voices", None).await;
    assert_eq!(gone.body["owner"], Value::Null, "{}", gone.text);
    let again = person_call(&service, Method::DELETE, "/ui/owner-voice", None).await;
    assert_eq!(again.status, 404, "{}", again.text);
}
