//! `recorder`: the service (`recorder serve`) and the command line for people.
//!
//! Exit codes: 0 done; 1 the service refused or failed; 2 usage error; 3 the
//! service is not running or the data folder has no token; 4 not found.

mod ai;
mod backup;
mod commands;
mod context;
mod desktop;
mod import;
mod models;
mod notes_models;
mod output;
mod record;
mod serve;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;

#[derive(Parser)]
#[command(
    name = "recorder",
    version,
    about = "Local-first meeting recorder: service and command line"
)]
struct Cli {
    /// Data folder (default: RECORDER_DATA_DIR, else the platform folder)
    #[arg(long, global = true, value_name = "DIR")]
    data_dir: Option<PathBuf>,
    /// API port (default: general.api_port in settings.json, else 47321)
    #[arg(long, global = true, value_name = "N")]
    port: Option<u16>,
    #[command(subcommand)]
    command: commands::Command,
}

fn main() -> ExitCode {
    // Before any thread: fewer allocator arenas, less memory held while
    // recording (recorder_sandbox::allocator). A cap the person set is kept.
    if recorder_settings::Environment::from_process().malloc_arena_max.is_none() {
        recorder_sandbox::allocator::limit_arenas();
    }
    let cli = Cli::parse();
    if let commands::Command::WriteDocs { dir } = &cli.command {
        let command = <Cli as clap::CommandFactory>::command();
        return match recorder_client::docs::write_docs(command, dir) {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("recorder: cannot write the docs into {}: {error}", dir.display());
                ExitCode::from(1)
            }
        };
    }
    if let commands::Command::Gpus = &cli.command {
        for name in recorder_stt::engine::gpus_here() {
            println!("{name}");
        }
        return ExitCode::SUCCESS;
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("recorder: cannot start: {error}");
            return ExitCode::from(1);
        }
    };
    let context = context::Context { data_dir: cli.data_dir, port: cli.port };
    match runtime.block_on(commands::run(context, cli.command)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("recorder: {}", failure.message);
            ExitCode::from(failure.exit_code)
        }
    }
}
