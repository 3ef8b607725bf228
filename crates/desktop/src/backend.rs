//! The service the app shows: started in this process (the same
//! `Service::bind`/`serve` as `recorder serve`), or, when its port is taken by
//! a `recorder serve` of the same data folder, that one. Either way the app
//! speaks to it only over loopback HTTP, as the person (`ui_token`).

use anyhow::{bail, Context};
use recorder_client::{Client, ClientError};
use recorder_settings::{DataDir, Environment};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::Options;

/// The service in use and the person's client for it.
pub struct Backend {
    pub client: Client,
    /// Set when this process runs the service; `None` when attached.
    pub owned: Option<OwnedService>,
}

/// A service running in this process.
pub struct OwnedService {
    pub shutdown: CancellationToken,
    pub task: JoinHandle<anyhow::Result<()>>,
}

/// Starts the service, or attaches to the one of this data folder.
pub async fn start(options: &Options) -> anyhow::Result<Backend> {
    let environment = Environment::from_process();
    let data_dir = DataDir::resolve(options.data_dir.clone(), &environment)?;
    data_dir.prepare()?;
    own::start(options, data_dir, environment).await
}

#[cfg(feature = "in-process")]
mod own {
    use anyhow::anyhow;
    use recorder_service::{AddressInUse, Config, FolderInUse, Service};
    use tokio_util::sync::CancellationToken;

    use super::*;

    pub async fn start(
        options: &Options,
        data_dir: DataDir,
        environment: Environment,
    ) -> anyhow::Result<Backend> {
        recorder_service::init_logging(&data_dir, &environment);
        let audio = options
            .audio
            .open(environment.pipewire_runtime_dir.as_deref())
            .map_err(|message| anyhow!(message))?;
        let shutdown = CancellationToken::new();
        let config = Config { data_dir: data_dir.clone(), port: options.port, environment, audio };
        match Service::bind(config, shutdown.clone()).await {
            Ok(service) => {
                let port = service.local_addr()?.port();
                tracing::info!(port, "desktop: service started in-process");
                let client = person_client(&data_dir, port)?;
                let task = tokio::spawn(service.serve());
                Ok(Backend { client, owned: Some(OwnedService { shutdown, task }) })
            }
            Err(error) => {
                if let Some(AddressInUse(port)) = error.downcast_ref::<AddressInUse>() {
                    return attach(&data_dir, *port).await;
                }
                // This folder's service runs on another port: use that one.
                match error.downcast_ref::<FolderInUse>() {
                    Some(FolderInUse { port: Some(port), .. }) => attach(&data_dir, *port).await,
                    _ => Err(error),
                }
            }
        }
    }
}

/// A build without the service (what is cross-checked for macOS and
/// Windows): it attaches to `recorder serve` only.
#[cfg(not(feature = "in-process"))]
mod own {
    use recorder_settings::SettingsDocument;

    use super::*;

    pub async fn start(
        options: &Options,
        data_dir: DataDir,
        environment: Environment,
    ) -> anyhow::Result<Backend> {
        let filter = environment.log_filter.as_deref().unwrap_or("info");
        let _ = tracing_subscriber::fmt()
            .with_env_filter(tracing_subscriber::EnvFilter::new(filter))
            .with_writer(std::io::stderr)
            .try_init();
        let port = match options.port {
            Some(port) => port,
            None => {
                SettingsDocument::load_or_create(&data_dir.settings())?.typed().general.api_port
            }
        };
        attach(&data_dir, port).await
    }
}

/// The port is taken: by this data folder's service (its `ui_token` is
/// accepted there), or by something else, which is an error.
async fn attach(data_dir: &DataDir, port: u16) -> anyhow::Result<Backend> {
    let client = person_client(data_dir, port)?;
    match client.get::<serde_json::Value>("/ui/health", &[]).await {
        Ok(_) => {
            tracing::info!(port, "desktop: service of this data folder attached (recorder serve)");
            Ok(Backend { client, owned: None })
        }
        Err(ClientError::Api { status: 401, .. }) => bail!(
            "port {port} is used by a Recorder service of another data folder; stop it or give this one another port (--port)"
        ),
        Err(ClientError::Impostor(_)) => bail!(
            "something else is listening on port {port}; it is not this Recorder (no token was sent; change general.api_port or use --port)"
        ),
        Err(ClientError::Unreachable(_)) if cfg!(not(feature = "in-process")) => bail!(
            "no Recorder service runs on port {port}: start it with `recorder serve` (this build cannot run it in-process)"
        ),
        Err(_) => bail!(
            "address in use: 127.0.0.1:{port} is taken by another program (change general.api_port or use --port)"
        ),
    }
}

fn person_client(data_dir: &DataDir, port: u16) -> anyhow::Result<Client> {
    let path = data_dir.ui_token();
    let token = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    Ok(Client::new(&format!("http://127.0.0.1:{port}"), token.trim())?)
}
