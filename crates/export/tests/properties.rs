//! Property tests of the Markdown export: for any title, attendees and tags
//! the file name is one plain name every OS accepts, a file is written under
//! it (never over another), and the YAML front matter parses with a real
//! YAML parser back to exactly the meeting's values.

use proptest::prelude::*;
use recorder_export::{file_name, render_markdown, write_new, ExportMeeting};
use yaml_rust2::{Yaml, YamlLoader};

/// Text with what breaks names and YAML: separators, quotes, colons, hashes,
/// control and direction characters, line breaks, reserved device names.
fn awkward_text() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "Budget", "/", "\\", ":", "*", "?", "\"", "<", ">", "|", "\n", "\r", "\t", "\u{0}",
        "\u{7f}", "\u{85}", "\u{2028}", "\u{202e}", "\u{feff}", "#", "---", "- ", "&a", "*b",
        "!tag", "{", "}", "[", "]", "'", "%", "@", "`", ".", "..", " ", "CON", "nul", "COM1", "😀",
        "é", "…",
    ]);
    prop_oneof![
        prop::collection::vec(pieces, 0..14).prop_map(|parts| parts.concat()),
        any::<String>(),
    ]
}

fn front_matter(markdown: &str) -> Yaml {
    let rest = markdown.strip_prefix("---\n").expect("starts with front matter");
    let end = rest.find("\n---\n").expect("front matter ends");
    let docs = YamlLoader::load_from_str(&rest[..end]).expect("valid YAML");
    docs.into_iter().next().expect("one document")
}

fn strings(yaml: &Yaml) -> Vec<String> {
    yaml.as_vec()
        .expect("a list")
        .iter()
        .map(|item| item.as_str().expect("a string").to_string())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn any_title_gives_one_plain_file_name_that_can_be_written(
        title in awkward_text(),
        started_at in 0i64..4_102_444_800_000,
    ) {
        let name = file_name(&title, started_at);
        prop_assert!(name.ends_with(".md") && name.len() <= 123, "{name:?}");
        prop_assert!(!name.starts_with('.') && !name.contains(['/', '\\', '\0']), "{name:?}");
        prop_assert!(!name.chars().any(|c| c.is_control()), "{name:?}");
        let folder = tempfile::tempdir().expect("temp");
        let first = write_new(folder.path(), &name, b"one").expect("written");
        let second = write_new(folder.path(), &name, b"two").expect("written beside");
        prop_assert_ne!(&first, &second, "never over another file");
        prop_assert_eq!(first.parent(), Some(folder.path()), "in the folder, nowhere else");
        prop_assert_eq!(std::fs::read(&first).expect("read"), b"one".to_vec());
    }

    #[test]
    fn the_front_matter_parses_back_to_the_meeting(
        title in awkward_text(),
        attendees in prop::collection::vec(awkward_text(), 0..4),
        tags in prop::collection::vec(awkward_text(), 0..3),
        source_app in awkward_text(),
    ) {
        let meeting = ExportMeeting {
            title: title.clone(),
            started_at: 1_700_000_000_000,
            attendees: attendees.clone(),
            tags: tags.clone(),
            source_app: source_app.clone(),
            language: "en".into(),
            ..ExportMeeting::default()
        };
        let yaml = front_matter(&render_markdown(&meeting));
        prop_assert_eq!(yaml["title"].as_str(), Some(title.as_str()));
        prop_assert_eq!(strings(&yaml["attendees"]), attendees);
        prop_assert_eq!(strings(&yaml["tags"]), tags);
        prop_assert_eq!(yaml["source_app"].as_str(), Some(source_app.as_str()));
    }
}
