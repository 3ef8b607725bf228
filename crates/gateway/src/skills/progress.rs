//! How far a long skill got (`regenerate_notes` waits for the service's notes
//! run): the MCP server turns each step into a `notifications/progress`, the
//! A2A server into a `working` status update with the step's words.

use std::fmt;
use std::sync::Arc;

/// One step: how much is done (0 to 1) and what is happening, for a person.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    pub done: f64,
    pub message: String,
}

type Sink = Arc<dyn Fn(Step) + Send + Sync>;

/// Where a skill reports its steps; [`Progress::none`] when nobody listens.
#[derive(Clone, Default)]
pub struct Progress(Option<Sink>);

impl Progress {
    /// Nobody listens.
    pub fn none() -> Progress {
        Progress(None)
    }

    /// Every step goes to `sink`.
    pub fn to(sink: impl Fn(Step) + Send + Sync + 'static) -> Progress {
        Progress(Some(Arc::new(sink)))
    }

    /// Reports a step (`done` is clamped to 0..=1).
    pub fn report(&self, done: f64, message: impl Into<String>) {
        if let Some(sink) = &self.0 {
            sink(Step { done: done.clamp(0.0, 1.0), message: message.into() });
        }
    }
}

impl fmt::Debug for Progress {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(if self.0.is_some() { "Progress(listened)" } else { "Progress(none)" })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn steps_reach_the_sink_clamped() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&seen);
        let progress = Progress::to(move |step| sink.lock().expect("lock").push(step));
        progress.report(0.5, "half");
        progress.report(3.0, "over");
        Progress::none().report(0.1, "nobody");
        let seen = seen.lock().expect("lock").clone();
        assert_eq!(
            seen,
            [
                Step { done: 0.5, message: "half".into() },
                Step { done: 1.0, message: "over".into() },
            ]
        );
    }
}
