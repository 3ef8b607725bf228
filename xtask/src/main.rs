//! `cargo xtask`: developer tasks that are not part of the shipped binaries.
//!
//! `seed` fills a data folder with synthetic meetings for benchmarks, writing
//! straight through `recorder-store` (the service must not be running).

mod corpus;
mod seed;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "xtask", about = "Developer tasks for the recorder workspace")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Seed a data folder with synthetic meetings (stop the service first).
    ///
    /// Writes DIR/recorder.db directly through the store crate, so the service
    /// must NOT be running on DIR while this runs. DIR is created if needed; a
    /// DIR that already holds meetings is refused unless --append is given.
    ///
    /// Each meeting lasts one hour (segments spread evenly over 3 600 000 ms),
    /// one meeting per day going back from 2026-11-01, with a summary note and a
    /// few action items. The text is English-like and deterministic for a given
    /// --seed. About 5 segments of the whole corpus contain the rare word
    /// "zeppelin", and a few hundred contain the phrase "quarterly roadmap
    /// review" (useful search probes).
    Seed(SeedArgs),
}

#[derive(clap::Args)]
struct SeedArgs {
    /// Data folder to fill (recorder.db is created inside it)
    #[arg(long, value_name = "DIR")]
    data_dir: PathBuf,
    /// Number of meetings to create
    #[arg(long, default_value_t = 2000, value_name = "N")]
    meetings: usize,
    /// Transcript segments per meeting
    #[arg(long, default_value_t = 900, value_name = "N")]
    segments: usize,
    /// Seed of the text generator (same seed, same text)
    #[arg(long, default_value_t = 42, value_name = "N")]
    seed: u64,
    /// Add to a folder that already holds meetings instead of refusing
    #[arg(long)]
    append: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Seed(args) => seed::run(&seed::Options {
            data_dir: args.data_dir,
            meetings: args.meetings,
            segments: args.segments,
            seed: args.seed,
            append: args.append,
        }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("xtask: {error:#}");
            ExitCode::FAILURE
        }
    }
}
