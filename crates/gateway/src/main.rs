//! `recorder-gateway`: MCP over stdio by default; `--http` adds MCP Streamable
//! HTTP on 127.0.0.1:47322/mcp, `--a2a` adds the A2A agent on 127.0.0.1:47323.
//! Logs go to stderr (stdout belongs to MCP).
//!
//! It stops on SIGTERM or SIGINT, and, when it serves MCP over stdio, at the
//! end of stdin (an MCP host closing it), whatever else it serves: the HTTP
//! servers stop taking connections, open requests get [`GRACE`] to finish,
//! and the process ends without waiting on the thread that reads stdin.
//!
//! Exit codes: 0 done; 1 failed (e.g. `address in use`); 2 usage error;
//! 3 the service is not running or the data folder has no token.

use std::net::{Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use clap::Parser;
use recorder_client::stop::StopSignals;
use recorder_gateway::config::{Config, StartError};
use recorder_gateway::guard::Token;
use recorder_gateway::mcp::{http_app, RecorderMcp};
use recorder_gateway::skills::{SkillRunner, Skills};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tracing_subscriber::EnvFilter;

#[derive(Parser)]
#[command(
    name = "recorder-gateway",
    version,
    about = "MCP server and A2A agent over the recorder's local API"
)]
struct Args {
    /// Data folder (default: RECORDER_DATA_DIR, else the platform folder)
    #[arg(long, value_name = "DIR")]
    data_dir: Option<PathBuf>,
    /// Port of the local API (default: general.api_port in settings.json, else 47321)
    #[arg(long, value_name = "N")]
    api_port: Option<u16>,
    /// Also serve MCP over Streamable HTTP at http://127.0.0.1:<http-port>/mcp
    #[arg(long)]
    http: bool,
    #[arg(long, value_name = "N", default_value_t = 47322)]
    http_port: u16,
    /// Also serve the A2A agent at http://127.0.0.1:<a2a-port>/
    #[arg(long)]
    a2a: bool,
    #[arg(long, value_name = "N", default_value_t = 47323)]
    a2a_port: u16,
    /// Do not serve MCP on stdin/stdout (with --http or --a2a, e.g. as a background service)
    #[arg(long)]
    no_stdio: bool,
    /// Write the man page and shell completions into DIR (for packages)
    #[arg(long, hide = true, value_name = "DIR")]
    write_docs: Option<PathBuf>,
}

/// How long open requests (a tool call, an SSE stream) get to finish once
/// the gateway is told to stop; then they are dropped.
const GRACE: Duration = Duration::from_millis(750);

fn main() -> ExitCode {
    let args = Args::parse();
    if let Some(dir) = &args.write_docs {
        let command = <Args as clap::CommandFactory>::command();
        return match recorder_client::docs::write_docs(command, dir) {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("recorder-gateway: cannot write the docs: {error}");
                ExitCode::from(1)
            }
        };
    }
    if args.no_stdio && !args.http && !args.a2a {
        eprintln!("recorder-gateway: --no-stdio needs --http or --a2a (nothing to serve)");
        return ExitCode::from(2);
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("recorder-gateway: cannot start: {error}");
            return ExitCode::from(1);
        }
    };
    let outcome = runtime.block_on(run(args));
    // The thread reading stdin blocks in read(2) until the host writes or
    // closes it: the runtime must not wait for it to end.
    runtime.shutdown_timeout(Duration::from_millis(100));
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("recorder-gateway: {error}");
            ExitCode::from(error.exit_code())
        }
    }
}

async fn run(args: Args) -> Result<(), StartError> {
    // From the first moment: a signal while the gateway checks the service
    // stops it once it is up, not by the default action.
    let signals = StopSignals::listen();
    let config = Config::load(args.data_dir.clone(), args.api_port)?;
    init_logging(&config);
    let client = config.client()?;
    config.check(&client).await?;
    let runner: Arc<dyn SkillRunner> = Arc::new(Skills::new(client));
    let token = Token::new(&config.token);
    let shutdown = CancellationToken::new();
    let mut servers = tokio::task::JoinSet::new();
    if args.http {
        let listener = bind(args.http_port).await?;
        let url = format!("http://{}/mcp", listener.local_addr().map_err(other)?);
        eprintln!("recorder-gateway: MCP listening on {url}");
        let app = http_app(runner.clone(), token.clone(), shutdown.clone());
        servers.spawn(serve(listener, app, shutdown.clone()));
    }
    if args.a2a {
        let listener = bind(args.a2a_port).await?;
        let url = format!("http://{}/", listener.local_addr().map_err(other)?);
        eprintln!("recorder-gateway: A2A listening on {url}");
        let app = recorder_gateway::a2a::app(runner.clone(), token.clone(), url);
        servers.spawn(serve(listener, app, shutdown.clone()));
    }
    let stdio_ended = CancellationToken::new();
    if !args.no_stdio {
        let stdio = RecorderMcp::new(runner.clone()).serve_stdio();
        let (ended, stop) = (stdio_ended.clone(), shutdown.clone());
        servers.spawn(async move {
            tokio::select! {
                served = stdio => match served {
                    Ok(()) => tracing::info!("MCP over stdio ended: stdin was closed"),
                    Err(error) => tracing::info!("MCP over stdio ended: {error}"),
                },
                () = stop.cancelled() => {}
            }
            ended.cancel();
        });
    }
    tokio::select! {
        signal = signals.next() => tracing::info!("{signal}: stopping"),
        () = stdio_ended.cancelled() => {}
    }
    shutdown.cancel();
    let finished = async { while servers.join_next().await.is_some() {} };
    if tokio::time::timeout(GRACE, finished).await.is_err() {
        tracing::info!("requests still open after {} ms were dropped", GRACE.as_millis());
    }
    servers.shutdown().await;
    Ok(())
}

async fn bind(port: u16) -> Result<TcpListener, StartError> {
    let address = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    TcpListener::bind(address).await.map_err(|error| {
        if error.kind() == std::io::ErrorKind::AddrInUse {
            tracing::error!("address in use: {address}");
            StartError::Other(format!("address in use: {address}"))
        } else {
            StartError::Other(format!("cannot listen on {address}: {error}"))
        }
    })
}

async fn serve(listener: TcpListener, app: Router, shutdown: CancellationToken) {
    let served =
        axum::serve(listener, app).with_graceful_shutdown(shutdown.cancelled_owned()).await;
    if let Err(error) = served {
        tracing::error!("HTTP server stopped: {error}");
    }
}

/// Logs to stderr, and to the MCP clients that ask for them (`logging/setLevel`).
fn init_logging(config: &Config) {
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    let filter =
        EnvFilter::try_new(config.environment.log_filter.as_deref().unwrap_or("info,rmcp=warn"))
            .unwrap_or_else(|_| EnvFilter::new("info"));
    let _ = tracing_subscriber::registry()
        .with(filter)
        .with(tracing_subscriber::fmt::layer().with_writer(std::io::stderr))
        .with(recorder_gateway::mcp::logging::Forward)
        .try_init();
}

fn other(error: impl std::fmt::Display) -> StartError {
    StartError::Other(error.to_string())
}
