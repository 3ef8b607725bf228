//! `recorder backup` and `recorder restore`: work on the data folder's files
//! directly (no service needed; a running one, even recording, is not
//! disturbed by a backup).

use std::path::PathBuf;

use clap::Args;
use recorder_backup::BackupError;
use recorder_settings::{DataDir, Environment};

use crate::context::{Context, Failure};
use crate::output::size;

#[derive(Args)]
pub struct BackupArgs {
    /// The backup file to write (default: backups/recorder-backup-<date>.tar in the data folder)
    #[arg(long, value_name = "FILE")]
    pub to: Option<PathBuf>,
    /// Print JSON for scripts
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct RestoreArgs {
    /// A file made by `recorder backup`
    pub file: PathBuf,
}

pub async fn backup(context: &Context, args: BackupArgs) -> Result<(), Failure> {
    let data_dir = data_dir(context)?;
    let stamp = chrono::Local::now().format("%Y%m%d-%H%M%S").to_string();
    let to = args.to.unwrap_or_else(|| recorder_backup::default_path(&data_dir, &stamp));
    let summary = blocking(move || recorder_backup::backup(&data_dir, &to)).await?;
    let manifest = &summary.manifest;
    if args.json {
        let report = serde_json::json!({
            "path": summary.path,
            "meetings": manifest.meetings,
            "files": manifest.files.len(),
            "audio_bytes": manifest.audio_bytes(),
            "archive_bytes": summary.archive_bytes,
            "schema_version": manifest.schema_version,
        });
        return crate::output::json(&report);
    }
    println!(
        "Backed up {} meetings ({} of audio) to {} ({}).",
        manifest.meetings,
        size(manifest.audio_bytes()),
        summary.path.display(),
        size(summary.archive_bytes)
    );
    println!("Keep a copy on another disk: a backup on this one does not survive its failure.");
    Ok(())
}

pub async fn restore(context: &Context, args: RestoreArgs) -> Result<(), Failure> {
    let data_dir = data_dir(context)?;
    let root = data_dir.root().to_path_buf();
    let file = args.file;
    let summary = blocking(move || recorder_backup::restore(&data_dir, &file)).await?;
    println!(
        "Restored {} meetings ({} of audio) into {}.",
        summary.manifest.meetings,
        size(summary.manifest.audio_bytes()),
        root.display()
    );
    println!("Start the service (recorder serve, or the desktop app) to use them.");
    Ok(())
}

fn data_dir(context: &Context) -> Result<DataDir, Failure> {
    DataDir::resolve(context.data_dir.clone(), &Environment::from_process())
        .map_err(Failure::general)
}

async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, BackupError> + Send + 'static,
) -> Result<T, Failure> {
    match tokio::task::spawn_blocking(work).await {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(error @ BackupError::NothingToBackUp(_))) => {
            Err(Failure { message: error.to_string(), exit_code: 4 })
        }
        Ok(Err(error)) => Err(Failure::general(error)),
        Err(error) => Err(Failure::general(error)),
    }
}
