//! `recorder export` and `recorder ai …`: Markdown export of a meeting, and the
//! notes providers' API keys (read without echo, sent only to the local service,
//! which keeps them in the OS credential store).

use std::io::{BufRead, IsTerminal};
use std::path::PathBuf;

use clap::{Args, Subcommand};
use serde_json::{json, Value};

use crate::context::{connect, Channel, Context, Failure};
use crate::output;

#[derive(Args)]
pub struct ExportArgs {
    /// The meeting's id
    pub id: String,
    /// The folder to write into (default: the export folder of the settings)
    #[arg(long)]
    pub to: Option<PathBuf>,
    #[arg(long)]
    pub json: bool,
}

#[derive(Subcommand)]
pub enum AiCommand {
    /// Save the API key of a notes provider (anthropic, openai_compatible, local),
    /// read from standard input without echo
    SetKey { provider: String },
    /// Remove a saved API key
    ClearKey { provider: String },
    /// Which providers have a saved key, and where it is kept
    Keys {
        #[arg(long)]
        json: bool,
    },
    /// The note templates for custom notes (built-in and yours)
    Templates {
        #[arg(long)]
        json: bool,
    },
}

pub async fn export(context: &Context, args: ExportArgs) -> Result<(), Failure> {
    let folder = args.to.map(absolute).transpose()?;
    let body = match folder {
        Some(folder) => json!({ "folder": folder }),
        None => json!({}),
    };
    let person = connect(context, Channel::Person)?;
    let path = format!("/ui/meetings/{}/export", args.id);
    let reply: Value = person.post(&path, &body).await?;
    if args.json {
        return output::json(&reply);
    }
    println!("{}", reply["path"].as_str().unwrap_or_default());
    Ok(())
}

/// A folder as the service needs it: absolute, or `~`-relative as typed.
fn absolute(folder: PathBuf) -> Result<String, Failure> {
    let text = folder.to_string_lossy().into_owned();
    if folder.is_absolute() || text == "~" || text.starts_with("~/") {
        return Ok(text);
    }
    let current = std::env::current_dir().map_err(Failure::general)?;
    Ok(current.join(folder).to_string_lossy().into_owned())
}

pub async fn run(context: &Context, command: AiCommand) -> Result<(), Failure> {
    let person = connect(context, Channel::Person)?;
    match command {
        AiCommand::SetKey { provider } => {
            let key = read_key(&provider)?;
            person.put(&format!("/ui/ai/keys/{provider}"), &json!({ "key": key })).await?;
            println!("saved the {provider} API key");
            Ok(())
        }
        AiCommand::ClearKey { provider } => {
            person.delete(&format!("/ui/ai/keys/{provider}")).await?;
            println!("removed the {provider} API key");
            Ok(())
        }
        AiCommand::Keys { json } => {
            let reply: Value = person.get("/ui/ai/keys", &[]).await?;
            if json {
                return output::json(&reply);
            }
            for key in reply["keys"].as_array().into_iter().flatten() {
                let place = key["location"]
                    .as_str()
                    .map_or("not set".to_string(), |place| format!("saved ({place})"));
                println!("{:<18} {place}", key["provider"].as_str().unwrap_or_default());
            }
            Ok(())
        }
        AiCommand::Templates { json } => {
            let reply: Value = person.get("/ui/templates", &[]).await?;
            if json {
                return output::json(&reply);
            }
            for template in reply["templates"].as_array().into_iter().flatten() {
                let origin = if template["builtin"] == true { "built-in" } else { "yours" };
                println!(
                    "{:<20} {} ({origin})",
                    template["id"].as_str().unwrap_or_default(),
                    template["name"].as_str().unwrap_or_default()
                );
            }
            Ok(())
        }
    }
}

/// The key from the terminal without echo, or the first line of piped input.
fn read_key(provider: &str) -> Result<String, Failure> {
    let key = if std::io::stdin().is_terminal() {
        rpassword::prompt_password(format!("API key for {provider} (not shown): "))
            .map_err(Failure::general)?
    } else {
        let mut line = String::new();
        std::io::stdin().lock().read_line(&mut line).map_err(Failure::general)?;
        line
    };
    let key = key.trim().to_string();
    if key.is_empty() {
        return Err(Failure::usage("no API key was given on standard input"));
    }
    Ok(key)
}
