//! Where the gateway finds the service: the data folder (`--data-dir`, else
//! `RECORDER_DATA_DIR`, else the platform folder), its `api_token`, and the API
//! port from `settings.json` (`general.api_port`, else 47321). Every failure is
//! one line that says what to do.

use std::path::PathBuf;

use recorder_api_types::{CLIENT_HEADER, GATEWAY_CLIENT};
use recorder_client::{Client, ClientError};
use recorder_settings::{configured_api_port, DataDir, Environment};

/// Why the gateway cannot start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("{0}")]
    DataDir(String),
    #[error(
        "no api_token in {0}: the recorder service writes it on its first start (run `recorder serve`)"
    )]
    NoToken(String),
    #[error("the recorder service is not running at {0} (start it with `recorder serve`)")]
    NotRunning(String),
    #[error(
        "the recorder service at {0} refused the api_token in {1}: is it the same data folder?"
    )]
    TokenRefused(String, String),
    #[error("{0}")]
    Impostor(String),
    #[error("{0}")]
    Other(String),
}

impl StartError {
    /// Process exit status: 3 when the service or its token is missing (as the CLI).
    pub fn exit_code(&self) -> u8 {
        match self {
            StartError::NoToken(_)
            | StartError::NotRunning(_)
            | StartError::TokenRefused(..)
            | StartError::Impostor(_) => 3,
            _ => 1,
        }
    }
}

/// What the gateway needs to reach the service.
pub struct Config {
    pub data_dir: DataDir,
    pub token: String,
    pub api_base: String,
    pub environment: Environment,
}

impl Config {
    /// Reads the data folder; `api_port` overrides settings.json.
    pub fn load(data_dir: Option<PathBuf>, api_port: Option<u16>) -> Result<Config, StartError> {
        let environment = Environment::from_process();
        let data_dir = DataDir::resolve(data_dir, &environment)
            .map_err(|error| StartError::DataDir(error.to_string()))?;
        let token = data_dir
            .read_token(&data_dir.api_token())
            .map_err(|error| StartError::DataDir(error.to_string()))?
            .ok_or_else(|| StartError::NoToken(data_dir.root().display().to_string()))?;
        let port = api_port.unwrap_or_else(|| configured_api_port(&data_dir.settings()));
        let api_base = format!("http://127.0.0.1:{port}");
        Ok(Config { data_dir, token, api_base, environment })
    }

    /// The API client, marked as the gateway (agent requests).
    pub fn client(&self) -> Result<Client, StartError> {
        Client::new(&self.api_base, &self.token)
            .map(|client| client.with_header(CLIENT_HEADER, GATEWAY_CLIENT))
            .map_err(|error| StartError::Other(error.to_string()))
    }

    /// Checks that the service answers and accepts the token.
    pub async fn check(&self, client: &Client) -> Result<(), StartError> {
        // /v1/settings needs the token (health may not), so a stale token shows here.
        match client.settings().await {
            Ok(_) => Ok(()),
            Err(ClientError::Api { status: 401, .. }) => Err(StartError::TokenRefused(
                self.api_base.clone(),
                self.data_dir.root().display().to_string(),
            )),
            Err(ClientError::Unreachable(_)) => Err(StartError::NotRunning(self.api_base.clone())),
            Err(error @ ClientError::Impostor(_)) => Err(StartError::Impostor(error.to_string())),
            Err(error) => Err(StartError::Other(error.to_string())),
        }
    }
}
