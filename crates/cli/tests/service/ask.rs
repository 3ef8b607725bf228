//! Search by meaning and asking, end to end: a real service with the
//! all-MiniLM-L6-v2 model installed by `recorder models add-embeddings`,
//! meetings embedded in the background, a retrieval set whose questions share
//! no content word with the meeting that answers them, `/v1/ask` with the
//! built-in engine and through a stand-in Ollama server, policy refusals, and
//! everything still working by words without the model.

use std::time::{Duration, Instant};

use recorder_test_support::speech::{self, embedding_model};
use recorder_test_support::{seed, Options, SeedMeeting, TestService};
use reqwest::Method;
use serde_json::{json, Value};

use crate::providers::ledger;
use crate::stand_in::{Behaviour, StandIn, ASK_ANSWER};
use crate::{get, post, refreshing, BIN};

const DAY: i64 = 86_400_000;
const START: i64 = 1_780_000_000_000;

/// (title, lines, a question sharing no content word with them).
const SET: [(&str, &[&str], &str); 5] = [
    (
        "Thursday sync",
        &[
            "Good morning everyone, thanks for joining.",
            "We are relocating to the new building downtown in May.",
            "Facilities will pack up the desks the week before.",
        ],
        "moving offices",
    ),
    (
        "Revenue review",
        &[
            "Let us look at the numbers first.",
            "We should raise what we charge for the premium plan next quarter.",
            "Customers accepted the last increase without complaint.",
        ],
        "pricing change for subscriptions",
    ),
    (
        "Team planning",
        &[
            "Sam will be away on vacation in August.",
            "Priya is covering for him while he is out.",
            "Let us write the handover document this week.",
        ],
        "who substitutes during the summer leave",
    ),
    (
        "Hiring",
        &[
            "We interviewed three candidates for the engineering role.",
            "We will make an offer to the second applicant.",
            "She can start at the beginning of next month.",
        ],
        "recruitment of a developer",
    ),
    (
        "Incident review",
        &[
            "The database went down on Saturday night.",
            "Customers could not log in for two hours.",
            "We will add a replica so it does not happen again.",
        ],
        "service outage over the weekend",
    ),
];

fn start(settings: Value, with_model: bool) -> (TestService, Vec<String>) {
    let options = refreshing(Options { settings: Some(settings), ..Options::default() });
    let mut ids = Vec::new();
    let service = TestService::start_with(BIN, options, |data| {
        let meetings: Vec<SeedMeeting> = SET
            .iter()
            .enumerate()
            .map(|(i, (title, lines, _))| SeedMeeting::ready(title, START + i as i64 * DAY, lines))
            .collect();
        ids = seed(data, &meetings);
    });
    if with_model {
        let added = service
            .cli()
            .args(["models", "add-embeddings"])
            .arg(embedding_model())
            .output()
            .expect("recorder models add-embeddings");
        assert!(added.status.success(), "{}", String::from_utf8_lossy(&added.stderr));
        assert!(String::from_utf8_lossy(&added.stdout).contains("all-MiniLM-L6-v2"));
    }
    (service, ids)
}

/// Waits until `/v1/health` shows every ready meeting embedded.
async fn embedded(service: &TestService) -> Value {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let health = get(service, "/v1/health").await.body;
        let meaning = &health["meaning"];
        if meaning["available"] == true && meaning["remaining"] == 0 && meaning["meetings"] != 0 {
            return meaning.clone();
        }
        assert!(Instant::now() < deadline, "not embedded in time: {health}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

async fn search(service: &TestService, q: &str, mode: Option<&str>) -> crate::Answer {
    let mut url = format!("/v1/search?q={}", urlencode(q));
    if let Some(mode) = mode {
        url.push_str(&format!("&mode={mode}"));
    }
    get(service, &url).await
}

fn urlencode(text: &str) -> String {
    text.replace(' ', "%20")
}

#[tokio::test]
async fn questions_in_other_words_find_their_meeting_by_meaning_and_words_are_unchanged() {
    let (service, ids) = start(json!({}), true);
    let meaning = embedded(&service).await;
    assert_eq!(meaning["meetings"], 5);
    let mut right = 0;
    for (i, (_, _, question)) in SET.iter().enumerate() {
        let by_meaning = search(&service, question, Some("meaning")).await;
        assert_eq!(by_meaning.status, 200, "{}", by_meaning.text);
        assert_eq!(by_meaning.headers["x-recorder-search-mode"], "meaning");
        let first = &by_meaning.body["results"][0];
        if first["meeting_id"] == ids[i].as_str() {
            right += 1;
            assert_eq!(first["source"], "transcript");
            assert!(first["start_ms"].is_i64() && first["speaker"].is_string(), "{first}");
        }
        let words = search(&service, question, Some("words")).await;
        let default = search(&service, question, None).await;
        assert_eq!(words.body, default.body, "mode=words is today's search");
        assert_eq!(default.headers["x-recorder-search-mode"], "words");
        let both = search(&service, question, Some("both")).await;
        assert_eq!(both.body["results"][0]["meeting_id"], ids[i].as_str(), "{}", both.text);
    }
    println!("retrieval set: top-1 right for {right} of 5 by meaning");
    assert!(right >= 4, "top-1 right for {right} of 5 by meaning");

    // A word search still marks its words, and `both` keeps the word hit first.
    let both = search(&service, "replica", Some("both")).await;
    assert!(both.body["results"][0]["snippet"]
        .as_str()
        .is_some_and(|s| s.contains("<mark>replica</mark>")));
    let grouped = get(&service, "/v1/search/meetings?q=moving%20offices&mode=meaning").await;
    assert_eq!(grouped.status, 200, "{}", grouped.text);
    assert_eq!(grouped.body["meetings"][0]["meeting_id"], ids[0].as_str());
    assert!(grouped.body["next_cursor"].is_null());
    get(&service, "/v1/search?q=x&mode=vibes").await.expect_error(400, "invalid_request");
    get(&service, "/v1/search/meetings?q=x&mode=both&cursor=abc")
        .await
        .expect_error(400, "invalid_request");

    // A deleted meeting is no longer found by meaning.
    let deleted = crate::delete(&service, &format!("/v1/meetings/{}", ids[0])).await;
    assert_eq!(deleted.status, 204);
    let after = search(&service, "moving offices", Some("meaning")).await;
    let found: Vec<&str> = after.body["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter_map(|r| r["meeting_id"].as_str())
        .collect();
    assert!(!found.contains(&ids[0].as_str()), "{found:?}");
}

#[tokio::test]
async fn the_builtin_engine_answers_with_the_line_and_who_said_it() {
    let (service, ids) = start(json!({}), true);
    embedded(&service).await;
    let asked =
        post(&service, "/v1/ask", &json!({"question": "Who is covering for Sam in August?"})).await;
    assert_eq!(asked.status, 200, "{}", asked.text);
    assert_eq!(asked.body["provider"], "builtin");
    assert!(asked.body.get("closest").is_none(), "{}", asked.text);
    let citations = asked.body["citations"].as_array().expect("citations");
    // The citation is the answering line with the lines said before and after it.
    let citation = &citations[0];
    assert_eq!(
        citation["text"],
        "Sam will be away on vacation in August. Priya is covering for him while he is out. \
         Let us write the handover document this week.",
        "{}",
        asked.text
    );
    assert_eq!(citation["meeting_id"], ids[2].as_str(), "{}", asked.text);
    assert_eq!(citation["title"], "Team planning");
    assert_eq!(
        (citation["start_ms"].as_i64(), citation["end_ms"].as_i64()),
        (Some(0), Some(14_000))
    );
    assert_eq!(citation["speaker"], "Them", "the answering line's speaker");
    assert!(
        asked.body["answer"].as_str().is_some_and(
            |a| a.starts_with("Them said in “Team planning” at 00:05: “Priya is covering")
        ),
        "{}",
        asked.text
    );

    // Every question of the set finds its meeting first, by meaning.
    let mut right = 0;
    for (i, (_, _, question)) in SET.iter().enumerate() {
        let asked = post(&service, "/v1/ask", &json!({"question": question})).await;
        if asked.body["citations"][0]["meeting_id"] == ids[i].as_str()
            && asked.body.get("closest").is_none()
        {
            right += 1;
        }
    }
    assert!(right >= 4, "ask cites the right meeting first for {right} of 5");

    // One meeting, or a date range that leaves the answer out.
    let scoped = json!({"question": "Who is covering for Sam?", "meeting_id": ids[4]});
    let within = post(&service, "/v1/ask", &scoped).await;
    assert_eq!(within.body["closest"], true, "nothing there answers: {}", within.text);
    assert!(within.body["answer"].as_str().is_some_and(|a| a.contains("closest lines")));
    assert!(within.body["citations"]
        .as_array()
        .expect("citations")
        .iter()
        .all(|c| c["meeting_id"] == ids[4].as_str()));
    let range = json!({"question": "Who is covering for Sam?", "from": START + 3 * DAY, "to": START + 5 * DAY});
    let dated = post(&service, "/v1/ask", &range).await;
    assert!(dated.body["citations"]
        .as_array()
        .expect("citations")
        .iter()
        .all(|c| c["meeting_id"] != ids[2].as_str()));

    post(&service, "/v1/ask", &json!({"question": "  "}))
        .await
        .expect_error(400, "invalid_request");
    let long = "why ".repeat(501);
    post(&service, "/v1/ask", &json!({"question": long}))
        .await
        .expect_error(400, "invalid_request");
    post(&service, "/v1/ask", &json!({})).await.expect_error(400, "invalid_request");
    let unknown =
        json!({"question": "what?", "meeting_id": "0194a3e1-0000-7000-8000-000000000000"});
    post(&service, "/v1/ask", &unknown).await.expect_error(404, "not_found");
}

#[tokio::test]
async fn a_local_server_answers_from_the_passages_it_is_given() {
    let server = StandIn::start(Behaviour { malformed_items: false }).await;
    let settings =
        json!({"ai": {"provider": "local", "local_url": server.base, "model": "stand-in-model"}});
    let (service, ids) = start(settings, true);
    embedded(&service).await;
    let asked = post(&service, "/v1/ask", &json!({"question": "When is the office move?"})).await;
    assert_eq!(asked.status, 200, "{}", asked.text);
    assert_eq!(asked.body["provider"], "local");
    assert_eq!(asked.body["answer"], ASK_ANSWER);
    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].path, "/api/chat");
    let sent = requests[0].body.to_string();
    assert!(
        sent.contains("relocating to the new building downtown"),
        "the passage is sent: {sent}"
    );
    assert!(sent.contains("When is the office move?"));
    assert!(!sent.contains("database went down"), "only the best passages are sent");
    // The stand-in cites [1]: the answer keeps that citation only.
    let citations = asked.body["citations"].as_array().expect("citations");
    assert_eq!(citations.len(), 1, "{}", asked.text);
    assert_eq!(citations[0]["meeting_id"], ids[0].as_str());
    assert!(citations[0]["text"].as_str().is_some_and(|t| t.contains("relocating")));
    let entries = ledger(&service, 1).await;
    assert_eq!(entries[0]["purpose"], "ask");
    assert_eq!(entries[0]["outcome"], "ok");
    assert_eq!(entries[0]["url"], format!("{}/api/chat", server.base));

    // Streamed: what the answer is made from first, the text as the server
    // writes it (the stand-in sends it in two pieces), then the whole reply.
    let steps = streamed(&service, &json!({"question": "When is the office move?"})).await;
    assert_eq!(steps[0]["type"], "citations", "{steps:?}");
    assert!(steps[0]["citations"][0]["text"].as_str().is_some_and(|t| t.contains("relocating")));
    let deltas: Vec<&str> =
        steps.iter().filter(|s| s["type"] == "delta").filter_map(|s| s["text"].as_str()).collect();
    assert_eq!(deltas.len(), 2, "{steps:?}");
    assert_eq!(deltas.concat(), ASK_ANSWER);
    let done = steps.last().expect("steps");
    assert_eq!((done["type"].as_str(), done["answer"].as_str()), (Some("done"), Some(ASK_ANSWER)));
    assert_eq!(done["provider"], "local");
    assert_eq!(server.requests()[1].body["stream"], true, "the server is asked to stream");
}

/// A launch meeting of 12 lines (two passages of 30 s): the line naming the
/// subject ends the first passage, the line answering opens the second.
fn launch_meeting() -> SeedMeeting {
    let mut meeting = SeedMeeting::ready(
        "Launch sync",
        START + 10 * DAY,
        &[
            "Morning, can everyone hear me?",
            "Yes, loud and clear.",
            "Let us start with the launch of the mobile app.",
            "The beta testers found two crashes on older phones.",
            "Both are fixed in the build from yesterday.",
            "Sam is away on vacation for the two weeks around it.",
            "Priya is covering for him while he is out.",
            "The launch is on Thursday the ninth of March.",
            "Marketing wants the screenshots a week before.",
            "I will send them the new screenshots by Friday.",
            "We decided to drop the tablet layout for now.",
            "Okay, thanks everyone.",
        ],
    );
    meeting.notes = vec![(
        "decisions".into(),
        "- The tablet layout is dropped from the first release.\n".into(),
    )];
    meeting.action_items = vec![
        ("Send the new screenshots to marketing".into(), "Me".into()),
        ("Write the release notes for the store listing".into(), "Priya".into()),
    ];
    meeting
}

#[tokio::test]
async fn short_questions_about_one_meeting_are_answered_from_its_lines_notes_and_items() {
    let options = refreshing(Options::default());
    let mut ids = Vec::new();
    let service = TestService::start_with(BIN, options, |data| {
        ids = seed(data, &[launch_meeting()]);
    });
    let added = service.cli().args(["models", "add-embeddings"]).arg(embedding_model()).output();
    assert!(added.expect("add-embeddings").status.success());
    let meeting = ids[0].as_str();
    let ask = |question: &str| json!({"question": question, "meeting_id": meeting});
    // Asked at once: the meeting is embedded first, not left to the background.
    let when = post(&service, "/v1/ask", &ask("When is the launch?")).await;
    assert_eq!(when.status, 200, "{}", when.text);
    let first = &when.body["citations"][0];
    assert!(
        first["text"].as_str().is_some_and(|t| t.contains("ninth of March")),
        "the line that says when: {}",
        when.text
    );
    assert_eq!(first["start_ms"], 30_000, "from the line before: {}", when.text);
    let next = post(&service, "/v1/ask", &ask("What's next?")).await;
    let cited: Vec<&str> = next.body["citations"]
        .as_array()
        .expect("citations")
        .iter()
        .filter(|c| c["speaker"] == "Action item")
        .filter_map(|c| c["text"].as_str())
        .collect();
    assert!(
        cited.iter().any(|t| t.contains("Send the new screenshots to marketing")),
        "the action items: {}",
        next.text
    );
    let decided = post(&service, "/v1/ask", &ask("What did we decide?")).await;
    let texts = decided.body["citations"].to_string();
    assert!(texts.contains("tablet layout"), "the decision: {}", decided.text);
    assert!(decided.body.get("closest").is_none(), "{}", decided.text);
}

#[tokio::test]
async fn a_local_server_gets_the_line_after_the_one_naming_the_subject_with_its_meeting() {
    let server = StandIn::start(Behaviour { malformed_items: false }).await;
    let settings =
        json!({"ai": {"provider": "local", "local_url": server.base, "model": "stand-in-model"}});
    let options = refreshing(Options { settings: Some(settings), ..Options::default() });
    let service = TestService::start_with(BIN, options, |data| {
        seed(data, &[launch_meeting()]);
    });
    let added = service.cli().args(["models", "add-embeddings"]).arg(embedding_model()).output();
    assert!(added.expect("add-embeddings").status.success());
    let question = json!({"question": "Who looks after things during Sam's holiday?"});
    let asked = post(&service, "/v1/ask", &question).await;
    assert_eq!(asked.status, 200, "{}", asked.text);
    assert_eq!(asked.body["provider"], "local", "{}", asked.text);
    let sent = server.requests()[0].body.to_string();
    assert!(sent.contains("Priya is covering for him"), "the answering line is sent: {sent}");
    assert!(sent.contains("Launch sync, "), "with its meeting's title: {sent}");
    assert!(sent.contains("speakers: Me, Them") || sent.contains("speakers: Them, Me"), "{sent}");
}

#[tokio::test]
async fn a_question_right_after_an_import_is_answered_from_it() {
    let options = refreshing(Options {
        settings: Some(json!({"general": {"allow_remote_start": true}})),
        env: vec![("RECORDER_MODEL_PATH".into(), speech::test_model().display().to_string())],
        ..Options::default()
    });
    let service = TestService::start(BIN, options);
    let added = service.cli().args(["models", "add-embeddings"]).arg(embedding_model()).output();
    assert!(added.expect("add-embeddings").status.success());
    let wav = service.folder.path().join("import.wav");
    speech::speak(
        "The quarterly budget review moves to next Tuesday. Priya will book the large room.",
        &wav,
        speech::Layout::Wav48kFloat,
    );
    let imported = post(&service, "/v1/import", &json!({ "path": wav })).await;
    assert_eq!(imported.status, 202, "{}", imported.text);
    let id = imported.body["id"].as_str().expect("id").to_owned();
    crate::import::wait_ready(&service, &id).await;
    let asked = post(&service, "/v1/ask", &json!({"question": "When is the budget review?"})).await;
    assert_eq!(asked.status, 200, "{}", asked.text);
    assert_eq!(asked.body["citations"][0]["meeting_id"], id.as_str(), "{}", asked.text);
    assert!(
        asked.body.get("closest").is_none() && asked.body.get("by_words_only").is_none(),
        "{}",
        asked.text
    );
    let health = get(&service, "/v1/health").await.body;
    assert_eq!(health["meaning"]["remaining"], 0, "embedded when asked: {health}");
}

/// `POST /v1/ask` with `Accept: application/x-ndjson`: its steps.
async fn streamed(service: &TestService, body: &Value) -> Vec<Value> {
    let answer = crate::call_with(
        Method::POST,
        &service.url("/v1/ask"),
        Some(&service.api_token),
        Some(body),
        &[("accept", "application/x-ndjson")],
    )
    .await;
    assert_eq!(answer.status, 200, "{}", answer.text);
    assert_eq!(answer.headers["content-type"], "application/x-ndjson");
    answer.text.lines().map(|line| serde_json::from_str(line).expect("a JSON line")).collect()
}

#[tokio::test]
async fn a_refused_cloud_provider_is_blocked_in_the_ledger_and_the_builtin_engine_answers() {
    let server = StandIn::start(Behaviour { malformed_items: false }).await;
    let settings = json!({"ai": {"provider": "anthropic", "cloud_base_url": server.base}});
    let (service, _) = start(settings, true);
    embedded(&service).await;
    let saved = crate::person_call(
        &service,
        Method::PUT,
        "/ui/ai/keys/anthropic",
        Some(&json!({"key": "sk-ant-test-0123456789abcdef"})),
    )
    .await;
    assert_eq!(saved.status, 204, "{}", saved.text);
    crate::apply_policy(&service, &json!({"DisableCloudAIKeys": true})).await;
    let asked = post(&service, "/v1/ask", &json!({"question": "Who is covering for Sam?"})).await;
    assert_eq!(asked.status, 200, "{}", asked.text);
    assert_eq!(asked.body["provider"], "builtin");
    assert!(
        asked.body["fallback"].as_str().is_some_and(|f| f.contains("DisableCloudAIKeys")),
        "{}",
        asked.text
    );
    assert!(!asked.body["citations"].as_array().expect("citations").is_empty());
    assert!(server.requests().is_empty(), "nothing reached the server");
    let entries = ledger(&service, 1).await;
    assert_eq!(
        (entries[0]["purpose"].as_str(), entries[0]["outcome"].as_str()),
        (Some("ask"), Some("blocked"))
    );
}

#[tokio::test]
async fn without_the_model_search_and_ask_work_by_words() {
    let (service, ids) = start(json!({}), false);
    let health = get(&service, "/v1/health").await.body;
    assert_eq!(health["meaning"]["available"], false, "{health}");
    let searched = search(&service, "replica", Some("meaning")).await;
    assert_eq!(searched.status, 200);
    assert_eq!(searched.headers["x-recorder-search-mode"], "words");
    assert_eq!(searched.body["results"][0]["meeting_id"], ids[4].as_str());
    let asked =
        post(&service, "/v1/ask", &json!({"question": "When will the replica be added?"})).await;
    assert_eq!(asked.status, 200, "{}", asked.text);
    assert_eq!(
        asked.body["citations"][0]["text"],
        "Customers could not log in for two hours. We will add a replica so it does not happen again.",
        "the line with the one before it: {}",
        asked.text
    );
    assert_eq!(asked.body["citations"][0]["at_ms"], 10_000);
    let nothing = post(&service, "/v1/ask", &json!({"question": "zeppelin?"})).await;
    assert_eq!(nothing.body["citations"], json!([]));
    assert_eq!(nothing.body["answer"], "Nothing in your meetings answers that.");
}
