//! SIGTERM and SIGINT for the programs that must stop when told (`recorder
//! serve`, `recorder-desktop`, `recorder-gateway`): listened for from the
//! program's first moment, so a signal that comes while it starts is kept
//! and answered with a clean stop once it is up, never by the default action
//! (which would kill a service half-started).

/// The two signals, listened for since [`StopSignals::listen`].
pub struct StopSignals {
    #[cfg(unix)]
    both: Option<(tokio::signal::unix::Signal, tokio::signal::unix::Signal)>,
}

impl StopSignals {
    /// Starts listening; call it inside the Tokio runtime.
    pub fn listen() -> StopSignals {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{signal, SignalKind};
            let both = match (signal(SignalKind::interrupt()), signal(SignalKind::terminate())) {
                (Ok(interrupt), Ok(terminate)) => Some((interrupt, terminate)),
                _ => None,
            };
            StopSignals { both }
        }
        #[cfg(not(unix))]
        StopSignals {}
    }

    /// Waits for one and names it; where they could not be listened for,
    /// logs why and waits for ever (a kill still ends the program).
    pub async fn next(self) -> &'static str {
        #[cfg(unix)]
        {
            let Some((mut interrupt, mut terminate)) = self.both else {
                tracing::error!(
                    "cannot listen for SIGTERM and SIGINT; stop this program by killing it"
                );
                return std::future::pending().await;
            };
            tokio::select! {
                _ = interrupt.recv() => "SIGINT",
                _ = terminate.recv() => "SIGTERM",
            }
        }
        #[cfg(not(unix))]
        {
            if tokio::signal::ctrl_c().await.is_err() {
                std::future::pending::<()>().await;
            }
            "Ctrl-C"
        }
    }
}
