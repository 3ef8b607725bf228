//! The desktop app end to end under Xvfb with a D-Bus session: the window,
//! the tray (read over D-Bus as a panel reads it), prompt notifications (a
//! test notification daemon), `recorder://pair` through xdg-open, single
//! instance, and Quit during a recording. The window is checked through the
//! app's log of the pages it shows and through screenshots (WebKitWebDriver
//! is not used; see ARCHITECTURE.md). Linux only.
#![cfg(target_os = "linux")]

mod app;
mod session;
mod tray;

use std::time::Duration;

use reqwest::Method;
use serde_json::json;
use tokio::sync::Mutex;

use app::App;
use recorder_test_support::impostor::Impostor;
use session::Session;
use tray::{look, Tray};

/// One app at a time: each runs a web view and a service on 2 cores.
static ONE_AT_A_TIME: Mutex<()> = Mutex::const_new(());

const MINUTE: Duration = Duration::from_secs(60);

#[tokio::test(flavor = "multi_thread")]
async fn the_window_shows_the_library_and_the_tray_drives_a_recording() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let session = Session::start().await;
    let data = session.home().join("data");
    let jfk = recorder_test_support::speech::jfk_wav();
    let jfk = jfk.to_string_lossy();
    guide_seen(&data);
    let app = App::start(&session, &data, &["--port", "0", "--mic-file", &jfk, "--sys-file", &jfk]);
    app.wait_log("page shown path=\"/\"", MINUTE);
    tokio::time::sleep(Duration::from_millis(800)).await;
    session.screenshot("window-library");

    let tray = Tray::find(&session).await;
    assert_eq!(
        tray.labels().await,
        [
            "Open",
            "Start recording",
            "Pause recording (disabled)",
            "Mute microphone (disabled)",
            "Add marker (disabled)",
            "Quit"
        ]
    );
    assert!(tray.icon().await == look("idle"), "the idle icon shows");

    tray.click("Start recording").await;
    app.until("the recording", async |app| {
        app.get("/ui/health").await["recording"]["active"] == true
    })
    .await;
    wait_labels(
        &tray,
        &["Open", "Stop recording", "Pause recording", "Mute microphone", "Add marker", "Quit"],
    )
    .await;
    assert!(tray.icon().await == look("recording"), "the recording icon shows");

    tray.click("Pause recording").await;
    wait_labels(
        &tray,
        &["Open", "Stop recording", "Resume recording", "Mute microphone", "Add marker", "Quit"],
    )
    .await;
    assert!(tray.icon().await == look("paused"), "the paused icon shows");
    assert_eq!(app.get("/ui/health").await["recording"]["paused"], true);
    tray.click("Resume recording").await;
    wait_labels(
        &tray,
        &["Open", "Stop recording", "Pause recording", "Mute microphone", "Add marker", "Quit"],
    )
    .await;

    tray.click("Mute microphone").await;
    let muted =
        ["Open", "Stop recording", "Pause recording", "Unmute microphone", "Add marker", "Quit"];
    wait_labels(&tray, &muted).await;
    assert_eq!(app.get("/ui/health").await["recording"]["muted"], true);
    tray.click("Unmute microphone").await;
    wait_labels(
        &tray,
        &["Open", "Stop recording", "Pause recording", "Mute microphone", "Add marker", "Quit"],
    )
    .await;

    tray.click("Add marker").await;
    let meeting =
        app.get("/ui/health").await["recording"]["meeting_id"].as_str().expect("id").to_string();
    app.until("the marker", async |app| {
        let meeting = app.get(&format!("/ui/meetings/{meeting}")).await;
        let labels: Vec<String> = meeting["markers"]
            .as_array()
            .map(|m| m.iter().map(|m| m["label"].as_str().unwrap_or("").to_string()).collect())
            .unwrap_or_default();
        labels == ["Microphone muted", "Microphone on", "Marker"]
    })
    .await;

    tray.click("Stop recording").await;
    app.until("the stop", async |app| app.get("/ui/health").await["recording"]["active"] == false)
        .await;
    wait_labels(
        &tray,
        &[
            "Open",
            "Start recording",
            "Pause recording (disabled)",
            "Mute microphone (disabled)",
            "Add marker (disabled)",
            "Quit",
        ],
    )
    .await;
    assert!(tray.icon().await == look("idle"), "the idle icon is back");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_prompt_becomes_a_notification_whose_record_button_records() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let session = Session::start().await;
    let data = session.home().join("data");
    let jfk = recorder_test_support::speech::jfk_wav();
    let jfk = jfk.to_string_lossy();
    let app = App::start(&session, &data, &["--port", "0", "--hidden", "--mic-file", &jfk]);
    let tray = Tray::find(&session).await;

    // Do-not-disturb: no notification; the prompt waits for the window's card.
    session.do_not_disturb(true).await;
    let quiet = prompt(&app, "Standup").await;
    app.wait_log("do not disturb", MINUTE);
    assert!(session.notifications.lock().expect("log").shown.is_empty());
    let (status, _) = app
        .call(
            Method::POST,
            &format!("/ui/prompts/{quiet}/answer"),
            Some(json!({"answer": "decline"})),
        )
        .await;
    assert_eq!(status, 200);
    session.do_not_disturb(false).await;

    // The page's title is the call's to choose: this server renders markup
    // (`body-markup`), so it arrives escaped and shows as written.
    let prompt_id = prompt(&app, "Weekly <a href=\"https://x.test\">sync</a> & plan").await;
    let shown = wait_notification(&session).await;
    assert_eq!(shown.summary, "Record this meeting?");
    assert_eq!(
        shown.body,
        "Weekly &lt;a href=&quot;https://x.test&quot;&gt;sync&lt;/a&gt; &amp; plan (Google Meet)\nWith Ada, Grace"
    );
    assert_eq!(
        shown.actions,
        ["default", "Open Recorder", "record", "Record", "decline", "Not now"]
    );
    assert!(shown.timeout > 0, "the notification goes when the prompt expires");

    session.press(shown.id, "record").await;
    app.until("the recording", async |app| {
        app.get("/ui/health").await["recording"]["active"] == true
    })
    .await;
    app.wait_log(&format!("prompt_id=\"{prompt_id}\" answer=\"record\""), MINUTE);
    let deadline = std::time::Instant::now() + MINUTE;
    while !session.notifications.lock().expect("log").closed.contains(&shown.id) {
        assert!(std::time::Instant::now() < deadline, "the answered prompt's notification stays");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // The call ends: a notification counts down, and its Keep recording keeps it.
    let body = json!({"source_app": "google_meet", "url": "https://meet.google.com/abc-defg-hij"});
    let (status, ended) = app.call(Method::POST, "/v1/recording/ended", Some(body)).await;
    assert_eq!((status, &ended["stopping"]), (200, &json!(true)), "{ended}");
    let countdown =
        wait_notification_where(&session, |n| n.summary.starts_with("The call ended")).await;
    assert!(countdown.summary.ends_with(" s"), "{}", countdown.summary);
    assert_eq!(countdown.body, "Google Meet left the call. Keep recording to go on.");
    assert_eq!(countdown.actions, ["default", "Open Recorder", "keep", "Keep recording"]);
    session.press(countdown.id, "keep").await;
    app.wait_log("desktop: the recording goes on (kept)", MINUTE);
    let health = app.get("/ui/health").await;
    assert_eq!(health["recording"]["active"], true);
    assert!(health["recording"]["ending"].is_null(), "{health}");

    // Hidden means no window (and no web view) until the tray's Open.
    assert!(!app.log().contains("page shown"), "--hidden starts without a window");
    tray.click("Open").await;
    app.wait_log("page shown path=\"/\"", MINUTE);
}

#[tokio::test(flavor = "multi_thread")]
async fn xdg_open_recorder_pair_reaches_the_running_app_without_a_second_service() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let session = Session::start().await;
    let data = session.home().join("data");
    guide_seen(&data);
    let app = App::start(&session, &data, &["--port", "0"]);
    app.wait_log("page shown path=\"/\"", MINUTE);
    register_link_handler(&session, &data);

    let status = std::process::Command::new("xdg-open")
        .arg("recorder://pair")
        .envs(session.env())
        .status()
        .expect("xdg-open");
    assert!(status.success(), "xdg-open recorder://pair");
    app.wait_log("launched again link=\"recorder://pair\"", MINUTE);
    app.wait_log("page shown path=\"/settings/extension\"", MINUTE);
    // The page showed a fresh code: a wrong code is now "wrong", not "none waiting".
    app.until("a pairing code", async |app| {
        let (status, body) =
            app.call(Method::POST, "/v1/pair", Some(json!({"code": "000000"}))).await;
        status == 401
            && !body["error"]["message"].as_str().unwrap_or("").contains("no pairing code")
    })
    .await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    session.screenshot("window-pairing-code");
    assert_eq!(app.log().matches("service started in-process").count(), 1);
    assert!(!app.log().contains("service of this data folder attached"));
}

/// SIGTERM (a log-out, `systemctl --user stop`) and SIGINT quit the app as
/// the tray's Quit does, within 2 s, with stdin open or at its end.
#[tokio::test(flavor = "multi_thread")]
async fn sigterm_and_sigint_quit_within_two_seconds_whatever_stdin_is() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let session = Session::start().await;
    for (signal, stdin_open) in [("TERM", true), ("TERM", false), ("INT", true)] {
        let data = session.home().join(format!("data-{signal}-{stdin_open}"));
        let mut app =
            App::start_with_stdin(&session, &data, &["--port", "0", "--hidden"], stdin_open);
        app.get("/ui/health").await;
        let asked = std::time::Instant::now();
        app.signal(signal);
        let status = app.wait_exit(Duration::from_secs(2));
        assert!(status.success(), "SIG{signal}, stdin open {stdin_open}: {status:?}");
        eprintln!(
            "SIG{signal}, stdin open {stdin_open}: quit in {} ms",
            asked.elapsed().as_millis()
        );
        assert!(app.log().contains("service stopped"), "{}", app.log());
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn quit_during_a_recording_stops_it_and_the_meeting_becomes_ready() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let session = Session::start().await;
    let data = session.home().join("data");
    let jfk = recorder_test_support::speech::jfk_wav();
    let jfk = jfk.to_string_lossy();
    let mut app = App::start(
        &session,
        &data,
        &["--port", "0", "--hidden", "--mic-file", &jfk, "--sys-file", &jfk],
    );
    let tray = Tray::find(&session).await;
    tray.click("Start recording").await;
    app.until("the recording", async |app| {
        app.get("/ui/health").await["recording"]["active"] == true
    })
    .await;
    let meeting =
        app.get("/ui/health").await["recording"]["meeting_id"].as_str().expect("id").to_string();
    tokio::time::sleep(Duration::from_secs(4)).await;

    tray.click("Quit").await;
    let status = app.wait_exit(MINUTE);
    assert!(status.success(), "Quit ends the app cleanly: {status:?}");
    let log = app.log();
    assert!(log.contains("desktop: recording stopped to quit"), "{log}");
    assert!(log.contains("service stopped"), "{log}");
    drop(app);

    // The next start transcribes what was recorded.
    let again = App::start(&session, &data, &["--port", "0", "--hidden"]);
    again
        .until("the meeting to be ready", async |app| {
            app.get(&format!("/ui/meetings/{meeting}")).await["status"] == "ready"
        })
        .await;
    let meeting = again.get(&format!("/ui/meetings/{meeting}")).await;
    assert!(meeting["duration_ms"].as_i64().unwrap_or(0) >= 3_000, "{meeting}");
}

#[tokio::test(flavor = "multi_thread")]
async fn with_recorder_serve_running_the_app_attaches_and_quit_leaves_the_service() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let session = Session::start().await;
    let data = session.home().join("data");
    let serve = Serve::start(&session, &data);
    let port = serve.port.to_string();
    let mut app = App::start(&session, &data, &["--port", &port]);
    assert!(app.log().contains("service of this data folder attached"), "{}", app.log());
    app.wait_log("page shown path=\"/\"", MINUTE);
    let tray = Tray::find(&session).await;

    // No model yet: the tray's Start fails, and says why in a notification.
    tray.click("Start recording").await;
    let told = wait_notification(&session).await;
    assert_eq!(told.summary, "Recorder");
    assert!(told.body.contains("no transcription model is installed"), "{}", told.body);
    assert!(told.actions.is_empty());
    let model = recorder_test_support::speech::test_model().to_string_lossy().to_string();
    let add = json!({"path": model, "name": "base.en"});
    assert_eq!(app.call(Method::POST, "/ui/models/add", Some(add)).await.0, 201);

    tray.click("Start recording").await;
    app.until("the recording", async |app| {
        app.get("/ui/health").await["recording"]["active"] == true
    })
    .await;
    tray.click("Stop recording").await;
    app.until("the stop", async |app| app.get("/ui/health").await["recording"]["active"] == false)
        .await;

    tray.click("Quit").await;
    assert!(app.wait_exit(MINUTE).success());
    assert_eq!(
        app.get("/ui/health").await["ok"],
        true,
        "recorder serve goes on after the app quits"
    );

    // Another data folder's service on the port: refused with the reason.
    let other = session.home().join("other");
    let output = app::command(&session, &other, &["--port", &port]).output().expect("run");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("used by a Recorder service of another data folder"), "{stderr}");
}

/// While the service is down another program holds its port: the app asks it to
/// prove it is this data folder's service, sends it no token, and says why it
/// stops (SECURITY.md, "another user of this machine").
#[tokio::test(flavor = "multi_thread")]
async fn another_program_on_the_port_gets_no_token_from_the_app() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let session = Session::start().await;
    let data = session.home().join("data");
    std::fs::create_dir_all(&data).expect("data folder");
    let token = "the-ui-token-of-this-data-folder-0123456789a";
    std::fs::write(data.join("ui_token"), token).expect("ui_token");
    let impostor = Impostor::listen(0);
    let port = impostor.port;
    let output =
        app::command(&session, &data, &["--port", &port.to_string()]).output().expect("run");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    let told = format!("something else is listening on port {port}; it is not this Recorder");
    assert!(stderr.contains(&told), "{stderr}");
    impostor.assert_got_no_token(&[token]);
}

#[tokio::test(flavor = "multi_thread")]
async fn start_at_login_writes_and_removes_the_autostart_entry() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let session = Session::start().await;
    let data = session.home().join("data");
    let app = App::start(&session, &data, &["--port", "0", "--hidden"]);
    let entry = session.home().join(".config/autostart/Recorder.desktop");
    Tray::find(&session).await;
    assert!(!entry.exists(), "off by default");

    let on = json!({"general": {"start_at_login": true}});
    assert_eq!(app.call(Method::PATCH, "/ui/settings", Some(on)).await.0, 200);
    wait_for("the autostart entry", || entry.exists()).await;
    let text = std::fs::read_to_string(&entry).expect("entry");
    let binary = std::fs::canonicalize(app::BINARY).expect("the app's path");
    let exec = format!("Exec={} --hidden", binary.display());
    assert!(text.lines().any(|line| line == exec), "{text}");

    let off = json!({"general": {"start_at_login": false}});
    assert_eq!(app.call(Method::PATCH, "/ui/settings", Some(off)).await.0, 200);
    wait_for("the entry to go", || !entry.exists()).await;
}

/// The person has been through the first-run guide, so a screenshot shows the
/// page behind it.
fn guide_seen(data: &std::path::Path) {
    std::fs::create_dir_all(data).expect("data folder");
    std::fs::write(data.join("settings.json"), r#"{"general": {"show_first_run_guide": false}}"#)
        .expect("settings.json");
}

async fn wait_for(what: &str, check: impl Fn() -> bool) {
    let deadline = std::time::Instant::now() + MINUTE;
    while !check() {
        assert!(std::time::Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// `recorder serve` (built beside this app by `cargo build --workspace`).
struct Serve {
    child: std::process::Child,
    port: u16,
}

impl Serve {
    fn start(session: &Session, data: &std::path::Path) -> Serve {
        let binary = std::path::Path::new(app::BINARY).with_file_name("recorder");
        assert!(
            binary.is_file(),
            "{} is missing: run cargo build --workspace first",
            binary.display()
        );
        let jfk = recorder_test_support::speech::jfk_wav();
        let mut child = std::process::Command::new(binary)
            .args(["serve", "--port", "0", "--data-dir"])
            .arg(data)
            .arg("--mic-file")
            .arg(jfk)
            .envs(session.env())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("recorder serve");
        let stdout = child.stdout.take().expect("stdout");
        let mut line = String::new();
        std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line).expect("line");
        let port = line.trim().rsplit(':').next().and_then(|p| p.parse().ok());
        Serve { child, port: port.unwrap_or_else(|| panic!("no port in {line:?}")) }
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Posts a prompt as the browser extension would; its id.
async fn prompt(app: &App, title: &str) -> String {
    let body = json!({"source_app": "google_meet", "title": title, "url": "https://meet.google.com/abc-defg-hij",
        "attendees": [{"name": "Ada"}, {"name": "Grace"}]});
    let (status, reply) = app.call(Method::POST, "/v1/recording/prompt", Some(body)).await;
    assert_eq!(status, 200, "{reply}");
    reply["prompt_id"].as_str().expect("prompt_id").to_string()
}

async fn wait_notification_where(
    session: &Session,
    wanted: impl Fn(&session::Notified) -> bool,
) -> session::Notified {
    let deadline = std::time::Instant::now() + MINUTE;
    loop {
        let found =
            session.notifications.lock().expect("log").shown.iter().find(|n| wanted(n)).cloned();
        if let Some(shown) = found {
            return shown;
        }
        assert!(std::time::Instant::now() < deadline, "no such notification");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn wait_notification(session: &Session) -> session::Notified {
    let deadline = std::time::Instant::now() + MINUTE;
    loop {
        if let Some(shown) = session.notifications.lock().expect("log").shown.first().cloned() {
            return shown;
        }
        assert!(std::time::Instant::now() < deadline, "no notification");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn wait_labels(tray: &Tray, expected: &[&str]) {
    let deadline = std::time::Instant::now() + MINUTE;
    loop {
        let labels = tray.labels().await;
        if labels == expected {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the menu shows {labels:?}, not {expected:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Installs the app's desktop entry (linux/recorder-desktop.desktop, as the
/// package ships it) in the session's XDG folders, as the `recorder://` handler.
fn register_link_handler(session: &Session, data: &std::path::Path) {
    let entry = include_str!("../../linux/recorder-desktop.desktop");
    let exec = format!("Exec={} --data-dir {} --port 0 %u", app::BINARY, data.display());
    let entry = entry.replace("Exec=recorder-desktop %u", &exec);
    let applications = session.home().join(".local/share/applications");
    std::fs::create_dir_all(&applications).expect("applications");
    std::fs::write(applications.join("recorder-desktop.desktop"), entry).expect("entry");
    let status = std::process::Command::new("xdg-mime")
        .args(["default", "recorder-desktop.desktop", "x-scheme-handler/recorder"])
        .envs(session.env())
        .status()
        .expect("xdg-mime");
    assert!(status.success(), "xdg-mime default");
}
