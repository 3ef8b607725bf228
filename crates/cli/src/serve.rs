//! `recorder serve`: logging to stderr and `logs/recorder.log`, signals, and the
//! service itself.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use clap::Args;
use recorder_capture::files::FileSource;
use recorder_capture::AudioSource;

use recorder_service::{AddressInUse, Config, Service};
use recorder_settings::{DataDir, Environment};
use tokio_util::sync::CancellationToken;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{fmt, EnvFilter, Layer};

use crate::commands::{Context, Failure};

#[derive(Args)]
pub struct ServeArgs {
    /// Play this WAV file as the microphone (for demos and tests)
    #[arg(long, value_name = "A.wav")]
    pub mic_file: Option<PathBuf>,
    /// Play this WAV file as the system audio (the other side of the call)
    #[arg(long, value_name = "B.wav")]
    pub sys_file: Option<PathBuf>,
    /// Play the files X times faster than real time
    #[arg(long, value_name = "X", default_value_t = 1.0)]
    pub audio_speed: f64,
    /// Capture backend: pipewire or pulseaudio on Linux (default: PipeWire
    /// when it runs, else PulseAudio); env RECORDER_AUDIO_BACKEND
    #[arg(long, value_name = "NAME", env = "RECORDER_AUDIO_BACKEND")]
    pub audio_backend: Option<String>,
}

impl ServeArgs {
    /// Files in place of devices when either file is given.
    fn audio_source(&self, environment: &Environment) -> Result<Arc<dyn AudioSource>, Failure> {
        if self.mic_file.is_none() && self.sys_file.is_none() {
            let pipewire = environment.pipewire_runtime_dir.as_deref();
            return recorder_capture::platform_source(self.audio_backend.as_deref(), pipewire)
                .map_err(Failure::usage);
        }
        if !(self.audio_speed.is_finite() && self.audio_speed > 0.0) {
            return Err(Failure::usage("--audio-speed must be a number above 0"));
        }
        for path in [&self.mic_file, &self.sys_file].into_iter().flatten() {
            if !path.is_file() {
                return Err(Failure::usage(format!("no audio file at {}", path.display())));
            }
        }
        let absolute = |path: &Option<PathBuf>| {
            path.as_ref().map(|p| std::path::absolute(p).unwrap_or_else(|_| p.clone()))
        };
        Ok(Arc::new(FileSource {
            mic: absolute(&self.mic_file),
            sys: absolute(&self.sys_file),
            speed: self.audio_speed,
        }))
    }
}

pub async fn run(context: Context, args: ServeArgs) -> Result<(), Failure> {
    let environment = Environment::from_process();
    let audio = args.audio_source(&environment)?;
    let data_dir = DataDir::resolve(context.data_dir, &environment).map_err(Failure::general)?;
    data_dir.prepare().map_err(Failure::general)?;
    init_logging(&data_dir, &environment);
    let shutdown = CancellationToken::new();
    let config = Config { data_dir, port: context.port, environment, audio };
    let service = Service::bind(config, shutdown.clone()).await.map_err(|error| match error
        .downcast_ref::<AddressInUse>(
    ) {
        Some(in_use) => Failure::general(in_use),
        None => Failure::general(format!("{error:#}")),
    })?;
    let address = service.local_addr().map_err(Failure::general)?;
    tracing::info!(%address, "listening");
    println!("recorder listening on http://{address}");
    let _ = std::io::stdout().flush();
    tokio::spawn(stop_on_signal(shutdown));
    service.serve().await.map_err(|error| Failure::general(format!("{error:#}")))
}

async fn stop_on_signal(shutdown: CancellationToken) {
    wait_for_signal().await;
    tracing::info!("stopping");
    shutdown.cancel();
}

#[cfg(unix)]
async fn wait_for_signal() {
    use tokio::signal::unix::{signal, SignalKind};
    let (Ok(mut interrupt), Ok(mut terminate)) =
        (signal(SignalKind::interrupt()), signal(SignalKind::terminate()))
    else {
        tracing::error!("cannot listen for signals; stop the service by killing it");
        return std::future::pending().await;
    };
    tokio::select! {
        _ = interrupt.recv() => {}
        _ = terminate.recv() => {}
    }
}

#[cfg(not(unix))]
async fn wait_for_signal() {
    if tokio::signal::ctrl_c().await.is_err() {
        std::future::pending::<()>().await;
    }
}

/// Logs go to stderr and to `logs/recorder.log` (Settings, Diagnostics, Logs).
fn init_logging(data_dir: &DataDir, environment: &Environment) {
    let filter = || {
        EnvFilter::try_new(environment.log_filter.as_deref().unwrap_or("info"))
            .unwrap_or_else(|_| EnvFilter::new("info"))
    };
    let ansi = std::io::stderr().is_terminal();
    let stderr = fmt::layer().with_ansi(ansi).with_writer(std::io::stderr).with_filter(filter());
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(data_dir.logs().join("recorder.log"))
        .ok()
        .map(|file| {
            fmt::layer().with_ansi(false).with_writer(Mutex::new(file)).with_filter(filter())
        });
    let _ = tracing_subscriber::registry().with(stderr).with(file).try_init();
}
