//! Note templates: built-in ones, and the person's own Markdown prompt files in
//! `<data>/templates/<id>.md`. A template tells a notes provider what to write;
//! the built-in engine fills the template's `##` sections it understands.

use std::path::Path;

use recorder_domain::NoteKind;

/// One template: its id, a display name, and the Markdown prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    pub id: String,
    pub name: String,
    pub builtin: bool,
    pub prompt: String,
}

const BUILTIN: [(&str, &str, &str); 4] = [
    (
        "standup",
        "Stand-up",
        "Write stand-up notes.\n\n## Done since last time\n\n## Plans\n\n## Blockers\n\n## Action items\n",
    ),
    (
        "one_on_one",
        "One-on-one",
        "Write notes of a one-on-one conversation.\n\n## Summary\n\n## Topics discussed\n\n## Decisions\n\n## Action items\n",
    ),
    (
        "customer_call",
        "Customer call",
        "Write notes of a call with a customer: who they are, what they need, objections, and next steps.\n\n## Summary\n\n## Needs and pain points\n\n## Decisions\n\n## Next steps\n",
    ),
    (
        "interview",
        "Interview",
        "Write notes of a job interview: the candidate's experience, strengths, concerns, and follow-ups.\n\n## Summary\n\n## Key points\n\n## Follow-ups\n",
    ),
];

/// Every template: built-in first, then the person's, sorted by id. A user
/// file with a built-in's id replaces it.
pub fn list(folder: &Path) -> Vec<Template> {
    let mut templates: Vec<Template> = BUILTIN.iter().map(builtin).collect();
    for user in user_templates(folder) {
        templates.retain(|template| template.id != user.id);
        templates.push(user);
    }
    templates
}

/// The template with this id, if any.
pub fn find(folder: &Path, id: &str) -> Option<Template> {
    if !valid_id(id) {
        return None;
    }
    read_user(&folder.join(format!("{id}.md")))
        .or_else(|| BUILTIN.iter().find(|(known, _, _)| *known == id).map(builtin))
}

fn builtin((id, name, prompt): &(&str, &str, &str)) -> Template {
    Template {
        id: id.to_string(),
        name: name.to_string(),
        builtin: true,
        prompt: prompt.to_string(),
    }
}

fn user_templates(folder: &Path) -> Vec<Template> {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return Vec::new();
    };
    let mut templates: Vec<Template> = entries
        .filter_map(|entry| entry.ok())
        .filter_map(|entry| read_user(&entry.path()))
        .collect();
    templates.sort_by(|a, b| a.id.cmp(&b.id));
    templates
}

/// A user template file: `<id>.md`, at most 64 KiB; its first `# ` heading is
/// its name.
fn read_user(path: &Path) -> Option<Template> {
    let id = path.file_stem()?.to_str()?.to_string();
    if path.extension()? != "md" || !valid_id(&id) {
        return None;
    }
    let metadata = std::fs::metadata(path).ok()?;
    if !metadata.is_file() || metadata.len() > 64 * 1024 {
        return None;
    }
    let prompt = std::fs::read_to_string(path).ok()?;
    let name = prompt
        .lines()
        .find_map(|line| line.strip_prefix("# "))
        .map(|name| name.trim().to_string())
        .unwrap_or_else(|| id.clone());
    Some(Template { id, name, builtin: false, prompt })
}

fn valid_id(id: &str) -> bool {
    (1..=64).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-')
}

/// The `##` sections of a template the built-in engine can fill, in order.
pub fn builtin_sections(prompt: &str) -> Vec<(String, NoteKind)> {
    prompt
        .lines()
        .filter_map(|line| line.strip_prefix("## "))
        .filter_map(|heading| section_kind(heading).map(|kind| (heading.trim().to_string(), kind)))
        .collect()
}

fn section_kind(heading: &str) -> Option<NoteKind> {
    let heading = heading.to_lowercase();
    let has = |words: &[&str]| words.iter().any(|word| heading.contains(word));
    if has(&["action", "next step", "follow", "to do", "todo", "task"]) {
        Some(NoteKind::ActionItems)
    } else if has(&["decision", "agreed", "outcome"]) {
        Some(NoteKind::Decisions)
    } else if has(&["summary", "overview", "tl;dr", "recap"]) {
        Some(NoteKind::Summary)
    } else if has(&[
        "key point",
        "highlight",
        "topic",
        "discussion",
        "point",
        "need",
        "done",
        "plan",
    ]) {
        Some(NoteKind::KeyPoints)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_templates_replace_builtins_and_bad_names_are_ignored() {
        let folder = tempfile::tempdir().expect("temp");
        std::fs::write(folder.path().join("standup.md"), "# Our stand-up\n## Blockers\n")
            .expect("write");
        std::fs::write(folder.path().join("board.md"), "Board meeting notes").expect("write");
        std::fs::write(folder.path().join("Bad Name.md"), "x").expect("write");
        std::fs::write(folder.path().join("notes.txt"), "x").expect("write");
        let all = list(folder.path());
        let ids: Vec<&str> = all.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(ids, ["one_on_one", "customer_call", "interview", "board", "standup"]);
        let standup = find(folder.path(), "standup").expect("found");
        assert_eq!((standup.name.as_str(), standup.builtin), ("Our stand-up", false));
        assert_eq!(find(folder.path(), "board").expect("found").name, "board");
        assert!(find(folder.path(), "../secrets").is_none());
        assert!(find(folder.path(), "missing").is_none());
    }

    #[test]
    fn sections_the_builtin_engine_understands() {
        let sections =
            builtin_sections("Intro\n## Summary\n## Weather\n## Next steps\n## Decisions");
        let kinds: Vec<NoteKind> = sections.iter().map(|(_, kind)| *kind).collect();
        assert_eq!(kinds, [NoteKind::Summary, NoteKind::ActionItems, NoteKind::Decisions]);
    }
}
