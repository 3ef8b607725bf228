//! What every other part stands on: errors in the contract's shape, the clock,
//! the event bus, wake-ups and the background task runner, the data folder's
//! lock, logging, the Privacy Ledger's sink, and the titles the service makes up.

pub mod clock;
pub mod error;
pub mod events;
pub mod folder_lock;
pub mod ledger;
pub mod log_file;
pub mod logging;
pub mod tasks;
pub mod titles;
pub mod wake;
