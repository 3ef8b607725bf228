//! What every command starts from: the data folder and port it was given,
//! how it fails (a one-line message and an exit code), and a client for the
//! running service on the API or the person's channel.

use std::path::PathBuf;

use recorder_client::{Client, ClientError};
use recorder_settings::{configured_api_port, DataDir, Environment};

/// The global flags.
pub struct Context {
    pub data_dir: Option<PathBuf>,
    pub port: Option<u16>,
}

/// A failed command: a one-line message and an exit code.
pub struct Failure {
    pub message: String,
    pub exit_code: u8,
}

impl Failure {
    pub fn general(error: impl std::fmt::Display) -> Self {
        Failure { message: error.to_string(), exit_code: 1 }
    }

    /// A wrong use of the command line (exit code 2, as clap's own).
    pub fn usage(message: impl std::fmt::Display) -> Self {
        Failure { message: message.to_string(), exit_code: 2 }
    }
}

impl From<ClientError> for Failure {
    fn from(error: ClientError) -> Self {
        let exit_code = match &error {
            ClientError::Unreachable(_) | ClientError::Impostor(_) => 3,
            ClientError::Api { status: 404, .. } => 4,
            _ => 1,
        };
        let message = match &error {
            ClientError::Api { code, message, .. } => format!("{message} ({code})"),
            other => other.to_string(),
        };
        Failure { message, exit_code }
    }
}

/// Which token a command uses: `api_token`, or `ui_token` for the person's own actions.
pub(crate) enum Channel {
    Api,
    Person,
}

/// A client for the running service with the token of `channel`.
pub(crate) fn connect(context: &Context, channel: Channel) -> Result<Client, Failure> {
    let environment = Environment::from_process();
    let data_dir =
        DataDir::resolve(context.data_dir.clone(), &environment).map_err(Failure::general)?;
    let (path, name) = match channel {
        Channel::Api => (data_dir.api_token(), "api_token"),
        Channel::Person => (data_dir.ui_token(), "ui_token"),
    };
    let token = data_dir.read_token(&path).map_err(Failure::general)?.ok_or_else(|| Failure {
        message: format!(
            "no {name} in {}: start the service once with `recorder serve`",
            data_dir.root().display()
        ),
        exit_code: 3,
    })?;
    let port = context.port.unwrap_or_else(|| configured_api_port(&data_dir.settings()));
    Ok(Client::new(&format!("http://127.0.0.1:{port}"), &token)?)
}
