//! Each provider against a stand-in speaking its real wire format: Ollama
//! `/api/chat` (JSON and NDJSON streams), OpenAI-compatible `/chat/completions`
//! (JSON and SSE streams), Anthropic `/v1/messages` (JSON and SSE streams), with
//! the headers, body and model each expects, and one ledger entry per request.

mod support;

use recorder_ai::{AiError, ProviderKind};
use recorder_domain::NoteKind;
use serde_json::json;
use support::*;

#[tokio::test]
async fn ollama_json_answers_become_the_note() {
    let server = serve_in_order(vec![ollama("The budget stays as it is.")]).await;
    let (egress, ledger) = egress();
    let config = config(ProviderKind::Local, server.url(""), Some("qwen2.5:7b"));
    let note = ask(&egress, &config, NoteKind::Summary).await.expect("note");
    assert_eq!(note.content_md, "The budget stays as it is.");
    assert_eq!(note.action_items, None);

    let seen = server.seen();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].path, "/api/chat");
    assert_eq!(seen[0].body["model"], "qwen2.5:7b");
    assert_eq!(seen[0].body["stream"], false);
    assert!(seen[0].body.get("format").is_none(), "no JSON mode for a summary");
    assert_eq!(seen[0].body["messages"][0]["role"], "system");
    assert_eq!(seen[0].header("content-type"), Some("application/json"));
    assert_eq!(seen[0].header("authorization"), None, "no key, no Authorization");
    let user = seen[0].user();
    for needle in
        ["Budget review", "Bob, carol@example.com", "\"Ada\"", "[00:06] Them: Bob will send"]
    {
        assert!(user.contains(needle), "{needle} missing from {user}");
    }

    let entries = ledger.entries();
    assert_eq!(entries.len(), 1);
    assert_eq!((entries[0].purpose.as_str(), entries[0].outcome.as_str()), ("notes", "ok"));
    assert_eq!(entries[0].url, format!("http://{}/api/chat", server.address));
}

#[tokio::test]
async fn ollama_ndjson_streams_give_action_items_with_the_key_when_one_is_set() {
    let pieces = [r#"{"action_items":[{"text":"Send the updated "#, r#"numbers","owner":"Bob"}]}"#];
    let mut chunks: Vec<_> = pieces
        .iter()
        .map(|piece| json!({"model": "m", "message": {"role": "assistant", "content": piece}, "done": false}))
        .collect();
    chunks
        .push(json!({"model": "m", "message": {"role": "assistant", "content": ""}, "done": true}));
    let server = serve_in_order(vec![ndjson(&chunks)]).await;
    let (egress, ledger) = egress();
    let mut config = config(ProviderKind::Local, server.url("/"), None);
    config.api_key = Some(KEY.into());
    let note = ask(&egress, &config, NoteKind::ActionItems).await.expect("note");
    let items = note.action_items.expect("items");
    assert_eq!(items.len(), 1);
    assert_eq!(
        (items[0].text.as_str(), items[0].owner.as_str()),
        ("Send the updated numbers", "Bob")
    );
    assert_eq!(note.content_md, "- [ ] Send the updated numbers (Bob)");

    let seen = server.seen();
    assert_eq!(seen[0].path, "/api/chat");
    assert_eq!(seen[0].body["format"], "json");
    assert_eq!(seen[0].body["model"], "llama3.2", "the local default model");
    assert_eq!(seen[0].header("authorization"), Some(format!("Bearer {KEY}").as_str()));
    assert!(!ledger_text(&ledger).contains(KEY));
}

fn openai(content: &str) -> Answer {
    json(json!({
        "id": "chatcmpl-1", "object": "chat.completion", "model": "m",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}]
    }))
}

#[tokio::test]
async fn a_local_v1_server_speaks_openai_without_json_mode() {
    let answer = r#"{"action_items":[{"text":"Keep the travel budget","owner":""}]}"#;
    let server = serve_in_order(vec![openai(answer)]).await;
    let (egress, ledger) = egress();
    let config = config(ProviderKind::Local, server.url("/v1/"), Some("local-gguf"));
    let note = ask(&egress, &config, NoteKind::ActionItems).await.expect("note");
    let items = note.action_items.expect("items");
    assert_eq!(
        (items[0].text.as_str(), items[0].owner.as_str()),
        ("Keep the travel budget", "Everyone")
    );

    let seen = server.seen();
    assert_eq!(seen[0].path, "/v1/chat/completions");
    assert_eq!(seen[0].body["model"], "local-gguf");
    assert!(seen[0].body.get("response_format").is_none(), "llama.cpp may reject it");
    assert_eq!(seen[0].header("authorization"), None);
    assert_eq!(ledger.entries()[0].url, format!("http://{}/v1/chat/completions", server.address));
}

#[tokio::test]
async fn openai_compatible_sse_streams_are_joined_and_json_mode_is_asked() {
    let deltas = [r#"{"action_items":[{"text":"#, r#""Book the room","owner":"Ada"}]}"#];
    let mut events =
        vec![("", json!({"choices": [{"index": 0, "delta": {"role": "assistant"}}]}).to_string())];
    for delta in deltas {
        events.push((
            "",
            json!({"choices": [{"index": 0, "delta": {"content": delta}}]}).to_string(),
        ));
    }
    events.push((
        "",
        json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}).to_string(),
    ));
    events.push(("", "[DONE]".to_string()));
    let server = serve_in_order(vec![sse(&events)]).await;
    let (egress, ledger) = egress();
    let mut config = config(ProviderKind::OpenAiCompatible, server.url("/v1"), Some("gpt-4.1"));
    config.api_key = Some(KEY.into());
    let note = ask(&egress, &config, NoteKind::ActionItems).await.expect("note");
    assert_eq!(note.content_md, "- [ ] Book the room (Ada)");

    let seen = server.seen();
    assert_eq!(seen[0].path, "/v1/chat/completions");
    assert_eq!(seen[0].body["model"], "gpt-4.1");
    assert_eq!(seen[0].body["response_format"], json!({"type": "json_object"}));
    assert_eq!(seen[0].header("authorization"), Some(format!("Bearer {KEY}").as_str()));
    assert!(!ledger_text(&ledger).contains(KEY));
}

/// Anthropic's stand-in refuses requests without the key and version headers.
fn anthropic(answer: Answer) -> impl Fn(&Seen) -> Answer + Send + Sync + 'static {
    move |seen: &Seen| {
        let authorised = seen.header("x-api-key") == Some(KEY)
            && seen.header("anthropic-version") == Some("2023-06-01")
            && seen.path == "/v1/messages";
        if authorised {
            answer.clone()
        } else {
            let error = json!({"type": "error", "error": {"type": "authentication_error", "message": "invalid x-api-key"}});
            status(401, error)
        }
    }
}

#[tokio::test]
async fn anthropic_json_answers_join_their_text_blocks() {
    let answer = json(json!({
        "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
        "content": [{"type": "text", "text": "- Keep the travel budget\n"}, {"type": "text", "text": "- Bob sends numbers"}],
        "stop_reason": "end_turn", "usage": {"input_tokens": 10, "output_tokens": 10}
    }));
    let server = serve(anthropic(answer)).await;
    let (egress, ledger) = egress();
    let mut config = config(ProviderKind::Anthropic, server.url(""), None);
    config.api_key = Some(KEY.into());
    let note = ask(&egress, &config, NoteKind::KeyPoints).await.expect("note");
    assert_eq!(note.content_md, "- Keep the travel budget\n- Bob sends numbers");

    let seen = server.seen();
    assert_eq!(seen[0].body["model"], "claude-sonnet-4-5", "the Anthropic default model");
    assert_eq!(seen[0].body["max_tokens"], 4096);
    assert!(seen[0].body["system"].as_str().expect("system").contains("meeting notes"));
    assert_eq!(seen[0].body["messages"].as_array().expect("messages").len(), 1);
    assert_eq!(seen[0].header("authorization"), None);
    let entries = ledger.entries();
    assert_eq!(entries[0].url, format!("http://{}/v1/messages", server.address));
    assert!(!ledger_text(&ledger).contains(KEY));
}

#[tokio::test]
async fn anthropic_sse_streams_are_joined() {
    let delta = |text: &str| {
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}})
            .to_string()
    };
    let events = vec![
        ("message_start", json!({"type": "message_start", "message": {"id": "msg_1", "content": []}}).to_string()),
        ("content_block_start", json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}).to_string()),
        ("ping", json!({"type": "ping"}).to_string()),
        ("content_block_delta", delta("We keep the ")),
        ("content_block_delta", delta("travel budget.")),
        ("content_block_stop", json!({"type": "content_block_stop", "index": 0}).to_string()),
        ("message_delta", json!({"type": "message_delta", "delta": {"stop_reason": "end_turn"}}).to_string()),
        ("message_stop", json!({"type": "message_stop"}).to_string()),
    ];
    let server = serve(anthropic(sse(&events))).await;
    let (egress, _ledger) = egress();
    let mut config = config(ProviderKind::Anthropic, server.url("/"), Some("claude-haiku-4-5"));
    config.api_key = Some(KEY.into());
    let note = ask(&egress, &config, NoteKind::Decisions).await.expect("note");
    assert_eq!(note.content_md, "We keep the travel budget.");
    assert_eq!(server.seen()[0].body["model"], "claude-haiku-4-5");
}

#[tokio::test]
async fn a_refused_key_is_unusable_and_never_quoted() {
    let server = serve(anthropic(json(json!({"content": []})))).await;
    let (egress, ledger) = egress();
    let mut config = config(ProviderKind::Anthropic, server.url(""), None);
    config.api_key = Some("sk-wrong-SECRET-0000".into());
    let error = ask(&egress, &config, NoteKind::Summary).await.expect_err("refused");
    assert!(matches!(error, AiError::Unusable(_)), "{error:?}");
    assert!(error.to_string().contains("the server refused the request (HTTP 401)"), "{error}");
    assert!(!error.to_string().contains("SECRET") && !format!("{error:?}").contains("SECRET"));
    assert!(!format!("{config:?}").contains("SECRET"));
    let entries = ledger.entries();
    assert_eq!((entries[0].status, entries[0].outcome.as_str()), (Some(401), "error"));
    assert!(!ledger_text(&ledger).contains("SECRET"));
}
