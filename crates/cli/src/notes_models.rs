//! `recorder models notes | install-notes | add-notes | remove-notes`: the models
//! the notes model inside runs (`ai.provider: "embedded"`). `add-notes` checks
//! the file is a whole GGUF model before anything is copied; with the service
//! running it installs through it, else straight into the data folder. Either
//! way a first notes model makes the model inside the notes provider when the
//! built-in engine was chosen.

use std::path::Path;

use recorder_api_types::{NotesModelAddRequest, NotesModelEntry, NotesModelList};
use recorder_client::{Client, ClientError};
use recorder_settings::{copy_atomically, DataDir, Environment, SettingsDocument};

use crate::context::{connect, Channel, Context, Failure};
use crate::output::{self, size};

pub async fn list(client: &Client, json: bool) -> Result<(), Failure> {
    let list = client.notes_models().await?;
    if json {
        return output::json(&list);
    }
    let rows: Vec<Vec<String>> = list.models.iter().map(row).collect();
    output::table(&["NAME", "MODEL", "SIZE", "MEMORY", "LICENCE", "INSTALLED", "ACTIVE"], &rows);
    println!();
    print_active(&list);
    Ok(())
}

fn row(model: &NotesModelEntry) -> Vec<String> {
    let installed = output::install_state(model.downloading, model.installed, &model.error);
    let dash = || "-".to_string();
    vec![
        model.name.clone(),
        model.title.clone(),
        model.size_bytes.map(size).unwrap_or_else(dash),
        model.memory_bytes.map(|bytes| format!("~{}", size(bytes))).unwrap_or_else(dash),
        model.licence.clone().unwrap_or_else(dash),
        installed,
        if model.active { "*".to_string() } else { String::new() },
    ]
}

fn print_active(list: &NotesModelList) {
    match &list.active {
        Some(active) if list.model_path_env => println!(
            "Notes model: {} ({}, from RECORDER_NOTES_MODEL_PATH)",
            active.name, active.path
        ),
        Some(active) => println!("Notes model: {} ({})", active.name, active.path),
        None => println!(
            "No notes model is installed: notes come from the built-in engine. Run `recorder \
             models install-notes qwen3-1.7b` (or `recorder models add-notes FILE`)."
        ),
    }
    if !list.worker_found {
        println!("note: recorder-llm, the program that runs the model, was not found");
    }
}

pub async fn install(client: &Client, name: &str) -> Result<(), Failure> {
    let reply = client.install_notes_model(name).await?;
    if reply.status == recorder_api_types::InstallStatus::Installed {
        println!("{} is already installed ({})", reply.model, reply.file_name);
        return Ok(());
    }
    println!(
        "downloading {} ({}); follow it with `recorder models notes` or in Settings, AI",
        reply.model, reply.file_name
    );
    Ok(())
}

pub async fn remove(client: &Client, name: &str) -> Result<(), Failure> {
    let removal = client.remove_notes_model(name).await?;
    println!("removed {}", removal.removed.join(", "));
    Ok(())
}

/// Checks the file, then installs it through the service, or (with no service
/// running) straight into the data folder.
pub async fn add(context: &Context, path: &Path, name: Option<String>) -> Result<(), Failure> {
    let info =
        recorder_llm::gguf::inspect(path).map_err(|error| Failure::general(error.to_string()))?;
    let absolute = std::path::absolute(path).map_err(Failure::general)?;
    let request = NotesModelAddRequest { path: absolute.display().to_string(), name: name.clone() };
    let through_service = match connect(context, Channel::Person) {
        Ok(client) => client.add_notes_model(&request).await,
        Err(_) => Err(ClientError::Unreachable(String::new())),
    };
    let model = match through_service {
        Ok(added) => added.model,
        Err(ClientError::Unreachable(_)) => add_offline(context, path, name)?,
        Err(error) => return Err(error.into()),
    };
    let title = info.name.unwrap_or_else(|| model.clone());
    println!("added the notes model {model} ({title}); notes are written with it from now on");
    Ok(())
}

fn add_offline(context: &Context, path: &Path, name: Option<String>) -> Result<String, Failure> {
    let data_dir = DataDir::resolve(context.data_dir.clone(), &Environment::from_process())
        .map_err(Failure::general)?;
    let stem = path.file_stem().and_then(|stem| stem.to_str()).unwrap_or_default();
    let name = name.unwrap_or_else(|| recorder_stt::catalogue::name_from_stem(stem));
    if !recorder_stt::catalogue::is_valid_name(&name) {
        return Err(Failure::usage(format!(
            "\"{name}\" cannot be a model name: use letters, digits, `.`, `_` and `-`"
        )));
    }
    let folder = data_dir.models().join("notes");
    std::fs::create_dir_all(&folder).map_err(|error| {
        Failure::general(format!("cannot create {}: {error}", folder.display()))
    })?;
    let target = folder.join(format!("{name}.gguf"));
    if target.exists() {
        return Err(Failure::general(format!(
            "{} already exists; remove it first (`recorder models remove-notes {name}`)",
            target.display()
        )));
    }
    copy_atomically(path, &target)
        .map_err(|error| Failure::general(format!("cannot copy {}: {error}", path.display())))?;
    choose_embedded(&data_dir)?;
    Ok(name)
}

/// Makes the model inside the notes provider in `settings.json` when the
/// built-in engine was chosen (the service is not running).
fn choose_embedded(data_dir: &DataDir) -> Result<(), Failure> {
    let path = data_dir.settings();
    let failed = |error: &dyn std::fmt::Display| {
        Failure::general(format!("cannot update {}: {error}", path.display()))
    };
    let document = SettingsDocument::load_or_create(&path).map_err(|e| failed(&e))?;
    if document.typed().ai.provider != "builtin" {
        return Ok(());
    }
    let patch = serde_json::json!({ "ai": { "provider": "embedded" } });
    document.patched(&patch).and_then(|patched| patched.save(&path)).map_err(|e| failed(&e))
}
