//! `recorder serve`: logging to stderr and `logs/recorder.log`, signals, and the
//! service itself.

use std::io::Write;

use clap::Args;
use recorder_capture::SourceChoice;
use recorder_client::stop::StopSignals;

use recorder_service::{AddressInUse, Config, Service};
use recorder_settings::{DataDir, Environment};
use tokio_util::sync::CancellationToken;

use crate::context::{Context, Failure};

#[derive(Args)]
pub struct ServeArgs {
    #[command(flatten)]
    pub audio: SourceChoice,
}

pub async fn run(context: Context, args: ServeArgs) -> Result<(), Failure> {
    // Listening from the start: a SIGTERM while the service opens its
    // database stops it as soon as it is up, not by the default action.
    let signals = StopSignals::listen();
    let environment = Environment::from_process();
    let pipewire = environment.pipewire_runtime_dir.as_deref();
    let audio = args.audio.open(pipewire).map_err(Failure::usage)?;
    let data_dir = DataDir::resolve(context.data_dir, &environment).map_err(Failure::general)?;
    data_dir.prepare().map_err(Failure::general)?;
    recorder_service::init_logging(&data_dir, &environment);
    // This program, under whatever name, answers `gpus` for the service.
    if let Ok(exe) = std::env::current_exe() {
        recorder_stt::engine::search_with(exe);
    }
    let shutdown = CancellationToken::new();
    let config = Config { data_dir, port: context.port, environment, audio };
    let service = Service::bind(config, shutdown.clone()).await.map_err(|error| match error
        .downcast_ref::<AddressInUse>(
    ) {
        Some(in_use) => Failure::general(in_use),
        None if recorder_service::is_storage_full(&format!("{error:#}")) => Failure::general(
            format!("the disk is full ({error:#}); free some space, then start again"),
        ),
        None => Failure::general(format!("{error:#}")),
    })?;
    let address = service.local_addr().map_err(Failure::general)?;
    tracing::info!(%address, "listening");
    println!("recorder listening on http://{address}");
    let _ = std::io::stdout().flush();
    tokio::spawn(stop_on_signal(signals, shutdown));
    service.serve().await.map_err(|error| Failure::general(format!("{error:#}")))
}

async fn stop_on_signal(signals: StopSignals, shutdown: CancellationToken) {
    let signal = signals.next().await;
    tracing::info!("{signal}: stopping");
    shutdown.cancel();
}
