//! Search: results with snippets, and hostile input that must never fail.

use recorder_test_support::{seed, Options, SeedMeeting, TestService};

use crate::{get, BIN};

fn seeded() -> (TestService, Vec<String>) {
    let mut ids = Vec::new();
    let service = TestService::start_with(BIN, Options::default(), |data| {
        let mut first = SeedMeeting::ready(
            "Roadmap",
            1_000,
            &[
                "The quarterly roadmap review is on Friday.",
                "Beware of <script>alert(1)</script> & friends",
                "NEAR the end AND OR not",
                "שלום עולם from the Tel Aviv office",
                "party time 🎉 with emoji",
            ],
        );
        first.notes = vec![("summary".into(), "We agreed the roadmap needs a zeppelin.".into())];
        let second = SeedMeeting::ready("Later", 2_000, &["roadmap again, reviewed later"]);
        ids = seed(data, &[first, second]);
    });
    (service, ids)
}

#[tokio::test]
async fn results_carry_sources_and_marked_escaped_snippets() {
    let (service, ids) = seeded();
    let answer = get(&service, "/v1/search?q=roadmap").await;
    assert_eq!(answer.status, 200);
    let results = answer.body["results"].as_array().expect("results");
    assert_eq!(results.len(), 3, "{}", answer.text);
    assert_eq!(results[0]["meeting_id"], ids[1].as_str(), "newest meeting first");
    let note = results.iter().find(|r| r["source"] == "note").expect("a note hit");
    assert!(note["note_id"].is_string() && note.get("start_ms").is_none());
    assert!(note["snippet"].as_str().is_some_and(|s| s.contains("<mark>roadmap</mark>")), "{note}");
    let transcript = results
        .iter()
        .find(|r| r["source"] == "transcript" && r["meeting_id"] == ids[0].as_str())
        .expect("hit");
    assert_eq!(transcript["speaker"], "Me");
    assert_eq!(transcript["start_ms"], 0);
    assert_eq!(transcript["end_ms"], 4000);
    assert_eq!(transcript["meeting_title"], "Roadmap");
    assert_eq!(transcript["started_at"], 1_000);

    let script = get(&service, "/v1/search?q=script").await;
    let snippet = script.body["results"][0]["snippet"].as_str().expect("snippet");
    assert_eq!(
        snippet,
        "Beware of &lt;<mark>script</mark>&gt;alert(1)&lt;/<mark>script</mark>&gt; &amp; friends"
    );

    let phrase = get(&service, "/v1/search?q=%22quarterly%20roadmap%20review%22").await;
    assert_eq!(phrase.body["results"].as_array().map(Vec::len), Some(1));
    let and = get(&service, "/v1/search?q=roadmap%20friday").await;
    assert_eq!(and.body["results"].as_array().map(Vec::len), Some(1), "words are ANDed");
    let prefix = get(&service, "/v1/search?q=zepp*").await;
    assert_eq!(prefix.body["results"].as_array().map(Vec::len), Some(1));
    let limited = get(&service, "/v1/search?q=roadmap&limit=1").await;
    assert_eq!(limited.body["results"].as_array().map(Vec::len), Some(1));
}

#[tokio::test]
async fn hostile_queries_never_fail() {
    let (service, _) = seeded();
    let long = "a".repeat(10_000);
    let many_words = "word ".repeat(2_000);
    let hostile = [
        "\"",
        "*",
        "NEAR(",
        "NEAR(a b",
        "-",
        "AND OR",
        "AND",
        "OR",
        "NOT",
        "a OR",
        "\"\"",
        "\"*\"",
        "^x",
        "x:y",
        "title:roadmap",
        "(",
        ")",
        "{a}",
        "+",
        "'",
        "''",
        "\\",
        "%",
        "🎉",
        "שלום",
        "عربى",
        "\u{202E}evil",
        "\u{0}",
        "a\u{E000}b",
        "NEAR(\"a\" \"b\", 3)",
        long.as_str(),
        many_words.as_str(),
    ];
    for q in hostile {
        let url = format!("/v1/search?q={}", url_encode(q));
        let answer = get(&service, &url).await;
        assert!(answer.status == 200 || answer.status == 400, "{q:?}: {}", answer.text);
        if answer.status == 200 {
            assert!(answer.body["results"].is_array(), "{q:?}");
        } else {
            answer.expect_error(400, "invalid_request");
        }
        let list = get(&service, &format!("/v1/meetings?q={}", url_encode(q))).await;
        assert_eq!(list.status, 200, "{q:?}: {}", list.text);
    }
    let rtl = get(&service, &format!("/v1/search?q={}", url_encode("שלום"))).await;
    assert_eq!(rtl.body["results"].as_array().map(Vec::len), Some(1));
    let near = get(&service, &format!("/v1/search?q={}", url_encode("NEAR("))).await;
    assert_eq!(near.body["results"].as_array().map(Vec::len), Some(1), "NEAR( is a word here");
}

fn url_encode(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}
