//! Retention: the sweeper at start-up and after a settings change, with
//! MaxRetentionDays capping the person's choices; starred meetings keep their
//! rows. Meeting ages are set in the seeded database, so the clock is the test's.

use std::path::Path;
use std::time::{Duration, Instant};

use recorder_test_support::{seed, Options, SeedMeeting, TestService};
use reqwest::Method;
use serde_json::{json, Value};

use crate::recording::events_until;
use crate::{get, person_call, set_settings, BIN};

const DAY: i64 = 86_400_000;

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|elapsed| elapsed.as_millis() as i64)
        .expect("clock")
}

fn with_audio(data: &Path, id: &str) {
    let folder = data.join("meetings").join(id);
    std::fs::create_dir_all(&folder).expect("folder");
    std::fs::write(folder.join("mic.wav"), b"RIFF").expect("mic");
    std::fs::write(folder.join("sys.wav"), b"RIFF").expect("sys");
}

fn has_audio(service: &TestService, id: &str) -> bool {
    service.data_dir().join("meetings").join(id).join("mic.wav").exists()
}

async fn wait_gone(service: &TestService, id: &str) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while get(service, &format!("/v1/meetings/{id}")).await.status != 404 {
        assert!(Instant::now() < deadline, "meeting {id} was not deleted");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test]
async fn the_sweeper_applies_the_capped_retention_and_spares_starred_meetings() {
    let now = now_ms();
    let options = Options {
        // The person keeps audio 7 days and meetings forever; the cap is 30.
        settings: Some(json!({"retention": {"keep_audio_days": 7}})),
        policy: Some(json!({"MaxRetentionDays": 30})),
        ..Options::default()
    };
    let mut ids = Vec::new();
    let service = TestService::start_with(BIN, options, |data| {
        let mut starred = SeedMeeting::ready("Old starred", now - 40 * DAY, &["Keep me."]);
        starred.starred = true;
        ids = seed(
            data,
            &[
                SeedMeeting::ready("Old", now - 40 * DAY, &["Forty days ago."]),
                starred,
                SeedMeeting::ready("Last week", now - 10 * DAY, &["Ten days ago."]),
                SeedMeeting::ready("Today", now - 3_600_000, &["An hour ago."]),
            ],
        );
        ids.iter().for_each(|id| with_audio(data, id));
    });
    let (old, starred, last_week, today) = (&ids[0], &ids[1], &ids[2], &ids[3]);
    wait_gone(&service, old).await;
    assert!(!service.data_dir().join("meetings").join(old).exists(), "its folder went too");
    let mut replay = crate::events::open(&service, Some("0")).await;
    let events = events_until(
        &mut replay,
        |kind, data| kind == "meeting.deleted" && data["meeting_id"] == *old,
        Duration::from_secs(10),
    )
    .await;
    assert!(events
        .iter()
        .all(|(kind, data)| kind != "meeting.deleted" || data["meeting_id"] == *old));

    assert_eq!(get(&service, &format!("/v1/meetings/{starred}")).await.status, 200);
    assert!(!has_audio(&service, starred), "a starred meeting's audio follows the audio rule");
    assert!(!has_audio(&service, last_week), "older than 7 days");
    assert!(has_audio(&service, today));
    let info =
        person_call(&service, Method::GET, &format!("/ui/meetings/{last_week}/audio"), None).await;
    assert_eq!(info.body["channels"], json!([]), "{}", info.text);
    assert!(info.body["audio_removed_at"].is_i64(), "{}", info.text);

    // A shorter choice than the cap applies at once.
    let effective: Value = get(&service, "/v1/settings").await.body;
    assert_eq!(effective["retention"]["delete_meetings_after_days"]["value"], json!(30));
    assert_eq!(
        set_settings(&service, json!({"retention": {"delete_meetings_after_days": 5}}))
            .await
            .status,
        200
    );
    wait_gone(&service, last_week).await;
    assert_eq!(
        get(&service, &format!("/v1/meetings/{starred}")).await.status,
        200,
        "starred stays"
    );
    assert_eq!(get(&service, &format!("/v1/meetings/{today}")).await.status, 200);
}

#[tokio::test]
async fn no_cap_and_forever_keep_everything() {
    let now = now_ms();
    for policy in [json!({"MaxRetentionDays": 0}), json!({"MaxRetentionDays": -1}), json!({})] {
        let options = Options { policy: Some(policy.clone()), ..Options::default() };
        let mut ids = Vec::new();
        let service = TestService::start_with(BIN, options, |data| {
            ids = seed(data, &[SeedMeeting::ready("Ancient", now - 4000 * DAY, &["Long ago."])]);
            with_audio(data, &ids[0]);
        });
        let effective = get(&service, "/v1/settings").await.body;
        assert_eq!(effective["retention"]["keep_audio_days"], Value::Null, "{policy}");
        // The start-up sweep has had time to run (it runs before the first request
        // is likely answered, but give it a moment on a busy machine).
        tokio::time::sleep(Duration::from_millis(1500)).await;
        assert_eq!(get(&service, &format!("/v1/meetings/{}", ids[0])).await.status, 200);
        assert!(has_audio(&service, &ids[0]), "{policy}");
    }
    // Over the maximum: invalid, so Not Configured.
    let options =
        Options { policy: Some(json!({"MaxRetentionDays": 36501})), ..Options::default() };
    let service = TestService::start(BIN, options);
    let report = get(&service, "/v1/policy").await.body;
    assert!(report["invalid"].to_string().contains("MaxRetentionDays"), "{report}");
    assert_eq!(
        get(&service, "/v1/settings").await.body["retention"]["keep_audio_days"],
        Value::Null
    );
}

/// Audio counts as removed only once its files are gone: a folder that cannot
/// be removed leaves `audio_removed_at` empty, and a later sweep (here, after a
/// settings change) tries again. (The folder is a plain file here, which
/// `remove_dir_all` refuses even for root, as CI runs.)
#[tokio::test]
async fn audio_that_cannot_be_removed_is_not_marked_removed_and_is_tried_again() {
    let now = now_ms();
    let options = Options {
        settings: Some(json!({"retention": {"keep_audio_days": 7}})),
        ..Options::default()
    };
    let mut ids = Vec::new();
    let service = TestService::start_with(BIN, options, |data| {
        ids = seed(data, &[SeedMeeting::ready("Stuck", now - 10 * DAY, &["Ten days ago."])]);
        std::fs::create_dir_all(data.join("meetings")).expect("meetings");
        std::fs::write(data.join("meetings").join(&ids[0]), b"not a folder").expect("blocker");
    });
    let id = &ids[0];
    let audio_path = format!("/ui/meetings/{id}/audio");
    let deadline = Instant::now() + Duration::from_secs(20);
    let log = service.data_dir().join("logs/recorder.log");
    let tried = || {
        std::fs::read_to_string(&log)
            .unwrap_or_default()
            .contains("could not remove the meeting's audio folder")
    };
    while !tried() {
        assert!(Instant::now() < deadline, "the start-up sweep did not try");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let info = person_call(&service, Method::GET, &audio_path, None).await;
    assert_eq!(info.body["audio_removed_at"], Value::Null, "{}", info.text);

    let folder = service.data_dir().join("meetings").join(id);
    std::fs::remove_file(&folder).expect("unblock");
    with_audio(&service.data_dir(), id);
    let changed = set_settings(&service, json!({"retention": {"keep_audio_days": 6}})).await;
    assert_eq!(changed.status, 200);
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let info = person_call(&service, Method::GET, &audio_path, None).await;
        if info.body["audio_removed_at"].is_i64() {
            break;
        }
        assert!(Instant::now() < deadline, "not retried: {}", info.text);
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(!has_audio(&service, id));
}
