//! The notes pipeline over real HTTP: action-item JSON repaired once (or given up
//! on), long meetings mapped and reduced, policy refusals that send nothing,
//! failing and unreachable servers, and requests pinned to a checked address.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};

use recorder_ai::{generate, loopback_addrs, AiError, NotesRequest, ProviderKind};
use recorder_domain::NoteKind;
use recorder_egress::Verdict;
use recorder_notes::Line;
use serde_json::json;
use support::*;

#[tokio::test]
async fn malformed_action_items_are_repaired_by_one_more_request() {
    let bad = "Sure! Here are the action items: Bob sends the numbers.";
    let good = "```json\n{\"action_items\":[{\"text\":\"Send the updated numbers\",\"owner\":\"Bob\"}]}\n```";
    let server = serve_in_order(vec![ollama(bad), ollama(good)]).await;
    let (egress, ledger) = egress();
    let config = config(ProviderKind::Local, server.url(""), None);
    let note = ask(&egress, &config, NoteKind::ActionItems).await.expect("note");
    assert_eq!(note.content_md, "- [ ] Send the updated numbers (Bob)");

    let seen = server.seen();
    assert_eq!(seen.len(), 2);
    let repair = seen[1].user();
    assert!(repair.contains(bad), "the repair shows the bad answer: {repair}");
    assert!(repair.contains("could not be read"), "{repair}");
    assert_eq!(seen[1].body["format"], "json");
    let outcomes: Vec<String> =
        ledger.entries().into_iter().map(|e| e.outcome.to_string()).collect();
    assert_eq!(outcomes, ["ok", "ok"]);
}

#[tokio::test]
async fn action_items_that_stay_malformed_are_unusable_after_one_repair() {
    let server =
        serve_in_order(vec![ollama("{\"tasks\": []}"), ollama("{\"action_items\": [")]).await;
    let (egress, _ledger) = egress();
    let config = config(ProviderKind::Local, server.url(""), None);

    let error = ask(&egress, &config, NoteKind::ActionItems).await.expect_err("malformed");
    match &error {
        AiError::Unusable(message) => {
            assert!(
                message.starts_with("the model's action items were not valid JSON"),
                "{message}"
            )
        }
        other => panic!("expected Unusable, got {other:?}"),
    }
    assert_eq!(server.seen().len(), 2, "one request and exactly one repair");
}

/// About 60 characters a line: 600 lines are well over one chunk's budget.
fn long_meeting() -> Vec<Line> {
    (0..600)
        .map(|at| {
            line(
                if at % 2 == 0 { "Ada" } else { "Them" },
                at * 5_000,
                &format!("Point {at}: the budget line {at} needs checking."),
            )
        })
        .collect()
}

#[tokio::test]
async fn long_meetings_are_mapped_per_chunk_then_reduced() {
    let calls = AtomicUsize::new(0);
    let server = serve(move |seen: &Seen| {
        let call = calls.fetch_add(1, Ordering::SeqCst);
        if seen.user().contains("Merge them") {
            ollama("FINAL SUMMARY")
        } else {
            ollama(&format!("partial summary {call}"))
        }
    })
    .await;
    let (egress, ledger) = egress();
    let config = config(ProviderKind::Local, server.url(""), Some("llama3.1:70b"));
    let (lines, context) = (long_meeting(), context());

    let note =
        generate(&egress, &config, Verdict::Allow, &request(NoteKind::Summary, &lines, &context))
            .await
            .expect("note");
    assert_eq!(note.content_md, "FINAL SUMMARY");

    let seen = server.seen();
    let parts = seen.len() - 1;
    assert!(parts >= 3, "a 36k-character transcript needs several chunks, got {parts}");
    for (at, request) in seen[..parts].iter().enumerate() {
        let user = request.user();
        assert!(user.contains(&format!("part {} of {parts}", at + 1)), "{user}");
        assert!(user.chars().count() < 14_000, "each chunk keeps to the budget");
    }
    let first = seen[0].user();
    assert!(first.contains("Point 0:") && !first.contains("Point 599:"));
    assert!(seen[parts - 1].user().contains("Point 599:"));
    let merge = seen[parts].user();
    for at in 0..parts {
        assert!(merge.contains(&format!("partial summary {at}")), "{merge}");
    }
    assert!(seen.iter().all(|request| request.body["model"] == "llama3.1:70b"));
    assert_eq!(ledger.entries().len(), parts + 1);
}

#[tokio::test]
async fn a_blocked_verdict_sends_nothing_and_is_in_the_ledger() {
    let server = serve_in_order(vec![]).await;
    let (egress, ledger) = egress();
    let mut config =
        config(ProviderKind::OpenAiCompatible, server.url("/v1?api-key=QUERYSECRET"), None);
    config.api_key = Some(KEY.into());
    let (lines, context) = (long_meeting(), context());

    let verdict = Verdict::Block("ForceLocalModel".into());
    let error = generate(&egress, &config, verdict, &request(NoteKind::Summary, &lines, &context))
        .await
        .expect_err("blocked");
    assert_eq!(error, AiError::Blocked("ForceLocalModel".into()));
    assert!(server.seen().is_empty(), "nothing reached the server");

    let entries = ledger.entries();
    assert_eq!(entries.len(), 1, "the first refusal stops the run");
    assert_eq!((entries[0].purpose.as_str(), entries[0].outcome.as_str()), ("notes", "blocked"));
    assert_eq!(entries[0].url, format!("http://{}/v1/chat/completions", server.address));
    let text = ledger_text(&ledger) + &error.to_string();
    assert!(!text.contains(KEY) && !text.contains("QUERYSECRET"), "{text}");
}

#[tokio::test]
async fn silence_sends_nothing_unless_it_is_to_record_a_refusal() {
    let server = serve_in_order(vec![]).await;
    let (egress, ledger) = egress();
    let config = config(ProviderKind::Local, server.url(""), None);
    let (silent, context) = (vec![line("Ada", 0, "[BLANK_AUDIO]")], context());
    let kind = NoteKind::ActionItems;

    let note = generate(&egress, &config, Verdict::Allow, &request(kind, &silent, &context))
        .await
        .expect("note");
    assert_eq!(note.action_items, Some(vec![]));
    assert!(ledger.entries().is_empty(), "nothing to ask about");

    let verdict = Verdict::Block("DisableCloudAIKeys".into());
    let error = generate(&egress, &config, verdict, &request(kind, &silent, &context)).await;
    assert_eq!(error, Err(AiError::Blocked("DisableCloudAIKeys".into())));
    let outcomes: Vec<String> =
        ledger.entries().into_iter().map(|e| e.outcome.to_string()).collect();
    assert_eq!(outcomes, ["blocked"]);
    assert!(server.seen().is_empty());
}

#[tokio::test]
async fn failing_and_unreachable_servers_are_unreachable() {
    let server = serve_in_order(vec![status(503, json!({"error": "loading model"}))]).await;
    let (egress, ledger) = egress();
    let (lines, context) = (short_meeting(), context());
    let failing = config(ProviderKind::Local, server.url(""), None);
    let error =
        generate(&egress, &failing, Verdict::Allow, &request(NoteKind::Summary, &lines, &context))
            .await
            .expect_err("503");
    assert_eq!(error, AiError::Unreachable("the server failed (HTTP 503)".into()));

    // A port nobody listens on (the listener is dropped at once).
    let closed = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let address = closed.local_addr().expect("address");
    drop(closed);
    let mut gone = config(
        ProviderKind::Local,
        url::Url::parse(&format!("http://{address}/?token=QUERYSECRET")).expect("url"),
        None,
    );
    gone.api_key = Some(KEY.into());
    let error =
        generate(&egress, &gone, Verdict::Allow, &request(NoteKind::Summary, &lines, &context))
            .await
            .expect_err("closed");
    assert!(matches!(error, AiError::Unreachable(_)), "{error:?}");
    assert!(
        !error.to_string().contains("QUERYSECRET") && !error.to_string().contains(KEY),
        "{error}"
    );
    let outcomes: Vec<String> =
        ledger.entries().into_iter().map(|e| e.outcome.to_string()).collect();
    assert_eq!(outcomes, ["error", "error"]);
}

#[tokio::test]
async fn requests_go_only_to_the_pinned_loopback_addresses() {
    let server = serve_in_order(vec![ollama("Pinned notes.")]).await;
    let pins = loopback_addrs(&server.url("")).await.expect("loopback");
    assert_eq!(pins, [server.address]);
    let (egress, ledger) = egress();
    let base =
        url::Url::parse(&format!("http://ollama.invalid:{}", server.address.port())).expect("url");
    let mut config = config(ProviderKind::Local, base, None);
    let unpinned = ask(&egress, &config, NoteKind::Summary).await;
    assert!(matches!(unpinned, Err(AiError::Unreachable(_))), "{unpinned:?}");
    config.pinned_addrs = pins;
    let note = ask(&egress, &config, NoteKind::Summary).await.expect("note");
    assert_eq!(note.content_md, "Pinned notes.");
    assert_eq!(server.seen().len(), 1);
    let entries = ledger.entries();
    assert_eq!(entries[1].url, format!("http://ollama.invalid:{}/api/chat", server.address.port()));
}

#[tokio::test]
async fn templates_reach_the_model() {
    let server = serve_in_order(vec![ollama("## Risks\n- Travel costs")]).await;
    let (egress, _ledger) = egress();
    let config = config(ProviderKind::Local, server.url(""), None);
    let (lines, context) = (short_meeting(), context());
    let template = "## Risks\nList every risk that was raised.";
    let custom =
        NotesRequest { template: Some(template), ..request(NoteKind::Custom, &lines, &context) };

    let note = generate(&egress, &config, Verdict::Allow, &custom).await.expect("note");
    assert_eq!(note.content_md, "## Risks\n- Travel costs");
    assert!(server.seen()[0].user().contains(template));
}
