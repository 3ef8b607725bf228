//! Tidy checks of the crates' dependencies: they point one way (down the
//! layers ARCHITECTURE.md draws), the programs that are clients of the service
//! reach data only through it, no crate declares a dependency it never uses,
//! and inside no crate do files import each other in a circle.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A crate's name and the dependencies its `[dependencies]` (and target
/// `...dependencies` tables, not `dev-` ones) declare.
struct Manifest {
    folder: PathBuf,
    name: String,
    dependencies: Vec<String>,
}

fn manifests() -> Vec<Manifest> {
    let mut found = Vec::new();
    let folders = std::fs::read_dir(root().join("crates")).expect("crates folder");
    for folder in folders.flatten().map(|entry| entry.path()).chain([root().join("xtask")]) {
        let Ok(text) = std::fs::read_to_string(folder.join("Cargo.toml")) else { continue };
        found.push(parse(&folder, &text));
    }
    assert!(found.len() > 15, "tidy found too few crates: {}", found.len());
    found
}

fn parse(folder: &Path, text: &str) -> Manifest {
    let mut section = "";
    let mut name = String::new();
    let mut dependencies = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line;
            continue;
        }
        let key: String = line
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
            .collect();
        if key.is_empty() {
            continue;
        }
        let normal = section == "[dependencies]"
            || (section.starts_with("[target.") && section.ends_with(".dependencies]"));
        if section == "[package]" && key == "name" {
            name = line.split('"').nth(1).unwrap_or_default().to_string();
        } else if normal {
            dependencies.push(key);
        }
    }
    Manifest { folder: folder.to_path_buf(), name, dependencies }
}

/// The layers, lowest first: a crate may depend only on crates of a lower
/// layer. (ARCHITECTURE.md, "Dependencies point one way".)
fn layer(name: &str) -> Option<u8> {
    Some(match name {
        "recorder-domain" | "recorder-credentials" | "recorder-sandbox" => 0,
        "recorder-store" | "recorder-settings" | "recorder-egress" | "recorder-stt"
        | "recorder-notes" | "recorder-export" | "recorder-api-types" | "recorder-llm"
        | "recorder-embed" => 1,
        "recorder-capture"
        | "recorder-ai"
        | "recorder-client"
        | "recorder-backup"
        | "recorder-test-support" => 2,
        "recorder-service" => 3,
        "recorder-cli"
        | "recorder-desktop"
        | "recorder-gateway"
        | "recorder-llm-worker"
        | "xtask" => 4,
        _ => return None,
    })
}

#[test]
fn crates_depend_only_on_lower_layers() {
    let mut wrong = Vec::new();
    for manifest in manifests() {
        let Some(own) = layer(&manifest.name) else {
            wrong.push(format!("{} has no layer: add it to tidy's `layer`", manifest.name));
            continue;
        };
        for dependency in manifest.dependencies.iter().filter(|d| d.starts_with("recorder-")) {
            match layer(dependency) {
                Some(theirs) if theirs < own => {}
                _ => wrong.push(format!("{} (layer {own}) depends on {dependency}", manifest.name)),
            }
        }
    }
    assert!(wrong.is_empty(), "dependencies against the layers: {wrong:#?}");
}

#[test]
fn clients_of_the_service_reach_data_only_through_it() {
    // The gateway is a client of the API and nothing else; the CLI and the
    // desktop app reach the database only through the service (the backup
    // crate reads it as files, through store's snapshot, by design).
    let allowed: BTreeMap<&str, &[&str]> = BTreeMap::from([
        (
            "recorder-gateway",
            &["recorder-client", "recorder-api-types", "recorder-domain", "recorder-settings"][..],
        ),
        ("recorder-client", &["recorder-api-types"][..]),
    ]);
    let mut wrong = Vec::new();
    for manifest in manifests() {
        let ours = manifest.dependencies.iter().filter(|d| d.starts_with("recorder-"));
        for dependency in ours {
            let refused = match allowed.get(manifest.name.as_str()) {
                Some(list) => !list.contains(&dependency.as_str()),
                None => {
                    matches!(manifest.name.as_str(), "recorder-cli" | "recorder-desktop")
                        && dependency == "recorder-store"
                }
            };
            if refused {
                wrong.push(format!("{} depends on {dependency}", manifest.name));
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// Every .rs file of a crate (its src, build script) as one text.
fn code_of(folder: &Path) -> String {
    let mut text = std::fs::read_to_string(folder.join("build.rs")).unwrap_or_default();
    let mut stack = vec![folder.join("src")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|ext| ext == "rs") {
                text.push_str(&std::fs::read_to_string(&path).unwrap_or_default());
            }
        }
    }
    text
}

#[test]
fn no_crate_declares_a_dependency_it_does_not_use() {
    let mut unused = Vec::new();
    for manifest in manifests() {
        let code = code_of(&manifest.folder);
        for dependency in &manifest.dependencies {
            let ident = dependency.replace('-', "_");
            let used = code.match_indices(&ident).any(|(at, _)| {
                let before = code[..at].chars().next_back();
                let after = code[at + ident.len()..].chars().next();
                let boundary =
                    |c: Option<char>| !c.is_some_and(|c| c.is_alphanumeric() || c == '_');
                boundary(before) && boundary(after)
            });
            if !used {
                unused.push(format!("{}: {dependency}", manifest.name));
            }
        }
    }
    assert!(unused.is_empty(), "declared and never used: {unused:#?}");
}

/// Runs `scripts/module-graph.py --check` on `src`: whether it passed, and what it printed.
fn module_graph(src: &Path) -> (bool, String) {
    let output = std::process::Command::new("python3")
        .arg(root().join("scripts/module-graph.py"))
        .arg(src)
        .arg("--check")
        .output()
        .expect("python3 runs scripts/module-graph.py");
    let printed = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    (output.status.success(), printed)
}

/// Inside no crate under `crates/` (every one the folder holds, none named
/// here), nor in the app's `ui/src`, do two files import each other, directly
/// or round a circle (`scripts/module-graph.py`, which prints them).
#[test]
fn files_of_no_crate_import_each_other_in_a_circle() {
    let mut sources: Vec<PathBuf> = std::fs::read_dir(root().join("crates"))
        .expect("crates folder")
        .flatten()
        .map(|entry| entry.path().join("src"))
        .filter(|src| src.is_dir())
        .collect();
    sources.sort();
    assert!(sources.len() > 15, "tidy found too few crates: {}", sources.len());
    sources.push(root().join("ui/src"));
    for src in sources {
        let (passed, printed) = module_graph(&src);
        let src = src.display();
        assert!(passed, "{src}: {printed}");
        assert!(printed.contains("no circles"), "{src}: {printed}");
    }
}

/// The check itself, on a small tree: a circle through an inline `crate::`
/// path written after a test-only item in the middle of a file, one through
/// `super::super::`, and one of TypeScript imports are each found; test-only
/// code (`#[cfg(test)] mod tests;`) and a module with the files inside it are
/// not circles.
#[test]
fn the_circle_check_finds_inline_super_and_import_circles() {
    let tree = std::env::temp_dir().join(format!("recorder-module-graph-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tree);
    let write = |path: &str, text: &str| {
        let path = tree.join(path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("folder");
        std::fs::write(path, text).expect("file");
    };
    // models/mod.rs -> models/words.rs -> handlers.rs -> models/mod.rs, the
    // last step inline and after a `#[cfg(test)]` item.
    write("inline/src/lib.rs", "pub mod handlers;\npub mod models;\n");
    write(
        "inline/src/models/mod.rs",
        "pub mod words;\npub fn active() {}\npub fn prompt() -> usize { words::count() }\n",
    );
    write(
        "inline/src/models/words.rs",
        "pub struct W;\nimpl W {\n    #[cfg(test)]\n    pub fn probe(&self) {}\n}\n\
         pub fn count() -> usize { crate::handlers::UNTITLED.len() }\n",
    );
    write(
        "inline/src/handlers.rs",
        "pub const UNTITLED: &str = \"x\";\npub fn import() { crate::models::active() }\n\
         #[cfg(test)]\nmod tests;\n",
    );
    write("inline/src/handlers/tests.rs", "use crate::models::words::count;\n");
    // a/b/c.rs -> d.rs -> a/b/c.rs, the first step through `super::super::`.
    write("chain/src/lib.rs", "pub mod a;\npub mod d;\n");
    write("chain/src/a/mod.rs", "pub mod b;\n");
    write("chain/src/a/b/mod.rs", "pub mod c;\n");
    write("chain/src/a/b/c.rs", "pub fn f() { super::super::super::d::g() }\npub fn h() {}\n");
    write("chain/src/d.rs", "pub fn g() {}\npub fn k() { crate::a::b::c::h() }\n");
    // two TypeScript files, one importing the other's type
    write(
        "ui/src/page/state.svelte.ts",
        "import { Part } from './part.svelte';\nexport class State { part = new Part(); }\n",
    );
    write(
        "ui/src/page/part.svelte.ts",
        "import type { State } from './state.svelte';\nexport class Part { page?: State; }\n",
    );
    write(
        "ui/src/page/Page.svelte",
        "<script lang=\"ts\">\n  import { State } from './state.svelte';\n</script>\n",
    );
    // a family: lib.rs uses its file, the file uses lib.rs's error; test-only code left out
    write(
        "family/src/lib.rs",
        "pub mod pipeline;\npub struct AiError;\npub fn run() { pipeline::run() }\n",
    );
    write(
        "family/src/pipeline.rs",
        "use crate::AiError;\npub fn run() {}\n#[cfg(test)]\nmod tests { use crate::other::Thing; }\n",
    );

    // a family whose way down passes through a file outside it: a/mod.rs ->
    // o.rs -> a/c.rs, and a/c.rs uses its parent's error: a circle.
    write("around/src/lib.rs", "pub mod a;\npub mod o;\n");
    write("around/src/a/mod.rs", "pub mod c;\npub struct E;\npub fn f() { crate::o::g() }\n");
    write("around/src/o.rs", "pub fn g() { crate::a::c::h() }\n");
    write("around/src/a/c.rs", "use super::E;\npub fn h() {}\n");

    let found = |name: &str, circle: &[&str]| {
        let (passed, printed) = module_graph(&tree.join(name).join("src"));
        assert!(!passed, "{name}: the circle is not found: {printed}");
        let line = printed.lines().find(|line| line.starts_with("circle of")).unwrap_or_default();
        for file in circle {
            assert!(line.contains(file), "{name}: {file} is not in the circle: {printed}");
        }
        printed
    };
    let printed = found("inline", &["handlers", "models", "models/words"]);
    assert!(printed.contains("crate::handlers::UNTITLED"), "{printed}");
    assert!(printed.contains("words::count"), "{printed}");
    assert!(!printed.contains("handlers/tests"), "test-only code was read: {printed}");
    let printed = found("chain", &["a/b/c", "d"]);
    assert!(printed.contains("super::super::super::d::g"), "{printed}");
    let printed = found("ui", &["page/state.svelte.ts", "page/part.svelte.ts"]);
    assert!(!printed.contains("Page.svelte,"), "{printed}");
    found("around", &["a,", "a/c", "o"]);
    let (passed, printed) = module_graph(&tree.join("family/src"));
    assert!(passed && printed.contains("no circles"), "{printed}");
    std::fs::remove_dir_all(&tree).expect("clean");
}
