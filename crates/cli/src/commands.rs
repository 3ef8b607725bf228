//! The people's commands: each is a client of the running service.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use recorder_api_types::LicenseFile;
use recorder_client::Client;
use serde_json::Value;

use crate::context::{connect, Channel, Context, Failure};
use crate::output::{self, JsonFlag};

#[derive(Subcommand)]
pub enum Command {
    /// Run the service in the foreground
    Serve(crate::serve::ServeArgs),
    /// Start, stop, pause or mark a recording
    #[command(subcommand)]
    Record(crate::record::RecordCommand),
    /// Show whether the service runs and what it is doing
    Status(JsonFlag),
    /// List, show or delete meetings
    #[command(subcommand)]
    Meetings(MeetingsCommand),
    /// Print a meeting's transcript
    Transcript(TranscriptArgs),
    /// Search transcripts and notes
    Search(SearchArgs),
    /// Transcribe an audio file into a new meeting
    Import(crate::import::ImportArgs),
    /// Show a pairing code for the browser extension
    Pair(JsonFlag),
    /// List or revoke paired browser extensions
    #[command(subcommand)]
    Pairings(PairingsCommand),
    /// Open the app in your browser with a one-time login link
    Open(crate::desktop::OpenArgs),
    /// Register recorder:// links (such as recorder://pair) with the desktop
    #[command(subcommand)]
    DesktopIntegration(crate::desktop::IntegrationCommand),
    /// Read or change settings
    #[command(subcommand)]
    Settings(SettingsCommand),
    /// Show the managed policy in force
    Policy(JsonFlag),
    /// Install a Pro licence
    #[command(subcommand)]
    License(LicenseCommand),
    /// List, install, add or remove transcription models
    #[command(subcommand)]
    Models(crate::models::ModelsCommand),
    /// Export a meeting as a Markdown file
    Export(crate::ai::ExportArgs),
    /// Notes providers: save or clear API keys, list templates
    #[command(subcommand)]
    Ai(crate::ai::AiCommand),
    /// Back the data folder up into one file (database, audio, settings)
    Backup(crate::backup::BackupArgs),
    /// Restore a backup into an empty data folder
    Restore(crate::backup::RestoreArgs),
    /// Write man pages and shell completions into DIR (for packages)
    #[command(hide = true)]
    WriteDocs { dir: PathBuf },
    /// Print the GPUs transcription would use, one a line (the service runs
    /// this to look for one without loading GPU drivers itself)
    #[command(hide = true)]
    Gpus,
}

#[derive(Subcommand)]
pub enum MeetingsCommand {
    /// List meetings, newest first
    List {
        /// Only meetings whose title, transcript or notes match
        #[arg(long, short)]
        query: Option<String>,
        #[arg(long, default_value_t = 50)]
        limit: i64,
        #[arg(long, default_value_t = 0)]
        offset: i64,
        #[arg(long)]
        json: bool,
    },
    /// Show one meeting with notes, action items and markers
    Show {
        id: String,
        #[arg(long)]
        json: bool,
    },
    /// Delete a meeting and its audio
    Delete { id: String },
}

#[derive(Args)]
pub struct TranscriptArgs {
    pub id: String,
    /// json, md, srt, vtt or txt
    #[arg(long, short, default_value = "txt")]
    pub format: String,
}

#[derive(Args)]
pub struct SearchArgs {
    /// Words, "quoted phrases" or prefix*
    #[arg(required = true)]
    pub query: Vec<String>,
    #[arg(long)]
    pub limit: Option<i64>,
    #[arg(long)]
    pub json: bool,
}

#[derive(Subcommand)]
pub enum PairingsCommand {
    /// List paired extensions
    List(JsonFlag),
    /// Revoke a pairing: its token stops working at once
    Revoke { id: String },
}

#[derive(Subcommand)]
pub enum SettingsCommand {
    /// Show effective settings, or one of them (dotted key, e.g. general.user_name)
    Get {
        key: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Change a setting; VALUE is JSON when it parses as JSON, else a string
    Set { key: String, value: String },
}

#[derive(Subcommand)]
pub enum LicenseCommand {
    /// Install the licence in FILE (license.json format)
    Install { file: PathBuf },
}

pub async fn run(context: Context, command: Command) -> Result<(), Failure> {
    match command {
        Command::Serve(args) => crate::serve::run(context, args).await,
        Command::Record(sub) => crate::record::run(&context, sub).await,
        Command::Status(flag) => status(&connect(&context, Channel::Api)?, flag.json).await,
        Command::Meetings(sub) => meetings(&connect(&context, Channel::Api)?, sub).await,
        Command::Transcript(args) => {
            let text =
                connect(&context, Channel::Api)?.transcript_text(&args.id, &args.format).await?;
            print!("{text}");
            Ok(())
        }
        Command::Search(args) => search(&connect(&context, Channel::Api)?, args).await,
        Command::Import(args) => {
            crate::import::run(&connect(&context, Channel::Person)?, args).await
        }
        Command::Pair(flag) => pair(&connect(&context, Channel::Person)?, flag.json).await,
        Command::Pairings(sub) => pairings(&connect(&context, Channel::Person)?, sub).await,
        Command::Open(args) => {
            crate::desktop::open(&connect(&context, Channel::Person)?, args).await
        }
        Command::DesktopIntegration(sub) => crate::desktop::integration(sub),
        Command::Settings(sub) => settings(&context, sub).await,
        Command::Policy(flag) => policy(&connect(&context, Channel::Api)?, flag.json).await,
        Command::License(LicenseCommand::Install { file }) => {
            install_license(&connect(&context, Channel::Person)?, &file).await
        }
        Command::Models(sub) => crate::models::run(&context, sub).await,
        Command::Export(args) => crate::ai::export(&context, args).await,
        Command::Ai(sub) => crate::ai::run(&context, sub).await,
        Command::Backup(args) => crate::backup::backup(&context, args).await,
        Command::Restore(args) => crate::backup::restore(&context, args).await,
        // Answered in main, which knows the whole command line.
        Command::WriteDocs { .. } | Command::Gpus => Ok(()),
    }
}

async fn status(client: &Client, json: bool) -> Result<(), Failure> {
    let health = client.health().await?;
    if json {
        return output::json(&health);
    }
    let recording = match &health.recording.meeting_id {
        Some(id) if health.recording.paused == Some(true) => format!("paused recording {id}"),
        Some(id) if health.recording.active => format!("recording meeting {id}"),
        _ => "not recording".to_string(),
    };
    println!("recorder {} is running at {} ({recording})", health.version, client.base());
    Ok(())
}

async fn meetings(client: &Client, command: MeetingsCommand) -> Result<(), Failure> {
    match command {
        MeetingsCommand::List { query, limit, offset, json } => {
            let mut params = vec![("limit", limit.to_string()), ("offset", offset.to_string())];
            if let Some(q) = query {
                params.push(("q", q));
            }
            let list = client.meetings(&params).await?;
            if json {
                return output::json(&list);
            }
            output::meeting_table(&list);
            Ok(())
        }
        MeetingsCommand::Show { id, json } => {
            let meeting = client.meeting(&id).await?;
            if json {
                return output::json(&meeting);
            }
            output::meeting_details(&meeting);
            Ok(())
        }
        MeetingsCommand::Delete { id } => {
            client.delete_meeting(&id).await?;
            println!("deleted meeting {id}");
            Ok(())
        }
    }
}

async fn search(client: &Client, args: SearchArgs) -> Result<(), Failure> {
    let results = client.search(&args.query.join(" "), args.limit).await?;
    if args.json {
        return output::json(&results);
    }
    output::search_results(&results);
    Ok(())
}

async fn pair(client: &Client, json: bool) -> Result<(), Failure> {
    let code = client.pairing_code().await?;
    if json {
        return output::json(&code);
    }
    println!("Pairing code: {}", code.code);
    println!("Enter it in the browser extension within 2 minutes; it works once.");
    Ok(())
}

async fn pairings(client: &Client, command: PairingsCommand) -> Result<(), Failure> {
    match command {
        PairingsCommand::List(flag) => {
            let list = client.pairings().await?;
            if flag.json {
                return output::json(&list);
            }
            output::pairing_table(&list);
            Ok(())
        }
        PairingsCommand::Revoke { id } => {
            client.revoke_pairing(&id).await?;
            println!("revoked pairing {id}");
            Ok(())
        }
    }
}

async fn settings(context: &Context, command: SettingsCommand) -> Result<(), Failure> {
    match command {
        SettingsCommand::Get { key, json } => {
            let settings = connect(context, Channel::Api)?.settings().await?;
            let value = match &key {
                Some(key) => lookup(&settings, key)
                    .ok_or(Failure { message: format!("no setting named {key}"), exit_code: 4 })?,
                None => settings,
            };
            if json || value.is_object() {
                return output::json(&value);
            }
            println!("{}", output::plain(&value));
            Ok(())
        }
        SettingsCommand::Set { key, value } => {
            let value = serde_json::from_str::<Value>(&value).unwrap_or(Value::String(value));
            let patch = nested(&key, value);
            let client = connect(context, Channel::Person)?;
            let updated = client.patch_settings(&patch).await?;
            let shown = lookup(&updated, &key).unwrap_or(Value::Null);
            println!("{key} = {}", output::plain(&shown));
            Ok(())
        }
    }
}

fn lookup(settings: &Value, key: &str) -> Option<Value> {
    key.split('.').try_fold(settings, |node, part| node.get(part)).cloned()
}

/// `general.user_name` + value → `{"general": {"user_name": value}}`
fn nested(key: &str, value: Value) -> Value {
    key.rsplit('.').fold(value, |inner, part| {
        let mut object = serde_json::Map::new();
        object.insert(part.to_string(), inner);
        Value::Object(object)
    })
}

async fn policy(client: &Client, json: bool) -> Result<(), Failure> {
    let report = client.policy().await?;
    if json {
        return output::json(&report);
    }
    output::policy_table(&report);
    Ok(())
}

async fn install_license(client: &Client, file: &std::path::Path) -> Result<(), Failure> {
    let bytes = std::fs::read(file)
        .map_err(|error| Failure::general(format!("cannot read {}: {error}", file.display())))?;
    let license: LicenseFile = serde_json::from_slice(&bytes).map_err(|error| {
        Failure::general(format!("{} is not a licence file: {error}", file.display()))
    })?;
    let plan = client.install_license(&license).await?;
    println!("licence installed: plan {}", plan.plan);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn dotted_keys_become_nested_patches() {
        assert_eq!(
            nested("general.user_name", json!("Ada")),
            json!({"general": {"user_name": "Ada"}})
        );
        assert_eq!(lookup(&json!({"a": {"b": 1}}), "a.b"), Some(json!(1)));
        assert_eq!(lookup(&json!({"a": {"b": 1}}), "a.c"), None);
    }
}
