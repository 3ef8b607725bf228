//! Tidy: checks the codebase itself, so the architecture's invariants hold by test
//! rather than by memory.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every Rust file of the workspace, as (path relative to the root, contents).
fn rust_files() -> Vec<(String, String)> {
    let mut files = Vec::new();
    for top in ["crates", "xtask"] {
        collect(&root().join(top), &mut files);
    }
    assert!(files.len() > 30, "tidy found too few files: {}", files.len());
    files
}

fn collect(folder: &Path, files: &mut Vec<(String, String)>) {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.file_name().is_some_and(|name| name == "target") {
            continue;
        }
        if path.is_dir() {
            collect(&path, files);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            let relative = path.strip_prefix(root()).unwrap_or(&path).display().to_string();
            let text = std::fs::read_to_string(&path).expect("readable source");
            files.push((relative.replace("/../", "/"), text));
        }
    }
}

fn is_test_code(path: &str) -> bool {
    path.contains("/tests/")
        || path.starts_with("crates/test-support/")
        || path.starts_with("xtask/")
}

fn in_crate(path: &str, name: &str) -> bool {
    path.starts_with(&format!("crates/{name}/src/"))
}

/// Lines that are not comments, so docs may name what code must not do.
fn code_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines().filter(|line| !line.trim_start().starts_with("//"))
}

#[test]
fn every_file_has_a_module_doc() {
    let missing: Vec<String> = rust_files()
        .into_iter()
        .filter(|(_, text)| !text.trim_start().starts_with("//!"))
        .map(|(path, _)| path)
        .collect();
    assert!(missing.is_empty(), "files without a leading //! doc: {missing:?}");
}

#[test]
fn no_ignored_or_should_panic_tests() {
    let ignore = ["#[", "ignore]"].concat();
    let should_panic = ["#[", "should_panic"].concat();
    let offenders: Vec<String> = rust_files()
        .into_iter()
        .filter(|(_, text)| {
            code_lines(text).any(|l| l.contains(&ignore) || l.contains(&should_panic))
        })
        .map(|(path, _)| path)
        .collect();
    assert!(offenders.is_empty(), "ignored or should_panic tests in {offenders:?}");
}

#[test]
fn only_egress_and_the_loopback_client_build_http_clients() {
    let markers = [
        "reqwest::Client",
        "reqwest::get",
        "reqwest::blocking",
        "hyper::client",
        "hyper_util::client",
        "ureq::",
        "isahc::",
        "surf::",
        "attohttpc::",
        "TcpStream::connect",
    ];
    let offenders: Vec<String> = rust_files()
        .into_iter()
        .filter(|(path, _)| {
            !is_test_code(path) && !in_crate(path, "egress") && !in_crate(path, "client")
        })
        .filter(|(_, text)| {
            code_lines(text).any(|line| markers.iter().any(|marker| line.contains(marker)))
        })
        .map(|(path, _)| path)
        .collect();
    assert!(offenders.is_empty(), "HTTP clients outside egress and client: {offenders:?}");
    for manifest in std::fs::read_dir(root().join("crates")).expect("crates").flatten() {
        let name = manifest.file_name().to_string_lossy().to_string();
        if ["egress", "client", "test-support"].contains(&name.as_str()) {
            continue;
        }
        let text = std::fs::read_to_string(manifest.path().join("Cargo.toml")).unwrap_or_default();
        let dependencies = text.split("[dev-dependencies]").next().unwrap_or_default();
        for client in ["reqwest", "ureq", "isahc", "surf", "attohttpc", "hyper-util"] {
            assert!(
                !dependencies.contains(&format!("\n{client}")),
                "crates/{name} depends on {client}"
            );
        }
    }
}

#[test]
fn only_settings_reads_the_environment() {
    let markers = ["env::var(", "env::var_os(", "env::vars(", "env::vars_os("];
    let offenders: Vec<String> = rust_files()
        .into_iter()
        .filter(|(path, _)| !is_test_code(path) && !in_crate(path, "settings"))
        .filter(|(_, text)| {
            code_lines(text).any(|line| markers.iter().any(|marker| line.contains(marker)))
        })
        .map(|(path, _)| path)
        .collect();
    assert!(offenders.is_empty(), "environment read outside settings: {offenders:?}");
}

#[test]
fn only_the_service_opens_the_database() {
    let offenders: Vec<String> = rust_files()
        .into_iter()
        .filter(|(path, _)| {
            !is_test_code(path) && !in_crate(path, "service") && !in_crate(path, "store")
        })
        .filter(|(_, text)| {
            code_lines(text).any(|line| line.contains("Store::open") || line.contains("rusqlite::"))
        })
        .map(|(path, _)| path)
        .collect();
    assert!(offenders.is_empty(), "database opened outside the service: {offenders:?}");
}

#[test]
fn no_unwrap_in_library_code() {
    let offenders: Vec<String> = rust_files()
        .into_iter()
        .filter(|(path, _)| !is_test_code(path))
        .filter(|(_, text)| {
            // Unit tests at the bottom of a file may unwrap; library code may not.
            let library = text.split("#[cfg(test)]").next().unwrap_or_default();
            code_lines(library).any(|line| line.contains(".unwrap()"))
        })
        .map(|(path, _)| path)
        .collect();
    assert!(offenders.is_empty(), "unwrap() in library code: {offenders:?}");
}

/// The sections of ARCHITECTURE.md's code map that must name every source
/// file: each heading's name, and the folder of the files.
fn code_map_sections() -> Vec<(String, PathBuf)> {
    let mut sections: Vec<(String, PathBuf)> = std::fs::read_dir(root().join("crates"))
        .expect("crates folder")
        .flatten()
        .map(|entry| {
            let name = entry.file_name().to_string_lossy().to_string();
            (format!("crates/{name}"), entry.path().join("src"))
        })
        .collect();
    sections.push(("xtask".into(), root().join("xtask/src")));
    sections.push(("ui".into(), root().join("ui/src")));
    sections
}

/// The text under the heading ``### `name` `` up to the next heading.
fn section<'a>(text: &'a str, name: &str) -> &'a str {
    let heading = format!("\n### `{name}`\n");
    let Some(start) = text.find(&heading) else {
        return "";
    };
    let body = &text[start + heading.len()..];
    &body[..body.find("\n#").unwrap_or(body.len())]
}

/// Rust, Svelte and TypeScript files under `folder`, as paths relative to
/// `src`; the generated API schema (`ui/src/api/schema.d.ts`) is not one.
fn source_files(folder: &Path, src: &Path, found: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().to_string();
        if path.is_dir() {
            source_files(&path, src, found);
        } else if name != "schema.d.ts"
            && [".rs", ".svelte", ".ts"].iter().any(|e| name.ends_with(e))
        {
            found.push(path.strip_prefix(src).unwrap_or(&path).display().to_string());
        }
    }
}

/// The code map names every source file, in backticks, by its path under its
/// crate's `src/`, in the section of that crate (`### `crates/service``).
#[test]
fn architecture_names_every_source_file() {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let (mut checked, mut missing) = (0, Vec::new());
    for (name, src) in code_map_sections() {
        let mut files = Vec::new();
        source_files(&src, &src, &mut files);
        files.sort();
        checked += files.len();
        let listed = section(&text, &name);
        let unnamed = files.into_iter().filter(|file| !listed.contains(&format!("`{file}`")));
        missing.extend(unnamed.map(|file| format!("{name}/src/{file}")));
    }
    assert!(checked > 200, "tidy found too few source files: {checked}");
    assert!(missing.is_empty(), "files ARCHITECTURE.md's code map does not name: {missing:#?}");
}

/// The app's screens stay in pieces: no Svelte component over 400 lines
/// (a page is a folder of components of one job each, ui/README.md).
#[test]
fn no_ui_component_over_400_lines() {
    let src = root().join("ui/src");
    let mut files = Vec::new();
    source_files(&src, &src, &mut files);
    let components: Vec<String> = files.into_iter().filter(|f| f.ends_with(".svelte")).collect();
    assert!(components.len() > 20, "tidy found too few components: {}", components.len());
    let long: Vec<String> = components
        .iter()
        .filter_map(|file| {
            let lines = std::fs::read_to_string(src.join(file)).unwrap_or_default().lines().count();
            (lines > 400).then(|| format!("ui/src/{file}: {lines} lines"))
        })
        .collect();
    assert!(long.is_empty(), "components over 400 lines: {long:#?}");
}
