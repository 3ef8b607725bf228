//! `recorder-desktop`: Recorder as a desktop program. One process runs the
//! service in-process (or attaches to a `recorder serve` already running for
//! the same data folder), shows the app's UI in a window signed in through the
//! person's channel, and adds a tray icon, notifications for record prompts,
//! `recorder://` links and start at login. See ARCHITECTURE.md, "Desktop app".

mod actions;
mod autostart;
mod backend;
mod follow;
mod notify;
mod shell;
mod tray;
mod view;
mod window;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;

/// Recorder's desktop app.
#[derive(Parser, Debug, Clone)]
#[command(name = "recorder-desktop", version, about)]
pub struct Options {
    /// A `recorder://` link to open (such as recorder://pair), or a page of
    /// the app such as /settings/general
    pub link: Option<String>,
    /// Start with the window hidden (the tray icon only): what start at login uses
    #[arg(long)]
    pub hidden: bool,
    /// Data folder (else RECORDER_DATA_DIR, else the platform's folder)
    #[arg(long, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// API port (else general.api_port from settings.json, else 47321)
    #[arg(long, value_name = "N")]
    pub port: Option<u16>,
    /// Where audio comes from (devices, or WAV files for demos and tests)
    #[cfg(feature = "in-process")]
    #[command(flatten)]
    pub audio: recorder_capture::SourceChoice,
    /// Write the man page and shell completions into DIR (for packages)
    #[arg(long, hide = true, value_name = "DIR")]
    pub write_docs: Option<PathBuf>,
}

fn main() -> ExitCode {
    // GTK would open OpenGL when it opens the display, only to choose
    // visuals: that maps Mesa (with LLVM on software rendering), about 50 MB,
    // into an app that mostly sits in the tray. The window's web view renders
    // in WebKit's own process either way. A GDK_GL the person set is kept.
    let environment = recorder_settings::Environment::from_process();
    #[cfg(target_os = "linux")]
    if environment.gdk_gl.is_none() {
        std::env::set_var("GDK_GL", "disable");
    }
    // Fewer allocator arenas, less memory held while recording
    // (recorder_sandbox::allocator). A cap the person set is kept.
    if environment.malloc_arena_max.is_none() {
        recorder_sandbox::allocator::limit_arenas();
    }
    let options = Options::parse();
    if let Some(dir) = &options.write_docs {
        let command = <Options as clap::CommandFactory>::command();
        return match recorder_client::docs::write_docs(command, dir) {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("recorder-desktop: cannot write the docs: {error}");
                ExitCode::from(1)
            }
        };
    }
    match shell::start::run(options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("recorder-desktop: {error:#}");
            ExitCode::FAILURE
        }
    }
}
