//! Where the service logs: stderr and `logs/recorder.log` in the data folder
//! (Settings → Diagnostics shows its newest lines). `recorder serve` and the
//! desktop app, which runs the service in-process, log alike. The file rotates
//! by size (`log_file.rs`).

use std::io::IsTerminal;
use std::sync::Mutex;

use recorder_settings::{DataDir, Environment};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{fmt, EnvFilter, Layer};

use crate::base::log_file::{RotatingFile, MAX_BYTES};

/// Installs the process's logger (once; later calls change nothing). The
/// level comes from `RECORDER_LOG` (default `info`).
pub fn init_logging(data_dir: &DataDir, environment: &Environment) {
    let filter = || {
        EnvFilter::try_new(environment.log_filter.as_deref().unwrap_or("info"))
            .unwrap_or_else(|_| EnvFilter::new("info"))
    };
    let ansi = std::io::stderr().is_terminal();
    let stderr = fmt::layer().with_ansi(ansi).with_writer(std::io::stderr).with_filter(filter());
    let file =
        RotatingFile::open(&data_dir.logs().join("recorder.log"), MAX_BYTES).ok().map(|file| {
            fmt::layer().with_ansi(false).with_writer(Mutex::new(file)).with_filter(filter())
        });
    let _ = tracing_subscriber::registry().with(stderr).with(file).try_init();
}
