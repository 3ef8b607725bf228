//! Transcription models: the catalogue, installing from a (local, fake) mirror
//! with checksum verification, resumption and the Privacy Ledger, local files
//! added with `recorder models add`, `use` and `remove`.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::Output;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use recorder_test_support::{http, Options, TestService};
use reqwest::Method;
use serde_json::{json, Value};

use crate::{call, get, BIN};

const FILE: &str = "ggml-tiny.en-q8_0.bin";

/// A fake model: the ggml magic, then bytes that match no published checksum.
fn fake_model() -> Vec<u8> {
    let mut body = b"lmgg".to_vec();
    body.extend((0..300_000u32).map(|i| (i % 253) as u8));
    body
}

/// A small HTTP server on its own thread (so blocking CLI runs cannot starve
/// it) serving one body for every path, honouring `Range`, and logging requests.
struct Mirror {
    port: u16,
    seen: Arc<Mutex<Vec<(String, String)>>>,
    /// While false, answers stop after half the body.
    released: Arc<(Mutex<bool>, Condvar)>,
}

impl Mirror {
    fn start(body: Vec<u8>, stall: bool) -> Mirror {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("address").port();
        let seen: Arc<Mutex<Vec<(String, String)>>> = Arc::default();
        let released = Arc::new((Mutex::new(!stall), Condvar::new()));
        let (log, gate) = (seen.clone(), released.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (body, log, gate) = (body.clone(), log.clone(), gate.clone());
                std::thread::spawn(move || answer(stream, &body, &log, &gate));
            }
        });
        Mirror { port, seen, released }
    }

    /// The base URL, with credentials that must never reach the ledger.
    fn base(&self) -> String {
        format!("http://mirror-user:mirror-secret@127.0.0.1:{}/mirror", self.port)
    }

    fn release(&self) {
        let (flag, signal) = &*self.released;
        *flag.lock().expect("lock") = true;
        signal.notify_all();
    }

    fn requests(&self) -> Vec<(String, String)> {
        self.seen.lock().expect("lock").clone()
    }
}

fn answer(
    mut stream: TcpStream,
    body: &[u8],
    log: &Mutex<Vec<(String, String)>>,
    gate: &(Mutex<bool>, Condvar),
) {
    let mut reader = BufReader::new(stream.try_clone().expect("clone"));
    let mut path = String::new();
    let mut range = String::new();
    let mut line = String::new();
    while reader.read_line(&mut line).unwrap_or(0) > 0 && line != "\r\n" {
        if let Some(rest) = line.strip_prefix("GET ") {
            path = rest.split(' ').next().unwrap_or_default().to_string();
        }
        if let Some(value) = line.to_ascii_lowercase().strip_prefix("range: ") {
            range = value.trim().to_string();
        }
        line.clear();
    }
    log.lock().expect("lock").push((path, range.clone()));
    let start: usize = range
        .strip_prefix("bytes=")
        .and_then(|r| r.trim_end_matches('-').parse().ok())
        .unwrap_or(0);
    let head = if start > 0 {
        format!(
            "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes {start}-{}/{}\r\n",
            body.len() - 1,
            body.len()
        )
    } else {
        "HTTP/1.1 200 OK\r\n".to_string()
    };
    let part = &body[start..];
    let head = format!("{head}Content-Length: {}\r\nConnection: close\r\n\r\n", part.len());
    let _ = stream.write_all(head.as_bytes());
    let half = part.len() / 2;
    let _ = stream.write_all(&part[..half]);
    let _ = stream.flush();
    let (flag, signal) = gate;
    let released = flag.lock().expect("lock");
    let _released = signal
        .wait_timeout_while(released, Duration::from_secs(30), |released| !*released)
        .expect("wait");
    let _ = stream.write_all(&part[half..]);
}

fn start_with_mirror(mirror: &Mirror, prepare: impl FnOnce(&Path)) -> TestService {
    let options = Options {
        env: vec![("RECORDER_MODEL_BASE_URL".into(), mirror.base())],
        ..Options::default()
    };
    TestService::start_with(BIN, options, prepare)
}

async fn ui(
    service: &TestService,
    method: Method,
    path: &str,
    body: Option<&Value>,
) -> crate::Answer {
    call(method, &service.url(path), Some(&service.ui_token), body).await
}

async fn models(service: &TestService) -> Value {
    let answer = ui(service, Method::GET, "/ui/models", None).await;
    assert_eq!(answer.status, 200, "{}", answer.text);
    answer.body
}

fn entry<'a>(list: &'a Value, file_name: &str) -> &'a Value {
    list["models"]
        .as_array()
        .and_then(|models| models.iter().find(|m| m["file_name"] == file_name))
        .unwrap_or_else(|| panic!("{file_name} listed in {list}"))
}

/// Waits until `file_name` is no longer downloading; returns its entry.
async fn settled(service: &TestService, file_name: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let list = models(service).await;
        let model = entry(&list, file_name).clone();
        if model["downloading"].is_null() {
            return model;
        }
        assert!(Instant::now() < deadline, "the download of {file_name} never ended: {model}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Every event still held, replayed from the start: (type, data).
async fn replayed_events(service: &TestService, until: &str) -> Vec<(String, Value)> {
    let response = http()
        .get(service.url("/v1/events"))
        .bearer_auth(&service.api_token)
        .header("last-event-id", "0")
        .send()
        .await
        .expect("events");
    let mut stream = response.bytes_stream();
    let mut text = String::new();
    let marker = format!("event: {until}\n");
    let read = async {
        while let Some(Ok(chunk)) = stream.next().await {
            text.push_str(&String::from_utf8_lossy(&chunk));
            if text.contains(&marker) && text.ends_with("\n\n") {
                break;
            }
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(10), read).await;
    text.split("\n\n")
        .filter_map(|block| {
            let event = block.lines().find_map(|l| l.strip_prefix("event: "))?;
            let data = block.lines().find_map(|l| l.strip_prefix("data: "))?;
            let envelope: Value = serde_json::from_str(data).ok()?;
            Some((event.to_string(), envelope["data"].clone()))
        })
        .collect()
}

async fn ledger(service: &TestService) -> Vec<Value> {
    let answer = get(service, "/v1/ledger").await;
    assert_eq!(answer.status, 200);
    answer.body["entries"].as_array().cloned().unwrap_or_default()
}

fn run(service: &TestService, args: &[&str]) -> Output {
    service.cli().args(args).output().expect("run recorder")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).to_string()
}

#[tokio::test]
async fn the_catalogue_is_listed_and_nothing_is_active_in_a_new_data_folder() {
    let service = TestService::start(BIN, Options::default());
    let list = models(&service).await;
    let models = list["models"].as_array().expect("models");
    assert_eq!(models.len(), 33, "{list}");
    let base_en = entry(&list, "ggml-base.en-q8_0.bin");
    assert_eq!(base_en["name"], "base.en");
    assert_eq!(base_en["quantization"], "q8_0");
    assert_eq!(base_en["size_bytes"], 81_781_811);
    assert_eq!(
        (base_en["installed"].as_bool(), base_en["english_only"].as_bool()),
        (Some(false), Some(true))
    );
    assert_eq!(entry(&list, "ggml-large-v3-turbo.bin")["quantization"], "f16");
    assert!(list["active"].is_null());
    assert_eq!(list["model_path_env"], false);
    // The person's channel only: api_token is refused.
    get(&service, "/ui/models").await.expect_error(401, "unauthorized");

    let listed = run(&service, &["models", "list"]);
    assert!(listed.status.success(), "{}", text(&listed.stderr));
    let out = text(&listed.stdout);
    assert!(
        out.contains("large-v3-turbo") && out.contains("q5_1") && out.contains("78 MiB"),
        "{out}"
    );
    assert!(out.contains("No transcription model is installed"), "{out}");

    let unknown =
        ui(&service, Method::POST, "/ui/models/install", Some(&json!({"name": "huge"}))).await;
    unknown.expect_error(400, "invalid_request");
    let unpublished = json!({"name": "large-v3", "quantization": "q8_0"});
    ui(&service, Method::POST, "/ui/models/install", Some(&unpublished))
        .await
        .expect_error(400, "invalid_request");
    ui(&service, Method::DELETE, "/ui/models/base.en", None).await.expect_error(404, "not_found");
    assert!(ledger(&service).await.is_empty(), "listing never goes out");
}

#[tokio::test]
async fn a_download_that_fails_its_checksum_is_discarded_and_in_the_ledger() {
    let mirror = Mirror::start(fake_model(), false);
    let service = start_with_mirror(&mirror, |_| {});
    let started =
        ui(&service, Method::POST, "/ui/models/install", Some(&json!({"name": "tiny.en"}))).await;
    assert_eq!(started.status, 202, "{}", started.text);
    assert_eq!(
        started.body,
        json!({"model": "tiny.en-q8_0", "file_name": FILE, "status": "downloading"})
    );

    let model = settled(&service, FILE).await;
    assert_eq!(model["installed"], false);
    let error = model["error"].as_str().expect("error kept");
    assert!(error.contains("SHA-256") && error.contains("discarded"), "{error}");
    let folder = service.data_dir().join("models");
    assert!(!folder.join(FILE).exists() && !folder.join(format!("{FILE}.part")).exists());
    assert_eq!(mirror.requests(), [(format!("/mirror/{FILE}"), String::new())]);

    let entries = ledger(&service).await;
    assert_eq!(entries.len(), 1, "{entries:?}");
    let entry = &entries[0];
    assert_eq!(entry["url"], format!("http://127.0.0.1:{}/mirror/{FILE}", mirror.port));
    assert_eq!(
        (&entry["purpose"], &entry["outcome"], &entry["status"], &entry["method"]),
        (&json!("model download"), &json!("ok"), &json!(200), &json!("GET"))
    );
    assert_eq!(entry["bytes_received"], fake_model().len());
    assert!(!entry.to_string().contains("mirror-secret"), "{entry}");

    let events = replayed_events(&service, "error").await;
    assert!(events
        .iter()
        .any(|(kind, data)| kind == "models.download" && data["model"] == "tiny.en-q8_0"));
    let (_, failure) = events.iter().find(|(kind, _)| kind == "error").expect("an error event");
    assert!(failure["message"].as_str().is_some_and(|m| m.contains("SHA-256")), "{failure}");
    assert_eq!(failure["model"], "tiny.en-q8_0");
}

#[tokio::test]
async fn an_interrupted_download_resumes_with_a_range_request() {
    let mirror = Mirror::start(fake_model(), false);
    let service = start_with_mirror(&mirror, |data| {
        let models = data.join("models");
        std::fs::create_dir_all(&models).expect("models");
        std::fs::write(models.join(format!("{FILE}.part")), &fake_model()[..1000]).expect("part");
    });
    let started =
        ui(&service, Method::POST, "/ui/models/install", Some(&json!({"name": "tiny.en-q8_0"})))
            .await;
    assert_eq!(started.status, 202, "{}", started.text);
    settled(&service, FILE).await;
    assert_eq!(mirror.requests(), [(format!("/mirror/{FILE}"), "bytes=1000-".to_string())]);
    let entries = ledger(&service).await;
    assert_eq!(entries[0]["status"], 206);
    assert_eq!(
        entries[0]["bytes_received"],
        fake_model().len() - 1000,
        "only the rest was fetched"
    );
}

#[tokio::test]
async fn one_download_per_file_at_a_time() {
    let mirror = Mirror::start(fake_model(), true);
    let service = start_with_mirror(&mirror, |_| {});
    let body = json!({"name": "tiny.en", "quantization": "q8_0"});
    let first = ui(&service, Method::POST, "/ui/models/install", Some(&body)).await;
    assert_eq!(first.status, 202, "{}", first.text);
    ui(&service, Method::POST, "/ui/models/install", Some(&body))
        .await
        .expect_error(409, "download_in_progress");
    ui(&service, Method::DELETE, "/ui/models/tiny.en", None)
        .await
        .expect_error(409, "download_in_progress");
    // Another file may download meanwhile.
    let other =
        ui(&service, Method::POST, "/ui/models/install", Some(&json!({"name": "tiny"}))).await;
    assert_eq!(other.status, 202, "{}", other.text);

    let deadline = Instant::now() + Duration::from_secs(10);
    let total = fake_model().len() as u64;
    loop {
        let list = models(&service).await;
        let progress = entry(&list, FILE)["downloading"].clone();
        if progress["received"].as_u64().is_some_and(|received| received > 0) {
            assert_eq!(progress["total"], total, "{progress}");
            break;
        }
        assert!(Instant::now() < deadline, "no progress: {list}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    mirror.release();
    assert!(settled(&service, FILE).await["error"].is_string());
    let again = ui(&service, Method::POST, "/ui/models/install", Some(&body)).await;
    assert_eq!(again.status, 202, "a failed download may be retried: {}", again.text);
}

#[tokio::test]
async fn the_cli_install_follows_the_download_and_reports_the_failed_check() {
    let mirror = Mirror::start(fake_model(), false);
    let service = start_with_mirror(&mirror, |_| {});
    let output = run(&service, &["models", "install", "tiny.en", "--f16"]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stdout));
    let stderr = text(&output.stderr);
    assert!(stderr.contains("ggml-tiny.en.bin") && stderr.contains("SHA-256"), "{stderr}");
    assert_eq!(mirror.requests(), [("/mirror/ggml-tiny.en.bin".to_string(), String::new())]);
}

#[tokio::test]
async fn local_models_are_added_used_listed_and_removed() {
    let service = TestService::start(BIN, Options::default());
    let files = service.folder.path();
    std::fs::write(files.join("recording.wav"), b"RIFF\x24\x00\x00\x00WAVEfmt ").expect("wav");
    let refused =
        run(&service, &["models", "add", &files.join("recording.wav").display().to_string()]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        text(&refused.stderr).contains("not a whisper.cpp ggml model"),
        "{}",
        text(&refused.stderr)
    );

    // A file that starts like a model and is not one (the whole file is checked).
    let model = files.join("ggml-tiny-test.bin");
    std::fs::write(&model, fake_model()).expect("model");
    let damaged = run(&service, &["models", "add", &model.display().to_string()]);
    assert_eq!(damaged.status.code(), Some(1), "{}", text(&damaged.stderr));
    assert!(text(&damaged.stderr).contains("is damaged"), "{}", text(&damaged.stderr));
    let real = std::fs::read(recorder_test_support::speech::test_model()).expect("test model");
    std::fs::write(&model, &real[..real.len() - 1000]).expect("cut");
    let cut = run(&service, &["models", "add", &model.display().to_string()]);
    assert!(text(&cut.stderr).contains("is truncated"), "{}", text(&cut.stderr));
    std::fs::write(&model, &real).expect("model");
    let bad_name =
        run(&service, &["models", "add", &model.display().to_string(), "--name", "../x"]);
    assert_eq!(bad_name.status.code(), Some(2), "{}", text(&bad_name.stderr));
    let added = run(&service, &["models", "add", &model.display().to_string()]);
    assert!(added.status.success(), "{}", text(&added.stderr));
    let installed = service.data_dir().join("models").join("ggml-tiny-test.bin");
    assert_eq!(std::fs::read(&installed).expect("copied"), real);
    let again = run(&service, &["models", "add", &model.display().to_string()]);
    assert_eq!(again.status.code(), Some(1), "no silent replacement");

    let list: Value =
        serde_json::from_slice(&run(&service, &["models", "list", "--json"]).stdout).expect("json");
    let custom = entry(&list, "ggml-tiny-test.bin");
    assert_eq!(
        (&custom["name"], &custom["custom"], &custom["installed"]),
        (&json!("tiny-test"), &json!(true), &json!(true))
    );
    assert_eq!(custom["active"], false, "settings still name base.en");

    let used = run(&service, &["models", "use", "tiny-test"]);
    assert!(used.status.success(), "{}", text(&used.stderr));
    assert_eq!(get(&service, "/v1/settings").await.body["transcription"]["model"], "tiny-test");
    let list = models(&service).await;
    assert_eq!(list["active"]["name"], "tiny-test");
    assert_eq!(list["active"]["path"], installed.display().to_string());
    assert_eq!(entry(&list, "ggml-tiny-test.bin")["active"], true);

    let removed = run(&service, &["models", "remove", "tiny-test"]);
    assert!(removed.status.success(), "{}", text(&removed.stderr));
    assert!(text(&removed.stdout).contains("ggml-tiny-test.bin"));
    assert!(!installed.exists());
    assert!(models(&service).await["active"].is_null());
    let gone = run(&service, &["models", "remove", "tiny-test"]);
    assert_eq!(gone.status.code(), Some(4), "{}", text(&gone.stderr));

    let empty = files.join("faster-whisper-none");
    std::fs::create_dir_all(&empty).expect("folder");
    let failed = run(&service, &["models", "import-ct2", &empty.display().to_string()]);
    assert_eq!(failed.status.code(), Some(1), "{}", text(&failed.stderr));
    assert!(text(&failed.stderr).contains("conversion failed"), "{}", text(&failed.stderr));
    let output = service.data_dir().join("models").join("ggml-ct2-faster-whisper-none.bin");
    assert!(!output.exists());
}

#[tokio::test]
async fn recorder_model_path_chooses_the_model() {
    let folder = tempfile::tempdir().expect("temp");
    let path = folder.path().join("whatever.bin");
    std::fs::write(&path, fake_model()).expect("model");
    let options = Options {
        env: vec![("RECORDER_MODEL_PATH".into(), path.display().to_string())],
        ..Options::default()
    };
    let service = TestService::start(BIN, options);
    let list = models(&service).await;
    assert_eq!(list["model_path_env"], true);
    assert_eq!(list["active"], json!({"name": "whatever", "path": path.display().to_string()}));
}

#[tokio::test]
async fn vad_weights_are_checked_then_installed_into_the_data_folder() {
    let service = TestService::start(BIN, Options::default());
    let folder = tempfile::tempdir().expect("temp");
    let wrong = folder.path().join("wrong.safetensors");
    std::fs::write(&wrong, b"not weights").expect("write");
    let refused = run(&service, &["models", "add-vad", wrong.to_str().expect("utf-8")]);
    assert!(!refused.status.success());
    assert!(text(&refused.stderr).contains("not Silero VAD 16 kHz"), "{}", text(&refused.stderr));
    let installed = service.data_dir().join("models/silero-vad.safetensors");
    assert!(!installed.exists(), "nothing is copied when the check fails");

    let weights = recorder_test_support::speech::vad_model();
    let added = run(&service, &["models", "add-vad", weights.to_str().expect("utf-8")]);
    assert!(added.status.success(), "{}", text(&added.stderr));
    assert!(text(&added.stdout).contains("added Silero VAD"), "{}", text(&added.stdout));
    assert_eq!(
        std::fs::read(&installed).expect("installed"),
        std::fs::read(&weights).expect("source")
    );
}

#[tokio::test]
async fn speaker_weights_are_checked_then_installed_and_used_from_the_data_folder() {
    let service = TestService::start(BIN, Options::default());
    let before = crate::get(&service, "/ui/voices").await;
    assert_eq!(before.status, 401, "the person's channel only: {}", before.text);
    let voices = || async {
        crate::person_call(&service, reqwest::Method::GET, "/ui/voices", None).await.body
    };
    assert_eq!(voices().await["model_installed"], false);

    let silero = recorder_test_support::speech::vad_model();
    let refused = run(&service, &["models", "add-speakers", silero.to_str().expect("utf-8")]);
    assert!(!refused.status.success());
    let message = text(&refused.stderr);
    assert!(message.contains("scripts/speaker-model.sh makes the right file"), "{message}");
    let installed = service.data_dir().join("models/speaker-campplus.safetensors");
    assert!(!installed.exists(), "nothing is copied when the check fails");

    let weights = recorder_test_support::speech::speaker_model();
    let added = run(&service, &["models", "add-speakers", weights.to_str().expect("utf-8")]);
    assert!(added.status.success(), "{}", text(&added.stderr));
    assert!(
        text(&added.stdout).contains("added the CAM++ speaker model"),
        "{}",
        text(&added.stdout)
    );
    assert_eq!(
        std::fs::read(&installed).expect("installed"),
        std::fs::read(&weights).expect("source")
    );
    assert_eq!(voices().await["model_installed"], true, "picked up without a restart");

    // The same command takes pyannote's segmentation weights, under their own name.
    let segmentation = recorder_test_support::speech::segmentation_model();
    let added = run(&service, &["models", "add-speakers", segmentation.to_str().expect("utf-8")]);
    assert!(added.status.success(), "{}", text(&added.stderr));
    assert!(text(&added.stdout).contains("segmentation-3.0"), "{}", text(&added.stdout));
    assert_eq!(
        std::fs::read(service.data_dir().join("models/speaker-segmentation.safetensors"))
            .expect("installed"),
        std::fs::read(&segmentation).expect("source")
    );
    assert_eq!(
        std::fs::read(&installed).expect("CAM++ kept"),
        std::fs::read(&weights).expect("source")
    );
}

#[tokio::test]
async fn a_notes_model_download_that_fails_its_checksum_is_discarded_and_in_the_ledger() {
    const NOTES_FILE: &str = "Qwen3-1.7B-Q8_0.gguf";
    let mirror = Mirror::start(fake_model(), false);
    let service = start_with_mirror(&mirror, |_| {});
    let list = ui(&service, Method::GET, "/ui/notes-models", None).await;
    assert_eq!(list.status, 200, "{}", list.text);
    let qwen = entry(&list.body, NOTES_FILE);
    assert_eq!((&qwen["name"], &qwen["licence"]), (&json!("qwen3-1.7b"), &json!("Apache-2.0")));
    assert_eq!((&qwen["installed"], &list.body["active"]), (&json!(false), &Value::Null));

    let body = json!({"name": "qwen3-1.7b"});
    let started = ui(&service, Method::POST, "/ui/notes-models/install", Some(&body)).await;
    assert_eq!(started.status, 202, "{}", started.text);
    assert_eq!(started.body["file_name"], NOTES_FILE);
    let deadline = Instant::now() + Duration::from_secs(30);
    let model = loop {
        let list = ui(&service, Method::GET, "/ui/notes-models", None).await.body;
        let model = entry(&list, NOTES_FILE).clone();
        if model["downloading"].is_null() {
            break model;
        }
        assert!(Instant::now() < deadline, "the download never ended: {model}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(model["installed"], false);
    let error = model["error"].as_str().expect("the failure is kept");
    assert!(error.contains("SHA-256") && error.contains("discarded"), "{error}");
    let folder = service.data_dir().join("models").join("notes");
    assert!(!folder.join(NOTES_FILE).exists());
    assert!(!folder.join(format!("{NOTES_FILE}.part")).exists());
    assert_eq!(mirror.requests(), [(format!("/mirror/{NOTES_FILE}"), String::new())]);
    let entries = ledger(&service).await;
    assert_eq!(entries.len(), 1, "{entries:?}");
    assert_eq!(entries[0]["url"], format!("http://127.0.0.1:{}/mirror/{NOTES_FILE}", mirror.port));
    assert_eq!(entries[0]["purpose"], "model download");
    let settings = ui(&service, Method::GET, "/ui/settings", None).await.body;
    assert_eq!(settings["ai"]["provider"], "builtin", "a failed download changes nothing");
    let unknown = json!({"name": "gpt-5"});
    ui(&service, Method::POST, "/ui/notes-models/install", Some(&unknown))
        .await
        .expect_error(400, "invalid_request");
}
