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
        "recorder-domain" | "recorder-credentials" => 0,
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

/// Inside no crate under `crates/` (every one the folder holds, none named
/// here) do two files import each other, directly or round a circle
/// (`scripts/module-graph.py`, which prints them).
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
    for src in sources {
        let output = std::process::Command::new("python3")
            .arg(root().join("scripts/module-graph.py"))
            .arg(&src)
            .arg("--check")
            .output()
            .expect("python3 runs scripts/module-graph.py");
        let printed = String::from_utf8_lossy(&output.stdout);
        let src = src.display();
        assert!(output.status.success(), "{src}: {printed}");
        assert!(printed.contains("no circles"), "{src}: {printed}");
    }
}
